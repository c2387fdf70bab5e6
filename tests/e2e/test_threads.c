/*
 * test_threads.c - `ordex run --threads` (every rank an OS thread of its own,
 * handed control one at a time) must give exactly what the default fiber
 * backend gives: the same program output, exit status, findings and finding
 * locations, whether the run ends normally, deadlocks, crashes, overflows a
 * stack or runs away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define S(rel) e2e_src(rel)
#define FAULT "/* FAULT */"
#define FAULT_END "/* FAULT_END */"

/* stderr without what legitimately differs between two runs: the summary
 * line (predicted time and elapsed time are measured with the wall clock) and
 * backtrace frames outside the program, which show raw addresses of the C
 * library (randomised per process). */
static char *stable_report(const char *err) {
    char **lines = g_strsplit(err, "\n", -1);
    GString *s = g_string_new(NULL);
    for (int i = 0; lines[i]; i++) {
        const char *l = lines[i];
        const char *t = l + strspn(l, " ");
        bool summary = g_str_has_prefix(l, "ordex: ") && strstr(l, " s to simulate");
        bool raw_frame = t[0] == '#' && strstr(t, " 0x") && !strchr(t, '(');
        if (!summary && !raw_frame)
            g_string_append_printf(s, "%s\n", l);
    }
    g_strfreev(lines);
    return g_string_free(s, FALSE);
}

/* Runs `ordex run ARGS...` with fibers and with --threads; both must end
 * with want_status and agree on stdout and on the report.  Returns the
 * threads run (the caller frees it) for further checks. */
static e2e_result *both(int want_status, const char *const *args) {
    GPtrArray *fib = g_ptr_array_new();
    GPtrArray *thr = g_ptr_array_new();
    g_ptr_array_add(fib, "run");
    g_ptr_array_add(thr, "run");
    g_ptr_array_add(thr, "--threads");
    for (int i = 0; args[i]; i++) {
        g_ptr_array_add(fib, (gpointer)args[i]);
        g_ptr_array_add(thr, (gpointer)args[i]);
    }
    g_ptr_array_add(fib, NULL);
    g_ptr_array_add(thr, NULL);
    e2e_result *f = e2e_ordex_runv((const char *const *)fib->pdata);
    e2e_result *t = e2e_ordex_runv((const char *const *)thr->pdata);
    g_ptr_array_free(fib, TRUE);
    g_ptr_array_free(thr, TRUE);

    e2e_check(f->status == want_status, f, "fibers: expected exit status", __FILE__, __LINE__);
    e2e_check(t->status == want_status, t, "threads: expected exit status", __FILE__, __LINE__);
    e2e_check(strcmp(f->out, t->out) == 0, t, "threads: the same stdout as fibers", __FILE__,
              __LINE__);
    char *fr = stable_report(f->err), *tr = stable_report(t->err);
    bool same = strcmp(fr, tr) == 0;
    if (!same)
        printf("\n--- report with fibers ---\n%s--- report with threads ---\n%s", fr, tr);
    e2e_check(same, t, "threads: the same findings and locations as fibers", __FILE__, __LINE__);
    g_free(fr);
    g_free(tr);
    /* Both backends are exercised for real: the fiber run did not take the
     * option, the thread run did not refuse it. */
    EXPECT_ERR_LACKS(t, "Unknown option");
    e2e_free(f);
    return t;
}

#define BOTH(status, ...) both((status), (const char *const[]){__VA_ARGS__, NULL})

static void test_ring(void) {
    e2e_result *t = BOTH(0, "-n", "4", S("examples/ring.c"), "3");
    EXPECT_CLEAN(t);
    EXPECT_MPICH_OUTPUT(t, "ring.n4.k3");
    e2e_free(t);
}

static void test_heat(void) {
    e2e_result *t = BOTH(0, "-n", "4", S("examples/heat.c"));
    EXPECT_CLEAN(t);
    EXPECT_MPICH_OUTPUT(t, "heat.n4");
    e2e_free(t);
}

static void test_mergesort(void) {
    e2e_result *t = BOTH(0, "-n", "4", S("examples/mergesort.c"));
    EXPECT_CLEAN(t);
    e2e_free(t);
    /* A random schedule is reproducible per seed with either backend. */
    t = BOTH(0, "--seed", "7", "-n", "4", S("examples/mergesort.c"));
    e2e_free(t);
}

static void test_deadlock_else(void) {
    e2e_result *t = BOTH(1, "-n", "3", S("examples/deadlock_else.c"));
    g_free(
        EXPECT_FINDING(t, 1, "deadlock", "1 rank blocked", "examples/deadlock_else.c", "[RECV]"));
    e2e_free(t);
}

