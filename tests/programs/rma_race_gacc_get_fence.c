/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_gacc_get_fence.c - in one fence epoch rank 0 does a
 * get_accumulate (MPI_SUM) on an int of rank 2's window and rank 1 gets it.
 * The get_accumulate writes the int; a get is not atomic with it (MPI 3.1
 * 11.7.1): a data race.  The twin rma_race_gacc_get_fence_ok.c gets in the
 * next epoch.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        /* [A] */ MPI_Get_accumulate(&v, 1, MPI_INT, &got, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM,
                                     win);
    if (rank == 1)
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
