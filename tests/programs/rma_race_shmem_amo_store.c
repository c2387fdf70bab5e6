/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_amo_store.c - PE 0 increments x on PE 1 atomically while PE 1 stores into
 * x: an atomic and a plain store conflict (OpenSHMEM 1.4 9.8), a data
 * race.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0)
        shmem_int_atomic_inc(&x[0], 1); /* [A] */
    if (me == 1)
        x[0] = 5; /* [B] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
