/* ordex-expect: ranks=2 past=A object=mem bytes=16 */
/*
 * buf_win_create.c - a window of 8 ints over int mem[4]: other ranks could
 * put 16 bytes past the array. The twin buf_win_create_ok.c exposes sizeof
 * mem.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mem[4] = {0};
    MPI_Win win;
    MPI_Aint size = 8 * sizeof(int);
    MPI_Win_create(mem, size, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* [A] */
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
