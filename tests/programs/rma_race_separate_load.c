/* ordex-expect: ranks=2 model=separate race=A,B */
/*
 * rma_race_separate_load.c - rank 1 stores to its window, then a barrier,
 * then rank 0 gets that int.  In the unified model the barrier orders them;
 * in the separate model the store is in the private copy until the owner
 * synchronises (MPI_Win_sync, or fence, post, unlock: MPI 3.1 11.7 rule 5),
 * and the get reads the public copy: a data race under --rma-model
 * separate.  The twin rma_race_separate_load_ok.c calls MPI_Win_sync after
 * the store.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1)
        buf[2] = 7; /* [A] */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 2, 1, MPI_INT, win); /* [B] */
        MPI_Win_unlock(1, win);
        printf("rank 0 got %d\n", got);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
