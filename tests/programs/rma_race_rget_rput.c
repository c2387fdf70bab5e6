/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_rget_rput.c - under MPI_Win_lock_all, rank 0 starts MPI_Rget of
 * an int of rank 2's window into x, and before waiting for it, MPI_Rput of
 * x to rank 1.  A request-based get writes its buffer until its request
 * completes (MPI 3.1 11.3.5), while the put reads it: a data race at the
 * origin.  The twin rma_race_rget_rput_ok.c waits for the get first.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, x = 9;
    MPI_Request req[2];
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Rget(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, win, &req[0]); /* [A] */
        MPI_Rput(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win, &req[1]); /* [B] */
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
