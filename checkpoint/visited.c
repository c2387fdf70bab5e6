/*
 * visited.c - open addressing over a MAP_SHARED array of 128-bit hashes.
 *
 * Several exploration processes may use the table at once (--jobs), so every
 * operation holds a spin lock in the shared table; without contention that
 * costs one atomic exchange.  A zero hash marks an empty slot; the one state
 * whose hash is zero is mapped to another value.
 */
#include "checkpoint/visited.h"

#include <sched.h>
#include <sys/mman.h>

typedef struct table {
    int lock;
    size_t mask;
    size_t count;
    size_t limit;
    ckpt_hash slots[];
} table;

static table *g_t;
static size_t g_bytes;

bool ckpt_visited_create(size_t capacity) {
    size_t n = 1024;
    while (n < capacity + capacity / 3)
        n <<= 1;
    g_bytes = sizeof(table) + n * sizeof(ckpt_hash);
    void *p = mmap(NULL, g_bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return false;
    g_t = p;
    g_t->lock = 0;
    g_t->mask = n - 1;
    g_t->count = 0;
    g_t->limit = n / 4 * 3;
    return true;
}

void ckpt_visited_destroy(void) {
    if (g_t)
        munmap(g_t, g_bytes);
    g_t = NULL;
}

static bool check_insert(ckpt_hash h, bool *full) {
    *full = false;
    if (h.lo == 0 && h.hi == 0)
        h.lo = 1;
    for (size_t i = (size_t)h.lo & g_t->mask;; i = (i + 1) & g_t->mask) {
        ckpt_hash *s = &g_t->slots[i];
        if (s->lo == 0 && s->hi == 0) {
            if (g_t->count >= g_t->limit) {
                *full = true;
                return false;
            }
            *s = h;
            g_t->count++;
            return false;
        }
        if (ckpt_hash_equal(*s, h))
            return true;
    }
}

static bool contains(ckpt_hash h) {
    if (h.lo == 0 && h.hi == 0)
        h.lo = 1;
    for (size_t i = (size_t)h.lo & g_t->mask;; i = (i + 1) & g_t->mask) {
        const ckpt_hash *s = &g_t->slots[i];
        if (s->lo == 0 && s->hi == 0)
            return false;
        if (ckpt_hash_equal(*s, h))
            return true;
    }
}

static void lock(void) {
    while (__atomic_exchange_n(&g_t->lock, 1, __ATOMIC_ACQUIRE))
        sched_yield(); /* another process holds it for a few hundred nanoseconds */
}

static void unlock(void) {
    __atomic_store_n(&g_t->lock, 0, __ATOMIC_RELEASE);
}

bool ckpt_visited_check_insert(ckpt_hash h, bool *full) {
    lock();
    bool seen = check_insert(h, full);
    unlock();
    return seen;
}

bool ckpt_visited_contains(ckpt_hash h) {
    lock();
    bool seen = contains(h);
    unlock();
    return seen;
}

size_t ckpt_visited_count(void) {
    return g_t ? g_t->count : 0;
}
