/* ordex-expect: ranks=4 race=A,B */
/*
 * rma_race_stencil_fence.c - racy twin of rma_race_stencil_fence_ok.c: the
 * stencil computes its new points before the fence that closes the epoch
 * of the halo puts.  The loads of the halo cells and the neighbours' puts
 * into them are in the same epoch, unordered (MPI 3.1 11.7): a data race
 * between the put and the stencil's load.  (The points are stored back
 * after the fence, so the puts' origin buffers are not touched.)
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
    int nb[2] = {(rank + size - 1) % size, (rank + 1) % size}, from[2] = {1, n}, to[2] = {n + 1, 0};
    for (int s = 0; s < steps; s++) {
        MPI_Win_fence(0, win);
        for (int d = 0; d < 2; d++)
            MPI_Put(&u[from[d]], 1, MPI_DOUBLE, nb[d], to[d], 1, MPI_DOUBLE, win); /* [A] */
        for (int i = 1; i <= n; i++)
            t[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0; /* [B] */
        MPI_Win_fence(0, win);
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
