/* ordex-expect: ranks=2 clean */
/*
 * buf_rma_acc_target_ok.c - the correct twin of buf_rma_acc_target.c:
 * rank 0 adds 4 x MPI_INT from int ones[4] to rank 1's local int
 * counts[4].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int counts[4] = {0, 0, 0, 0};
    int ones[4] = {1, 1, 1, 1};
    MPI_Win win;
    MPI_Win_create(counts, sizeof counts, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(ones, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_SUM, win); /* [A] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
