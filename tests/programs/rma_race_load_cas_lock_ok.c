/* ordex-expect: ranks=2 clean */
/*
 * rma_race_load_cas_lock_ok.c - twin of rma_race_load_cas_lock.c: rank 0
 * calls MPI_Compare_and_swap on int 1 of rank 1's window under an exclusive
 * lock on rank 1, and rank 1 loads the int under a shared lock of its own
 * window.  The exclusive lock excludes the shared one and the unlock
 * completes the swap at the target (MPI 3.1 11.5.3): in either grant order
 * the accesses are ordered, no race.  Rank 1 reads 1 (before) or 10
 * (after).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, cmp = 1, old = -1, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Compare_and_swap(&v, &cmp, &old, MPI_INT, 1, 1, win);
        MPI_Win_unlock(1, win);
    } else {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        seen = buf[1];
        MPI_Win_unlock(1, win);
        printf("rank 1: 1 or 10: %d\n", seen == 1 || seen == 10);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
