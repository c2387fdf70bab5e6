/*
 * rma_lockq.c - a work queue in rank 0's window, shared through exclusive
 * locks (correct program; --racy as the last argument makes its racy twin).
 *
 * Rank 0's window holds the index of the next task and one result slot per
 * task; T tasks (argv[1], default 4).  Every rank, rank 0 included, loops:
 * in one exclusive epoch on rank 0 (MPI_Win_lock) it stores the result of
 * its previous task (MPI_Put), reads the next index (MPI_Get, completed at
 * once by MPI_Win_flush so that it can be tested) and, if a task is left,
 * writes the index back incremented; after MPI_Win_unlock it computes the
 * task (a small checksum) outside any epoch.  Which rank does which task
 * depends on the order in which the locks are granted, the results do not.
 * At the end rank 0 prints every result and their sum.
 *
 * Run:
 *   ./ordex run     -n 3 examples/rma_lockq.c [T]
 *   ./ordex explore -n 3 examples/rma_lockq.c [T]
 *
 * Expected ordex verdict: no error.  explore grants the contended locks at
 * [LOCK] in every order; the index is read and written only under the
 * exclusive lock, each result slot is written once.
 *
 * Expected stdout (lines may interleave):
 *   rank q: done                               (one line per rank)
 *   rma_lockq: task t result R                 (rank 0, one line per task)
 *   rma_lockq: T tasks, sum S
 * Recorded with Open MPI in expected/rma_lockq.n*.out.
 *
 * The racy twin (--racy): the epoch at [LOCK] takes a shared lock instead
 * of an exclusive one, as if locking were only needed around the result
 * slots.  Two ranks may then read the same index at [GET] and both take
 * that task, and the accesses themselves are erroneous: MPI 3.1 11.5.3
 * lets epochs under shared locks run concurrently, and 11.7 makes
 * concurrent conflicting accesses to one location (a put with a get or
 * another put) erroneous.
 *   ./ordex run     -n 3 examples/rma_lockq.c --racy
 *   ./ordex explore -n 3 examples/rma_lockq.c --racy
 * Expected ordex verdict: data_race errors, exit status 1.  run: 2 errors
 * on bytes 0-7 of rank 0's window (the index), "MPI_Get by rank 1 at [GET]
 * (target) and MPI_Put by rank 0 at [TAKE] (target) conflict" and "MPI_Put
 * by rank 0 at [TAKE] (target) and MPI_Put by rank 1 at [TAKE] (target)
 * conflict"; stdout as above (ordex grants the shared locks in request
 * order and no task is taken twice; a real MPI may repeat tasks).
 * explore: the same two kinds of conflict between other pairs of ranks
 * too (4 errors with T = 4).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long work(long t) {
    long h = t + 1;
    for (int i = 0; i < 1000; i++)
        h = (h * 31 + i) % 1000003;
    return h;
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
    int tasks = argc > 1 ? atoi(argv[1]) : 4;
    /* The index is read, tested and written back in one epoch: only an
     * exclusive lock keeps another rank out of it. */
    int lock_type = racy ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;

    /* slot 0: the next task; slots 1..T: the results */
    long *q = NULL;
    MPI_Aint bytes = rank == 0 ? (MPI_Aint)(tasks + 1) * (MPI_Aint)sizeof(long) : 0;
    MPI_Win win;
    MPI_Win_allocate(bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &q, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        for (int i = 0; i <= tasks; i++)
            q[i] = i == 0 ? 0 : -1;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    long task = -1, result = 0;
    for (;;) {
        MPI_Win_lock(lock_type, 0, 0, win); /* [LOCK] */
        if (task >= 0)
            MPI_Put(&result, 1, MPI_LONG, 0, 1 + task, 1, MPI_LONG, win); /* [RESULT] */
        long next;
        MPI_Get(&next, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win); /* [GET] */
        MPI_Win_flush(0, win);
        long taken = next + 1;
        if (next < tasks)
            MPI_Put(&taken, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win); /* [TAKE] */
        MPI_Win_unlock(0, win);
        if (next >= tasks)
            break;
        task = next;
        result = work(task);
    }
    printf("rank %d: done\n", rank);
    MPI_Barrier(MPI_COMM_WORLD); /* every result is in */
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        long sum = 0;
        for (int t = 0; t < tasks; t++) {
            printf("rma_lockq: task %d result %ld\n", t, q[1 + t]);
            sum += q[1 + t];
        }
        MPI_Win_unlock(0, win);
        printf("rma_lockq: %d tasks, sum %ld\n", tasks, sum);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
