/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_two_windows.c - two windows over the same memory; rank 0 puts
 * to an int of rank 2 under an exclusive lock of the first window, rank 1
 * to the same int under an exclusive lock of the second.  A lock excludes
 * only locks of its own window, and concurrent communication to
 * overlapping windows is undefined (MPI 3.1 11.2.1): a data race.  The
 * twin rma_race_two_windows_ok.c orders the epochs with a barrier.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win w1, w2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w1);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    v = rank + 1;
    if (rank < 2) {
        MPI_Win win = rank == 0 ? w1 : w2;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
        if (rank == 0)
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        else
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&w2);
    MPI_Win_free(&w1);
    MPI_Finalize();
    return 0;
}
