/*
 * bad_type.c - sending with a derived datatype that was never committed.
 *
 * ordex must report: [mpi_error] on rank 0 saying the datatype is not committed
 * (MPI_ERR_TYPE), at bad_type.c on the line marked FAULT; exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int buf[6] = {0, 1, 2, 3, 4, 5};
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair); /* no MPI_Type_commit */
    if (rank == 0) {
        MPI_Send(buf, 3, pair, 1, 0, MPI_COMM_WORLD); /* FAULT */
    } else if (rank == 1) {
        MPI_Recv(buf, 6, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
