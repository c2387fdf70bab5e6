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

#include "simulator/digest.h"
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
 * the receive's post number, never reused.  A choice (SIM_EV_CHOICE) has
 * dst = the chooser, msg = the alternative and recv = the rank's count of
 * choices so far.  A lock grant (SIM_EV_LOCK) has
 * dst = the origin, recv = its request number + 1, and in msg the window's
 * index (bits 63-33), the target's window rank + 1 (bits 32-1; 0 for every
 * target, MPI_Win_lock_all) and whether the lock is exclusive (bit 0). */
typedef struct sim_event_key {
    int kind;
    int dst;
    uint64_t msg, recv;
} sim_event_key;
sim_event_key sim_event_key_of(const sim_event *ev);

/* Describes an enabled event by what it does in the present state, not by
 * counters of the path that led there: the same event gets the same
 * description on every path to an equal state (sg_state_hash), so that
 * sleep sets can be stored with states.  Feeds the description and returns
 * true; false for kinds that have no such description (resumes,
 * collectives).  Two different events enabled at one
 * state may share a description (the caller checks). */
bool sim_event_canon(const sim_event *ev, sim_digest_feed feed, void *user);

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

/* How many times sim_events_release_pollers let the pollers go on so far: a
 * poller that finds it changed was released because nothing else could
 * happen, not woken by a change. */
uint64_t sim_events_releases(void);

/* Wakes the ranks that answered "not yet" (sim_test_later) and poll since:
 * call it when nothing else can happen.  Returns true if it woke any. */
bool sim_engine_wake_later(void);

/* Choices inside MPI calls (which completed request MPI_Waitany reports,
 * whether MPI_Test says "not yet", ...; sim_choose): by default the
 * simulator takes alternative 0, or a random one under a seed.  With choice
 * events `on` (exploration, replay), a rank that reaches such a choice waits
 * there, and the choice becomes one SIM_EV_CHOICE event per alternative,
 * fired like any other event.  While
 * any rank waits in a choice, sim_events_all offers only choice events, and
 * sim_events_first the lowest waiting rank's alternative 0: a choice is made
 * before anything else happens, as when it is taken inside the call, so
 * the behaviours are the same; but as events, choices of different ranks
 * take part in partial-order reduction (they touch only their own rank). */
void sim_set_choice_events(bool on);
/* The number of alternatives of the choice `rank` waits in, 0 if none. */
int sim_rank_choice_alternatives(int rank);

#endif
