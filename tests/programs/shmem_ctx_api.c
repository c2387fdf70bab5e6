/*
 * shmem_ctx_api.c - what the context calls compute (tests/e2e/test_shmem.c),
 * with 2 PEs; values derived by hand.  Each PE creates a context and, on
 * it, puts into the other PE (shmem_ctx_int_put of 10*me+1, 10*me+2),
 * increments the other's counter with shmem_ctx_long_atomic_fetch_add (by
 * me + 1, fetching 0), puts a value with shmem_ctx_int_p and one more
 * through SHMEM_CTX_DEFAULT (shmem_ctx_int_p), then quiets the context and
 * waits at a barrier; it reads back with shmem_ctx_getmem and
 * shmem_ctx_long_atomic_fetch and destroys the context.  PE p, with q the
 * other PE, prints
 *   PE p: got 10q+1 10q+2 p 7 def 8 counter q+1 getmem 10p+1 fetch p+1
 * (getmem reads back what p put into q), that is "PE 0: got 11 12 p 7 def
 * 8 counter 2 getmem 1 fetch 1" and "PE 1: got 1 2 p 7 def 8 counter 1
 * getmem 11 fetch 2".  Expected: no
 * error (run and explore).
 */
#include <shmem.h>
#include <stdio.h>

static int buf[2], one, dflt;
static long counter;

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), other = 1 - me;
    shmem_ctx_t ctx;
    int rc = shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx);
    int v[2] = {10 * me + 1, 10 * me + 2};
    shmem_ctx_int_put(ctx, buf, v, 2, other);
    long old = shmem_ctx_long_atomic_fetch_add(ctx, &counter, me + 1, other);
    shmem_ctx_int_p(ctx, &one, 7, other);
    shmem_ctx_int_p(SHMEM_CTX_DEFAULT, &dflt, 8, other);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    int back[2];
    shmem_ctx_getmem(ctx, back, buf, sizeof back, other);
    long f = shmem_ctx_long_atomic_fetch(ctx, &counter, other);
    shmem_ctx_destroy(ctx);
    printf("PE %d: got %d %d p %d def %d counter %ld getmem %d fetch %ld%s\n", me, buf[0], buf[1],
           one, dflt, counter, back[0], f, rc == 0 && old == 0 ? "" : " (create or fetch failed)");
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
