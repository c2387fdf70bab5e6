/* ordex-expect: ranks=2 type=A object=counts byte=0 types=MPI_UNSIGNED,int */
/*
 * buf_rma_acc_target.c - rank 0 adds 4 x MPI_UNSIGNED to rank 1's window
 * over its local int counts[4] (a variable of main's frame, which rank 1
 * is still in): an unsigned on an int at the target. The twin
 * buf_rma_acc_target_ok.c accumulates MPI_INT.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int counts[4] = {0, 0, 0, 0};
    unsigned ones[4] = {1, 1, 1, 1};
    MPI_Win win;
    MPI_Win_create(counts, sizeof counts, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(ones, 4, MPI_UNSIGNED, 1, 0, 4, MPI_UNSIGNED, MPI_SUM, win); /* [A] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
