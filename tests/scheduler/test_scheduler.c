/*
 * test_scheduler.c - unit tests of the per-rank arenas and of fiber contexts.
 */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <glib.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <signal.h>
#include <stdio.h>

#include "scheduler/arena.h"
#include "scheduler/context.h"
#include "scheduler/loader.h"
#include "scheduler/sched.h"
#include "tests/skip.h"

/* ---- arenas ---- */

static void test_arena_deterministic(void) {
    /* The same sequence of calls gives the same addresses, rank by rank. */
    uintptr_t first[8];
    for (int round = 0; round < 2; round++) {
        CU_ASSERT_FATAL(sched_arenas_reserve(4, 1 << 24));
        sched_arena *a = sched_arena_of(2);
        void *p[8];
        for (int i = 0; i < 8; i++)
            p[i] = sched_arena_malloc(a, (size_t)(i * 100 + 1));
        sched_arena_free(p[3]);
        void *q = sched_arena_malloc(a, 301);
        CU_ASSERT_PTR_EQUAL(q, p[3]); /* LIFO reuse of the same class */
        for (int i = 0; i < 8; i++) {
            if (round == 0)
                first[i] = (uintptr_t)p[i];
            else
                CU_ASSERT_EQUAL((uintptr_t)p[i], first[i]);
        }
        sched_arenas_release();
    }
}

static void test_arena_owner_and_alignment(void) {
    CU_ASSERT_FATAL(sched_arenas_reserve(3, 1 << 24));
    for (int r = 0; r < 3; r++) {
        void *p = sched_arena_malloc(sched_arena_of(r), 40);
        CU_ASSERT_PTR_EQUAL(sched_arena_owning(p), sched_arena_of(r));
        CU_ASSERT_EQUAL((uintptr_t)p % 16, 0);
        void *q = sched_arena_memalign(sched_arena_of(r), 4096, 100);
        CU_ASSERT_EQUAL((uintptr_t)q % 4096, 0);
        CU_ASSERT_PTR_EQUAL(sched_arena_owning(q), sched_arena_of(r));
        memset(q, 0xab, 100);
        sched_arena_free(q);
    }
    int on_stack;
    CU_ASSERT_PTR_NULL(sched_arena_owning(&on_stack));
    sched_arenas_release();
}

