/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_accops_same_op.c - rank 2's window is created with the info
 * accumulate_ops=same_op; under shared locks rank 0 adds to an int with
 * MPI_Accumulate(MPI_SUM) while rank 1 reads it with
 * MPI_Get_accumulate(MPI_NO_OP).  With the default same_op_no_op the two
 * are atomic with each other (rma_race_gacc_noop_acc_ok.c); same_op
 * promises that only the same op is used concurrently (MPI 3.1 11.2.1),
 * so MPI_NO_OP against MPI_SUM is a conflict: a data race.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, one = 1, got = -1;
    MPI_Win win;
    MPI_Info info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &win);
    MPI_Info_free(&info);
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Accumulate(&one, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
    if (rank == 1)
        /* [B] */ MPI_Get_accumulate(NULL, 0, MPI_INT, &got, 1, MPI_INT, 2, 1, 1, MPI_INT,
                                     MPI_NO_OP, win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
