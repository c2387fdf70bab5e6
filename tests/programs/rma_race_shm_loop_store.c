/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shm_loop_store.c - a window from MPI_Win_allocate_shared: rank 0
 * fills rank 1's segment, 64 ints, in a loop of direct stores, while rank 1
 * stores into int 40 of its own segment, with nothing ordering the two.
 * Two unordered stores of one location (MPI 3.1 11.7): a data race between
 * the loop's store and rank 1's, whichever comes first.  The twin
 * rma_race_shm_loop_store_ok.c separates them with MPI_Win_sync and a
 * barrier.
 */
#include <mpi.h>

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
    if (rank == 0) {
        for (int i = 0; i < 64; i++)
            one[i] = i; /* [A] */
    } else {
        mine[40] = -1; /* [B] */
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
