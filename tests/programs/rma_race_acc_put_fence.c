/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_acc_put_fence.c - in one fence epoch rank 0 accumulates into an
 * int of rank 2's window and rank 1 puts to the same int.  A put is not
 * atomic with an accumulate (MPI 3.1 11.7.1): a data race.  The twin
 * rma_race_acc_put_fence_ok.c puts to the next int instead.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
