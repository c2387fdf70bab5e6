/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_sync_all_ok.c - PE 0 puts into x on PE 1 and calls shmem_quiet; both call
 * shmem_sync_all and PE 1 loads x: the quiet completed the put before the
 * sync, no race (the twin of rma_race_shmem_sync_all.c).
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 5;
    if (me == 0) {
        shmem_int_put(x, &v, 1, 1);
        shmem_quiet();
    }
    shmem_sync_all();
    if (me == 1)
        printf("%d\n", x[0]);
    shmem_finalize();
    return 0;
}
