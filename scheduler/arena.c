/*
 * arena.c - the allocator inside one rank's arena.
 *
 * Layout: [bump-allocated chunks ...][untouched].  Every chunk has a 16-byte
 * header in front of the user pointer.  Small chunks (<= 64 KiB) come in
 * size classes with one LIFO free list per class; larger chunks are rounded
 * to pages and kept, when freed, in an address-ordered list searched first
 * fit.  LIFO reuse and first fit are deterministic, which is all we need: the
 * same sequence of calls gives the same addresses.
 *
 * Finding the block an address points into (sched_arena_block_of) walks the
 * chunks: every byte of [base, bump) belongs to exactly one chunk, each
 * header says how long its chunk is (the gap before a page-aligned large
 * chunk is a filler chunk of its own), and a shadow table holds, per page
 * of the arenas, where the first chunk that starts in it begins.  So a
 * lookup scans back to a page where a chunk starts and walks forward at most
 * a page of chunks, the length of a large chunk aside.  The headers also
 * keep what the program asked for (the size less the rounding), so that a
 * buffer is checked against the bytes it may use, not the class size.
 */
#include "scheduler/arena.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define ARENA_BASE ((uintptr_t)0x100000000000ull) /* 16 TiB: far from libc's heap and mmaps */
#define HDR 16u
#define NCLASSES 64
#define SMALL_MAX ((size_t)64 << 10)
#define PAGE ((size_t)4096)
/* The most address space all arenas together may take: a process has 128
 * TiB, and nothing larger can be mapped. */
#define ARENA_SPACE_MAX ((size_t)128 << 40)

/* A chunk's header, and the header of an aligned block inside a chunk
 * (memalign).  Chunk headers tile [base, bump): the next one starts
 * HDR + size bytes on. */
typedef struct chunk_hdr {
    uint8_t cls;     /* size class, LARGE, or FILLER (the gap before a large chunk) */
    uint8_t state;   /* CH_FREE, CH_LIVE, CH_ALIGNED (live, its block at an inner header)
                        or CH_INNER (the inner header itself) */
    uint16_t slack;  /* usable bytes the request did not ask for; SLACK_UNKNOWN if too many */
    uint32_t offset; /* inner header: bytes back to its chunk's header; the header of an
                        aligned chunk: bytes on to its inner header; else 0 */
    uint64_t size;   /* bytes usable after the header */
} chunk_hdr;
#define LARGE 0xffu
#define FILLER 0xfeu
enum { CH_FREE, CH_LIVE, CH_ALIGNED, CH_INNER };
#define SLACK_UNKNOWN 0xffffu

typedef struct free_node {
    struct free_node *next;
} free_node;

/* A free large chunk: its header stays (state CH_FREE, size = whole chunk
 * less the header) so the chunks can still be walked. */
typedef struct large_free {
    chunk_hdr h;
    struct large_free *next;
} large_free;

static size_t large_bytes(const large_free *f) {
    return (size_t)f->h.size + HDR;
}

struct sched_arena {
    char *base, *bump, *limit;
    free_node *free_lists[NCLASSES];
    large_free *large;
    size_t in_use;
    bool exhausted;
    size_t refused; /* the last request it could not serve, or 0 */
};

sched_arena *sched_arena_current;

static char *g_base;
static size_t g_per_rank;
static int g_nranks;
static sched_arena *g_arenas;
/* Per page of all arenas: 0 when no chunk header starts in it, else 1 + the
 * offset of the first one in 16-byte units (see the top of the file).
 * NULL when it could not be reserved: then no block is ever found. */
static uint16_t *g_starts;
static size_t g_starts_len; /* bytes reserved for it */

static void note_start(const void *h) {
    if (!g_starts)
        return;
    size_t off = (size_t)((const char *)h - g_base);
    uint16_t *e = &g_starts[off / PAGE];
    if (*e == 0)
        *e = (uint16_t)(1 + (off % PAGE) / HDR);
}

/* A large chunk that started at h (page-aligned) was merged into the one
 * before it: no chunk starts in its page any more. */
static void forget_start(const void *h) {
    if (g_starts)
        g_starts[(size_t)((const char *)h - g_base) / PAGE] = 0;
}

