/*
 * slow_buffered.c - a search that never ends when standard sends are
 * buffered, and a deadlock at once when they are not.
 *
 * Ranks 0 and 1 first exchange one int with MPI_Send then MPI_Recv (line
 * marked SEND): when MPI_Send is not buffered, both block in it, in every
 * ordering.  When it is buffered, ranks 2..n-1 then send 8 ints each to rank
 * 0, which receives them with MPI_ANY_SOURCE and folds them into a value
 * that depends on their order, so that no two orderings merge: far too many
 * orderings to explore.
 *
 * ordex explore --max-time 4 -n 5 must report [deadlock] "only when MPI_Send
 * is not buffered" at the SEND line (exit 1), and say that the buffered pass
 * was stopped by the time limit while the unbuffered pass was complete.
 * ordex run --send-mode=rendezvous -n 5: the deadlock.  ordex run -n 5: no
 * error, rank 0 prints "rank 0: folded N".
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 8

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank <= 1 && size >= 2) {
        int other = 1 - rank, got = -1;
        MPI_Send(&rank, 1, MPI_INT, other, 0, MPI_COMM_WORLD); /* SEND */
        MPI_Recv(&got, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0) {
        unsigned folded = 0;
        for (int i = 0; i < ROUNDS * (size - 2); i++) {
            int v;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            folded = folded * 31u + (unsigned)v;
        }
        printf("rank 0: folded %u\n", folded);
    } else if (rank >= 2) {
        for (int i = 0; i < ROUNDS; i++) {
            int v = rank * 100 + i;
            MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
