/*
 * shmem_unsupported.c - OpenSHMEM calls that ordex does not implement yet,
 * one per case (argv[1]); each stops the run with a finding of kind
 * unsupported at the marked line, exit status 2, JSON verdict
 * "unsupported" (tests/e2e/test_shmem.c):
 *   ctx         shmem_ctx_create (contexts: a stub of shmem.h's functions)
 */
#include <shmem.h>
#include <string.h>

static long psync[SHMEM_BARRIER_SYNC_SIZE];

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    shmem_init();
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (strcmp(c, "ctx") == 0) {
        shmem_ctx_t ctx;
        shmem_ctx_create(0, &ctx); /* [CTX] */
    }
    shmem_finalize();
    return 0;
}
