/* ordex-expect: ranks=2 past=A object=acc bytes=8 */
/*
 * buf_static_inplace.c - an allreduce with MPI_IN_PLACE over 4 doubles of
 * the static double acc[3]: the receive buffer is read and written 8 bytes
 * past its end. The twin buf_static_inplace_ok.c reduces 3.
 */
#include <mpi.h>

static void accumulate(int rank) {
    static double acc[3];
    for (int i = 0; i < 3; i++)
        acc[i] += rank;
    MPI_Allreduce(MPI_IN_PLACE, acc, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* [A] */
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    accumulate(rank);
    MPI_Finalize();
    return 0;
}
