/*
 * shmem_ctx_errors.c - contexts misused, one case per argv[1]
 * (tests/e2e/test_shmem_usage.c); each is an MPI error at the marked line:
 *   destroyed  a put on a context after shmem_ctx_destroy ([USE]): "was
 *              destroyed"
 *   default    shmem_ctx_destroy(SHMEM_CTX_DEFAULT) ([DEFAULT]): "cannot
 *              be destroyed"
 *   options    shmem_ctx_create with an unknown option bit ([OPTIONS])
 */
#include <shmem.h>
#include <string.h>

static int x;

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    shmem_init();
    shmem_ctx_t ctx;
    if (strcmp(c, "options") == 0)
        shmem_ctx_create(1L << 20, &ctx); /* [OPTIONS] */
    shmem_ctx_create(0, &ctx);
    if (strcmp(c, "destroyed") == 0) {
        shmem_ctx_destroy(ctx);
        shmem_ctx_int_p(ctx, &x, 1, 0); /* [USE] */
    }
    if (strcmp(c, "default") == 0)
        shmem_ctx_destroy(SHMEM_CTX_DEFAULT); /* [DEFAULT] */
    shmem_finalize();
    return 0;
}
