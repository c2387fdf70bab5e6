/* ordex-expect: ranks=2 clean */
/*
 * buf_type_long_long_ok.c - the correct twin of buf_type_long_long.c: sends
 * the values as 2 x MPI_LONG_LONG.
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
        MPI_Send(x, 2, MPI_LONG_LONG, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        long long y[2];
        MPI_Recv(y, 2, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
