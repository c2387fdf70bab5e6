/*
 * shmem_flag.c - producer and consumers with a flag (correct program; its
 * racy twin is shmem_flag_nofence.c).
 *
 * PE 0 puts a block of 8 longs into every other PE (values 100 * p + k for
 * PE p, k = 0..7), then shmem_fence, then sets the PE's flag to 1 with
 * shmem_int_p.  Each consumer waits with shmem_int_wait_until until its
 * flag is 1 and adds up its block.  The fence orders the block's delivery
 * before the flag's (OpenSHMEM 1.4 9.11.1), so a consumer that sees the
 * flag sees the whole block.
 *
 * Run:
 *   ./ordex run     -n 3 examples/shmem_flag.c
 *   ./ordex explore -n 3 examples/shmem_flag.c
 *
 * Expected ordex verdict: no error (run and explore).
 *
 * Expected stdout at n=3 (by hand: sum over k of 100 p + k = 800 p + 28):
 *   PE 1: block sum 828
 *   PE 2: block sum 1628
 * (in either order).
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
            shmem_fence();                    /* [FENCE] */
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
