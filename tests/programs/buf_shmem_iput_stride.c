/* ordex-expect: ranks=2 past=A object=t bytes=16 */
/*
 * buf_shmem_iput_stride.c - PE 0 puts 4 longs into the symmetric long t[8]
 * of PE 1 with a target stride of 3: the last lands at t[9], 16 bytes past
 * the end. The twin uses stride 2 (the last at t[6]).
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
        shmem_long_iput(t, v, 3, 1, 4, 1); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
