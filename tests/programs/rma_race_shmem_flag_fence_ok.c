/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_flag_fence_ok.c - PE 0 puts data, shmem_fence, then the flag; PE 1 waits
 * for the flag and reads the data: the fence delivers the data first
 * (OpenSHMEM 1.4 9.11.1), no race.
 */
#include <shmem.h>
#include <stdio.h>

static int data[4];
static int flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        int v[4] = {1, 2, 3, 4};
        shmem_int_put(data, v, 4, 1); /* PUT */
        shmem_fence();
        shmem_int_p(&flag, 1, 1);
    } else {
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
        printf("%d\n", data[0] + data[1] + data[2] + data[3]); /* READ */
    }
    shmem_finalize();
    return 0;
}
