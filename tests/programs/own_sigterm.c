/*
 * own_sigterm.c - SIGINT and SIGTERM handlers of the program are its ranks'
 * own, and SIGINT or SIGTERM from outside still stops ordex.
 *
 *   own_sigterm MARKER
 *
 * Every rank sets handlers for SIGINT and SIGTERM that print "rank r:
 * handler got SIGNAL", and raises SIGTERM at itself once: each rank prints
 *   rank r: handler got SIGTERM
 * once, with its own rank.  After a barrier, rank 0 creates the file MARKER
 * and computes forever without calling MPI (the others wait in a second
 * MPI_Barrier).
 *
 * ordex run --step-timeout 0, then SIGTERM (or SIGINT) to ordex: the run
 * stops ("ordex was interrupted"), exit 2, and no handler of the program
 * runs for that signal.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int rank;
static volatile unsigned long spins;

static void handler(int sig) {
    printf("rank %d: handler got %s\n", rank, sig == SIGTERM ? "SIGTERM" : "SIGINT");
    fflush(stdout);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *marker = argc > 1 ? argv[1] : "own_sigterm.marker";
    signal(SIGINT, handler);
    signal(SIGTERM, handler);
    raise(SIGTERM);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        FILE *f = fopen(marker, "w");
        if (f)
            fclose(f);
        for (;;)
            spins++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
