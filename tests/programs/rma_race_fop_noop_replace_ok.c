/* ordex-expect: ranks=3 clean */
/*
 * rma_race_fop_noop_replace_ok.c - under MPI_Win_lock_all, rank 0 fetches
 * an int of rank 2's window with fetch_and_op(MPI_NO_OP) while rank 1 swaps
 * in 2 with fetch_and_op(MPI_REPLACE).  MPI_NO_OP goes with every op under
 * the default accumulate_ops same_op_no_op (MPI 3.1 11.2.1): atomic, no
 * race.  Rank 0 reads 5 or 2, rank 1 reads 5, rank 2 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 5, 0, 0}, v, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Fetch_and_op(NULL, &got, MPI_INT, 2, 1, MPI_NO_OP, win);
    if (rank == 1)
        MPI_Fetch_and_op(&v, &got, MPI_INT, 2, 1, MPI_REPLACE, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rank 0: 5 or 2: %d\n", got == 5 || got == 2);
    if (rank == 1)
        printf("rank 1: %d\n", got);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
