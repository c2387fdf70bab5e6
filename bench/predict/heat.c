/*
 * heat.c - prediction benchmark: 2-D Jacobi relaxation of the heat equation
 * on an N x N interior grid, split by rows over the ranks (the first N % n
 * ranks get one row more).  The top edge is held at 100, the other edges at 0.
 * Every step each rank
 *   - exchanges its first and last rows with the ranks above and below
 *     (MPI_Sendrecv, N doubles each way; MPI_PROC_NULL at the edges),
 *   - computes u'[i][j] = 0.25 (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1])
 *     on its rows (real floating-point work) and the sum of (u' - u)^2,
 * and every 10 steps (and after the last) the residual sqrt(sum over all
 * ranks) is computed with MPI_Allreduce.
 *
 *   heat [N [STEPS]]                 defaults 2048 200
 *
 * Timed region: MPI_Barrier, t0 = MPI_Wtime(), the steps, MPI_Barrier;
 * rank 0 prints the final residual and "elapsed_s <seconds>" (simulated
 * time under a simulator).  Plain MPI: builds unchanged with mpicc, smpicc
 * and ordexcc.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    int steps = argc > 2 ? atoi(argv[2]) : 200;
    if (n < size)
        n = size; /* at least one row per rank */

    int rows = n / size + (rank < n % size ? 1 : 0);
    int first = rank * (n / size) + (rank < n % size ? rank : n % size);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    int w = n + 2; /* row length with the left and right edge cells */

    /* Rows 0 and rows+1 are halos (or the fixed top/bottom edges). */
    double *u = calloc((size_t)(rows + 2) * (size_t)w, sizeof(double));
    double *v = calloc((size_t)(rows + 2) * (size_t)w, sizeof(double));
    for (int i = 1; i <= rows; i++)
        for (int j = 1; j <= n; j++)
            u[(size_t)i * w + j] = (double)((first + i + 3 * j) % 17) * 0.5;
    if (rank == 0)
        for (int j = 0; j < w; j++)
            u[j] = v[j] = 100.0;

    double residual = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int s = 1; s <= steps; s++) {
        MPI_Sendrecv(&u[(size_t)1 * w], w, MPI_DOUBLE, up, 1, &u[(size_t)(rows + 1) * w], w,
                     MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[(size_t)rows * w], w, MPI_DOUBLE, down, 2, &u[0], w, MPI_DOUBLE, up, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double local = 0.0;
        for (int i = 1; i <= rows; i++) {
            const double *a = &u[(size_t)(i - 1) * w], *b = &u[(size_t)i * w],
                         *c = &u[(size_t)(i + 1) * w];
            double *o = &v[(size_t)i * w];
            for (int j = 1; j <= n; j++) {
                double x = 0.25 * (a[j] + c[j] + b[j - 1] + b[j + 1]);
                double d = x - b[j];
                local += d * d;
                o[j] = x;
            }
        }
        double *t = u;
        u = v;
        v = t;
        if (s % 10 == 0 || s == steps) {
            double sum = 0.0;
            MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            residual = sqrt(sum);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - t0;

    if (rank == 0) {
        printf("heat: ranks=%d n=%d steps=%d residual=%.6e\n", size, n, steps, residual);
        printf("elapsed_s %.6f\n", elapsed);
    }
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
