/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shm_loop_store_ok.c - twin of rma_race_shm_loop_store.c: rank 1
 * stores into int 40 of its segment of a shared window, then MPI_Win_sync,
 * a barrier and MPI_Win_sync order rank 0's loop of direct stores over the
 * whole segment after it (MPI 3.1 11.7).  No race: after a second barrier
 * rank 1 reads 40.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mine, *one, unit;
    MPI_Aint size;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                            &win);
    MPI_Win_shared_query(win, 1, &size, &unit, &one);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (rank == 1)
        mine[40] = -1;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == 0)
        for (int i = 0; i < 64; i++)
            one[i] = i;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == 1)
        printf("rank 1: %d\n", mine[40]);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
