/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_put_load.c - PE 0 puts into x on PE 1 while PE 1 loads x, with nothing
 * between them: a data race (OpenSHMEM 1.4 9.6.1: a put completes at its
 * target only at a quiet or barrier).  The twin rma_race_shmem_put_load_ok.c
 * has shmem_barrier_all between them.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 7, r = 0;
    if (me == 0)
        shmem_int_put(x, &v, 1, 1); /* [A] */
    if (me == 1)
        r = x[0]; /* [B] */
    printf("PE %d: %d\n", me, r);
    shmem_finalize();
    return 0;
}
