/*
 * shmem_lockq.c - a queue on PE 0 that every PE appends to under a
 * distributed lock (correct program; the racy twin is shmem_lockq_racy.c).
 *
 * The queue is a symmetric array `items` with its length `tail`, both used
 * on PE 0 only.  Every PE appends K items (argv[1], default 2; item k of
 * PE p is 100 * p + k): it takes the lock with shmem_set_lock, reads the
 * tail with shmem_int_g, puts its item into that slot and the new tail
 * with shmem_int_p, and releases the lock with shmem_clear_lock, which
 * completes the puts (OpenSHMEM 1.4 9.10) before the next holder reads.
 * After a barrier PE 0 checks that every slot holds one item.
 *
 * Run:
 *   ./ordex run     -n 3 examples/shmem_lockq.c [K]
 *   ./ordex explore -n 3 examples/shmem_lockq.c
 *
 * Expected ordex verdict: no error (run and explore).  Explore tries every
 * order in which the PEs get the lock (90 with 3 PEs of 2 items): the
 * items' order in the queue differs between them, but what the program
 * prints does not.
 *
 * Expected stdout with the defaults at n=3 (by hand: 6 items, 0 + 1 + 100
 * + 101 + 200 + 201 = 603), from PE 0:
 *   queue: 6 items, sum 603 (expected 603)
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 64

static long lock;
static int tail;
static int items[CAP];

int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int k = argc > 1 ? atoi(argv[1]) : 2;
    if (k < 0 || k * npes > CAP) {
        if (me == 0)
            fprintf(stderr, "K must be between 0 and %d\n", CAP / npes);
        shmem_finalize();
        return 2;
    }
    for (int i = 0; i < k; i++) {
        shmem_set_lock(&lock); /* [LOCK] */
        int t = shmem_int_g(&tail, 0);
        shmem_int_p(&items[t], 100 * me + i, 0);
        shmem_int_p(&tail, t + 1, 0);
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    if (me == 0) {
        long sum = 0, expected = 0;
        for (int i = 0; i < tail; i++)
            sum += items[i];
        for (int p = 0; p < npes; p++)
            for (int i = 0; i < k; i++)
                expected += 100 * p + i;
        printf("queue: %d items, sum %ld (expected %ld)\n", tail, sum, expected);
    }
    shmem_finalize();
    return 0;
}
