/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_same_put_acc.c - under a shared lock on rank 1, rank 0 puts to
 * an int of rank 1's window and then accumulates into it.  The ordering of
 * one origin's operations covers accumulates only (MPI 3.1 11.7.2); a put
 * and an accumulate conflict (11.7.1): a data race.  Its twin
 * rma_race_same_put_acc_ok.c flushes between them.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v = 5;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win);                 /* [A] */
        MPI_Accumulate(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, MPI_SUM, win); /* [B] */
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
