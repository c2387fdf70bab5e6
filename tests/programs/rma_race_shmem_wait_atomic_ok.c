/* ordex-expect: ranks=3 clean */
/*
 * rma_race_shmem_wait_atomic_ok.c - PEs 1 and 2 each put a value into a slot of PE 0, call
 * shmem_fence and increment a counter there atomically; PE 0 waits until
 * the counter is 2 and reads the slots: the counter's value holds both
 * increments, and each increment was fenced after its PE's put, so both
 * puts are delivered (30).
 */
#include <shmem.h>
#include <stdio.h>

static int slot[4];
static int count;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me > 0) {
        int v = 10 * me;
        shmem_int_p(&slot[me], v, 0); /* PUT */
        shmem_fence();
        shmem_int_atomic_inc(&count, 0);
    } else {
        shmem_int_wait_until(&count, SHMEM_CMP_EQ, 2);
        printf("%d\n", slot[1] + slot[2]); /* READ */
    }
    shmem_finalize();
    return 0;
}
