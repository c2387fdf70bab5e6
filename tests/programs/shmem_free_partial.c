/*
 * shmem_free_partial.c - shmem_free is collective (OpenSHMEM 1.4 9.3.1:
 * every PE calls it with the same object), but only PE 0 frees the heap
 * object here.  Expected: an MPI error of a collective mismatch naming
 * both calls and lines: PE 0's shmem_free at [FREE] and PE 1's
 * shmem_finalize at [FINALIZE], with "shmem_free is collective".  The twin
 * shmem_free_all_ok.c frees on every PE.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int *p = shmem_malloc(4 * sizeof(int));
    p[0] = me;
    shmem_barrier_all();
    if (me == 0)
        shmem_free(p); /* [FREE] */
    shmem_finalize();  /* [FINALIZE] */
    return 0;
}
