/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_coll_put_ok.c - twin of rma_race_shmem_coll_put.c: PE 0
 * quiets its put before the broadcast, whose arrival orders it before the
 * broadcast's write of dst on PE 1.
 */
#include <shmem.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE];

int main(void) {
    shmem_init();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    src[0] = 5;
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        shmem_long_p(&dst[0], 7, 1);
        shmem_quiet();
    }
    shmem_broadcast64(dst, src, 2, 0, 0, 0, 2, ps);
    shmem_finalize();
    return 0;
}
