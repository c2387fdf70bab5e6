/* ordex-expect: ranks=2 clean */
/*
 * buf_type_long_2int_ok.c - the correct twin of buf_type_long_2int.c: sends
 * the values as 1 x MPI_LONG.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long x[1];
    if (rank == 0) {
        x[0] = 1L << 40;
        MPI_Send(x, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        long y[1];
        MPI_Recv(y, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
