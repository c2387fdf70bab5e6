/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_acc_int_unsigned.c - under MPI_Win_lock_all, rank 0 accumulates
 * an MPI_INT and rank 1 an MPI_UNSIGNED, both with MPI_SUM, into the same
 * four bytes of rank 2's window.  Accumulates are atomic with each other
 * only for the same predefined basic datatype (MPI 3.1 11.7.1): a data
 * race.  The twin rma_race_acc_int_unsigned_ok.c orders them with a
 * flush and a barrier.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    /* Each int of the window is also an unsigned: the C types of both
     * accumulates are there. */
    union {
        int i;
        unsigned u;
    } buf[4] = {{0}, {0}, {0}, {0}};
    int rank, v;
    unsigned u = 7;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
    if (rank == 1)
        MPI_Accumulate(&u, 1, MPI_UNSIGNED, 2, 1, 1, MPI_UNSIGNED, MPI_SUM, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
