/*
 * test_mpi4.c - end-to-end tests of what ordex implements of MPI 4.0 as
 * MPICH 4's header declares it: persistent collectives, MPI_Isendrecv and
 * MPI_Isendrecv_replace, MPI_Comm_idup_with_info, the large-count `_c`
 * functions, and the lazy refusal of partitioned communication and
 * Sessions.  The programs (tests/programs/mpi4_*.c) check every received
 * value against what the standard's definitions give and print "ok" lines;
 * tests/crosscheck_mpich.sh compares their output with real MPICH's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define P(name) e2e_src("tests/programs/" name)
#define SRC(name) ("tests/programs/" name)

/* stdout is exactly n lines, each "rank R: ... ok". */
static void expect_all_ok(const e2e_result *r, int n) {
    EXPECT(r, e2e_lines(r->out) == n);
    EXPECT(r, e2e_count(r->out, " ok\n") == n);
    EXPECT_OUT_LACKS(r, "WRONG");
    EXPECT_OUT_LACKS(r, "expected");
}

enum { PERSIST_KINDS = 22 };

/* Every persistent collective, started three times with new data each
 * time, on 1, 3 and 4 ranks: the values the standard defines. */
static void test_persist_values(void) {
    const char *ns[] = {"1", "3", "4"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("mpi4_persist.c"));
        EXPECT_CLEAN(r);
        expect_all_ok(r, PERSIST_KINDS * atoi(ns[i]));
        e2e_free(r);
    }
}

/* The same under explore (every ordering) and predict. */
static void test_persist_explore_predict(void) {
    e2e_result *r = RUN("explore", "-n", "3", P("mpi4_persist.c"), "reduce", "allgatherv",
                        "neighbor_alltoallw", "scan");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
    r = RUN("predict", "-n", "4", P("mpi4_persist.c"));
    EXPECT_STATUS(r, 0);
    expect_all_ok(r, PERSIST_KINDS * 4);
    EXPECT_ERR_LACKS(r, "ordex: ERROR");
    e2e_free(r);
}

/* A started MPI_Bcast_init against MPI_Bcast: never a match. */
static void test_persist_mix(void) {
    e2e_result *r = RUN("run", "-n", "3", P("mpi4_persist.c"), "mix");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(
        r, 1, "mpi_error",
        "rank 0 calls MPI_Bcast_init(root=0) at mpi4_persist.c:", SRC("mpi4_persist.c"), "[P:mix]");
    EXPECT(r, f && strstr(f, "rank 1 calls MPI_Bcast(root=0) at mpi4_persist.c:"));
    g_free(f);
    e2e_free(r);
    r = RUN("explore", "-n", "3", P("mpi4_persist.c"), "mix");
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ordex explore: 1 error found\n");
    e2e_free(r);
}

/* MPI_Start of an active request; a persistent collective never freed. */
static void test_persist_misuse(void) {
    e2e_result *r = RUN("run", "-n", "2", P("mpi4_persist.c"), "restart");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "MPI_Start: the persistent request from MPI_Barrier_init is already "
                          "active",
                          SRC("mpi4_persist.c"), "[R:restart]"));
    e2e_free(r);
    r = RUN("run", "-n", "3", "--leaks=warn", P("mpi4_persist.c"), "leak");
    EXPECT_STATUS(r, 0);
    g_free(EXPECT_WARNING(r, 1, "leak",
                          "3 persistent requests made by MPI_Allreduce_init were never freed",
                          SRC("mpi4_persist.c"), "[L:leak]"));
    e2e_free(r);
}

/* The datatype and the op of a persistent collective freed after its init:
 * each start still uses them (they used to be refused as freed). */
static void test_persist_freed(void) {
    const char *cmds[] = {"run", "explore", "predict"};
    for (size_t c = 0; c < G_N_ELEMENTS(cmds); c++) {
        e2e_result *r = RUN(cmds[c], "-n", "3", P("mpi4_persist.c"), "freed");
        EXPECT_STATUS(r, 0);
        EXPECT_ERR_LACKS(r, "ERROR");
        if (strcmp(cmds[c], "explore") != 0)
            expect_all_ok(r, 3);
        e2e_free(r);
    }
}

/* Isendrecv and Isendrecv_replace (a strided type), MPI_PROC_NULL, two at
 * once in a Waitall, and Comm_idup_with_info: values and statuses. */
static void test_isendrecv(void) {
    const char *ns[] = {"1", "2", "3"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("mpi4_isendrecv.c"));
        EXPECT_CLEAN(r);
        expect_all_ok(r, 7 * atoi(ns[i]));
        e2e_free(r);
    }
    e2e_result *r = RUN("explore", "-n", "3", P("mpi4_isendrecv.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
}

static void test_isendrecv_errors(void) {
    e2e_result *r = RUN("run", "-n", "2", P("mpi4_isendrecv.c"), "alias");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "rank 0: MPI_Isendrecv: the send and receive buffers overlap",
                          SRC("mpi4_isendrecv.c"), "[A:alias]"));
    e2e_free(r);
    r = RUN("run", "-n", "3", P("mpi4_isendrecv.c"), "unwaited");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 3, "pending_request",
                          "rank 1: the request of MPI_Isendrecv was never completed",
                          SRC("mpi4_isendrecv.c"), "[U:unwaited]"));
    e2e_free(r);
}

