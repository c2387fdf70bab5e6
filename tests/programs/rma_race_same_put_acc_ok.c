/* ordex-expect: ranks=2 clean */
/*
 * rma_race_same_put_acc_ok.c - twin of rma_race_same_put_acc.c:
 * MPI_Win_flush(1) completes the put at rank 1 (MPI 3.1 11.5.4) before the
 * accumulate starts.  No race; rank 1 ends with 5 + 5 = 10.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v = 5;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
        MPI_Accumulate(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
    if (rank == 1)
        printf("rank 1: %d\n", buf[2]);
    MPI_Finalize();
    return 0;
}
