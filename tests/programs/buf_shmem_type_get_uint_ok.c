/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_type_get_uint_ok.c - the correct twin of
 * buf_shmem_type_get_uint.c (see there): this one has unsigned got[2].
 */
#include <shmem.h>
#include <stdint.h>

static unsigned ux[2] = {7, 8};

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    unsigned got[2];
    if (me == 0) {
        shmem_uint_get((unsigned *)got, ux, 2, 1); /* [A] */
        (void)got[0];
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
