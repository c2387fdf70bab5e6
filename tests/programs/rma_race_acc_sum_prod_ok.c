/* ordex-expect: ranks=3 clean */
/*
 * rma_race_acc_sum_prod_ok.c - twin of rma_race_acc_sum_prod.c with
 * exclusive locks: the epochs on rank 2 follow each other, each unlock
 * completing its accumulate there (MPI 3.1 11.5.3).  No race.  From 1, the
 * two orders give (1 + 2) * 3 = 9 or 1 * 3 + 2 = 5; rank 2 prints which.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {1, 1, 1, 1}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 2;
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
        if (rank == 0)
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
        else
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_PROD, win);
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: 9 or 5: %d\n", buf[1] == 9 || buf[1] == 5);
    MPI_Finalize();
    return 0;
}
