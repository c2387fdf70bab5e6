/*
 * shmem_test_later.c - a shmem_test or shmem_test_lock that could succeed
 * may say "not yet" (OpenSHMEM promises no progress at a given call).
 *
 * mode "test" (argv[1]): PE 1 sets PE 0's flag and PE 0 counts the
 * shmem_int_test calls it needs to see it ([TEST]) after a barrier that
 * made the put complete: the first test can succeed, but may not.
 * mode "lock": PE 0 counts the shmem_test_lock calls it needs to get a
 * free lock ([TEST_LOCK]).  Expected under explore: 2 outcomes ("more than
 * one test: no" and "yes"), a message race warning and no error; with
 * --no-test-later, or under run: one, "no".
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static int flag;
static long lock;

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "test";
    shmem_init();
    int me = shmem_my_pe();
    if (strcmp(mode, "lock") == 0) {
        if (me == 0) {
            int tests = 1;
            while (shmem_test_lock(&lock)) /* [TEST_LOCK] */
                tests++;
            shmem_clear_lock(&lock);
            printf("more than one test: %s\n", tests > 1 ? "yes" : "no");
        }
    } else {
        if (me == 1)
            shmem_int_p(&flag, 1, 0);
        shmem_barrier_all();
        if (me == 0) {
            int tests = 1;
            while (!shmem_int_test(&flag, SHMEM_CMP_EQ, 1)) /* [TEST] */
                tests++;
            printf("more than one test: %s\n", tests > 1 ? "yes" : "no");
        }
    }
    shmem_finalize();
    return 0;
}
