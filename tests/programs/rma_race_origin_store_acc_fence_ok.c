/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_store_acc_fence_ok.c - twin of
 * rma_race_origin_store_acc_fence.c: rank 0 accumulates (MPI_SUM) from v
 * into rank 1's window in one fence epoch, stores into v after the fence
 * that completes it (MPI 3.1 11.5.1), and accumulates again in the next
 * epoch.  No race: rank 1 ends with 30.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        v = 20;
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 1)
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
