/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_rput_wait.c - under MPI_Win_lock_all, rank 0 puts to an int of
 * rank 2's window with MPI_Rput and waits for the request; then all ranks
 * meet in a barrier, after which rank 1 puts to the same int.  The wait of
 * an MPI_Rput's request completes it at the origin only, not at the target
 * (MPI 3.1 11.3.5): the first put may still be in flight when the second
 * starts, a data race.  The twin rma_race_rput_wait_ok.c also flushes.
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
    if (rank == 0) {
        MPI_Rput(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win, &req); /* [A] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
