/* ordex-expect: ranks=2 race=A,B run */
/*
 * rma_race_shm_loop_store_during.c - a window from MPI_Win_allocate_shared:
 * rank 0 fills rank 1's segment, 64 ints, in a loop of direct stores; at
 * its first element it sends rank 1 a message, and at element 20 it waits
 * for rank 1's answer, which rank 1 sends before it stores into int 40 of
 * its own segment.  The answer orders what rank 1 did before sending it,
 * not the store after, which comes while rank 0 is in the middle of its
 * loop (in the ordering `ordex run` follows, between elements 20 and 21):
 * two unordered stores of one location (MPI 3.1 11.7), a data race, which
 * ordex must find when the loop reaches int 40.  The twin
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
        for (int i = 0; i < 64; i++) {
            one[i] = i; /* [A] */
            if (i == 0)
                MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            if (i == 20)
                MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        mine[40] = -1; /* [B] */
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
