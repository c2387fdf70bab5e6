/* ordex-expect: ranks=2 past=A object=all bytes=4 */
/*
 * buf_shmem_fcollect_dest.c - shmem_fcollect32 of one int32_t from each of 2
 * PEs into int32_t all[1]: the second lands 4 bytes past it. The twin has
 * all[2].
 */
#include <shmem.h>
#include <stdint.h>

static int32_t mine, all[1];
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
