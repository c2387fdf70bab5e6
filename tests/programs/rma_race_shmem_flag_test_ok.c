/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_flag_test_ok.c - PE 0 puts data, shmem_fence, then the flag; PE 1 polls the
 * flag with shmem_int_test until it is set and reads the data: a test that
 * succeeds orders like shmem_wait_until, no race.
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
        shmem_int_put(data, v, 4, 1);
        shmem_fence();
        shmem_int_p(&flag, 1, 1);
    } else {
        int polls = 0;
        while (!shmem_int_test(&flag, SHMEM_CMP_EQ, 1))
            polls++;
        printf("%d\n", data[0] + data[1] + data[2] + data[3]);
    }
    shmem_finalize();
    return 0;
}
