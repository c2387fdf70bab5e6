/* ordex-expect: ranks=3 clean */
/*
 * rma_race_origin_put_get_lockall_ok.c - twin of
 * rma_race_origin_put_get_lockall.c: MPI_Win_flush_local(1) completes the
 * put at the origin (MPI 3.1 11.5.4), after which x may be overwritten, so
 * the get into x is ordered after the put's read of it: no race.  Rank 1
 * ends with 9, x with rank 2's 4.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {4, 0, 0, 0}, x = 9;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush_local(1, win);
        MPI_Get(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rank 0: x %d\n", x);
    if (rank == 1)
        printf("rank 1: %d\n", buf[0]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
