/*
 * test_access_program.c - the instrumentation of a program's loads and
 * stores, end to end: access_program.c built by ordexcc (as a user builds
 * it), loaded as ranks and run; the callback must see exactly the accesses
 * the program announces, with their file:line, and nothing else.  The same
 * program built with --no-access-checks, as an older ordexcc built every
 * program, runs and reports nothing.  The compile cache builds instrumented
 * programs for run and plain ones for predict, and neither needs libtsan.
 */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <errno.h>
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/access_hook.h"
#include "scheduler/loader.h"
#include "scheduler/sched.h"
#include "scheduler/symbolize.h"
#include "tests/skip.h"
#include "toolchain/compile.h"

/* Loading ranks replaces their malloc, which a sanitizer forbids. */
#ifdef __SANITIZE_ADDRESS__
static const char *const g_skip = "built with AddressSanitizer, whose allocator owns malloc";
#else
static const char *const g_skip = NULL;
#endif

#define RANKS 2

typedef struct access_rec {
    int rank;
    uintptr_t addr;
    size_t size;
    bool is_write;
    int marker; /* expectations: the marker "@N" of the access's line */
    void *pc;   /* events: what the callback got */
} access_rec;

static GArray *g_expected, *g_seen; /* of access_rec */
static char *g_src;                 /* access_program.c */
static char *g_text;                /* its content */
static char *g_plain_so, *g_checked_so;

/* ---- what the program calls (exported: the test links with -rdynamic) --- */

void test_mark(const void *p, size_t n) {
    sched_access_mark(p, n);
}

void test_unmark(const void *p, size_t n) {
    sched_access_unmark(p, n);
}

void test_expect(const void *p, size_t n, int is_write, int marker) {
    sched_enter_sim(); /* the record goes to the test's heap, not the rank's */
    access_rec a = {sched_current(), (uintptr_t)p, n, is_write != 0, marker, NULL};
    g_array_append_val(g_expected, a);
    sched_leave_sim();
}

void test_call_as_ordex(void (*fn)(int *), int *p) {
    sched_enter_sim();
    fn(p);
    sched_leave_sim();
}

static void on_access(int rank, void *addr, size_t size, bool is_write, void *pc, void *user) {
    (void)user;
    access_rec a = {rank, (uintptr_t)addr, size, is_write, 0, pc};
    g_array_append_val(g_seen, a);
    errno = 0; /* the program must still see its own errno */
}

/* ---- helpers ------------------------------------------------------------- */

static int marker_line(int marker) {
    char *m = g_strdup_printf("/* @%d */", marker);
    const char *at = strstr(g_text, m);
    g_free(m);
    if (!at)
        return -1;
    int line = 1;
    for (const char *p = g_text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Runs ordexcc with args (NULL-terminated); true when it succeeded. */
static bool ordexcc(const char *const *args) {
    int n = 0;
    while (args[n])
        n++;
    return tc_cc(n, (char **)args) == 0;
}

/* stdout of a command, or NULL. */
static char *output_of(const char *const *argv) {
    char *out = NULL;
    int status = 1;
    if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                      NULL, NULL, &out, NULL, &status, NULL) ||
        !g_spawn_check_wait_status(status, NULL)) {
        g_free(out);
        return NULL;
    }
    return out;
}

/* Whether the shared object's dynamic section names libtsan, and whether it
 * calls __tsan_ functions: -1 when readelf cannot tell. */
static int needs_libtsan(const char *so) {
    const char *argv[] = {"readelf", "-d", so, NULL};
    char *out = output_of(argv);
    if (!out)
        return -1;
    int r = strstr(out, "NEEDED") == NULL ? -1 : strstr(out, "libtsan") != NULL;
    g_free(out);
    return r;
}

static int calls_tsan(const char *so) {
    const char *argv[] = {"nm", "-D", "--undefined-only", so, NULL};
    char *out = output_of(argv);
    if (!out)
        return -1;
    int r = strstr(out, "__tsan_write4") != NULL && strstr(out, "__wrap_memcpy") != NULL;
    g_free(out);
    return r;
}

