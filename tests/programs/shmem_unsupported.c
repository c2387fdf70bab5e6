/*
 * shmem_unsupported.c - OpenSHMEM calls that ordex does not implement yet,
 * one per case (argv[1]); each stops the run with a finding of kind
 * unsupported at the marked line, exit status 2, JSON verdict
 * "unsupported" (tests/e2e/test_shmem.c):
 *   broadcast   shmem_broadcast, Open MPI's untyped broadcast (not
 *               OpenSHMEM 1.4's: a stub of shmem.h's functions)
 */
#include <shmem.h>
#include <string.h>

static long psync[SHMEM_BCAST_SYNC_SIZE > SHMEM_BARRIER_SYNC_SIZE ? SHMEM_BCAST_SYNC_SIZE
                                                                  : SHMEM_BARRIER_SYNC_SIZE];
static long x;

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    shmem_init();
    for (int i = 0; i < (int)(sizeof psync / sizeof psync[0]); i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (strcmp(c, "broadcast") == 0)
        shmem_broadcast(&x, &x, 1, 0, 0, 0, shmem_n_pes(), psync); /* [BROADCAST] */
    shmem_finalize();
    return 0;
}
