/*
 * shmem_stencil.c - 1-D stencil on a ring of PEs with OpenSHMEM puts and
 * shmem_barrier_all (correct program; `racy` as argv[2] makes its twin).
 *
 * Each PE owns CELLS = 8 cells of a periodic ring of 8 * npes cells, in a
 * symmetric array with a ghost cell on either side.  Every step, each PE
 * puts its first cell into the right ghost of its left neighbour and its
 * last cell into the left ghost of its right neighbour (shmem_long_p),
 * shmem_barrier_all completes the puts, the PE updates
 *   u'[i] = u[i-1] + 2 u[i] + u[i+1]
 * and a second shmem_barrier_all keeps the next step's puts out of ghost
 * cells that the neighbour is still reading.  At the start cell 0 (PE 0's
 * first) holds 1 and every other 0; after S steps (argv[1], default 3, at
 * most 4 * npes - 1 so that the ring does not wrap onto itself) the cell at
 * ring distance d from cell 0 holds C(2S, S + d), and the sum, gathered with
 * shmem_long_sum_to_all, is 4^S.
 *
 * Run:
 *   ./ordex run     -n 4 examples/shmem_stencil.c [steps]
 *   ./ordex explore -n 4 examples/shmem_stencil.c [steps]
 *   ./ordex explore -n 4 examples/shmem_stencil.c 3 racy
 *
 * Expected ordex verdict: no error (run and explore).  With `racy` the
 * second barrier is left out: a PE's put of the next step ([PUT_LEFT] or
 * [PUT_RIGHT]) lands in a neighbour's ghost cell while that neighbour may
 * still read it in its update ([READ]): a data race (kind data_race)
 * between those lines.
 *
 * Expected stdout with the defaults at n=4 (by hand: C(6,3..6) = 20, 15,
 * 6, 1; PE 0 holds distances 0..3, PE 3 distances 3..1 at its end):
 *   PE 0: 20 15 6 1 0 0 0 0 sum 42
 *   PE 1: 0 0 0 0 0 0 0 0 sum 0
 *   PE 2: 0 0 0 0 0 0 0 0 sum 0
 *   PE 3: 0 0 0 0 0 1 6 15 sum 22
 *   total 64 after 3 steps            (PE 0)
 * (lines of different PEs may come in any order).
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELLS 8

static long u[CELLS + 2]; /* u[0] and u[CELLS + 1] are the ghost cells */
static long sum, total;
static long work[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long sync_area[SHMEM_REDUCE_SYNC_SIZE];

int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int steps = argc > 1 ? atoi(argv[1]) : 3;
    int racy = argc > 2 && strcmp(argv[2], "racy") == 0;
    if (steps < 0 || steps > 4 * npes - 1)
        steps = 3;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        sync_area[i] = SHMEM_SYNC_VALUE;
    int left = (me + npes - 1) % npes, right = (me + 1) % npes;
    if (me == 0)
        u[1] = 1;
    shmem_barrier_all();
    for (int s = 0; s < steps; s++) {
        shmem_long_p(&u[CELLS + 1], u[1], left); /* [PUT_LEFT] */
        shmem_long_p(&u[0], u[CELLS], right);    /* [PUT_RIGHT] */
        shmem_barrier_all();
        long next[CELLS + 2];
        for (int i = 1; i <= CELLS; i++)
            next[i] = u[i - 1] + 2 * u[i] + u[i + 1]; /* [READ] */
        memcpy(&u[1], &next[1], CELLS * sizeof(long));
        if (!racy)
            shmem_barrier_all(); /* [SECOND] */
    }
    char line[256];
    int len = snprintf(line, sizeof line, "PE %d:", me);
    sum = 0;
    for (int i = 1; i <= CELLS; i++) {
        len += snprintf(line + len, sizeof line - (size_t)len, " %ld", u[i]);
        sum += u[i];
    }
    printf("%s sum %ld\n", line, sum);
    shmem_barrier_all();
    shmem_long_sum_to_all(&total, &sum, 1, 0, 0, npes, work, sync_area);
    if (me == 0)
        printf("total %ld after %d steps\n", total, steps);
    shmem_finalize();
    return 0;
}
