/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_loop_origin_put.c - under MPI_Win_lock_all rank 0 sends four
 * values to rank 1 from int 0 of its own window: each round stores the
 * value there and puts it.  From the second round on, the store overwrites
 * the origin buffer of the previous round's put, which nothing has
 * completed (MPI 3.1 11.3: the origin buffer must not be modified until the
 * put completes locally): a data race between the put and the store.  The
 * twin rma_race_loop_origin_put_ok.c calls MPI_Win_flush_local after each
 * put.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        for (int i = 0; i < 4; i++) {
            buf[0] = 10 + i;                                     /* [B] */
            MPI_Put(&buf[0], 1, MPI_INT, 1, i, 1, MPI_INT, win); /* [A] */
        }
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
