/*
 * shmem_counter.c - a distributed ticket counter with OpenSHMEM atomics
 * (correct program).
 *
 * Every PE draws K tickets (argv[1], default 3) from a counter on PE 0
 * with shmem_long_atomic_fetch_inc and adds 1 for each to a tally on the
 * last PE with shmem_long_atomic_add.  Atomics of one type are atomic with
 * each other (OpenSHMEM 1.4 9.8), so no ticket is drawn twice, whatever
 * the order in which the PEs come; shmem_barrier_all completes the
 * non-fetching adds before anyone reads the tally.  The sum of each PE's
 * tickets is gathered with shmem_long_sum_to_all: the tickets are 0 .. n*K-1
 * in some order, so the sum is n*K*(n*K-1)/2.
 *
 * Run:
 *   ./ordex run     -n 4 examples/shmem_counter.c [K]
 *   ./ordex explore -n 3 examples/shmem_counter.c 2
 *
 * Expected ordex verdict: no error (run and explore).  Exploring tries
 * every order in which the draws of different PEs reach the counter: 90
 * with 3 PEs of 2 tickets, 369,600 with the defaults at n=4 (too many to
 * finish in a minute).  Each PE's tickets differ between those orders, but
 * nothing the program prints does.
 *
 * Expected stdout with the defaults at n=4 (by hand: 12 tickets, 0 + ... +
 * 11 = 66), from PE 0:
 *   counter 12 tally 12 ticket sum 66 (expected 66)
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

static long counter, tally, mine, all;
static long work[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long sync_area[SHMEM_REDUCE_SYNC_SIZE];

int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long k = argc > 1 ? atol(argv[1]) : 3;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        sync_area[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (long i = 0; i < k; i++) {
        mine += shmem_long_atomic_fetch_inc(&counter, 0); /* [DRAW] */
        shmem_long_atomic_add(&tally, 1, npes - 1);       /* [TALLY] */
    }
    shmem_barrier_all();
    shmem_long_sum_to_all(&all, &mine, 1, 0, 0, npes, work, sync_area);
    long t = shmem_long_g(&tally, npes - 1);
    if (me == 0) {
        long n = npes * k;
        printf("counter %ld tally %ld ticket sum %ld (expected %ld)\n", counter, t, all,
               n * (n - 1) / 2);
    }
    shmem_finalize();
    return 0;
}
