/*
 * access.c - the program's loads and stores (access_hook.h): the functions
 * that GCC's -fsanitize=thread makes every instrumented access call, the
 * wrappers of memcpy, memmove and memset that ordexcc links programs
 * against, the table of tracked pages and the exact tracked ranges.
 *
 * Only the program is instrumented: ordex's own code never calls these
 * functions, so they are reached from the program's code alone (its
 * constructors at load, its code as a rank, or its callbacks that ordex
 * runs); only the second is reported.  The program's calls of the hooks
 * that only look at an address are disarmed until the first mark
 * (access_sites.h).
 */
#define _GNU_SOURCE
#include "scheduler/access_hook.h"

#include <errno.h>
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "scheduler/access_sites.h"
#include "scheduler/arena.h"
#include "scheduler/loader.h"
#include "scheduler/procstate.h"
#include "scheduler/sched.h"

/* ---- the page table ------------------------------------------------------ */

/* One byte per 4 KiB page (nonzero: some byte of the page is tracked), in
 * tables of 1 GiB of address space, allocated when they get a tracked page
 * and kept, empty, until nothing is tracked at all: a buffer tracked only
 * while an operation uses it (on the stack, say, alone in its GiB) would
 * otherwise cost the allocation and clearing of a table each time.  The 47-bit user address space
 * takes 2^17 table pointers (1 MiB of zeros in .bss, of which only the entries that the program's
 * addresses reach are ever read). */
#define PAGE_SHIFT 12
#define CHUNK_SHIFT 30
#define ADDR_BITS 47
#define DIR_ENTRIES ((size_t)1 << (ADDR_BITS - CHUNK_SHIFT))
#define CHUNK_PAGES ((size_t)1 << (CHUNK_SHIFT - PAGE_SHIFT))
#define ADDR_LIMIT ((uintptr_t)1 << ADDR_BITS)

typedef struct access_chunk {
    uint8_t page[CHUNK_PAGES];
    size_t dir; /* its index in g_dir */
} access_chunk;

static access_chunk *g_dir[DIR_ENTRIES];
/* Tables allocated: while there is none (nothing tracked, now or any more),
 * an armed call costs one load and a branch. */
static size_t g_nchunks;
/* The tables allocated, for sched_access_reset (which must not read the
 * whole directory: untouched .bss stays untouched). */
static GPtrArray *g_chunks;

/* Whether the page of address a may hold tracked bytes.  The directory
 * index is masked rather than checked: an address above the user space
 * reads some table, and the exact ranges then say no. */
static inline bool page_maybe(uintptr_t a) {
    if (__builtin_expect(g_nchunks == 0, 1))
        return false;
    const access_chunk *c = g_dir[(a >> CHUNK_SHIFT) & (DIR_ENTRIES - 1)];
    return __builtin_expect(c != NULL, 0) && c->page[(a >> PAGE_SHIFT) & (CHUNK_PAGES - 1)] != 0;
}

/* Whether some page of [a, a + n) may hold tracked bytes. */
static inline bool range_maybe(uintptr_t a, size_t n) {
    if (__builtin_expect(g_nchunks == 0, 1) || n == 0)
        return false;
    uintptr_t last = a + n - 1;
    if (last < a)
        last = UINTPTR_MAX;
    if ((a >> PAGE_SHIFT) == (last >> PAGE_SHIFT))
        return page_maybe(a);
    if (last - a < ((uintptr_t)1 << PAGE_SHIFT)) /* two pages */
        return page_maybe(a) || page_maybe(last);
    for (uintptr_t p = a >> PAGE_SHIFT;; p++) {
        const access_chunk *c = g_dir[(p >> (CHUNK_SHIFT - PAGE_SHIFT)) & (DIR_ENTRIES - 1)];
        if (!c) { /* skip to the next table */
            uintptr_t next = (p | (CHUNK_PAGES - 1)) + 1;
            if (next == 0 || next > (last >> PAGE_SHIFT))
                return false;
            p = next - 1;
            continue;
        }
        if (c->page[p & (CHUNK_PAGES - 1)])
            return true;
        if (p == last >> PAGE_SHIFT)
            return false;
    }
}

/* ---- the exact ranges --------------------------------------------------- */

/* [start, end) marked `count` times; sorted, disjoint, count >= 1, and two
 * neighbours that touch have different counts. */
