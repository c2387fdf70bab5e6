/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_cas_acc_shared.c - under shared locks on rank 2, rank 0 does a
 * compare_and_swap and rank 1 an accumulate with MPI_SUM on the same int.
 * A compare_and_swap replaces the value: with the window's default
 * accumulate_ops (same_op_no_op, MPI 3.1 11.2.1) concurrent atomics must
 * use the same op or MPI_NO_OP, and MPI_SUM is neither: a data race.  The
 * clean variant rma_race_cas_acc_replace_ok.c accumulates with MPI_REPLACE.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, cmp = 0, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        if (rank == 0)
            MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT, 2, 1, win); /* [A] */
        else
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win); /* [B] */
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
