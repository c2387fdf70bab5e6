/*
 * shmem_lock_order.c - which PE a contended lock goes to first is a choice.
 *
 * Every PE takes the lock ([LOCK]), reads PE 0's counter, writes it back
 * plus one, and notes the value it saw; shmem_clear_lock completes the put
 * before the next holder reads.  Nothing races (the lock orders every
 * access), but which PE sees which value depends on the order of the
 * grants: explore must find every order, n! with n PEs (6 with 3), as a
 * message race warning with that many outcomes, and no error.
 */
#include <shmem.h>
#include <stdio.h>

static long lock;
static int counter;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    shmem_set_lock(&lock); /* [LOCK] */
    int seen = shmem_int_g(&counter, 0);
    shmem_int_p(&counter, seen + 1, 0);
    shmem_clear_lock(&lock);
    printf("PE %d saw %d\n", me, seen);
    shmem_finalize();
    return 0;
}
