/* ordex-expect: ranks=3 clean */
/*
 * rma_race_origin_put_get_fence_ok.c - twin of
 * rma_race_origin_put_get_fence.c: the fence after the put completes it at
 * the origin (MPI 3.1 11.5.1) before the get into the same x starts in the
 * next epoch.  No race: rank 1 receives 9 and x becomes rank 2's 4.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {4, 0, 0, 0}, x = 9;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: x %d\n", x);
    if (rank == 1)
        printf("rank 1: %d\n", buf[0]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
