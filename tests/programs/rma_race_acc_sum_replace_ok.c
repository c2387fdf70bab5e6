/* ordex-expect: ranks=3 clean */
/*
 * rma_race_acc_sum_replace_ok.c - twin of rma_race_acc_sum_replace.c: the
 * MPI_REPLACE accumulate is in the fence epoch after the MPI_SUM one, so
 * they are not concurrent (MPI 3.1 11.5.1): no race.  Rank 2 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_REPLACE, win);
    MPI_Win_fence(0, win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
