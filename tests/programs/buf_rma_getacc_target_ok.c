/* ordex-expect: ranks=2 clean */
/*
 * buf_rma_getacc_target_ok.c - the correct twin of
 * buf_rma_getacc_target.c: rank 1's window is the global int f[4].
 */
#include <mpi.h>

static int f[4];

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int add[4] = {1, 2, 3, 4}, old[4];
    MPI_Win win;
    MPI_Win_create(f, sizeof f, sizeof f[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get_accumulate(add, 4, MPI_INT, old, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_SUM, /* [A] */
                           win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