bool sched_arenas_reserve(int nranks, size_t per_rank) {
    /* A product that wraps around would reserve a small range and lay the
     * arenas out far beyond it. */
    size_t total, table;
    if (nranks < 1 || per_rank == 0 || per_rank > SIZE_MAX - (PAGE - 1) ||
        __builtin_mul_overflow((per_rank + PAGE - 1) & ~(PAGE - 1), (size_t)nranks, &total) ||
        total > ARENA_SPACE_MAX ||
        __builtin_mul_overflow(sizeof(sched_arena), (size_t)nranks, &table)) {
        errno = ENOMEM;
        return false;
    }
    per_rank = (per_rank + PAGE - 1) & ~(PAGE - 1);
    void *p = mmap((void *)ARENA_BASE, total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) /* taken (e.g. under a sanitizer): any address will do */
        p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
    if (p == MAP_FAILED)
        return false;
    g_arenas = mmap(NULL, table, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g_arenas == MAP_FAILED) {
        munmap(p, total);
        g_arenas = NULL;
        return false;
    }
    /* The shadow costs a page per 8 MiB of heap a program touches; without
     * it, heaps still work, only their blocks cannot be looked up. */
    g_starts_len = (total / PAGE * sizeof(uint16_t) + PAGE - 1) & ~(PAGE - 1);
    g_starts = mmap(NULL, g_starts_len, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (g_starts == MAP_FAILED)
        g_starts = NULL;
    g_base = p;
    g_per_rank = per_rank;
    g_nranks = nranks;
    for (int i = 0; i < nranks; i++) {
        sched_arena *a = &g_arenas[i];
        a->base = a->bump = g_base + per_rank * (size_t)i;
        a->limit = a->base + per_rank;
    }
    return true;
}

void sched_arenas_release(void) {
    if (!g_base)
        return;
    munmap(g_base, g_per_rank * (size_t)g_nranks);
    munmap(g_arenas, sizeof(sched_arena) * (size_t)g_nranks);
    if (g_starts)
        munmap(g_starts, g_starts_len);
    g_starts = NULL;
    g_base = NULL;
    g_arenas = NULL;
    sched_arena_current = NULL;
}

sched_arena *sched_arena_of(int rank) {
    return &g_arenas[rank];
}

void sched_arenas_span(const void **start, size_t *len, int *count) {
    *start = g_base;
    *len = g_base ? g_per_rank * (size_t)g_nranks : 0;
    *count = g_base ? g_nranks : 0;
}

sched_arena *sched_arena_owning(const void *p) {
    const char *c = p;
    if (!g_base || c < g_base || c >= g_base + g_per_rank * (size_t)g_nranks)
        return NULL;
    return &g_arenas[(size_t)(c - g_base) / g_per_rank];
}

/* Size classes: 16-byte steps to 256, then four steps per power of two. */
static uint32_t class_of(size_t n, size_t *rounded) {
    if (n <= 256) {
        size_t r = n < 16 ? 16 : (n + 15) & ~(size_t)15;
        *rounded = r;
        return (uint32_t)(r / 16 - 1); /* 0..15 */
    }
    int lg = 63 - __builtin_clzll((unsigned long long)(n - 1)); /* 2^lg < n <= 2^(lg+1) */
    size_t step = (size_t)1 << (lg - 2);
    size_t r = (n + step - 1) & ~(step - 1); /* r / step is 5, 6, 7 or 8 */
    *rounded = r;
    return (uint32_t)(16 + (lg - 8) * 4 + (int)(r >> (lg - 2)) - 5);
}

static void *bump(sched_arena *a, size_t bytes) {
    if ((size_t)(a->limit - a->bump) < bytes) {
        a->exhausted = true;
        return NULL;
    }
    void *p = a->bump;
    a->bump += bytes;
    note_start(p);
    return p;
}

/* How many of `usable` bytes a request of `size` leaves unused. */
static uint16_t slack_of(size_t usable, size_t size) {
    return usable - size < SLACK_UNKNOWN ? (uint16_t)(usable - size) : SLACK_UNKNOWN;
}

static void set_live(chunk_hdr *h, size_t size) {
    h->state = CH_LIVE;
    h->offset = 0;
    h->slack = slack_of(h->size, size);
}

static void *alloc_large(sched_arena *a, size_t size) {
    if (size > (size_t)(a->limit - a->base)) { /* larger than the arena: never fits */
        a->exhausted = true;
        return NULL;
    }
    size_t bytes = (size + HDR + PAGE - 1) & ~(PAGE - 1);
    large_free **pp = &a->large;
    for (; *pp; pp = &(*pp)->next) {
        large_free *f = *pp;
        size_t have = large_bytes(f);
        if (have < bytes)
            continue;
        if (have - bytes >= PAGE) { /* keep the tail free */
            large_free *rest = (large_free *)((char *)f + bytes);
            rest->h = (chunk_hdr){.cls = LARGE, .state = CH_FREE, .size = have - bytes - HDR};
            rest->next = f->next;
            note_start(rest);
            *pp = rest;
        } else {
            bytes = have;
            *pp = f->next;
        }
        chunk_hdr *h = &f->h;
        h->cls = LARGE;
        h->size = bytes - HDR;
        set_live(h, size);
        return h + 1;
    }
    /* Large chunks start on a page boundary so freed ones can be returned;
     * the gap before one becomes a filler chunk (always HDR bytes or more:
     * chunks are multiples of HDR). */
    uintptr_t cur = (uintptr_t)a->bump;
    uintptr_t aligned = (cur + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
    if (aligned != cur) {
        chunk_hdr *gap = bump(a, aligned - cur);
        if (!gap)
            return NULL;
        *gap = (chunk_hdr){.cls = FILLER, .state = CH_FREE, .size = aligned - cur - HDR};
    }
    chunk_hdr *h = bump(a, bytes);
    if (!h)
        return NULL;
    h->cls = LARGE;
    h->size = bytes - HDR;
    set_live(h, size);
    return h + 1;
}

void *sched_arena_malloc(sched_arena *a, size_t size) {
    if (size > SMALL_MAX) {
        void *p = alloc_large(a, size);
        if (p) {
            a->in_use += ((chunk_hdr *)p - 1)->size;
        } else {
            errno = ENOMEM;
            a->refused = size;
        }
        return p;
    }
    size_t rounded;
    uint32_t cls = class_of(size, &rounded);
    chunk_hdr *h;
    free_node *f = a->free_lists[cls];
    if (f) {
        a->free_lists[cls] = f->next;
        h = (chunk_hdr *)f - 1;
    } else {
        h = bump(a, rounded + HDR);
        if (!h) {
            errno = ENOMEM;
            a->refused = size;
            return NULL;
        }
        h->cls = (uint8_t)cls;
        h->size = rounded;
    }
    set_live(h, size);
    a->in_use += h->size;
    return h + 1;
}

void *sched_arena_memalign(sched_arena *a, size_t align, size_t size) {
    if (align <= HDR)
        return sched_arena_malloc(a, size);
    size_t padded;
    if (__builtin_add_overflow(size, align + HDR, &padded) || align > SIZE_MAX / 2) {
        errno = ENOMEM;
        a->exhausted = true;
        a->refused = size;
        return NULL;
    }
    char *raw = sched_arena_malloc(a, padded);
    if (!raw) {
        a->refused = size;
        return NULL;
    }
    chunk_hdr *outer = (chunk_hdr *)raw - 1;
    uintptr_t user = ((uintptr_t)raw + HDR + align - 1) & ~(uintptr_t)(align - 1);
    chunk_hdr *h = (chunk_hdr *)user - 1;
    h->cls = outer->cls;
    h->state = CH_INNER;
    h->offset = (uint32_t)((char *)h - (char *)outer);
    h->size = outer->size - ((char *)(h + 1) - raw);
    h->slack = slack_of(h->size, size);
    outer->state = CH_ALIGNED;
    outer->offset = h->offset;
    return h + 1;
}

static void release_large(sched_arena *a, chunk_hdr *h) {
    large_free *f = (large_free *)h;
    h->state = CH_FREE;
    h->offset = 0;
    large_free **pp = &a->large;
    while (*pp && *pp < f)
        pp = &(*pp)->next;
    f->next = *pp;
    *pp = f;
    if (f->next && (char *)f + large_bytes(f) == (char *)f->next) { /* merge with the next */
        forget_start(f->next);
        f->h.size += large_bytes(f->next);
        f->next = f->next->next;
    }
    /* Hand the pages back so a freed buffer stops counting in snapshots and RSS. */
    if (large_bytes(f) > 2 * PAGE)
        madvise((char *)f + PAGE, large_bytes(f) - PAGE, MADV_DONTNEED);
}

void sched_arena_free(void *p) {
    if (!p)
        return;
    sched_arena *a = sched_arena_owning(p);
    chunk_hdr *h = (chunk_hdr *)p - 1;
    chunk_hdr *outer = h->state == CH_INNER ? (chunk_hdr *)((char *)h - h->offset) : h;
    a->in_use -= outer->size;
    if (outer->cls == LARGE) {
        release_large(a, outer);
        return;
    }
    outer->state = CH_FREE;
    outer->offset = 0;
    free_node *f = (free_node *)(outer + 1);
    f->next = a->free_lists[outer->cls];
    a->free_lists[outer->cls] = f;
}

size_t sched_arena_usable(const void *p) {
    return ((const chunk_hdr *)p - 1)->size;
}

size_t sched_arena_in_use(const sched_arena *a) {
    return a->in_use;
}
size_t sched_arena_extent(const sched_arena *a) {
    return (size_t)(a->bump - a->base);
}
bool sched_arena_exhausted(const sched_arena *a) {
    return a->exhausted;
}
size_t sched_arena_refused(const sched_arena *a) {
    return a->refused;
}
size_t sched_arena_size(const sched_arena *a) {
    return (size_t)(a->limit - a->base);
}
const void *sched_arena_base(const sched_arena *a) {
    return a->base;
}

void sched_arena_resize(void *p, size_t size) {
    chunk_hdr *h = (chunk_hdr *)p - 1;
    h->slack = slack_of(h->size, size);
}

/* The block a live chunk holds, or false for a free chunk or a filler. */
static bool chunk_block(const chunk_hdr *c, sched_heap_block *out) {
    const chunk_hdr *h = c;
    if (c->state == CH_ALIGNED)
        h = (const chunk_hdr *)((const char *)c + c->offset);
    else if (c->state != CH_LIVE || c->cls == FILLER)
        return false;
    out->start = h + 1;
    out->usable = h->size;
    out->size = h->slack == SLACK_UNKNOWN ? h->size : h->size - h->slack;
    return true;
}

sched_heap_where sched_arena_block_of(const void *p, sched_heap_block *out) {
    const sched_arena *a = sched_arena_owning(p);
    const char *c = p;
    if (!a || !g_starts || c >= a->bump)
        return SCHED_HEAP_NONE;
    /* Back to the last chunk that starts at or before p. */
    size_t page = (size_t)(c - g_base) / PAGE, first = (size_t)(a->base - g_base) / PAGE;
    const char *start = NULL;
    for (;; page--) {
        uint16_t e = g_starts[page];
        if (e) {
            const char *s = g_base + page * PAGE + (size_t)(e - 1) * HDR;
            if (s <= c) {
                start = s;
                break;
            }
        }
        if (page == first)
            return SCHED_HEAP_NONE;
    }
    const chunk_hdr *prev = NULL, *h = (const chunk_hdr *)start;
    for (;;) {
        const char *next = (const char *)(h + 1) + h->size;
        if (next > c || next >= a->bump)
            break;
        prev = h;
        h = (const chunk_hdr *)next;
    }
    if (c < (const char *)(h + 1)) {
        /* In a header: just past the end of the block before it. */
        return prev && chunk_block(prev, out) ? SCHED_HEAP_BLOCK : SCHED_HEAP_NONE;
    }
    if (chunk_block(h, out)) {
        if (c >= (const char *)out->start)
            return SCHED_HEAP_BLOCK;
        return SCHED_HEAP_NONE; /* the padding before an aligned block */
    }
    return h->cls == FILLER ? SCHED_HEAP_NONE : SCHED_HEAP_FREED;
}

bool sched_arena_block_is(const void *start, size_t size) {
    if (!sched_arena_owning(start))
        return false;
    const chunk_hdr *h = (const chunk_hdr *)start - 1;
    if (h->state == CH_INNER) {
        const chunk_hdr *outer = (const chunk_hdr *)((const char *)h - h->offset);
        if (outer->state != CH_ALIGNED)
            return false;
    } else if (h->state != CH_LIVE || h->cls == FILLER) {
        return false;
    }
    size_t have = h->slack == SLACK_UNKNOWN ? h->size : h->size - h->slack;
    return have == size;
}
