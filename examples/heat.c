/*
 * heat.c - explicit 1-D heat equation with halo exchange (correct program).
 *
 * N cells (argv[1], default 1024) are split into contiguous blocks, rank q owning
 * cells [q*N/size, (q+1)*N/size).  The left end is held at 100, the right end at 0.
 * Every step each rank exchanges its edge cells with its neighbours using two
 * MPI_Sendrecv calls (MPI_PROC_NULL at the ends), then updates
 *   u'[i] = u[i] + 0.25 * (u[i-1] - 2 u[i] + u[i+1]).
 * After S steps (argv[2], default 100) rank 0 prints the sum (in fixed point,
 * exact integers, so the reduction order cannot change it) and the maximum.
 * Each cell is computed by the same floating-point operations whatever the
 * number of ranks, so the output is identical for every n.
 *
 * Run:
 *   ./ordex run     -n 4 examples/heat.c [N] [steps]
 *   ./ordex explore -n 4 examples/heat.c [N] [steps]
 *   mpicc -o heat examples/heat.c && mpiexec -n 4 ./heat [N] [steps]
 *
 * Expected ordex verdict: no error.  Receives name their source, MPI_Sendrecv
 * cannot deadlock on a chain (line 62 and line 65), and MPI_Reduce of
 * integers and of a maximum is order independent.
 *
 * Expected stdout (defaults; lines may interleave):
 *   rank q: cells [A, B)                          (one line per rank)
 *   heat: N=1024 steps=100 checksum=15586326537 max=89.117821     (rank 0)
 * The checksum line is the same for every number of ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int steps = argc > 2 ? atoi(argv[2]) : 100;
    if (n < size) {
        n = size; /* at least one cell per rank */
    }

    int first = (int)((long long)rank * n / size);
    int count = (int)((long long)(rank + 1) * n / size) - first;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    printf("rank %d: cells [%d, %d)\n", rank, first, first + count);
    fflush(stdout);

    /* u[0] and u[count+1] are halo cells; at the domain ends they hold the boundary. */
    double *u = malloc((size_t)(count + 2) * sizeof(double));
    double *v = malloc((size_t)(count + 2) * sizeof(double));
    for (int i = 1; i <= count; i++) {
        int g = first + i - 1;
        u[i] = (g >= n / 4 && g < n / 2) ? 50.0 : (double)(g % 7);
    }
    u[0] = v[0] = 100.0;
    u[count + 1] = v[count + 1] = 0.0;

    for (int s = 0; s < steps; s++) {
        /* Send my first cell left, receive my right halo from the right ... */
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, // [SR1]
                     &u[count + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* ... send my last cell right, receive my left halo from the left. */
        MPI_Sendrecv(&u[count], 1, MPI_DOUBLE, right, 1, // [SR2]
                     &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 1; i <= count; i++) {
            v[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        }
        double *t = u;
        u = v;
        v = t;
        /* The new array's halo still holds the values of two steps ago; the
           next exchange overwrites it (and at the ends it is the boundary). */
    }

    long long local = 0;
    double local_max = 0.0;
    for (int i = 1; i <= count; i++) {
        local += (long long)(u[i] * 1e6 + 0.5); /* u >= 0: round to micro-units */
        if (u[i] > local_max) {
            local_max = u[i];
        }
    }
    long long total = 0;
    double max = 0.0;
    MPI_Reduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&local_max, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("heat: N=%d steps=%d checksum=%lld max=%.6f\n", n, steps, total, max);
        fflush(stdout);
    }
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
