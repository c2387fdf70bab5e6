/* ordex-expect: ranks=3 clean */
/*
 * rma_race_shm_disjoint_ok.c - twin of rma_race_shm_store_store.c: ranks 0
 * and 1 store directly into ints 0 and 1 of rank 2's segment of a shared
 * window, unordered, while rank 2 stores into its int 3.  The stores touch
 * different bytes, so they do not conflict (MPI 3.1 11.7): no race.  After
 * MPI_Win_sync and a barrier rank 2 reads 10 11 0 12.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mine, *two, unit;
    MPI_Aint size;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                            &win);
    MPI_Win_shared_query(win, 2, &size, &unit, &two);
    for (int i = 0; i < 4; i++)
        mine[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (rank < 2)
        two[rank] = 10 + rank;
    else
        mine[3] = 12;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == 2)
        printf("rank 2: %d %d %d %d\n", mine[0], mine[1], mine[2], mine[3]);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
