/* ordex-expect: ranks=2 past=A object=wrk bytes=4 */
/*
 * buf_shmem_reduce_pwrk.c - A sum of 8 ints with pWrk int wrk[4]: OpenSHMEM
 * asks for max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) = 5 elements,
 * so the work array is short by 4 bytes. The twin has int wrk[5].
 */
#include <shmem.h>
#include <stdint.h>

static int src[8], dst[8], wrk[4];
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
