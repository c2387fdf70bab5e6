/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_ctx_barrier.c - PE 0 puts data into PE 1 on a context of its own;
 * shmem_barrier_all completes the default context's operations only, so PE 1's read after it may
 * come before the put arrives.  The twin rma_race_shmem_ctx_barrier_ok.c quiets the context before
 * the barrier.
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
        shmem_barrier_all();
    } else {
        shmem_barrier_all();
        printf("%d\n", data[0] + data[1] + data[2] + data[3]); /* [B] */
    }
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}
