/*
 * shmem_active_set.c - collectives on active sets other than all PEs, and
 * shmem_collect and shmem_alltoalls (tests/e2e/test_shmem.c).  Run with
 * 3 PEs; the values are derived by hand:
 *   - the even PEs (PE_start 0, logPE_stride 1, PE_size 2: PEs 0 and 2)
 *     add their PE number + 1 (1 + 3 = 4), meet in a barrier, and PE 2
 *     (index 1 of the set) broadcasts 102; the root's dest stays 0:
 *       PE 0: even sum 4 bcast 102
 *       PE 2: even sum 4 bcast 0
 *   - PEs 1 and 2 (PE_start 1, PE_size 2) collect their elements into
 *     each other's fcollect:
 *       PE 1: pair 1 2    PE 2: pair 1 2
 *   - every PE contributes me + 1 elements 10 * me + i to shmem_collect32:
 *       PE n: collect 0 10 11 20 21 22
 *   - shmem_alltoalls32 with both strides 2: PE j gets element 100 * i + j
 *     of PE i at dest[2 * i]:
 *       PE n: alltoalls n 100+n 200+n
 * Expected: no error (run and explore).
 */
#include <shmem.h>
#include <stdio.h>

static long ps[SHMEM_REDUCE_SYNC_SIZE], pc[SHMEM_COLLECT_SYNC_SIZE], pf[SHMEM_COLLECT_SYNC_SIZE];
static long pa[SHMEM_ALLTOALLS_SYNC_SIZE], bs[SHMEM_BARRIER_SYNC_SIZE];
static int src[4], dst[16], s1, d1, wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 2];
static int mine, pair[2];
static long b64, d64;
static int ss[16], dd[16];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        pc[i] = pf[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_ALLTOALLS_SYNC_SIZE; i++)
        pa[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        bs[i] = SHMEM_SYNC_VALUE;
    s1 = me + 1;
    b64 = 100 + me;
    mine = me;
    for (int i = 0; i <= me; i++)
        src[i] = 10 * me + i;
    for (int j = 0; j < n; j++)
        ss[2 * j] = 100 * me + j;
    shmem_barrier_all();
    if (me % 2 == 0) {
        shmem_int_sum_to_all(&d1, &s1, 1, 0, 1, (n + 1) / 2, wrk, ps); /* [SUM] */
        shmem_barrier(0, 1, (n + 1) / 2, bs);
        shmem_broadcast64(&d64, &b64, 1, 1, 0, 1, (n + 1) / 2, pc);
        printf("PE %d: even sum %d bcast %ld\n", me, d1, d64);
    }
    if (me >= 1) {
        shmem_fcollect32(pair, &mine, 1, 1, 0, 2, pf);
        printf("PE %d: pair %d %d\n", me, pair[0], pair[1]);
    }
    shmem_barrier_all();
    shmem_collect32(dst, src, me + 1, 0, 0, n, pc);
    printf("PE %d: collect", me);
    for (int i = 0; i < n * (n + 1) / 2; i++)
        printf(" %d", dst[i]);
    printf("\n");
    shmem_alltoalls32(dd, ss, 2, 2, 1, 0, 0, n, pa);
    printf("PE %d: alltoalls", me);
    for (int j = 0; j < n; j++)
        printf(" %d", dd[2 * j]);
    printf("\n");
    shmem_finalize();
    return 0;
}
