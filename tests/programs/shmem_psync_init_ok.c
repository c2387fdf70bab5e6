/*
 * shmem_psync_init_ok.c - twin of shmem_psync_uninit.c and
 * shmem_psync_nobarrier.c: every PE sets its pSync to SHMEM_SYNC_VALUE,
 * and a barrier makes sure all have before any PE broadcasts.  Expected:
 * no error (run and explore); PEs other than 0 print "PE n: 10 11".
 */
#include <shmem.h>
#include <stdio.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    src[0] = 10;
    src[1] = 11;
    shmem_barrier_all();
    shmem_broadcast64(dst, src, 2, 0, 0, 0, shmem_n_pes(), ps); /* [BCAST] */
    if (me != 0)
        printf("PE %d: %ld %ld\n", me, dst[0], dst[1]);
    shmem_finalize();
    return 0;
}
