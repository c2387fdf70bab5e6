/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_same_origin.c - PE 0 puts twice into the same int of PE 1 with no
 * shmem_fence between the puts: they may be delivered in either order
 * (OpenSHMEM 1.4 9.6.1), a data race between them.  The twin
 * rma_race_shmem_same_origin_ok.c has the fence.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_int_p(&x[0], 1, 1); /* [A] */
        shmem_int_p(&x[0], 2, 1); /* [B] */
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
