/*
 * test_access.c - the marks of tracked memory (scheduler/access_hook.h):
 * counted per byte, exact at the edges, the page table kept in step (every
 * query goes through it first), and what in-process snapshots make of
 * them.  Marks never touch the memory they name, so most tests use
 * addresses where nothing is mapped.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "checkpoint/memsnap.h"
#include "scheduler/access_hook.h"
#include "tests/skip.h"

#define GIB ((uintptr_t)1 << 30)
#define PAGE ((uintptr_t)4096)

static bool tracked(uintptr_t a, size_t n) {
    return sched_access_tracked((const void *)a, n);
}

static void mark(uintptr_t a, size_t n) {
    sched_access_mark((const void *)a, n);
}

static void unmark(uintptr_t a, size_t n) {
    sched_access_unmark((const void *)a, n);
}

/* Exact at both ends, for single bytes and for ranges. */
static void test_edges(void) {
    sched_access_reset();
    uintptr_t p = 3 * GIB + 100;
    mark(p, 100);
    CU_ASSERT_FALSE(tracked(p - 1, 1));
    CU_ASSERT_TRUE(tracked(p, 1));
    CU_ASSERT_TRUE(tracked(p + 99, 1));
    CU_ASSERT_FALSE(tracked(p + 100, 1));
    CU_ASSERT_TRUE(tracked(p - 10, 11));
    CU_ASSERT_FALSE(tracked(p - 10, 10));
    CU_ASSERT_TRUE(tracked(p + 99, 8));
    CU_ASSERT_TRUE(tracked(p - 50, 1000));
    CU_ASSERT_FALSE(tracked(p, 0));
    mark(p + 500, 0); /* nothing */
    CU_ASSERT_FALSE(tracked(p + 500, 1));
    unmark(p, 100);
    CU_ASSERT_FALSE(tracked(p - 50, 1000));
}

/* Bytes marked k times need k unmarks; unmarking untracked bytes does not
 * push their count below zero. */
static void test_counted(void) {
    sched_access_reset();
    uintptr_t p = 7 * GIB;
    mark(p, 64);
    mark(p, 64);
    unmark(p, 64);
    CU_ASSERT_TRUE(tracked(p, 64));
    unmark(p, 64);
    CU_ASSERT_FALSE(tracked(p, 64));
    unmark(p, 64); /* once too often: ignored */
    mark(p, 64);
    CU_ASSERT_TRUE(tracked(p, 1));
    unmark(p, 64);
    /* Overlapping marks: [0, 100) and [50, 150), then [0, 100) unmarked. */
    mark(p, 100);
    mark(p + 50, 100);
    unmark(p, 100);
    CU_ASSERT_FALSE(tracked(p + 49, 1));
    CU_ASSERT_TRUE(tracked(p + 50, 1));
    CU_ASSERT_TRUE(tracked(p + 149, 1));
    CU_ASSERT_FALSE(tracked(p + 150, 1));
    /* An unmark wider than the marks removes what is there, no more. */
    unmark(p - 1000, 5000);
    CU_ASSERT_FALSE(tracked(p - 1000, 5000));
    mark(p + 10, 10);
    CU_ASSERT_TRUE(tracked(p + 10, 1));
    CU_ASSERT_FALSE(tracked(p + 9, 1));
}

/* A page keeps its entry while some of its bytes are tracked, also when
 * the range that made it tracked is gone; ranges across pages and across
 * the GiB tables. */
