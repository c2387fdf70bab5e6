/*
 * exit_code.c - rank 2 calls exit(3) after MPI_Finalize.
 *
 * ordex must report: [crash] "rank 2 exited with status 3"; exit status 1.
 * Every rank prints its line first.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: finishing\n", rank);
    fflush(stdout);
    MPI_Finalize();
    if (rank == 2) {
        exit(3); /* FAULT */
    }
    return 0;
}
