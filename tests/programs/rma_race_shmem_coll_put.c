/* ordex-expect: ranks=2 race=PUT,BCAST */
/*
 * rma_race_shmem_coll_put.c - PE 0 puts into PE 1's dst ([PUT]) and
 * enters a broadcast into dst with no shmem_quiet: the put is complete
 * only at PE 0's next quiet, so it may land after the broadcast wrote dst
 * on PE 1 ([BCAST], the data that the collective writes).  The twin
 * rma_race_shmem_coll_put_ok.c quiets before the broadcast.
 */
#include <shmem.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE];

int main(void) {
    shmem_init();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    src[0] = 5;
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        shmem_long_p(&dst[0], 7, 1);                /* [PUT] */
    shmem_broadcast64(dst, src, 2, 0, 0, 0, 2, ps); /* [BCAST] */
    shmem_finalize();
    return 0;
}
