/*
 * shmem_reduce_racy.c - the sum of shmem_reduce.c made by hand with puts
 * and no barrier: a data race (the correct twin is shmem_reduce.c).
 *
 * Every PE but 0 puts its partial sums into its own row of `rows` on PE 0
 * with shmem_long_put, and PE 0 stores its own and adds the rows up at
 * once.  Nothing makes the
 * puts complete, or orders them, before PE 0's loads: PE 0 may add rows
 * that have not arrived.  shmem_long_sum_to_all (or a shmem_barrier_all
 * before the loads) would be correct.
 *
 * Run:
 *   ./ordex run     -n 4 examples/shmem_reduce_racy.c
 *   ./ordex explore -n 3 examples/shmem_reduce_racy.c
 *
 * Expected ordex verdict (run and explore): a data race (kind data_race)
 * on the symmetric variable 'rows' of PE 0 between another PE's
 * shmem_long_put at [PUT] and PE 0's load at [ADD]; exit status 1.
 */
#include <shmem.h>
#include <stdio.h>

#define N 8
#define MAXPES 64

static long rows[MAXPES][2];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAXPES) {
        shmem_finalize();
        return 2;
    }
    long pair[2] = {0, 0};
    for (int i = 0; i < N; i++)
        pair[i % 2] += (long)me * N + i + 1;
    if (me > 0)
        shmem_long_put(rows[me], pair, 2, 0); /* [PUT] */
    if (me == 0) {
        rows[0][0] = pair[0];
        rows[0][1] = pair[1];
        long sums[2] = {0, 0};
        for (int p = 0; p < npes; p++) {
            sums[0] += rows[p][0]; /* [ADD] */
            sums[1] += rows[p][1];
        }
        printf("PE 0: sums %ld %ld\n", sums[0], sums[1]);
    }
    shmem_finalize();
    return 0;
}
