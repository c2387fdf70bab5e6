/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_load_rput_wait.c - under MPI_Win_lock_all rank 0 puts to int 1
 * of rank 1's window with MPI_Rput and waits for the request; after a
 * barrier rank 1 loads that int.  The wait of an MPI_Rput completes it at
 * the origin only (MPI 3.1 11.3.5): the load races with the put.  The twin
 * rma_race_load_rput_wait_ok.c also calls MPI_Win_flush before the
 * barrier.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, seen = -1;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Rput(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req); /* [A] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        seen = buf[1]; /* [B] */
    MPI_Win_unlock_all(win);
    if (rank == 1)
        printf("rank 1: 0 or 10: %d\n", seen == 0 || seen == 10);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
