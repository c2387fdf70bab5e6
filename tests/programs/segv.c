/*
 * segv.c - rank 1 writes through a NULL pointer after MPI_Init.
 *
 * ordex must report: [crash] "rank 1 crashed: SIGSEGV", at segv.c on the line
 * marked FAULT, with the faulting address (0); exit status 1.  The other
 * ranks are not to blame.
 *
 * With argv[1] = "raise", rank 1 calls raise(SIGSEGV) instead (line RAISE):
 * the same crash, but sent by the program rather than a bad access, so the
 * report has no fault address.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int *volatile target; /* NULL; volatile so the compiler keeps the store */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1 && argc > 1 && strcmp(argv[1], "raise") == 0) {
        raise(SIGSEGV); /* RAISE */
    } else if (rank == 1) {
        *target = 42; /* FAULT */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: survived\n", rank);
    MPI_Finalize();
    return 0;
}
