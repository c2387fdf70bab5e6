/*
 * shmem_psync_nobarrier.c - every PE sets its own pSync to
 * SHMEM_SYNC_VALUE, but nothing makes sure that the others have before it
 * broadcasts: a PE that enters first may write into a pSync that its owner
 * sets afterwards (OpenSHMEM 1.4 9.9 asks for a barrier between the
 * initialisation and the first call).  Expected (run: PE 0 runs first and
 * enters the broadcast before PE 1 started): an MPI error at [BCAST] on
 * PE 0, "PE 1's pSync[0] is 0, not SHMEM_SYNC_VALUE (-1), as PE 0 enters".
 * The twin is shmem_psync_init_ok.c.
 */
#include <shmem.h>
#include <stdio.h>

static long src[2], dst[2], ps[SHMEM_BCAST_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    shmem_broadcast64(dst, src, 2, 0, 0, 0, shmem_n_pes(), ps); /* [BCAST] */
    printf("PE %d: %ld\n", me, dst[0]);
    shmem_finalize();
    return 0;
}
