/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shmem_amo_put.c - PE 0 adds to x on PE 2 atomically while PE 1 puts into x:
 * a put is not atomic with an atomic, a data race.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 4;
    if (me == 0)
        shmem_int_atomic_add(&x[1], 1, 2); /* [A] */
    if (me == 1)
        shmem_int_put(&x[1], &v, 1, 2); /* [B] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
