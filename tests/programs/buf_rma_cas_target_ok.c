/* ordex-expect: ranks=2 clean */
/*
 * buf_rma_cas_target_ok.c - the correct twin of buf_rma_cas_target.c:
 * the MPI_LONG compare-and-swap targets cell.word.
 */
#include <mpi.h>
#include <stddef.h>

static struct cell {
    int flag;
    int tag;
    long word;
} cell;

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long want = 0, next = 7, got = -1;
    MPI_Win win;
    MPI_Win_create(&cell, sizeof cell, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Compare_and_swap(&next, &want, &got, MPI_LONG, 1, offsetof(struct cell, word),
                             win); /* [A] */
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
