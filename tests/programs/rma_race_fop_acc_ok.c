/* ordex-expect: ranks=3 clean */
/*
 * rma_race_fop_acc_ok.c - in one fence epoch rank 0 does a fetch_and_op
 * (MPI_SUM) and rank 1 an accumulate (MPI_SUM) on the same int of rank 2's
 * window.  Same op, same basic type: atomic with each other (MPI 3.1
 * 11.7.1), no race.  Rank 0 fetched 0 or 2; rank 2 ends with 3.
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
        MPI_Fetch_and_op(&v, &got, MPI_INT, 2, 1, MPI_SUM, win);
    if (rank == 1)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: fetched 0 or 2: %d\n", got == 0 || got == 2);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
