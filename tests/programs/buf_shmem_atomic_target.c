/* ordex-expect: ranks=2 past=A object=pair bytes=4 */
/*
 * buf_shmem_atomic_target.c - PE 0 increments a long of PE 1 at the
 * symmetric _Alignas(8) int pair[1]: the atomic reads and writes 4 bytes
 * past the end of an int. The twin declares long pair[1].
 */
#include <shmem.h>
#include <stdint.h>

static _Alignas(8) int pair[1];

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
