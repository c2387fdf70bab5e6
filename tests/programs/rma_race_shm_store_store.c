/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shm_store_store.c - a window from MPI_Win_allocate_shared: ranks
 * 0 and 1 both store directly into int 2 of rank 2's segment (found with
 * MPI_Win_shared_query), with nothing ordering the stores.  Two unordered
 * stores of one location of shared window memory by two processes are a
 * data race (MPI 3.1 11.7).  The twin rma_race_shm_disjoint_ok.c has them
 * store into different ints.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, *mine, *two, unit;
    MPI_Aint size;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                            &win);
    MPI_Win_shared_query(win, 2, &size, &unit, &two);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (rank == 0)
        two[2] = 10; /* [A] */
    else if (rank == 1)
        two[2] = 11; /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