static bool no_event(void *user) {
    (void)user;
    return false;
}

/* Loads so as RANKS ranks and runs them to their end; true when every rank
 * ended with status 0 (the program's own checks of the values it read). */
static bool run_program(const char *so) {
    static char *argv[2];
    argv[0] = (char *)so;
    sched_options o = {0};
    o.nranks = RANKS;
    o.stack_size = (size_t)1 << 20;
    o.heap_size = (size_t)1 << 24;
    o.step_timeout_s = 10;
    o.program = so;
    o.argc = 1;
    o.argv = argv;
    o.out = stdout;
    o.err = stderr;
    char *err = NULL;
    if (!sched_init(&o, &err)) {
        fprintf(stderr, "sched_init: %s\n", err);
        g_free(err);
        return false;
    }
    g_array_set_size(g_expected, 0);
    g_array_set_size(g_seen, 0);
    sched_access_set_hook(on_access, NULL);
    bool ok = sched_run(no_event, NULL) == SCHED_RUN_COMPLETE;
    sched_access_set_hook(NULL, NULL);
    for (int r = 0; r < RANKS; r++) {
        if (sched_rank_state(r) != SCHED_DONE || sched_rank_exit_code(r) != 0) {
            fprintf(stderr, "rank %d: state %d, exit code %d\n", r, (int)sched_rank_state(r),
                    sched_rank_exit_code(r));
            ok = false;
        }
    }
    return ok;
}

/* ---- the suite ------------------------------------------------------------- */

static int suite_init(void) {
    const char *srcdir = getenv("TEST_SRCDIR"), *tmp = getenv("TEST_TMPDIR");
    if (!srcdir || !tmp)
        return 1;
    char *cache = g_build_filename(tmp, "cache", NULL);
    g_setenv("ORDEX_CACHE", cache, TRUE);
    g_free(cache);
    g_src = g_build_filename(srcdir, "ordex", "tests", "scheduler", "access_program.c", NULL);
    if (!g_file_get_contents(g_src, &g_text, NULL, NULL))
        return 1;
    g_checked_so = g_build_filename(tmp, "access_checked.so", NULL);
    g_plain_so = g_build_filename(tmp, "access_plain.so", NULL);
    const char *checked[] = {"-o", g_checked_so, g_src, NULL};
    const char *plain[] = {"--no-access-checks", "-o", g_plain_so, g_src, NULL};
    if (!ordexcc(checked) || !ordexcc(plain))
        return 1;
    g_expected = g_array_new(FALSE, FALSE, sizeof(access_rec));
    g_seen = g_array_new(FALSE, FALSE, sizeof(access_rec));
    return 0;
}

static void test_build(void) {
    CU_ASSERT_EQUAL(needs_libtsan(g_checked_so), 0);
    CU_ASSERT_EQUAL(needs_libtsan(g_plain_so), 0);
    CU_ASSERT_EQUAL(calls_tsan(g_checked_so), 1);
    CU_ASSERT_EQUAL(calls_tsan(g_plain_so), 0);
    char *err = NULL;
    CU_ASSERT_TRUE(sched_program_check(g_checked_so, &err));
    CU_ASSERT_TRUE(sched_program_instrumented());
    CU_ASSERT_TRUE(sched_program_check(g_plain_so, &err));
    CU_ASSERT_FALSE(sched_program_instrumented());
    g_free(err);
}

/* Every announced access is seen, in order, with its rank, address, size,
 * direction and line; nothing else is. */
