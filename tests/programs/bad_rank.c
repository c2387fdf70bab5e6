/*
 * bad_rank.c - MPI_Send to rank 99, which does not exist in a job of 4 ranks.
 *
 * ordex must report: [mpi_error] on rank 0 naming the destination 99 (invalid
 * rank, MPI_ERR_RANK), at bad_rank.c on the line marked FAULT; exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int value = 5;
    if (rank == 0) {
        MPI_Send(&value, 1, MPI_INT, 99, 0, MPI_COMM_WORLD); /* FAULT */
    }
    MPI_Finalize();
    return 0;
}
