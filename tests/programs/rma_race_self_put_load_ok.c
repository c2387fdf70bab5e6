/* ordex-expect: ranks=2 clean */
/*
 * rma_race_self_put_load_ok.c - twin of rma_race_self_put_load.c: rank 0
 * puts to int 1 of its own window in a fence epoch and loads the int after
 * the closing fence, which completes the put (MPI 3.1 11.5.1).  No race:
 * rank 0 reads 10.
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
        MPI_Put(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
