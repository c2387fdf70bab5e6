/*
 * spin_forever.c - rank 0 computes forever once its messages are in: for the
 * tests that stop ordex with a signal or a time limit.
 *
 *   spin_forever MARKER MODE      (MODE: clean, exit or poll)
 *
 * Ranks 1..n-1 send 4 ints each to rank 0, which receives them with
 * MPI_ANY_SOURCE (when explored, every ordering passes a chain of branching
 * states, each a snapshot process), prints "rank 0: got N" and, without a
 * newline, "rank 0: computing", creates the file MARKER and loops forever
 * without calling MPI (line marked SPIN).  With --step-timeout 0 only a
 * signal or --max-time ends that.
 *   exit: rank 1 ends with exit(3) after its sends, without MPI_Finalize: a
 *         finding of every ordering, made before rank 0 loops.
 *   poll: rank 1, after its sends, polls with MPI_Iprobe for a message that
 *         never comes (under predict with the ranks sharing cores, the
 *         placements are simulated in child processes).
 *
 * ordex explore --step-timeout 0 -n 4 spin_forever.c M clean, then SIGTERM
 * to ordex: INCOMPLETE (interrupted), exit 2, no process left; with exit:
 * the finding, its trace, exit 1.  --max-time 1 instead of the signal:
 * INCOMPLETE (the time limit), exit 2.  ordex run: the same, with rank 0's
 * partial line printed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PER_RANK 4

static volatile unsigned long spins;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *marker = argc > 1 ? argv[1] : "spin_forever.marker";
    const char *mode = argc > 2 ? argv[2] : "clean";
    if (rank == 0) {
        int got = 0, v;
        for (int i = 0; i < PER_RANK * (size - 1); i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            got++;
        }
        printf("rank 0: got %d\n", got);
        printf("rank 0: computing");
        fflush(stdout);
        FILE *f = fopen(marker, "w");
        if (f)
            fclose(f);
        for (;;) /* SPIN */
            spins++;
    }
    for (int i = 0; i < PER_RANK; i++) {
        int v = rank * 10 + i;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    if (rank == 1 && strcmp(mode, "exit") == 0)
        exit(3);
    if (rank == 1 && strcmp(mode, "poll") == 0) {
        int flag = 0;
        while (!flag)
            MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
