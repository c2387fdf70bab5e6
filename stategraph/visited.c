/*
 * visited.c - open addressing over MAP_SHARED arrays of 128-bit hashes.
 *
 * Several exploration processes may use the table at once (--jobs), so every
 * operation holds a spin lock in the shared table; without contention that
 * costs one atomic exchange.  A zero hash marks an empty slot; the one state
 * whose hash is zero is mapped to another value.
 *
 * Hashes spread over the whole table, so a table touches all its pages long
 * before it is full (lookups too: reading a page of shared memory gives it
 * backing).  It therefore starts small and doubles when half full, up to
 * the capacity asked for.  Two regions of the largest
 * size are reserved (without backing store) before any fork, so every
 * process sees both at the same address: the table lives in one, grows into
 * the other, and the old one's pages are given back to the system.
 */
#define _GNU_SOURCE
#include "stategraph/visited.h"

#include "stategraph/hashset.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { FIRST_SLOTS = 1 << 16 };

typedef struct table {
    int lock;
    int cur;     /* region holding the table: 0 or 1 */
    size_t mask; /* slots - 1 */
    size_t count;
    size_t limit;     /* count that makes the table grow (or full) */
    size_t max_slots; /* the capacity of each region */
    size_t dirty[2];  /* bytes of a region that may hold old entries */
} table;

static table *g_t;
static ckpt_hash *g_region[2];
static size_t g_region_bytes;

/* A table grows when half full, where probes stay short; the largest one
 * takes states up to three quarters. */
static size_t limit_of(size_t slots) {
    return slots == g_t->max_slots ? slots / 4 * 3 : slots / 2;
}

/* Points the globals at a mapping of the table whose header is set. */
static void use_mapping(void *p, size_t region_slots) {
    g_t = p;
    g_region_bytes = region_slots * sizeof(ckpt_hash);
    g_region[0] = (ckpt_hash *)((char *)p + sizeof(table));
    g_region[1] = g_region[0] + region_slots;
}

/* fd: a memory file to map (sized here), or -1 for anonymous memory. */
static bool create(size_t capacity, int fd) {
    size_t n = 1024;
    while (n < capacity + capacity / 3)
        n <<= 1;
    size_t bytes = sizeof(table) + 2 * n * sizeof(ckpt_hash);
    if (fd >= 0 && ftruncate(fd, (off_t)bytes) != 0)
        return false;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | (fd >= 0 ? 0 : MAP_ANONYMOUS) | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED)
        return false;
    use_mapping(p, n);
    g_t->lock = 0;
    g_t->cur = 0;
    g_t->max_slots = n;
    g_t->mask = (n < FIRST_SLOTS ? n : FIRST_SLOTS) - 1;
    g_t->count = 0;
    g_t->limit = limit_of(g_t->mask + 1);
    return true;
}

bool sg_visited_create(size_t capacity) {
    return create(capacity, -1);
}

bool sg_visited_create_fd(size_t capacity, int *fd) {
    *fd = memfd_create("ordex-visited", MFD_CLOEXEC);
    if (*fd < 0)
        return false;
    if (!create(capacity, *fd)) {
        close(*fd);
        *fd = -1;
        return false;
    }
    return true;
}

bool sg_visited_attach(int fd) {
    sg_visited_destroy(); /* the table attached before, in an agent */
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(table))
        return false;
    void *p =
        mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED)
        return false;
    const table *t = p;
    if (sizeof(table) + 2 * t->max_slots * sizeof(ckpt_hash) != (size_t)st.st_size) {
        munmap(p, (size_t)st.st_size);
        return false;
    }
    use_mapping(p, t->max_slots);
    return true;
}

void sg_visited_destroy(void) {
    if (g_t)
        munmap(g_t, sizeof(table) + 2 * g_region_bytes);
    g_t = NULL;
}

/* Moves the table into the other region at twice the size.  The pages of
 * the old one go back to the system; where that fails they are cleared
 * before the region is used again. */
static void grow(void) {
    size_t slots = g_t->mask + 1, bigger = slots * 2;
    int to = 1 - g_t->cur;
    ckpt_hash *old = g_region[g_t->cur], *fresh = g_region[to];
    if (g_t->dirty[to]) {
        memset(fresh, 0, g_t->dirty[to]);
        g_t->dirty[to] = 0;
    }
    for (size_t i = 0; i < slots; i++)
        if (!sg_hashset_empty(old[i]))
            fresh[sg_hashset_probe(fresh, bigger - 1, old[i])] = old[i];
    if (madvise(old, slots * sizeof(ckpt_hash), MADV_REMOVE) != 0)
        g_t->dirty[g_t->cur] = slots * sizeof(ckpt_hash);
    g_t->cur = to;
    g_t->mask = bigger - 1;
    g_t->limit = limit_of(bigger);
}

static bool check_insert(ckpt_hash h, bool *full) {
    *full = false;
    ckpt_hash *slots = g_region[g_t->cur];
    size_t i = sg_hashset_probe(slots, g_t->mask, h);
    if (!sg_hashset_empty(slots[i]))
        return true;
    if (g_t->count >= g_t->limit) {
        if (g_t->mask + 1 == g_t->max_slots) {
            *full = true;
            return false;
        }
        grow();
        return check_insert(h, full);
    }
    slots[i] = h;
    g_t->count++;
    return false;
}

bool sg_visited_check_insert(ckpt_hash h, bool *full) {
    sg_spin_lock(&g_t->lock);
    bool seen = check_insert(sg_hashset_key(h), full);
    sg_spin_unlock(&g_t->lock);
    return seen;
}

bool sg_visited_visit(const ckpt_hash *probes, int nprobes, const ckpt_hash *inserts, int ninserts,
                      bool *full, int *which) {
    *full = false;
    int found = -1;
    sg_spin_lock(&g_t->lock);
    const ckpt_hash *slots = g_region[g_t->cur];
    for (int i = 0; i < nprobes && found < 0; i++)
        if (!sg_hashset_empty(slots[sg_hashset_probe(slots, g_t->mask, sg_hashset_key(probes[i]))]))
            found = i;
    for (int i = 0; i < ninserts && found < 0; i++) {
        bool f = false;
        bool there = check_insert(sg_hashset_key(inserts[i]), &f);
        *full = *full || f;
        if (i == 0 && there)
            found = nprobes;
    }
    sg_spin_unlock(&g_t->lock);
    if (which)
        *which = found;
    return found >= 0;
}

bool sg_visited_contains(ckpt_hash h) {
    sg_spin_lock(&g_t->lock);
    const ckpt_hash *slots = g_region[g_t->cur];
    bool seen = !sg_hashset_empty(slots[sg_hashset_probe(slots, g_t->mask, sg_hashset_key(h))]);
    sg_spin_unlock(&g_t->lock);
    return seen;
}

size_t sg_visited_count(void) {
    return g_t ? g_t->count : 0;
}

size_t sg_visited_table_bytes(void) {
    return g_t ? (g_t->mask + 1) * sizeof(ckpt_hash) : 0;
}