static void test_arena_large_reuse(void) {
    CU_ASSERT_FATAL(sched_arenas_reserve(1, 1 << 26));
    sched_arena *a = sched_arena_of(0);
    char *big = sched_arena_malloc(a, 1 << 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    CU_ASSERT(sched_arena_usable(big) >= (1 << 20));
    memset(big, 1, 1 << 20);
    size_t in_use = sched_arena_in_use(a);
    sched_arena_free(big);
    CU_ASSERT(sched_arena_in_use(a) < in_use);
    char *again = sched_arena_malloc(a, 1 << 19); /* first fit reuses the freed range */
    CU_ASSERT_PTR_EQUAL(again, big);
    sched_arenas_release();
}

static void test_arena_exhaustion(void) {
    CU_ASSERT_FATAL(sched_arenas_reserve(2, 1 << 20));
    sched_arena *a = sched_arena_of(0);
    CU_ASSERT_PTR_NULL(sched_arena_malloc(a, 2 << 20));
    CU_ASSERT(sched_arena_exhausted(a));
    /* The neighbour's arena is untouched by the failed request. */
    CU_ASSERT_PTR_NOT_NULL(sched_arena_malloc(sched_arena_of(1), 1000));
    sched_arenas_release();
}

/* Every byte of a live block leads back to it, with the size the program
 * asked for; freed chunks, headers and the padding of aligned blocks do
 * not; large blocks, split and merged free ranges and the filler before a
 * page-aligned chunk keep the chunks walkable. */
static void expect_block(const void *p, const void *start, size_t size) {
    sched_heap_block b = {0};
    CU_ASSERT_EQUAL_FATAL(sched_arena_block_of(p, &b), SCHED_HEAP_BLOCK);
    CU_ASSERT_PTR_EQUAL(b.start, start);
    CU_ASSERT_EQUAL(b.size, size);
    CU_ASSERT(b.usable >= size);
}

static void test_arena_block_lookup(void) {
    CU_ASSERT_FATAL(sched_arenas_reserve(2, 1 << 26));
    sched_arena *a = sched_arena_of(1);
    enum { N = 600 };
    char *p[N];
    size_t sz[N];
    for (int i = 0; i < N; i++) {
        /* mostly small, now and then a large one (page-aligned, with a filler before it) */
        sz[i] = i % 97 == 5 ? (size_t)(70000 + i * 13) : (size_t)(i * 37 % 3000 + 1);
        p[i] = sched_arena_malloc(a, sz[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p[i]);
    }
    for (int i = 0; i < N; i++) {
        expect_block(p[i], p[i], sz[i]);
        expect_block(p[i] + sz[i] - 1, p[i], sz[i]);
        expect_block(p[i] + sz[i] / 2, p[i], sz[i]);
    }
    /* Just past a block whose size fills its class: the next chunk's header. */
    char *full = sched_arena_malloc(a, 48), *after = sched_arena_malloc(a, 48);
    expect_block(full + 48, full, 48);
    expect_block(after, after, 48);
    sched_heap_block b;
    for (int i = 0; i < N; i += 3)
        sched_arena_free(p[i]);
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0) {
            CU_ASSERT_EQUAL(sched_arena_block_of(p[i], &b), SCHED_HEAP_FREED);
        } else {
            expect_block(p[i] + sz[i] - 1, p[i], sz[i]);
        }
        CU_ASSERT_EQUAL(sched_arena_block_is(p[i], sz[i]), i % 3 != 0);
    }
    /* Reuse: a freed small chunk with another request size, and a freed
     * large range split for a smaller large block. */
    char *again = sched_arena_malloc(a, sz[3] > 8 ? sz[3] - 7 : sz[3]);
    expect_block(again + 1, again, sz[3] > 8 ? sz[3] - 7 : sz[3]);
    char *big = sched_arena_malloc(a, 1 << 20), *big2 = sched_arena_malloc(a, 1 << 20);
    sched_arena_free(big);
    sched_arena_free(big2); /* merged with the range before it */
    char *part = sched_arena_malloc(a, 300000);
    CU_ASSERT_PTR_EQUAL(part, big);
    expect_block(part + 299999, part, 300000);
    CU_ASSERT_EQUAL(sched_arena_block_of(part + 300000 + 8192, &b), SCHED_HEAP_FREED);
    CU_ASSERT_EQUAL(sched_arena_block_of(big2 + 10, &b), SCHED_HEAP_FREED);
    /* Aligned blocks: the padding before the block belongs to none. */
    char *al = sched_arena_memalign(a, 256, 1000);
    expect_block(al + 999, al, 1000);
    CU_ASSERT_EQUAL(sched_arena_block_of(al - 1, &b), SCHED_HEAP_NONE);
    sched_arena_free(al);
    CU_ASSERT_FALSE(sched_arena_block_is(al, 1000));
    /* realloc in place: the new size counts. */
    char *r = sched_arena_malloc(a, 100);
    sched_arena_resize(r, 90);
    expect_block(r + 10, r, 90);
    /* Outside the allocated range and outside the arenas. */
    int local;
    CU_ASSERT_EQUAL(sched_arena_block_of(&local, &b), SCHED_HEAP_NONE);
    CU_ASSERT_EQUAL(sched_arena_block_of((char *)sched_arena_base(sched_arena_of(0)), &b),
                    SCHED_HEAP_NONE);
    sched_arenas_release();
}

/* Sizes whose product with the rank count wraps around 2^64 reserved a
 * small range, and the arenas were laid out far beyond it (a crash at the
 * first allocation); a product of exactly 2^64 asked for 0 bytes. */
static void test_arena_reserve_bounds(void) {
    CU_ASSERT_FALSE(sched_arenas_reserve(4, (size_t)4611686018427453440ull)); /* 2^62 + 64 KiB */
    CU_ASSERT_FALSE(sched_arenas_reserve(4, (size_t)1 << 62));                /* exactly 2^64 */
    CU_ASSERT_FALSE(sched_arenas_reserve(2, SIZE_MAX));
    CU_ASSERT_FALSE(sched_arenas_reserve(1000000, (size_t)1 << 40)); /* past 128 TiB */
    CU_ASSERT_FALSE(sched_arenas_reserve(0, 1 << 20));
    CU_ASSERT_FALSE(sched_arenas_reserve(2, 0));
    const void *start;
    size_t len;
    int count;
    sched_arenas_span(&start, &len, &count);
    CU_ASSERT_EQUAL(count, 0); /* nothing reserved by the refusals */
    CU_ASSERT_FATAL(sched_arenas_reserve(3, (size_t)1 << 20));
    sched_arenas_span(&start, &len, &count);
    CU_ASSERT_EQUAL(len, (size_t)3 << 20);
    sched_arenas_release();
}

