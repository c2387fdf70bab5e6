/*
 * test_replay.c - `ordex replay` of traces written by `ordex explore`, and the
 * explore options that add choices (--early-collectives).
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "e2e.h"

#define EXAMPLE(name) e2e_src("examples/" name)

/* Explores `example` with -n `n` into a fresh trace directory; returns the
 * directory (lives until e2e_fini). */
static const char *explore_into(const char *dir_name, const char *n, const char *example,
                                const char *extra) {
    const char *dir = e2e_tmp(dir_name);
    const char *args[] = {"explore", "--trace-dir", dir, "-n", n, example, extra, NULL};
    if (!extra)
        args[6] = NULL;
    e2e_free(e2e_ordex_runv(args));
    return dir;
}

static char *trace_path(const char *dir, const char *name) {
    return g_build_filename(dir, name, NULL);
}

static void test_replay_reproduces_finding(void) {
    const char *dir = explore_into("tr_merge", "4", EXAMPLE("mergesort.c"), NULL);
    char *t = trace_path(dir, "mergesort-1.trace");
    CU_ASSERT_FATAL(g_file_test(t, G_FILE_TEST_EXISTS));
    e2e_result *a = e2e_ordex_run("replay", t, NULL);
    e2e_result *b = e2e_ordex_run("replay", t, NULL);
    EXPECT_STATUS(a, 1);
    EXPECT(a, strstr(a->err, "[mpi_error]") != NULL);
    EXPECT(a, strstr(a->err, "truncated") != NULL);
    int line = e2e_marker_line("examples/mergesort.c", "[RECV]");
    char *at = g_strdup_printf("at mergesort.c:%d", line);
    EXPECT(a, strstr(a->err, at) != NULL);
    EXPECT(b, strcmp(a->out, b->out) == 0); /* exactly the same run, every time */
    EXPECT(b, b->status == a->status);
    g_free(at);
    e2e_free(a);
    e2e_free(b);
    g_free(t);
}

static void test_replay_dump(void) {
    const char *dir = explore_into("tr_dump", "4", EXAMPLE("mergesort.c"), NULL);
    char *t = trace_path(dir, "mergesort-1.trace");
    e2e_result *r = e2e_ordex_run("replay", "--stop-at", "5", "--dump", t, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "rank 0: MPI_Recv(source=MPI_ANY_SOURCE");
    EXPECT_ERR_HAS(r, "rank 3: ended");
    EXPECT(r, strstr(r->err, "stopped before step 5") != NULL);
    e2e_free(r);
    g_free(t);
}

static void test_replay_distinct_orderings(void) {
    /* The two traces of a message race replay to their two outcomes. */
    const char *dir = explore_into("tr_race", "4", EXAMPLE("waitany_race.c"), NULL);
    char *ta = trace_path(dir, "waitany_race-1.trace");
    char *tb = trace_path(dir, "waitany_race-2.trace");
    e2e_result *a = e2e_ordex_run("replay", ta, NULL);
    e2e_result *b = e2e_ordex_run("replay", tb, NULL);
    EXPECT_STATUS(a, 0);
    EXPECT_STATUS(b, 0);
    char *ra = e2e_grep(a->out, "result");
    char *rb = e2e_grep(b->out, "result");
    EXPECT(a, ra && *ra);
    EXPECT(b, rb && *rb && strcmp(ra, rb) != 0);
    g_free(ra);
    g_free(rb);
    e2e_free(a);
    e2e_free(b);
    g_free(ta);
    g_free(tb);
}

/* Writes a copy of trace `src` with `from` replaced by `to`; as a trace of
 * format 2 (no checksum line, which refuses any edit) when v2. */
static char *edited_as(bool v2, const char *src, const char *name, const char *from,
                       const char *to) {
    char *text = e2e_read_file(src);
    GString *s = g_string_new(text);
    if (v2) {
        CU_ASSERT_EQUAL(g_string_replace(s, "ordex-trace 3\n", "ordex-trace 2\n", 1), 1);
        char *c = strstr(s->str, "\nchecksum ");
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        g_string_truncate(s, (gsize)(c - s->str) + 1);
    }
    CU_ASSERT_EQUAL(g_string_replace(s, from, to, 1), 1);
    char *dst = g_strdup(e2e_tmp(name));
    g_file_set_contents(dst, s->str, -1, NULL);
    g_string_free(s, TRUE);
    g_free(text);
    return dst;
}

