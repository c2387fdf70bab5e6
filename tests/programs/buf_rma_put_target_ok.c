/* ordex-expect: ranks=2 clean */
/*
 * buf_rma_put_target_ok.c - the correct twin of buf_rma_put_target.c: the
 * 8 bytes go to rank 1's long mem[0] as 1 x MPI_LONG.
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
        MPI_Put(bytes, 8, MPI_BYTE, 1, 0, 1, MPI_LONG, win); /* [A] */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
