/* ordex-expect: ranks=4 clean run */
/*
 * rma_race_stencil_fence_ok.c - a 1-D three-point stencil over a window:
 * each rank's window holds its n points and a halo cell at each end.  Every
 * step puts the rank's two edge points into its neighbours' halos in one
 * fence epoch, then, after the closing fence, computes the new points from
 * the window (loads of every point and both halos) and stores them back.
 * The fences order every put before the loads of the halos it fills and
 * after the stores of the points it sends (MPI 3.1 11.5.1): no race, however
 * many loads and stores the steps make.  Optional arguments: n (default
 * 1000) and the number of steps (default 20).  Rank 0 prints a checksum.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 1000, steps = argc > 2 ? atoi(argv[2]) : 20;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *u = malloc((size_t)(n + 2) * sizeof *u), *t = malloc((size_t)(n + 2) * sizeof *t);
    for (int i = 0; i < n + 2; i++)
        u[i] = rank * n + i;
    MPI_Win_create(u, (MPI_Aint)(n + 2) * sizeof *u, sizeof *u, MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    for (int s = 0; s < steps; s++) {
        MPI_Win_fence(0, win);
        MPI_Put(&u[1], 1, MPI_DOUBLE, left, n + 1, 1, MPI_DOUBLE, win);
        MPI_Put(&u[n], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
        MPI_Win_fence(0, win);
        for (int i = 1; i <= n; i++)
            t[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
        for (int i = 1; i <= n; i++)
            u[i] = t[i];
    }
    MPI_Win_fence(0, win);
    double local = 0, sum = 0;
    for (int i = 1; i <= n; i++)
        local += u[i];
    MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("checksum %.6e\n", sum);
    MPI_Win_free(&win);
    free(u);
    free(t);
    MPI_Finalize();
    return 0;
}
