/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_INT,long+int */
/*
 * buf_type_long_2int.c - a long sent as 2 x MPI_INT: 8 bytes either way,
 * but its element 0 is a 4-byte MPI_INT on an 8-byte long. The twin
 * buf_type_long_2int_ok.c sends the values as 1 x MPI_LONG.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long x[1];
    if (rank == 0) {
        x[0] = 1L << 40;
        MPI_Send(x, 2, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