/* Requests near SIZE_MAX: the page rounding of a large chunk wrapped
 * around, and malloc(SIZE_MAX) returned a 4 KiB chunk. */
static void test_arena_huge_requests(void) {
    CU_ASSERT_FATAL(sched_arenas_reserve(1, 1 << 20));
    sched_arena *a = sched_arena_of(0);
    CU_ASSERT_EQUAL(sched_arena_refused(a), 0);
    CU_ASSERT_EQUAL(sched_arena_size(a), (size_t)1 << 20);
    CU_ASSERT_PTR_NULL(sched_arena_malloc(a, SIZE_MAX));
    CU_ASSERT_EQUAL(sched_arena_refused(a), SIZE_MAX);
    CU_ASSERT_PTR_NULL(sched_arena_malloc(a, SIZE_MAX - 4000));
    CU_ASSERT_PTR_NULL(sched_arena_memalign(a, 4096, SIZE_MAX - 100));
    CU_ASSERT_EQUAL(sched_arena_refused(a), SIZE_MAX - 100);
    CU_ASSERT_PTR_NULL(sched_arena_memalign(a, (size_t)1 << 63, 64));
    CU_ASSERT_PTR_NULL(sched_arena_malloc(a, 2 << 20)); /* more than the arena */
    CU_ASSERT_EQUAL(sched_arena_refused(a), (size_t)2 << 20);
    CU_ASSERT(sched_arena_exhausted(a));
    void *p = sched_arena_malloc(a, 1000); /* what fits still does */
    CU_ASSERT_PTR_NOT_NULL(p);
    CU_ASSERT_PTR_EQUAL(sched_arena_owning(p), a);
    CU_ASSERT_EQUAL(sched_arena_refused(a), (size_t)2 << 20);
    sched_arenas_release();
}

static void test_heap_dispatch(void) {
    /* malloc goes to the current arena; free and realloc follow the address. */
    CU_ASSERT_FATAL(sched_arenas_reserve(2, 1 << 24));
    sched_arena_current = sched_arena_of(1);
    char *p = malloc(64);
    char *z = calloc(16, 4);
    sched_arena_current = NULL;
    char *libc = malloc(64);
    CU_ASSERT_PTR_EQUAL(sched_arena_owning(p), sched_arena_of(1));
    CU_ASSERT_PTR_NULL(sched_arena_owning(libc));
    for (int i = 0; i < 64; i++)
        CU_ASSERT_EQUAL(z[i], 0);
    strcpy(p, "rank data");
    char *grown = realloc(p, 4000); /* grows inside the rank's arena */
    CU_ASSERT_PTR_EQUAL(sched_arena_owning(grown), sched_arena_of(1));
    CU_ASSERT_STRING_EQUAL(grown, "rank data");
    free(grown);
    free(z);
    free(libc);
    sched_arenas_release();
}

/* ---- contexts ---- */

static sched_ctx g_main, g_a, g_b;
static GString *g_trace;

static void fiber_a(void *arg) {
    for (int i = 0; i < 3; i++) {
        g_string_append_printf(g_trace, "a%d(%s) ", i, (const char *)arg);
        sched_ctx_switch(&g_a, &g_b);
    }
    sched_ctx_switch(&g_a, &g_main);
}

static void fiber_b(void *arg) {
    double x = 1.5; /* floating point state survives switches */
    for (int i = 0; i < 3; i++) {
        x *= 2;
        g_string_append_printf(g_trace, "b%d(%g) ", i, x);
        sched_ctx_switch(&g_b, &g_a);
    }
}

static void test_context_switching(void) {
    g_trace = g_string_new(NULL);
    CU_ASSERT_FATAL(sched_ctx_make(&g_a, 65536, fiber_a, "x"));
    CU_ASSERT_FATAL(sched_ctx_make(&g_b, 65536, fiber_b, NULL));
    sched_ctx_switch(&g_main, &g_a);
    CU_ASSERT_STRING_EQUAL(g_trace->str, "a0(x) b0(3) a1(x) b1(6) a2(x) b2(12) ");
    CU_ASSERT(sched_ctx_in_guard(&g_a, (char *)g_a.stack_base + 8));
    CU_ASSERT(!sched_ctx_in_guard(&g_a, (char *)g_a.stack_base + g_a.guard_size + 64));
    sched_ctx_destroy(&g_a);
    sched_ctx_destroy(&g_b);
    g_string_free(g_trace, TRUE);
}

