/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_heap.c - the same as rma_race_shmem_put_load.c on the symmetric
 * heap: PE 0 puts into an object from shmem_malloc of PE 1 while PE 1
 * loads it.  The twin rma_race_shmem_heap_ok.c has a barrier between.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long *obj = shmem_malloc(4 * sizeof(long));
    long v = 8, r = 0;
    obj[1] = 0;
    shmem_barrier_all();
    if (me == 0)
        shmem_long_put(&obj[1], &v, 1, 1); /* [A] */
    if (me == 1)
        r = obj[1]; /* [B] */
    shmem_barrier_all();
    printf("%ld\n", r);
    shmem_free(obj);
    shmem_finalize();
    return 0;
}
