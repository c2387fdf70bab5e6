/* ordex-expect: ranks=2 past=A object=got bytes=4 */
/*
 * buf_shmem_get_dest.c - PE 0 gets 4 ints of PE 1 into a local int got[3]:
 * the destination is written 4 bytes past its end. The twin has int got[4].
 */
#include <shmem.h>
#include <stdint.h>

static int x[4] = {1, 2, 3, 4};

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int got[3];
    if (me == 0) {
        shmem_int_get(got, x, 4, 1); /* [A] */
        (void)got[0];
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
