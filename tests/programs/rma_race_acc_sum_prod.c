/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_acc_sum_prod.c - under shared locks on rank 2, rank 0
 * accumulates into an int with MPI_SUM and rank 1 with MPI_PROD.  Different
 * ops on one location are not atomic with each other under the default
 * accumulate_ops same_op_no_op (MPI 3.1 11.2.1, 11.7.1): a data race.  The
 * twin rma_race_acc_sum_prod_ok.c takes exclusive locks.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {1, 1, 1, 1}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 2;
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        if (rank == 0)
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
        else
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_PROD, win); /* [B] */
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
