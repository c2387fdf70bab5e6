/*
 * mergesort.c - parallel merge sort over a binomial tree of ranks (has a message-race bug).
 *
 * The array (size = argv[1], default 64) is one stream of a linear congruential
 * generator.  Rank q owns the slice [lo(q), lo(q+1)), lo(q) = q*n/size: it receives the
 * generator state from rank q-1 (line 112), generates its slice, passes the state on
 * and sorts.  The last rank hands the state back to rank 0 (line 123), which later
 * draws three lookup keys from it.  Then come merge rounds step = 1, 2, 4, ...: a rank
 * with rank % 2step == step sends its sorted run to rank-step (line 130) and stops;
 * a rank with rank % 2step == 0 receives its child's run (line 144) and merges it.
 *
 * THE BUG.  The receive at line 144 uses MPI_ANY_SOURCE and one tag for all rounds,
 * with a buffer sized for THIS round's run ("only one child sends to me per round").
 * On 4 ranks (size 64) rank 0 expects 16 values from rank 1 in round 1 and 32 values
 * from rank 2 in round 2; rank 2 sends its 32 values as soon as it has merged rank 3's
 * run, which does not depend on rank 0 or rank 1 at all.  Failing ordering:
 *   1. states pass 0 -> 1 -> 2 -> 3; rank 1 sends its 16-value run to rank 0 (line
 *      130) and that message stays in flight (unmatched);
 *   2. rank 3 sends the state to rank 0 and its run to rank 2; rank 2 receives the run
 *      (line 144), merges and sends its 32 values to rank 0 (line 130);
 *   3. rank 0 receives the state (line 123) and only now posts its round-1 receive
 *      (line 144, count 16): both runs are in flight, and it matches rank 2's
 *      32 values: MPI_ERR_TRUNCATE ("Message truncated" in MPICH).  MPI allows this:
 *      messages from different senders may be matched in either order.
 * In the natural order (ranks run in rank order, messages delivered in the order sent)
 * rank 1's run was sent first, so it is matched first and the program works.  Real
 * MPICH almost always works too: rank 1's run arrives long before rank 2's (measured:
 * 1 failure in 600 runs of 4 processes on 2 cores; delaying rank 1 makes it fail every
 * time).  Fix: one tag per round, or receive from rank+step.
 *
 * Run:
 *   ./ordex run     -n 4 examples/mergesort.c [size]
 *   ./ordex explore -n 4 examples/mergesort.c [size]
 *   mpicc -o mergesort examples/mergesort.c && mpiexec -n 4 ./mergesort [size]
 *
 * Expected ordex verdicts:
 *   n=1, n=2: no error (at most one run is ever sent to a rank).
 *   n=4: run: no error, stdout below.  explore: MPI error MPI_ERR_TRUNCATE in MPI_Recv
 *        at line 144 on rank 0 (count 16, message of 32 MPI_INT from rank 2), via the
 *        ordering above.  The explorer has to deliver rank 3's run to rank 2 (and let
 *        rank 2 send) before the state 3->0, or must not fire rank 0's wildcard match
 *        while rank 1's run is its only candidate and rank 2 can still send (fire the
 *        deterministic deliveries first, as ISP's POE does, or backtrack on the race
 *        between the sends of ranks 1 and 2).
 *   n=3 (size 64: runs of 21, 21, 22): run: no error.  explore: MPI error
 *        MPI_ERR_TRUNCATE at line 144 (rank 2's 22 values matched by rank 0's round-1
 *        receive sized 21); `ordex run --seed=S` hits it for some S.  Real MPICH: 3
 *        failures in 100 runs.
 *
 * Expected stdout (size 64; n = 1, 2 or 4; lines may interleave):
 *   rank r: sent S sorted values to rank P    (every rank but 0)
 *       n=2: rank 1 32 to 0.  n=4: rank 1 16 to 0, rank 3 16 to 2, rank 2 32 to 0
 *   mergesort: n=64 sorted=yes min=12 max=988 checksum=7a54974c
 *   mergesort: lookups 544:40 998:64 690:49    (key:number of smaller elements)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_SEED 6
#define TAG_RUN 7

static int lo(int q, int n, int size) {
    return (int)((long long)q * n / size);
}

/* The array is one sequence of a linear congruential generator (fixed seed). */
static void next_value(unsigned *state, int *out) {
    *state = *state * 1103515245u + 12345u;
    *out = (int)((*state >> 16) % 1000u);
}

