/*
 * memsnap.c - snapshots of the whole process kept inside the process (see
 * memsnap.h).
 *
 * Layout: one large reserved mapping, the store, holds a header (the list of
 * regions to copy, the copying context, the counters) and then the
 * snapshots, stacked like the search that takes them.  A snapshot is a
 * sequence of items:
 *
 *   ITEM_REGION  a large region follows, as the resident spans it had
 *   ITEM_BYTES   the bytes of one span, copied (a stack, from its pointer)
 *   ITEM_PAGES   a span of whole pages: a pointer per page to its bytes,
 *                then the pages that were new
 *
 * Most pages of a snapshot hold what they held at the snapshot below it
 * (about two thirds of ordex's heap, in the examples).  Such a page is
 * compared with the one below and, when equal, points to that copy instead
 * of being copied again: snapshots are removed newest first, so the copy
 * pointed to lives longer than the pointer.  Restoring copies every page
 * back through its pointer all the same.
 *
 * Stacks (ordex's own and each rank's) are copied from their stack pointer
 * up: the frames below it are dead, whatever they held.  Other small
 * regions are copied whole; large ones (ordex's heap) only where a page is
 * resident, since an untouched page reads as zeros.  The kernel lists
 * resident spans (the PAGEMAP_SCAN ioctl, Linux 6.7; mincore page by page
 * before).  On restore, a page of a large region that was not resident then
 * but is now is handed back (MADV_DONTNEED), which makes it read as zeros
 * again, as it did.  The ranks' arenas are one huge reserved range; the part
 * of each arena below its high-water mark is copied, and pages above the
 * high-water mark at the snapshot are handed back on restore.
 *
 * The copying runs on a fiber of its own (the side context): a switch to it
 * saves the caller's registers on the caller's stack, so the copy of that
 * stack holds them, and a restore ends with a switch back to the saved
 * stack pointer, which resumes the caller of ckpt_mem_take.  The store and
 * the side stack are left out of the copies: they are the machinery.
 */
#define _GNU_SOURCE
#include "checkpoint/memsnap.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <valgrind/valgrind.h>

#include "checkpoint/maps.h"
#include "checkpoint/pagemap.h"
#include "scheduler/arena.h"
#include "scheduler/context.h"
#include "scheduler/sched.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ORDEX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ORDEX_SANITIZED 1
#endif
#endif

#define PAGE ((uintptr_t)4096)
#define PAGE_DOWN(x) ((uintptr_t)(x) & ~(PAGE - 1))
#define PAGE_UP(x) (((uintptr_t)(x) + PAGE - 1) & ~(PAGE - 1))
#define STORE_BYTES ((size_t)64 << 30) /* address space only: pages are used as needed */
/* Regions up to this size are copied whole; larger ones where resident.
 * Asking the kernel costs about as much as copying a few pages, and the
 * C library's data (13 pages) is mostly untouched zeros. */
#define SMALL_REGION ((uintptr_t)16 << 10)
#define SIDE_STACK ((size_t)256 << 10)
#define MAX_REGIONS 512
#define MAIN_STACK_PREGROW ((size_t)512 << 10)
/* Below a stack pointer, the bytes a leaf function may use without moving
 * it (the x86-64 ABI's red zone, 128 bytes), with room to spare. */
#define BELOW_SP ((uintptr_t)256)

enum region_kind { REGION_PLAIN, REGION_HEAP, REGION_MAIN_STACK, REGION_RANK_STACK };

typedef struct region {
    uintptr_t start, end; /* the heap's end is the program break at each snapshot */
    int kind;
    int rank;  /* REGION_RANK_STACK: whose */
    bool file; /* file-backed: a page not resident reads the file, not zeros */
} region;

enum { ITEM_REGION = 1, ITEM_BYTES = 2, ITEM_PAGES = 3 };

/* A multiple of 16 bytes long, as store_alloc hands them out: the payload
 * starts right after the header however it was allocated. */
