/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_put_get_shared.c - rank 0 puts to an int of rank 2's window and
 * rank 1 gets it, each under a shared lock on rank 2.  Shared locks do not
 * exclude each other, so the two epochs may overlap; a put and a get of one
 * location conflict (MPI 3.1 11.7.1): a data race.  The twin
 * rma_race_put_get_shared_ok.c takes exclusive locks.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock(2, win);
    } else if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
