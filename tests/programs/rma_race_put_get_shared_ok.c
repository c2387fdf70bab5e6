/* ordex-expect: ranks=3 clean */
/*
 * rma_race_put_get_shared_ok.c - twin of rma_race_put_get_shared.c with
 * exclusive locks: the two epochs on rank 2 cannot overlap, and the unlock
 * completes the put at the target before the other lock is granted (MPI 3.1
 * 11.5.3).  Which rank goes first differs between orderings; either way the
 * accesses are ordered: no race.  Rank 1 got 0 or 1; it prints whether it
 * got one of them.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock(2, win);
    } else if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock(2, win);
        printf("rank 1: got 0 or 1: %d\n", got == 0 || got == 1);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
