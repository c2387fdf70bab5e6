/* ordex-expect: ranks=3 clean */
/*
 * rma_race_shmem_lock_ok.c - PEs 0 and 1 each add 1 to a counter of PE 2 by
 * reading it with shmem_int_g and writing it back with shmem_int_p, under
 * shmem_set_lock / shmem_clear_lock: the lock orders them (shmem_clear_lock
 * completes the put before it releases), no race; PE 2 then reads 2.  The
 * twin rma_race_shmem_lock.c has a PE write without the lock.
 */
#include <shmem.h>
#include <stdio.h>

static int counter;
static long lock;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me < 2) {
        shmem_set_lock(&lock);
        int c = shmem_int_g(&counter, 2);
        shmem_int_p(&counter, c + 1, 2);
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    if (me == 2)
        printf("%d\n", counter);
    shmem_finalize();
    return 0;
}
