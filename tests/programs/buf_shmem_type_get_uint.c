/* ordex-expect: ranks=2 type=A object=got byte=0 types=MPI_UNSIGNED,int */
/*
 * buf_shmem_type_get_uint.c - PE 0 gets unsigned ints with shmem_uint_get
 * into a local int got[2]: an MPI_UNSIGNED on an int. The twin has unsigned
 * got[2].
 */
#include <shmem.h>
#include <stdint.h>

static unsigned ux[2] = {7, 8};

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    int got[2];
    if (me == 0) {
        shmem_uint_get((unsigned *)got, ux, 2, 1); /* [A] */
        (void)got[0];
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
