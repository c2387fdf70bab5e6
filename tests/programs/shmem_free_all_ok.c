/*
 * shmem_free_all_ok.c - twin of shmem_free_partial.c: every PE frees the
 * heap object, after reading what its neighbour put into it.  Expected: no
 * error (run and explore); PE n prints "PE n: got n-1" (PE 0: the last).
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int *p = shmem_malloc(4 * sizeof(int));
    shmem_int_p(p, me, (me + 1) % n);
    shmem_barrier_all();
    printf("PE %d: got %d\n", me, p[0]);
    shmem_free(p);
    shmem_finalize();
    return 0;
}