static void test_pages(void) {
    sched_access_reset();
    uintptr_t p = 9 * GIB + 4 * PAGE;
    mark(p, 10);
    mark(p + 100, 10);
    unmark(p, 10);
    CU_ASSERT_TRUE(tracked(p + 100, 1));
    CU_ASSERT_FALSE(tracked(p, 10));
    unmark(p + 100, 10);
    CU_ASSERT_FALSE(tracked(p, PAGE));
    /* Three pages, the middle one unmarked. */
    mark(p, 3 * PAGE);
    unmark(p + PAGE, PAGE);
    CU_ASSERT_TRUE(tracked(p, 1));
    CU_ASSERT_TRUE(tracked(p + PAGE - 1, 1));
    CU_ASSERT_FALSE(tracked(p + PAGE, PAGE));
    CU_ASSERT_TRUE(tracked(p + 2 * PAGE, 1));
    CU_ASSERT_TRUE(tracked(p + PAGE - 1, 2)); /* an access across the page boundary */
    unmark(p, 3 * PAGE);
    /* Across the boundary of two GiB tables, and a range spanning many
     * tables with nothing in between. */
    uintptr_t g = 12 * GIB;
    mark(g - 8, 16);
    CU_ASSERT_TRUE(tracked(g - 1, 2));
    CU_ASSERT_TRUE(tracked(g, 1));
    CU_ASSERT_FALSE(tracked(g + 8, 1));
    CU_ASSERT_TRUE(tracked(g - 5 * GIB, 5 * GIB - 7));
    CU_ASSERT_FALSE(tracked(g - 5 * GIB, 5 * GIB - 8));
    CU_ASSERT_TRUE(tracked(g + 8 - 3 * GIB, 3 * GIB));
    unmark(g - 8, 8);
    CU_ASSERT_FALSE(tracked(g - 1, 1));
    CU_ASSERT_TRUE(tracked(g, 8));
    sched_access_reset();
    CU_ASSERT_FALSE(tracked(g, 8));
}

/* Past the 47-bit user address space nothing is tracked: the page table's
 * index wraps there, and the exact ranges must say no. */
static void test_high_addresses(void) {
    sched_access_reset();
    uintptr_t high = (uintptr_t)1 << 47;
    mark(high + 4096, 64);
    CU_ASSERT_FALSE(tracked(high + 4096, 64));
    mark(4096, 64); /* the low address a masked index would alias */
    CU_ASSERT_TRUE(tracked(4096, 1));
    CU_ASSERT_FALSE(tracked(high + 4096, 64));
    mark(high - 8, 64); /* only its part below the limit */
    CU_ASSERT_TRUE(tracked(high - 8, 8));
    sched_access_reset();
}

/* Random marks and unmarks against a byte-by-byte count, over a window
 * across a GiB boundary. */
static void test_random_against_counts(void) {
    sched_access_reset();
    enum { WINDOW = 20000 };
    uintptr_t base = 5 * GIB - 7000;
    int *count = g_new0(int, WINDOW);
    GRand *rng = g_rand_new_with_seed(2024);
    bool all_ok = true;
    for (int op = 0; op < 3000 && all_ok; op++) {
        int lo = g_rand_int_range(rng, 0, WINDOW);
        int len = g_rand_int_range(rng, 1, g_rand_boolean(rng) ? 64 : 9000);
        int hi = lo + len > WINDOW ? WINDOW : lo + len;
        bool add = g_rand_int_range(rng, 0, 5) < 3;
        if (add)
            mark(base + (uintptr_t)lo, (size_t)(hi - lo));
        else
            unmark(base + (uintptr_t)lo, (size_t)(hi - lo));
        for (int k = lo; k < hi; k++)
            count[k] = add ? count[k] + 1 : (count[k] > 0 ? count[k] - 1 : 0);
        for (int q = 0; q < 40; q++) {
            int a = g_rand_int_range(rng, 0, WINDOW);
            int b = a + g_rand_int_range(rng, 1, 300);
            if (b > WINDOW)
                b = WINDOW;
            bool want = false;
            for (int k = a; k < b; k++)
                want = want || count[k] > 0;
            all_ok = all_ok && tracked(base + (uintptr_t)a, (size_t)(b - a)) == want;
        }
        if (op % 250 == 0)
            for (int k = 0; k < WINDOW; k++)
                all_ok = all_ok && tracked(base + (uintptr_t)k, 1) == (count[k] > 0);
    }
    CU_ASSERT_TRUE(all_ok);
    g_rand_free(rng);
    g_free(count);
    sched_access_reset();
}

