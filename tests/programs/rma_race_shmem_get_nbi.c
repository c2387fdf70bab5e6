/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_get_nbi.c - PE 0 starts shmem_int_get_nbi into a local buffer and reads
 * the buffer before shmem_quiet: the data may not be there yet, a data
 * race.  The twin rma_race_shmem_get_nbi_ok.c reads after the quiet.
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
        shmem_int_get_nbi(buf, x, 4, 1); /* [A] */
        printf("%d\n", buf[0]);          /* [B] */
        shmem_quiet();
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
