/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_put_global_ok.c - the correct twin of buf_shmem_put_global.c
 * (see there): this one puts them at &x[0].
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
        shmem_int_put(&x[0], src, 4, 1); /* [A] */
    shmem_barrier_all();
    y[0] = x[0];
    shmem_finalize();
    return 0;
}