typedef struct access_seg {
    uintptr_t start, end;
    size_t count;
} access_seg;

static GArray *g_segs;

#define SEG(i) g_array_index(g_segs, access_seg, (i))

/* Index of the first range that ends after a (g_segs->len if none). */
static size_t first_after(uintptr_t a) {
    size_t lo = 0, hi = g_segs ? g_segs->len : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (SEG(mid).end <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void set_page(uintptr_t page, bool on) {
    size_t d = (size_t)(page >> (CHUNK_SHIFT - PAGE_SHIFT)) & (DIR_ENTRIES - 1);
    access_chunk *c = g_dir[d];
    if (!c) {
        if (!on)
            return;
        c = g_new0(access_chunk, 1);
        c->dir = d;
        g_ptr_array_add(g_chunks, c);
        g_dir[d] = c;
        g_nchunks++;
    }
    uint8_t *b = &c->page[page & (CHUNK_PAGES - 1)];
    if (*b != on) /* no write where nothing changes: snapshots share the page */
        *b = on;
}

/* Frees every table: nothing is tracked any more, and accesses take the
 * quickest path again. */
static void free_chunks(void) {
    for (guint i = 0; i < g_chunks->len; i++) {
        access_chunk *c = g_ptr_array_index(g_chunks, i);
        g_dir[c->dir] = NULL;
        g_free(c);
    }
    g_ptr_array_set_size(g_chunks, 0);
    g_nchunks = 0;
}

/* Sets the pages of [a, b) as the ranges now say. */
static void sync_pages(uintptr_t a, uintptr_t b) {
    uintptr_t first = a >> PAGE_SHIFT, last = (b - 1) >> PAGE_SHIFT;
    size_t k = first_after(first << PAGE_SHIFT);
    for (uintptr_t p = first; p <= last; p++) {
        uintptr_t lo = p << PAGE_SHIFT, hi = lo + ((uintptr_t)1 << PAGE_SHIFT);
        while (k < g_segs->len && SEG(k).end <= lo)
            k++;
        set_page(p, k < g_segs->len && SEG(k).start < hi);
    }
}

/* Merges the touching ranges of equal count among indices [from, to]. */
static void merge_around(size_t from, size_t to) {
    if (to >= g_segs->len)
        to = g_segs->len ? g_segs->len - 1 : 0;
    for (size_t i = from; i < to && i + 1 < g_segs->len;) {
        access_seg *x = &SEG(i), *y = &SEG(i + 1);
        if (x->end == y->start && x->count == y->count) {
            x->end = y->end;
            g_array_remove_index(g_segs, i + 1);
            to--;
        } else {
            i++;
        }
    }
}

/* Adds delta (+1 or -1) to the count of every byte of [a, b); a count
 * never drops below 0. */
static void apply(uintptr_t a, uintptr_t b, int delta) {
    size_t i = first_after(a), j = i;
    GArray *out = g_array_new(FALSE, FALSE, sizeof(access_seg));
    uintptr_t cur = a;
    for (; j < g_segs->len && SEG(j).start < b; j++) {
        access_seg s = SEG(j);
        if (s.start < a) {
            access_seg left = {s.start, a, s.count};
            g_array_append_val(out, left);
        } else if (s.start > cur && delta > 0) {
            access_seg gap = {cur, s.start, 1};
            g_array_append_val(out, gap);
        }
        access_seg mid = {s.start > a ? s.start : a, s.end < b ? s.end : b, s.count};
        if (delta > 0 || mid.count > 1) {
            mid.count = delta > 0 ? mid.count + 1 : mid.count - 1;
            g_array_append_val(out, mid);
        }
        if (s.end > b) {
            access_seg right = {b, s.end, s.count};
            g_array_append_val(out, right);
        }
        cur = mid.end;
    }
    if (cur < b && delta > 0) {
        access_seg gap = {cur, b, 1};
        g_array_append_val(out, gap);
    }
    if (j > i)
        g_array_remove_range(g_segs, (guint)i, (guint)(j - i));
    if (out->len)
        g_array_insert_vals(g_segs, (guint)i, out->data, out->len);
    merge_around(i ? i - 1 : 0, i + out->len);
    g_array_free(out, TRUE);
}

/* The part of [addr, addr + len) below the user address space's end, as
 * [*a, *b); false when empty. */
static bool clip(const void *addr, size_t len, uintptr_t *a, uintptr_t *b) {
    uintptr_t s = (uintptr_t)addr, e = s + len;
    if (e < s || e > ADDR_LIMIT)
        e = ADDR_LIMIT;
    if (len == 0 || s >= e)
        return false;
    *a = s;
    *b = e;
    return true;
}

/* Marks are ordex's state, never the running rank's: its heap must not get
 * them.  Returns the heap to put back with heap_end. */
static sched_arena *heap_begin(void) {
    sched_arena *saved = sched_arena_current;
    sched_arena_current = NULL;
    if (!g_segs) {
        g_segs = g_array_new(FALSE, FALSE, sizeof(access_seg));
        g_chunks = g_ptr_array_new();
    }
    return saved;
}

static void heap_end(sched_arena *saved) {
    sched_arena_current = saved;
}

static bool g_ignored;

void sched_access_set_ignored(bool ignored) {
    g_ignored = ignored;
}

void sched_access_mark(const void *addr, size_t len) {
    uintptr_t a, b;
    if (g_ignored || !clip(addr, len, &a, &b))
        return;
    sched_access_arm_ranks(); /* from now on the program's accesses call the hooks */
    sched_arena *saved = heap_begin();
    apply(a, b, +1);
    for (uintptr_t p = a >> PAGE_SHIFT; p <= (b - 1) >> PAGE_SHIFT; p++)
        set_page(p, true);
    heap_end(saved);
}

void sched_access_unmark(const void *addr, size_t len) {
    uintptr_t a, b;
    if (g_ignored || !clip(addr, len, &a, &b) || !g_segs)
        return;
    sched_arena *saved = heap_begin();
    apply(a, b, -1);
    sync_pages(a, b);
    if (g_segs->len == 0)
        free_chunks();
    heap_end(saved);
}

bool sched_access_tracked(const void *addr, size_t len) {
    uintptr_t a = (uintptr_t)addr;
    if (!range_maybe(a, len) || !g_segs)
        return false;
    uintptr_t end = a + len < a ? UINTPTR_MAX : a + len;
    size_t i = first_after(a);
    return i < g_segs->len && SEG(i).start < end;
}

void sched_access_reset(void) {
    if (!g_segs)
        return;
    free_chunks();
    g_array_set_size(g_segs, 0);
}

/* ---- the callback ------------------------------------------------------- */

static sched_access_fn g_hook;
static void *g_hook_user;

void sched_access_set_hook(sched_access_fn fn, void *user) {
    g_hook = fn;
    g_hook_user = user;
}

bool sched_access_instrumented(void) {
    return sched_program_path() != NULL && sched_program_instrumented() && sched_access_arm_ok();
}

/* An access of [a, a + n) whose pages may be tracked, made by the
 * instruction at pc: reports its tracked runs. */
static __attribute__((noinline, cold)) void report(uintptr_t a, size_t n, bool is_write, void *pc) {
    if (!g_hook || !g_segs || sched_forked_child || !sched_ps_running())
        return;
    uintptr_t end = a + n < a ? UINTPTR_MAX : a + n;
    int saved_errno = errno;
    int rank = sched_current();
    sched_enter_sim();
    /* Looked up again after every call: the callback may mark and unmark. */
    for (uintptr_t cur = a; cur < end && g_hook;) {
        size_t i = first_after(cur);
        if (i >= g_segs->len || SEG(i).start >= end)
            break;
        uintptr_t lo = SEG(i).start > cur ? SEG(i).start : cur, hi = SEG(i).end;
        while (hi < end && i + 1 < g_segs->len && SEG(i + 1).start == hi)
            hi = SEG(++i).end;
        if (hi > end)
            hi = end;
        g_hook(rank, (void *)lo, (size_t)(hi - lo), is_write, pc, g_hook_user);
        cur = hi;
    }
    sched_leave_sim();
    errno = saved_errno;
}

/* The call instruction in the program that called the function using it. */
#define CALL_SITE ((char *)__builtin_return_address(0) - 1)

#define CHECK_ONE(addr, size, is_write)                                                            \
    do {                                                                                           \
        if (page_maybe((uintptr_t)(addr)))                                                         \
            report((uintptr_t)(addr), (size), (is_write), CALL_SITE);                              \
    } while (0)

#define CHECK_RANGE(addr, size, is_write)                                                          \
    do {                                                                                           \
        if (range_maybe((uintptr_t)(addr), (size)))                                                \
            report((uintptr_t)(addr), (size), (is_write), CALL_SITE);                              \
    } while (0)

/* ---- what -fsanitize=thread calls ----------------------------------------- */

/* Called by the program only (exported to it: cli/exports.lds); `used`
 * keeps them although nothing in ordex calls them. */
#define TSAN_API __attribute__((visibility("default"), used))

TSAN_API void __tsan_init(void) {}

/* Not emitted (ordexcc passes --param=tsan-instrument-func-entry-exit=0),
 * but objects compiled with GCC's defaults still call them. */
TSAN_API void __tsan_func_entry(void *caller) {
    (void)caller;
}

/* GCC declares it with an argument that it never passes. */
TSAN_API void __tsan_func_exit(void *unused) {}

/* Aligned accesses of up to 8 bytes lie in one page; 16-byte ones (aligned
 * to 8) and unaligned ones may cross into the next. */
#define ACCESS_PAIR(prefix, n, check)                                                              \
    TSAN_API void __tsan_##prefix##read##n(void *addr) {                                           \
        check(addr, n, false);                                                                     \
    }                                                                                              \
    TSAN_API void __tsan_##prefix##write##n(void *addr) {                                          \
        check(addr, n, true);                                                                      \
    }

