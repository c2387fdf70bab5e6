/* ordex-expect: ranks=2 race=A,B run */
/*
 * rma_race_shm_loop_store_after.c - a window from MPI_Win_allocate_shared:
 * rank 1 sends rank 0 a message and then stores into int 40 of its own
 * segment; rank 0 receives the message and then fills rank 1's segment, 64
 * ints, in a loop of direct stores.  The message orders what rank 1 did
 * before sending it, not the store after: two unordered stores of one
 * location (MPI 3.1 11.7), a data race, which ordex must find inside the
 * loop when rank 1's store came first.  The twin
 * rma_race_shm_loop_store_ok.c orders the stores with a barrier.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, *mine, *one, unit, token = 0;
    MPI_Aint size;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                            &win);
    MPI_Win_shared_query(win, 1, &size, &unit, &one);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (rank == 0) {
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 64; i++)
            one[i] = i; /* [A] */
    } else {
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        mine[40] = -1; /* [B] */
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
