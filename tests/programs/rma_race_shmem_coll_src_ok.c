/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_coll_src_ok.c - twin of rma_race_shmem_coll_src.c: a
 * shmem_barrier_all completes PE 1's put into PE 0's src before the
 * reduction reads it.
 */
#include <shmem.h>

static int src, dst, wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long ps[SHMEM_REDUCE_SYNC_SIZE];

int main(void) {
    shmem_init();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (shmem_my_pe() == 1)
        shmem_int_p(&src, 3, 0);
    shmem_barrier_all();
    shmem_int_sum_to_all(&dst, &src, 1, 0, 0, 2, wrk, ps);
    shmem_finalize();
    return 0;
}
