/* ordex-expect: ranks=2 clean */
/*
 * rma_race_store_put_lock_ok.c - twin of rma_race_store_put_lock.c: rank 0
 * puts to int 1 of rank 1's window under an exclusive lock on rank 1, and
 * rank 1 stores into the int inside an exclusive lock of its own window.
 * The epochs exclude each other and the unlock completes the put at the
 * target (MPI 3.1 11.5.3): in either grant order the accesses are ordered,
 * no race.  Rank 1 ends with 5 or 10, whichever came last.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    } else {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        buf[1] = 5;
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: 5 or 10: %d\n", buf[1] == 5 || buf[1] == 10);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
