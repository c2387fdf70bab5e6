/*
 * test_checkpoint.c - the state hash and the shared visited set.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkpoint/hash.h"
#include "stategraph/visited.h"

/* The reference: xxHash's own one-shot XXH3 128-bit, compiled in here. */
#define XXH_INLINE_ALL
#include <xxhash.h>

static ckpt_hash hash_of(const void *p, size_t n) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    ckpt_hash_bytes(&h, p, n);
    return ckpt_hasher_final(&h);
}

static void test_hash_deterministic_and_chunking(void) {
    unsigned char buf[1000];
    for (int i = 0; i < 1000; i++)
        buf[i] = (unsigned char)(i * 7 + 3);
    ckpt_hash whole = hash_of(buf, sizeof buf);
    /* Feeding the same bytes in odd pieces gives the same hash. */
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    size_t pieces[] = {1, 15, 16, 17, 3, 200, 748};
    size_t off = 0;
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        ckpt_hash_bytes(&h, buf + off, pieces[i]);
        off += pieces[i];
    }
    CU_ASSERT_EQUAL(off, sizeof buf);
    CU_ASSERT(ckpt_hash_equal(ckpt_hasher_final(&h), whole));
    CU_ASSERT(ckpt_hash_equal(hash_of(buf, sizeof buf), whole));
}

/* Lengths on both sides of XXH3's internal limits: 16, 128 and 240 bytes
 * (short-input code), 256 (the streaming buffer), 1024 (a block of stripes). */
static const size_t edge_lengths[] = {0,   1,   3,   4,   8,   9,    16,   17,   128,  129,
                                      240, 241, 255, 256, 257, 1023, 1024, 1025, 4096, 10007};

static void fill(unsigned char *buf, size_t n, unsigned seed) {
    uint64_t x = 0x2545f4914f6cdd1dull ^ seed;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = (unsigned char)x;
    }
}

/* The streamed hash is XXH3 128-bit of the bytes fed: the low and high
 * halves of the one-shot hash, at every length. */
static void test_hash_is_xxh3_128(void) {
    static unsigned char buf[10007];
    fill(buf, sizeof buf, 1);
    for (size_t i = 0; i < sizeof edge_lengths / sizeof *edge_lengths; i++) {
        size_t n = edge_lengths[i];
        XXH128_hash_t want = XXH3_128bits(buf, n);
        ckpt_hash got = hash_of(buf, n);
        CU_ASSERT_EQUAL(got.lo, want.low64);
        CU_ASSERT_EQUAL(got.hi, want.high64);
    }
}

/* Long inputs cut at every kind of place (empty pieces, pieces across the
 * streaming buffer and across blocks) hash as the whole. */
static void test_hash_streaming_long(void) {
    static unsigned char buf[10007];
    fill(buf, sizeof buf, 2);
    for (size_t i = 0; i < sizeof edge_lengths / sizeof *edge_lengths; i++) {
        size_t n = edge_lengths[i];
        ckpt_hash whole = hash_of(buf, n);
        for (size_t step = 1; step <= 2049; step = step * 3 + 1) {
            ckpt_hasher h;
            ckpt_hasher_init(&h);
            size_t off = 0, k = 0;
            while (off < n) {
                size_t take = (step + k * 7) % 1500; /* 0 now and then */
                if (take > n - off)
                    take = n - off;
                ckpt_hash_bytes(&h, buf + off, take);
                off += take;
                k++;
            }
            CU_ASSERT(ckpt_hash_equal(ckpt_hasher_final(&h), whole));
        }
    }
}

/* Taking the hash leaves the hasher as it was: bytes fed afterwards hash
 * as if fed in one go.  ckpt_hash_u64 and ckpt_hash_feed feed what
 * ckpt_hash_bytes does. */
static void test_hash_final_and_helpers(void) {
    static unsigned char buf[3000];
    fill(buf, sizeof buf, 3);
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    ckpt_hash_bytes(&h, buf, 700);
    ckpt_hash early = ckpt_hasher_final(&h);
    CU_ASSERT(ckpt_hash_equal(early, ckpt_hasher_final(&h)));
    CU_ASSERT(ckpt_hash_equal(early, hash_of(buf, 700)));
    ckpt_hash_bytes(&h, buf + 700, 2300);
    CU_ASSERT(ckpt_hash_equal(ckpt_hasher_final(&h), hash_of(buf, 3000)));
    CU_ASSERT(!ckpt_hash_equal(ckpt_hasher_final(&h), early));

    uint64_t v = 0x0123456789abcdefull;
    ckpt_hasher a, b, c;
    ckpt_hasher_init(&a);
    ckpt_hasher_init(&b);
    ckpt_hasher_init(&c);
    ckpt_hash_u64(&a, v);
    ckpt_hash_bytes(&b, &v, sizeof v);
    ckpt_hash_feed(&c, &v, sizeof v);
    CU_ASSERT(ckpt_hash_equal(ckpt_hasher_final(&a), ckpt_hasher_final(&b)));
    CU_ASSERT(ckpt_hash_equal(ckpt_hasher_final(&c), ckpt_hasher_final(&b)));
    CU_ASSERT(!ckpt_hash_equal(ckpt_hasher_final(&a), hash_of(NULL, 0)));

    /* Restarting forgets what was fed. */
    ckpt_hasher_init(&a);
    CU_ASSERT(ckpt_hash_equal(ckpt_hasher_final(&a), hash_of(NULL, 0)));
}

