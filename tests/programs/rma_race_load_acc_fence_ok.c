/* ordex-expect: ranks=2 clean */
/*
 * rma_race_load_acc_fence_ok.c - twin of rma_race_load_acc_fence.c: rank 0
 * accumulates (MPI_SUM) into int 1 of rank 1's window in a fence epoch and
 * rank 1 loads the int after the closing fence, which completes the
 * accumulate (MPI 3.1 11.5.1).  No race: rank 1 reads 11.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
