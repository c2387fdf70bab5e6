/* ordex-expect: ranks=3 clean */
/*
 * rma_race_acc_get_lockall_ok.c - twin of rma_race_acc_get_lockall.c:
 * rank 0's MPI_Win_flush_all completes its accumulate at rank 2 (MPI 3.1
 * 11.5.4), then every rank enters a barrier, and rank 1 gets only after it.
 * Ordered: no race, and rank 1 gets 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_flush_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    if (rank == 1)
        printf("rank 1: got %d\n", got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
