/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_get_put_lockall.c - ranks 0 and 1 open passive-target epochs
 * with MPI_Win_lock_all (shared locks on every rank); rank 0 gets an int of
 * rank 2's window and rank 1 puts to it, each completing its operation with
 * MPI_Win_flush.  A flush completes the operation but orders it with
 * nothing of another rank (MPI 3.1 11.5.4): a get and a put of one location,
 * unordered, a data race.  The twin rma_race_get_put_lockall_ok.c sends a
 * message from rank 0 to rank 1 after the flush.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank < 2) {
        MPI_Win_lock_all(0, win);
        if (rank == 0)
            MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        else
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
        MPI_Win_flush(2, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
