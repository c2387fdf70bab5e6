/* ordex-expect: ranks=3 clean */
/*
 * rma_race_cas_cas_ok.c - under shared locks on rank 2, ranks 0 and 1 both
 * try to swap their number into an int that holds 0 with compare_and_swap.
 * Two compare_and_swaps on one int are atomic with each other (MPI 3.1
 * 11.3.4, 11.7.1): no race.  Exactly one of them wins; after a barrier
 * rank 2 holds the winner's value, 1 or 2.
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
        MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT, 2, 1, win);
        MPI_Win_unlock(2, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2)
        printf("rank 2: 1 or 2: %d\n", buf[1] == 1 || buf[1] == 2);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
