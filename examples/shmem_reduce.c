/*
 * shmem_reduce.c - a global sum and maximum with the _to_all reductions
 * (correct program; the racy twin, a reduction by hand, is
 * shmem_reduce_racy.c).
 *
 * Every PE owns a slice of N values (value i of PE p is p * N + i + 1) and
 * computes its partial sums of the even and the odd ones; shmem_long_sum_to_all
 * adds the pairs over all PEs and shmem_long_max_to_all finds the largest
 * value.  Each reduction has a pSync array of its own, set to
 * SHMEM_SYNC_VALUE before the barrier that precedes the first of them, and
 * a pWrk array of its own (max(nreduce/2 + 1,
 * SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements), so neither is reused while
 * another PE may still be in the previous reduction (OpenSHMEM 1.4 9.9.8).
 *
 * Run:
 *   ./ordex run     -n 4 examples/shmem_reduce.c
 *   ./ordex explore -n 3 examples/shmem_reduce.c
 *
 * Expected ordex verdict: no error (run and explore).
 *
 * Expected stdout at n=4 (by hand: the values are 1 .. 4N = 32 with N = 8;
 * the odd ones 1, 3, .. 31 add up to 256, the even ones 2, .. 32 to 272,
 * the largest is 32), from every PE p:
 *   PE p: sums 256 272 max 32
 */
#include <shmem.h>
#include <stdio.h>

#define N 8
/* pWrk of a reduction of n elements: max(n/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE). */
#define WRK(n)                                                                                     \
    ((n) / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? (n) / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE)

static long pair[2], sums[2], top, maxv;
static long wrk_sum[WRK(2)], wrk_max[WRK(1)];
static long sync_sum[SHMEM_REDUCE_SYNC_SIZE], sync_max[SHMEM_REDUCE_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        sync_sum[i] = sync_max[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < N; i++) {
        long v = (long)me * N + i + 1;
        pair[i % 2] += v;
        if (v > top)
            top = v;
    }
    shmem_barrier_all(); /* every pSync is set before anyone reduces */
    shmem_long_sum_to_all(sums, pair, 2, 0, 0, npes, wrk_sum, sync_sum); /* [SUM] */
    shmem_long_max_to_all(&maxv, &top, 1, 0, 0, npes, wrk_max, sync_max);
    printf("PE %d: sums %ld %ld max %ld\n", me, sums[0], sums[1], maxv);
    shmem_finalize();
    return 0;
}
