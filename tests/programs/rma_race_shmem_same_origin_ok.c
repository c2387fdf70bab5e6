/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_same_origin_ok.c - PE 0 puts twice into the same int of PE 1 with shmem_fence
 * between: the first is delivered before the second (the twin of
 * rma_race_shmem_same_origin.c); PE 1 then sees 2.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_int_p(&x[0], 1, 1);
        shmem_fence();
        shmem_int_p(&x[0], 2, 1);
    }
    shmem_barrier_all();
    if (me == 1)
        printf("x = %d\n", x[0]);
    shmem_finalize();
    return 0;
}
