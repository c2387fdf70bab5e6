/* ordex-expect: ranks=2 clean */
/*
 * buf_type_long_double_ok.c - the correct twin of buf_type_long_double.c:
 * sends the values as 2 x MPI_LONG_DOUBLE.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long double x[2];
    if (rank == 0) {
        x[0] = 1.0L;
        x[1] = 2.0L;
        MPI_Send(x, 2, MPI_LONG_DOUBLE, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        long double y[2];
        MPI_Recv(y, 2, MPI_LONG_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
