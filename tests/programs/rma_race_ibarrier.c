/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_ibarrier.c - under MPI_Win_lock_all, rank 0 starts an
 * MPI_Ibarrier, then puts to an int of rank 2's window and flushes, and
 * only then waits for the barrier; rank 1 waits for the barrier and then
 * puts to the same int.  The barrier can complete once every rank has
 * started it (MPI 3.1 5.12.1), which rank 0 did before its put: nothing
 * orders the two puts, a data race.  The twin rma_race_ibarrier_ok.c starts
 * the barrier after the flush.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_flush(2, win);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
