/* ordex-expect: ranks=2 clean */
/*
 * rma_race_shmem_ctx_barrier_ok.c - twin of rma_race_shmem_ctx_barrier.c: shmem_ctx_quiet before
 * the barrier completes the put on the context.
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
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
    } else {
        shmem_barrier_all();
        printf("%d\n", data[0] + data[1] + data[2] + data[3]);
    }
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}