/* Merge the sorted runs a[0..m) and a[m..k) using scratch space. */
static void merge(int *a, int m, int k, int *scratch) {
    int i = 0, j = m, o = 0;
    while (i < m && j < k) {
        scratch[o++] = a[i] <= a[j] ? a[i++] : a[j++];
    }
    while (i < m) {
        scratch[o++] = a[i++];
    }
    while (j < k) {
        scratch[o++] = a[j++];
    }
    memcpy(a, scratch, (size_t)k * sizeof(int));
}

static int cmp_int(const void *x, const void *y) {
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 64;
    if (n < 1) {
        n = 1;
    }

    int *data = calloc((size_t)n, sizeof(int));
    int *tmp = calloc((size_t)n, sizeof(int));
    int *scratch = calloc((size_t)n, sizeof(int));
    int have = lo(rank + 1, n, size) - lo(rank, n, size);
    /* Generate my slice: take the generator state from my left neighbour and pass it on.
       The last rank hands it back to rank 0, which draws the lookup keys from it. */
    unsigned state = 2024u;
    if (rank > 0) {
        MPI_Recv(&state, 1, MPI_UNSIGNED, rank - 1, TAG_SEED, // [SEEDR]
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < have; i++) {
        next_value(&state, &data[i]);
    }
    if (size > 1) {
        MPI_Send(&state, 1, MPI_UNSIGNED, (rank + 1) % size, TAG_SEED, MPI_COMM_WORLD);
    }
    qsort(data, (size_t)have, sizeof(int), cmp_int);
    if (rank == 0 && size > 1) {
        MPI_Recv(&state, 1, MPI_UNSIGNED, size - 1, TAG_SEED, // [FINAL]
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    for (int step = 1; step < size; step *= 2) {
        if (rank % (2 * step) == step) {
            /* My subtree is sorted: hand it to my parent and stop. */
            MPI_Send(data, have, MPI_INT, rank - step, TAG_RUN, MPI_COMM_WORLD); /* [SEND] */
            printf("rank %d: sent %d sorted values to rank %d\n", rank, have, rank - step);
            fflush(stdout);
            break;
        }
        int child = rank + step;
        if (child >= size) {
            continue;
        }
        /* This round's run covers the slices of ranks child .. child+step-1. */
        int last = child + step < size ? child + step : size;
        int expect = lo(last, n, size) - lo(child, n, size);
        MPI_Status st;
        /* BUG: wildcard source and one tag for all rounds (see header). */
        MPI_Recv(tmp, expect, MPI_INT, MPI_ANY_SOURCE, TAG_RUN, // [RECV]
                 MPI_COMM_WORLD, &st);
        int got;
        MPI_Get_count(&st, MPI_INT, &got);
        /* Place the run where the sender's slices belong, then merge. */
        int off = lo(st.MPI_SOURCE, n, size) - lo(rank, n, size);
        memcpy(data + off, tmp, (size_t)got * sizeof(int));
        merge(data, off, off + got, scratch);
        have = off + got;
    }

    if (rank == 0) {
        int sorted = 1;
        unsigned sum = 0;
        for (int i = 0; i < have; i++) {
            sorted &= i == 0 || data[i - 1] <= data[i];
            sum = sum * 31u + (unsigned)data[i];
        }
        printf("mergesort: n=%d sorted=%s min=%d max=%d checksum=%08x\n", have,
               sorted && have == n ? "yes" : "NO", data[0], data[have - 1], sum);
        /* Lookups: the next values of the stream and how many elements are smaller. */
        char line[128] = "mergesort: lookups";
        for (int q = 0; q < 3; q++) {
            int key, a = 0, b = have;
            next_value(&state, &key);
            while (a < b) { /* binary search: first element >= key */
                int mid = (a + b) / 2;
                if (data[mid] < key) {
                    a = mid + 1;
                } else {
                    b = mid;
                }
            }
            sprintf(line + strlen(line), " %d:%d", key, a);
        }
        printf("%s\n", line);
        fflush(stdout);
    }
    free(data);
    free(tmp);
    free(scratch);
    MPI_Finalize();
    return 0;
}
