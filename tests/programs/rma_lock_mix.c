/*
 * rma_lock_mix.c - shared and exclusive locks contending for one target
 * (correct program whose output depends on the grant order).
 *
 * Even ranks r lock rank 0's window exclusively and put r+1 into its first
 * cell; odd ranks lock it shared and get that cell.  Each reader prints what
 * it read: 0 (before any writer) or the value of one writer.  Then every rank
 * adds to the second cell of rank 1 under MPI_Win_lock_all.  With 4 ranks
 * the two readers each see 0, 1 or 3: 9 outcomes, every one of which
 * exploration must reach with and without partial-order reduction
 * (tests/e2e/test_rma.c); ordex reports them as a message race (a warning).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long w[2] = {0, 0}, got = -1, v = rank + 1, old;
    MPI_Win win;
    MPI_Win_create(w, sizeof w, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank % 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get(&got, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
        MPI_Win_unlock(0, win);
        printf("rank %d read %ld\n", rank, got);
    } else {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_lock_all(0, win);
    MPI_Fetch_and_op(&v, &old, MPI_LONG, 1, 1, MPI_SUM, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
