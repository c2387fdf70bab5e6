/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_irecv_put.c - rank 1 posts MPI_Irecv into int 1 of its own
 * window; meanwhile rank 0 puts to that int under MPI_Win_lock_all, and
 * rank 2 sends the message that the receive takes.  The pending receive
 * may write its buffer at any moment until it completes (MPI 3.1 3.7.2),
 * and so may the put until the unlock (11.7): two unordered writes of one
 * location, a data race between the receive and the put.  The twin
 * rma_race_irecv_put_ok.c receives into int 2.
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
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock_all(win);
    } else if (rank == 1) {
        MPI_Irecv(&buf[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req); /* [B] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