ACCESS_PAIR(, 1, CHECK_ONE)
ACCESS_PAIR(, 2, CHECK_ONE)
ACCESS_PAIR(, 4, CHECK_ONE)
ACCESS_PAIR(, 8, CHECK_ONE)
ACCESS_PAIR(, 16, CHECK_RANGE)
ACCESS_PAIR(volatile_, 1, CHECK_ONE)
ACCESS_PAIR(volatile_, 2, CHECK_ONE)
ACCESS_PAIR(volatile_, 4, CHECK_ONE)
ACCESS_PAIR(volatile_, 8, CHECK_ONE)
ACCESS_PAIR(volatile_, 16, CHECK_RANGE)
ACCESS_PAIR(unaligned_, 1, CHECK_RANGE)
ACCESS_PAIR(unaligned_, 2, CHECK_RANGE)
ACCESS_PAIR(unaligned_, 4, CHECK_RANGE)
ACCESS_PAIR(unaligned_, 8, CHECK_RANGE)
ACCESS_PAIR(unaligned_, 16, CHECK_RANGE)

/* Accesses whose size is not a power of two or above 16, or that GCC cannot
 * prove aligned. */
TSAN_API void __tsan_read_range(void *addr, long size) {
    CHECK_RANGE(addr, (size_t)size, false);
}