typedef struct item {
    uint32_t type;
    uint32_t file;   /* ITEM_REGION: the region is file-backed */
    uint32_t region; /* ITEM_PAGES: which (st->regions, then the arenas) */
    uintptr_t addr;
    size_t len;     /* bytes of memory covered */
    size_t payload; /* bytes after this header: ITEM_BYTES' copy, ITEM_PAGES' table and pages */
    size_t pad;
} item;
_Static_assert(sizeof(item) % 16 == 0, "items must be a multiple of 16 bytes long");

typedef struct snap {
    size_t prev;     /* offset of the snapshot below, or SIZE_MAX */
    void *resume_sp; /* the caller's stack pointer, registers saved below it */
    uintptr_t brk;
    int low_fd; /* lowest descriptor that was closed */
    uint64_t map_epoch;
    size_t nitems;
    size_t arena_extent[]; /* one per arena, page-rounded */
} snap;

enum { OP_TAKE, OP_RESTORE };

typedef struct store {
    /* Set by ckpt_mem_init. */
    size_t cap; /* bytes of data[] */
    int nregions;
    region regions[MAX_REGIONS];
    const char *arena_span;
    size_t arena_span_len;
    int narenas;
    int probe_fd;           /* a descriptor to duplicate: the lowest free one comes back */
    ckpt_pagemap pagemap;   /* closed: mincore */
    uint64_t regions_epoch; /* g_map_epoch when the regions were read */
    sched_ctx side;
    /* Changed by every snapshot and restore. */
    sched_ctx caller;
    int op;
    ckpt_mem_result result;
    int depth;
    size_t top;    /* bytes of data[] in use */
    size_t last;   /* offset of the newest snapshot, or SIZE_MAX */
    sigset_t mask; /* the caller's signal mask while a restore runs */
    _Alignas(16) unsigned char data[];
} store;

static store *g_st; /* a copy of this pointer is in every snapshot: it never changes */

static volatile uint64_t g_map_epoch;

/* ---------------------------------------------------------------------- */
/* Mapping changes.  The process-wide mmap family counts its calls, so a
 * restore can tell that the memory it would write back is not laid out as
 * it was.  (The C library's own calls bypass these; with its allocator told
 * not to map chunks, it makes none while a search runs.) */

#ifndef ORDEX_SANITIZED /* a sanitizer keeps its own mmap interceptors */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    g_map_epoch++;
    return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    return mmap(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len) {
    g_map_epoch++;
    return (int)syscall(SYS_munmap, addr, len);
}

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...) {
    void *new_addr = NULL;
    if (flags & MREMAP_FIXED) {
        va_list ap;
        va_start(ap, flags);
        new_addr = va_arg(ap, void *);
        va_end(ap);
    }
    g_map_epoch++;
    return (void *)syscall(SYS_mremap, old, old_len, new_len, flags, new_addr);
}
#endif

/* ---------------------------------------------------------------------- */

const char *ckpt_mem_unavailable(void) {
#ifdef ORDEX_SANITIZED
    return "this ordex is built with a sanitizer, whose shadow memory a copy cannot follow";
#else
    if (RUNNING_ON_VALGRIND)
        return "under valgrind, whose own memory a copy cannot follow";
    return NULL;
#endif
}

void ckpt_mem_prepare(void) {
    /* Every chunk from the program break: the heap is then one region whose
     * end the kernel can be told back on restore. */
    mallopt(M_MMAP_MAX, 0);
}

int ckpt_mem_depth(void) {
    return g_st ? g_st->depth : 0;
}

static uintptr_t current_brk(void) {
    return (uintptr_t)syscall(SYS_brk, 0);
}

static bool overlaps(uintptr_t a, uintptr_t b, const void *start, size_t len) {
    uintptr_t s = (uintptr_t)start;
    return len && a < s + len && s < b;
}

/* Grows the main stack's mapping below the caller now, so that the frames
 * of the search (which may run deeper than this) lie inside the region, and
 * hands the pages back: only pages in use are copied. */
