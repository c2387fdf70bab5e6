/*
 * shmem_atomic_adds.c - concurrent adds commute.
 *
 * PEs 1 to 3 add their number to PE 0's total with shmem_int_atomic_add;
 * the barrier completes them before PE 0 prints.  Whatever their order,
 * the total is 1 + 2 + 3 = 6, and the reduction does not try their orders
 * (fewer orderings than with --no-por).  Expected: no error, stdout
 * "total 6", no message race.
 */
#include <shmem.h>
#include <stdio.h>

static int total;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me > 0)
        shmem_int_atomic_add(&total, me, 0);
    shmem_barrier_all();
    if (me == 0)
        printf("total %d\n", total);
    shmem_finalize();
    return 0;
}
