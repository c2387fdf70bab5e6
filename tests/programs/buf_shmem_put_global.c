/* ordex-expect: ranks=2 past=A object=x bytes=8 */
/*
 * buf_shmem_put_global.c - PE 0 puts 4 ints at &x[2] of PE 1, where x is a
 * symmetric int[4]: the target is written 8 bytes past the end of x (on
 * every PE, since the copies are alike). The twin puts them at &x[0].
 */
#include <shmem.h>
#include <stdint.h>

static int x[4], y[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int src[4] = {1, 2, 3, 4};
    if (me == 0)
        shmem_int_put(&x[2], src, 4, 1); /* [A] */
    shmem_barrier_all();
    y[0] = x[0];
    shmem_finalize();
    return 0;
}
