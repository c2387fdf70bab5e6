/*
 * hash.c - the state hash: xxHash's XXH3 128-bit, streamed.
 *
 * xxHash is compiled into this file (XXH_INLINE_ALL): its functions become
 * static here, so nothing is linked and no xxHash symbol is exported to the
 * programs ordex loads.  ckpt_hasher is storage for an XXH3_state_t that
 * only this file reads or writes.
 */
#include "checkpoint/hash.h"

#include <stdalign.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

_Static_assert(sizeof(XXH3_state_t) <= CKPT_HASHER_BYTES, "CKPT_HASHER_BYTES too small");
_Static_assert(alignof(XXH3_state_t) <= CKPT_HASHER_ALIGN, "CKPT_HASHER_ALIGN too small");

static inline XXH3_state_t *state(ckpt_hasher *h) {
    return (XXH3_state_t *)(void *)h->state;
}

void ckpt_hasher_init(ckpt_hasher *h) {
    /* Seed 0, the default secret: cannot fail. */
    (void)XXH3_128bits_reset(state(h));
}

void ckpt_hash_bytes(ckpt_hasher *h, const void *data, size_t len) {
    /* Fails only without a state; NULL data with len 0 is accepted. */
    (void)XXH3_128bits_update(state(h), data, len);
}

void ckpt_hash_u64(ckpt_hasher *h, uint64_t v) {
    ckpt_hash_bytes(h, &v, sizeof v);
}

void ckpt_hash_feed(void *hasher, const void *data, size_t len) {
    ckpt_hash_bytes(hasher, data, len);
}

ckpt_hash ckpt_hasher_final(const ckpt_hasher *h) {
    XXH128_hash_t d = XXH3_128bits_digest((const XXH3_state_t *)(const void *)h->state);
    ckpt_hash out = {d.low64, d.high64};
    return out;
}
