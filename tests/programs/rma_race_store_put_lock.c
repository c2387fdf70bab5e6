/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_put_lock.c - rank 0 puts to int 1 of rank 1's window under
 * an exclusive lock on rank 1, while rank 1 stores into that int without
 * taking any lock.  A lock excludes other locks only: the store and the put
 * are unordered, and a store and a put to one location conflict (MPI 3.1
 * 11.7): a data race.  The twin rma_race_store_put_lock_ok.c has rank 1
 * lock its own window exclusively around the store.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock(1, win);
    } else {
        buf[1] = 5; /* [B] */
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
