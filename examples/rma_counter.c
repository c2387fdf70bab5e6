/*
 * rma_counter.c - a distributed ticket counter with MPI_Fetch_and_op
 * (correct program; --racy as the last argument makes its racy twin).
 *
 * Rank 0's window holds two counters.  Every rank draws K tickets (argv[1],
 * default 2) from each:
 *   - counter 0 under MPI_Win_lock_all: MPI_Fetch_and_op(MPI_SUM, +1) and
 *     MPI_Win_flush to get the ticket at once;
 *   - counter 1 under an exclusive MPI_Win_lock per ticket, unlocked after
 *     each draw.
 * Which rank gets which ticket depends on the order in which the accesses
 * reach rank 0, but fetch-and-op is atomic: the tickets of one counter are
 * exactly 0 .. size*K-1, each drawn once.  Rank 0 gathers them and checks
 * that; every printed line is the same in every ordering.
 *
 * Run:
 *   ./ordex run     -n 3 examples/rma_counter.c [K]
 *   ./ordex explore -n 3 examples/rma_counter.c [K]
 *
 * Expected ordex verdict: no error.  explore tries every order in which the
 * contended exclusive locks at [LOCK] are granted, the lock_all grants at
 * [LOCKALL] and the fetch-and-ops of different ranks apply; the output is
 * the same in all of them (3 ranks: 17,440 states with K = 2, a few
 * seconds; K = 1 is quicker).
 *
 * Expected stdout (lines may interleave):
 *   rank q: drew K + K tickets               (one line per rank)
 *   rma_counter: counter 0 = N, tickets 0..N-1 each drawn once: yes   (rank 0)
 *   rma_counter: counter 1 = N, tickets 0..N-1 each drawn once: yes
 * with N = size*K.  Recorded with Open MPI in expected/rma_counter.n*.out.
 *
 * The racy twin (--racy): counter 0 drawn the way one would without
 * atomics, MPI_Get [GET], MPI_Win_flush, increment, MPI_Put [PUT], all
 * under the shared locks of MPI_Win_lock_all.  Two ranks may read the same
 * value and write back the same ticket (a lost update), and the accesses
 * themselves are erroneous: MPI 3.1 11.5.3 lets epochs under shared locks
 * run concurrently, and 11.7 makes concurrent conflicting accesses to one
 * location (a put with a get or another put) erroneous; only accumulates
 * such as MPI_Fetch_and_op are atomic with each other (11.7.1).
 *   ./ordex run     -n 3 examples/rma_counter.c --racy
 *   ./ordex explore -n 3 examples/rma_counter.c 1 --racy
 * Expected ordex verdict: data_race errors, exit status 1.  run: 2 errors,
 * "MPI_Get by rank 1 at [GET] (target) and MPI_Put by rank 0 at [PUT]
 * (target) conflict" and "MPI_Put by rank 0 at [PUT] (target) and MPI_Put
 * by rank 1 at [PUT] (target) conflict", both on bytes 0-7 of rank 0's
 * window, with the lock_all at [LOCKALL] as their epoch; stdout as above
 * (ordex runs the ranks one after the other, so no ticket is lost; a real
 * MPI may print "NO").  explore: the same two kinds of conflict between
 * other pairs of ranks too (7 errors with K = 1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when t[0..n) holds each of 0..n-1 exactly once. */
static int each_once(const long *t, int n) {
    int *seen = calloc((size_t)n, sizeof(int));
    int ok = 1;
    for (int i = 0; i < n; i++) {
        if (t[i] < 0 || t[i] >= n || seen[t[i]]++)
            ok = 0;
    }
    free(seen);
    return ok;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* --racy (last argument): the twin with the mistake */
    int racy = argc > 1 && strcmp(argv[argc - 1], "--racy") == 0;
    if (racy)
        argc--;
    int k = argc > 1 ? atoi(argv[1]) : 2;
    if (k < 1)
        k = 1;

    long *counters;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? 2 * sizeof(long) : 0, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &counters, &win);
    if (rank == 0) { /* local stores to a window: inside an epoch of its own */
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        counters[0] = counters[1] = 0;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the counters are zero before anyone draws */

    long *mine = malloc(2 * (size_t)k * sizeof(long));
    const long one = 1;
    MPI_Win_lock_all(0, win); /* [LOCKALL] */
    for (int i = 0; i < k; i++) {
        if (racy) { /* read, increment, write back: not atomic */
            MPI_Get(&mine[i], 1, MPI_LONG, 0, 0, 1, MPI_LONG, win); /* [GET] */
            MPI_Win_flush(0, win);
            long next = mine[i] + 1;
            MPI_Put(&next, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win); /* [PUT] */
        } else {
            MPI_Fetch_and_op(&one, &mine[i], MPI_LONG, 0, 0, MPI_SUM, win); /* [FOP0] */
        }
        MPI_Win_flush(0, win);
    }
    MPI_Win_unlock_all(win);
    for (int i = 0; i < k; i++) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);                        /* [LOCK] */
        MPI_Fetch_and_op(&one, &mine[k + i], MPI_LONG, 0, 1, MPI_SUM, win); /* [FOP1] */
        MPI_Win_unlock(0, win);
    }
    printf("rank %d: drew %d + %d tickets\n", rank, k, k);

    long *all = rank == 0 ? malloc(2 * (size_t)k * (size_t)size * sizeof(long)) : NULL;
    MPI_Gather(mine, 2 * k, MPI_LONG, all, 2 * k, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD); /* every draw is done: rank 0 may read its counters */
    if (rank == 0) {
        int n = size * k;
        for (int c = 0; c < 2; c++) {
            long *t = malloc((size_t)n * sizeof(long));
            for (int r = 0; r < size; r++)
                for (int i = 0; i < k; i++)
                    t[r * k + i] = all[r * 2 * k + c * k + i];
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            long final = counters[c];
            MPI_Win_unlock(0, win);
            printf("rma_counter: counter %d = %ld, tickets 0..%d each drawn once: %s\n", c, final,
                   n - 1, each_once(t, n) ? "yes" : "NO");
            free(t);
        }
        free(all);
    }
    free(mine);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
