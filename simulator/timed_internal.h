/*
 * timed_internal.h - what timed.c (the simulation in time) takes from
 * timed_collargs.c (what a collective call amounts to for the collective
 * algorithms) and gives to timed_rma.c (the time of one-sided
 * communication).  Private to simulator/: timed.h is the interface.
 */
#ifndef ORDEX_SIM_TIMED_INTERNAL_H
#define ORDEX_SIM_TIMED_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfmodel/collalgo.h"
#include "perfmodel/platform.h"
#include "simulator/coll.h"

/* Exact bytes member me sends to each member, for the v collectives: a
 * g_malloc'ed array of c->comm->size counts (zeros for the other kinds). */
uint64_t *sim_timed_v_sizes(const sim_coll *c, int me);
/* True for the collectives whose transfers take their sizes from
 * sim_timed_v_sizes of each sender (the v variants, the neighbourhood
 * collectives). */
bool sim_timed_exact_sizes(sim_coll_kind kind);

/* The algorithm and sizes of collective c, from what member me passed (the
 * first to arrive: every member's arguments must agree on the sizes), into
 * *a.  The sizes per member or per pair of members go in `block` (uint64_t),
 * which a->block or a->matrix then points into: keep it until the schedule
 * is built.  Returns whether c could be sized. */
bool sim_timed_coll_args(const sim_coll *c, int me, pm_ca_args *a, GArray *block);

/* ---- for timed_rma.c; valid only while sim_timed_active() ---- */

typedef void (*sim_timed_fn)(void *user);

/* Starts a message of `bytes` bytes from world rank src to dst now, as one
 * transfer of the network model without a rendezvous handshake (the target
 * address is known, as for RDMA), and calls done(user) from the event loop
 * when it has arrived.  From a rank to itself it moves nothing and arrives
 * at once.  Overheads are the caller's to charge. */
void sim_timed_send(int src, int dst, uint64_t bytes, sim_timed_fn done, void *user);

/* Runs `work` CPU seconds (of this machine; the platform's speed and the
 * node's sharing apply, cpumodel.h) on rank's node on its behalf, from now,
 * and calls done(user) from the event loop when they are done (at once, from
 * here, for no work).  Meanwhile the rank, if it polls inside an MPI call,
 * is not counted as a poller: the work is what its core does then. */
void sim_timed_serve(int rank, double work, sim_timed_fn done, void *user);

/* Blocks the running rank (inside an MPI call) until ready(user), asking
 * again whenever sim_timed_wake wakes it.  `moving`: the time waited was its
 * own data moving (comm), not waiting for another rank (blocked). */
void sim_timed_wait_until(bool (*ready)(void *), void *user, bool moving);

/* Wakes rank if it waits in sim_timed_wait_until. */
void sim_timed_wake(int rank);

/* Charges rank `seconds` of CPU overhead at its next computation (as a
 * receiver's overhead is). */
void sim_timed_charge(int rank, double seconds);

const pm_platform *sim_timed_platform(void);

/* Forgets every window and operation of timed_rma.c (start and stop). */
void sim_timed_rma_reset(void);

#endif
