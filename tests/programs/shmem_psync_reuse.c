/*
 * shmem_psync_reuse.c - two broadcasts in a row with one pSync array and
 * nothing between them: the root returns from the first at once and
 * enters the second while the other PEs may still be in the first
 * (OpenSHMEM 1.4 9.9.4: the pSync array of every PE must not be still in
 * use from a prior call).  Expected: an MPI error at [SECOND] on PE 0 (the
 * root), "pSync is still in use: PE 1 has not returned from
 * shmem_broadcast64 at shmem_psync_reuse.c:<[FIRST]>" (when PE 1 has
 * returned but nothing ordered that before PE 0's call: "pSync is reused
 * too early: nothing orders PE 1's return from ..."; explore reports one
 * of the two).  The twin shmem_psync_reuse_ok.c has a barrier between
 * them.
 */
#include <shmem.h>
#include <stdio.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    src[0] = 1;
    src[1] = 2;
    shmem_barrier_all();
    shmem_broadcast64(dst, src, 2, 0, 0, 0, shmem_n_pes(), ps); /* [FIRST] */
    shmem_broadcast64(dst, src, 1, 0, 0, 0, shmem_n_pes(), ps); /* [SECOND] */
    printf("PE %d: %ld\n", me, dst[0]);
    shmem_finalize();
    return 0;
}
