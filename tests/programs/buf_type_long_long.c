/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_DOUBLE,long+long+int */
/*
 * buf_type_long_long.c - long long values sent as MPI_DOUBLE (the same
 * size). The twin buf_type_long_long_ok.c sends the values as 2 x
 * MPI_LONG_LONG.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long long x[2];
    if (rank == 0) {
        x[0] = 1LL << 50;
        x[1] = -7;
        MPI_Send(x, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
