/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_store_put_unlock_ok.c - twin of
 * rma_race_origin_store_put.c: rank 0 puts from v to rank 1's window under
 * MPI_Win_lock_all and stores into v after MPI_Win_unlock_all, which
 * completes the put (MPI 3.1 11.5.3).  No race: rank 1 reads 10.
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
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
        v = 20;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