static void test_segv(void) {
    e2e_result *t = BOTH(1, "-n", "4", S("tests/programs/segv.c"));
    g_free(
        EXPECT_FINDING(t, 1, "crash", "rank 1 crashed: SIGSEGV", "tests/programs/segv.c", FAULT));
    e2e_free(t);
}

static void test_abort(void) {
    /* abort() raises SIGABRT in the calling thread: the rank's own. */
    e2e_result *t = BOTH(1, "-n", "4", S("tests/programs/assert_fail.c"));
    g_free(EXPECT_FINDING(t, 1, "crash", "rank 2 crashed: SIGABRT", "tests/programs/assert_fail.c",
                          FAULT));
    e2e_free(t);
}

static void test_stack_overflow(void) {
    /* The fault lands in the guard page below the rank's stack, and the
     * handler runs on the rank thread's own alternate signal stack. */
    e2e_result *t = BOTH(1, "-n", "4", S("tests/programs/stack_overflow.c"));
    g_free(EXPECT_FINDING_IN(t, 1, "crash", "rank 1 overflowed its stack",
                             "tests/programs/stack_overflow.c", FAULT, FAULT_END));
    e2e_free(t);
    /* A small stack: the thread's own bookkeeping must not eat into it, or the
     * recursion depth (and so the backtrace) would differ. */
    t = BOTH(1, "--stack-size", "64KiB", "-n", "2", S("tests/programs/stack_overflow.c"));
    g_free(EXPECT_FINDING_IN(t, 1, "crash", "rank 1 overflowed its stack",
                             "tests/programs/stack_overflow.c", FAULT, FAULT_END));
    e2e_free(t);
}

static void test_livelock(void) {
    /* The profiling timer's signal must end the running rank's thread. */
    e2e_result *t = BOTH(1, "--step-timeout", "1", "-n", "4", S("tests/programs/livelock.c"));
    g_free(EXPECT_FINDING_IN(t, 1, "livelock", "rank 1 ran past the step timeout of 1 s",
                             "tests/programs/livelock.c", FAULT, FAULT_END));
    e2e_free(t);
}

static void test_collectives(void) {
    e2e_result *t = BOTH(0, "-n", "4", S("tests/programs/collectives.c"));
    EXPECT_CLEAN(t);
    EXPECT_MPICH_OUTPUT(t, "collectives.n4");
    e2e_free(t);
    t = BOTH(0, "-n", "3", S("tests/programs/collectives.c"));
    EXPECT_MPICH_OUTPUT(t, "collectives.n3");
    e2e_free(t);
}

static void test_exit_code(void) {
    e2e_result *t = BOTH(1, "-n", "4", S("tests/programs/exit_code.c"));
    g_free(EXPECT_FINDING(t, 1, "crash", "rank 2 exited with status 3", NULL, NULL));
    e2e_free(t);
}

static void test_many_ranks(void) {
    /* Hundreds of threads start, hand over thousands of times and end. */
    e2e_result *t = BOTH(0, "-n", "300", S("examples/ring.c"), "4");
    EXPECT_OUT_HAS(t, "rank 0: final token 1200 after 4 rounds\n");
    e2e_free(t);
}

static void test_explore_refuses(void) {
    /* Exploration forks snapshots, which threads do not survive. */
    e2e_result *r = e2e_ordex_run("explore", "--threads", "-n", "2", S("examples/ring.c"), NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "--threads");
    e2e_free(r);
}

static void e2e_add_thread_tests(CU_pSuite s) {
    CU_add_test(s, "ring -n 4: threads = fibers", test_ring);
    CU_add_test(s, "heat -n 4: threads = fibers", test_heat);
    CU_add_test(s, "mergesort -n 4 (and --seed 7): threads = fibers", test_mergesort);
    CU_add_test(s, "deadlock_else -n 3: threads = fibers", test_deadlock_else);
    CU_add_test(s, "segv: threads = fibers", test_segv);
    CU_add_test(s, "assert_fail (SIGABRT): threads = fibers", test_abort);
    CU_add_test(s, "stack_overflow (8MiB, 64KiB): threads = fibers", test_stack_overflow);
    CU_add_test(s, "livelock --step-timeout 1: threads = fibers", test_livelock);
    CU_add_test(s, "collectives -n 4, -n 3: threads = fibers", test_collectives);
    CU_add_test(s, "exit_code: threads = fibers", test_exit_code);
    CU_add_test(s, "ring -n 300: threads = fibers", test_many_ranks);
    CU_add_test(s, "explore --threads is refused", test_explore_refuses);
}

E2E_MAIN("threads", e2e_add_thread_tests)
