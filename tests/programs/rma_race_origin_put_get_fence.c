/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_origin_put_get_fence.c - in one fence epoch rank 0 puts the int
 * x to rank 1 and gets an int of rank 2's window into the same x.  Until the
 * closing fence the put may read x and the get may write it, in either
 * order (MPI 3.1 11.3: the origin buffer must not be updated, and a get's
 * buffer not accessed, until the operation completes): the two accesses to
 * x conflict, a data race at the origin.  The twin
 * rma_race_origin_put_get_fence_ok.c gets in the next epoch.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, x = 9;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win); /* [A] */
        MPI_Get(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, win); /* [B] */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
