/* ordex-expect: ranks=2 clean */
/*
 * buf_type_int64_ok.c - the correct twin of buf_type_int64.c: sends the
 * values as 2 x MPI_INT64_T.
 */
#include <mpi.h>
#include <stdint.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int64_t x[2];
    if (rank == 0) {
        x[0] = -1;
        x[1] = 2;
        MPI_Send(x, 2, MPI_INT64_T, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        int64_t y[2];
        MPI_Recv(y, 2, MPI_INT64_T, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
