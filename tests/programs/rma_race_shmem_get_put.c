/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shmem_get_put.c - PE 0 gets x from PE 1 while PE 2 puts into it: a data
 * race between the get and the put.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 3, r;
    if (me == 0)
        shmem_int_get(&r, &x[3], 1, 1); /* [A] */
    if (me == 2)
        shmem_int_put(&x[3], &v, 1, 1); /* [B] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
