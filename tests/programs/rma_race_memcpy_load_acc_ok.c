/* ordex-expect: ranks=2 clean */
/*
 * rma_race_memcpy_load_acc_ok.c - twin of rma_race_memcpy_load_acc.c: rank
 * 0 accumulates (MPI_SUM) into int 3 of rank 1's window in a fence epoch
 * and rank 1 copies its window out with memcpy after the closing fence
 * (MPI 3.1 11.5.1).  No race: the copy holds 10 at int 3.
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
        MPI_Accumulate(&v, 1, MPI_INT, 1, 3, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        memcpy(copy, buf, sizeof buf);
        printf("rank 1: %d\n", copy[3]);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
