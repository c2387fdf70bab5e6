/* ordex-expect: ranks=2 clean */
/*
 * rma_race_same_put_put_ok.c - twin of rma_race_same_put_put.c: in a lock
 * epoch, MPI_Win_flush(1) completes the first put at rank 1 (MPI 3.1
 * 11.5.4) before the second starts.  No race; rank 1 ends with 6.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v[2] = {5, 6};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&v[0], 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
        MPI_Put(&v[1], 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
    if (rank == 1)
        printf("rank 1: %d\n", buf[2]);
    MPI_Finalize();
    return 0;
}
