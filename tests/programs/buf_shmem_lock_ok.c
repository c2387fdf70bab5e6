/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_lock_ok.c - the correct twin of buf_shmem_lock.c: the lock is
 * the symmetric long lk.
 */
#include <shmem.h>

static long lk;
static long count;

int main(void) {
    shmem_init();
    shmem_set_lock(&lk); /* [A] */
    count++;
    shmem_clear_lock(&lk);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
