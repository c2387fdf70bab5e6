/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_reduce_pwrk_ok.c - the correct twin of buf_shmem_reduce_pwrk.c
 * (see there): this one has int wrk[5].
 */
#include <shmem.h>
#include <stdint.h>

static int src[8], dst[8], wrk[5];
static long ps[SHMEM_REDUCE_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_int_sum_to_all(dst, src, 8, 0, 0, shmem_n_pes(), wrk, ps); /* [A] */
    shmem_finalize();
    return 0;
}
