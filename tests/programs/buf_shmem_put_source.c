/* ordex-expect: ranks=2 past=A object=src bytes=8 */
/*
 * buf_shmem_put_source.c - PE 0 puts 4 ints from a local int src[2] into a
 * symmetric int[4]: the source is read 8 bytes past its end. The twin has
 * int src[4].
 */
#include <shmem.h>
#include <stdint.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int src[2] = {0};
    if (me == 0)
        shmem_int_put(x, src, 4, 1); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
