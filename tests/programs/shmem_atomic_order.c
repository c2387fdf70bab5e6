/*
 * shmem_atomic_order.c - the order of concurrent atomics is a choice.
 *
 * Every PE but 0 draws a slot from PE 0's counter with
 * shmem_int_atomic_fetch_inc ([FINC]).  The atomics do not race (one type),
 * but which PE gets which slot depends on the order in which they reach
 * PE 0: explore must find every assignment of slots, (n-1)! with n PEs
 * (6 with 4), as a message race warning with that many outcomes, and no
 * error.  `ordex run` applies them in issue order.
 */
#include <shmem.h>
#include <stdio.h>

static int counter;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me > 0) {
        int slot = shmem_int_atomic_fetch_inc(&counter, 0); /* [FINC] */
        printf("PE %d got slot %d\n", me, slot);
    }
    shmem_finalize();
    return 0;
}
