/*
 * test_shmem_order.c - OpenSHMEM's own choices explored: the order in which
 * concurrent atomics of different PEs apply, which PE a contended lock goes
 * to, and whether a shmem_test or shmem_test_lock that could succeed says
 * "not yet" (docs/shmem.md, "Exploration").  Expected outcomes are derived
 * by hand in each program's header.
 */
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run("run", __VA_ARGS__, NULL)
#define EX(...) e2e_ordex_run("explore", "--max-time", "60", __VA_ARGS__, NULL)
#define REPLAY(...) e2e_ordex_run("replay", __VA_ARGS__, NULL)
#define PROG(name) e2e_src("tests/programs/" name)
#define NO_ERROR_LINE "ordex explore: all orderings explored: no error exists for this input\n"

/* The N of "N different outcomes" of a message race warning, 1 without one. */
static long outcomes(const e2e_result *r) {
    const char *p = strstr(r->err, " different outcomes");
    if (!p)
        return strstr(r->err, "WARNING [") ? -1 : 1;
    while (p > r->err && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return strtol(p, NULL, 10);
}

/* The N of "N orderings run to the end". */
static long orderings(const e2e_result *r) {
    const char *p = strstr(r->err, " orderings run to the end");
    if (!p)
        return -1;
    while (p > r->err && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return strtol(p, NULL, 10);
}

/* No error, every ordering explored, and the outcome depends on it. */
static void expect_outcomes(const e2e_result *r, long n, const char *file, int line) {
    e2e_check(r->status == 0, r, "exit status 0", file, line);
    e2e_check(strstr(r->err, "ERROR [") == NULL, r, "no finding", file, line);
    e2e_check(strstr(r->err, "WARNING [message_race]") != NULL, r, "a message race warning", file,
              line);
    e2e_check(strstr(r->err, "all orderings explored") != NULL, r, "complete", file, line);
    char *want = g_strdup_printf("%ld outcomes", n);
    e2e_check(outcomes(r) == n, r, want, file, line);
    g_free(want);
}
#define EXPECT_OUTCOMES(r, n) expect_outcomes((r), (n), __FILE__, __LINE__)

/* The first trace named by a report ("traces: A B"), or NULL (g_free). */
static char *first_trace(const e2e_result *r) {
    const char *p = strstr(r->err, "traces: ");
    if (!p)
        return NULL;
    p += strlen("traces: ");
    return g_strndup(p, strcspn(p, " \n"));
}

/* fetch_inc handing out slots: every assignment, 3! with 3 drawers, with
 * and without the reduction; the trace replays the assignment it shows;
 * run applies the atomics in issue order. */
static void test_atomic_order(void) {
    e2e_result *a = EX("-n", "4", PROG("shmem_atomic_order.c"));
    EXPECT_OUTCOMES(a, 6);
    EXPECT_ERR_HAS(a, "the shmem_int_atomic_fetch_inc of PE ");
    EXPECT_ERR_HAS(a, "applies at PE 0");
    char *trace = first_trace(a);
    EXPECT(a, trace != NULL);
    /* ordering A as the report shows it: the slot of PE 1 in it */
    const char *line = strstr(a->err, "A: PE 1 got slot ");
    EXPECT(a, line != NULL);
    if (trace && line) {
        char *slot = g_strndup(line + 3, strcspn(line + 3, "\n"));
        e2e_result *r = REPLAY(trace);
        EXPECT_STATUS(r, 0);
        EXPECT_OUT_HAS(r, slot);
        e2e_free(r);
        g_free(slot);
    }
    g_free(trace);
    e2e_free(a);
    e2e_result *b = EX("--no-por", "-n", "4", PROG("shmem_atomic_order.c"));
    EXPECT_OUTCOMES(b, 6);
    e2e_free(b);
    e2e_result *r = RUN("-n", "4", PROG("shmem_atomic_order.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 1 got slot 0\n");
    EXPECT_OUT_HAS(r, "PE 2 got slot 1\n");
    EXPECT_OUT_HAS(r, "PE 3 got slot 2\n");
    e2e_free(r);
}

/* Adds commute: their order is not a choice that shows, and the
 * reduction does not try it. */
static void test_commuting_adds(void) {
    e2e_result *a = EX("-n", "4", PROG("shmem_atomic_adds.c"));
    e2e_result *b = EX("--no-por", "-n", "4", PROG("shmem_atomic_adds.c"));
    EXPECT_STATUS(a, 0);
    EXPECT(a, g_str_has_suffix(a->err, NO_ERROR_LINE));
    EXPECT_STATUS(b, 0);
    EXPECT(b, g_str_has_suffix(b->err, NO_ERROR_LINE));
    EXPECT(a, orderings(a) < orderings(b));
    e2e_free(a);
    e2e_free(b);
    e2e_result *r = RUN("-n", "4", PROG("shmem_atomic_adds.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "total 6\n");
    e2e_free(r);
}

/* Lock grants in every order: 3! with 3 PEs. */
static void test_lock_order(void) {
    e2e_result *a = EX("-n", "3", PROG("shmem_lock_order.c"));
    EXPECT_OUTCOMES(a, 6);
    EXPECT_ERR_HAS(a, "gets the lock that its shmem_set_lock at ");
    e2e_free(a);
    e2e_result *r = RUN("-n", "3", PROG("shmem_lock_order.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 0 saw 0\n");
    EXPECT_OUT_HAS(r, "PE 1 saw 1\n");
    EXPECT_OUT_HAS(r, "PE 2 saw 2\n");
    e2e_free(r);
}

/* shmem_test and shmem_test_lock may say "not yet" when they could
 * succeed; --no-test-later and run never do. */
static void test_test_later(void) {
    const char *modes[] = {"test", "lock"};
    for (int i = 0; i < 2; i++) {
        e2e_result *a = EX("-n", "2", PROG("shmem_test_later.c"), modes[i]);
        EXPECT_OUTCOMES(a, 2);
        EXPECT_ERR_HAS(a, "more than one test: yes");
        EXPECT_ERR_HAS(a, "more than one test: no");
        EXPECT_ERR_HAS(a, i ? "shmem_test_lock says \"not yet\" although it could succeed"
                            : "shmem_test says \"not yet\" although it could succeed");
        e2e_free(a);
        e2e_result *b = EX("--no-test-later", "-n", "2", PROG("shmem_test_later.c"), modes[i]);
        EXPECT_STATUS(b, 0);
        EXPECT(b, g_str_has_suffix(b->err, NO_ERROR_LINE));
        e2e_free(b);
        e2e_result *r = RUN("-n", "2", PROG("shmem_test_later.c"), modes[i]);
        EXPECT_CLEAN(r);
        EXPECT_OUT_HAS(r, "more than one test: no\n");
        e2e_free(r);
    }
}

static void add(CU_pSuite s) {
    CU_add_test(s, "order of concurrent atomics", test_atomic_order);
    CU_add_test(s, "adds commute", test_commuting_adds);
    CU_add_test(s, "order of lock grants", test_lock_order);
    CU_add_test(s, "shmem_test and shmem_test_lock say not yet", test_test_later);
}

E2E_MAIN("shmem_order", add)