TSAN_API void __tsan_write_range(void *addr, long size) {
    CHECK_RANGE(addr, (size_t)size, true);
}

/* A C++ object's store of its vtable pointer (and clang's read of it). */
TSAN_API void __tsan_vptr_update(void *vptr_p, void *new_val) {
    (void)new_val;
    CHECK_RANGE(vptr_p, sizeof(void *), true);
}

TSAN_API void __tsan_vptr_read(void *vptr_p) {
    CHECK_RANGE(vptr_p, sizeof(void *), false);
}

/* ---- atomics ------------------------------------------------------------- */

/* Performed for real, sequentially consistent whatever order the program
 * asked for (stronger is always allowed).  Failure orders are ignored. */
#define SC __ATOMIC_SEQ_CST

/* The types are GCC's (it declares these functions as builtins whenever
 * a sanitizer is on, also in a sanitizer build of ordex). */
#define ATOMIC_FNS(n, T)                                                                           \
    TSAN_API T __tsan_atomic##n##_load(const volatile void *a, int mo) {                           \
        CHECK_RANGE(a, sizeof(T), false);                                                          \
        return __atomic_load_n((const volatile T *)a, SC);                                         \
    }                                                                                              \
    TSAN_API void __tsan_atomic##n##_store(volatile void *a, T v, int mo) {                        \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        __atomic_store_n((volatile T *)a, v, SC);                                                  \
    }                                                                                              \
    TSAN_API T __tsan_atomic##n##_exchange(volatile void *a, T v, int mo) {                        \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_exchange_n((volatile T *)a, v, SC);                                        \
    }                                                                                              \
    TSAN_API T __tsan_atomic##n##_fetch_add(volatile void *a, T v, int mo) {                       \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_fetch_add((volatile T *)a, v, SC);                                         \
    }                                                                                              \
    TSAN_API T __tsan_atomic##n##_fetch_sub(volatile void *a, T v, int mo) {                       \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_fetch_sub((volatile T *)a, v, SC);                                         \
    }                                                                                              \
    TSAN_API T __tsan_atomic##n##_fetch_and(volatile void *a, T v, int mo) {                       \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_fetch_and((volatile T *)a, v, SC);                                         \
    }                                                                                              \
    TSAN_API T __tsan_atomic##n##_fetch_or(volatile void *a, T v, int mo) {                        \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_fetch_or((volatile T *)a, v, SC);                                          \
    }                                                                                              \
    TSAN_API T __tsan_atomic##n##_fetch_xor(volatile void *a, T v, int mo) {                       \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_fetch_xor((volatile T *)a, v, SC);                                         \
    }                                                                                              \
    TSAN_API T __tsan_atomic##n##_fetch_nand(volatile void *a, T v, int mo) {                      \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_fetch_nand((volatile T *)a, v, SC);                                        \
    }                                                                                              \
    TSAN_API bool __tsan_atomic##n##_compare_exchange_strong(volatile void *a, void *c, T v,       \
                                                             int mo, int fmo) {                    \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_compare_exchange_n((volatile T *)a, (T *)c, v, false, SC, SC);             \
    }                                                                                              \
    /* Strong: a weak exchange may fail spuriously, it need not. */                                \
    TSAN_API bool __tsan_atomic##n##_compare_exchange_weak(volatile void *a, void *c, T v, int mo, \
                                                           int fmo) {                              \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        return __atomic_compare_exchange_n((volatile T *)a, (T *)c, v, false, SC, SC);             \
    }                                                                                              \
    /* libtsan's, for clang (GCC does not call it). */                                             \
    TSAN_API T __tsan_atomic##n##_compare_exchange_val(volatile void *a, T c, T v, int mo,         \
                                                       int fmo) {                                  \
        CHECK_RANGE(a, sizeof(T), true);                                                           \
        __atomic_compare_exchange_n((volatile T *)a, &c, v, false, SC, SC);                        \
        return c;                                                                                  \
    }

