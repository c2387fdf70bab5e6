/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_iput_stride_ok.c - the correct twin of buf_shmem_iput_stride.c
 * (see there): this one uses stride 2 (the last at t[6]).
 */
#include <shmem.h>
#include <stdint.h>

static long t[8];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    long v[4] = {1, 2, 3, 4};
    if (me == 0)
        shmem_long_iput(t, v, 2, 1, 4, 1); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
