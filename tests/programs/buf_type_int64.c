/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_UINT64_T,int64_t */
/*
 * buf_type_int64.c - int64_t values sent as MPI_UINT64_T (a fixed-width
 * type of the other signedness). The twin buf_type_int64_ok.c sends the
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
        MPI_Send(x, 2, MPI_UINT64_T, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