ATOMIC_FNS(8, uint8_t)
ATOMIC_FNS(16, uint16_t)
ATOMIC_FNS(32, uint32_t)
ATOMIC_FNS(64, uint64_t)

/* 16 bytes: GCC's own __atomic builtins of that size call libatomic, which
 * ordex does not link; every x86-64 processor since 2006 has cmpxchg16b,
 * and each operation is a loop around it. */
typedef unsigned __int128 a128;

static __attribute__((target("cx16"))) a128 cas128(volatile a128 *a, a128 expect, a128 v) {
    return __sync_val_compare_and_swap(a, expect, v);
}

typedef enum op128 { OP_XCHG, OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_NAND } op128;

/* Applies op with v to *a atomically; returns the old value. */
static a128 rmw128(volatile a128 *a, a128 v, op128 op) {
    a128 old = cas128(a, 0, 0);
    for (;;) {
        a128 nv = v;
        switch (op) {
        case OP_XCHG:
            break;
        case OP_ADD:
            nv = old + v;
            break;
        case OP_SUB:
            nv = old - v;
            break;
        case OP_AND:
            nv = old & v;
            break;
        case OP_OR:
            nv = old | v;
            break;
        case OP_XOR:
            nv = old ^ v;
            break;
        case OP_NAND:
            nv = ~(old & v);
            break;
        }
        a128 seen = cas128(a, old, nv);
        if (seen == old)
            return old;
        old = seen;
    }
}

TSAN_API a128 __tsan_atomic128_load(const volatile void *a, int mo) {
    CHECK_RANGE(a, sizeof(a128), false);
    /* cmpxchg16b writes what it read: the object is writable, as GCC's
     * lock-free 16-byte atomics require too. */
    return cas128((volatile a128 *)a, 0, 0);
}

TSAN_API void __tsan_atomic128_store(volatile void *a, a128 v, int mo) {
    CHECK_RANGE(a, sizeof(a128), true);
    rmw128((volatile a128 *)a, v, OP_XCHG);
}

