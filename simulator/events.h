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
#include <stdint.h>

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

/* The first touched destination's most urgent event that `due` accepts:
 * collectives first, then, at the first destination with a due event, the
 * one with the smallest *ready (ties: the earliest sent).  Destinations with
 * no due event are dropped from the touched set (touch them again when
 * something there becomes due).  False when nothing is due. */
typedef bool (*sim_event_due_fn)(const sim_event *ev, double *ready, void *user);
bool sim_events_first_ready(sim_event *out, sim_event_due_fn due, void *user);

/* True for an event that no other event can disable or be disabled by, now
 * or later: a receive from a named source taking that source's first
 * matching message, a probe of a named source, a complete collective.
 * Firing such events at once, in any order, loses no behaviour (they are a
 * persistent set of size one). */
bool sim_event_is_safe(const sim_event *ev);

/* A key that identifies an event within one execution lineage (an explorer
 * process and the snapshots forked from it): the message's send number and
 * the receive's post number, never reused.  A lock grant (SIM_EV_LOCK) has
 * dst = the origin, recv = its request number + 1, and in msg the window's
 * index (bits 63-33), the target's window rank + 1 (bits 32-1; 0 for every
 * target, MPI_Win_lock_all) and whether the lock is exclusive (bit 0). */
typedef struct sim_event_key {
    int kind;
    int dst;
    uint64_t msg, recv;
} sim_event_key;
sim_event_key sim_event_key_of(const sim_event *ev);

/* A short, stable description of an event for traces and reports. */
typedef struct sim_event_info {
    int kind;           /* sim_event_kind */
    int dst, src;       /* world ranks (src -1 for collectives) */
    int tag, comm;      /* tag, communicator id */
    const void *site_a; /* receive (or probe, or collective) call site */
    const void *site_b; /* send call site, or NULL */
    const char *what;   /* collective name, or NULL */
} sim_event_info;
void sim_event_describe(const sim_event *ev, sim_event_info *out);

/* True when the events at rank d (among evs, the enabled events) form a
 * persistent set: no event that can happen before one of them conflicts with
 * them.  Holds when every receive d has posted names its source and has its
 * message among evs, d probes no wildcard, and d has no collective request
 * that others could complete.  Exploring only d's events is then enough. */
bool sim_engine_rank_persistent(int d, const sim_event *evs, int n);

/* Fires an enabled event. */
void sim_fire(const sim_event *ev);

/* Wakes ranks polling with MPI_Test/MPI_Iprobe if anything changed since
 * they last looked; returns true if it woke any. */
bool sim_events_wake_pollers(void);

/* For a strategy that finds no event enabled and no poller to wake: lets
 * every rank blocked in a poll that cannot succeed (MPI_Iprobe, MPI_Test,
 * ...) go on, its call answering "nothing yet", as a real MPI would: a
 * program that polls a bounded number of times and gives up is correct.
 * Returns false when no rank polls (the run is stuck: a deadlock).
 *
 * A rank that keeps polling while nothing else can happen is livelocked:
 * when `repeated` (the strategy found the whole state of the previous
 * release again, so the loop can never end) or when the pollers have polled
 * in vain for longer than the step timeout since anything else happened,
 * each poller gets a livelock finding at its poll and the run is stopped
 * (sched_request_stop); the function then returns true. */
bool sim_events_release_pollers(bool repeated);

/* Wakes the ranks that answered "not yet" (sim_test_later) and poll since:
 * call it when nothing else can happen.  Returns true if it woke any. */
bool sim_engine_wake_later(void);

/* A choice inside an MPI call (which completed request MPI_Waitany reports,
 * whether MPI_Test says "not yet", ...): `rank` calls `what` at `call_site`
 * (a return address in the rank's copy of the program) and one of n > 1
 * alternatives must be taken.  The hook returns the alternative, 0 to n-1.
 * Without a hook the simulator takes alternative 0, or a random one under a
 * seed. */
typedef int (*sim_choice_hook)(int rank, void *call_site, int n, const char *what, void *user);
void sim_set_choice_hook(sim_choice_hook hook, void *user);

#endif
