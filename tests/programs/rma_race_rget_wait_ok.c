/* ordex-expect: ranks=3 clean */
/*
 * rma_race_rget_wait_ok.c - under MPI_Win_lock_all, rank 0 gets an int of
 * rank 2's window with MPI_Rget and waits for the request; after a barrier
 * rank 1 puts to the same int.  The completion of an MPI_Rget means that
 * the data is in the origin buffer (MPI 3.1 11.3.5): the read at rank 2 is
 * over before the wait returns, and so before the put starts.  No race;
 * rank 0 got 0 and rank 2 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = -1;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Rget(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 0: got %d\n", got);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
