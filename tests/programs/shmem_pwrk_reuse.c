/*
 * shmem_pwrk_reuse.c - two reductions in a row that alternate their pSync
 * arrays, as programs do, but share one pWrk array with nothing between
 * them: pWrk, too, must not be still in use from a prior call on any PE
 * (OpenSHMEM 1.4 9.9.8).  A sum makes every PE wait for every other, so
 * the reuse shows only when a PE leaves the first reduction before another
 * PE did: under run the PEs leave in order and PE 0 enters the second one
 * first.  Expected: an MPI error at [SECOND] on PE 0, "pWrk is still in
 * use: PE 1 has not returned from shmem_int_sum_to_all at
 * shmem_pwrk_reuse.c:<[FIRST]>".  The twin shmem_pwrk_reuse_ok.c alternates
 * pWrk arrays too.
 */
#include <shmem.h>
#include <stdio.h>

static int a, b, s1, s2;
static int wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long ps1[SHMEM_REDUCE_SYNC_SIZE], ps2[SHMEM_REDUCE_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        ps1[i] = ps2[i] = SHMEM_SYNC_VALUE;
    a = me;
    b = 2 * me;
    shmem_barrier_all();
    shmem_int_sum_to_all(&s1, &a, 1, 0, 0, n, wrk, ps1); /* [FIRST] */
    shmem_int_sum_to_all(&s2, &b, 1, 0, 0, n, wrk, ps2); /* [SECOND] */
    printf("PE %d: %d %d\n", me, s1, s2);
    shmem_finalize();
    return 0;
}
