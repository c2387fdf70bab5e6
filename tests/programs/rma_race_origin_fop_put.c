/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_origin_fop_put.c - under MPI_Win_lock_all, rank 0 fetches an int
 * of rank 2's window into x with fetch_and_op(MPI_SUM) and, before that
 * completes, puts x to rank 1.  The fetch writes x at some moment before
 * completion while the put reads it (MPI 3.1 11.3.4): a data race at the
 * origin.  The twin rma_race_origin_fop_put_ok.c flushes in between.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, one = 1, x = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Fetch_and_op(&one, &x, MPI_INT, 2, 0, MPI_SUM, win); /* [A] */
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);          /* [B] */
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
