/*
 * rma_shared_store.c - ranks store into another rank's segment of a shared
 * window with plain stores between wildcard receives (correct program; run
 * with 4 ranks).
 *
 * Rank 1 folds each value it receives (from ranks 2 and 3, in either order)
 * into a cell of rank 0's segment, which rank 0 finds with
 * MPI_Win_shared_query; rank 0 only reads the cell after a barrier and
 * prints whether it holds one of the two possible folds.  Rank 0's memory
 * changes while rank 0 waits in MPI_Recv: exploration must notice (state
 * hashes of rank 0 computed before are stale), which ORDEX_CHECK_HASHES
 * verifies (tests/e2e/test_rma.c).  ordex must report no error.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *mine, *zero, x = 0;
    MPI_Aint seg;
    int unit;
    MPI_Win win;
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                            &win);
    MPI_Win_shared_query(win, 0, &seg, &unit, &zero);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (rank == 0 || rank == 1) {
        for (int i = 2; i < size; i++) {
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (rank == 1)
                zero[0] = zero[0] * 10 + x; /* [STORE] */
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&rank, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (rank == 0)
        printf("rank 0: fold is one of the two orders: %s\n",
               size < 4 || zero[0] == 23 || zero[0] == 32 ? "yes" : "no");
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
