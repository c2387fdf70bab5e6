/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_store_cas_compare_ok.c - twin of
 * rma_race_origin_store_cas_compare.c: rank 0 calls MPI_Compare_and_swap on
 * int 1 of rank 1's window, completes it locally with MPI_Win_flush_local
 * (MPI 3.1 11.5.4) and then changes the compare value and the result buffer
 * for a second swap.  No race: rank 0 fetches 1 then 9, rank 1 ends with 9.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v = 9, cmp = 1, old = -1, old2 = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Compare_and_swap(&v, &cmp, &old, MPI_INT, 1, 1, win);
        MPI_Win_flush_local(1, win);
        cmp = 2;
        MPI_Compare_and_swap(&v, &cmp, &old2, MPI_INT, 1, 1, win);
        MPI_Win_unlock_all(win);
        printf("rank 0: %d %d\n", old, old2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
