/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_put_shared_locks.c - rank 0 puts to int 1 of rank 1's
 * window under a shared lock on rank 1, and rank 1 stores into that int
 * under a shared lock of its own window.  Shared locks do not exclude each
 * other (MPI 3.1 11.5.3): the two epochs may overlap, and a store and a put
 * of one location conflict (11.7), a data race.  The twin
 * rma_race_store_put_lock_ok.c takes exclusive locks.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
    else
        buf[1] = 5; /* [B] */
    MPI_Win_unlock(1, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