static void aligned_check(void *arg) {
    /* The ABI wants 16-byte stack alignment at calls; SSE spills fault otherwise. */
    volatile long double ld = 3.0L;
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    *(int *)arg = (int)(sp % 16 == 0) + (ld == 3.0L);
    sched_ctx_switch(&g_a, &g_main);
}

static void test_context_alignment(void) {
    int result = 0;
    CU_ASSERT_FATAL(sched_ctx_make(&g_a, 65536, aligned_check, &result));
    sched_ctx_switch(&g_main, &g_a);
    CU_ASSERT_EQUAL(result, 2);
    sched_ctx_destroy(&g_a);
}

/* ---- the run loop ---- */

static bool no_event(void *user) {
    (void)user;
    return false;
}

/* Loads tiny_program.so as two ranks with 1 MiB stacks; false (the test
 * failed) when it cannot.  *path is the program's, to g_free. */
static bool init_tiny(char **path) {
    const char *srcdir = getenv("TEST_SRCDIR");
    CU_ASSERT_PTR_NOT_NULL_FATAL(srcdir);
    *path = g_build_filename(srcdir, "ordex", "tests", "scheduler", "tiny_program.so", NULL);
    static char *argv[2];
    argv[0] = *path;
    sched_options o = {0};
    o.nranks = 2;
    o.stack_size = (size_t)1 << 20;
    o.heap_size = (size_t)1 << 24;
    o.step_timeout_s = 10;
    o.program = *path;
    o.argc = 1;
    o.argv = argv;
    o.out = stdout;
    o.err = stderr;
    char *err = NULL;
    bool ok = sched_init(&o, &err);
    CU_ASSERT(ok);
    if (!ok) {
        fprintf(stderr, "sched_init: %s\n", err);
        g_free(err);
    }
    return ok;
}

/* A profiling-timer tick that arrives after the scheduler has finished (the
 * kernel, or valgrind, may deliver one late) must not end the process. */
static void test_late_tick_after_fini(void) {
    char *path = NULL;
    if (init_tiny(&path)) {
        CU_ASSERT_EQUAL(sched_run(no_event, NULL), SCHED_RUN_COMPLETE);
        CU_ASSERT_EQUAL(sched_rank_exit_code(1), 0);
        sched_fini();
        raise(SIGPROF);
        CU_PASS("the process survived a late SIGPROF");
    }
    g_free(path);
}

/* A rank's stack is its whole mapping above the guard page, and a rank that
 * is not running has its saved stack pointer on it (in-process snapshots
 * copy the stack from there up). */
static void test_rank_stack(void) {
    char *path = NULL;
    if (init_tiny(&path)) {
        uintptr_t lo = 0, hi = 0, sp = 0, lo1 = 0, hi1 = 0, sp1 = 0;
        CU_ASSERT_TRUE(sched_rank_stack(0, &lo, &hi, &sp));
        CU_ASSERT_EQUAL(hi - lo, (uintptr_t)1 << 20);
        CU_ASSERT(sp >= lo && sp < hi);
        CU_ASSERT(hi - sp < 4096); /* not started: only the first frame */
        CU_ASSERT_TRUE(sched_rank_stack(1, &lo1, &hi1, &sp1));
        CU_ASSERT(hi1 <= lo || lo1 >= hi); /* stacks of their own */
        CU_ASSERT_FALSE(sched_rank_stack(2, &lo, &hi, &sp));
        CU_ASSERT_FALSE(sched_rank_stack(-1, &lo, &hi, &sp));
        CU_ASSERT_EQUAL(sched_run(no_event, NULL), SCHED_RUN_COMPLETE);
        sched_fini();
    }
    g_free(path);
}

/* Loaded objects whose path is `path` (all when NULL). */
typedef struct {
    const char *path;
    int n;
} object_count;

static int count_object(struct dl_phdr_info *info, size_t size, void *data) {
    object_count *c = data;
    if (!c->path || (info->dlpi_name && strcmp(info->dlpi_name, c->path) == 0))
        c->n++;
    return 0;
}

