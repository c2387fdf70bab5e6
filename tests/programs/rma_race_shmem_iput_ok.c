/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_iput_ok.c - PE 0 puts two ints into x[0] and x[2] of PE 1 with
 * shmem_int_iput while PE 1 loads x[1], which the put does not touch: no
 * race (the twin of rma_race_shmem_iput.c).
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v[2] = {5, 6}, r = 0;
    if (me == 0)
        shmem_int_iput(x, v, 2, 1, 2, 1);
    if (me == 1)
        r = x[1];
    shmem_barrier_all();
    printf("%d %d\n", r, me == 1 ? x[2] : 0);
    shmem_finalize();
    return 0;
}
