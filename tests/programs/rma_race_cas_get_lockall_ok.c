/* ordex-expect: ranks=3 clean */
/*
 * rma_race_cas_get_lockall_ok.c - twin of rma_race_cas_get_lockall.c: rank
 * 0's MPI_Win_unlock_all completes its compare_and_swap at rank 2 (MPI 3.1
 * 11.5.3); a barrier follows, and rank 1 gets in a new lock_all epoch after
 * it.  Ordered: no race, rank 1 gets the 1 that was swapped in.
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
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT, 2, 1, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    if (rank == 1)
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_unlock_all(win);
    if (rank == 1)
        printf("rank 1: got %d\n", got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
