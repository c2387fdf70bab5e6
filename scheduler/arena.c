/*
 * arena.c - the allocator inside one rank's arena.
 *
 * Layout: [bump-allocated chunks ...][untouched].  Every chunk has a 16-byte
 * header in front of the user pointer.  Small chunks (<= 64 KiB) come in
 * size classes with one LIFO free list per class; larger chunks are rounded
 * to pages and kept, when freed, in an address-ordered list searched first
 * fit.  LIFO reuse and first fit are deterministic, which is all we need: the
 * same sequence of calls gives the same addresses.
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

typedef struct chunk_hdr {
    uint32_t cls;    /* size class, or LARGE */
    uint32_t offset; /* bytes from the chunk start to this header (memalign) */
    uint64_t size;   /* bytes usable after the header */
} chunk_hdr;
#define LARGE 0xffffffffu

typedef struct free_node {
    struct free_node *next;
} free_node;

typedef struct large_free {
    struct large_free *next;
    size_t bytes; /* whole chunk including header */
} large_free;

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
    return p;
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
        if (f->bytes < bytes)
            continue;
        if (f->bytes - bytes >= PAGE) { /* keep the tail free */
            large_free *rest = (large_free *)((char *)f + bytes);
            rest->next = f->next;
            rest->bytes = f->bytes - bytes;
            *pp = rest;
        } else {
            bytes = f->bytes;
            *pp = f->next;
        }
        chunk_hdr *h = (chunk_hdr *)f;
        h->cls = LARGE;
        h->offset = 0;
        h->size = bytes - HDR;
        return h + 1;
    }
    /* Large chunks start on a page boundary so freed ones can be returned. */
    uintptr_t cur = (uintptr_t)a->bump;
    uintptr_t aligned = (cur + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
    if (aligned != cur && !bump(a, aligned - cur))
        return NULL;
    chunk_hdr *h = bump(a, bytes);
    if (!h)
        return NULL;
    h->cls = LARGE;
    h->offset = 0;
    h->size = bytes - HDR;
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
        h->cls = cls;
        h->offset = 0;
        h->size = rounded;
    }
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
    h->offset = (uint32_t)((char *)h - (char *)outer);
    h->size = outer->size - ((char *)(h + 1) - raw);
    return h + 1;
}

static void release_large(sched_arena *a, chunk_hdr *h) {
    large_free *f = (large_free *)h;
    f->bytes = h->size + HDR;
    large_free **pp = &a->large;
    while (*pp && *pp < f)
        pp = &(*pp)->next;
    f->next = *pp;
    *pp = f;
    if (f->next && (char *)f + f->bytes == (char *)f->next) { /* merge with the next */
        f->bytes += f->next->bytes;
        f->next = f->next->next;
    }
    /* Hand the pages back so a freed buffer stops counting in snapshots and RSS. */
    if (f->bytes > 2 * PAGE)
        madvise((char *)f + PAGE, f->bytes - PAGE, MADV_DONTNEED);
}

void sched_arena_free(void *p) {
    if (!p)
        return;
    sched_arena *a = sched_arena_owning(p);
    chunk_hdr *h = (chunk_hdr *)p - 1;
    chunk_hdr *outer = (chunk_hdr *)((char *)h - h->offset);
    a->in_use -= outer->size;
    if (outer->cls == LARGE) {
        release_large(a, outer);
        return;
    }
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
