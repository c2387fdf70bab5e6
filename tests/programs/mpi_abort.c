/*
 * mpi_abort.c - rank 0 calls MPI_Abort(MPI_COMM_WORLD, 7).
 *
 * ordex must report: [crash] naming rank 0, MPI_Abort and the error code 7, at
 * mpi_abort.c on the line marked FAULT; exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("rank 0: giving up\n");
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 7); /* FAULT */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
