/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_store_put.c - under MPI_Win_lock_all rank 0 puts from
 * its variable v to rank 1's window and then stores into v before any
 * call completes the put.  Until the put completes locally MPI may still
 * read its origin buffer (MPI 3.1 11.3, "the origin buffer must not be
 * modified until the operation completes"): a data race between the put
 * and the store.  The twins rma_race_origin_store_put_flush_ok.c and
 * rma_race_origin_store_put_unlock_ok.c store after MPI_Win_flush_local or
 * MPI_Win_unlock_all.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        v = 20;                                         /* [B] */
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
