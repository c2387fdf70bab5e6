/* ordex-expect: ranks=2 clean */
/*
 * rma_race_load_get_fence_ok.c - in one fence epoch rank 0 gets int 1 of
 * rank 1's window while rank 1 loads the same int.  Both only read: a load
 * and a get of one location do not conflict (MPI 3.1 11.7), so the epoch
 * holds no race.  Rank 0 got 7 and rank 1 read 7.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 7, 0, 0}, got = -1, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
    else
        seen = buf[1];
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: got %d\n", got);
    else
        printf("rank 1: read %d\n", seen);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
