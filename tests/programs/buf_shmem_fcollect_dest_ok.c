/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_fcollect_dest_ok.c - the correct twin of
 * buf_shmem_fcollect_dest.c (see there): this one has all[2].
 */
#include <shmem.h>
#include <stdint.h>

static int32_t mine, all[2];
static long ps[SHMEM_COLLECT_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    mine = me;
    shmem_barrier_all();
    shmem_fcollect32(all, &mine, 1, 0, 0, shmem_n_pes(), ps); /* [A] */
    shmem_finalize();
    return 0;
}
