/*
 * rma_lock_order.c - a deadlock that only some lock grant orders reach; run
 * with 3 ranks.
 *
 * Ranks 1 and 2 both ask for the exclusive lock on rank 0's window.  Rank 1
 * takes it, releases it at once and then sends to rank 2.  Rank 2 holds it
 * across the receive of that message ([HOLD]).  If rank 1 gets the lock first
 * (the order of the requests, what `ordex run` grants), all is well.  If rank
 * 2 gets it first, rank 2 waits in MPI_Recv for rank 1 and rank 1 waits in
 * MPI_Win_lock ([LOCK1]) for rank 2: a deadlock.
 *
 * ordex run: no error.  ordex explore: [deadlock] with rank 1 in MPI_Win_lock
 * at [LOCK1] and rank 2 in MPI_Recv at [HOLD]; ordex replay of its trace
 * reproduces it.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int buf = 0, v = 1, x = 0;
    MPI_Win win;
    MPI_Win_create(&buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win); /* [LOCK1] */
        MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
        MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [HOLD] */
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: got %d\n", x);
    MPI_Finalize();
    return 0;
}
