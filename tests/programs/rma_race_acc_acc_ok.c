/* ordex-expect: ranks=3 clean */
/*
 * rma_race_acc_acc_ok.c - ranks 0 and 1 accumulate with MPI_SUM into the
 * same int of rank 2's window in one fence epoch.  Accumulates with the
 * same op on the same basic type are atomic with each other (MPI 3.1
 * 11.7.1, accumulate_ops same_op_no_op by default): no race.  Rank 2 prints
 * 1 + 2 = 3.
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
    if (rank < 2)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
