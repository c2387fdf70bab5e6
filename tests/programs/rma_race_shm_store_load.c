/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shm_store_load.c - a window from MPI_Win_allocate_shared: rank 0
 * finds rank 1's segment with MPI_Win_shared_query and stores into int 1 of
 * it directly, while rank 1 loads that int of its own segment, with nothing
 * between them.  Direct loads and stores of shared window memory obey the
 * rules of the unified model (MPI 3.1 11.2.3, 11.7): a store and a load of
 * one location by two processes, unordered, are a data race.  The twin
 * rma_race_shm_store_load_ok.c separates them with MPI_Win_sync and a
 * barrier.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mine, *one, unit, seen = -1;
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
        one[1] = 5; /* [A] */
    else
        seen = mine[1]; /* [B] */
    MPI_Win_unlock_all(win);
    if (rank == 1)
        printf("rank 1: 0 or 5: %d\n", seen == 0 || seen == 5);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
