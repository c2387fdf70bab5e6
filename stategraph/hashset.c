/*
 * hashset.c - probing and locking for shared hash tables (see hashset.h).
 */
#include "stategraph/hashset.h"

#include <sched.h>

size_t sg_hashset_probe(const ckpt_hash *slots, size_t mask, ckpt_hash key) {
    size_t i = (size_t)key.lo & mask;
    while (!sg_hashset_empty(slots[i]) && !ckpt_hash_equal(slots[i], key))
        i = (i + 1) & mask;
    return i;
}

void sg_spin_lock(int *lock) {
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
        sched_yield(); /* the holder is done within microseconds */
}

void sg_spin_unlock(int *lock) {
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}
