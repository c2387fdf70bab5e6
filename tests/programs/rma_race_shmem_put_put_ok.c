/* ordex-expect: ranks=3 clean */
/*
 * rma_race_shmem_put_put_ok.c - PEs 0 and 1 put into different ints of PE 2 in one phase:
 * no race (the twin of rma_race_shmem_put_put.c).
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = me + 1;
    if (me < 2)
        shmem_int_p(&x[me], v, 2);
    shmem_barrier_all();
    if (me == 2)
        printf("%d %d\n", x[0], x[1]);
    shmem_finalize();
    return 0;
}
