/*
 * ring.c - a token travels K times around a ring of all ranks.
 *
 * Rank 0 starts the token at 0 and sends it to rank 1; every rank receives the
 * token from its left neighbour, adds 1 and sends it to its right neighbour.
 * After K rounds (K = argv[1], default 10) rank 0 holds the token K * size.
 * Each rank keeps O(1) state, so this scales to 10,000 ranks.
 *
 * Run:
 *   ./ordex run     -n 4 examples/ring.c [K]
 *   ./ordex explore -n 4 examples/ring.c [K]
 *   mpicc -o ring examples/ring.c && mpiexec -n 4 ./ring [K]
 *
 * Expected ordex verdict: no error (run and explore).  Every receive names its
 * source, so there is exactly one ordering of matches per rank; it is also
 * deadlock-free without buffering: rank 0 sends first (line 56) while every
 * other rank receives first (line 60).
 *
 * Expected stdout (one line per rank; lines of different ranks may interleave):
 *   rank r: last token received T    with T = (K-1)*size + r - 1 for r > 0
 *   rank 0: final token K*size after K rounds
 * e.g. n=4, K=10: "rank 1: last token received 36" ... "rank 0: final token 40 after 10 rounds".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long rounds = 10;
    if (argc > 1) {
        rounds = strtol(argv[1], NULL, 10);
        if (rounds < 1) {
            rounds = 1;
        }
    }
    int right = (rank + 1) % size;
    int left = (rank - 1 + size) % size;
    long token = 0;

    if (size == 1) {
        /* A ring of one: the token only visits rank 0. */
        token = rounds;
        printf("rank 0: final token %ld after %ld rounds\n", token, rounds);
        fflush(stdout);
        MPI_Finalize();
        return 0;
    }

    for (long k = 0; k < rounds; k++) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_LONG, right, 0, MPI_COMM_WORLD); /* [SEND0] */
            MPI_Recv(&token, 1, MPI_LONG, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token++;
        } else {
            MPI_Recv(&token, 1, MPI_LONG, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [RECVR] */
            if (k == rounds - 1) {
                printf("rank %d: last token received %ld\n", rank, token);
                fflush(stdout);
            }
            token++;
            MPI_Send(&token, 1, MPI_LONG, right, 0, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) {
        printf("rank 0: final token %ld after %ld rounds\n", token, rounds);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
