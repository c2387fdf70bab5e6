/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_fop_sum_replace.c - under MPI_Win_lock_all, ranks 0 and 1 do a
 * fetch_and_op on the same int of rank 2's window, rank 0 with MPI_SUM,
 * rank 1 with MPI_REPLACE (an atomic swap).  Different ops, neither
 * MPI_NO_OP: not atomic with each other under the default accumulate_ops
 * (MPI 3.1 11.2.1): a data race.  The clean rma_race_fop_noop_replace_ok.c
 * fetches with MPI_NO_OP instead.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Fetch_and_op(&v, &got, MPI_INT, 2, 1, MPI_SUM, win); /* [A] */
    if (rank == 1)
        MPI_Fetch_and_op(&v, &got, MPI_INT, 2, 1, MPI_REPLACE, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
