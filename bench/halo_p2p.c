/*
 * halo_p2p.c - examples/rma_halo.c with point-to-point messages instead of
 * one-sided puts: the same cells, the same stencil, the same output, so
 * that `ordex predict` of the two compares the cost of the halo exchange
 * alone (bench/rma_predict.sh, bench/RESULTS.md "RMA against point-to-point
 * halo exchange").
 *
 * N cells (argv[1], default 64) in contiguous blocks, one ghost cell on
 * either side; every step each rank sends its first cell to its left
 * neighbour and its last to its right one (MPI_Isend), receives its ghosts
 * from them (MPI_Irecv; at the ends the fixed boundary values stay), waits
 * for the four requests and updates
 *   u'[i] = (u[i-1] + 2 u[i] + u[i+1]) / 4     (integers, exactly)
 * After S steps (argv[2], default 20) rank 0 gathers the sum with MPI_Reduce.
 * Where rma_halo.c synchronises every step with two fences (the second
 * keeps the next step's puts from overwriting ghosts still being read),
 * the receives here order everything: a ghost is written only by the
 * message the rank asked for.
 *
 * Expected stdout: the same lines as rma_halo.c for the same N and steps.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < size)
        n = size;
    int lo = (int)((long)rank * n / size), hi = (int)((long)(rank + 1) * n / size);
    int len = hi - lo;

    long *u = calloc((size_t)len + 2, sizeof(long));
    long *next = calloc((size_t)len + 2, sizeof(long));
    for (int i = 1; i <= len; i++) {
        int g = lo + i - 1;
        u[i] = (g % 7) * 1000 + g;
    }
    u[0] = 100000;
    u[len + 1] = 0;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    for (int s = 0; s < steps; s++) {
        MPI_Request req[4];
        MPI_Irecv(&u[0], 1, MPI_LONG, left, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&u[len + 1], 1, MPI_LONG, right, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&u[1], 1, MPI_LONG, left, 0, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&u[len], 1, MPI_LONG, right, 0, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        for (int i = 1; i <= len; i++)
            next[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4;
        for (int i = 1; i <= len; i++)
            u[i] = next[i];
    }
    long sum = 0;
    for (int i = 1; i <= len; i++)
        sum += u[i];
    printf("rank %d: cells [%d, %d) sum %ld\n", rank, lo, hi, sum);
    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_halo: N=%d steps=%d total=%ld\n", n, steps, total);
    free(u);
    free(next);
    MPI_Finalize();
    return 0;
}
