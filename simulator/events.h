/*
 * events.h - the set of enabled events, maintained incrementally.
 *
 * Whatever may enable an event marks it: a send or a receive posted at a
 * destination "touches" that destination, the last arrival at a collective
 * queues the collective.  Asking for events rescans only touched
 * destinations, so a step costs what changed, not the number of ranks.
 */
#ifndef ORDEX_SIM_EVENTS_H
#define ORDEX_SIM_EVENTS_H

#include <glib.h>
#include <stdbool.h>

#include "simulator/sim.h"

typedef struct sim_coll sim_coll;

void sim_events_init(int nranks);
void sim_events_fini(void);

void sim_events_touch(int dst);
void sim_events_coll_ready(sim_coll *c);
void sim_events_add_poller(int rank);
void sim_events_changed(void);

/* Every enabled event, appended to out (an array of sim_event). */
void sim_events_all(GArray *out);

/* One enabled event, cheaply: the first found in touch order (deterministic),
 * or a random one of the first touched destination when rng is given.
 * Returns false when none is enabled. */
bool sim_events_first(sim_event *out, GRand *rng);

/* Fires an enabled event. */
void sim_fire(const sim_event *ev);

/* Wakes ranks polling with MPI_Test/MPI_Iprobe if anything changed since
 * they last looked; returns true if it woke any. */
bool sim_events_wake_pollers(void);

/* Engine internals used here (engine.c). */
int sim_engine_events(int dst, sim_event *out, int max);
bool sim_engine_has_work(int dst);
void sim_engine_fire(const sim_event *ev);
void sim_coll_fire(sim_coll *c);

#endif