static void test_instrumented_run(void) {
    CU_ASSERT_TRUE_FATAL(run_program(g_checked_so));
    CU_ASSERT_TRUE(sched_access_instrumented());
    CU_ASSERT(g_expected->len >= 2 * 37);
    CU_ASSERT_EQUAL(g_seen->len, g_expected->len);
    bool ranks_seen[RANKS] = {false};
    for (guint i = 0; i < g_expected->len && i < g_seen->len; i++) {
        const access_rec *e = &g_array_index(g_expected, access_rec, i);
        const access_rec *s = &g_array_index(g_seen, access_rec, i);
        int line = marker_line(e->marker);
        char *want = g_strdup_printf("access_program.c:%d", line);
        const char *got = sched_symbolize_line(s->pc, false);
        const char *got_ret = sched_symbolize_line(s->pc, true);
        bool same = s->rank == e->rank && s->addr == e->addr && s->size == e->size &&
                    s->is_write == e->is_write && got && strcmp(got, want) == 0 && got_ret &&
                    strcmp(got_ret, want) == 0;
        if (!same)
            fprintf(stderr,
                    "access %u: expected rank %d %s of %zu bytes at %#lx at %s; seen rank %d "
                    "%s of %zu bytes at %#lx at %s\n",
                    i, e->rank, e->is_write ? "write" : "read", e->size, (unsigned long)e->addr,
                    want, s->rank, s->is_write ? "write" : "read", s->size, (unsigned long)s->addr,
                    got ? got : "?");
        CU_ASSERT_TRUE(same);
        CU_ASSERT_TRUE(e->rank >= 0 && e->rank < RANKS);
        if (e->rank >= 0 && e->rank < RANKS)
            ranks_seen[e->rank] = true;
        g_free(want);
    }
    for (int r = 0; r < RANKS; r++)
        CU_ASSERT_TRUE(ranks_seen[r]);
    if (g_seen->len > g_expected->len) {
        const access_rec *s = &g_array_index(g_seen, access_rec, g_expected->len);
        fprintf(stderr, "unexpected: rank %d %s of %zu bytes at %#lx at %s\n", s->rank,
                s->is_write ? "write" : "read", s->size, (unsigned long)s->addr,
                sched_symbolize(s->pc, false));
    }
    sched_fini();
}

/* Built as an older ordexcc built programs: it runs (its atomics are its
 * own), and nothing is reported although it marks memory. */
static void test_plain_run(void) {
    CU_ASSERT_TRUE(run_program(g_plain_so));
    CU_ASSERT_FALSE(sched_access_instrumented());
    CU_ASSERT(g_expected->len > 0);
    CU_ASSERT_EQUAL(g_seen->len, 0);
    sched_fini();
    CU_ASSERT_FALSE(sched_access_instrumented());
}

/* `ordex run prog.c` and `ordex predict prog.c` get two cache entries, the
 * first instrumented, the second not; each is found again. */
static void test_cache(void) {
    char *run = tc_compile_cached(g_src, true, false, true);
    char *predict = tc_compile_cached(g_src, true, true, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run);
    CU_ASSERT_PTR_NOT_NULL_FATAL(predict);
    CU_ASSERT_STRING_NOT_EQUAL(run, predict);
    CU_ASSERT_EQUAL(calls_tsan(run), 1);
    CU_ASSERT_EQUAL(calls_tsan(predict), 0);
    CU_ASSERT_EQUAL(needs_libtsan(run), 0);
    CU_ASSERT_EQUAL(needs_libtsan(predict), 0);
    char *run2 = tc_compile_cached(g_src, true, false, true);
    char *predict2 = tc_compile_cached(g_src, true, true, false);
    CU_ASSERT(run2 && strcmp(run, run2) == 0);
    CU_ASSERT(predict2 && strcmp(predict, predict2) == 0);
    g_free(run);
    g_free(predict);
    g_free(run2);
    g_free(predict2);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("access_program", suite_init, NULL);
    CU_add_test(s, "ordexcc: instrumented without libtsan, or not at all", test_build);
    test_add_unless(s, "the callback sees exactly the announced accesses", test_instrumented_run,
                    g_skip);
    test_add_unless(s, "a program without the instrumentation runs, unseen", test_plain_run,
                    g_skip);
    CU_add_test(s, "the compile cache: run and predict builds", test_cache);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)(CU_get_number_of_failures() + CU_get_number_of_suites_failed());
    CU_cleanup_registry();
    return failed != 0;
}
