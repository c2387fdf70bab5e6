/* ordex-expect: ranks=2 past=A object=heap:16 bytes=4 */
/*
 * buf_shmem_put_nbi_heap.c - PE 0 puts 5 ints with shmem_int_put_nbi into a
 * symmetric heap object of 4 ints: the target is written 4 bytes past the
 * block. The twin puts 4.
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
        shmem_int_put_nbi(p, v, 5, 1); /* [A] */
        shmem_quiet();
    }
    shmem_barrier_all();
    shmem_free(p);
    shmem_finalize();
    return 0;
}
