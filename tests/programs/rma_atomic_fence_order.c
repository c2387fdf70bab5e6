/*
 * rma_atomic_fence_order.c - fetch-and-ops of different origins in one
 * fence epoch apply in every order.
 *
 * Ranks 1..n-1 each draw a ticket from rank 0's counter with
 * MPI_Fetch_and_op(MPI_SUM, +1) between two fences.  No race (atomic, same
 * op and type), but which rank gets which ticket depends on the order in
 * which the fetch-and-ops reach rank 0: explore must find every assignment,
 * (n-1)! of them, and no error; run gives the ranks in order.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, counter = 0, one = 1, got = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_create(&counter, sizeof counter, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        MPI_Fetch_and_op(&one, &got, MPI_INT, 0, 0, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        printf("rank %d got ticket %d\n", rank, got);
    else
        printf("rank 0: counter %d\n", counter);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
