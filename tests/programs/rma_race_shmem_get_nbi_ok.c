/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_get_nbi_ok.c - PE 0 starts shmem_int_get_nbi, calls shmem_quiet, then reads
 * the buffer: 11, PE 1's x[0] (the twin of rma_race_shmem_get_nbi.c).
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int buf[4] = {0, 0, 0, 0};
    x[0] = 10 + me;
    shmem_barrier_all();
    if (me == 0) {
        shmem_int_get_nbi(buf, x, 4, 1);
        shmem_quiet();
        printf("%d\n", buf[0]);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
