/* ordex-expect: ranks=3 clean */
/*
 * rma_race_cas_acc_replace_ok.c - under shared locks on rank 2, rank 0 does
 * a compare_and_swap and rank 1 an accumulate with MPI_REPLACE on the same
 * int.  Both replace the value atomically (MPI 3.1 11.3.4, 11.7.1): the
 * same op on the same basic type, no race.  Whatever the order, rank 2 ends
 * with 2 (the swap happens only if it comes first, and the replace follows).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, cmp = 0, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        if (rank == 0)
            MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT, 2, 1, win);
        else
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_REPLACE, win);
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
