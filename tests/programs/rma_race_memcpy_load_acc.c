/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_memcpy_load_acc.c - in one fence epoch rank 0 accumulates
 * (MPI_SUM) into int 3 of rank 1's window while rank 1 copies its window
 * out with memcpy.  memcpy reads every byte of the window, int 3 among
 * them: a load of a location that an accumulate updates in the same epoch
 * (MPI 3.1 11.7), a data race at the memcpy.  The twin
 * rma_race_memcpy_load_acc_ok.c copies after the closing fence.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, buf[8] = {0, 0, 0, 0, 0, 0, 0, 0}, copy[8], v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 1, 3, 1, MPI_INT, MPI_SUM, win); /* [A] */
    else
        memcpy(copy, buf, sizeof buf); /* [B] */
    MPI_Win_fence(0, win);
    if (rank == 1)
        printf("rank 1: 0 or 10: %d\n", copy[3] == 0 || copy[3] == 10);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
