/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_put_store_ok.c - PE 1 stores into x, shmem_barrier_all, then PE 0 puts into
 * x on PE 1 and a second barrier completes it (the twin of
 * rma_race_shmem_put_store.c).
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 7;
    if (me == 1)
        x[1] = 3;
    shmem_barrier_all();
    if (me == 0)
        shmem_int_put(&x[1], &v, 1, 1);
    shmem_barrier_all();
    if (me == 1)
        printf("x[1] = %d\n", x[1]);
    shmem_finalize();
    return 0;
}
