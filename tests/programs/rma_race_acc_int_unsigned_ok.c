/* ordex-expect: ranks=3 clean */
/*
 * rma_race_acc_int_unsigned_ok.c - twin of rma_race_acc_int_unsigned.c:
 * rank 0's MPI_Win_flush completes its MPI_INT accumulate at rank 2 (MPI 3.1
 * 11.5.4) before a barrier, and rank 1 accumulates its MPI_UNSIGNED after
 * it.  Not concurrent: no race.  Rank 2 ends with 1 + 7 = 8.
 */
#include <mpi.h>
#include <stdio.h>

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
    if (rank == 0) {
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_flush(2, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Accumulate(&u, 1, MPI_UNSIGNED, 2, 1, 1, MPI_UNSIGNED, MPI_SUM, win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1].i);
    MPI_Finalize();
    return 0;
}
