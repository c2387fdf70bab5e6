/* ordex-expect: ranks=2 race=PUT,SUM */
/*
 * rma_race_shmem_coll_src.c - PE 1 puts into PE 0's src ([PUT]), which
 * PE 0 reduces at once ([SUM]) with nothing completing the put first: the
 * reduction may read src before or after the put lands (the data that
 * the collective reads).  The twin rma_race_shmem_coll_src_ok.c has a
 * shmem_barrier_all between them.
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
        shmem_int_p(&src, 3, 0);                           /* [PUT] */
    shmem_int_sum_to_all(&dst, &src, 1, 0, 0, 2, wrk, ps); /* [SUM] */
    shmem_finalize();
    return 0;
}
