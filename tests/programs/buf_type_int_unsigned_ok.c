/* ordex-expect: ranks=2 clean */
/*
 * buf_type_int_unsigned_ok.c - the correct twin of buf_type_int_unsigned.c:
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
        MPI_Send(x, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        int y[4];
        MPI_Recv(y, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
