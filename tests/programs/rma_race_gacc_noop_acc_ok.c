/* ordex-expect: ranks=3 clean */
/*
 * rma_race_gacc_noop_acc_ok.c - in one fence epoch rank 0 reads an int of
 * rank 2's window with get_accumulate(MPI_NO_OP) while rank 1 accumulates
 * into it with MPI_SUM.  MPI_NO_OP is compatible with every op under the
 * default accumulate_ops same_op_no_op (MPI 3.1 11.2.1): atomic, no race.
 * Rank 0 reads 5 or 7; rank 2 ends with 7.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 5, 0, 0}, v, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get_accumulate(&v, 1, MPI_INT, &got, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_NO_OP, win);
    if (rank == 1)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: 5 or 7: %d\n", got == 5 || got == 7);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
