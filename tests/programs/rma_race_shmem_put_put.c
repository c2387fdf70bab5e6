/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shmem_put_put.c - PEs 0 and 1 put into the same int of PE 2 in one phase:
 * a data race (the value left depends on the delivery order).  The twin
 * rma_race_shmem_put_put_ok.c puts into two different ints.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = me + 1;
    if (me == 0)
        shmem_int_p(&x[2], v, 2); /* [A] */
    if (me == 1)
        shmem_int_p(&x[2], v, 2); /* [B] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