static __attribute__((noinline)) void pregrow_main_stack(void) {
    volatile char pad[MAIN_STACK_PREGROW];
    for (size_t i = 0; i < sizeof pad; i += PAGE)
        pad[i] = 0;
    __asm__ volatile("" : : "r"(pad) : "memory");
    uintptr_t lo = PAGE_UP((uintptr_t)pad), hi = PAGE_DOWN((uintptr_t)pad + sizeof pad);
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* Tags the regions that are exactly a rank's stack: a snapshot copies
 * those from the rank's saved stack pointer up, without asking the kernel
 * which pages are resident. */
static void mark_rank_stacks(store *st) {
    for (int rank = 0; rank < sched_nranks(); rank++) {
        uintptr_t lo, hi, sp;
        if (!sched_rank_stack(rank, &lo, &hi, &sp))
            continue;
        for (int i = 0; i < st->nregions; i++)
            if (st->regions[i].start == lo && st->regions[i].end == hi &&
                st->regions[i].kind == REGION_PLAIN) {
                st->regions[i].kind = REGION_RANK_STACK;
                st->regions[i].rank = rank;
            }
    }
}

typedef struct region_reader {
    store *st;
    uintptr_t heap_lo;
    char **err;
} region_reader;

/* Keeps the private writable mappings that are not ordex's own memory. */
static bool add_region(const ckpt_mapping *m, void *user) {
    region_reader *rr = user;
    store *st = rr->st;
    if (!m->read || !m->write || !m->private_)
        return true; /* read-only, or shared (the search's own tables) */
    if (overlaps(m->start, m->end, st, sizeof *st + st->cap) ||
        overlaps(m->start, m->end, st->side.stack_base,
                 st->side.stack_size + st->side.guard_size) ||
        overlaps(m->start, m->end, st->arena_span, st->arena_span_len))
        return true;
    if (strcmp(m->name, "[heap]") == 0) {
        if (!rr->heap_lo)
            rr->heap_lo = m->start;
        return true; /* one region from its first page to the break, added below */
    }
    if (st->nregions == MAX_REGIONS) {
        *rr->err = g_strdup("the process has too many mappings to snapshot");
        return false;
    }
    int kind = strcmp(m->name, "[stack]") == 0 ? REGION_MAIN_STACK : REGION_PLAIN;
    st->regions[st->nregions++] = (region){m->start, m->end, kind, -1, m->file};
    return true;
}

static bool read_regions(store *st, char **err) {
    region_reader rr = {st, 0, err};
    *err = NULL;
    if (!ckpt_maps_each(add_region, &rr)) {
        *err = g_strdup("cannot read /proc/self/maps");
        return false;
    }
    if (*err)
        return false;
    if (rr.heap_lo) {
        if (st->nregions == MAX_REGIONS) {
            *err = g_strdup("the process has too many mappings to snapshot");
            return false;
        }
        st->regions[st->nregions++] = (region){rr.heap_lo, 0, REGION_HEAP, -1, false};
    }
    mark_rank_stacks(st);
    return true;
}

static void side_main(void *unused);

bool ckpt_mem_init(char **err) {
    const char *why = ckpt_mem_unavailable();
    if (why) {
        *err = g_strdup_printf("in-process snapshots are not available: %s", why);
        return false;
    }
    if (g_st) {
        *err = g_strdup("in-process snapshots are already set up");
        return false;
    }
    store *st = mmap(NULL, STORE_BYTES, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (st == MAP_FAILED) {
        *err = g_strdup_printf("cannot reserve memory for snapshots: %s", g_strerror(errno));
        return false;
    }
    /* Huge pages where the kernel allows: the store grows by megabytes, and
     * a fault per 4 KiB page would cost more than the copies. */
    madvise(st, STORE_BYTES, MADV_HUGEPAGE);
    st->cap = STORE_BYTES - sizeof *st;
    st->last = SIZE_MAX;
    st->probe_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    ckpt_pagemap_open(&st->pagemap);
    bool have_side = st->probe_fd >= 0 && sched_ctx_make(&st->side, SIDE_STACK, side_main, NULL);
    if (!have_side)
        *err = g_strdup_printf("cannot set up snapshots: %s", g_strerror(errno));
    if (have_side) {
        const void *span;
        sched_arenas_span(&span, &st->arena_span_len, &st->narenas);
        st->arena_span = span;
        pregrow_main_stack();
    }
    if (!have_side || !read_regions(st, err)) {
        if (have_side)
            sched_ctx_destroy(&st->side);
        if (st->probe_fd >= 0)
            close(st->probe_fd);
        ckpt_pagemap_close(&st->pagemap);
        munmap(st, STORE_BYTES);
        return false;
    }
    g_st = st;
    g_map_epoch = 0;
    return true;
}

void ckpt_mem_forked(void) {
    if (g_st)
        ckpt_pagemap_follow(&g_st->pagemap);
}

/* ---------------------------------------------------------------------- */
/* Taking a snapshot (on the side stack)                                   */

static void *store_alloc(size_t bytes) {
    store *st = g_st;
    bytes = (bytes + 15) & ~(size_t)15;
    if (st->top + bytes > st->cap)
        return NULL;
    void *p = st->data + st->top;
    st->top += bytes;
    return p;
}

static item *put_item(snap *s, uint32_t type, uintptr_t addr, size_t len, const void *payload,
                      size_t payload_len) {
    item *it = store_alloc(sizeof(item) + payload_len);
    if (!it)
        return NULL;
    *it = (item){.type = type, .addr = addr, .len = len, .payload = payload_len};
    if (payload_len)
        memcpy(it + 1, payload, payload_len);
    s->nitems++;
    return it;
}

static const item *next_item(const item *it) {
    size_t bytes = (sizeof(item) + it->payload + 15) & ~(size_t)15;
    return (const item *)((const unsigned char *)it + bytes);
}

static bool is_span(const item *it) {
    return it->type == ITEM_BYTES || it->type == ITEM_PAGES;
}

static const unsigned char *const *page_table(const item *it) {
    return (const unsigned char *const *)(const void *)(it + 1);
}

/* The snapshot below the one being taken, walked along with it to find the
 * copy it holds of each page.  Both list their spans in the same order (the
 * regions', each in address order), so the walk only moves forward. */
typedef struct below_walk {
    const item *it; /* the next item of the snapshot below, if `left` */
    size_t left;
} below_walk;

/* The copy of page `addr` of region `region` in the snapshot below, or
 * NULL.  (When the regions were read again in between, their numbers may
 * differ and pages are missed: they are copied, which is still right.) */
static const unsigned char *page_below(below_walk *w, uint32_t region, uintptr_t addr) {
    for (; w->left; w->it = next_item(w->it), w->left--) {
        const item *it = w->it;
        if (it->type != ITEM_PAGES || it->region < region)
            continue;
        if (it->region > region || addr < it->addr)
            return NULL; /* not there: it was not resident then */
        if (addr < it->addr + it->len)
            return page_table(it)[(addr - it->addr) / PAGE];
    }
    return NULL;
}

/* Puts the whole pages [a, b) of a region in an ITEM_PAGES: each one equal
 * to its copy below points to that copy, the others are copied after the
 * table. */
static bool put_pages(snap *s, below_walk *w, uint32_t region, uintptr_t a, uintptr_t b) {
    size_t npages = (b - a) / PAGE;
    item *it = put_item(s, ITEM_PAGES, a, b - a, NULL, 0);
    const unsigned char **table = it ? store_alloc(npages * sizeof *table) : NULL;
    if (!table)
        return false;
    it->region = region;
    /* New pages go one after the other in the store: a run of them that
     * lies one after the other in memory too is copied in one go. */
    size_t run = 0; /* pages of the current run, ending before page i */
    for (size_t i = 0; i < npages; i++) {
        const unsigned char *now = (const unsigned char *)(a + i * PAGE);
        const unsigned char *below = page_below(w, region, (uintptr_t)now);
        if (below && memcmp(below, now, PAGE) == 0) {
            table[i] = below;
            if (run)
                memcpy((void *)table[i - run], now - run * PAGE, run * PAGE);
            run = 0;
            continue;
        }
        unsigned char *copy = store_alloc(PAGE);
        if (!copy)
            return false;
        table[i] = copy;
        run++;
    }
    if (run)
        memcpy((void *)table[npages - run], (const void *)(b - run * PAGE), run * PAGE);
    it->payload = (size_t)(g_st->data + g_st->top - (unsigned char *)(it + 1));
    return true;
}

/* Calls fn on every span of resident pages of [lo, hi), in address order.
 * False when the range cannot be read or fn says stop. */
static bool for_resident(uintptr_t lo, uintptr_t hi, ckpt_span_fn fn, void *user) {
    store *st = g_st;
    switch (ckpt_pagemap_spans(&st->pagemap, lo, hi, false, fn, user)) {
    case CKPT_PAGEMAP_DONE:
        return true;
    case CKPT_PAGEMAP_STOPPED:
        return false;
    case CKPT_PAGEMAP_UNSUPPORTED:
        break; /* an older kernel: mincore page by page */
    }
    size_t npages = (hi - lo) / PAGE;
    if (st->top + npages > st->cap)
        return false;
    /* At the far end of the store: copies made meanwhile grow from the top. */
    unsigned char *vec = st->data + st->cap - npages;
    if (mincore((void *)lo, hi - lo, vec) != 0)
        return false;
    for (size_t i = 0; i < npages;) {
        if (!(vec[i] & 1)) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < npages && (vec[j] & 1))
            j++;
        if (!fn(lo + i * PAGE, lo + j * PAGE, user))
            return false;
        i = j;
    }
    return true;
}

typedef struct taking {
    snap *s;
    below_walk below;
    uint32_t region; /* the one being copied */
} taking;

static bool copy_span(uintptr_t a, uintptr_t b, void *user) {
    taking *t = user;
    return put_pages(t->s, &t->below, t->region, a, b);
}

/* Copies the resident pages of [lo, hi) after a marker of the region. */
static bool copy_large(taking *t, uintptr_t lo, uintptr_t hi, bool file) {
    item *it = put_item(t->s, ITEM_REGION, lo, hi - lo, NULL, 0);
    if (!it)
        return false;
    it->file = file;
    return for_resident(lo, hi, copy_span, t);
}

static int lowest_free_fd(void) {
    int fd = fcntl(g_st->probe_fd, F_DUPFD_CLOEXEC, 0);
    if (fd >= 0)
        close(fd);
    return fd;
}

/* The stack pointer of a stack region, from which up its frames are live,
 * or 0 for a region that is not a stack or whose pointer is not known.
 * The main stack's is the caller's (main_sp); it may lie below the region,
 * which the kernel grows down on demand. */
static uintptr_t stack_pointer(const region *r, uintptr_t main_sp) {
    uintptr_t lo, hi, sp = 0;
    if (r->kind == REGION_MAIN_STACK) {
        bool grown = main_sp < r->start && main_sp + ((uintptr_t)64 << 20) > r->start;
        sp = (main_sp >= r->start + BELOW_SP || grown) && main_sp < r->end ? main_sp : 0;
    } else if (r->kind == REGION_RANK_STACK && sched_rank_stack(r->rank, &lo, &hi, &sp)) {
        sp = sp >= r->start + BELOW_SP && sp < r->end ? sp : 0;
    }
    return sp;
}

static size_t snap_head_bytes(int narenas) {
    return (sizeof(snap) + sizeof(size_t) * (size_t)narenas + 15) & ~(size_t)15;
}

static bool take(void) {
    store *st = g_st;
    size_t at = st->top;
    snap *s = store_alloc(snap_head_bytes(st->narenas));
    if (!s)
        return false;
    s->prev = st->last;
    s->resume_sp = st->caller.sp;
    s->brk = current_brk();
    s->low_fd = lowest_free_fd();
    s->map_epoch = g_map_epoch;
    s->nitems = 0;
    taking t = {s, {NULL, 0}, 0};
    if (s->prev != SIZE_MAX) {
        const snap *below = (const snap *)(st->data + s->prev);
        t.below.it = (const item *)((const unsigned char *)below + snap_head_bytes(st->narenas));
        t.below.left = below->nitems;
    }
    for (int i = 0; i < st->nregions; i++) {
        const region *r = &st->regions[i];
        uintptr_t lo = r->start, hi = r->end;
        uintptr_t sp = stack_pointer(r, (uintptr_t)s->resume_sp);
        if (r->kind == REGION_HEAP)
            hi = PAGE_UP(s->brk);
        if (sp) /* a stack: the frames from its pointer up, nothing below */
            lo = (sp - BELOW_SP) & ~(uintptr_t)15;
        if (hi <= lo)
            continue;
        t.region = (uint32_t)i;
        bool ok = sp ? put_item(s, ITEM_BYTES, lo, hi - lo, (const void *)lo, hi - lo) != NULL
                  : hi - lo <= SMALL_REGION ? put_pages(s, &t.below, (uint32_t)i, lo, hi)
                                            : copy_large(&t, lo, hi, r->file);
        if (!ok) {
            st->top = at;
            return false;
        }
    }
    for (int i = 0; i < st->narenas; i++) {
        const sched_arena *a = sched_arena_of(i);
        uintptr_t base = (uintptr_t)sched_arena_base(a);
        size_t ext = PAGE_UP(sched_arena_extent(a));
        s->arena_extent[i] = ext;
        if (ext && !put_pages(s, &t.below, (uint32_t)(st->nregions + i), base, base + ext)) {
            st->top = at;
            return false;
        }
    }
    st->last = at;
    st->depth++;
    return true;
}

/* ---------------------------------------------------------------------- */
/* Restoring (on the side stack)                                           */

static _Noreturn void restore_failed(const char *why) {
    char msg[256];
    int n =
        snprintf(msg, sizeof msg, "ordex: an in-process snapshot cannot be restored: %s\n", why);
    if (n > 0)
        (void)!write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    _exit(CKPT_MEM_EXIT_RESTORE_FAILED);
}

/* Walks a region's spans then (the span items after its marker) beside its
 * spans now, handing back the pages resident now that were not then. */
typedef struct span_diff {
    const item *then; /* the next span then, or NULL */
    size_t left;      /* items after `then` in the snapshot */
    bool file;
} span_diff;

static void diff_advance(span_diff *d) {
    d->then = d->left ? next_item(d->then) : NULL;
    if (d->left)
        d->left--;
    if (d->then && !is_span(d->then))
        d->then = NULL;
}

static bool drop_span(uintptr_t a, uintptr_t b, void *user) {
    span_diff *d = user;
    while (a < b) {
        while (d->then && d->then->addr + d->then->len <= a)
            diff_advance(d);
        uintptr_t keep_lo = d->then ? d->then->addr : UINTPTR_MAX;
        if (a < keep_lo) { /* [a, min(b, keep_lo)) was not resident then */
            uintptr_t e = b < keep_lo ? b : keep_lo;
            /* Zeros are what an anonymous page held; writing them keeps the
             * page, which the next path most likely touches again anyway. */
            if (d->file)
                madvise((void *)a, e - a, MADV_DONTNEED);
            else
                memset((void *)a, 0, e - a);
            a = e;
        } else { /* inside a span that was resident: copied back later */
            a = d->then->addr + d->then->len;
        }
    }
    return true;
}

/* Copies an ITEM_PAGES back, a run of pages whose copies lie one after the
 * other at a time. */
static void restore_pages(const item *it) {
    const unsigned char *const *table = page_table(it);
    size_t npages = it->len / PAGE;
    for (size_t i = 0; i < npages;) {
        size_t j = i + 1;
        while (j < npages && table[j] == table[j - 1] + PAGE)
            j++;
        memcpy((void *)(it->addr + i * PAGE), table[i], (j - i) * PAGE);
        i = j;
    }
}

#define MAPS_CHANGED "the program mapped or unmapped memory (mmap, munmap or mremap)"

const char *ckpt_mem_cannot_restore(void) {
    store *st = g_st;
    if (!st || st->depth == 0)
        return "there is no snapshot";
    const snap *s = (const snap *)(st->data + st->last);
    return g_map_epoch != s->map_epoch ? MAPS_CHANGED " since the snapshot was taken" : NULL;
}

/* Puts the newest snapshot back and removes it; returns its stack pointer. */
static void *restore(void) {
    store *st = g_st;
    const snap *s = (const snap *)(st->data + st->last);
    if (g_map_epoch != s->map_epoch)
        restore_failed(MAPS_CHANGED " since it was taken; explore it with --checkpoint=fork");
    if (current_brk() != s->brk && (uintptr_t)syscall(SYS_brk, s->brk) != s->brk)
        restore_failed("the program break cannot be set back");
    for (int i = 0; i < st->narenas; i++) {
        const sched_arena *a = sched_arena_of(i);
        uintptr_t base = (uintptr_t)sched_arena_base(a);
        size_t now = PAGE_UP(sched_arena_extent(a)), then = s->arena_extent[i];
        if (now > then)
            madvise((void *)(base + then), now - then, MADV_DONTNEED);
    }
    /* Pages first, bytes second: handing a page back must not undo a copy. */
    const item *first = (const item *)((const unsigned char *)s + snap_head_bytes(st->narenas));
    const item *it = first;
    for (size_t k = 0; k < s->nitems; k++, it = next_item(it))
        if (it->type == ITEM_REGION) {
            span_diff d = {it, s->nitems - 1 - k, it->file != 0};
            diff_advance(&d);
            if (!for_resident(it->addr, it->addr + it->len, drop_span, &d))
                restore_failed("the resident pages of a region cannot be read");
        }
    it = first;
    for (size_t k = 0; k < s->nitems; k++, it = next_item(it))
        if (it->type == ITEM_BYTES)
            memcpy((void *)it->addr, it + 1, it->len);
        else if (it->type == ITEM_PAGES)
            restore_pages(it);
    if (s->low_fd >= 0 && fcntl(s->low_fd, F_GETFD) != -1)
        syscall(SYS_close_range, (unsigned)s->low_fd, ~0u, 0u); /* opened since */
    void *sp = s->resume_sp;
    st->top = st->last;
    st->last = s->prev;
    st->depth--;
    return sp;
}

static void side_main(void *unused) {
    store *st = g_st;
    sched_ctx back = st->caller;
    if (st->op == OP_TAKE) {
        st->result = take() ? CKPT_MEM_TAKEN : CKPT_MEM_FAILED;
    } else {
        back.sp = restore();
        st->result = CKPT_MEM_RESUMED;
        pthread_sigmask(SIG_SETMASK, &st->mask, NULL);
    }
    sched_ctx_switch(&st->side, &back);
    __builtin_unreachable();
}

/* Runs side_main on the side stack with op, from a fresh first frame. */
static void run_side(int op) {
    store *st = g_st;
    st->op = op;
    sched_ctx_prepare(&st->side, side_main, NULL);
    sched_ctx_switch(&st->caller, &st->side);
}

ckpt_mem_result ckpt_mem_take(void) {
    store *st = g_st;
    if (st->regions_epoch != g_map_epoch) { /* read them again, here: it allocates */
        char *err = NULL;
        st->nregions = 0;
        uint64_t epoch = g_map_epoch;
        if (!read_regions(st, &err)) {
            g_free(err);
            return CKPT_MEM_FAILED;
        }
        st->regions_epoch = epoch;
    }
    run_side(OP_TAKE);
    return g_st->result;
}

void ckpt_mem_restore(void) {
    store *st = g_st;
    if (!st || st->depth == 0)
        restore_failed("there is no snapshot");
    /* A timer tick must not see memory half put back. */
    sigset_t block;
    sigfillset(&block);
    pthread_sigmask(SIG_BLOCK, &block, &st->mask);
    run_side(OP_RESTORE);
    __builtin_unreachable();
}
