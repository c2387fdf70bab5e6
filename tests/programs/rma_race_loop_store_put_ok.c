/* ordex-expect: ranks=2 clean */
/*
 * rma_race_loop_store_put_ok.c - twin of rma_race_loop_store_put.c: rank 1
 * fills its whole window in a loop before the fence that opens the epoch in
 * which rank 0 puts to int 37 of it (MPI 3.1 11.5.1).  No race: after the
 * closing fence rank 1 reads 36 10 38.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[64], v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    for (int i = 0; i < 64; i++)
        buf[i] = i;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 37, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        printf("rank 1: %d %d %d\n", buf[36], buf[37], buf[38]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
