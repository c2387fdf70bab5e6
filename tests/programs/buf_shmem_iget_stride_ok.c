/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_iget_stride_ok.c - the correct twin of buf_shmem_iget_stride.c
 * (see there): this one gets 3.
 */
#include <shmem.h>
#include <stdint.h>

static double d[6];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    double got[4];
    if (me == 0) {
        shmem_double_iget(got, d, 1, 2, 3, 1); /* [A] */
        (void)got[0];
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
