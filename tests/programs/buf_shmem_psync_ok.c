/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_psync_ok.c - the correct twin of buf_shmem_psync.c (see there):
 * this one declares ps[SHMEM_BCAST_SYNC_SIZE].
 */
#include <shmem.h>
#include <stdint.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE];

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
