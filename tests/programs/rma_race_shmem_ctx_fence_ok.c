/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_ctx_fence_ok.c - twin of rma_race_shmem_ctx_fence.c: the data and the flag go on
 * the same context with its fence between them, so the flag arrives last.
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
        shmem_ctx_int_put(ctx, data, v, 4, 1);
        shmem_ctx_fence(ctx);
        shmem_ctx_int_p(ctx, &flag, 1, 1);
    } else {
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
        printf("%d\n", data[0] + data[1] + data[2] + data[3]);
    }
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}
