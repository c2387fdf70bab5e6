/*
 * state.h - the hash of a whole simulated state: every rank's memory (its
 * globals, its heap, its live stack) and the simulator's state.
 */
#ifndef ORDEX_SG_STATE_H
#define ORDEX_SG_STATE_H

#include "checkpoint/hash.h"

/* Hash of the current state.  Call from the scheduler's context while no
 * rank runs (every rank blocked or ended). */
ckpt_hash sg_state_hash(void);

/* Hash of the outcome of a finished run (see sim_outcome). */
ckpt_hash sg_outcome_hash(void);

#endif
