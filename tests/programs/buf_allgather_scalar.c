/* ordex-expect: ranks=2 past=A object=all bytes=4 */
/*
 * buf_allgather_scalar.c - an allgather over 2 ranks writes 2 ints into the
 * single int `all` on each rank's stack: 4 bytes past its end. The twin
 * buf_allgather_scalar_ok.c gathers into int all[2].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mine = rank, all;
    MPI_Allgather(&mine, 1, MPI_INT, &all, 1, MPI_INT, MPI_COMM_WORLD); /* [A] */
    MPI_Finalize();
    return 0;
}
