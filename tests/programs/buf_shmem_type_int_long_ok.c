/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_type_int_long_ok.c - the correct twin of
 * buf_shmem_type_int_long.c (see there): this one uses shmem_long_put.
 */
#include <shmem.h>
#include <stdint.h>

static long lx[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    long v[4] = {1, 2, 3, 4};
    if (me == 0)
        shmem_long_put(lx, v, 4, 1); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