/* Partitioned communication and Sessions: refused when called, in run,
 * explore and predict; a run that does not call them ends well. */
static void test_refused(void) {
    e2e_result *r = RUN("run", "-n", "2", P("mpi4_refused.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 1: done\n");
    e2e_free(r);
    const char *cmds[] = {"run", "explore", "predict"};
    const struct {
        const char *mode, *fn, *marker;
    } cases[] = {{"psend", "MPI_Psend_init", "[PSEND]"},
                 {"session", "MPI_Session_init", "[SESSION]"}};
    for (size_t c = 0; c < G_N_ELEMENTS(cmds); c++)
        for (size_t k = 0; k < G_N_ELEMENTS(cases); k++) {
            const char *json = e2e_tmp("mpi4_refused.json");
            e2e_result *q =
                RUN(cmds[c], "--json", json, "-n", "2", P("mpi4_refused.c"), cases[k].mode);
            EXPECT_STATUS(q, 2);
            char *text = g_strdup_printf("called %s, which ordex does not implement", cases[k].fn);
            char *at = g_strdup_printf("\n  at mpi4_refused.c:%d\n",
                                       e2e_marker_line(SRC("mpi4_refused.c"), cases[k].marker));
            EXPECT_ERR_HAS(q, text);
            EXPECT_ERR_HAS(q, at);
            JsonObject *doc = EXPECT_JSON_FILE(q, json);
            EXPECT(q, e2e_json_str_is(doc, "verdict", "unsupported"));
            e2e_json_free(doc);
            g_free(text);
            g_free(at);
            e2e_free(q);
        }
}

/* The `_c` functions give the standard's values, in run and explore. */
static void test_large(void) {
    const char *ns[] = {"1", "3", "4"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("mpi4_large.c"));
        EXPECT_CLEAN(r);
        expect_all_ok(r, 11 * atoi(ns[i]));
        e2e_free(r);
    }
    e2e_result *r = RUN("explore", "-n", "3", P("mpi4_large.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
}

/* A count beyond an int is refused, never truncated; an error in a `_c`
 * call names it. */
static void test_large_refused(void) {
    const char *json = e2e_tmp("mpi4_large.json");
    e2e_result *r = RUN("run", "--json", json, "-n", "2", P("mpi4_large.c"), "huge");
    EXPECT_STATUS(r, 2);
    char *at =
        g_strdup_printf("\n  at mpi4_large.c:%d\n", e2e_marker_line(SRC("mpi4_large.c"), "[HUGE]"));
    EXPECT_ERR_HAS(r, "ordex: UNSUPPORTED rank 0: MPI_Send_c with count = 2147483648, beyond the "
                      "int range (2147483647)");
    EXPECT_ERR_HAS(r, at);
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "unsupported"));
    e2e_json_free(doc);
    g_free(at);
    e2e_free(r);
    r = RUN("run", "-n", "2", P("mpi4_large.c"), "badtype");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error", "rank 0: MPI_Send_c: datatype", SRC("mpi4_large.c"),
                          "[BADTYPE]"));
    e2e_free(r);
}

/* The root of a scatter that returns before the others arrive has its own
 * block (it used to return without it, under predict and along explore's
 * orderings in which it left early). */
static void test_scatter_root_early(void) {
    e2e_result *r = RUN("predict", "-n", "4", P("scatter_root_early.c"));
    EXPECT_STATUS(r, 0);
    expect_all_ok(r, 4);
    e2e_free(r);
    r = RUN("explore", "-n", "3", P("scatter_root_early.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
}

static void e2e_add_mpi4_tests(CU_pSuite s) {
    CU_add_test(s, "mpi4_persist.c: every persistent collective, the standard's values",
                test_persist_values);
    CU_add_test(s, "mpi4_persist.c: explore and predict", test_persist_explore_predict);
    CU_add_test(s, "mpi4_persist.c mix: a persistent collective never matches a blocking one",
                test_persist_mix);
    CU_add_test(s, "mpi4_persist.c: restart of an active request, a leaked one",
                test_persist_misuse);
    CU_add_test(s, "mpi4_persist.c freed: the type and op freed after the init",
                test_persist_freed);
    CU_add_test(s, "mpi4_isendrecv.c: values and statuses", test_isendrecv);
    CU_add_test(s, "mpi4_isendrecv.c: overlapping buffers, a request never completed",
                test_isendrecv_errors);
    CU_add_test(s, "mpi4_refused.c: partitioned communication and Sessions refused lazily",
                test_refused);
    CU_add_test(s, "mpi4_large.c: the `_c` functions, the standard's values", test_large);
    CU_add_test(s, "mpi4_large.c: a count beyond an int refused, errors name the `_c` call",
                test_large_refused);
    CU_add_test(s, "scatter_root_early.c: a root that leaves early has its own block",
                test_scatter_root_early);
}

E2E_MAIN("mpi4", e2e_add_mpi4_tests)
