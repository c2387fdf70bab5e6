/*
 * shmem_deadlock.c - OpenSHMEM programs that never end, one per case
 * (argv[1]); each is a deadlock finding listing every blocked PE with its
 * call and line (tests/e2e/test_shmem.c):
 *   wait     PE 1 waits with shmem_int_wait_until for a flag nobody sets
 *            ([WAIT]); the others wait in shmem_barrier_all ([BARRIER])
 *   lock     PE 0 takes a lock and never releases it; PE 1 waits in
 *            shmem_set_lock ([LOCK1]) while PE 0 waits in shmem_barrier_all
 *            ([BARRIER]) for PE 1: a wait-for cycle
 *   barrier  PE 0 skips the barrier that the others wait in ([BARRIER])
 *            and waits for a flag that PE 1 would set after it ([WAIT0])
 */
#include <shmem.h>
#include <string.h>

static int flag;
static long lock;

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    shmem_init();
    int me = shmem_my_pe();
    if (strcmp(c, "wait") == 0 && me == 1)
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1); /* [WAIT] */
    if (strcmp(c, "lock") == 0) {
        if (me == 0)
            shmem_set_lock(&lock); /* [LOCK0] */
        shmem_sync_all();
        if (me == 1)
            shmem_set_lock(&lock); /* [LOCK1] */
    }
    if (strcmp(c, "barrier") == 0 && me == 0)
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1); /* [WAIT0] */
    shmem_barrier_all();                              /* [BARRIER] */
    if (strcmp(c, "barrier") == 0 && me == 1)
        shmem_int_p(&flag, 1, 0);
    shmem_finalize();
    return 0;
}
