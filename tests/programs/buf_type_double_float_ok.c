/* ordex-expect: ranks=2 clean */
/*
 * buf_type_double_float_ok.c - the correct twin of buf_type_double_float.c:
 * sends the values as 2 x MPI_DOUBLE.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x[2];
    if (rank == 0) {
        x[0] = 1.5;
        x[1] = 2.5;
        MPI_Send(x, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        double y[2];
        MPI_Recv(y, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