/* ---- snapshots ----------------------------------------------------------- */

typedef struct notes {
    int inside_ok; /* what the snapshot's branch saw */
} notes;

static notes *g_notes;
static char g_bss[4096];

static int setup(void) {
    g_notes =
        mmap(NULL, sizeof *g_notes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (g_notes == MAP_FAILED)
        return 1;
    if (ckpt_mem_unavailable())
        return 0;
    ckpt_mem_prepare();
    char *err = NULL;
    bool ok = ckpt_mem_init(&err);
    g_free(err);
    return ok ? 0 : 1;
}

/* Marks made before a snapshot come back with it, those made after it go,
 * counts included; the tables work on afterwards. */
static void test_snapshot(void) {
    sched_access_reset();
    char *heap = malloc(256);
    char on_stack[64]; /* far from the heap: its own GiB table */
    memset(on_stack, 0, sizeof on_stack);
    sched_access_mark(heap, 256);
    sched_access_mark(heap, 16);
    sched_access_mark(g_bss, 8);
    g_notes->inside_ok = 0;
    ckpt_mem_result r = ckpt_mem_take();
    if (r == CKPT_MEM_TAKEN) {
        sched_access_unmark(heap, 256);
        sched_access_unmark(heap, 16);
        sched_access_unmark(g_bss, 8);
        sched_access_mark(on_stack, sizeof on_stack);
        sched_access_mark(g_bss + 100, 8);
        g_notes->inside_ok = !sched_access_tracked(heap, 256) && !sched_access_tracked(g_bss, 8) &&
                             sched_access_tracked(on_stack, 1) &&
                             sched_access_tracked(g_bss + 100, 1);
        ckpt_mem_restore();
    }
    CU_ASSERT_EQUAL(r, CKPT_MEM_RESUMED);
    CU_ASSERT_TRUE(g_notes->inside_ok);
    CU_ASSERT_TRUE(sched_access_tracked(heap, 1));
    CU_ASSERT_TRUE(sched_access_tracked(heap + 255, 1));
    CU_ASSERT_TRUE(sched_access_tracked(g_bss, 8));
    CU_ASSERT_FALSE(sched_access_tracked(on_stack, sizeof on_stack));
    CU_ASSERT_FALSE(sched_access_tracked(g_bss + 100, 8));
    /* The counts came back too: heap[0, 16) was marked twice. */
    sched_access_unmark(heap, 256);
    CU_ASSERT_TRUE(sched_access_tracked(heap, 16));
    CU_ASSERT_FALSE(sched_access_tracked(heap + 16, 240));
    sched_access_unmark(heap, 16);
    CU_ASSERT_FALSE(sched_access_tracked(heap, 256));
    sched_access_mark(on_stack, sizeof on_stack);
    CU_ASSERT_TRUE(sched_access_tracked(on_stack, 1));
    sched_access_reset();
    CU_ASSERT_FALSE(sched_access_tracked(on_stack, sizeof on_stack));
    CU_ASSERT_FALSE(sched_access_tracked(g_bss, 8));
    free(heap);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("access", setup, NULL);
    CU_add_test(s, "marks are exact at their edges", test_edges);
    CU_add_test(s, "marks are counted per byte", test_counted);
    CU_add_test(s, "the page table follows the marks", test_pages);
    CU_add_test(s, "nothing is tracked past the user address space", test_high_addresses);
    CU_add_test(s, "random marks against byte counts", test_random_against_counts);
    test_add_unless(s, "snapshots keep the marks made before them (copy backend)", test_snapshot,
                    ckpt_mem_unavailable());
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)(CU_get_number_of_failures() + CU_get_number_of_suites_failed());
    CU_cleanup_registry();
    return failed != 0;
}
