/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_origin_put_get_lockall.c - under MPI_Win_lock_all, rank 0 puts
 * the int x to rank 1 and, before the put completes, gets an int of rank
 * 2's window into x.  The get may overwrite x while the put still reads it
 * (MPI 3.1 11.3): a data race at the origin.  The twin
 * rma_race_origin_put_get_lockall_ok.c completes the put locally with
 * MPI_Win_flush_local first.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, x = 9;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win); /* [A] */
        MPI_Get(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, win); /* [B] */
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
