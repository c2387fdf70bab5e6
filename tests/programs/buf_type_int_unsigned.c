/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_UNSIGNED,int */
/*
 * buf_type_int_unsigned.c - an int array sent as MPI_UNSIGNED: same size,
 * but the C type and the MPI type disagree (nothing else notices: the
 * receiver uses MPI_UNSIGNED too). The twin buf_type_int_unsigned_ok.c
 * sends the values as 4 x MPI_INT.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int x[4];
    if (rank == 0) {
        for (int i = 0; i < 4; i++)
            x[i] = -i;
        MPI_Send(x, 4, MPI_UNSIGNED, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
