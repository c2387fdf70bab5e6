/*
 * shmem_spin.c - loops that poll instead of calling shmem_wait_until
 * (tests/e2e/test_shmem.c), one per mode (argv[1]):
 *   fetch    PE 1 tells PE 0 it is ready and polls its own flag with
 *            shmem_int_atomic_fetch until PE 0, which waits for the ready
 *            signal, sets it with shmem_int_atomic_set.  A PE whose fetch
 *            reads what its last one did lets the others run, so the loop
 *            ends; atomics of one type do not race.  Expected: no error,
 *            stdout "PE 1: flag 1".
 *   get      the same with shmem_int_g ([SPIN_G]) and shmem_int_p
 *            ([SET_P]): the loop ends, but a get and a put of the same int
 *            by two PEs with nothing ordering them are a data race.
 *   forever  PE 0 never sets the flag: PE 1 polls at [SPIN] for ever, a
 *            livelock found when nothing else can happen (after the step
 *            timeout).
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static int ready, flag;

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "fetch";
    shmem_init();
    int me = shmem_my_pe();
    if (me == 1) {
        shmem_int_p(&ready, 1, 0);
        int f;
        if (strcmp(mode, "get") == 0)
            while ((f = shmem_int_g(&flag, 1)) == 0) /* [SPIN_G] */
                ;
        else
            while ((f = shmem_int_atomic_fetch(&flag, 1)) == 0) /* [SPIN] */
                ;
        printf("PE 1: flag %d\n", f);
    } else if (me == 0) {
        shmem_int_wait_until(&ready, SHMEM_CMP_EQ, 1);
        if (strcmp(mode, "get") == 0)
            shmem_int_p(&flag, 1, 1); /* [SET_P] */
        else if (strcmp(mode, "forever") != 0)
            shmem_int_atomic_set(&flag, 1, 1);
    }
    shmem_finalize();
    return 0;
}
