/*
 * long_orderings.c - many long orderings with different outcomes.
 *
 * Ranks 0 and 1 first exchange argv[1] messages each way (default 5000), one
 * at a time with named sources: 2 x argv[1] deliveries that no ordering can
 * change.  Then ranks 1..4 each send their rank to rank 0 twice (tag = round);
 * rank 0 takes each round's four messages with MPI_ANY_SOURCE and folds their
 * sources into acc = acc * 5 + source, which it prints.  That gives 4! x 4! =
 * 576 orderings in each send mode, all with different outcomes and none
 * reaching a state another one reached.
 *
 * Two orderings with different outcomes share at most 2 x argv[1] + 6 steps:
 * the exchange, round 0, and round 1's first two receives; they then take
 * different messages at the third.
 *
 * With argv[2] = "lost", rank 1 also sends a message nobody receives (line
 * 57): every ordering ends with the same error.
 *
 * Run with 5 ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int exchanges = argc > 1 ? atoi(argv[1]) : 5000;
    int x = 0;
    for (int i = 0; i < exchanges && rank < 2; i++) {
        if (rank == 0) {
            MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            x++;
            MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) {
        long acc = 0;
        for (int round = 0; round < 2; round++) {
            for (int k = 1; k < size; k++) {
                MPI_Status st;
                int v;
                MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &st);
                acc = acc * 5 + st.MPI_SOURCE;
            }
        }
        printf("exchanged %d, acc %ld\n", x, acc);
    } else {
        for (int round = 0; round < 2; round++)
            MPI_Send(&rank, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        if (rank == 1 && argc > 2 && strcmp(argv[2], "lost") == 0)
            MPI_Send(&rank, 1, MPI_INT, 0, 7, MPI_COMM_WORLD); /* [LOST] */
    }
    MPI_Finalize();
    return 0;
}
