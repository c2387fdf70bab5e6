/* ordex-expect: ranks=3 clean */
/*
 * rma_race_shmem_amo_amo_ok.c - PEs 0 and 2 increment the same int of PE 1 with
 * shmem_int_atomic_inc in one phase: atomics of one type are atomic with
 * each other, no race; after the barrier PE 1 reads 2.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me != 1)
        shmem_int_atomic_inc(&x[0], 1);
    shmem_barrier_all();
    if (me == 1)
        printf("%d\n", x[0]);
    shmem_finalize();
    return 0;
}
