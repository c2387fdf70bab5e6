/*
 * shmem_set_deadlock.c - a barrier on PEs 0 and 1 that PE 1 never calls:
 * PE 0 waits for ever in shmem_barrier at [BARRIER] while PE 1 is in
 * shmem_barrier_all at [ALL] (PE 2 too).  Expected with 3 PEs: a deadlock
 * naming PE 0's shmem_barrier at [BARRIER].
 */
#include <shmem.h>

static long bs[SHMEM_BARRIER_SYNC_SIZE];

int main(void) {
    shmem_init();
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        bs[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        shmem_barrier(0, 0, 2, bs); /* [BARRIER] */
    shmem_barrier_all();            /* [ALL] */
    shmem_finalize();
    return 0;
}
