/*
 * segv.c - rank 1 writes through a NULL pointer after MPI_Init.
 *
 * ordex must report: [crash] "rank 1 crashed: SIGSEGV", at segv.c on the line
 * marked FAULT; exit status 1.  The other ranks are not to blame.
 */
#include <mpi.h>
#include <stdio.h>

static int *volatile target; /* NULL; volatile so the compiler keeps the store */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        *target = 42; /* FAULT */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: survived\n", rank);
    MPI_Finalize();
    return 0;
}
