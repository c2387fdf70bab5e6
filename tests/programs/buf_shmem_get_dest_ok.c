/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_get_dest_ok.c - the correct twin of buf_shmem_get_dest.c (see
 * there): this one has int got[4].
 */
#include <shmem.h>
#include <stdint.h>

static int x[4] = {1, 2, 3, 4};

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int got[4];
    if (me == 0) {
        shmem_int_get(got, x, 4, 1); /* [A] */
        (void)got[0];
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
