/* ordex-expect: ranks=2 type=A object=mem byte=0 types=MPI_INT,long */
/*
 * buf_rma_put_target.c - rank 0 puts 2 x MPI_INT into rank 1's window over
 * the global long mem[4]: the target datatype's first int lies on the
 * 8-byte long mem[0] (the bytes fit the window; their C type does not).
 * The twin buf_rma_put_target_ok.c puts 2 x MPI_LONG.
 */
#include <mpi.h>

static long mem[4];

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        MPI_Put(bytes, 8, MPI_BYTE, 1, 0, 2, MPI_INT, win); /* [A] */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
