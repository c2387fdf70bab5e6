/*
 * no_finalize.c - rank 1 returns from main without calling MPI_Finalize.
 *
 * ordex must report: [mpi_error] "rank 1 ended (status 0) without calling
 * MPI_Finalize"; exit status 1.  The other ranks finalize normally.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: done\n", rank);
    fflush(stdout);
    if (rank == 1) {
        return 0; /* FAULT */ /* (no MPI_Finalize) */
    }
    MPI_Finalize();
    return 0;
}
