/*
 * truncate.c - the receive buffer (2 ints) is smaller than the message (8 ints).
 *
 * ordex must report: [mpi_error] on rank 1, MPI_ERR_TRUNCATE with the word
 * "truncated", at truncate.c on the line marked FAULT (the MPI_Recv); exit 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    if (rank == 0) {
        MPI_Send(data, 8, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int small[2];
        MPI_Recv(small, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* FAULT */
        printf("rank 1: %d %d\n", small[0], small[1]);
    }
    MPI_Finalize();
    return 0;
}
