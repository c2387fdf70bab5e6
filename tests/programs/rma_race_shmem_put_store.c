/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_put_store.c - PE 0 puts into x on PE 1 while PE 1 stores into x: a data
 * race.  The twin rma_race_shmem_put_store_ok.c stores before a barrier that
 * comes before the put.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 7;
    if (me == 0)
        shmem_int_put(&x[1], &v, 1, 1); /* [A] */
    if (me == 1)
        x[1] = 3; /* [B] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
