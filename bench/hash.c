/*
 * hash.c - speed of the state hash (checkpoint/hash.c).
 *
 * Three shapes of input, each hashed from ckpt_hasher_init to
 * ckpt_hasher_final many times over:
 *   small   what sg_state_hash feeds per state for 8 ranks: eight 16-byte
 *           rank hashes, then 40 pieces of 4 to 24 bytes (the engine's
 *           digest: message heads, counters);
 *   rank    one rank's share (stategraph/state.c rank_state_hash): 12 small
 *           pieces of the simulator's record, then regions of N bytes, each
 *           after its length as a u64 (4 regions of N/4 bytes);
 *   bulk    one buffer of N bytes in a single ckpt_hash_bytes.
 * Prints, per case, nanoseconds per hash and bytes per nanosecond (GB/s),
 * and one hash, which tells which hash function the build has.
 *
 *   bazel run -c opt //bench:hash [-- SECONDS]     (default 1 s per case)
 *
 * Results go to bench/RESULTS.md ("State hash on XXH3").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkpoint/hash.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned char g_buf[1 << 20];
static volatile uint64_t g_sink; /* keeps every hash computed */

/* 40 piece lengths of the engine digest, cycled. */
static const size_t PIECES[8] = {8, 4, 16, 24, 8, 8, 12, 4};

static ckpt_hash one_small(uint64_t salt) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    for (int r = 0; r < 8; r++) {
        ckpt_hash rh = {salt + (uint64_t)r, salt ^ (uint64_t)r};
        ckpt_hash_bytes(&h, &rh, sizeof rh);
    }
    size_t off = 0;
    for (int i = 0; i < 40; i++) {
        ckpt_hash_bytes(&h, g_buf + off, PIECES[i % 8]);
        off += PIECES[i % 8];
    }
    ckpt_hash_u64(&h, salt);
    return ckpt_hasher_final(&h);
}

static ckpt_hash one_rank(size_t n, uint64_t salt) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    ckpt_hash_u64(&h, salt);
    for (int i = 0; i < 11; i++)
        ckpt_hash_bytes(&h, g_buf + 64 * i, PIECES[i % 8]);
    for (int g = 0; g < 4; g++) {
        ckpt_hash_u64(&h, n / 4);
        ckpt_hash_bytes(&h, g_buf + (size_t)g * (n / 4), n / 4);
    }
    return ckpt_hasher_final(&h);
}

static ckpt_hash one_bulk(size_t n, uint64_t salt) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    ckpt_hash_u64(&h, salt);
    ckpt_hash_bytes(&h, g_buf, n);
    return ckpt_hasher_final(&h);
}

typedef enum { SMALL, RANK, BULK } shape;

/* Bytes of the first k pieces. */
static size_t pieces(int k) {
    size_t n = 0;
    for (int i = 0; i < k; i++)
        n += PIECES[i % 8];
    return n;
}

static void run(const char *name, shape s, size_t n, double secs) {
    uint64_t iters = 0;
    double t0 = now(), t;
    size_t bytes = s == SMALL  ? 8 * 16 + pieces(40) + 8
                   : s == RANK ? 8 + pieces(11) + 4 * (8 + n / 4)
                               : 8 + n;
    do {
        for (int k = 0; k < 256; k++, iters++) {
            ckpt_hash x = s == SMALL  ? one_small(iters)
                          : s == RANK ? one_rank(n, iters)
                                      : one_bulk(n, iters);
            g_sink ^= x.lo ^ (x.hi << 1);
        }
        t = now() - t0;
    } while (t < secs);
    double ns = t * 1e9 / (double)iters;
    printf("| %s | %zu | %.1f | %.2f |\n", name, bytes, ns, (double)bytes / ns);
}

int main(int argc, char **argv) {
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    if (!(secs > 0)) {
        fprintf(stderr, "bench/hash: SECONDS must be a positive number, not '%s'\n", argv[1]);
        return 2;
    }
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < sizeof g_buf; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        g_buf[i] = (unsigned char)x;
    }
    printf("| case | bytes per hash | ns per hash | GB/s |\n|---|---:|---:|---:|\n");
    run("small (state of 8 ranks)", SMALL, 0, secs);
    run("rank, 1 KiB of memory", RANK, 1024, secs);
    run("rank, 16 KiB of memory", RANK, 16384, secs);
    run("rank, 256 KiB of memory", RANK, 262144, secs);
    run("bulk 64 B", BULK, 64, secs);
    run("bulk 4 KiB", BULK, 4096, secs);
    run("bulk 1 MiB", BULK, 1 << 20, secs);
    ckpt_hash c = one_rank(1024, 0);
    printf("(hash of the 1 KiB rank case, salt 0: %016llx%016llx)\n", (unsigned long long)c.hi,
           (unsigned long long)c.lo);
    return 0;
}
