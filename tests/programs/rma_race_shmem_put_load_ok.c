/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_put_load_ok.c - PE 0 puts into x on PE 1, shmem_barrier_all completes the
 * put, then PE 1 loads x: no race (the twin of rma_race_shmem_put_load.c).
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 7, r = 0;
    if (me == 0)
        shmem_int_put(x, &v, 1, 1);
    shmem_barrier_all();
    if (me == 1)
        r = x[0];
    printf("PE %d: %d\n", me, r);
    shmem_finalize();
    return 0;
}
