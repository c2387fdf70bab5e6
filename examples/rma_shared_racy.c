/*
 * rma_shared_racy.c - the racy twin of rma_shared.c: MPI_Win_sync without
 * the barrier.
 *
 * The same stencil on a shared-memory window, with the MPI_Win_sync +
 * MPI_Barrier + MPI_Win_sync between steps cut down to one MPI_Win_sync,
 * as if it made a rank's stores visible to its neighbours in time.  It is a
 * memory barrier for the calling rank only: nothing makes a neighbour wait.
 * A rank that runs ahead stores its next row (at [STORE]) into the cells
 * its neighbour is still loading (at [LOAD] or [LOADR]), or the neighbour
 * loads them before they were written.  MPI 3.1 11.7 (the unified model,
 * and 11.2.3 for shared windows): loads and stores of different processes
 * to the same location conflict unless a process synchronisation (a
 * barrier, a message, a lock) orders them, with MPI_Win_sync on both sides;
 * MPI_Win_sync alone orders no two processes.
 *
 * Run:
 *   ./ordex run     -n 4 examples/rma_shared_racy.c [B] [steps]
 *   ./ordex explore -n 4 examples/rma_shared_racy.c [B] [steps]
 *
 * Expected ordex verdict (run and explore, n >= 2): 2 errors of kind
 * data_race, exit status 1: "a load by rank 1 at [LOAD] and a store by
 * rank 0 at [STORE] conflict" on the last cell of a row of rank 0's
 * segment, and "a load by rank 0 at [LOADR] and a store by rank 1 at
 * [STORE] conflict" on the first cell of a row of rank 1's.  ordex runs
 * rank 0 through all its steps before rank 1 (nothing makes it wait), so
 * the sums it prints differ from rma_shared.c's; a real MPI prints sums
 * that vary from run to run.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int b = argc > 1 ? atoi(argv[1]) : 8;
    int steps = argc > 2 ? atoi(argv[2]) : 10;
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int rank, size;
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);

    long *mine;
    MPI_Win win;
    MPI_Win_allocate_shared(2 * (MPI_Aint)b * (MPI_Aint)sizeof(long), sizeof(long), MPI_INFO_NULL,
                            node, &mine, &win); /* [ALLOC] */
    long *left = NULL, *right = NULL;           /* the neighbours' segments */
    MPI_Aint seg;
    int unit;
    if (rank > 0)
        MPI_Win_shared_query(win, rank - 1, &seg, &unit, &left); /* [QUERY] */
    if (rank < size - 1)
        MPI_Win_shared_query(win, rank + 1, &seg, &unit, &right);

    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    int cur = 0; /* which row holds the current values */
    for (int i = 0; i < b; i++)
        mine[i] = ((long)(rank * b + i) % 5) * 1000;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    for (int s = 0; s < steps; s++) {
        long *v = mine + cur * b, *out = mine + (1 - cur) * b;
        long lv = left ? left[cur * b + b - 1] : 0; /* [LOAD] */
        long rv = right ? right[cur * b] : 0;       /* [LOADR] */
        for (int i = 0; i < b; i++) {
            long a = i > 0 ? v[i - 1] : lv, c = i < b - 1 ? v[i + 1] : rv;
            out[i] = (a + 2 * v[i] + c) / 4; /* [STORE] */
        }
        cur = 1 - cur;
        MPI_Win_sync(win); /* makes my stores visible, but not when */
    }
    long sum = 0;
    for (int i = 0; i < b; i++)
        sum += mine[cur * b + i];
    MPI_Win_unlock_all(win);
    printf("rank %d: sum %ld\n", rank, sum);
    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, node);
    if (rank == 0)
        printf("rma_shared: B=%d steps=%d ranks=%d total=%ld\n", b, steps, size, total);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
