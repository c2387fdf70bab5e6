/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shm_store_put.c - a window from MPI_Win_allocate_shared: rank 0
 * stores directly into int 1 of rank 2's segment while rank 1 puts to the
 * same int with MPI_Put under MPI_Win_lock_all, with nothing ordering the
 * two.  A store and a put of one location conflict whoever makes them
 * (MPI 3.1 11.7): a data race.  The twin rma_race_shm_store_put_ok.c has
 * rank 1 flush and the ranks meet in a barrier before rank 0's store.
 */
#include <mpi.h>

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
    if (rank == 0)
        two[1] = 5; /* [A] */
    else if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
