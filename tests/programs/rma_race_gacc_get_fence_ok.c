/* ordex-expect: ranks=3 clean */
/*
 * rma_race_gacc_get_fence_ok.c - twin of rma_race_gacc_get_fence.c: rank 1
 * gets in the fence epoch after the one of rank 0's get_accumulate, which
 * the fence between them completed (MPI 3.1 11.5.1).  No race: rank 0
 * fetched 0, rank 1 gets 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get_accumulate(&v, 1, MPI_INT, &got, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank < 2)
        printf("rank %d: got %d\n", rank, got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