static int loaded_copies(const char *path) {
    object_count c = {path, 0};
    dl_iterate_phdr(count_object, &c);
    return c.n;
}

/* Every load is a fresh copy with globals of its own, also when the same
 * process loaded the program before, and the copies are on the dynamic
 * linker's list once loaded. */
static void test_fresh_copies(void) {
    char *path = NULL;
    if (!init_tiny(&path)) {
        g_free(path);
        return;
    }
    char *real = g_canonicalize_filename(path, NULL);
    int before = loaded_copies(real);
    uintptr_t bias[2] = {sched_image_bias(0), sched_image_bias(1)};
    GArray *regions[2];
    for (int r = 0; r < 2; r++) {
        regions[r] = g_array_new(FALSE, FALSE, sizeof(sched_region));
        sched_rank_regions(r, NULL, regions[r]);
    }
    /* The globals (the first region) of the two ranks are apart. */
    sched_region a = g_array_index(regions[0], sched_region, 0);
    sched_region b = g_array_index(regions[1], sched_region, 0);
    CU_ASSERT(a.len > 0 && b.len > 0);
    CU_ASSERT((const char *)a.start + a.len <= (const char *)b.start ||
              (const char *)b.start + b.len <= (const char *)a.start);
    CU_ASSERT_EQUAL(sched_run(no_event, NULL), SCHED_RUN_COMPLETE);
    sched_fini();
    /* Again in the same process: two more copies, at new addresses. */
    CU_ASSERT_FATAL(init_tiny(&path));
    CU_ASSERT_EQUAL(loaded_copies(real), before + 2);
    for (int r = 0; r < 2; r++) {
        CU_ASSERT_NOT_EQUAL(sched_image_bias(r), bias[0]);
        CU_ASSERT_NOT_EQUAL(sched_image_bias(r), bias[1]);
    }
    CU_ASSERT_NOT_EQUAL(sched_image_bias(0), sched_image_bias(1));
    CU_ASSERT_EQUAL(sched_run(no_event, NULL), SCHED_RUN_COMPLETE);
    sched_fini();
    for (int r = 0; r < 2; r++)
        g_array_free(regions[r], TRUE);
    g_free(real);
    g_free(path);
}

/* Whether a program may cancel a send is read from its dynamic symbol
 * table: MPI_Cancel, or the dynamic linker's lookups, through which it could
 * reach MPI_Cancel unnamed, say it may; the tiny program may not. */
static void test_program_may_cancel(void) {
    const char *srcdir = getenv("TEST_SRCDIR");
    CU_ASSERT_PTR_NOT_NULL_FATAL(srcdir);
    static const struct {
        const char *file;
        bool may;
    } cases[] = {
        {"tiny_program.so", false}, {"cancel_program.so", true}, {"dlsym_program.so", true}};
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *path = g_build_filename(srcdir, "ordex", "tests", "scheduler", cases[i].file, NULL);
        char *err = NULL;
        CU_ASSERT_TRUE(sched_program_check(path, &err));
        if (sched_program_may_cancel() != cases[i].may)
            fprintf(stderr, "%s: may cancel %d, expected %d\n", cases[i].file,
                    sched_program_may_cancel(), cases[i].may);
        CU_ASSERT_EQUAL(sched_program_may_cancel(), cases[i].may);
        g_free(err);
        g_free(path);
    }
    /* A file that is not a program leaves the answer on the safe side. */
    char *err = NULL;
    CU_ASSERT_FALSE(sched_program_check("/nonexistent/program.so", &err));
    CU_ASSERT_TRUE(sched_program_may_cancel());
    g_free(err);
}

/* sched_init failing after some copies were loaded (here: three stacks of
 * 50 TiB do not fit in the address space) leaves the dynamic linker's list
 * whole once sched_fini has run, as the run description's loader does.  The
 * copies were left off it: the process then died at exit on the dynamic
 * linker's own check ("_dl_fini: Assertion `ns != LM_ID_BASE || i ==
 * nloaded' failed", exit status 127). */
