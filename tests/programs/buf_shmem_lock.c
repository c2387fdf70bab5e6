/* ordex-expect: ranks=2 past=A object=lk bytes=4 */
/*
 * buf_shmem_lock.c - the PEs take a lock whose long is the symmetric
 * int lk, 4 bytes short of the long the lock calls use. The twin
 * buf_shmem_lock_ok.c declares long lk.
 */
#include <shmem.h>

static _Alignas(8) int lk;
static long count;

int main(void) {
    shmem_init();
    shmem_set_lock((long *)&lk); /* [A] */
    count++;
    shmem_clear_lock((long *)&lk);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
