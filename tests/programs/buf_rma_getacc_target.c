/* ordex-expect: ranks=2 type=A object=f byte=0 types=MPI_INT,float */
/*
 * buf_rma_getacc_target.c - rank 0 fetches and adds 4 x MPI_INT with
 * MPI_Get_accumulate on rank 1's window over the global float f[4]: the
 * origin and result are ints, the target floats of the same size. The
 * twin buf_rma_getacc_target_ok.c makes f an int[4].
 */
#include <mpi.h>

static float f[4];

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
