/*
 * livelock.c - rank 1 loops forever without calling MPI.
 *
 * Run with --step-timeout 1.  ordex must report: [livelock] "rank 1 ran past
 * the step timeout without calling MPI" and exit with status 1 within a few
 * seconds, locating rank 1 in the loop (between the lines marked FAULT and
 * FAULT_END).
 */
#include <mpi.h>
#include <stdio.h>

static volatile unsigned long spins;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        for (;;) { /* FAULT */
            spins++;
        } /* FAULT_END */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
