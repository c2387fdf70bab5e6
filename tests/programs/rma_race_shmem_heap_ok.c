/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_heap_ok.c - PE 0 puts into an object from shmem_malloc of PE 1, a
 * barrier completes it, then PE 1 loads it: 8 (the twin of
 * rma_race_shmem_heap.c).
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
        shmem_long_put(&obj[1], &v, 1, 1);
    shmem_barrier_all();
    if (me == 1)
        r = obj[1];
    printf("%ld\n", r);
    shmem_free(obj);
    shmem_finalize();
    return 0;
}
