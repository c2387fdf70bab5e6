/*
 * rma_stencil.c - a 2-D Jacobi sweep whose grid is an MPI window: each
 * step puts the last row into the next rank's first row (a fence epoch),
 * then computes over the window memory with plain loads and stores.  Used
 * to check that `ordex predict` does not charge the instrumentation of
 * loads and stores to the computation (bench/RESULTS.md, "RMA against
 * point-to-point halo exchange"): built by ordexcc with the
 * instrumentation, every access to the window would reach the race
 * checker if predict let the hooks' calls be armed.
 *
 *   ordex predict -n 2 rma_stencil.c [rows] [steps]     (default 512 10)
 *
 * Rank 0 prints "sum S" (the grid's sum after the steps).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 512;
    int steps = argc > 2 ? atoi(argv[2]) : 10;
    double *u;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(n + 2) * n * (MPI_Aint)sizeof(double), sizeof(double),
                     MPI_INFO_NULL, MPI_COMM_WORLD, &u, &win);
    double *v = calloc((size_t)(n + 2) * (size_t)n, sizeof(double));
    for (int i = 0; i < (n + 2) * n; i++)
        u[i] = i % 7;
    MPI_Win_fence(0, win);
    for (int s = 0; s < steps; s++) {
        MPI_Put(&u[n * n], n, MPI_DOUBLE, (rank + 1) % size, 0, n, MPI_DOUBLE, win);
        MPI_Win_fence(0, win);
        for (int i = 1; i <= n; i++)
            for (int j = 1; j < n - 1; j++)
                v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] +
                                       u[i * n + j + 1]);
        for (int i = 1; i <= n; i++)
            for (int j = 1; j < n - 1; j++)
                u[i * n + j] = v[i * n + j];
        MPI_Win_fence(0, win);
    }
    double sum = 0;
    for (int i = 0; i < n * n; i++)
        sum += u[i];
    if (rank == 0)
        printf("sum %g\n", sum);
    MPI_Win_free(&win);
    free(v);
    MPI_Finalize();
    return 0;
}
