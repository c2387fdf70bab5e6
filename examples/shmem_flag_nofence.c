/*
 * shmem_flag_nofence.c - producer and consumers with a flag, without the
 * fence: a data race (the correct twin is shmem_flag.c).
 *
 * PE 0 puts a block of 8 longs into every other PE (values 100 * p + k for
 * PE p, k = 0..7) and then sets the PE's flag to 1 with shmem_int_p, with
 * no shmem_fence between them.  Each consumer waits with
 * shmem_int_wait_until until its flag is 1 and adds up its block.  Puts to
 * one PE may be delivered in any order unless a fence separates them
 * (OpenSHMEM 1.4 9.6.1): the flag may arrive before the block, and the
 * consumer may read old values.
 *
 * Run:
 *   ./ordex run     -n 3 examples/shmem_flag_nofence.c
 *   ./ordex explore -n 3 examples/shmem_flag_nofence.c
 *   ./ordex replay ordex-traces/shmem_flag_nofence-1.trace
 *
 * Expected ordex verdict (run and explore): a data race (kind data_race)
 * on the symmetric variable 'block' of a consumer between the put at
 * [PUT] on PE 0 and the consumer's load at [READ]; exit status 1.
 *
 * The output of the ordering ordex runs (the puts take effect in order) is
 * that of shmem_flag.c; a real OpenSHMEM may print other sums.
 */
#include <shmem.h>
#include <stdio.h>

#define LEN 8

static long block[LEN];
static int flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0) {
        for (int p = 1; p < npes; p++) {
            long v[LEN];
            for (int k = 0; k < LEN; k++)
                v[k] = 100L * p + k;
            shmem_long_put(block, v, LEN, p); /* [PUT] */
            shmem_int_p(&flag, 1, p);         /* [FLAG] */
        }
    } else {
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1); /* [WAIT] */
        long sum = 0;
        for (int k = 0; k < LEN; k++)
            sum += block[k]; /* [READ] */
        printf("PE %d: block sum %ld\n", me, sum);
    }
    shmem_finalize();
    return 0;
}
