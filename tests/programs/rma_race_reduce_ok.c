/* ordex-expect: ranks=4 clean */
/*
 * rma_race_reduce_ok.c - twin of rma_race_reduce.c: after rank 0's put and
 * flush, all ranks reduce to root 1, and the root puts to the same int.
 * The root's result depends on every rank's contribution, so rank 0's
 * flush happens before the root's put: no race.  The root prints the sum
 * 10; rank 3 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, sum = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win);
        MPI_Win_flush(3, win);
    }
    MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
    if (rank == 1) {
        printf("rank 1: sum %d\n", sum);
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (rank == 3)
        printf("rank 3: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
