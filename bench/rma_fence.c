/*
 * rma_fence.c - what MPI_Barrier, an empty MPI_Win_fence and a put of one
 * long followed by a fence cost in a real MPI, per call (bench/rma_predict.sh
 * runs it under MPICH; bench/RESULTS.md "RMA against point-to-point halo
 * exchange").  `ordex predict` charges a fence as MPICH's barrier, started
 * once the rank's operations have arrived: here a put and its fence should
 * cost about a message more than a barrier.
 *
 *   mpiexec.mpich -n 2 rma_fence [calls]     (default 100000 calls of each)
 *
 * Rank 0 prints, three times: "barrier X us, empty fence Y us, put+fence Z us".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int calls = argc > 1 ? atoi(argv[1]) : 100000;
    long cells[2] = {0, 0};
    MPI_Win win;
    MPI_Win_create(cells, sizeof cells, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    for (int round = 0; round < 3; round++) {
        double t = MPI_Wtime();
        for (int i = 0; i < calls; i++)
            MPI_Barrier(MPI_COMM_WORLD);
        double barrier = (MPI_Wtime() - t) / calls;
        t = MPI_Wtime();
        for (int i = 0; i < calls; i++)
            MPI_Win_fence(0, win);
        double fence = (MPI_Wtime() - t) / calls;
        t = MPI_Wtime();
        for (int i = 0; i < calls; i++) {
            MPI_Put(&cells[0], 1, MPI_LONG, (rank + 1) % size, 1, 1, MPI_LONG, win);
            MPI_Win_fence(0, win);
        }
        double put = (MPI_Wtime() - t) / calls;
        if (rank == 0)
            printf("barrier %.2f us, empty fence %.2f us, put+fence %.2f us\n", barrier * 1e6,
                   fence * 1e6, put * 1e6);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
