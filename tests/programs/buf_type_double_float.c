/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_FLOAT,double */
/*
 * buf_type_double_float.c - two doubles sent as 4 x MPI_FLOAT. The twin
 * buf_type_double_float_ok.c sends the values as 2 x MPI_DOUBLE.
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
        MPI_Send(x, 4, MPI_FLOAT, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
