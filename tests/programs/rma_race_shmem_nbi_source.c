/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_nbi_source.c - PE 0 starts shmem_int_put_nbi from a local buffer and writes
 * into that buffer before shmem_quiet: the put may still be reading it
 * (OpenSHMEM 1.4 9.6.2), a data race on the source buffer.  The twin
 * rma_race_shmem_nbi_source_ok.c writes after the quiet.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int buf[4] = {1, 2, 3, 4};
    if (me == 0) {
        shmem_int_put_nbi(x, buf, 4, 1); /* [A] */
        buf[2] = 9;                      /* [B] */
        shmem_quiet();
    }
    shmem_barrier_all();
    printf("%d\n", buf[2]);
    shmem_finalize();
    return 0;
}
