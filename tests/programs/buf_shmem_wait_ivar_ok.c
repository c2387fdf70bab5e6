/* ordex-expect: ranks=2 clean */
/*
 * buf_shmem_wait_ivar_ok.c - the correct twin of buf_shmem_wait_ivar.c:
 * the int that shmem_int_wait_until compares is the symmetric int flag[1].
 */
#include <shmem.h>

static int flag[1];

int main(void) {
    shmem_init();
    shmem_int_wait_until(flag, SHMEM_CMP_EQ, 0); /* [A] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
