/*
 * overlap.c - prediction benchmark: rank 0 sends BYTES bytes to rank 1
 * ITERS times; rank 1 posts MPI_Irecv, computes WORK million steps of a
 * floating-point recurrence, then calls MPI_Wait.  An MPI library without
 * asynchronous progress moves a rendezvous message only once rank 1 is in
 * MPI_Wait, so an iteration takes the computation plus the transfer, not the
 * longer of the two.  Ranks other than 0 and 1 only take part in the
 * barriers.
 *
 *   overlap [BYTES [ITERS [WORK]]]   defaults 16777216 50 1
 *
 * Timed region: MPI_Barrier, t0 = MPI_Wtime(), the iterations, MPI_Barrier;
 * rank 0 prints "elapsed_s <seconds>" (simulated time under a simulator);
 * rank 1 prints a checksum that does not depend on timing.
 * Plain MPI: builds unchanged with mpicc, smpicc and ordexcc.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Work that the compiler cannot skip: a recurrence whose result is printed. */
static double compute(long steps, double x) {
    for (long i = 0; i < steps; i++)
        x = x * 1.0000001 + 0.5 / (x + 1.0);
    return x;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long bytes = argc > 1 ? atol(argv[1]) : 16777216;
    int iters = argc > 2 ? atoi(argv[2]) : 50;
    long work = (argc > 3 ? atol(argv[3]) : 1) * 1000000L;
    if (bytes < 1)
        bytes = 1;

    unsigned char *buf = malloc((size_t)bytes);
    for (long i = 0; i < bytes; i++)
        buf[i] = (unsigned char)(i * 3 + rank);
    double x = 1.0, sum = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (size > 1) {
        for (int it = 0; it < iters; it++) {
            if (rank == 0) {
                buf[it % bytes]++;
                MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            } else if (rank == 1) {
                MPI_Request req;
                MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &req);
                x = compute(work, x);
                MPI_Wait(&req, MPI_STATUS_IGNORE);
                sum += buf[it % bytes];
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - t0;

    if (rank == 1)
        printf("overlap: checksum %.0f result %.6g\n", sum, x);
    if (rank == 0) {
        printf("overlap: ranks=%d bytes=%ld iters=%d\n", size, bytes, iters);
        printf("elapsed_s %.6f\n", elapsed);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
