/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_flag.c - PE 0 puts data and then a flag into PE 1 with no fence
 * between them; PE 1 waits for the flag and reads the data: the flag may
 * arrive first, a data race between the put and the read.  Twins:
 * rma_race_shmem_flag_fence_ok.c and rma_race_shmem_flag_quiet_ok.c.
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
        shmem_int_put(data, v, 4, 1); /* [A] */
        shmem_int_p(&flag, 1, 1);
    } else {
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
        printf("%d\n", data[0] + data[1] + data[2] + data[3]); /* [B] */
    }
    shmem_finalize();
    return 0;
}
