/* ordex-expect: ranks=3 clean */
/*
 * rma_race_gacc_put_shared_ok.c - twin of rma_race_gacc_put_shared.c with
 * exclusive locks: one epoch on rank 2 ends (and completes its operation
 * there) before the other's lock is granted (MPI 3.1 11.5.3).  No race,
 * whichever goes first; rank 0 fetched 0 or 2.
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
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
        if (rank == 0)
            MPI_Get_accumulate(&v, 1, MPI_INT, &got, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
        else
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock(2, win);
    }
    if (rank == 0)
        printf("rank 0: fetched 0 or 2: %d\n", got == 0 || got == 2);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
