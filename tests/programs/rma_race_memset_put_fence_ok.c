/* ordex-expect: ranks=2 clean */
/*
 * rma_race_memset_put_fence_ok.c - twin of rma_race_memset_put_fence.c:
 * rank 1 clears its whole window with memset before the fence that opens
 * the epoch in which rank 0 puts to int 5 of it (MPI 3.1 11.5.1).  No race:
 * rank 1 reads 0 10 0 after the closing fence.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, buf[64], v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    memset(buf, 0, sizeof buf);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 5, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        printf("rank 1: %d %d %d\n", buf[4], buf[5], buf[6]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
