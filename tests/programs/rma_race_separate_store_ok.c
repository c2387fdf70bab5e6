/* ordex-expect: ranks=2 model=separate clean */
/*
 * rma_race_separate_store_ok.c - rank 0 puts to rank 1's window under an
 * exclusive lock; after a barrier rank 1 stores to ANOTHER int of its
 * window.  Correct in the unified model (the unlock completed the put and
 * the barrier orders it), but in the separate model a store must not start
 * once a put to the same window has started until the put is visible in
 * process memory (MPI 3.1 11.7, rule 5's last paragraph and rule 6): the
 * owner has to synchronise its copies (MPI_Win_sync) first, as this program
 * does: no race under --rma-model separate.  Twin of
 * rma_race_separate_store.c.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v = 5;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_sync(win); /* the put is visible in process memory now */
        buf[3] = 1;
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
