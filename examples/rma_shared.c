/*
 * rma_shared.c - a stencil on a shared-memory window: MPI_Win_allocate_shared,
 * MPI_Win_shared_query, plain loads and stores, MPI_Win_sync and barriers
 * (correct program; rma_shared_racy.c is its racy twin, without the
 * barrier).
 *
 * The ranks of one node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED) each
 * allocate a segment of two rows of B cells (argv[1], default 8): the current
 * row and the next.  Each rank finds its neighbours' segments with
 * MPI_Win_shared_query and reads their edge cells with ordinary loads.  Every
 * step writes the next row from the current one,
 *   v'[i] = (v[i-1] + 2 v[i] + v[i+1]) / 4     (integers; ends held at 0),
 * and swaps the rows.  The synchronisation is the usual one of the unified
 * model: a passive-target epoch over the whole run (MPI_Win_lock_all with
 * MPI_MODE_NOCHECK), and MPI_Win_sync + MPI_Barrier + MPI_Win_sync between a
 * rank's stores and its neighbours' loads.  After S steps (argv[2], default
 * 10) each rank prints its sum and rank 0 the total.
 *
 * Run:
 *   ./ordex run     -n 4 examples/rma_shared.c [B] [steps]
 *   ./ordex explore -n 4 examples/rma_shared.c [B] [steps]
 *
 * Expected ordex verdict: no error.  Every load of a neighbour's cell is
 * separated from the store that wrote it by a barrier.
 *
 * Expected stdout (lines may interleave):
 *   rank q: sum S                          (one line per rank)
 *   rma_shared: B=8 steps=10 ranks=N total=T   (rank 0)
 * Recorded with Open MPI in expected/rma_shared.n*.out.
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
        long rv = right ? right[cur * b] : 0;
        for (int i = 0; i < b; i++) {
            long a = i > 0 ? v[i - 1] : lv, c = i < b - 1 ? v[i + 1] : rv;
            out[i] = (a + 2 * v[i] + c) / 4; /* [STORE] */
        }
        cur = 1 - cur;
        /* The new row is complete everywhere before anyone reads it, and the
         * old one is read by everyone before it is overwritten. */
        MPI_Win_sync(win);
        MPI_Barrier(node);
        MPI_Win_sync(win);
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
