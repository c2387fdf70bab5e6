/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_DOUBLE,long+double */
/*
 * buf_type_long_double.c - long doubles sent as 2 x MPI_DOUBLE each. The
 * twin buf_type_long_double_ok.c sends the values as 2 x MPI_LONG_DOUBLE.
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
        MPI_Send(x, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
