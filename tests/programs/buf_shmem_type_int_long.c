/* ordex-expect: ranks=2 type=A object=lx byte=0 types=MPI_INT,long */
/*
 * buf_shmem_type_int_long.c - PE 0 puts ints with shmem_int_put into the
 * symmetric long lx[4]: each 4-byte int lands on an 8-byte long. The twin
 * uses shmem_long_put.
 */
#include <shmem.h>
#include <stdint.h>

static long lx[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int v[4] = {1, 2, 3, 4};
    if (me == 0)
        shmem_int_put((int *)lx, v, 4, 1); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
