/*
 * bad_count.c - MPI_Send with a negative count (-1).
 *
 * ordex must report: [mpi_error] on rank 1 naming the count -1 (MPI_ERR_COUNT),
 * at bad_count.c on the line marked FAULT; exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int value[4] = {1, 2, 3, 4};
    if (rank == 1) {
        MPI_Send(value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* FAULT */
    } else if (rank == 0) {
        MPI_Recv(value, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
