/*
 * shmem_events.h - OpenSHMEM's own choices as events: the order in which
 * concurrent atomics of different PEs apply (SIM_EV_ATOMIC) and which
 * waiting PE a free lock goes to (SIM_EV_LOCK).
 *
 * A PE that issues an atomic or asks for a lock waits for its "turn": an
 * event that the strategy fires when it likes, so that exploring tries
 * every order in which the turns of different PEs come.  `ordex run` fires
 * the oldest turn first (issue order).  The events carry a key in the
 * layout of RMA's (events.h) under a window index of their own
 * (SIM_SHMEM_WINDOW), so the reduction treats them as it treats RMA's:
 * two atomics at one PE conflict when one of them does not commute with
 * the other, two grants of one lock always conflict.
 */
#ifndef ORDEX_SIM_SHMEM_EVENTS_H
#define ORDEX_SIM_SHMEM_EVENTS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simulator/events.h"
#include "simulator/sim.h"

/* The window index of OpenSHMEM's event keys (bits 63-33 of msg): beyond
 * any RMA window's. */
#define SIM_SHMEM_WINDOW 0x7fffffffu

typedef struct shm_turn shm_turn;
struct shm_turn {
    sim_event_kind kind; /* SIM_EV_ATOMIC or SIM_EV_LOCK */
    int rank;            /* the PE that waits for its turn */
    int peer;            /* atomics: the target PE; locks: -1 */
    uint32_t object;     /* the location: an atomic's target address or the lock's name,
                            hashed, non-zero (equal for two turns that may meet) */
    bool observes;       /* atomics: its order shows (it fetches, or does not commute) */
    uint64_t digest;     /* what else tells this turn from another, for state digests */
    const char *call;    /* the PE's call, for traces */
    void *site;          /* its call site */
    /* NULL, or whether the turn can come now (a lock: when it is free). */
    bool (*ready)(const shm_turn *t);
    /* Done by the event, before the PE resumes: an atomic applies here. */
    void (*apply)(shm_turn *t);
    void *data;
    /* Set by the machinery. */
    uint64_t seq;
    bool done;
};

void sim_shmem_events_init(void);
void sim_shmem_events_fini(void);

/* The calling PE waits for its turn t (filled in but for seq and done):
 * returns once an event has applied it.  t lives on the PE's stack. */
void sim_shmem_turn_wait(shm_turn *t);

/* The PE waiting for a turn, or NULL: for reports. */
const shm_turn *sim_shmem_turn_of(int rank);

/* ---- for events.c ---- */
/* Whether ev is one of OpenSHMEM's events (a SIM_EV_ATOMIC or SIM_EV_LOCK
 * made here). */
bool sim_shmem_event_owns(const sim_event *ev);
/* Appends every turn that can come now. */
void sim_shmem_events(GArray *out);
/* The oldest turn that can come now; false when there is none. */
bool sim_shmem_first_event(sim_event *out);
void sim_shmem_fire(const sim_event *ev);
void sim_shmem_describe_event(const sim_event *ev, sim_event_info *out);
void sim_shmem_event_key(const sim_event *ev, sim_event_key *k);
/* Feeds the waiting turns (sim_digest_feed of sim_shmem_digest). */
void sim_shmem_events_digest(void (*feed)(void *user, const void *p, size_t n), void *user);

#endif
