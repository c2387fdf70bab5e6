/*
 * hash.h - 128-bit hashing of state.
 *
 * A streaming, non-cryptographic hash with two 64-bit lanes.  States are
 * merged when their hashes are equal, so the hash must make accidental
 * collisions negligible (2^-64 per pair and better), not resist attackers.
 */
#ifndef ORDEX_CKPT_HASH_H
#define ORDEX_CKPT_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct ckpt_hash {
    uint64_t lo, hi;
} ckpt_hash;

typedef struct ckpt_hasher {
    uint64_t a, b;  /* the two lanes */
    uint64_t total; /* bytes fed so far */
    unsigned char tail[16];
    unsigned ntail;
} ckpt_hasher;

void ckpt_hasher_init(ckpt_hasher *h);
void ckpt_hash_bytes(ckpt_hasher *h, const void *data, size_t len);
void ckpt_hash_u64(ckpt_hasher *h, uint64_t v);
ckpt_hash ckpt_hasher_final(const ckpt_hasher *h);

/* Adapter with the shape of a digest callback: feeds bytes into a hasher. */
void ckpt_hash_feed(void *hasher, const void *data, size_t len);

static inline int ckpt_hash_equal(ckpt_hash x, ckpt_hash y) {
    return x.lo == y.lo && x.hi == y.hi;
}

#endif
