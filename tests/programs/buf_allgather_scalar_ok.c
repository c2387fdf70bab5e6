/* ordex-expect: ranks=2 clean */
/*
 * buf_allgather_scalar_ok.c - the correct twin of buf_allgather_scalar.c:
 * gathers into int all[2].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mine = rank, all[2];
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
