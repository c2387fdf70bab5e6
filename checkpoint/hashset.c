/*
 * hashset.c - probing and locking for shared hash tables (see hashset.h).
 */
#include "checkpoint/hashset.h"

#include <sched.h>

size_t ckpt_hashset_probe(const ckpt_hash *slots, size_t mask, ckpt_hash key) {
    size_t i = (size_t)key.lo & mask;
    while (!ckpt_hashset_empty(slots[i]) && !ckpt_hash_equal(slots[i], key))
        i = (i + 1) & mask;
    return i;
}

void ckpt_spin_lock(int *lock) {
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
        sched_yield(); /* the holder is done within microseconds */
}

void ckpt_spin_unlock(int *lock) {
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}
