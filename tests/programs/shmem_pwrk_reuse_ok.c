/*
 * shmem_pwrk_reuse_ok.c - twin of shmem_pwrk_reuse.c: two reductions in a
 * row, each with a pSync and a pWrk array of its own.  Expected: no error
 * (run and explore); with 3 PEs every PE prints "PE n: 3 6".
 */
#include <shmem.h>
#include <stdio.h>

static int a, b, s1, s2;
static int wrk1[SHMEM_REDUCE_MIN_WRKDATA_SIZE], wrk2[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long ps1[SHMEM_REDUCE_SYNC_SIZE], ps2[SHMEM_REDUCE_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        ps1[i] = ps2[i] = SHMEM_SYNC_VALUE;
    a = me;
    b = 2 * me;
    shmem_barrier_all();
    shmem_int_sum_to_all(&s1, &a, 1, 0, 0, n, wrk1, ps1);
    shmem_int_sum_to_all(&s2, &b, 1, 0, 0, n, wrk2, ps2);
    printf("PE %d: %d %d\n", me, s1, s2);
    shmem_finalize();
    return 0;
}
