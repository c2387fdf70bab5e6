/*
 * pingpong.c - ping-pong between ranks 0 and 1 with sizes 1 B .. 1 MiB.
 *
 * For each size s = 1, 2, 4, ..., 1048576 bytes, rank 0 fills a buffer with a
 * pattern that depends on s and sends it to rank 1; rank 1 adds 1 to every byte
 * and sends it back; rank 0 checks the echo.  This is repeated REPS times per
 * size.  Ranks >= 2 stay idle.  Round-trip times (MPI_Wtime) vary from run to run,
 * so they go to stderr only; stdout carries checksums, which depend only on the data.
 *
 * Run:
 *   ./ordex run     -n 2 examples/pingpong.c
 *   ./ordex explore -n 2 examples/pingpong.c
 *   mpicc -o pingpong examples/pingpong.c && mpiexec -n 2 ./pingpong
 *
 * Expected ordex verdict: no error.  Each receive names its source and tag,
 * so there is one ordering; rank 0 sends first (line 76) and rank 1 receives
 * first (line 90), so it also works without buffering (messages above the
 * eager limit use rendezvous in MPICH).  With fewer than 2 ranks the program
 * prints a note and exits normally.
 *
 * Expected stdout (any n >= 2):
 *   21 lines from rank 0 "pingpong: size S bytes checksum C echo ok" (S = 1..1048576)
 *   rank 1: echoed 63 messages, 6291453 bytes
 *   rank r: idle                                  (each r >= 2)
 * stderr: rank 0 "pingpong: size S bytes round trip T us" (timing, not compared).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_BYTES (1 << 20)
#define REPS 3

/* FNV-1a over the buffer: a deterministic content check. */
static unsigned checksum(const unsigned char *p, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

static void fill(unsigned char *p, int n) {
    for (int i = 0; i < n; i++) {
        p[i] = (unsigned char)((i * 7 + n) % 251);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("pingpong: needs at least 2 ranks, nothing to do\n");
        fflush(stdout);
        MPI_Finalize();
        return 0;
    }
    if (rank >= 2) {
        printf("rank %d: idle\n", rank);
        fflush(stdout);
        MPI_Finalize();
        return 0;
    }

    unsigned char *buf = malloc(MAX_BYTES);
    long echoed = 0, bytes = 0;
    for (int n = 1; n <= MAX_BYTES; n *= 2) {
        if (rank == 0) {
            int ok = 1;
            unsigned sum = 0;
            double t0 = MPI_Wtime();
            for (int r = 0; r < REPS; r++) {
                fill(buf, n);
                MPI_Send(buf, n, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD); /* [PING] */
                MPI_Recv(buf, n, MPI_UNSIGNED_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                for (int i = 0; i < n; i++) {
                    ok &= buf[i] == (unsigned char)((i * 7 + n) % 251 + 1);
                }
                sum = checksum(buf, n);
            }
            double us = (MPI_Wtime() - t0) / REPS * 1e6;
            printf("pingpong: size %7d bytes checksum %08x echo %s\n", n, sum, ok ? "ok" : "BAD");
            fflush(stdout);
            fprintf(stderr, "pingpong: size %7d bytes round trip %.2f us\n", n, us);
        } else {
            for (int r = 0; r < REPS; r++) {
                MPI_Status st;
                MPI_Recv(buf, n, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, &st); /* [PONG] */
                int got;
                MPI_Get_count(&st, MPI_UNSIGNED_CHAR, &got);
                for (int i = 0; i < got; i++) {
                    buf[i]++;
                }
                MPI_Send(buf, got, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD);
                echoed++;
                bytes += got;
            }
        }
    }
    if (rank == 1) {
        printf("rank 1: echoed %ld messages, %ld bytes\n", echoed, bytes);
        fflush(stdout);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
