/* ordex-expect: ranks=3 clean */
/*
 * rma_race_rput_wait_ok.c - twin of rma_race_rput_wait.c: after waiting for
 * its MPI_Rput, rank 0 calls MPI_Win_flush(2), which completes the put at
 * rank 2 (MPI 3.1 11.5.4), before the barrier.  Rank 1's put follows: no
 * race, rank 2 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

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
        MPI_Rput(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_flush(2, win);
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
