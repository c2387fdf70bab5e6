/*
 * shmem_psync_uninit.c - a broadcast whose pSync was never set to
 * SHMEM_SYNC_VALUE (OpenSHMEM 1.4 9.9: every element must hold it before a
 * collective uses the array).  Expected: an MPI error at [BCAST] on PE 0,
 * "pSync[0] is 0, not SHMEM_SYNC_VALUE (-1)".  The twin
 * shmem_psync_init_ok.c initialises it, then synchronises.
 */
#include <shmem.h>
#include <stdio.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    src[0] = 10;
    src[1] = 11;
    shmem_barrier_all();
    shmem_broadcast64(dst, src, 2, 0, 0, 0, shmem_n_pes(), ps); /* [BCAST] */
    printf("PE %d: %ld %ld\n", me, dst[0], dst[1]);
    shmem_finalize();
    return 0;
}