static void test_failed_init_restores_the_list(void) {
    const char *srcdir = getenv("TEST_SRCDIR");
    CU_ASSERT_PTR_NOT_NULL_FATAL(srcdir);
    char *path = g_build_filename(srcdir, "ordex", "tests", "scheduler", "tiny_program.so", NULL);
    char *real = g_canonicalize_filename(path, NULL);
    int before = loaded_copies(real);
    static char *argv[2];
    argv[0] = path;
    sched_options o = {0};
    o.nranks = 3;
    o.stack_size = (size_t)50 << 40;
    o.heap_size = (size_t)1 << 20;
    o.program = path;
    o.argc = 1;
    o.argv = argv;
    o.out = stdout;
    o.err = stderr;
    char *err = NULL;
    CU_ASSERT_FALSE(sched_init(&o, &err));
    CU_ASSERT(err && strstr(err, "cannot map a"));
    g_free(err);
    sched_fini();
    CU_ASSERT(loaded_copies(real) >= before + 2); /* ranks 0 and 1 at least were loaded */
    g_free(real);
    g_free(path);
}

/* The libraries every rank shares are the system's; the user's own, also
 * under /usr/local or reached through a path that leaves /usr/lib, are
 * loaded once per rank. */
static void test_system_libraries(void) {
    CU_ASSERT_TRUE(sched_is_system_library("/usr/lib/x86_64-linux-gnu/libm.so.6"));
    CU_ASSERT_TRUE(sched_is_system_library("/lib/x86_64-linux-gnu/libc.so.6"));
    CU_ASSERT_TRUE(sched_is_system_library("/lib64/ld-linux-x86-64.so.2"));
    CU_ASSERT_FALSE(sched_is_system_library("/usr/local/lib/libmylib.so"));
    CU_ASSERT_FALSE(sched_is_system_library("/home/user/lib/libmylib.so"));
    CU_ASSERT_FALSE(sched_is_system_library("/opt/hdf5/lib/libhdf5.so"));
    CU_ASSERT_FALSE(sched_is_system_library("/usr/libexec/libx.so"));
    /* Resolved before it is judged. */
    char *dir = g_dir_make_tmp("loader-test-XXXXXX", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char *lib = g_build_filename(dir, "libmine.so", NULL);
    CU_ASSERT_TRUE(g_file_set_contents(lib, "", 0, NULL));
    char *sneaky = g_strdup_printf("/usr/lib/../..%s", lib);
    CU_ASSERT_FALSE(sched_is_system_library(sneaky));
    char *link = g_build_filename(dir, "libm.so.6", NULL);
    CU_ASSERT_EQUAL(symlink("/lib/x86_64-linux-gnu/libm.so.6", link), 0);
    CU_ASSERT_TRUE(sched_is_system_library(link));
    unlink(link);
    unlink(lib);
    rmdir(dir);
    g_free(link);
    g_free(sneaky);
    g_free(lib);
    g_free(dir);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("scheduler", NULL, NULL);
    CU_add_test(s, "arena addresses are deterministic", test_arena_deterministic);
    CU_add_test(s, "arena ownership and alignment", test_arena_owner_and_alignment);
    CU_add_test(s, "large chunks are reused", test_arena_large_reuse);
    CU_add_test(s, "an address leads to its heap block", test_arena_block_lookup);
    CU_add_test(s, "a full arena fails alone", test_arena_exhaustion);
    CU_add_test(s, "arena reservations that overflow are refused", test_arena_reserve_bounds);
    CU_add_test(s, "requests near SIZE_MAX fail", test_arena_huge_requests);
    /* Under AddressSanitizer its allocator owns malloc: the dispatch to
     * arenas is not in effect, and loading ranks, which replaces malloc for
     * them, is refused. */
#ifdef __SANITIZE_ADDRESS__
    const char *asan = "built with AddressSanitizer, whose allocator owns malloc";
#else
    const char *asan = NULL;
#endif
    test_add_unless(s, "malloc family dispatch", test_heap_dispatch, asan);
    CU_add_test(s, "contexts switch and keep state", test_context_switching);
    CU_add_test(s, "new contexts are ABI-aligned", test_context_alignment);
    test_add_unless(s, "a late timer tick after sched_fini is harmless", test_late_tick_after_fini,
                    asan);
    test_add_unless(s, "a rank's stack and saved stack pointer", test_rank_stack, asan);
    test_add_unless(s, "every load is a fresh copy", test_fresh_copies, asan);
    test_add_unless(s, "a failed sched_init leaves the dynamic linker's list whole",
                    test_failed_init_restores_the_list, asan);
    CU_add_test(s, "system libraries are shared, the user's are not", test_system_libraries);
    CU_add_test(s, "programs that may cancel a send", test_program_may_cancel);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed != 0;
}
