/* ordex-expect: ranks=2 past=A object=d bytes=8 */
/*
 * buf_shmem_iget_stride.c - PE 0 gets 4 doubles of the symmetric double d[6]
 * of PE 1 at a source stride of 2: the 4th is d[6], 8 bytes past the end.
 * The twin gets 3.
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
        shmem_double_iget(got, d, 1, 2, 4, 1); /* [A] */
        (void)got[0];
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
