/* ordex-expect: ranks=2 past=A object=ps bytes=8 */
/*
 * buf_shmem_psync.c - A broadcast with pSync long ps[1]: it needs
 * SHMEM_BCAST_SYNC_SIZE longs (2 with this shmem.h), so pSync is short by 8
 * bytes. The twin declares ps[SHMEM_BCAST_SYNC_SIZE].
 */
#include <shmem.h>
#include <stdint.h>

static long src[2], dst[2], ps[1];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    for (int i = 0; i < (int)(sizeof ps / sizeof ps[0]); i++)
        ps[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_broadcast64(dst, src, 2, 0, 0, 0, shmem_n_pes(), ps); /* [A] */
    shmem_finalize();
    return 0;
}
