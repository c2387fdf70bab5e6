/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_put_fence.c - in one fence epoch rank 0 puts to int 1 of
 * rank 1's window while rank 1 stores into the same int.  A store and an
 * update by a put to one location in the same epoch are erroneous (MPI 3.1
 * 11.7, unified model): a data race.  The twin rma_race_store_put_fence_ok.c
 * stores after the fence that closes the epoch.
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
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
    else
        buf[1] = 5; /* [B] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
