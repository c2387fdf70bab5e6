/* ordex-expect: ranks=2 clean */
/*
 * rma_race_same_put_get_ok.c - twin of rma_race_same_put_get.c:
 * MPI_Win_flush(1) between the put and the get completes the put at rank 1
 * (MPI 3.1 11.5.4) before the get starts.  No race: rank 0 gets the 5 it
 * put.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v = 5, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
        MPI_Get(&got, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
        printf("rank 0: got %d\n", got);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
