/*
 * shmem_psync_reuse_ok.c - twin of shmem_psync_reuse.c: a barrier between
 * the two broadcasts makes every PE done with the first before any enters
 * the second, so the pSync array may serve again.  Consecutive barriers
 * on one active set may share a pSync array without anything between
 * them ([B1], [B2]: OpenSHMEM 1.4 9.5.1).  Expected: no error (run and
 * explore); every PE but 0 prints "PE n: 1 2".
 */
#include <shmem.h>
#include <stdio.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE], bs[SHMEM_BARRIER_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        bs[i] = SHMEM_SYNC_VALUE;
    src[0] = 1;
    src[1] = 2;
    shmem_barrier_all();
    shmem_broadcast64(dst, src, 1, 0, 0, 0, n, ps);
    shmem_barrier(0, 0, n, bs); /* [B1] */
    shmem_barrier(0, 0, n, bs); /* [B2] */
    shmem_broadcast64(dst + 1, src + 1, 1, 0, 0, 0, n, ps);
    if (me != 0)
        printf("PE %d: %ld %ld\n", me, dst[0], dst[1]);
    shmem_finalize();
    return 0;
}
