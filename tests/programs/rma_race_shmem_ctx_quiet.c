/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_ctx_quiet.c - PE 0 puts data into PE 1 on a context of its own, then calls
 * shmem_quiet, which completes the default context's operations only (OpenSHMEM 1.4 9.4), and sets
 * PE 1's flag; PE 1 waits for the flag and reads the data: the put on the context may not have
 * arrived.  The twin rma_race_shmem_ctx_quiet_ok.c calls shmem_ctx_quiet(ctx).
 */
#include <shmem.h>
#include <stdio.h>

static int data[4];
static int flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    shmem_ctx_t ctx;
    if (shmem_ctx_create(0, &ctx) != 0)
        return 1;
    if (me == 0) {
        int v[4] = {1, 2, 3, 4};
        shmem_ctx_int_put(ctx, data, v, 4, 1); /* [A] */
        shmem_quiet();
        shmem_int_p(&flag, 1, 1);
    } else {
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
        printf("%d\n", data[0] + data[1] + data[2] + data[3]); /* [B] */
    }
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}
