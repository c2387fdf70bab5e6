/*
 * bad_tag.c - MPI_Send with a negative tag (-5), which is not a valid tag.
 *
 * ordex must report: [mpi_error] on rank 0 naming the tag -5 (MPI_ERR_TAG), at
 * bad_tag.c on the line marked FAULT; exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int value = 5;
    if (rank == 0) {
        MPI_Send(&value, 1, MPI_INT, 1, -5, MPI_COMM_WORLD); /* FAULT */
    } else if (rank == 1) {
        MPI_Recv(&value, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
