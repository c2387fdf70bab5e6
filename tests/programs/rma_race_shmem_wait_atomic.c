/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shmem_wait_atomic.c - PEs 1 and 2 each put a value into a slot of PE 0 and then
 * increment a counter there atomically, with no fence between; PE 0 waits
 * until the counter is 2 and reads the slots: an increment may arrive
 * before its PE's put, a data race.  The twin
 * rma_race_shmem_wait_atomic_ok.c fences.
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
        shmem_int_p(&slot[me], v, 0); /* [A] */
        shmem_int_atomic_inc(&count, 0);
    } else {
        shmem_int_wait_until(&count, SHMEM_CMP_EQ, 2);
        printf("%d\n", slot[1] + slot[2]); /* [B] */
    }
    shmem_finalize();
    return 0;
}
