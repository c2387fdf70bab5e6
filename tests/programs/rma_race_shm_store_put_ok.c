/* ordex-expect: ranks=3 clean */
/*
 * rma_race_shm_store_put_ok.c - twin of rma_race_shm_store_put.c: rank 1
 * puts to int 1 of rank 2's segment of a shared window under
 * MPI_Win_lock_all and flushes (complete at the target, MPI 3.1 11.5.4);
 * after MPI_Win_sync and a barrier, rank 0 stores into the same int
 * directly.  Ordered: no race.  Rank 2 reads 5.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mine, *two, unit, v;
    MPI_Aint size;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                            &win);
    MPI_Win_shared_query(win, 2, &size, &unit, &two);
    v = 10 + rank;
    MPI_Win_lock_all(0, win);
    if (rank == 1) {
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_flush(2, win);
    }
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == 0)
        two[1] = 5;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == 2)
        printf("rank 2: %d\n", mine[1]);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
