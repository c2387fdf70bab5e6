/*
 * getopt_merge.c - a rank's getopt position (optind) is part of the state
 * that exploration compares: two states that differ only there must not be
 * merged.
 *
 * Round 1: ranks 1 and 2 send to rank 0, which takes both with
 * MPI_ANY_SOURCE; when the message of rank T (the argument, 1 or 2) comes
 * first, rank 0 moves optind on by one, as a parse of one argument would.
 * After a barrier, round 2 is the same without the move, and then rank 0
 * calls abort() if optind moved.  The two orderings of round 1 reach round
 * 2's choice with the same memory but for optind, which the C library keeps
 * and ordex switches with the rank.
 *
 * ordex explore must report: [crash] "rank 0 crashed: SIGABRT" at the line
 * marked FAULT, for T = 1 and for T = 2; exit status 1.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static MPI_Status status;

static void take_two(int move_after) {
    int v;
    for (int i = 0; i < 2; i++) {
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
        if (i == 0 && status.MPI_SOURCE == move_after)
            optind++;
        memset(&status, 0, sizeof status); /* the source leaves no trace but optind */
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int trigger = argc > 1 ? atoi(argv[1]) : 1;
    int start = optind, v = 7;
    for (int round = 0; round < 2; round++) {
        if (rank == 0)
            take_two(round == 0 ? trigger : -1);
        else if (rank <= 2)
            MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0 && optind != start)
        abort(); /* FAULT */
    MPI_Finalize();
    return 0;
}
