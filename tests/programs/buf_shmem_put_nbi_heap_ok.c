/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_put_nbi_heap_ok.c - the correct twin of buf_shmem_put_nbi_heap.c
 * (see there): this one puts 4.
 */
#include <shmem.h>
#include <stdint.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int *p = shmem_malloc(4 * sizeof(int));
    int v[5] = {0};
    if (me == 0) {
        shmem_int_put_nbi(p, v, 4, 1); /* [A] */
        shmem_quiet();
    }
    shmem_barrier_all();
    shmem_free(p);
    shmem_finalize();
    return 0;
}
