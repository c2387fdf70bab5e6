/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_send_backwards.c - under MPI_Win_lock_all, rank 0 puts to an int
 * of rank 2's window, flushes and then receives a message from rank 1;
 * rank 1 sends that message and then puts to the same int.  The message
 * goes the wrong way: a standard send may complete before the receive is
 * even posted (MPI 3.1 3.4), so it orders nothing of rank 0 before rank
 * 1's put.  A data race.  The twin rma_race_send_backwards_ok.c uses
 * MPI_Ssend, whose completion follows the start of the receive.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, token = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_flush(2, win);
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
