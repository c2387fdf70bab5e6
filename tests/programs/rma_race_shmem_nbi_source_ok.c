/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_nbi_source_ok.c - PE 0 starts shmem_int_put_nbi from a local buffer, calls
 * shmem_quiet and only then writes into the buffer (the twin of
 * rma_race_shmem_nbi_source.c).
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int buf[4] = {1, 2, 3, 4};
    if (me == 0) {
        shmem_int_put_nbi(x, buf, 4, 1);
        shmem_quiet();
        buf[2] = 9;
    }
    shmem_barrier_all();
    printf("%d %d\n", buf[2], x[2]);
    shmem_finalize();
    return 0;
}
