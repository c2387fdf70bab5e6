/*
 * ring.c - prediction benchmark: a token of BYTES bytes goes ROUNDS times
 * around the ring 0 -> 1 -> ... -> n-1 -> 0; every rank adds one to its first
 * byte on the way, so rank 0 can check the count.
 *
 *   ring [ROUNDS [BYTES]]            defaults 20000 8
 *
 * Timed region: MPI_Barrier, t0 = MPI_Wtime(), the rounds, MPI_Barrier;
 * rank 0 prints "elapsed_s <seconds>" (simulated time under a simulator).
 * Plain MPI: builds unchanged with mpicc, smpicc and ordexcc.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 20000;
    int bytes = argc > 2 ? atoi(argv[2]) : 8;
    if (bytes < 1)
        bytes = 1;

    unsigned char *tok = calloc((size_t)bytes, 1);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (size > 1) {
        for (int r = 0; r < rounds; r++) {
            if (rank == 0) {
                tok[0]++;
                MPI_Send(tok, bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
                MPI_Recv(tok, bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(tok, bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                tok[0]++;
                MPI_Send(tok, bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - t0;

    if (rank == 0) {
        printf("ring: ranks=%d rounds=%d bytes=%d token=%d (expected %d)\n", size, rounds, bytes,
               tok[0], (int)((long)rounds * size % 256));
        printf("elapsed_s %.6f\n", elapsed);
    }
    free(tok);
    MPI_Finalize();
    return 0;
}
