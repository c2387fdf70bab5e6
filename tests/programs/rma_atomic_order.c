/*
 * rma_atomic_order.c - the order of concurrent fetch-and-ops is a choice.
 *
 * Every rank but 0 draws a ticket from rank 0's counter with
 * MPI_Fetch_and_op(MPI_SUM, +1) under a shared lock.  The accesses do not
 * race (atomic, same op, same type), but which rank gets which ticket
 * depends on the order in which the fetch-and-ops reach rank 0: explore
 * must find every assignment of tickets (n-1)! with n ranks, a message
 * race warning, and no error.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, counter = 0, one = 1, got = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_create(&counter, sizeof counter, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Fetch_and_op(&one, &got, MPI_INT, 0, 0, MPI_SUM, win); /* [FOP] */
        MPI_Win_unlock(0, win);
        printf("rank %d got ticket %d\n", rank, got);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
