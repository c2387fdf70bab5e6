/* ordex-expect: ranks=2 clean */
/*
 * rma_race_store_put_fence_ok.c - twin of rma_race_store_put_fence.c: rank 0
 * puts to int 1 of rank 1's window in a fence epoch, and rank 1 stores into
 * that int after the fence that closes the epoch, which completes the put
 * at the target (MPI 3.1 11.5.1).  Ordered: no race.  Rank 1 prints 10,
 * then 5.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        printf("rank 1: %d\n", buf[1]);
        buf[1] = 5;
        printf("rank 1: %d\n", buf[1]);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
