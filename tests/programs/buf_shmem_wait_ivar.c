/* ordex-expect: ranks=2 past=A object=flag bytes=2 */
/*
 * buf_shmem_wait_ivar.c - each PE waits with shmem_int_wait_until on the
 * symmetric short flag[1] seen as an int: the comparison reads 2 bytes past
 * its end. The twin buf_shmem_wait_ivar_ok.c declares int flag[1].
 */
#include <shmem.h>

static _Alignas(4) short flag[1];

int main(void) {
    shmem_init();
    shmem_int_wait_until((int *)flag, SHMEM_CMP_EQ, 0); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
