/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_INT,unsigned+int */
/*
 * buf_type_unsigned_int.c - an unsigned array sent as MPI_INT. The twin
 * buf_type_unsigned_int_ok.c sends the values as 4 x MPI_UNSIGNED.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsigned x[4];
    if (rank == 0) {
        for (int i = 0; i < 4; i++)
            x[i] = 3000000000u + i;
        MPI_Send(x, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