static void test_hash_sensitivity(void) {
    unsigned char a[200] = {0}, b[200] = {0}; /* whole blocks and a tail */
    ckpt_hash base = hash_of(a, sizeof a);
    /* Every single-bit change changes both halves. */
    for (int bit = 0; bit < (int)sizeof a * 8; bit++) {
        memcpy(b, a, sizeof a);
        b[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        ckpt_hash x = hash_of(b, sizeof b);
        CU_ASSERT(x.lo != base.lo && x.hi != base.hi);
    }
    /* Trailing zeros and length matter. */
    CU_ASSERT(!ckpt_hash_equal(hash_of(a, 10), hash_of(a, 11)));
    CU_ASSERT(!ckpt_hash_equal(hash_of(a, 0), hash_of(a, 1)));
}

static void test_visited_set(void) {
    CU_ASSERT_FATAL(sg_visited_create(100));
    bool full;
    ckpt_hash h1 = {1, 2}, h2 = {3, 4}, zero = {0, 0};
    CU_ASSERT_FALSE(sg_visited_check_insert(h1, &full));
    CU_ASSERT_FALSE(full);
    CU_ASSERT_TRUE(sg_visited_check_insert(h1, &full));
    CU_ASSERT_TRUE(sg_visited_contains(h1));
    CU_ASSERT_FALSE(sg_visited_contains(h2));
    CU_ASSERT_FALSE(sg_visited_check_insert(zero, &full)); /* the zero hash is a state too */
    CU_ASSERT_TRUE(sg_visited_contains(zero));
    CU_ASSERT_EQUAL(sg_visited_count(), 2);
    sg_visited_destroy();
}

static void test_visited_shared_across_fork(void) {
    /* Snapshots are forked processes: what a child inserts, the parent sees. */
    CU_ASSERT_FATAL(sg_visited_create(100));
    ckpt_hash h = {42, 43};
    pid_t pid = fork();
    if (pid == 0) {
        bool full;
        sg_visited_check_insert(h, &full);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    CU_ASSERT_TRUE(sg_visited_contains(h));
    sg_visited_destroy();
}

static void test_visited_full(void) {
    CU_ASSERT_FATAL(sg_visited_create(10)); /* rounded up to a 1024-slot table */
    bool full = false;
    size_t inserted = 0;
    for (uint64_t i = 1; i < 5000 && !full; i++) {
        ckpt_hash h = {i * 0x9e3779b97f4a7c15ull, i};
        sg_visited_check_insert(h, &full);
        if (!full)
            inserted++;
    }
    CU_ASSERT_TRUE(full);
    CU_ASSERT_EQUAL(inserted, 768); /* 3/4 of the slots */
    sg_visited_destroy();
}

/* Kilobytes of shared memory this process has resident (RssShmem). */
static long rss_shmem_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "RssShmem: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static ckpt_hash spread(uint64_t i) {
    ckpt_hash h = {i * 0x9e3779b97f4a7c15ull, i};
    return h;
}

/* The table for 16 million states (what explore asks for) keeps in memory
 * what its states need, not 512 MiB: hashes spread over every page of a
 * table, so a table of full size was resident after some 100,000 states.
 * States inserted by a forked process, which grows the table, are seen by
 * its parent. */
static void test_visited_grows(void) {
    CU_ASSERT_FATAL(sg_visited_create((size_t)1 << 24));
    CU_ASSERT_EQUAL(sg_visited_table_bytes(), (size_t)1 << 20);
    const uint64_t n = 100000;
    pid_t pid = fork();
    if (pid == 0) {
        bool full;
        for (uint64_t i = 1; i <= n / 2; i++)
            sg_visited_check_insert(spread(i), &full);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    bool full = false, all_new = true, all_seen = true;
    for (uint64_t i = n / 2 + 1; i <= n; i++)
        all_new &= !sg_visited_check_insert(spread(i), &full);
    for (uint64_t i = 1; i <= n; i++)
        all_seen &= sg_visited_contains(spread(i));
    CU_ASSERT_TRUE(all_new);
    CU_ASSERT_TRUE(all_seen);
    CU_ASSERT_FALSE(full);
    CU_ASSERT_EQUAL(sg_visited_count(), n);
    CU_ASSERT_EQUAL(sg_visited_table_bytes(), (size_t)4 << 20); /* 2^18 slots, half full */
    long kib = rss_shmem_kib();
    CU_ASSERT(kib >= 0 && kib < 16 * 1024);
    sg_visited_destroy();
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("checkpoint", NULL, NULL);
    CU_add_test(s, "hash is deterministic whatever the chunking",
                test_hash_deterministic_and_chunking);
    CU_add_test(s, "hash changes with every bit and the length", test_hash_sensitivity);
    CU_add_test(s, "hash is XXH3 128-bit of the bytes fed", test_hash_is_xxh3_128);
    CU_add_test(s, "long inputs hash the same whatever the chunking", test_hash_streaming_long);
    CU_add_test(s, "taking the hash leaves the hasher; u64 and feed helpers",
                test_hash_final_and_helpers);
    CU_add_test(s, "visited set insert and lookup", test_visited_set);
    CU_add_test(s, "visited set is shared with forked snapshots", test_visited_shared_across_fork);
    CU_add_test(s, "a full visited set says so", test_visited_full);
    CU_add_test(s, "the visited set grows with its states", test_visited_grows);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed != 0;
}
