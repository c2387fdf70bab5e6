/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_sync_all.c - PE 0 puts into x on PE 1, both call shmem_sync_all, and PE 1
 * loads x: shmem_sync_all synchronises the PEs but completes no put
 * (OpenSHMEM 1.4 9.9.2), a data race.  The twin rma_race_shmem_sync_all_ok.c
 * calls shmem_quiet before the sync.
 */
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int v = 5;
    if (me == 0)
        shmem_int_put(x, &v, 1, 1); /* [A] */
    shmem_sync_all();
    if (me == 1)
        printf("%d\n", x[0]); /* [B] */
    shmem_finalize();
    return 0;
}
