/* ordex-expect: ranks=3 clean */
/*
 * rma_race_get_acc_shared_ok.c - twin of rma_race_get_acc_shared.c: rank 0
 * gets under a shared lock and unlocks (the get is complete at the target,
 * MPI 3.1 11.5.3), then every rank enters a barrier, and only after it does
 * rank 1 lock and accumulate.  Ordered: no race; rank 0 got 0 and rank 2
 * ends with 2.
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
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock(2, win);
        printf("rank 0: got %d\n", got);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