#define RMW128(name, op)                                                                           \
    TSAN_API a128 __tsan_atomic128_##name(volatile void *a, a128 v, int mo) {                      \
        CHECK_RANGE(a, sizeof(a128), true);                                                        \
        return rmw128((volatile a128 *)a, v, op);                                                  \
    }

RMW128(exchange, OP_XCHG)
RMW128(fetch_add, OP_ADD)
RMW128(fetch_sub, OP_SUB)
RMW128(fetch_and, OP_AND)
RMW128(fetch_or, OP_OR)
RMW128(fetch_xor, OP_XOR)
RMW128(fetch_nand, OP_NAND)

static bool cmpxchg128(volatile void *a, void *expected, a128 v) {
    a128 want;
    memcpy(&want, expected, sizeof want);
    a128 seen = cas128((volatile a128 *)a, want, v);
    if (seen == want)
        return true;
    memcpy(expected, &seen, sizeof seen);
    return false;
}

TSAN_API bool __tsan_atomic128_compare_exchange_strong(volatile void *a, void *c, a128 v, int mo,
                                                       int fmo) {
    CHECK_RANGE(a, sizeof(a128), true);
    return cmpxchg128(a, c, v);
}

TSAN_API bool __tsan_atomic128_compare_exchange_weak(volatile void *a, void *c, a128 v, int mo,
                                                     int fmo) {
    CHECK_RANGE(a, sizeof(a128), true);
    return cmpxchg128(a, c, v);
}

TSAN_API a128 __tsan_atomic128_compare_exchange_val(volatile void *a, a128 c, a128 v, int mo,
                                                    int fmo) {
    CHECK_RANGE(a, sizeof(a128), true);
    return cas128((volatile a128 *)a, c, v);
}

TSAN_API void __tsan_atomic_thread_fence(int mo) {
    __atomic_thread_fence(SC);
}

TSAN_API void __tsan_atomic_signal_fence(int mo) {
    __atomic_signal_fence(SC);
}

/* ---- memcpy, memmove, memset --------------------------------------------- */

/* GCC does not instrument these calls: ordexcc links programs with
 * -Wl,--wrap=memcpy (and the others), so that the program's calls come
 * here, with the call site as return address. */
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
extern void *__memmove_chk(void *, const void *, size_t, size_t);
extern void *__memset_chk(void *, int, size_t, size_t);

TSAN_API void *__wrap_memcpy(void *d, const void *s, size_t n) {
    CHECK_RANGE(s, n, false);
    CHECK_RANGE(d, n, true);
    return memcpy(d, s, n);
}

TSAN_API void *__wrap_memmove(void *d, const void *s, size_t n) {
    CHECK_RANGE(s, n, false);
    CHECK_RANGE(d, n, true);
    return memmove(d, s, n);
}

TSAN_API void *__wrap_memset(void *d, int c, size_t n) {
    CHECK_RANGE(d, n, true);
    return memset(d, c, n);
}

/* The fortified forms (-D_FORTIFY_SOURCE): the C library checks the size
 * after the access is reported (a report of an overflowing copy is
 * followed by the C library's abort, as without ordex). */
TSAN_API void *__wrap___memcpy_chk(void *d, const void *s, size_t n, size_t room) {
    CHECK_RANGE(s, n, false);
    CHECK_RANGE(d, n, true);
    return __memcpy_chk(d, s, n, room);
}

TSAN_API void *__wrap___memmove_chk(void *d, const void *s, size_t n, size_t room) {
    CHECK_RANGE(s, n, false);
    CHECK_RANGE(d, n, true);
    return __memmove_chk(d, s, n, room);
}

TSAN_API void *__wrap___memset_chk(void *d, int c, size_t n, size_t room) {
    CHECK_RANGE(d, n, true);
    return __memset_chk(d, c, n, room);
}

/* What clang's -fsanitize=thread calls instead of the plain names. */
TSAN_API void *__tsan_memcpy(void *d, const void *s, size_t n) {
    CHECK_RANGE(s, n, false);
    CHECK_RANGE(d, n, true);
    return memcpy(d, s, n);
}

TSAN_API void *__tsan_memmove(void *d, const void *s, size_t n) {
    CHECK_RANGE(s, n, false);
    CHECK_RANGE(d, n, true);
    return memmove(d, s, n);
}

TSAN_API void *__tsan_memset(void *d, int c, size_t n) {
    CHECK_RANGE(d, n, true);
    return memset(d, c, n);
}
