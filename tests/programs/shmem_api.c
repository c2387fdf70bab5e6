/*
 * shmem_api.c - what the OpenSHMEM calls compute, under `ordex run -n 3`
 * (tests/e2e/test_shmem.c).  There is no OpenSHMEM to run it against here,
 * so every line below is derived by hand from OpenSHMEM 1.4 (PE p's right
 * neighbour is r = (p + 1) % 3, its left neighbour l = (p + 2) % 3; every
 * step ends with shmem_barrier_all, so each value read was completed).
 *
 * Expected verdict: no error.  Expected stdout (in any order):
 *   PE p: npes 3 pe_accessible 1 0 addr_accessible 1 0 ptr 1 0
 *   PE p: put 10l 10l+1 10l+2 10l+3            puts of the left neighbour
 *       (PE 0: 20 21 22 23, PE 1: 0 1 2 3, PE 2: 10 11 12 13)
 *   PE p: p/g 1000+p                           shmem_long_g of what p put
 *   PE p: iput l+50 0 l+60 iget 10p 10p+2
 *   PE p: nbi l+0.50 l+0.25 get_nbi 1000+p
 *   PE p: sized 77 78 hello-l 16-bit 0x1234 128-bit l l+1
 *   PE 0: amo 7 9 11 11 11 12 15 6 14 15 old 2 3 2 2.50
 *       (on PE 1's sw: set 7, swap 9, cswap 9->11, cswap 5 (fails), fetch,
 *       fetch_inc, fetch_add 3, fetch_and 6, fetch_or 8, fetch_xor 1, fetch;
 *       on PE 2's dep: set 2, finc, fadd -1, cswap 3 (fails); double set)
 *   PE 0: shared acc 6 cnt 3 and 0xf8 or 0x7 xor 0x70
 *   PE p: heap 10l 10l+1 10l+2 10l+3 calloc 0 0 0 0 align 1
 *   PE p: realloc 10l 10l+1 10l+2 10l+3 100
 *   PE p: wait 1 test 0 1
 *   PE p: bcast 201 202 fcollect 0 1 2 alltoall 10p 10p+1 10p+2
 *       (bcast: PE 1, the root, keeps its own dest: 0 0)
 *   PE p: sum 3 max 2 min 0 prod 0 and 0 or 3 xor 3 dsum 4.50
 *   PE 0: lock counter 3 test_lock 0 1
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

static int ia[8], flag;
static long la[4], lsync[SHMEM_COLLECT_SYNC_SIZE], rsync[SHMEM_REDUCE_SYNC_SIZE];
static double da[2], dsrc, ddst, dwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static char ca[8];
static int32_t i32[2];
static int64_t i64[2];
static uint16_t u16;
static long long w128[2];
static long sw, acc, lck;
static int cnt, lc, dep;
static unsigned andv = 0xff, orv, xorv;
static long bsrc[2], bdst[2];
/* Room for up to 4 PEs (the output shows 3). */
static int32_t fsrc, fdst[4], asrc[4], adst[4];
static int rs, rd[7], rwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), r = (me + 1) % n;
    int local = 0;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        lsync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        rsync[i] = SHMEM_SYNC_VALUE;
    printf("PE %d: npes %d pe_accessible %d %d addr_accessible %d %d ptr %d %d\n", me, n,
           shmem_pe_accessible(0), shmem_pe_accessible(n), shmem_addr_accessible(ia, r),
           shmem_addr_accessible(&local, r), shmem_ptr(ia, me) == ia, shmem_ptr(ia, r) != NULL);

    int v[4] = {10 * me, 10 * me + 1, 10 * me + 2, 10 * me + 3};
    shmem_int_put(ia, v, 4, r);
    shmem_long_p(&la[0], 1000 + me, r);
    shmem_barrier_all();
    printf("PE %d: put %d %d %d %d\n", me, ia[0], ia[1], ia[2], ia[3]);
    printf("PE %d: p/g %ld\n", me, shmem_long_g(&la[0], r));

    int src[2] = {me + 50, me + 60}, got[2];
    shmem_int_iput(&ia[4], src, 2, 1, 2, r);
    shmem_int_iget(got, ia, 1, 2, 2, r);
    shmem_barrier_all();
    printf("PE %d: iput %d %d %d iget %d %d\n", me, ia[4], ia[5], ia[6], got[0], got[1]);

    double dv[2] = {me + 0.5, me + 0.25};
    long lv;
    shmem_double_put_nbi(da, dv, 2, r);
    shmem_long_get_nbi(&lv, &la[0], 1, r);
    shmem_quiet();
    shmem_barrier_all();
    printf("PE %d: nbi %.2f %.2f get_nbi %ld\n", me, da[0], da[1], lv);

    int32_t s32[2] = {77, 78};
    shmem_put32(i32, s32, 2, r);
    char word[8];
    snprintf(word, sizeof word, "hello-%d", me);
    shmem_putmem(ca, word, 8, r);
    uint16_t h = 0x1234;
    shmem_put16(&u16, &h, 1, r);
    long long w[2] = {me, me + 1};
    shmem_put128(w128, w, 1, r);
    shmem_barrier_all();
    printf("PE %d: sized %d %d %s 16-bit %#x 128-bit %lld %lld\n", me, i32[0], i32[1], ca, u16,
           w128[0], w128[1]);

    if (me == 0) {
        shmem_long_atomic_set(&sw, 7, 1);
        long x1 = shmem_long_atomic_swap(&sw, 9, 1);
        long x2 = shmem_long_atomic_compare_swap(&sw, 9, 11, 1);
        long x3 = shmem_long_atomic_compare_swap(&sw, 5, 13, 1);
        long x4 = shmem_long_atomic_fetch(&sw, 1);
        long x5 = shmem_long_atomic_fetch_inc(&sw, 1);
        long x6 = shmem_long_atomic_fetch_add(&sw, 3, 1);
        long x7 = shmem_long_atomic_fetch_and(&sw, 6, 1);
        long x8 = shmem_long_atomic_fetch_or(&sw, 8, 1);
        long x9 = shmem_long_atomic_fetch_xor(&sw, 1, 1);
        long x10 = shmem_long_atomic_fetch(&sw, 1);
        /* The names of OpenSHMEM 1.3 on another variable. */
        shmem_int_set(&dep, 2, 2);
        int o1 = shmem_int_finc(&dep, 2);
        int o2 = shmem_int_fadd(&dep, -1, 2);
        int o3 = shmem_int_cswap(&dep, 3, 4, 2);
        double d = 2.5;
        shmem_double_atomic_set(&ddst, d, 2);
        double o4 = shmem_double_atomic_fetch(&ddst, 2);
        printf("PE 0: amo %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld old %d %d %d %.2f\n", x1, x2, x3,
               x4, x5, x6, x7, x8, x9, x10, o1, o2, o3, o4);
    }
    shmem_long_atomic_add(&acc, me + 1, 0);
    shmem_int_atomic_inc(&cnt, 0);
    shmem_uint_atomic_and(&andv, ~(1u << me), 0);
    shmem_uint_atomic_or(&orv, 1u << me, 0);
    shmem_uint_atomic_xor(&xorv, 1u << (me + 4), 0);
    shmem_barrier_all();
    if (me == 0)
        printf("PE 0: shared acc %ld cnt %d and %#x or %#x xor %#x\n", acc, cnt, andv, orv, xorv);

    int *hp = shmem_malloc(4 * sizeof(int));
    long *cp = shmem_calloc(4, sizeof(long));
    void *ap = shmem_align(64, 128);
    shmem_int_put(hp, v, 4, r);
    shmem_barrier_all();
    printf("PE %d: heap %d %d %d %d calloc %ld %ld %ld %ld align %d\n", me, hp[0], hp[1], hp[2],
           hp[3], cp[0], cp[1], cp[2], cp[3], (uintptr_t)ap % 64 == 0);
    hp = shmem_realloc(hp, 8 * sizeof(int));
    hp[4] = 100;
    printf("PE %d: realloc %d %d %d %d %d\n", me, hp[0], hp[1], hp[2], hp[3], hp[4]);
    shmem_free(ap);
    shmem_free(cp);
    shmem_free(hp);

    shmem_int_atomic_set(&flag, 1, r);
    shmem_int_wait_until(&flag, SHMEM_CMP_GE, 1);
    int t0 = shmem_int_test(&flag, SHMEM_CMP_EQ, 99);
    int t1 = shmem_int_test(&flag, SHMEM_CMP_NE, 0);
    printf("PE %d: wait %d test %d %d\n", me, flag, t0, t1);
    shmem_barrier_all();

    bsrc[0] = 200 + me;
    bsrc[1] = 201 + me;
    fsrc = me;
    for (int i = 0; i < n; i++)
        asrc[i] = 10 * i + me;
    shmem_barrier_all();
    shmem_broadcast64(bdst, bsrc, 2, 1, 0, 0, n, lsync);
    shmem_barrier_all();
    shmem_fcollect32(fdst, &fsrc, 1, 0, 0, n, lsync);
    shmem_barrier_all();
    shmem_alltoall32(adst, asrc, 1, 0, 0, n, lsync);
    shmem_barrier_all();
    printf("PE %d: bcast %ld %ld fcollect %d %d %d alltoall %d %d %d\n", me, bdst[0], bdst[1],
           fdst[0], fdst[1], fdst[2], adst[0], adst[1], adst[2]);

    rs = me;
    dsrc = me + 0.5;
    shmem_int_sum_to_all(&rd[0], &rs, 1, 0, 0, n, rwrk, rsync);
    shmem_barrier_all();
    shmem_int_max_to_all(&rd[1], &rs, 1, 0, 0, n, rwrk, rsync);
    shmem_barrier_all();
    shmem_int_min_to_all(&rd[2], &rs, 1, 0, 0, n, rwrk, rsync);
    shmem_barrier_all();
    shmem_int_prod_to_all(&rd[3], &rs, 1, 0, 0, n, rwrk, rsync);
    shmem_barrier_all();
    shmem_int_and_to_all(&rd[4], &rs, 1, 0, 0, n, rwrk, rsync);
    shmem_barrier_all();
    shmem_int_or_to_all(&rd[5], &rs, 1, 0, 0, n, rwrk, rsync);
    shmem_barrier_all();
    shmem_int_xor_to_all(&rd[6], &rs, 1, 0, 0, n, rwrk, rsync);
    shmem_barrier_all();
    shmem_double_sum_to_all(&ddst, &dsrc, 1, 0, 0, n, dwrk, rsync);
    shmem_barrier_all();
    printf("PE %d: sum %d max %d min %d prod %d and %d or %d xor %d dsum %.2f\n", me, rd[0], rd[1],
           rd[2], rd[3], rd[4], rd[5], rd[6], ddst);

    shmem_set_lock(&lck);
    int c = shmem_int_g(&lc, 0);
    shmem_int_p(&lc, c + 1, 0);
    shmem_clear_lock(&lck);
    shmem_barrier_all();
    if (me == 0) {
        int a = shmem_test_lock(&lck);
        int b = shmem_test_lock(&lck);
        shmem_clear_lock(&lck);
        printf("PE 0: lock counter %d test_lock %d %d\n", lc, a, b);
    }
    shmem_finalize();
    return 0;
}
