/*
 * hash.c - the two-lane multiply-rotate hash.
 *
 * Each 16-byte block feeds one 64-bit word into each lane: the lane is
 * xored with the word times an odd constant, rotated, and multiplied by
 * another odd constant, so every input bit reaches every output bit of its
 * lane within two blocks.  The lanes use different constants and are
 * cross-mixed at the end together with the length.
 */
#include "checkpoint/hash.h"

#include <string.h>

#define K1 0x9e3779b97f4a7c15ull
#define K2 0xc2b2ae3d27d4eb4full
#define K3 0x165667b19e3779f9ull
#define K4 0xd6e8feb86659fd93ull

static inline uint64_t rotl(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline void block(ckpt_hasher *h, const unsigned char *p) {
    h->a = rotl(h->a ^ (load64(p) * K1), 29) * K2;
    h->b = rotl(h->b ^ (load64(p + 8) * K3), 31) * K4;
}

void ckpt_hasher_init(ckpt_hasher *h) {
    h->a = 0x243f6a8885a308d3ull;
    h->b = 0x13198a2e03707344ull;
    h->total = 0;
    h->ntail = 0;
}

void ckpt_hash_bytes(ckpt_hasher *h, const void *data, size_t len) {
    const unsigned char *p = data;
    h->total += len;
    if (h->ntail) {
        size_t take = 16 - h->ntail < len ? 16 - h->ntail : len;
        memcpy(h->tail + h->ntail, p, take);
        h->ntail += (unsigned)take;
        p += take;
        len -= take;
        if (h->ntail < 16)
            return;
        block(h, h->tail);
        h->ntail = 0;
    }
    for (; len >= 16; p += 16, len -= 16)
        block(h, p);
    memcpy(h->tail, p, len);
    h->ntail = (unsigned)len;
}

void ckpt_hash_u64(ckpt_hasher *h, uint64_t v) {
    ckpt_hash_bytes(h, &v, sizeof v);
}

void ckpt_hash_feed(void *hasher, const void *data, size_t len) {
    ckpt_hash_bytes(hasher, data, len);
}

static uint64_t fmix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

ckpt_hash ckpt_hasher_final(const ckpt_hasher *h) {
    ckpt_hasher c = *h;
    unsigned char last[16] = {0};
    memcpy(last, c.tail, c.ntail);
    last[15] ^= (unsigned char)(c.ntail + 1); /* distinguishes trailing zeros */
    block(&c, last);
    uint64_t a = c.a ^ fmix(c.total), b = c.b ^ rotl(c.total, 17);
    a += b;
    b += a;
    ckpt_hash out = {fmix(a), fmix(b)};
    return out;
}
