/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_load_acc_fence.c - in one fence epoch rank 0 accumulates
 * (MPI_SUM) into int 1 of rank 1's window while rank 1 loads that int.  An
 * accumulate updates the location; a load of it in the same epoch is
 * erroneous (MPI 3.1 11.7): a data race.  The twin
 * rma_race_load_acc_fence_ok.c loads after the closing fence.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
    else
        seen = buf[1]; /* [B] */
    MPI_Win_fence(0, win);
    if (rank == 1)
        printf("rank 1: 1 or 11: %d\n", seen == 1 || seen == 11);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
