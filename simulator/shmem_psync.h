/*
 * shmem_psync.h - the OpenSHMEM 1.4 rules on the pSync arrays of the
 * collectives (section 9.9): an array may serve a collective only once
 * every PE of the active set is done with the collective that used it
 * before (a barrier or a sync between them, or anything else that orders
 * each PE's return before the next call), except that barriers (and syncs)
 * of one active set may use one array call after call.
 *
 * "Done" is happens-before: each PE's return from a collective is a
 * release of its vector clock (access.h), and a PE entering the next
 * collective on the same array must have acquired every one of them.  A
 * pSync array is named by its symmetric location (the same on every PE).
 */
#ifndef ORDEX_SIM_SHMEM_PSYNC_H
#define ORDEX_SIM_SHMEM_PSYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "simulator/digest.h"

/* An active set, as OpenSHMEM 1.4 names it. */
typedef struct shm_set {
    int start, logstride, size;
} shm_set;

void sim_shmem_psync_init(int npes);
void sim_shmem_psync_fini(void);

/* PE self enters collective number seq (the same on every PE), `call` at
 * `site`, on the active set `set` with the array named id as its argument
 * `arg` ("pSync", or "pWrk", which the same rule covers); barrier: a
 * barrier or sync.  Returns NULL, or why the array is still in use (the
 * caller reports it; g_free). */
char *sim_shmem_psync_enter(int self, const char *arg, uint64_t id, uint64_t seq, bool barrier,
                            shm_set set, const char *call, void *site);

/* PE self returns from collective seq on array id. */
void sim_shmem_psync_leave(int self, uint64_t id, uint64_t seq);

/* Feeds the arrays' uses (who has left which): see sim_shmem_digest. */
void sim_shmem_psync_digest(sim_digest_feed feed, void *user);

#endif
