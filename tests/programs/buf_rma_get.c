/* ordex-expect: ranks=2 past=A object=local bytes=8 */
/*
 * buf_rma_get.c - rank 0 gets 4 ints of rank 1's window into int local[2]:
 * the origin buffer is written 8 bytes past its end. The twin
 * buf_rma_get_ok.c gets into int local[4].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mem[4] = {rank, rank, rank, rank};
    int local[2];
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
