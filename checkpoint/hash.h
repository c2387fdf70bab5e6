/*
 * hash.h - 128-bit hashing of state.
 *
 * xxHash's XXH3 128-bit hash, streamed.  States are merged when their hashes
 * are equal, so the hash must make accidental collisions negligible (about
 * 2^-128 per pair), not resist attackers.  The hash of a byte sequence does
 * not depend on how it is cut into ckpt_hash_bytes calls.
 */
#ifndef ORDEX_CKPT_HASH_H
#define ORDEX_CKPT_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct ckpt_hash {
    uint64_t lo, hi;
} ckpt_hash;

/* Bytes and alignment of XXH3's streaming state (hash.c checks both at
 * compile time), kept here so callers can put a hasher on their stack
 * without seeing xxhash.h. */
#define CKPT_HASHER_BYTES 576
#define CKPT_HASHER_ALIGN 64

/* A streaming hasher: 576 bytes, so declare one where a hash is made and
 * pass it by pointer rather than copy it.  Its bytes belong to hash.c. */
typedef struct ckpt_hasher {
    _Alignas(CKPT_HASHER_ALIGN) unsigned char state[CKPT_HASHER_BYTES];
} ckpt_hasher;

/* Makes `h` a hasher of the empty sequence.  Required before any other use. */
void ckpt_hasher_init(ckpt_hasher *h);

/* Appends the `len` bytes at `data` to the sequence `h` hashes.  `data` may
 * be NULL only when `len` is 0. */
void ckpt_hash_bytes(ckpt_hasher *h, const void *data, size_t len);

/* Appends the 8 bytes of `v` in the machine's byte order. */
void ckpt_hash_u64(ckpt_hasher *h, uint64_t v);

/* The hash of everything appended since ckpt_hasher_init.  Leaves `h`
 * unchanged: more bytes may be appended and hashed again. */
ckpt_hash ckpt_hasher_final(const ckpt_hasher *h);

/* Adapter with the shape of a digest callback: ckpt_hash_bytes on `hasher`,
 * a ckpt_hasher. */
void ckpt_hash_feed(void *hasher, const void *data, size_t len);

static inline int ckpt_hash_equal(ckpt_hash x, ckpt_hash y) {
    return x.lo == y.lo && x.hi == y.hi;
}

#endif
