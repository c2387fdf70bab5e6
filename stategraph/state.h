/*
 * state.h - the hash of a whole simulated state: every rank's memory (its
 * globals, its heap, its live stack) and the simulator's state.
 */
#ifndef ORDEX_SG_STATE_H
#define ORDEX_SG_STATE_H

#include <stdbool.h>

#include "checkpoint/hash.h"

/* Hash of the current state.  Call from the scheduler's context while no
 * rank runs (every rank blocked or ended). */
ckpt_hash sg_state_hash(void);

/* The state at the last release of pollers (sg_release_pollers). */
typedef struct sg_poll_watch {
    bool seen;
    ckpt_hash last;
} sg_poll_watch;

/* For a strategy with no event to fire: lets the ranks that poll in vain go
 * on (sim_events_release_pollers), telling the simulator when the whole
 * state is the one of the previous release, so that a poll loop that
 * changes nothing is reported as a livelock at once.  False when no rank
 * polls: the run is stuck. */
bool sg_release_pollers(sg_poll_watch *w);

/* Hash of the outcome of a finished run (see sim_outcome). */
ckpt_hash sg_outcome_hash(void);

#endif