static char *edited(const char *src, const char *name, const char *from, const char *to) {
    return edited_as(false, src, name, from, to);
}

static void expect_refused(const char *trace, const char *text, const char *extra) {
    e2e_result *r = extra ? e2e_ordex_run("replay", extra, "3", trace, NULL)
                          : e2e_ordex_run("replay", trace, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT(r, strstr(r->err, text) != NULL);
    e2e_free(r);
}

static void test_replay_rejects_bad_traces(void) {
    const char *dir = explore_into("tr_bad", "4", EXAMPLE("mergesort.c"), NULL);
    char *t = trace_path(dir, "mergesort-1.trace");
    char *text = e2e_read_file(t);
    CU_ASSERT_FATAL(text != NULL);
    /* truncated: no end line */
    char *end = strstr(text, "\nend ");
    CU_ASSERT_FATAL(end != NULL);
    char *trunc = g_strdup(e2e_tmp("trunc.trace"));
    g_file_set_contents(trunc, text, end - text + 1, NULL);
    expect_refused(trunc, "truncated", NULL);
    /* edited */
    char *bad = edited(t, "kind.trace", " deliver ", " teleport ");
    expect_refused(bad, "unknown step kind", NULL);
    /* another rank count */
    expect_refused(t, "recorded with 4 ranks", "-n");
    /* Edits whose lines all still make sense: the checksum refuses them. */
    char *more = edited(t, "ranks5.trace", "\nranks 4\n", "\nranks 5\n");
    expect_refused(more, "the trace was edited", NULL);
    char *other = edited(t, "other.trace", "program-sha256 ", "program-sha256 0");
    expect_refused(other, "the trace was edited", NULL);
    char *src = edited(t, "src.trace", "src=3 tag=7", "src=1 tag=7");
    expect_refused(src, "the trace was edited", NULL);
    /* In a trace of format 2 too: numbers that do not fit wrap no more,
     * ranks beyond the rank count are refused. */
    char *tag = edited_as(true, t, "tag.trace", "src=3 tag=7", "src=3 tag=4294967303");
    expect_refused(tag, "tag=4294967303 is out of range", NULL);
    char *dst = edited_as(true, t, "dst.trace", " dst=2 src=3 ", " dst=4294967298 src=3 ");
    expect_refused(dst, "dst=4294967298 is out of range", NULL);
    char *fewer = edited_as(true, t, "ranks3.trace", "\nranks 4\n", "\nranks 3\n");
    expect_refused(fewer, "names a rank the run does not have (ranks 3)", NULL);
    /* The program does not behave as recorded: the replay leaves the trace,
     * or ends without the finding the trace was recorded for. */
    char *div = edited_as(true, t, "div.trace", "src=3 tag=7", "src=1 tag=7");
    expect_refused(div, "left the trace", NULL);
    char *miss = edited_as(true, t, "miss.trace",
                           "finding mpi_error mergesort.c:", "finding mpi_error mergesort.c:1");
    expect_refused(miss, "the replay did not reproduce the finding the trace was recorded for",
                   NULL);
    /* The program changed since the trace was made. */
    const char *copy = e2e_tmp("changed/mergesort.c");
    g_mkdir_with_parents(e2e_tmp("changed"), 0755);
    CU_ASSERT_FATAL(g_file_set_contents(copy, e2e_read_src("examples/mergesort.c"), -1, NULL));
    const char *cdir = explore_into("tr_changed", "4", copy, NULL);
    char *ct = trace_path(cdir, "mergesort-1.trace");
    char *changed = g_strconcat(e2e_read_src("examples/mergesort.c"), "int changed;\n", NULL);
    CU_ASSERT_FATAL(g_file_set_contents(copy, changed, -1, NULL));
    expect_refused(ct, "not the program", NULL);
    g_free(changed);
    g_free(ct);
    /* not a trace */
    expect_refused(e2e_src("examples/ring.c"), "not an ordex trace", NULL);
    expect_refused("/nonexistent/x.trace", "cannot read", NULL);
    g_free(trunc);
    g_free(bad);
    g_free(other);
    g_free(more);
    g_free(src);
    g_free(tag);
    g_free(dst);
    g_free(fewer);
    g_free(div);
    g_free(miss);
    g_free(text);
    g_free(t);
}

/* The trace records the heap, the stack and the step timeout, so that a
 * finding that depends on them replays (version 1 traces did not: a replay
 * with the default 1 GiB heap said "no error found"). */
static void test_replay_keeps_sizes(void) {
    const char *dir = e2e_tmp("tr_heap");
    const char *args[] = {
        "explore", "--trace-dir",  dir,      "--heap-size",
        "1MiB",    "--stack-size", "256KiB", "--step-timeout",
        "3",       "-n",           "2",      e2e_src("tests/programs/heap_gated.c"),
        NULL};
    e2e_result *e = e2e_ordex_runv(args);
    EXPECT_STATUS(e, 1);
    EXPECT_ERR_HAS(e, "[deadlock]");
    e2e_free(e);
    char *t = trace_path(dir, "heap_gated-1.trace");
    char *text = e2e_read_file(t);
    CU_ASSERT_FATAL(text != NULL);
    CU_ASSERT(g_str_has_prefix(text, "ordex-trace 3\n"));
    CU_ASSERT(strstr(text, "\nheap-size 1048576\n") != NULL);
    CU_ASSERT(strstr(text, "\nstack-size 262144\n") != NULL);
    CU_ASSERT(strstr(text, "\nstep-timeout 3\n") != NULL);
    e2e_result *r = e2e_ordex_run("replay", t, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT(r, strstr(r->err, "[deadlock]") != NULL);
    int line = e2e_marker_line("tests/programs/heap_gated.c", "[RECV]");
    char *at = g_strdup_printf("heap_gated.c:%d", line);
    EXPECT(r, strstr(r->err, at) != NULL);
    EXPECT(r, strstr(r->out, "got 42") == NULL);
    g_free(at);
    e2e_free(r);
    g_free(text);
    g_free(t);
}

static void test_early_collectives(void) {
    /* Without the option Bcast synchronises: one ordering per send mode. */
    e2e_result *r =
        e2e_ordex_run("explore", "--early-collectives", "-n", "2", EXAMPLE("bcast_sync.c"), NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "needs MPI_Bcast to synchronise");
    EXPECT_ERR_HAS(r, "MPI_Bcast returns before the others arrive - no, it waits");
    EXPECT_ERR_HAS(r, "4 orderings run to the end");
    e2e_free(r);
    r = e2e_ordex_run("explore", "-n", "2", EXAMPLE("bcast_sync.c"), NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "2 orderings run to the end");
    e2e_free(r);
    /* The finding's trace holds the early-leave choice and replays. */
    const char *dir = explore_into("tr_early", "2", EXAMPLE("bcast_sync.c"), "--early-collectives");
    char *t = trace_path(dir, "bcast_sync-1.trace");
    CU_ASSERT_FATAL(g_file_test(t, G_FILE_TEST_EXISTS));
    r = e2e_ordex_run("replay", t, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_LACKS(r, "not key=value");
    EXPECT_ERR_HAS(r, "needs MPI_Bcast to synchronise");
    e2e_free(r);
    g_free(t);
}

static void test_observe(void) {
    const char *prog = e2e_src("tests/programs/observe_race.c");
    e2e_result *r = e2e_ordex_run("explore", "-n", "3", prog, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "WARNING [message_race]");
    EXPECT_ERR_HAS(r, "2 different outcomes");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--divergence=error", "-n", "3", prog, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [message_race]");
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "3", prog, NULL); /* one ordering: nothing to compare */
    EXPECT_STATUS(r, 0);
    e2e_free(r);
}

/* Exploration processes end with _exit; the directories of their program
 * copies must not pile up in $TMPDIR (a bug: one per process stayed). */
static void test_no_temp_leftovers(void) {
    const char *tmp = e2e_tmp("own_tmpdir");
    g_mkdir_with_parents(tmp, 0755);
    char *env_tmp = g_strdup_printf("TMPDIR=%s", tmp);
    const char *argv[] = {
        "env", env_tmp, e2e_ordex(), "explore", "-n", "4", EXAMPLE("benign_any_source.c"), NULL};
    e2e_result *r = e2e_exec(argv);
    EXPECT_STATUS(r, 0);
    GDir *d = g_dir_open(tmp, 0, NULL);
    int left = 0;
    const char *name;
    while (d && (name = g_dir_read_name(d)))
        if (g_str_has_prefix(name, "ordex-ranks-"))
            left++;
    if (d)
        g_dir_close(d);
    EXPECT(r, left == 0);
    e2e_free(r);
    g_free(env_tmp);
}

/* Every finding of every example replays to the same finding: kind and
 * location as recorded in the trace's `finding` line. */
static void test_replay_every_example_finding(void) {
    static const struct {
        const char *example, *n;
    } cases[] = {{"mergesort.c", "4"},      {"wildcard_deadlock.c", "3"}, {"probe_race.c", "3"},
                 {"deadlock_cycle.c", "4"}, {"deadlock_else.c", "3"},     {"barrier_comm.c", "4"},
                 {"bcast_sync.c", "2"}};
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *dname = g_strdup_printf("tr_every_%zu", i);
        char *ex = g_strdup_printf("examples/%s", cases[i].example);
        const char *dir = explore_into(dname, cases[i].n, e2e_src(ex), NULL);
        GDir *d = g_dir_open(dir, 0, NULL);
        int traces = 0;
        const char *name;
        while (d && (name = g_dir_read_name(d))) {
            char *t = g_build_filename(dir, name, NULL);
            char *text = e2e_read_file(t);
            /* "finding <kind> <location> <message>" */
            char *line = text ? strstr(text, "\nfinding ") : NULL;
            CU_ASSERT_PTR_NOT_NULL(line);
            if (line) {
                char **w = g_strsplit(line + 9, " ", 3);
                e2e_result *r = e2e_ordex_run("replay", t, NULL);
                EXPECT_STATUS(r, 1);
                char *kind = g_strdup_printf("[%s]", w[0]);
                char *at = g_strdup_printf("at %s", w[1]);
                EXPECT(r, strstr(r->err, kind) != NULL);
                EXPECT(r, strcmp(w[1], "-") == 0 || strstr(r->err, at) != NULL);
                g_free(kind);
                g_free(at);
                e2e_free(r);
                g_strfreev(w);
                traces++;
            }
            g_free(text);
            g_free(t);
        }
        if (d)
            g_dir_close(d);
        CU_ASSERT(traces >= 1);
        g_free(dname);
        g_free(ex);
    }
}

static void e2e_add_replay_tests(CU_pSuite s) {
    CU_add_test(s, "every example's findings replay to the same finding",
                test_replay_every_example_finding);
    CU_add_test(s, "exploration leaves no temporary directories", test_no_temp_leftovers);
    CU_add_test(s, "ordex_observe values are outcomes", test_observe);
    CU_add_test(s, "replay reproduces the finding, identically every time",
                test_replay_reproduces_finding);
    CU_add_test(s, "replay --stop-at N --dump shows pending calls", test_replay_dump);
    CU_add_test(s, "the two traces of a race replay to their two outcomes",
                test_replay_distinct_orderings);
    CU_add_test(s, "replay refuses truncated, edited, foreign and divergent traces",
                test_replay_rejects_bad_traces);
    CU_add_test(s, "explore --early-collectives tries both behaviours", test_early_collectives);
    CU_add_test(s, "a trace keeps the heap, stack and step timeout of its run",
                test_replay_keeps_sizes);
}

E2E_MAIN("replay", e2e_add_replay_tests)
