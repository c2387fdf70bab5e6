/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_put_source_ok.c - the correct twin of buf_shmem_put_source.c
 * (see there): this one has int src[4].
 */
#include <shmem.h>
#include <stdint.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int src[4] = {0};
    if (me == 0)
        shmem_int_put(x, src, 4, 1); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
