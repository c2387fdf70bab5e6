/*
 * hashset.h - open addressing over slots of 128-bit hashes, for the tables
 * that live in memory shared by the exploration processes (visited states,
 * outcomes, findings logged): the probe, and the spin lock that serialises
 * processes running at once (--jobs).
 */
#ifndef ORDEX_SG_HASHSET_H
#define ORDEX_SG_HASHSET_H

#include <stdbool.h>
#include <stddef.h>

#include "checkpoint/hash.h"

/* A zero hash marks an empty slot, so the one hash that is zero is stored
 * as another value: keys go through this before they are probed. */
static inline ckpt_hash sg_hashset_key(ckpt_hash h) {
    if (h.lo == 0 && h.hi == 0)
        h.lo = 1;
    return h;
}

static inline bool sg_hashset_empty(ckpt_hash slot) {
    return slot.lo == 0 && slot.hi == 0;
}

/* Linear probing over mask + 1 slots (a power of two), at least one of them
 * empty: the index of the slot holding `key`, or of the empty slot where it
 * belongs. */
size_t sg_hashset_probe(const ckpt_hash *slots, size_t mask, ckpt_hash key);

/* A lock word in shared memory.  Without contention, one atomic exchange. */
void sg_spin_lock(int *lock);
void sg_spin_unlock(int *lock);

#endif
