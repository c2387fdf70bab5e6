/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_ctx_fence.c - PE 0 puts data and then a flag into PE 1 on the default context with
 * shmem_ctx_fence on another context between them: a context's fence orders only that context's
 * operations, so the flag may arrive first.  The twin rma_race_shmem_ctx_fence_ok.c puts both on
 * the context it fences.
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
        shmem_int_put(data, v, 4, 1); /* [A] */
        shmem_ctx_fence(ctx);
        shmem_int_p(&flag, 1, 1);
    } else {
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
        printf("%d\n", data[0] + data[1] + data[2] + data[3]); /* [B] */
    }
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}
