/*
 * shmem_lockq_racy.c - the queue of shmem_lockq.c without the lock: a data
 * race (the correct twin is shmem_lockq.c).
 *
 * Every PE appends K items (argv[1], default 1) to the queue on PE 0 by
 * reading the tail with shmem_int_g and putting the item and the new tail
 * with shmem_int_p, with nothing ordering one PE's read of the tail after
 * another's put to it: two PEs may read the same tail and write the same
 * slot, and the queue loses items.
 *
 * Run:
 *   ./ordex run     -n 3 examples/shmem_lockq_racy.c
 *   ./ordex explore -n 3 examples/shmem_lockq_racy.c
 *
 * Expected ordex verdict (run and explore): a data race (kind data_race)
 * on the symmetric variable 'tail' of PE 0 between PE 0's shmem_int_p at
 * [PUT_TAIL] and PE 1's shmem_int_g at [GET_TAIL]; exit status 1.  (With
 * K = 2, `run` reports PE 0's second shmem_int_g against its own first
 * put: a put is complete only at a quiet, even to the PE itself.)
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 64

static int tail;
static int items[CAP];

int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int k = argc > 1 ? atoi(argv[1]) : 1;
    if (k < 0 || k * npes > CAP) {
        if (me == 0)
            fprintf(stderr, "K must be between 0 and %d\n", CAP / npes);
        shmem_finalize();
        return 2;
    }
    for (int i = 0; i < k; i++) {
        int t = shmem_int_g(&tail, 0); /* [GET_TAIL] */
        shmem_int_p(&items[t], 100 * me + i, 0);
        shmem_int_p(&tail, t + 1, 0); /* [PUT_TAIL] */
    }
    shmem_barrier_all();
    if (me == 0) {
        long sum = 0;
        for (int i = 0; i < tail; i++)
            sum += items[i];
        printf("queue: %d items, sum %ld\n", tail, sum);
    }
    shmem_finalize();
    return 0;
}
