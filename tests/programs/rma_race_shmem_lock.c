/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shmem_lock.c - PE 0 reads a counter of PE 2 with shmem_int_g while
 * holding a distributed lock; PE 1 writes it with shmem_int_p without taking
 * the lock.  A lock orders only the PEs that take it: a data race.  The twin
 * rma_race_shmem_lock_ok.c takes the lock on both PEs.
 */
#include <shmem.h>
#include <stdio.h>

static int counter;
static long lock;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_set_lock(&lock);
        int c = shmem_int_g(&counter, 2); /* [A] */
        shmem_clear_lock(&lock);
        printf("%d\n", c);
    }
    if (me == 1)
        shmem_int_p(&counter, 5, 2); /* [B] */
    shmem_finalize();
    return 0;
}
