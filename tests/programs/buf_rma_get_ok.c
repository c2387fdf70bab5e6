/* ordex-expect: ranks=2 clean */
/*
 * buf_rma_get_ok.c - the correct twin of buf_rma_get.c: gets into int
 * local[4].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mem[4] = {rank, rank, rank, rank};
    int local[4];
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get(local, 4, MPI_INT, 1, 0, 4, MPI_INT, win); /* [A] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
