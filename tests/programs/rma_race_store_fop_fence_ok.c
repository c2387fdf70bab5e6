/* ordex-expect: ranks=2 clean */
/*
 * rma_race_store_fop_fence_ok.c - twin of rma_race_store_fop_fence.c: rank
 * 1 stores into int 1 of its window before the fence that opens the epoch
 * in which rank 0 calls MPI_Fetch_and_op (MPI_SUM) on it; the fence orders
 * the store before the operation (MPI 3.1 11.5.1).  No race: rank 0 fetches
 * 5 and rank 1 ends with 15.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, old = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 1)
        buf[1] = 5;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Fetch_and_op(&v, &old, MPI_INT, 1, 1, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: %d\n", old);
    else
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
