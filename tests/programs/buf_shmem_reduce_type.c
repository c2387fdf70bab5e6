/* ordex-expect: ranks=2 type=A object=in byte=0 types=MPI_DOUBLE,int */
/*
 * buf_shmem_reduce_type.c - shmem_double_sum_to_all over a source that is
 * the symmetric int in[4]: 2 doubles read from ints. The twin declares
 * double in[4].
 */
#include <shmem.h>
#include <stdint.h>

static int in[4];
static double out[2], wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 2];
static long ps[SHMEM_REDUCE_SYNC_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    (void)me;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        ps[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_double_sum_to_all(out, (double *)in, 2, 0, 0, shmem_n_pes(), wrk, ps); /* [A] */
    shmem_finalize();
    return 0;
}
