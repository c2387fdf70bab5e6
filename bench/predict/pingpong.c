/*
 * pingpong.c - prediction benchmark: ping-pong of BYTES-byte messages between
 * the ranks of each pair (0,1), (2,3), ... for REPS round trips.  With an odd
 * number of ranks the last one only takes part in the barriers.
 *
 *   pingpong [BYTES [REPS]]          defaults 1048576 300
 *
 * Timed region: MPI_Barrier, t0 = MPI_Wtime(), the round trips, MPI_Barrier;
 * rank 0 prints "elapsed_s <seconds>" (simulated time under a simulator) and
 * a checksum of the bytes it got back, which does not depend on timing.
 * Plain MPI: builds unchanged with mpicc, smpicc and ordexcc.
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
    long bytes = argc > 1 ? atol(argv[1]) : 1048576;
    int reps = argc > 2 ? atoi(argv[2]) : 300;
    if (bytes < 1)
        bytes = 1;

    unsigned char *buf = malloc((size_t)bytes);
    for (long i = 0; i < bytes; i++)
        buf[i] = (unsigned char)(i * 7 + rank);
    int peer = (rank % 2 == 0) ? rank + 1 : rank - 1;
    if (peer >= size)
        peer = MPI_PROC_NULL;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (peer != MPI_PROC_NULL) {
        for (int r = 0; r < reps; r++) {
            if (rank % 2 == 0) {
                MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                buf[r % bytes] ^= 1; /* the echo differs from the ping */
                MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - t0;

    if (rank == 0) {
        unsigned long sum = 0;
        for (long i = 0; i < bytes; i++)
            sum = sum * 31 + buf[i];
        printf("pingpong: ranks=%d bytes=%ld reps=%d checksum=%lu\n", size, bytes, reps, sum);
        printf("elapsed_s %.6f\n", elapsed);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
