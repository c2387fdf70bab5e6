/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_atomic_target_ok.c - the correct twin of
 * buf_shmem_atomic_target.c (see there): this one declares long pair[1].
 */
#include <shmem.h>
#include <stdint.h>

static long pair[1];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    if (me == 0)
        shmem_long_atomic_inc((long *)pair, 1); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
