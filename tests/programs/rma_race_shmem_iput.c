/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_iput.c - PE 0 puts two ints into x[0] and x[2] of PE 1 with
 * shmem_int_iput (stride 2) while PE 1 loads x[2]: a data race.  The twin
 * rma_race_shmem_iput_ok.c loads x[1], which the strided put skips.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v[2] = {5, 6}, r = 0;
    if (me == 0)
        shmem_int_iput(x, v, 2, 1, 2, 1); /* [A] */
    if (me == 1)
        r = x[2]; /* [B] */
    shmem_barrier_all();
    printf("%d\n", r);
    shmem_finalize();
    return 0;
}
