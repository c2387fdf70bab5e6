/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shm_store_load_ok.c - twin of rma_race_shm_store_load.c: rank 0
 * stores into int 1 of rank 1's segment of a shared window, then the usual
 * pattern for shared memory windows (MPI 3.1 11.7, the unified model's
 * MPI_Win_sync): MPI_Win_sync, a barrier, MPI_Win_sync, after which rank 1
 * loads the int.  The barrier orders the load after the store: no race.
 * Rank 1 reads 5.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mine, *one, unit;
    MPI_Aint size;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                            &win);
    MPI_Win_shared_query(win, 1, &size, &unit, &one);
    mine[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (rank == 0)
        one[1] = 5;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == 1)
        printf("rank 1: %d\n", mine[1]);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
