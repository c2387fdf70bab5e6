/*
 * timed_internal.h - what timed.c (the simulation in time) takes from
 * timed_collargs.c (what a collective call amounts to for the collective
 * algorithms).  Private to simulator/: timed.h is the interface.
 */
#ifndef ORDEX_SIM_TIMED_INTERNAL_H
#define ORDEX_SIM_TIMED_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfmodel/collalgo.h"
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

#endif
