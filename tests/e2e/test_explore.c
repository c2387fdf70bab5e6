/*
 * test_explore.c - end-to-end tests of `ordex explore`: the verdict every
 * example's header comment states, reduced against unreduced exploration
 * (same verdict, findings and outcomes), errors that happen in some orderings
 * only (exploration goes on), the JSON report, trace files and the options.
 *
 * explore prints its report on stderr (stdout, the program's, stays empty):
 *   ERROR [kind] message            (WARNING [message_race] for a race)
 *     at file:line
 *     ...details...
 *     ordering (N steps):
 *     trace: PATH (replay: ...)
 *   ordex explore: N ranks, ...: ... K orderings run to the end, ...
 *   ordex explore: N error(s) found | all orderings explored: no error exists ...
 * Every exploration gets --max-time 60 as a safety net; a run that stops at a
 * limit is "incomplete" (exit 2), which every verdict check below rejects.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "e2e.h"

#define EX(...) e2e_ordex_run("explore", "--max-time", "60", __VA_ARGS__, NULL)
#define EXAMPLE(name) e2e_src("examples/" name)
#define PROG(name) e2e_src("tests/programs/" name)
#define FAULT "/* FAULT */"
#define FAULT_END "/* FAULT_END */"
#define NO_ERROR_LINE "ordex explore: all orderings explored: no error exists for this input"

/* ---------------------------------------------------------------------- */
/* Reading explore's text report                                          */

/* Number of findings: lines that start with "ERROR [" or "WARNING [". */
static int count_findings(const char *out) {
    int n = 0;
    char **lines = g_strsplit(out, "\n", -1);
    for (int i = 0; lines[i]; i++)
        n += g_str_has_prefix(lines[i], "ERROR [") || g_str_has_prefix(lines[i], "WARNING [");
    g_strfreev(lines);
    return n;
}

/* A path that explore printed, made absolute (relative ones are relative to
 * the commands' working directory, the test's scratch directory). */
static char *abs_path(const char *printed) {
    if (g_path_is_absolute(printed))
        return g_strdup(printed);
    return g_strdup(e2e_tmp(printed));
}

/*
 * The report holds exactly `nfindings` findings (ERROR or WARNING lines), and
 * one of them reads "LEVEL [KIND] ...TEXT...".  When src is not NULL its next
 * line is "  at BASENAME(src):N" with N the line of `marker` in src (or from
 * marker's line to end_marker's).  Returns that finding's full text, newly
 * allocated, or NULL.
 */
static char *expect_xfinding(const e2e_result *r, int nfindings, const char *level,
                             const char *kind, const char *text, const char *src,
                             const char *marker, const char *end_marker, const char *file,
                             int line) {
    char *what = g_strdup_printf("%d finding(s) on stderr", nfindings);
    e2e_check(count_findings(r->err) == nfindings, r, what, file, line);
    g_free(what);
    char **lines = g_strsplit(r->err, "\n", -1);
    char *head = g_strdup_printf("%s [%s] ", level, kind);
    int at = -1;
    for (int i = 0; lines[i] && at < 0; i++)
        if (g_str_has_prefix(lines[i], head) && strstr(lines[i], text))
            at = i;
    what = g_strdup_printf("a finding \"%s...%s...\"", head, text);
    e2e_check(at >= 0, r, what, file, line);
    g_free(what);
    char *block =
        e2e_finding_at((const char *const *)lines, at, src, marker, end_marker, r, file, line);
    g_free(head);
    g_strfreev(lines);
    return block;
}
#define EXPECT_XERROR(r, n, kind, text, src, marker)                                               \
    expect_xfinding((r), (n), "ERROR", (kind), (text), (src), (marker), NULL, __FILE__, __LINE__)
#define EXPECT_XERROR_IN(r, n, kind, text, src, marker, end)                                       \
    expect_xfinding((r), (n), "ERROR", (kind), (text), (src), (marker), (end), __FILE__, __LINE__)
#define EXPECT_XWARNING(r, n, kind, text)                                                          \
    expect_xfinding((r), (n), "WARNING", (kind), (text), NULL, NULL, NULL, __FILE__, __LINE__)

/* Every ordering explored, no error: exit 0, no ERROR, the "no error exists"
 * line (with the race note when `race`), nothing incomplete. */
static void expect_no_error(const e2e_result *r, bool race, const char *file, int line) {
    e2e_check(r->status == 0, r, "exit status 0", file, line);
    e2e_check(!g_str_has_prefix(r->err, "ERROR [") && !strstr(r->err, "\nERROR ["), r,
              "no ERROR finding", file, line);
    e2e_check(strstr(r->err, "INCOMPLETE") == NULL, r, "exploration complete (no INCOMPLETE)", file,
              line);
    const char *want =
        race ? NO_ERROR_LINE " (but the outcome depends on the ordering)\n" : NO_ERROR_LINE "\n";
    e2e_check(g_str_has_suffix(r->err, want), r,
              race ? "last line: no error exists (but the outcome depends on the ordering)"
                   : "last line: no error exists for this input",
              file, line);
    if (!race)
        e2e_check(count_findings(r->err) == 0, r, "no finding at all (no WARNING)", file, line);
    /* explore shows no program output: stdout stays empty (README, "Output") */
    e2e_check(r->out[0] == '\0', r, "nothing on stdout", file, line);
}
#define EXPECT_NO_ERROR(r) expect_no_error((r), false, __FILE__, __LINE__)
#define EXPECT_NO_ERROR_RACE(r) expect_no_error((r), true, __FILE__, __LINE__)

/* Every ordering explored and n errors found: exit 1, "N error(s) found". */
static void expect_errors(const e2e_result *r, int n, const char *file, int line) {
    e2e_check(r->status == 1, r, "exit status 1", file, line);
    char *want = g_strdup_printf("ordex explore: %d error%s found\n", n, n == 1 ? "" : "s");
    char *what = g_strdup_printf("last line: %d error(s) found", n);
    e2e_check(g_str_has_suffix(r->err, want), r, what, file, line);
    g_free(what);
    g_free(want);
    e2e_check(strstr(r->err, "INCOMPLETE") == NULL, r, "exploration complete (no INCOMPLETE)", file,
              line);
    e2e_check(strstr(r->err, "no error exists") == NULL, r, "no \"no error exists\"", file, line);
}
#define EXPECT_ERRORS(r, n) expect_errors((r), (n), __FILE__, __LINE__)

/* The summary line "ordex explore: N ranks, ..." of a complete exploration. */
static void expect_summary(const e2e_result *r, int nranks, bool both_modes, const char *file,
                           int line) {
    char *want = g_strdup_printf("ordex explore: %d ranks, with partial-order reduction: ", nranks);
    e2e_check(strstr(r->err, want) != NULL, r, "summary line names ranks and reduction", file,
              line);
    g_free(want);
    bool both = strstr(r->err, ", standard sends both buffered and unbuffered\n") != NULL;
    e2e_check(both == both_modes, r,
              both_modes ? "summary says both buffered and unbuffered sends were explored"
                         : "summary does not claim both send modes",
              file, line);
}
#define EXPECT_SUMMARY(r, n, both) expect_summary((r), (n), (both), __FILE__, __LINE__)

/* The number just before `label` in the summary line ("N merged into known
 * states"); -1 if absent. */
static long stat_before(const e2e_result *r, const char *label) {
    const char *p = strstr(r->err, label);
    if (!p)
        return -1;
    const char *q = p;
    while (q > r->err && g_ascii_isdigit(q[-1]))
        q--;
    return q == p ? -1 : strtol(q, NULL, 10);
}

/* K of "K orderings run to the end" ("1 ordering run to the end") in the
 * summary line; -1 if absent. */
static long orderings_run(const e2e_result *r) {
    long k = stat_before(r, " orderings run to the end");
    return k >= 0 ? k : stat_before(r, " ordering run to the end") == 1 ? 1 : -1;
}

/* N of "  ordering (N steps):" in a finding's text; -1 if absent. */
static int ordering_steps(const char *block) {
    const char *p = block ? strstr(block, "  ordering (") : NULL;
    if (!p)
        return -1;
    return (int)strtol(p + strlen("  ordering ("), NULL, 10);
}

/* The trace file a finding names ("  trace: PATH (replay: ..."), absolute,
 * newly allocated; NULL (and a failed check) if none. */
static char *finding_trace(const e2e_result *r, const char *block, const char *file, int line) {
    const char *p = block ? strstr(block, "  trace: ") : NULL;
    char *path = NULL;
    if (p) {
        p += strlen("  trace: ");
        const char *e = strstr(p, " (replay: ");
        const char *nl = strchr(p, '\n');
        if (e && (!nl || e < nl)) {
            char *printed = g_strndup(p, (gsize)(e - p));
            path = abs_path(printed);
            g_free(printed);
        }
    }
    e2e_check(path != NULL, r, "the finding names its trace file (\"  trace: PATH (replay: ...\")",
              file, line);
    return path;
}
#define FINDING_TRACE(r, block) finding_trace((r), (block), __FILE__, __LINE__)

/* A trace file of format 3 for `kind` with `ranks` ranks, send mode `mode`
 * and `steps` steps (-1: any number). */
static void expect_trace_file(const e2e_result *r, const char *path, const char *kind, int ranks,
                              const char *mode, int steps, const char *file, int line) {
    char *text = path ? e2e_read_file(path) : NULL;
    char *what = g_strdup_printf("trace file %s exists", path ? path : "(none)");
    e2e_check(text != NULL, r, what, file, line);
    g_free(what);
    if (!text)
        return;
    e2e_check(g_str_has_prefix(text, "ordex-trace 3\n"), r, "trace: first line \"ordex-trace 3\"",
              file, line);
    e2e_check(strstr(text, "\nchecksum ") != NULL, r, "trace: a \"checksum\" line", file, line);
    e2e_check(strstr(text, "\nprogram ") != NULL, r, "trace: a \"program\" line", file, line);
    char *want = g_strdup_printf("\nranks %d\n", ranks);
    e2e_check(strstr(text, want) != NULL, r, "trace: \"ranks N\"", file, line);
    g_free(want);
    want = g_strdup_printf("\nsend-mode %s\n", mode);
    what = g_strdup_printf("trace: \"send-mode %s\"", mode);
    e2e_check(strstr(text, want) != NULL, r, what, file, line);
    g_free(what);
    g_free(want);
    want = g_strdup_printf("\nfinding %s ", kind);
    what = g_strdup_printf("trace: \"finding %s ...\"", kind);
    e2e_check(strstr(text, want) != NULL, r, what, file, line);
    g_free(what);
    g_free(want);
    if (steps >= 0) {
        what = g_strdup_printf("trace: %d \"step\" lines", steps);
        e2e_check(e2e_count(text, "\nstep ") == steps, r, what, file, line);
        g_free(what);
        if (steps > 0)
            e2e_check(strstr(text, "\nstep 1 ") != NULL, r, "trace: a \"step 1 \" line", file,
                      line);
    }
    g_free(text);
}
#define EXPECT_TRACE_FILE(r, path, kind, ranks, mode, steps)                                       \
    expect_trace_file((r), (path), (kind), (ranks), (mode), (steps), __FILE__, __LINE__)

/* A fresh path for a JSON report under the scratch directory. */
static const char *json_path(const char *name) {
    static int seq;
    char *n = g_strdup_printf("explore-%s-%d.json", name, ++seq);
    const char *p = e2e_tmp(n);
    g_free(n);
    remove(p);
    return p;
}

/* ---------------------------------------------------------------------- */
/* The examples: the verdict each header comment states                   */

static void test_mergesort(void) {
    const char *src = "examples/mergesort.c";
    e2e_result *r = EX("-n", "4", EXAMPLE("mergesort.c"));
    EXPECT_ERRORS(r, 1);
    EXPECT_SUMMARY(r, 4, true);
    char *f = EXPECT_XERROR(r, 1, "mpi_error", "truncated", src, "// [RECV]");
    EXPECT_BLOCK_HAS(r, f, "rank 0: MPI_Recv");
    EXPECT_BLOCK_HAS(r, f, "rank 2 sent 128 bytes");
    EXPECT_BLOCK_HAS(r, f, "count 16 of MPI_INT");
    EXPECT(r, ordering_steps(f) > 0);
    char *trace = FINDING_TRACE(r, f);
    EXPECT_TRACE_FILE(r, trace, "mpi_error", 4, "eager", ordering_steps(f));
    g_free(trace);
    g_free(f);
    e2e_free(r);
    /* n=3: the same truncation (rank 2's 22 values into 21). */
    r = EX("-n", "3", EXAMPLE("mergesort.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 1, "mpi_error", "truncated", src, "// [RECV]"));
    e2e_free(r);
    /* n=2: at most one run is ever sent to a rank. */
    r = EX("-n", "2", EXAMPLE("mergesort.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

static void test_wildcard_deadlock(void) {
    const char *src = "examples/wildcard_deadlock.c";
    e2e_result *r = EX("-n", "3", EXAMPLE("wildcard_deadlock.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* [FROM2] */");
    EXPECT_BLOCKED_AT(r, f, "rank 1: MPI_Recv(source=2", src, "/* [FROM2] */");
    /* The ordering is the one where rank 2's message matches the wildcard. */
    EXPECT_BLOCK_HAS(r, f, "rank 1 receives from rank 2");
    char *trace = FINDING_TRACE(r, f);
    EXPECT_TRACE_FILE(r, trace, "deadlock", 3, "eager", ordering_steps(f));
    g_free(trace);
    g_free(f);
    e2e_free(r);
    r = EX("-n", "2", EXAMPLE("wildcard_deadlock.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

static void test_waitany_race(void) {
    e2e_result *r = EX("-n", "4", EXAMPLE("waitany_race.c"));
    EXPECT_NO_ERROR_RACE(r);
    char *f = EXPECT_XWARNING(r, 1, "message_race", "6 different outcomes");
    EXPECT_BLOCK_HAS(r, f, "ordering A:");
    EXPECT_BLOCK_HAS(r, f, "ordering B:");
    EXPECT_BLOCK_HAS(r, f, "  traces: ");
    EXPECT_BLOCK_LACKS(r, f, "not buffered");
    g_free(f);
    EXPECT_ERR_LACKS(r, "[deadlock]");
    e2e_free(r);

    r = EX("--divergence=error", "-n", "4", EXAMPLE("waitany_race.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 1, "message_race", "6 different outcomes", NULL, NULL));
    EXPECT_ERR_LACKS(r, "WARNING [");
    e2e_free(r);

    r = EX("--divergence=ignore", "-n", "4", EXAMPLE("waitany_race.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);

    r = EX("-n", "3", EXAMPLE("waitany_race.c"));
    EXPECT_NO_ERROR_RACE(r);
    g_free(EXPECT_XWARNING(r, 1, "message_race", "2 different outcomes"));
    e2e_free(r);

    r = EX("-n", "2", EXAMPLE("waitany_race.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

/* A wildcard receive on an intercommunicator: its two senders are the
 * other group's, and both orders are explored. */
static void test_intercomm_race(void) {
    e2e_result *r = EX("-n", "4", e2e_src("tests/programs/intercomm_errors.c"), "race");
    EXPECT_NO_ERROR_RACE(r);
    char *f = EXPECT_XWARNING(r, 1, "message_race", "2 different outcomes");
    EXPECT_BLOCK_HAS(r, f, "rank 0: first from world rank 1");
    EXPECT_BLOCK_HAS(r, f, "rank 0: first from world rank 3");
    g_free(f);
    e2e_free(r);
}

static void test_probe_race(void) {
    const char *src = "examples/probe_race.c";
    e2e_result *r = EX("-n", "3", EXAMPLE("probe_race.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "mpi_error", "truncated", src, "/* [RECV] */");
    EXPECT_BLOCK_HAS(r, f, "rank 0: MPI_Recv");
    EXPECT_BLOCK_HAS(r, f, "rank 1 sent");
    /* Another rank's message was probed first. */
    EXPECT_BLOCK_HAS(r, f, "sees the message of rank 2");
    g_free(f);
    e2e_free(r);
    r = EX("-n", "2", EXAMPLE("probe_race.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

static void test_deadlock_cycle(void) {
    const char *src = "examples/deadlock_cycle.c";
    e2e_result *r = EX("-n", "4", EXAMPLE("deadlock_cycle.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "deadlock", "when MPI_Send is not buffered", src, "/* [SEND] */");
    for (int k = 0; k < 4; k++) {
        char *who = g_strdup_printf("rank %d: MPI_Send(dest=%d", k, (k + 1) % 4);
        EXPECT_BLOCKED_AT(r, f, who, src, "/* [SEND] */");
        g_free(who);
    }
    char *trace = FINDING_TRACE(r, f);
    /* Found in the unbuffered pass: its trace replays with rendezvous sends. */
    EXPECT_TRACE_FILE(r, trace, "deadlock", 4, "rendezvous", ordering_steps(f));
    g_free(trace);
    g_free(f);
    e2e_free(r);

    /* Buffered sends only: no error. */
    r = EX("--send-mode=eager", "-n", "4", EXAMPLE("deadlock_cycle.c"));
    EXPECT_NO_ERROR(r);
    EXPECT_SUMMARY(r, 4, false);
    e2e_free(r);

    /* Unbuffered only: the deadlock, in every ordering. */
    r = EX("--send-mode=rendezvous", "-n", "4", EXAMPLE("deadlock_cycle.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* [SEND] */"));
    e2e_free(r);
}

static void test_deadlock_else(void) {
    const char *src = "examples/deadlock_else.c";
    e2e_result *r = EX("-n", "3", EXAMPLE("deadlock_else.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* [RECV] */");
    EXPECT_BLOCKED_AT(r, f, "rank 2: MPI_Recv(source=0", src, "/* [RECV] */");
    EXPECT_BLOCK_LACKS(r, f, "not buffered"); /* found with buffering already */
    g_free(f);
    e2e_free(r);

    r = EX("-n", "2", EXAMPLE("deadlock_else.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);

    /* n=1: rank 0 sends to rank 1, which does not exist. */
    r = EX("-n", "1", EXAMPLE("deadlock_else.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 1, "mpi_error", "not a rank", src, "/* [SEND] */"));
    e2e_free(r);
}

static void test_barrier_comm(void) {
    const char *src = "examples/barrier_comm.c";
    e2e_result *r = EX("-n", "4", EXAMPLE("barrier_comm.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* [WORLD] */");
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_Barrier(", src, "/* [WORLD] */");
    EXPECT_BLOCKED_AT(r, f, "rank 2: MPI_Barrier(", src, "/* [HALF] */");
    EXPECT_BLOCK_LACKS(r, f, "rank 1: MPI_Barrier"); /* the odd half finishes */
    g_free(f);
    e2e_free(r);
    r = EX("-n", "1", EXAMPLE("barrier_comm.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

/* The read at [READ] of the buffer that the receive posted at [POST] may
 * still write: a data race on the receive buffer in every ordering where the
 * receive is pending then.  Built without the access checks, the same bug
 * shows as a message race (the outcomes differ). */
static void test_neighbor_exchange(void) {
    const char *src = "examples/neighbor_exchange.c";
    e2e_result *r = EX("-n", "3", EXAMPLE("neighbor_exchange.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "data_race", "receive buffer of MPI_Irecv", src, "// [POST]");
    char *read = g_strdup_printf("a load by rank 1 at neighbor_exchange.c:%d",
                                 e2e_marker_line(src, "/* [READ] */"));
    EXPECT_BLOCK_HAS(r, f, read);
    g_free(read);
    g_free(f);
    e2e_free(r);

    const char *so = e2e_tmp("neighbor_exchange.so");
    r = e2e_ordex_run("cc", "--no-access-checks", "-o", so, EXAMPLE("neighbor_exchange.c"), NULL);
    CU_ASSERT_EQUAL_FATAL(r->status, 0);
    e2e_free(r);
    r = EX("-n", "3", so);
    EXPECT_NO_ERROR_RACE(r);
    f = EXPECT_XWARNING(r, 1, "message_race", "different outcomes");
    EXPECT_BLOCK_HAS(r, f, "ordering A:");
    EXPECT_BLOCK_HAS(r, f, "ordering B:");
    g_free(f);
    e2e_free(r);

    r = EX("-n", "3", EXAMPLE("neighbor_exchange.c"), "--fixed");
    EXPECT_NO_ERROR(r);
    EXPECT_ERR_LACKS(r, "message_race");
    e2e_free(r);

    r = EX("-n", "2", EXAMPLE("neighbor_exchange.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

/* The race does not need unbuffered sends: with buffered (eager) MPI_Isend
 * the second neighbour's message can already be pending when the receive at
 * [POST] is posted and complete it before [READ] (real MPICH, which sends
 * these 8-byte messages eagerly, gives varying totals).  Exploring that needs
 * deliveries while the receiver computes: --async-progress. */
static void test_neighbor_exchange_eager(void) {
    const char *j = json_path("neighbor_eager");
    /* Built without the access checks, which would report the read of the
     * pending receive's buffer as a data race at once. */
    const char *so = e2e_tmp("neighbor_exchange_eager.so");
    e2e_result *r =
        e2e_ordex_run("cc", "--no-access-checks", "-o", so, EXAMPLE("neighbor_exchange.c"), NULL);
    CU_ASSERT_EQUAL_FATAL(r->status, 0);
    e2e_free(r);
    /* About 15 s on an idle machine: a larger safety limit than EX's. */
    r = e2e_ordex_run("explore", "--max-time", "600", "--send-mode=eager", "--async-progress",
                      "--json", j, "-n", "3", so, NULL);
    EXPECT_NO_ERROR_RACE(r);
    g_free(EXPECT_XWARNING(r, 1, "message_race", "different outcomes"));
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") > 1);
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_benign(void) {
    e2e_result *r = EX("-n", "4", EXAMPLE("benign_any_source.c"));
    EXPECT_NO_ERROR(r);
    EXPECT_SUMMARY(r, 4, true);
    EXPECT(r, orderings_run(r) > 2); /* many orderings, identical output */
    e2e_free(r);
    r = EX("-n", "4", EXAMPLE("benign_waitall.c"));
    EXPECT_NO_ERROR(r);
    EXPECT_SUMMARY(r, 4, true);
    e2e_free(r);
}

static void test_bcast_sync(void) {
    /* Header: "explore: deadlock when MPI_Bcast synchronises: rank 0 blocked in
     * MPI_Bcast at [BCAST0], rank 1 in MPI_Recv at [RECV]; ranks >= 2 in
     * MPI_Bcast at [BCASTN]". */
    const char *src = "examples/bcast_sync.c";
    e2e_result *r = EX("-n", "2", EXAMPLE("bcast_sync.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* [BCAST0] */");
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_Bcast(", src, "/* [BCAST0] */");
    EXPECT_BLOCKED_AT(r, f, "rank 1: MPI_Recv(", src, "/* [RECV] */");
    /* Only when MPI_Bcast synchronises (MPICH's root leaves early). */
    EXPECT_BLOCK_HAS(r, f, "MPI_Bcast to synchronise");
    g_free(f);
    e2e_free(r);
    r = EX("-n", "3", EXAMPLE("bcast_sync.c"));
    EXPECT_ERRORS(r, 1);
    f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* [BCAST0] */");
    EXPECT_BLOCKED_AT(r, f, "rank 2: MPI_Bcast(", src, "/* [BCASTN] */");
    g_free(f);
    e2e_free(r);
    r = EX("-n", "1", EXAMPLE("bcast_sync.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

static void test_ring(void) {
    e2e_result *r = EX("-n", "3", EXAMPLE("ring.c"), "2");
    EXPECT_NO_ERROR(r);
    EXPECT_SUMMARY(r, 3, true);
    e2e_free(r);
}

static void test_heat(void) {
    e2e_result *r = EX("-n", "3", EXAMPLE("heat.c"), "12", "3");
    EXPECT_NO_ERROR(r);
    EXPECT_SUMMARY(r, 3, true);
    e2e_free(r);
}

static void test_pingpong(void) {
    e2e_result *r = EX("-n", "2", EXAMPLE("pingpong.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

static void test_nbexchange(void) {
    e2e_result *r = EX("-n", "2", EXAMPLE("nbexchange.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
    r = EX("-n", "3", EXAMPLE("nbexchange.c"), "2");
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) > 2); /* MPI_Waitany picks in many orders */
    e2e_free(r);
}

/* Orderings that differ only in what MPI_Waitany reported merge: the index
 * and status the next MPI_Waitany will overwrite are left out of the state,
 * and request handles are reused lowest first, not in the order freed.  The
 * first round's two orderings meet at the second round: 2 orderings run per
 * pass instead of 4.  Built without the instrumentation of loads and
 * stores: with it, GCC keeps the element it loaded in rbx across the
 * instrumentation's calls, and that callee-saved register, part of the
 * state at the next MPI call, holds a different value in each ordering. */
static void test_waitany_merge(void) {
    const char *so = e2e_tmp("waitany_merge.so");
    e2e_result *r =
        e2e_ordex_run("cc", "--no-access-checks", "-o", so, PROG("waitany_merge.c"), NULL);
    CU_ASSERT_EQUAL_FATAL(r->status, 0);
    e2e_free(r);
    r = EX("-n", "3", so);
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) == 4);
    EXPECT(r, stat_before(r, " merged into known states") == 2);
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "3", PROG("waitany_merge.c"), NULL);
    EXPECT_OUT_HAS(r, "sum 165\n");
    e2e_free(r);
}

/* A value kept in a callee-saved register across MPI calls is part of the
 * state: the two orderings of the first round meet the second with equal
 * memory but different registers, and must not merge (the race on `first`
 * was missed when they did). */
static void test_register_state(void) {
    e2e_result *r = EX("-n", "3", PROG("register_merge.c"));
    EXPECT_NO_ERROR_RACE(r);
    g_free(EXPECT_XWARNING(r, 1, "message_race", "2 different outcomes"));
    EXPECT(r, stat_before(r, " merged into known states") == 0);
    e2e_free(r);
}

/* Variables whose lifetime has ended are left out of the state: those of a
 * block the frame has left (here in the frame above the one in MPI_Recv),
 * and those of the current block declared after the pending call.  A live
 * variable still keeps orderings apart, and so does one declared after the
 * call when a backward goto brings the same object back to it. */
static void test_dead_locals(void) {
    static const char *const modes[] = {"block", "later"};
    for (size_t i = 0; i < G_N_ELEMENTS(modes); i++) {
        e2e_result *r = EX("-n", "3", PROG("dead_locals.c"), modes[i]);
        EXPECT_NO_ERROR(r);
        EXPECT(r, orderings_run(r) == 4);
        EXPECT(r, stat_before(r, " merged into known states") == 2);
        e2e_free(r);
    }
    static const char *const kept[] = {"live", "goto"}; /* the value is still used */
    for (size_t i = 0; i < G_N_ELEMENTS(kept); i++) {
        e2e_result *r = EX("-n", "3", PROG("dead_locals.c"), kept[i]);
        EXPECT_NO_ERROR_RACE(r);
        g_free(EXPECT_XWARNING(r, 1, "message_race", "2 different outcomes"));
        EXPECT(r, stat_before(r, " merged into known states") == 0);
        e2e_free(r);
    }
}

/* The orderings' outcomes are summed up as the orderings end, not recorded
 * one by one.  1,152 orderings of over 10,000 steps used to fill the record
 * of explored paths (256 MiB) after about 480 of them and stop the
 * exploration, losing the deadlock of the unbuffered pass.  The pair of
 * orderings a race is reported with still shares the longest prefix of any
 * two orderings with different outcomes (2 x 5000 + 6 steps, see the
 * program), whichever depth-first way the orderings are explored in. */
static void test_long_orderings(void) {
    const char *src = "tests/programs/long_orderings.c";
    e2e_result *r = EX("-n", "5", PROG("long_orderings.c"), "5000");
    EXPECT_NO_ERROR_RACE(r);
    char *f = EXPECT_XWARNING(r, 1, "message_race", "576 different outcomes");
    EXPECT_BLOCK_HAS(r, f, "two orderings share their first 10006 steps");
    g_free(f);
    EXPECT(r, orderings_run(r) == 1152);
    e2e_free(r);

    r = EX("-n", "5", PROG("long_orderings.c"), "5000", "lost");
    EXPECT_ERRORS(r, 2);
    g_free(EXPECT_XERROR(r, 2, "lost_message", "was never received", src, "/* [LOST] */"));
    g_free(
        EXPECT_XERROR(r, 2, "deadlock", "only when MPI_Send is not buffered", src, "/* [LOST] */"));
    e2e_free(r);

    static const char *const ways[][2] = {{"--checkpoint=copy", "--jobs=1"},
                                          {"--checkpoint=replay", "--jobs=1"},
                                          {"--strategy=dfs-branches", "--branches=20"}};
    for (size_t i = 0; i < G_N_ELEMENTS(ways); i++) {
        r = EX(ways[i][0], ways[i][1], "-n", "5", PROG("long_orderings.c"), "20");
        EXPECT_NO_ERROR_RACE(r);
        f = EXPECT_XWARNING(r, 1, "message_race", "576 different outcomes");
        EXPECT_BLOCK_HAS(r, f, "two orderings share their first 46 steps");
        g_free(f);
        e2e_free(r);
    }
}

/* Ranks keep a log open across their MPI calls and read it back at the
 * end.  A forked snapshot shares the file with the orderings forked from
 * it: their lines went into its log, and rank 0 counted more lines in the
 * orderings explored later, a race the program does not have.  Copy
 * snapshots (the default) find the log closed by the earlier path: the
 * search goes on with fork snapshots from where it stood, finds what fork
 * snapshots find, and says why it switched.  The log on disk afterwards is
 * one ordering's. */
static void test_rank_log(void) {
    char *dir = g_dir_make_tmp("ordex-rank-log-XXXXXX", NULL);
    CU_ASSERT_FATAL(dir != NULL);
    static const char *const ways[] = {"--checkpoint=fork", "--checkpoint=replay",
                                       "--checkpoint=copy", "--strategy=exhaustive"};
    for (size_t i = 0; i < G_N_ELEMENTS(ways); i++) {
        const char *j = json_path("rank_log");
        e2e_result *r = EX(ways[i], "--json", j, "-n", "3", PROG("rank_log.c"), dir);
        EXPECT_NO_ERROR(r);
        EXPECT(r, orderings_run(r) == 4);
        EXPECT(r, stat_before(r, " branching states, ") == 2);
        JsonObject *doc = EXPECT_JSON_FILE(r, j);
        EXPECT(r, e2e_json_str_is(doc, "verdict", "ok"));
        EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") == 1 &&
                      e2e_json_num(doc, "stats.outcomes[1]") == 1);
        bool copy = i >= 2;
        EXPECT(r, e2e_json_str_is(doc, "checkpoint", copy ? "copy" : i == 0 ? "fork" : "replay"));
        const char *sw = e2e_json_str(doc, "checkpoint_switched");
        if (copy) {
            EXPECT(r, sw && strstr(sw, "a file the program had open at a snapshot was closed"));
            EXPECT(r, e2e_json_str_is(doc, "checkpoint_switched_to", "fork"));
            EXPECT(r, e2e_json_str_is(doc, "checkpoint_switched_in", "buffered pass"));
            /* After the first ordering: one state each pass... */
            EXPECT(r, e2e_json_num(doc, "checkpoint_switched_after_states") == 1);
            EXPECT_ERR_HAS(r, "ordex explore: copy snapshots could not go on (a file the program "
                              "had open at a snapshot was closed");
            EXPECT_ERR_HAS(r, "the search went on from there with fork snapshots\n");
        } else {
            EXPECT(r, sw == NULL && e2e_json_is_null(doc, "checkpoint_switched"));
            EXPECT(r, strstr(r->err, "could not go on") == NULL);
        }
        e2e_json_free(doc);
        e2e_free(r);
        char *path = g_build_filename(dir, "rank_log.0", NULL), *log = NULL;
        CU_ASSERT(g_file_get_contents(path, &log, NULL, NULL));
        CU_ASSERT_STRING_EQUAL(log, "start\nheard from a rank\nheard from a rank\n");
        g_free(log);
        g_free(path);
    }
    for (int rank = 0; rank < 3; rank++) {
        char *name = g_strdup_printf("rank_log.%d", rank),
             *path = g_build_filename(dir, name, NULL);
        g_unlink(path);
        g_free(path);
        g_free(name);
    }
    g_rmdir(dir);
    g_free(dir);
}

static void test_floyd_steinberg(void) {
    e2e_result *r = EX("-n", "2", EXAMPLE("floyd_steinberg.c"), "8");
    EXPECT_NO_ERROR(r);
    e2e_free(r);
    r = EX("-n", "3", EXAMPLE("floyd_steinberg.c"), "8");
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) > 2); /* rank 0 collects rows in arrival order */
    e2e_free(r);
}

static void test_lu(void) {
    e2e_result *r = EX("-n", "2", EXAMPLE("lu.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
    r = EX("-n", "3", EXAMPLE("lu.c"), "1");
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) > 2); /* panels taken in arrival order */
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Reduction soundness: with and without partial-order reduction          */

/* "kind@location" of every finding, sorted, one per line; NULL if the JSON
 * has no findings array. */
static char *finding_keys(JsonObject *doc) {
    int n = e2e_json_len(doc, "findings");
    if (n < 0)
        return NULL;
    GString *s = g_string_new(NULL);
    for (int i = 0; i < n; i++) {
        char *at = g_strdup_printf("findings[%d].location", i);
        const char *loc = e2e_json_str(doc, at);
        g_free(at);
        at = g_strdup_printf("findings[%d].kind", i);
        const char *kind = e2e_json_str(doc, at);
        g_free(at);
        g_string_append_printf(s, "%s@%s\n", kind ? kind : "(null)", loc ? loc : "-");
    }
    char *sorted = e2e_sorted_lines(s->str);
    g_string_free(s, TRUE);
    return sorted;
}

/* `ordex explore --max-time 60 OPTS... --json JSON -n NP PROG [ARG [ARG2]]`
 * (opts NULL-terminated, may be NULL). */
static e2e_result *explore_with(const char *const *opts, const char *json, const char *np,
                                const char *prog, const char *arg, const char *arg2) {
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, (gpointer) "explore");
    g_ptr_array_add(a, (gpointer) "--max-time");
    g_ptr_array_add(a, (gpointer) "60");
    for (int i = 0; opts && opts[i]; i++)
        g_ptr_array_add(a, (gpointer)opts[i]);
    const char *tail[] = {"--json", json, "-n", np, e2e_src(prog), arg, arg2};
    for (size_t i = 0; i < G_N_ELEMENTS(tail) && tail[i]; i++)
        g_ptr_array_add(a, (gpointer)tail[i]);
    g_ptr_array_add(a, NULL);
    e2e_result *r = e2e_ordex_runv((const char *const *)a->pdata);
    g_ptr_array_free(a, TRUE);
    return r;
}

/* Explores prog twice, by default ("rd") and with the options `other`
 * (NULL-terminated; "ro"), and checks both give the same complete verdict,
 * findings and outcomes; with --no-por also that reduction took no more
 * transitions. */
static void compare_with(const char *const *other, const char *prog, const char *np,
                         const char *arg, const char *arg2) {
    bool nopor = strcmp(other[0], "--no-por") == 0;
    const char *jr = json_path("default");
    const char *ju = json_path("other");
    e2e_result *rd = explore_with(NULL, jr, np, prog, arg, arg2);
    e2e_result *ro = explore_with(other, ju, np, prog, arg, arg2);
    EXPECT(rd, rd->status == 0 || rd->status == 1);
    EXPECT(ro, ro->status == 0 || ro->status == 1);
    if (nopor)
        EXPECT(ro, strstr(ro->err, "without reduction") != NULL);
    if (rd->status != ro->status) {
        e2e_check(false, rd, "same exit status (default run)", __FILE__, __LINE__);
        e2e_check(false, ro, "same exit status (run with the other option)", __FILE__, __LINE__);
    }
    JsonObject *a = EXPECT_JSON_FILE(rd, jr), *b = EXPECT_JSON_FILE(ro, ju);
    if (a && b) {
        const char *va = e2e_json_str(a, "verdict"), *vb = e2e_json_str(b, "verdict");
        EXPECT(rd, va && strcmp(va, "incomplete") != 0);
        EXPECT(ro, vb && strcmp(vb, "incomplete") != 0);
        char *what =
            g_strdup_printf("same verdict: default %s, other %s", va ? va : "?", vb ? vb : "?");
        if (!e2e_check(va && vb && strcmp(va, vb) == 0, rd, what, __FILE__, __LINE__))
            e2e_dump(ro, "(the run with the other option)", __FILE__, __LINE__);
        g_free(what);

        char *ka = finding_keys(a), *kb = finding_keys(b);
        what = g_strdup_printf("same findings (kind@location): default\n%sother\n%s",
                               ka ? ka : "(none)\n", kb ? kb : "(none)\n");
        if (!e2e_check(ka && kb && strcmp(ka, kb) == 0, rd, what, __FILE__, __LINE__))
            e2e_dump(ro, "(the run with the other option)", __FILE__, __LINE__);
        g_free(what);
        g_free(ka);
        g_free(kb);

        double o[4] = {e2e_json_num(a, "stats.outcomes[0]"), e2e_json_num(a, "stats.outcomes[1]"),
                       e2e_json_num(b, "stats.outcomes[0]"), e2e_json_num(b, "stats.outcomes[1]")};
        what = g_strdup_printf("same outcomes per pass: default [%g, %g], other [%g, %g]", o[0],
                               o[1], o[2], o[3]);
        if (!e2e_check(e2e_json_len(a, "stats.outcomes") == 2 &&
                           e2e_json_len(b, "stats.outcomes") == 2 && o[0] == o[2] && o[1] == o[3],
                       rd, what, __FILE__, __LINE__))
            e2e_dump(ro, "(the run with the other option)", __FILE__, __LINE__);
        g_free(what);

        double ta = e2e_json_num(a, "stats.transitions"), tb = e2e_json_num(b, "stats.transitions");
        what = g_strdup_printf("reduced transitions (%g) <= unreduced (%g)", ta, tb);
        if (nopor && !e2e_check(ta >= 0 && tb >= 0 && ta <= tb, rd, what, __FILE__, __LINE__))
            e2e_dump(ro, "(the run with the other option)", __FILE__, __LINE__);
        g_free(what);

        EXPECT(rd, e2e_json_bool(a, "stats.por") == 1);
        EXPECT(ro, e2e_json_bool(b, "stats.por") == !nopor);
    }
    e2e_json_free(a);
    e2e_json_free(b);
    e2e_free(rd);
    e2e_free(ro);
}

/* "kind@location: message" of every finding, sorted, one per line. */
static char *finding_texts(JsonObject *doc) {
    int n = e2e_json_len(doc, "findings");
    GString *s = g_string_new(NULL);
    for (int i = 0; i < n; i++) {
        const char *f[3];
        static const char *const keys[] = {"kind", "location", "message"};
        for (int k = 0; k < 3; k++) {
            char *at = g_strdup_printf("findings[%d].%s", i, keys[k]);
            f[k] = e2e_json_str(doc, at);
            g_free(at);
        }
        g_string_append_printf(s, "%s@%s: %s\n", f[0] ? f[0] : "?", f[1] ? f[1] : "-",
                               f[2] ? f[2] : "?");
    }
    char *sorted = e2e_sorted_lines(s->str);
    g_string_free(s, TRUE);
    return sorted;
}

/* Explores prog with the options `a` and with `b` (NULL-terminated) and
 * checks that both end alike (exit status), with the same verdict, the
 * same findings (kind, location, message), the same distinct outcomes per
 * pass and the same counts of branching states, transitions, orderings and
 * merges: searches that go depth first in the same order (one job), such as
 * copy and fork snapshots, cover the same orderings, also when a limit cuts
 * them.  Returns the path of a's JSON report (valid until e2e_fini). */
static const char *compare_two(const char *const *a, const char *const *b, const char *prog,
                               const char *np, const char *arg) {
    const char *ja = json_path("a"), *jb = json_path("b");
    e2e_result *ra = explore_with(a, ja, np, prog, arg, NULL);
    e2e_result *rb = explore_with(b, jb, np, prog, arg, NULL);
    JsonObject *da = EXPECT_JSON_FILE(ra, ja), *db = EXPECT_JSON_FILE(rb, jb);
    GString *sa = g_string_new(NULL), *sb = g_string_new(NULL);
    JsonObject *docs[2] = {da, db};
    GString *sums[2] = {sa, sb};
    for (int k = 0; k < 2; k++) {
        JsonObject *d = docs[k];
        if (!d)
            continue;
        char *f = finding_texts(d);
        const char *v = e2e_json_str(d, "verdict");
        g_string_append_printf(
            sums[k],
            "exit %d, verdict %s, outcomes [%g, %g], %g states, %g "
            "transitions, %g orderings, %g merged\n%s",
            k ? rb->status : ra->status, v ? v : "?", e2e_json_num(d, "stats.outcomes[0]"),
            e2e_json_num(d, "stats.outcomes[1]"), e2e_json_num(d, "stats.states"),
            e2e_json_num(d, "stats.transitions"), e2e_json_num(d, "stats.paths"),
            e2e_json_num(d, "stats.merged"), f);
        g_free(f);
    }
    char *what = g_strdup_printf("%s -n %s %s: the same results both ways:\n--- first:\n%s--- "
                                 "second:\n%s",
                                 prog, np, arg ? arg : "", sa->str, sb->str);
    if (!e2e_check(da && db && strcmp(sa->str, sb->str) == 0, ra, what, __FILE__, __LINE__))
        e2e_dump(rb, "(the second run)", __FILE__, __LINE__);
    g_free(what);
    g_string_free(sa, TRUE);
    g_string_free(sb, TRUE);
    e2e_json_free(da);
    e2e_json_free(db);
    e2e_free(ra);
    e2e_free(rb);
    return ja;
}

/* Every example, with the ranks and arguments of its header's first
 * `ordex explore -n N NAME.c ARGS` line ([optional] arguments left out),
 * finds the same with the default copy snapshots as with fork snapshots,
 * counts included.  --max-states keeps the larger ones short: both
 * searches then stop at the same place.  (tests/check_copy_default.sh does
 * the same for every test program.) */
/* The examples (sorted names of examples/NAME.c; g_ptr_array_free) and,
 * for one, the ranks and argument of its header's first `ordex explore -n N
 * NAME.c ARGS` line ([optional] arguments left out; *np "3" when none). */
static gint by_name(gconstpointer a, gconstpointer b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static GPtrArray *example_names(void) {
    GDir *d = g_dir_open(e2e_src("examples"), 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (const char *name; (name = g_dir_read_name(d));)
        if (g_str_has_suffix(name, ".c"))
            g_ptr_array_add(names, g_strdup(name));
    g_dir_close(d);
    g_ptr_array_sort(names, by_name);
    return names;
}

static void example_args(const char *name, char **np, char **arg) {
    char *rel = g_strdup_printf("examples/%s", name), *text = NULL;
    CU_ASSERT_FATAL(g_file_get_contents(e2e_src(rel), &text, NULL, NULL));
    *np = g_strdup("3");
    *arg = NULL;
    char **lines = g_strsplit(text, "\n", 80);
    for (int l = 0; lines[l] && lines[l + 1]; l++) {
        char *at = strstr(lines[l], "ordex explore -n ");
        char *file = at ? strstr(at, name) : NULL;
        if (!file)
            continue;
        g_free(*np);
        *np = g_strndup(at + strlen("ordex explore -n "),
                        strspn(at + strlen("ordex explore -n "), "0123456789"));
        char *rest = g_strstrip(g_strdup(file + strlen(name)));
        if (rest[0] && rest[0] != '[' && !g_ascii_isupper(rest[0]))
            *arg = g_strndup(rest, strcspn(rest, " "));
        g_free(rest);
        break;
    }
    g_strfreev(lines);
    g_free(text);
    g_free(rel);
}

/* Every example finds the same with the default copy snapshots as with fork
 * snapshots, counts included.  --max-states keeps the larger ones short:
 * both searches then stop at the same place.  (tests/check_copy_default.sh
 * does the same for every test program.) */
static void test_copy_default_every_example(void) {
    GPtrArray *names = example_names();
    int compared = 0;
    for (guint i = 0; i < names->len; i++) {
        const char *name = g_ptr_array_index(names, i);
        char *rel = g_strdup_printf("examples/%s", name), *np, *arg;
        example_args(name, &np, &arg);
        static const char *const copy[] = {"--max-states", "400", NULL};
        static const char *const fork_[] = {"--max-states", "400", "--checkpoint=fork", NULL};
        const char *j = compare_two(copy, fork_, rel, np, arg);
        JsonObject *doc = e2e_json_file(NULL, j, __FILE__, __LINE__);
        EXPECT(NULL, e2e_json_str_is(doc, "checkpoint", "copy"));
        e2e_json_free(doc);
        compared++;
        g_free(np);
        g_free(arg);
        g_free(rel);
    }
    CU_ASSERT(compared >= 30);
    g_ptr_array_free(names, TRUE);
}

static void compare_with(const char *const *other, const char *prog, const char *np,
                         const char *arg, const char *arg2);

/* --jobs 2 (two workers with copy snapshots, sharing the visited set and
 * the work) finds on every example, explored completely, the verdict,
 * findings and distinct outcomes of one job. */
static void test_jobs_every_example(void) {
    GPtrArray *names = example_names();
    static const char *const jobs[] = {"--jobs", "2", NULL};
    int compared = 0;
    for (guint i = 0; i < names->len; i++) {
        const char *name = g_ptr_array_index(names, i);
        char *rel = g_strdup_printf("examples/%s", name), *np, *arg;
        example_args(name, &np, &arg);
        compare_with(jobs, rel, np, arg, NULL);
        compared++;
        g_free(np);
        g_free(arg);
        g_free(rel);
    }
    CU_ASSERT(compared >= 30);
    g_ptr_array_free(names, TRUE);
}

static void compare_runs(const char *other, const char *prog, const char *np, const char *arg,
                         const char *arg2) {
    const char *opts[] = {other, NULL};
    compare_with(opts, prog, np, arg, arg2);
}

/* Program arguments: up to two, NULL-terminated (NULL, NULL for none). */
#define REDUCTION_TEST(fn, prog, np, arg, arg2)                                                    \
    static void fn(void) {                                                                         \
        compare_runs("--no-por", prog, np, arg, arg2);                                             \
    }
REDUCTION_TEST(test_red_mergesort4, "examples/mergesort.c", "4", NULL, NULL)
REDUCTION_TEST(test_red_mergesort3, "examples/mergesort.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_wildcard_deadlock, "examples/wildcard_deadlock.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_waitany_race, "examples/waitany_race.c", "4", NULL, NULL)
REDUCTION_TEST(test_red_probe_race3, "examples/probe_race.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_probe_race4, "examples/probe_race.c", "4", NULL, NULL)
REDUCTION_TEST(test_red_neighbor_exchange, "examples/neighbor_exchange.c", "3", NULL, NULL)

/* A wildcard receive whose every possible sender already has a message for
 * it waiting orders its rank's deliveries alone (wildcard_covered in
 * simulator/engine.c): on LU with 3 ranks the reduced search then visits
 * fewer branching states than the full one in each pass (before, 142
 * against 139 in each: sleep sets alone do not cut states), with the same
 * verdict and outcomes.  The unbuffered pass needs the program's panels,
 * sent with MPI_Isend, to count as staying queued: LU never calls
 * MPI_Cancel (sched_program_may_cancel). */
static void test_red_lu3_covered(void) {
    compare_runs("--no-por", "examples/lu.c", "3", "1", NULL);
    const char *one[] = {"--jobs", "1", NULL}, *full[] = {"--jobs", "1", "--no-por", NULL};
    const char *jr = json_path("lu3"), *jf = json_path("lu3-full");
    e2e_result *rr = explore_with(one, jr, "3", "examples/lu.c", "1", NULL);
    e2e_result *rf = explore_with(full, jf, "3", "examples/lu.c", "1", NULL);
    EXPECT_STATUS(rr, 0);
    EXPECT_STATUS(rf, 0);
    JsonObject *a = EXPECT_JSON_FILE(rr, jr), *b = EXPECT_JSON_FILE(rf, jf);
    for (int pass = 0; a && b && pass < 2; pass++) {
        char *key = g_strdup_printf("passes[%d].states", pass);
        double sr = e2e_json_num(a, key), sf = e2e_json_num(b, key);
        char *what = g_strdup_printf("pass %d: reduced states (%g) < unreduced (%g)", pass, sr, sf);
        e2e_check(sr > 0 && sf > 0 && sr < sf, rr, what, __FILE__, __LINE__);
        g_free(what);
        g_free(key);
    }
    e2e_json_free(a);
    e2e_json_free(b);
    e2e_free(rr);
    e2e_free(rf);
}

/* A program that may cancel requests is explored without reduction, and
 * says so: a delivery at one rank can wake a rank that then withdraws a
 * message, or a receive, that another rank's event needs, so deliveries at
 * different ranks are not independent there.  With the reduction on, the
 * search lost 3 of 12 outcomes of cancel_send_race and 2 of 4 of
 * cancel_recv_woken (unbuffered pass). */
static void test_red_cancel(void) {
    static const struct {
        const char *prog, *np;
        double outcomes[2];
    } cases[] = {{"tests/programs/cancel_send_race.c", "4", {6, 12}},
                 {"tests/programs/cancel_recv_woken.c", "3", {2, 4}}};
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *one[] = {"--jobs", "1", NULL}, *full[] = {"--jobs", "1", "--no-por", NULL};
        const char *jr = json_path("cancel"), *jf = json_path("cancel-full");
        e2e_result *rr = explore_with(one, jr, cases[i].np, cases[i].prog, NULL, NULL);
        e2e_result *rf = explore_with(full, jf, cases[i].np, cases[i].prog, NULL, NULL);
        EXPECT_STATUS(rr, 0);
        EXPECT_STATUS(rf, 0);
        EXPECT_ERR_HAS(rr, "without reduction");
        EXPECT_ERR_HAS(rr, "ordex explore: no reduction: the program may cancel requests (it "
                           "calls MPI_Cancel, or looks functions up at run time)");
        JsonObject *a = EXPECT_JSON_FILE(rr, jr), *b = EXPECT_JSON_FILE(rf, jf);
        if (a && b) {
            EXPECT(rr, e2e_json_bool(a, "stats.por") == 0);
            EXPECT(rr, e2e_json_str(a, "stats.por_off_reason") != NULL);
            for (int pass = 0; pass < 2; pass++) {
                char *key = g_strdup_printf("stats.outcomes[%d]", pass);
                double x = e2e_json_num(a, key), y = e2e_json_num(b, key);
                char *what = g_strdup_printf("%s pass %d: outcomes %g, full search %g, expected %g",
                                             cases[i].prog, pass, x, y, cases[i].outcomes[pass]);
                e2e_check(x == cases[i].outcomes[pass] && y == x, rr, what, __FILE__, __LINE__);
                g_free(what);
                g_free(key);
            }
        }
        e2e_json_free(a);
        e2e_json_free(b);
        e2e_free(rr);
        e2e_free(rf);
    }
}

REDUCTION_TEST(test_red_neighbor_fixed, "examples/neighbor_exchange.c", "3", "--fixed", NULL)
REDUCTION_TEST(test_red_benign_any_source, "examples/benign_any_source.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_benign_waitall, "examples/benign_waitall.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_deadlock_cycle, "examples/deadlock_cycle.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_deadlock_else, "examples/deadlock_else.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_barrier_comm, "examples/barrier_comm.c", "4", NULL, NULL)
REDUCTION_TEST(test_red_bcast_sync, "examples/bcast_sync.c", "2", NULL, NULL)
REDUCTION_TEST(test_red_nbexchange, "examples/nbexchange.c", "2", NULL, NULL)
REDUCTION_TEST(test_red_floyd_steinberg, "examples/floyd_steinberg.c", "3", "8", NULL)
REDUCTION_TEST(test_red_lu, "examples/lu.c", "3", "1", NULL)
REDUCTION_TEST(test_red_heat, "examples/heat.c", "3", "12", "3")
REDUCTION_TEST(test_red_ring, "examples/ring.c", "3", "2", NULL)
REDUCTION_TEST(test_red_waitany_ranks, "tests/programs/waitany_ranks.c", "4", NULL, NULL)

/* Choices inside calls are events: rank 0's and rank 1's MPI_Waitany
 * orders are independent, so each combination is run once (4 outcomes per
 * send mode, no ordering repeated), and a trace's choice steps replay. */
static void test_choice_events(void) {
    const char *dir = e2e_tmp("waitany_ranks_traces");
    e2e_result *r = EX("--trace-dir", dir, "-n", "4", PROG("waitany_ranks.c"));
    EXPECT_NO_ERROR_RACE(r);
    g_free(EXPECT_XWARNING(r, 1, "message_race", "4 different outcomes"));
    EXPECT(r, orderings_run(r) == 8);
    e2e_free(r);
    char *trace = g_build_filename(dir, "waitany_ranks-1.trace", NULL);
    r = e2e_ordex_run("replay", trace, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_LACKS(r, "diverge");
    e2e_free(r);
    g_free(trace);
}

/* States reached with a non-empty sleep set are stored with it, so that
 * orderings of independent wildcard receives at different ranks merge once
 * they lead to the same state: lu -n 4 with 1x1 blocks ends within 60,000
 * branching states (about 735,000 when such states were not stored). */
static void test_sleep_states_stored(void) {
    e2e_result *r =
        EX("--checkpoint=copy", "--max-states", "60000", "-n", "4", EXAMPLE("lu.c"), "1");
    EXPECT_NO_ERROR(r);
    EXPECT_ERR_HAS(r, "all orderings explored");
    EXPECT(r, stat_before(r, " merged into known states") > 0);
    e2e_free(r);
}
REDUCTION_TEST(test_red_crash_some, "tests/programs/crash_some_orderings.c", "3", NULL, NULL)
REDUCTION_TEST(test_red_iprobe_once, "examples/iprobe_once.c", "2", NULL, NULL)
REDUCTION_TEST(test_red_not_yet_loop, "tests/programs/not_yet.c", "2", "loop", NULL)
REDUCTION_TEST(test_red_not_yet_testany, "tests/programs/not_yet.c", "2", "testany", NULL)

/* --checkpoint=replay (re-execute prefixes instead of keeping snapshots)
 * explores the same orderings as the default copy snapshots. */
static void test_replay_checkpoints(void) {
    compare_runs("--checkpoint=replay", "examples/mergesort.c", "4", NULL, NULL);
    compare_runs("--checkpoint=replay", "examples/wildcard_deadlock.c", "3", NULL, NULL);
    compare_runs("--checkpoint=replay", "examples/waitany_race.c", "4", NULL, NULL);
    compare_runs("--checkpoint=replay", "examples/benign_any_source.c", "3", NULL, NULL);
    compare_runs("--checkpoint=replay", "tests/programs/crash_some_orderings.c", "3", NULL, NULL);
}

/* --jobs 2 (two exploration processes at once) finds the same verdicts,
 * findings and outcomes as the depth-first default, bounded or not. */
static void test_jobs(void) {
    static const char *const jobs[] = {"--jobs", "2", NULL};
    compare_with(jobs, "examples/mergesort.c", "4", NULL, NULL);
    compare_with(jobs, "examples/wildcard_deadlock.c", "3", NULL, NULL);
    compare_with(jobs, "examples/waitany_race.c", "4", NULL, NULL);
    compare_with(jobs, "examples/bcast_sync.c", "2", NULL, NULL);
    compare_with(jobs, "examples/nbexchange.c", "4", "1", NULL);
    compare_with(jobs, "tests/programs/crash_some_orderings.c", "3", NULL, NULL);
    compare_with(jobs, "tests/programs/dead_locals.c", "3", "live", NULL);
    compare_with(jobs, "tests/programs/waitany_ranks.c", "4", NULL, NULL);
    compare_with(jobs, "tests/programs/not_yet.c", "2", "loop", NULL);
    compare_with(jobs, "tests/programs/not_yet.c", "2", "testany", NULL);
    compare_with(jobs, "examples/lu.c", "4", "1", NULL);
    /* Copy snapshots that cannot go on in one worker: all give way to fork
     * snapshots, which explore what is left. */
    compare_with(jobs, "tests/programs/mmap_rank.c", "3", NULL, NULL);
    compare_with(jobs, "tests/programs/mmap_merge.c", "5", NULL, NULL);

    /* Bounded: the deadlock that needs two departures, found with K = 2 only. */
    const char *src = "tests/programs/two_departures.c";
    e2e_result *r = EX("--strategy=dfs-branches", "--jobs", "2", "-n", "3", e2e_src(src));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 2, "deadlock", "deadlock", src, FAULT));
    e2e_free(r);
    r = EX("--strategy=dfs-branches", "--branches", "1", "--jobs", "2", "-n", "3", e2e_src(src));
    EXPECT_ERR_LACKS(r, "[deadlock]");
    e2e_free(r);
}

/* State hashing is incremental: a rank's memory is hashed again only when
 * it ran or the simulator wrote into it.  With ORDEX_CHECK_HASHES set, every
 * hash reused is computed again, and a stale one ends the search as an
 * ordex error (exit 2): here it must not happen, with either kind of
 * checkpoint, also where a message lands in a rank that waits for another
 * (late_buffer.c) and where collectives write every member. */
static void test_incremental_hashes(void) {
    e2e_setenv("ORDEX_CHECK_HASHES", "1");
    static const char *const fork_[] = {"--checkpoint=fork", NULL};
    e2e_result *r = EX("-n", "4", PROG("late_buffer.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, strstr(r->err, "internal error") == NULL);
    e2e_free(r);
    compare_with(fork_, "tests/programs/late_buffer.c", "4", NULL, NULL);
    compare_with(fork_, "examples/waitany_race.c", "4", NULL, NULL);
    compare_with(fork_, "examples/nbexchange.c", "4", "1", NULL);
    compare_with(fork_, "examples/lu.c", "3", "1", NULL);
    compare_with(fork_, "examples/bcast_sync.c", "3", NULL, NULL);
    compare_with(fork_, "tests/programs/collectives.c", "3", NULL, NULL);
    e2e_setenv("ORDEX_CHECK_HASHES", NULL);
}

/* Copy snapshots (copied inside one process instead of forked; the
 * default) find the same verdicts, findings and outcomes as fork
 * snapshots: crashes, aborts, stack overflows, races kept in registers,
 * dead stack variables, heaps, globals and bounded searches included. */
static void test_copy_checkpoints(void) {
    static const char *const fork_[] = {"--checkpoint=fork", NULL};
    compare_with(fork_, "examples/mergesort.c", "4", NULL, NULL);
    compare_with(fork_, "examples/wildcard_deadlock.c", "3", NULL, NULL);
    compare_with(fork_, "examples/waitany_race.c", "4", NULL, NULL);
    compare_with(fork_, "examples/probe_race.c", "3", NULL, NULL);
    compare_with(fork_, "examples/bcast_sync.c", "2", NULL, NULL);
    compare_with(fork_, "examples/nbexchange.c", "4", "1", NULL);
    compare_with(fork_, "examples/floyd_steinberg.c", "3", "8", NULL);
    compare_with(fork_, "examples/lu.c", "3", "1", NULL);
    compare_with(fork_, "tests/programs/crash_some_orderings.c", "3", NULL, NULL);
    compare_with(fork_, "tests/programs/dead_locals.c", "3", "live", NULL);
    compare_with(fork_, "tests/programs/register_merge.c", "3", NULL, NULL);
    compare_with(fork_, "tests/programs/observe_race.c", "3", NULL, NULL);
    compare_with(fork_, "tests/programs/stack_overflow.c", "2", NULL, NULL);
    compare_with(fork_, "tests/programs/mpi_abort.c", "2", NULL, NULL);
    compare_with(fork_, "tests/programs/heap.c", "2", NULL, NULL);
    compare_with(fork_, "tests/programs/not_yet.c", "2", "testany", NULL);
    const char *bounded[] = {"--checkpoint=fork", "--strategy=dfs-branches", "--branches=100",
                             NULL};
    const char *bounded_copy[] = {"--strategy=dfs-branches", "--branches=100", NULL};
    compare_two(bounded_copy, bounded, "tests/programs/budget_merge.c", "3", NULL);
    /* A rank that runs away in some orderings: reported, and the search goes on. */
    const char *src = "tests/programs/livelock_some.c";
    e2e_result *r = EX("--step-timeout", "1", "-n", "3", e2e_src(src));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR_IN(r, 1, "livelock", "rank 0 ran past the step timeout", src, FAULT,
                            FAULT_END));
    EXPECT(r, orderings_run(r) > 1);
    e2e_free(r);
}

/* A rank that maps memory itself (mmap after the first branching state,
 * munmap later): copy snapshots cannot put the mapping back, so the search
 * goes on with fork snapshots from where it stood, reaching the verdict,
 * outcomes and counts of a search with fork snapshots alone, and says why
 * it switched, in every strategy. */
static void test_copy_switches_on_mmap(void) {
    static const char *const strategies[] = {"--strategy=exhaustive", "--strategy=dfs-branches",
                                             "--strategy=random", "--strategy=bfs"};
    for (size_t i = 0; i < G_N_ELEMENTS(strategies); i++) {
        const char *copy[] = {strategies[i], NULL};
        const char *fork_[] = {strategies[i], "--checkpoint=fork", NULL};
        const char *j = compare_two(copy, fork_, "tests/programs/mmap_rank.c", "3", NULL);
        JsonObject *doc = e2e_json_file(NULL, j, __FILE__, __LINE__);
        EXPECT(NULL, e2e_json_str_is(doc, "checkpoint", "copy"));
        EXPECT(NULL, e2e_json_str_is(doc, "checkpoint_reason", "default"));
        const char *sw = e2e_json_str(doc, "checkpoint_switched");
        char *what = g_strdup_printf("%s: switched because of the mapping (%s)", strategies[i],
                                     sw ? sw : "not switched");
        e2e_check(sw && strstr(sw, "mapped or unmapped memory (mmap, munmap or mremap)"), NULL,
                  what, __FILE__, __LINE__);
        g_free(what);
        EXPECT(NULL, e2e_json_str_is(doc, "checkpoint_switched_in", "buffered pass"));
        e2e_json_free(doc);
    }
    /* States visited by the copies before the switch stay merge targets for
     * the fork snapshots after it: the counts are fork's. */
    const char *nopor[] = {"--no-por", NULL},
               *nopor_fork[] = {"--no-por", "--checkpoint=fork", NULL};
    const char *j = compare_two(nopor, nopor_fork, "tests/programs/mmap_merge.c", "5", NULL);
    JsonObject *doc = e2e_json_file(NULL, j, __FILE__, __LINE__);
    EXPECT(NULL,
           e2e_json_num(doc, "stats.states") == 22 && e2e_json_num(doc, "stats.merged") == 12);
    EXPECT(NULL, e2e_json_num(doc, "checkpoint_switched_after_states") == 3);
    e2e_json_free(doc);
    /* The text report says so too; the outcome differs with the order. */
    e2e_result *r = EX("-n", "3", PROG("mmap_rank.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "ordex explore: copy snapshots could not go on (the program mapped or "
                      "unmapped memory (mmap, munmap or mremap) since the snapshot was taken) in "
                      "the buffered pass after 1 branching state; the search went on from there "
                      "with fork snapshots\n");
    EXPECT_ERR_HAS(r, "2 different outcomes");
    EXPECT(r, orderings_run(r) == 4);
    EXPECT(r, strstr(r->err, "INCOMPLETE") == NULL);
    e2e_free(r);
}

/* The state graph (--graph) of a search that switched from copy to fork
 * snapshots, or that replays prefixes, has the edges of a search with fork
 * snapshots alone: after a replayed prefix, edges start at the prefix's last
 * state, not at the initial one.  State ids are hashes that differ from run
 * to run, so they are compared as one name (ends as another). */
static char *graph_shape(const char *opt, const char *dot, const char *np, const char *prog,
                         const char *arg) {
    remove(dot);
    e2e_result *r = EX(opt, "--no-por", "--graph", dot, "-n", np, prog, arg);
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    char *text = NULL;
    if (!g_file_get_contents(dot, &text, NULL, NULL))
        return g_strdup("(no graph)");
    GRegex *ends = g_regex_new("p([01])_80000000[0-9a-f]{8}", 0, 0, NULL);
    GRegex *states = g_regex_new("p([01])_(?!0{16})[0-9a-f]{16}", 0, 0, NULL);
    char *a = g_regex_replace(ends, text, -1, 0, "p\\1_END", 0, NULL);
    char *b = g_regex_replace(states, a, -1, 0, "p\\1_STATE", 0, NULL);
    char *sorted = e2e_sorted_lines(b);
    g_regex_unref(ends);
    g_regex_unref(states);
    g_free(text);
    g_free(a);
    g_free(b);
    return sorted;
}

static void test_graph_after_switch(void) {
    char *dir = g_dir_make_tmp("ordex-graph-XXXXXX", NULL);
    CU_ASSERT_FATAL(dir != NULL);
    struct {
        const char *np, *prog, *arg;
    } progs[] = {{"5", PROG("mmap_merge.c"), NULL}, {"3", PROG("rank_log.c"), dir}};
    for (size_t i = 0; i < G_N_ELEMENTS(progs); i++) {
        char *shape[3];
        static const char *const opts[] = {"--checkpoint=fork", "--checkpoint=copy",
                                           "--checkpoint=replay"};
        for (int k = 0; k < 3; k++) {
            char *dot = g_strdup_printf("shape-%zu-%d.dot", i, k);
            shape[k] = graph_shape(opts[k], e2e_tmp(dot), progs[i].np, progs[i].prog, progs[i].arg);
            g_free(dot);
        }
        CU_ASSERT(strstr(shape[0], "p0_0000000000000000 -> p0_STATE") != NULL);
        CU_ASSERT(strstr(shape[0], "p0_0000000000000000 -> p0_END") == NULL);
        CU_ASSERT_STRING_EQUAL(shape[1], shape[0]);
        CU_ASSERT_STRING_EQUAL(shape[2], shape[0]);
        for (int k = 0; k < 3; k++)
            g_free(shape[k]);
    }
    for (int rank = 0; rank < 3; rank++) {
        char *name = g_strdup_printf("rank_log.%d", rank),
             *path = g_build_filename(dir, name, NULL);
        g_unlink(path);
        g_free(path);
        g_free(name);
    }
    g_rmdir(dir);
    g_free(dir);
}

/* --jobs above 1 runs copy snapshots (one set per worker) by default, fork
 * snapshots when asked; replay checkpoints and the one-ordering strategies
 * take one job only, and say so when more are asked for. */
static void test_jobs_take_copy(void) {
    const char *j = json_path("jobs_copy");
    e2e_result *r = EX("--jobs", "2", "--json", j, "-n", "3", EXAMPLE("wildcard_deadlock.c"));
    EXPECT_ERRORS(r, 1);
    EXPECT(r, strstr(r->err, "ordex explore: fork snapshots:") == NULL);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "checkpoint", "copy"));
    EXPECT(r, e2e_json_str_is(doc, "checkpoint_reason", "default"));
    EXPECT(r, e2e_json_is_null(doc, "checkpoint_switched"));
    e2e_json_free(doc);
    e2e_free(r);
    r = EX("--jobs", "2", "--checkpoint=fork", "--json", j, "-n", "3",
           EXAMPLE("wildcard_deadlock.c"));
    EXPECT_ERRORS(r, 1);
    doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "checkpoint", "fork"));
    EXPECT(r, e2e_json_str_is(doc, "checkpoint_reason", "--checkpoint=fork"));
    e2e_json_free(doc);
    e2e_free(r);
    static const char *const one_job[][2] = {{"--checkpoint=replay", "--strategy=exhaustive"},
                                             {"--strategy=random", "--checkpoint=copy"},
                                             {"--strategy=bfs", "--checkpoint=fork"}};
    for (size_t i = 0; i < G_N_ELEMENTS(one_job); i++) {
        r = EX("--jobs", "2", one_job[i][0], one_job[i][1], "-n", "3",
               EXAMPLE("wildcard_deadlock.c"));
        EXPECT_STATUS(r, 2);
        EXPECT_ERR_HAS(r, "ordex explore: --jobs 2: only with copy or fork checkpoints and the "
                          "exhaustive or dfs-branches strategy\n");
        e2e_free(r);
    }
}

/* A worker killed while it explores (the program sends SIGKILL to its own
 * process in one ordering) loses only its own open work: the search ends,
 * incomplete (exit status 2), or with the deadlock of the other ordering when
 * another worker had taken it (exit status 1, still incomplete). */
static void test_jobs_worker_dies(void) {
    for (int k = 0; k < 3; k++) {
        e2e_result *r = EX("--jobs", "2", "-n", "3", PROG("kill_worker.c"));
        EXPECT(r, r->status == 1 || r->status == 2);
        EXPECT_ERR_HAS(r, "INCOMPLETE: 1 exploration process failed (an ordex error)");
        if (r->status == 1)
            EXPECT_ERR_HAS(r, "ERROR [deadlock]");
        else
            EXPECT_ERR_LACKS(r, "ERROR [");
        e2e_free(r);
    }
}

/* ---------------------------------------------------------------------- */
/* --strategy=dfs-branches: at most K departures from the default order    */

#define DFS "--strategy=dfs-branches"

/* With a bound no ordering reaches, dfs-branches explores everything: the
 * same complete verdict, findings and outcomes as the exhaustive search. */
static void test_dfs_large_k_is_exhaustive(void) {
    const char *opts[] = {DFS, "--branches=100", NULL};
    compare_with(opts, "examples/mergesort.c", "4", NULL, NULL);
    compare_with(opts, "examples/wildcard_deadlock.c", "3", NULL, NULL);
    compare_with(opts, "examples/waitany_race.c", "4", NULL, NULL);
    compare_with(opts, "examples/probe_race.c", "3", NULL, NULL);
    compare_with(opts, "examples/benign_any_source.c", "3", NULL, NULL);
    compare_with(opts, "examples/floyd_steinberg.c", "3", "8", NULL);
    compare_with(opts, "examples/iprobe_once.c", "2", NULL, NULL);
    compare_with(opts, "tests/programs/crash_some_orderings.c", "3", NULL, NULL);
    compare_with(opts, "tests/programs/two_departures.c", "3", NULL, NULL);
    compare_with(opts, "tests/programs/budget_merge.c", "3", NULL, NULL);
    const char *replay[] = {DFS, "--branches=100", "--checkpoint=replay", NULL};
    compare_with(replay, "examples/waitany_race.c", "4", NULL, NULL);
    compare_with(replay, "tests/programs/budget_merge.c", "3", NULL, NULL);
}

/* The JSON verdict of a run that found no error. */
static void expect_json_verdict(const e2e_result *r, const char *j, const char *verdict,
                                int branches, const char *file, int line) {
    JsonObject *doc = e2e_json_file(r, j, file, line);
    const char *v = e2e_json_str(doc, "verdict");
    char *what = g_strdup_printf("JSON verdict \"%s\"", verdict);
    e2e_check(v && strcmp(v, verdict) == 0, r, what, file, line);
    g_free(what);
    const char *st = e2e_json_str(doc, "strategy");
    e2e_check(st && strcmp(st, "dfs-branches") == 0, r, "JSON strategy \"dfs-branches\"", file,
              line);
    e2e_check(e2e_json_num(doc, "branches") == branches, r, "JSON branches = --branches", file,
              line);
    e2e_json_free(doc);
}
#define EXPECT_JSON_VERDICT(r, j, v, k) expect_json_verdict((r), (j), (v), (k), __FILE__, __LINE__)

/* A bounded search that found nothing says so, never "no error exists". */
static void expect_bounded_clean(const e2e_result *r, int k, const char *file, int line) {
    e2e_check(r->status == 0, r, "exit status 0", file, line);
    e2e_check(strstr(r->err, "ERROR [") == NULL, r, "no ERROR finding", file, line);
    e2e_check(strstr(r->err, "no error exists") == NULL, r, "no \"no error exists\"", file, line);
    e2e_check(strstr(r->err, "INCOMPLETE") == NULL, r, "no limit hit", file, line);
    char *want = g_strdup_printf("ordex explore: bounded search: all orderings with at most %d "
                                 "departure%s from the default order were explored (",
                                 k, k == 1 ? "" : "s");
    e2e_check(strstr(r->err, want) != NULL, r, "the report says the search was bounded", file,
              line);
    g_free(want);
    want = g_strdup_printf("dfs-branches (at most %d departure", k);
    e2e_check(strstr(r->err, want) != NULL, r, "the summary names the strategy and bound", file,
              line);
    g_free(want);
}
#define EXPECT_BOUNDED_CLEAN(r, k) expect_bounded_clean((r), (k), __FILE__, __LINE__)

/* K = 0: the default order only, one ordering per send mode: the one that
 * --strategy=bfs runs. */
static void test_dfs_k0_one_path(void) {
    const char *j = json_path("dfs0");
    e2e_result *r = EX(DFS, "--branches", "0", "--send-mode=eager", "--json", j, "-n", "4",
                       EXAMPLE("benign_any_source.c"));
    EXPECT_BOUNDED_CLEAN(r, 0);
    EXPECT(r, orderings_run(r) == 1);
    EXPECT_JSON_VERDICT(r, j, "incomplete", 0);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_num(doc, "stats.paths") == 1);
    EXPECT(r, e2e_json_num(doc, "cut_by_bound") > 0);
    e2e_json_free(doc);
    e2e_free(r);
    /* The exhaustive search of the same program runs many orderings. */
    r = EX("--send-mode=eager", "-n", "4", EXAMPLE("benign_any_source.c"));
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) > 1);
    e2e_free(r);
    /* Both send modes: one ordering each. */
    r = EX(DFS, "--branches=0", "-n", "3", EXAMPLE("mergesort.c"));
    EXPECT_BOUNDED_CLEAN(r, 0);
    EXPECT(r, orderings_run(r) == 2);
    e2e_free(r);
    /* wildcard_deadlock: the default order completes (as bfs and run say);
     * one departure (rank 2's message first) deadlocks. */
    r = EX(DFS, "--branches=0", "-n", "3", EXAMPLE("wildcard_deadlock.c"));
    EXPECT_BOUNDED_CLEAN(r, 0);
    e2e_free(r);
    r = EX("--strategy=bfs", "-n", "3", EXAMPLE("wildcard_deadlock.c"));
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    r = EX(DFS, "--branches=1", "-n", "3", EXAMPLE("wildcard_deadlock.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 1, "deadlock", "deadlock", "examples/wildcard_deadlock.c",
                         "/* [FROM2] */"));
    e2e_free(r);
}

/* A deadlock that needs two departures: found with K >= 2 only; the
 * default K is 2. */
static void test_dfs_two_departures(void) {
    const char *src = "tests/programs/two_departures.c";
    for (int k = 0; k <= 1; k++) {
        char kk[8];
        g_snprintf(kk, sizeof kk, "%d", k);
        const char *j = json_path("dfs_two");
        e2e_result *r = EX(DFS, "--branches", kk, "--json", j, "-n", "3", PROG("two_departures.c"));
        EXPECT_BOUNDED_CLEAN(r, k);
        EXPECT_ERR_LACKS(r, "[deadlock]");
        EXPECT_JSON_VERDICT(r, j, "incomplete", k);
        e2e_free(r);
    }
    const char *j = json_path("dfs_two");
    e2e_result *r = EX(DFS, "--json", j, "-n", "3", PROG("two_departures.c"));
    EXPECT_ERRORS(r, 1);
    /* The first rounds' orders also change the output: a race warning too. */
    char *f = EXPECT_XERROR(r, 2, "deadlock", "deadlock", src, FAULT);
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_Recv(source=2, tag=9", src, FAULT);
    g_free(f);
    /* No ordering of this program has more than two departures. */
    EXPECT_ERR_HAS(r, "no ordering needed more than 2 departures from the default order: every "
                      "ordering was explored");
    EXPECT_JSON_VERDICT(r, j, "error", 2);
    e2e_free(r);
    r = EX("-n", "3", PROG("two_departures.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 2, "deadlock", "deadlock", src, FAULT));
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "3", PROG("two_departures.c"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0: first 1 1\n");
    e2e_free(r);
}

/* A state first reached with no departure left must be explored again when
 * another path reaches it with one left (budget_merge.c's header). */
static void test_dfs_merge_keeps_budget(void) {
    const char *src = "tests/programs/budget_merge.c";
    e2e_result *r = EX(DFS, "--branches=2", "-n", "3", PROG("budget_merge.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 2, "deadlock", "deadlock", src, FAULT));
    EXPECT_ERR_HAS(r, "bounded search: all orderings with at most 2 departures");
    e2e_free(r);
    r = EX(DFS, "--branches=2", "--checkpoint=replay", "-n", "3", PROG("budget_merge.c"));
    EXPECT_ERRORS(r, 1);
    g_free(EXPECT_XERROR(r, 2, "deadlock", "deadlock", src, FAULT));
    e2e_free(r);
    r = EX(DFS, "--branches=1", "-n", "3", PROG("budget_merge.c"));
    EXPECT_BOUNDED_CLEAN(r, 1);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* MPI_Test and nonblocking probes may say "not yet"                      */

static void test_iprobe_once(void) {
    const char *src = "examples/iprobe_once.c";
    e2e_result *r = EX("-n", "2", EXAMPLE("iprobe_once.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* [RESEND] */");
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_Recv(source=1, tag=2", src, "/* [RESEND] */");
    int probe = e2e_marker_line(src, "/* [PROBE] */");
    char *step = g_strdup_printf("rank 0 at iprobe_once.c:%d: MPI_Iprobe says \"not yet\" "
                                 "although it could succeed [alternative 2 of 2]",
                                 probe);
    EXPECT_BLOCK_HAS(r, f, step);
    g_free(step);
    EXPECT_BLOCK_LACKS(r, f, "not buffered"); /* buffered sends already */
    /* The trace records the answer like any choice in a call and replays. */
    char *trace = FINDING_TRACE(r, f);
    EXPECT_TRACE_FILE(r, trace, "deadlock", 2, "eager", ordering_steps(f));
    char *text = trace ? e2e_read_file(trace) : NULL;
    EXPECT(r, text && strstr(text, "\ntest-later yes\n"));
    EXPECT(r, text && strstr(text, " choice dst=0 call=MPI_Iprobe:now-or-later choice=2/2 "));
    e2e_result *rp = e2e_ordex_run("replay", trace, NULL);
    EXPECT_STATUS(rp, 1);
    EXPECT(rp, strstr(rp->err, "[deadlock]") != NULL);
    e2e_free(rp);
    /* Without the header line (a trace made before "not yet" existed), the
     * replay makes no such choice, so this trace no longer fits. */
    if (text) {
        GString *g = g_string_new(NULL);
        char **lines = g_strsplit(text, "\n", -1);
        for (int i = 0; lines[i]; i++)
            if (!g_str_has_prefix(lines[i], "test-later "))
                g_string_append_printf(g, "%s%s", lines[i], lines[i + 1] ? "\n" : "");
        g_strfreev(lines);
        /* ... and of the format of then, without the checksum line. */
        CU_ASSERT(g_string_replace(g, "ordex-trace 3\n", "ordex-trace 2\n", 1) == 1);
        char *sum = strstr(g->str, "\nchecksum ");
        if (sum)
            g_string_truncate(g, (gsize)(sum - g->str) + 1);
        const char *old_path = e2e_tmp("iprobe_once-old.trace");
        EXPECT(r, g_file_set_contents(old_path, g->str, (gssize)g->len, NULL));
        rp = e2e_ordex_run("replay", old_path, NULL);
        EXPECT_STATUS(rp, 2);
        EXPECT(rp, strstr(rp->err, "expects a choice in MPI_Iprobe:now-or-later") != NULL);
        e2e_free(rp);
        g_string_free(g, TRUE);
    }
    g_free(text);
    g_free(trace);
    g_free(f);
    e2e_free(r);

    /* One execution: the message is there and MPI_Iprobe sees it. */
    r = e2e_ordex_run("run", "-n", "2", EXAMPLE("iprobe_once.c"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0: settings 42\n");
    e2e_free(r);
    r = e2e_ordex_run("run", "--seed", "3", "-n", "2", EXAMPLE("iprobe_once.c"), NULL);
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    /* Without "not yet", no ordering fails. */
    r = EX("--no-test-later", "-n", "2", EXAMPLE("iprobe_once.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
    r = EX("-n", "1", EXAMPLE("iprobe_once.c"));
    EXPECT_NO_ERROR(r);
    e2e_free(r);
}

/* Every Test and nonblocking probe call: "not yet" is explored. */
static void test_not_yet_calls(void) {
    const char *src = "tests/programs/not_yet.c";
    static const char *const how[][2] = {{"test", "MPI_Test"},         {"testany", "MPI_Testany"},
                                         {"testsome", "MPI_Testsome"}, {"testall", "MPI_Testall"},
                                         {"iprobe", "MPI_Iprobe"},     {"improbe", "MPI_Improbe"}};
    for (size_t i = 0; i < G_N_ELEMENTS(how); i++) {
        e2e_result *r = EX("-n", "2", PROG("not_yet.c"), how[i][0]);
        EXPECT_ERRORS(r, 1);
        char *f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", src, "/* RESEND */");
        char *step = g_strdup_printf(": %s says \"not yet\" although it could succeed", how[i][1]);
        EXPECT_BLOCK_HAS(r, f, step);
        g_free(step);
        g_free(f);
        e2e_free(r);
        r = e2e_ordex_run("run", "-n", "2", PROG("not_yet.c"), how[i][0], NULL);
        EXPECT_STATUS(r, 0);
        EXPECT_OUT_HAS(r, "rank 0: got 7\n");
        e2e_free(r);
        r = EX("--no-test-later", "-n", "2", PROG("not_yet.c"), how[i][0]);
        EXPECT_NO_ERROR(r);
        e2e_free(r);
    }
}

/* Polling loops end: after a "not yet", a rank's next Test/Iprobe that can
 * succeed does, even when every iteration changes the rank's memory. */
static void test_not_yet_loops(void) {
    e2e_result *r = EX("-n", "2", PROG("not_yet.c"), "loop");
    EXPECT_NO_ERROR(r);
    /* Each of the two loops succeeds at once or after one "not yet": per
     * send mode, the second loop's two answers follow both of the first's,
     * and after the first loop both paths are in the same state (its flag
     * is set either way), so the second path merges there. */
    EXPECT(r, orderings_run(r) == 4);
    EXPECT(r, stat_before(r, " merged into known states") == 2);
    e2e_free(r);
    r = EX("--no-test-later", "-n", "2", PROG("not_yet.c"), "loop");
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) == 2);
    e2e_free(r);
    r = EX("--strategy=random", "--runs", "20", "--send-mode=eager", "-n", "2", PROG("not_yet.c"),
           "loop");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "20 orderings run to the end");
    e2e_free(r);
    r = EX("--checkpoint=replay", "-n", "2", PROG("not_yet.c"), "loop");
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) == 4);
    EXPECT(r, stat_before(r, " merged into known states") == 2);
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "2", PROG("not_yet.c"), "loop", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0: got 7 8\n");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Errors in some orderings only: exploration goes on                     */

static void test_crash_some_orderings(void) {
    const char *src = "tests/programs/crash_some_orderings.c";
    const char *j = json_path("crash_some");
    e2e_result *r = EX("--json", j, "-n", "3", PROG("crash_some_orderings.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "crash", "rank 0 crashed: SIGSEGV", src, FAULT);
    EXPECT_BLOCK_HAS(r, f, "rank 0 receives from rank 2");
    g_free(f);
    /* The crash did not end the exploration. */
    EXPECT(r, orderings_run(r) > 1);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    /* Both passes ran the error-free ordering (rank 1's message first). */
    EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") == 1 &&
                  e2e_json_num(doc, "stats.outcomes[1]") == 1);
    EXPECT(r, e2e_json_num(doc, "stats.paths") > 1);
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_livelock_some(void) {
    const char *src = "tests/programs/livelock_some.c";
    const char *j = json_path("livelock_some");
    e2e_result *r = EX("--step-timeout", "1", "--json", j, "-n", "3", PROG("livelock_some.c"));
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR_IN(r, 1, "livelock", "rank 0 ran past the step timeout", src, FAULT,
                               FAULT_END);
    EXPECT_BLOCK_HAS(r, f, "rank 0 receives from rank 2");
    g_free(f);
    EXPECT(r, orderings_run(r) > 1);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    EXPECT(r, doc && e2e_json_at(doc, "incomplete") == NULL);
    EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") == 1 &&
                  e2e_json_num(doc, "stats.outcomes[1]") == 1);
    e2e_json_free(doc);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* JSON report, trace files, options                                       */

static void test_json_error(void) {
    const char *j = json_path("mergesort");
    e2e_result *r = EX("--json", j, "-n", "4", EXAMPLE("mergesort.c"));
    EXPECT_ERRORS(r, 1);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    const char *prog = e2e_json_str(doc, "program");
    EXPECT(r, prog && g_str_has_suffix(prog, "mergesort.c"));
    EXPECT(r, e2e_json_num(doc, "ranks") == 4);
    EXPECT(r, e2e_json_len(doc, "findings") == 1);
    EXPECT(r, e2e_json_str_is(doc, "findings[0].kind", "mpi_error"));
    EXPECT(r, e2e_json_len(doc, "findings[0].ranks") == 1 &&
                  e2e_json_num(doc, "findings[0].ranks[0]") == 0);
    const char *msg = e2e_json_str(doc, "findings[0].message");
    EXPECT(r, msg && strstr(msg, "truncated"));
    char *loc =
        g_strdup_printf("mergesort.c:%d", e2e_marker_line("examples/mergesort.c", "// [RECV]"));
    EXPECT(r, e2e_json_str_is(doc, "findings[0].location", loc));
    g_free(loc);
    const char *trace = e2e_json_str(doc, "findings[0].trace");
    EXPECT(r, trace != NULL);
    if (trace) {
        char *path = abs_path(trace);
        EXPECT(r, g_file_test(path, G_FILE_TEST_IS_REGULAR));
        g_free(path);
        char *printed = g_strdup_printf("  trace: %s (replay: ", trace);
        EXPECT(r, strstr(r->err, printed) != NULL); /* the same file as in the text report */
        g_free(printed);
    }
    JsonNode *st = e2e_json_at(doc, "stats");
    EXPECT(r, st && JSON_NODE_HOLDS_OBJECT(st));
    static const char *const nums[] = {"states",    "transitions", "paths",         "merged",
                                       "snapshots", "elapsed_s",   "peak_rss_bytes"};
    for (size_t i = 0; i < G_N_ELEMENTS(nums); i++) {
        char *at = g_strdup_printf("stats.%s", nums[i]);
        char *what = g_strdup_printf("stats.%s is a number >= 0", nums[i]);
        e2e_check(e2e_json_num(doc, at) >= 0, r, what, __FILE__, __LINE__);
        g_free(what);
        g_free(at);
    }
    EXPECT(r, e2e_json_num(doc, "stats.paths") == orderings_run(r));
    EXPECT(r, e2e_json_num(doc, "stats.peak_rss_bytes") > 0);
    EXPECT(r, e2e_json_bool(doc, "stats.por") == 1);
    EXPECT(r, e2e_json_len(doc, "stats.outcomes") == 2 &&
                  !isnan(e2e_json_num(doc, "stats.outcomes[0]")));
    EXPECT(r, doc && e2e_json_at(doc, "incomplete") == NULL);
    e2e_json_free(doc);
    e2e_free(r);
}

/* --json-progress FILE: one JSON object per line, counters that never go
 * back, and a final line that matches the report's counts.  (How often
 * lines come depends on time, which is not asserted.) */
static void check_progress_stream(const char *max_states, const char *prog, const char *np,
                                  const char *arg, const char *final_checkpoint) {
    const char *pj = e2e_tmp("progress.jsonl");
    const char *j = json_path("progress");
    remove(pj);
    e2e_result *r = EX("--max-states", max_states, "--json-progress", pj, "--json", j, "-n", np,
                       e2e_src(prog), arg);
    EXPECT(r, r->status == 0 || r->status == 1 || strstr(r->err, "INCOMPLETE: the state limit"));
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    char *text = NULL;
    EXPECT(r, g_file_get_contents(pj, &text, NULL, NULL));
    char **lines = g_strsplit(text ? text : "", "\n", -1);
    int n = (int)g_strv_length(lines) - 1; /* the text ends with a newline */
    EXPECT(r, n >= 1 && lines[n][0] == '\0');
    double last[5] = {0, 0, 0, 0, 0};
    static const char *const counters[] = {"elapsed_s", "states", "transitions", "paths"};
    static const char *const fields[] = {
        "transitions_per_s", "depth",          "pass",       "passes", "done",
        "remaining_s",       "estimate_basis", "checkpoint", "final"};
    for (int i = 0; i < n; i++) {
        JsonObject *o = e2e_json_text(r, lines[i], __FILE__, __LINE__);
        if (!o)
            break;
        for (size_t k = 0; k < G_N_ELEMENTS(counters); k++) {
            double v = e2e_json_num(o, counters[k]);
            char *what =
                g_strdup_printf("line %d: %s = %g, not below %g", i + 1, counters[k], v, last[k]);
            e2e_check(v >= last[k], r, what, __FILE__, __LINE__);
            g_free(what);
            last[k] = v;
        }
        for (size_t k = 0; k < G_N_ELEMENTS(fields); k++) {
            char *what = g_strdup_printf("line %d has %s", i + 1, fields[k]);
            e2e_check(e2e_json_at(o, fields[k]) != NULL, r, what, __FILE__, __LINE__);
            g_free(what);
        }
        double pass = e2e_json_num(o, "pass");
        EXPECT(r, pass >= last[4] && pass >= 1 && pass <= e2e_json_num(o, "passes"));
        last[4] = pass;
        bool final = e2e_json_bool(o, "final") == 1;
        EXPECT(r, final == (i == n - 1)); /* the last line only */
        if (!e2e_json_is_null(o, "done")) {
            double done = e2e_json_num(o, "done");
            EXPECT(r, done >= 0 && done <= 1);
            EXPECT(r, final || e2e_json_str(o, "estimate_basis") != NULL);
        }
        if (final) {
            EXPECT(r, e2e_json_num(o, "states") == e2e_json_num(doc, "stats.states"));
            EXPECT(r, e2e_json_num(o, "transitions") == e2e_json_num(doc, "stats.transitions"));
            EXPECT(r, e2e_json_num(o, "paths") == e2e_json_num(doc, "stats.paths"));
            if (e2e_json_at(doc, "incomplete") == NULL)
                EXPECT(r, e2e_json_num(o, "done") == 1 && e2e_json_num(o, "remaining_s") == 0);
            else
                EXPECT(r, e2e_json_is_null(o, "remaining_s"));
            EXPECT(r, e2e_json_str_is(o, "checkpoint", final_checkpoint));
        }
        e2e_json_free(o);
    }
    g_strfreev(lines);
    g_free(text);
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_json_progress(void) {
    check_progress_stream("20000", "examples/lu.c", "4", "1", "copy");
    check_progress_stream("1000", "examples/wildcard_deadlock.c", "3", NULL, "copy");
    check_progress_stream("1000", "tests/programs/mmap_rank.c", "3", NULL, "fork"); /* switched */
}

static void test_json_ok_and_race(void) {
    const char *j = json_path("benign");
    e2e_result *r = EX("--json", j, "-n", "4", EXAMPLE("benign_waitall.c"));
    EXPECT_NO_ERROR(r);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "ok"));
    EXPECT(r, e2e_json_len(doc, "findings") == 0);
    EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") == 1 &&
                  e2e_json_num(doc, "stats.outcomes[1]") == 1);
    e2e_json_free(doc);
    e2e_free(r);

    /* A message race is a finding, but (by default) not an error. */
    j = json_path("waitany");
    r = EX("--json", j, "-n", "4", EXAMPLE("waitany_race.c"));
    EXPECT_NO_ERROR_RACE(r);
    doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "ok"));
    EXPECT(r, e2e_json_len(doc, "findings") == 1 &&
                  e2e_json_str_is(doc, "findings[0].kind", "message_race"));
    EXPECT(r, e2e_json_is_null(doc, "findings[0].location"));
    EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") == 6 &&
                  e2e_json_num(doc, "stats.outcomes[1]") == 6);
    e2e_json_free(doc);
    e2e_free(r);

    j = json_path("waitany_error");
    r = EX("--divergence=error", "--json", j, "-n", "4", EXAMPLE("waitany_race.c"));
    EXPECT_ERRORS(r, 1);
    doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    e2e_json_free(doc);
    e2e_free(r);

    /* A deadlock names every blocked rank; unbuffered-only shows in outcomes. */
    j = json_path("cycle");
    r = EX("--json", j, "-n", "4", EXAMPLE("deadlock_cycle.c"));
    EXPECT_ERRORS(r, 1);
    doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "findings[0].kind", "deadlock"));
    EXPECT(r, e2e_json_len(doc, "findings[0].ranks") == 4);
    EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") == 1 &&
                  e2e_json_num(doc, "stats.outcomes[1]") == 0);
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_trace_format(void) {
    const char *dir = e2e_tmp("explore-traces");
    e2e_result *r = EX("--trace-dir", dir, "-n", "4", EXAMPLE("mergesort.c"), "64");
    EXPECT_ERRORS(r, 1);
    char *f = EXPECT_XERROR(r, 1, "mpi_error", "truncated", NULL, NULL);
    char *want = g_strdup_printf("  trace: %s/mergesort-", dir);
    EXPECT_BLOCK_HAS(r, f, want); /* --trace-dir honoured */
    g_free(want);
    char *trace = FINDING_TRACE(r, f);
    int steps = ordering_steps(f);
    EXPECT(r, steps > 0);
    EXPECT_TRACE_FILE(r, trace, "mpi_error", 4, "eager", steps);
    char *text = trace ? e2e_read_file(trace) : NULL;
    if (text) {
        /* "args <arguments, shell-quoted>" */
        const char *a = strstr(text, "\nargs ");
        char *argl = a ? g_strndup(a + 6, strcspn(a + 6, "\n")) : NULL;
        char **av = NULL;
        int ac = 0;
        EXPECT(r, argl && g_shell_parse_argv(argl, &ac, &av, NULL) && ac == 1 &&
                      strcmp(av[0], "64") == 0);
        g_strfreev(av);
        g_free(argl);
        EXPECT(r, strstr(text, "\nprogram-sha256 ") != NULL);
        char *loc = g_strdup_printf("\nfinding mpi_error mergesort.c:%d ",
                                    e2e_marker_line("examples/mergesort.c", "// [RECV]"));
        EXPECT(r, strstr(text, loc) != NULL);
        g_free(loc);
        /* step lines: "step <n> <kind> dst= src= tag= comm= choice=k/of at= from=" */
        char *last = g_strdup_printf("\nstep %d deliver dst=0 src=2 ", steps);
        EXPECT(r, strstr(text, last) != NULL);
        g_free(last);
        EXPECT(r, strstr(text, " choice=2/2 ") != NULL);
    }
    g_free(text);
    g_free(trace);
    g_free(f);
    e2e_free(r);

    /* The default directory: ./ordex-traces (relative to the working directory). */
    r = EX("-n", "3", EXAMPLE("wildcard_deadlock.c"));
    EXPECT_ERRORS(r, 1);
    f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", NULL, NULL);
    EXPECT_BLOCK_HAS(r, f, "  trace: ordex-traces/wildcard_deadlock-");
    trace = FINDING_TRACE(r, f);
    EXPECT_TRACE_FILE(r, trace, "deadlock", 3, "eager", ordering_steps(f));
    g_free(trace);
    g_free(f);
    e2e_free(r);

    /* A given send mode is recorded as given. */
    r = EX("--send-mode=rendezvous", "--trace-dir", dir, "-n", "3", EXAMPLE("deadlock_cycle.c"));
    EXPECT_ERRORS(r, 1);
    f = EXPECT_XERROR(r, 1, "deadlock", "deadlock", NULL, NULL);
    trace = FINDING_TRACE(r, f);
    EXPECT_TRACE_FILE(r, trace, "deadlock", 3, "rendezvous", ordering_steps(f));
    g_free(trace);
    g_free(f);
    e2e_free(r);

    /* Both orderings of a message race get a trace. */
    r = EX("--trace-dir", dir, "-n", "3", EXAMPLE("waitany_race.c"));
    EXPECT_NO_ERROR_RACE(r);
    const char *p = strstr(r->err, "  traces: ");
    char **paths = NULL;
    if (p) {
        char *line = g_strndup(p + strlen("  traces: "), strcspn(p + strlen("  traces: "), "\n"));
        paths = g_strsplit(line, " ", -1);
        g_free(line);
    }
    EXPECT(r, paths && g_strv_length(paths) == 2);
    for (int i = 0; paths && paths[i]; i++) {
        char *ap = abs_path(paths[i]);
        EXPECT_TRACE_FILE(r, ap, "message_race", 3, "eager", -1);
        g_free(ap);
    }
    g_strfreev(paths);
    e2e_free(r);
}

static void test_bad_options(void) {
    const char *ring = EXAMPLE("ring.c");
    /* Strategies and checkpoint kinds this version does not have. */
    e2e_result *r = e2e_ordex_run("explore", "--strategy=sideways", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "sideways");
    EXPECT_ERR_HAS(r, "dfs-branches"); /* the strategies there are */
    e2e_free(r);
    r = e2e_ordex_run("explore", "--strategy=dfs-branches", "--branches", "-1", "-n", "2", ring,
                      NULL);
    EXPECT_ONE_LINE_ERROR(r, "--branches");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--branches", "3", "-n", "2", ring, NULL); /* exhaustive */
    EXPECT_ONE_LINE_ERROR(r, "dfs-branches");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--strategy=bfs", "--branches=3", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--branches");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--checkpoint=criu", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "criu");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--checkpoint=tape", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "tape");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--jobs", "0", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--jobs");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--jobs", "2", "--checkpoint=replay", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--jobs");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--jobs", "65", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--jobs");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--jobs", "2", "--strategy=bfs", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--jobs");
    e2e_free(r);
    r = e2e_ordex_run("run", "--jobs", "2", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--jobs");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--max-states", "0", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--max-states");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--max-states", "-3", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "--max-states");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--divergence=bogus", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "bogus");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--send-mode=sometimes", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "sometimes");
    e2e_free(r);
    r = e2e_ordex_run("explore", "--max-memory", "lots", "-n", "2", ring, NULL);
    EXPECT_ONE_LINE_ERROR(r, "lots");
    e2e_free(r);
    /* The default strategy and checkpoint, named, are accepted, and fork. */
    r = EX("--strategy=exhaustive", "--checkpoint=copy", "-n", "2", ring, "2");
    EXPECT_NO_ERROR(r);
    e2e_free(r);
    r = EX("--strategy=exhaustive", "--checkpoint=fork", "-n", "2", ring, "2");
    EXPECT_NO_ERROR(r);
    e2e_free(r);
    /* A progress file that cannot be written. */
    r = e2e_ordex_run("explore", "--json-progress", "/nonexistent-dir/p.jsonl", "-n", "2", ring,
                      NULL);
    EXPECT_ONE_LINE_ERROR(r, "--json-progress /nonexistent-dir/p.jsonl");
    e2e_free(r);
}

/* --strategy=bfs runs one ordering (messages in send order) per send mode:
 * it never claims that no error exists. */
static void test_strategy_bfs(void) {
    const char *j = json_path("bfs");
    e2e_result *r = EX("--strategy=bfs", "--json", j, "-n", "3", EXAMPLE("wildcard_deadlock.c"));
    /* The natural order of wildcard_deadlock completes (as `ordex run` says). */
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "not exhaustive");
    EXPECT_ERR_LACKS(r, "no error exists");
    EXPECT(r, count_findings(r->err) == 0);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "incomplete"));
    e2e_json_free(doc);
    e2e_free(r);
    /* An error of the natural order is still found. */
    r = EX("--strategy=bfs", "-n", "3", EXAMPLE("deadlock_else.c"));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_XERROR(r, 1, "deadlock", "deadlock", "examples/deadlock_else.c", "/* [RECV] */"));
    e2e_free(r);
}

static void test_incomplete(void) {
    const char *j = json_path("incomplete");
    e2e_result *r = e2e_ordex_run("explore", "--max-states", "1", "--json", j, "-n", "4",
                                  EXAMPLE("benign_any_source.c"), NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "INCOMPLETE");
    EXPECT_ERR_HAS(r, "--max-states");
    EXPECT_ERR_LACKS(r, "no error exists");
    EXPECT_ERR_LACKS(r, "error found");
    EXPECT(r, count_findings(r->err) == 0);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "incomplete"));
    EXPECT(r, e2e_json_str(doc, "incomplete") != NULL);
    e2e_json_free(doc);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Time: MPI_Wtime, --max-time in every phase and in both passes           */

/* A rank that waits on MPI_Wtime: simulated time advances by a fixed amount
 * per MPI call when exploring, so the loop ends (it used to hang). */
static void test_wtime_wait(void) {
    const char *j = json_path("wtime");
    e2e_result *r = EX("--json", j, "-n", "3", PROG("wtime_wait.c"));
    EXPECT_NO_ERROR(r);
    EXPECT(r, orderings_run(r) >= 2);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_num(doc, "stats.outcomes[0]") == 1 &&
                  e2e_json_num(doc, "stats.outcomes[1]") == 1);
    e2e_json_free(doc);
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "3", PROG("wtime_wait.c"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT(r, strcmp(r->out, "rank 0: sum 3\n") == 0);
    e2e_free(r);
}

/* --max-time holds while a rank computes (no MPI call, no step timeout):
 * the search stops, incomplete, and the stopped ordering is no finding. */
static void test_max_time_while_computing(void) {
    const char *j = json_path("spin_time");
    const char *marker = e2e_tmp("spin-time.marker");
    e2e_result *r = e2e_ordex_run("explore", "--step-timeout", "0", "--max-time", "1", "--json", j,
                                  "-n", "3", PROG("spin_forever.c"), marker, "clean", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "INCOMPLETE: the time limit (--max-time) was reached (in both passes)");
    EXPECT_ERR_HAS(r, "buffered sends: stopped (the time limit (--max-time) was reached)");
    EXPECT_ERR_HAS(r, "unbuffered sends: stopped (the time limit (--max-time) was reached)");
    EXPECT(r, count_findings(r->err) == 0);
    EXPECT(r, orderings_run(r) == 0);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "incomplete"));
    EXPECT(r, e2e_json_len(doc, "findings") == 0);
    EXPECT(r, e2e_json_bool(doc, "passes[0].complete") == 0 &&
                  e2e_json_bool(doc, "passes[1].complete") == 0);
    e2e_json_free(doc);
    e2e_free(r);
}

/* The buffered pass of slow_buffered.c never ends; the unbuffered one finds
 * a deadlock at once.  With --max-time, each pass gets its share: the
 * deadlock is found, and the report says what each pass covered. */
static void test_max_time_shared_by_passes(void) {
    const char *src = "tests/programs/slow_buffered.c";
    const char *j = json_path("slow_buffered");
    e2e_result *r = e2e_ordex_run("explore", "--max-time", "4", "--json", j, "-n", "5",
                                  PROG("slow_buffered.c"), NULL);
    EXPECT_STATUS(r, 1);
    EXPECT(r, count_findings(r->err) >= 1);
    char **lines = g_strsplit(r->err, "\n", -1);
    int at = -1;
    for (int i = 0; lines[i] && at < 0; i++)
        if (g_str_has_prefix(lines[i], "ERROR [deadlock] "))
            at = i;
    EXPECT(r, at >= 0);
    char *f = e2e_finding_at((const char *const *)lines, at, src, "/* SEND */", NULL, r, __FILE__,
                             __LINE__);
    EXPECT_BLOCK_HAS(r, f, "not buffered");
    g_free(f);
    g_strfreev(lines);
    EXPECT_ERR_HAS(r, "INCOMPLETE: the time limit (--max-time) was reached (in the buffered pass)");
    EXPECT_ERR_HAS(r, "buffered sends: stopped (the time limit (--max-time) was reached) after ");
    EXPECT_ERR_HAS(r, "; unbuffered sends: complete, ");
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    EXPECT(r, e2e_json_count(doc, "findings", "kind", "deadlock") == 1);
    EXPECT(r, e2e_json_str_is(doc, "passes[0].sends", "buffered") &&
                  e2e_json_str_is(doc, "passes[1].sends", "unbuffered"));
    EXPECT(r, e2e_json_bool(doc, "passes[0].ran") == 1 &&
                  e2e_json_bool(doc, "passes[0].complete") == 0);
    const char *why = e2e_json_str(doc, "passes[0].stopped");
    EXPECT(r, why && strstr(why, "--max-time"));
    EXPECT(r, e2e_json_num(doc, "passes[0].states") > 0);
    EXPECT(r, e2e_json_bool(doc, "passes[1].ran") == 1 &&
                  e2e_json_bool(doc, "passes[1].complete") == 1 &&
                  e2e_json_is_null(doc, "passes[1].stopped"));
    e2e_json_free(doc);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Signals: findings so far, traces and JSON; no process left behind       */

/* Starts ordex with `args` (spin_forever.c with `marker` among them), waits
 * for the marker (a rank computes forever from then on), sends `sig` to
 * ordex alone, and returns how ordex ended.  Checks that every process it
 * started is gone (and kills any that is not). */
static e2e_result *signal_ordex(const char *marker, int sig, const char *const *args) {
    remove(marker);
    e2e_proc *p = e2e_ordex_start(args[0], args[1], args[2], args[3], args[4], args[5], args[6],
                                  args[7], args[8], args[9], args[10], args[11], args[12], args[13],
                                  args[14], args[15], NULL);
    bool started = e2e_wait_for_file(marker, 60);
    int before = e2e_processes_with_arg(marker, false);
    kill(e2e_proc_pid(p), sig);
    e2e_result *r = e2e_proc_wait(p, 60);
    EXPECT(r, started);
    EXPECT(r, before >= 1);
    int left = 0;
    for (int i = 0; i < 500 && (left = e2e_processes_with_arg(marker, false)) > 0; i++)
        g_usleep(10000); /* processes killed with their parent take a moment to go */
    char *what = g_strdup_printf("no process left (%d were, %d still are)", before, left);
    e2e_check(left == 0, r, what, __FILE__, __LINE__);
    g_free(what);
    e2e_processes_with_arg(marker, true);
    return r;
}

/* A search stopped by SIGTERM (sent to ordex only, as a batch system does):
 * the snapshot processes end too, and the report is written, incomplete. */
static void test_sigterm_explore(void) {
    const char *marker = e2e_tmp("sigterm-explore.marker");
    const char *j = json_path("sigterm");
    const char *args[16] = {"explore", "--step-timeout",       "0",    "--json", j,   "-n",
                            "4",       PROG("spin_forever.c"), marker, "clean",  NULL};
    e2e_result *r = signal_ordex(marker, SIGTERM, args);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "INCOMPLETE: ordex was interrupted (SIGTERM)");
    EXPECT(r, count_findings(r->err) == 0);
    EXPECT(r, stat_before(r, " snapshots, peak") >= 1); /* there were processes to end */
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "incomplete"));
    const char *why = e2e_json_str(doc, "incomplete");
    EXPECT(r, why && strstr(why, "SIGTERM"));
    e2e_json_free(doc);
    e2e_free(r);
}

/* SIGINT after a finding: the finding, its trace and the JSON are written,
 * exit 1. */
static void test_sigint_explore_with_finding(void) {
    const char *marker = e2e_tmp("sigint-explore.marker");
    const char *j = json_path("sigint");
    const char *dir = e2e_tmp("sigint-traces");
    const char *args[16] = {
        "explore", "--step-timeout",       "0",    "--json", j,   "--trace-dir", dir, "-n",
        "3",       PROG("spin_forever.c"), marker, "exit",   NULL};
    e2e_result *r = signal_ordex(marker, SIGINT, args);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "INCOMPLETE: ordex was interrupted (SIGINT)");
    char *f = EXPECT_XERROR(r, 1, "mpi_error",
                            "rank 1 ended (status 3) without calling MPI_Finalize", NULL, NULL);
    char *trace = FINDING_TRACE(r, f);
    EXPECT_TRACE_FILE(r, trace, "mpi_error", 3, "eager", ordering_steps(f));
    g_free(trace);
    g_free(f);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    EXPECT(r, e2e_json_len(doc, "findings") == 1);
    const char *why = e2e_json_str(doc, "incomplete");
    EXPECT(r, why && strstr(why, "SIGINT"));
    e2e_json_free(doc);
    e2e_free(r);
}

/* `ordex run` ends cleanly on SIGTERM: the output so far (a partial line
 * included), a summary that says the run did not finish, exit 2. */
static void test_sigterm_run(void) {
    const char *marker = e2e_tmp("sigterm-run.marker");
    const char *args[16] = {"run",  "--step-timeout", "0", "-n", "3", PROG("spin_forever.c"),
                            marker, "clean",          NULL};
    e2e_result *r = signal_ordex(marker, SIGTERM, args);
    EXPECT_STATUS(r, 2);
    EXPECT(r, strcmp(r->out, "rank 0: got 8\nrank 0: computing\n") == 0);
    EXPECT_ERR_HAS(r, "the run did not finish: ordex was interrupted (SIGTERM)");
    EXPECT_ERR_LACKS(r, "ERROR");
    e2e_free(r);
}

/* `ordex predict` on SIGTERM while a child process simulates a placement:
 * the child ends too, and ordex says it was interrupted. */
static void test_sigterm_predict(void) {
    const char *marker = e2e_tmp("sigterm-predict.marker");
    const char *args[16] = {"predict",
                            "--platform",
                            PROG("predict.ini"),
                            "--set",
                            "cluster.nodes=1",
                            "--set",
                            "cluster.oversubscribe=true",
                            "--placements",
                            "4",
                            "--step-timeout",
                            "0",
                            "-n",
                            "2",
                            PROG("spin_forever.c"),
                            marker,
                            "poll"};
    e2e_result *r = signal_ordex(marker, SIGTERM, args);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "ordex predict: interrupted (SIGTERM)");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Trace directory; what differs in a message race                         */

/* A trace directory that cannot be made is an error naming it (exit 2);
 * the findings are still reported, in the text and the JSON. */
static void test_trace_dir_unwritable(void) {
    const char *file = e2e_tmp("plain-file");
    g_file_set_contents(file, "", 0, NULL);
    char *dir = g_build_filename(file, "traces", NULL);
    const char *j = json_path("tracedir");
    e2e_result *r = EX("--trace-dir", dir, "--json", j, "-n", "4", EXAMPLE("mergesort.c"));
    EXPECT_STATUS(r, 2);
    char *f = EXPECT_XERROR(r, 1, "mpi_error", "truncated", NULL, NULL);
    EXPECT_BLOCK_LACKS(r, f, "  trace: ");
    g_free(f);
    EXPECT_ERR_HAS(r, "ordex explore: 1 error found");
    char *want = g_strdup_printf("ordex: cannot create the trace directory %s: ", dir);
    EXPECT(r, strstr(r->err, want) != NULL &&
                  e2e_count(r->err, "cannot create the trace directory") == 1);
    g_free(want);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    EXPECT(r, e2e_json_len(doc, "findings") == 1 && e2e_json_is_null(doc, "findings[0].trace"));
    e2e_json_free(doc);
    e2e_free(r);
    g_free(dir);
}

/* The two lines "      A: ..." and "      B: ..." after `head` in the report
 * (newly allocated, NULL when absent). */
static void diff_lines(const char *out, const char *head, char **a, char **b) {
    *a = *b = NULL;
    const char *p = strstr(out, head);
    if (!p)
        return;
    p += strlen(head);
    if (g_str_has_prefix(p, "      A: ")) {
        p += strlen("      A: ");
        *a = g_strndup(p, strcspn(p, "\n"));
        p += strcspn(p, "\n") + 1;
    }
    if (*a && g_str_has_prefix(p, "      B: ")) {
        p += strlen("      B: ");
        *b = g_strndup(p, strcspn(p, "\n"));
    }
}

/* A message race shows what differs between its two orderings: the output
 * lines (as a replay of each trace prints them), observed values. */
static void test_race_differences(void) {
    const char *j = json_path("race_diff");
    const char *dir = e2e_tmp("race-diff-traces");
    e2e_result *r = EX("--json", j, "--trace-dir", dir, "-n", "3", EXAMPLE("waitany_race.c"));
    EXPECT_NO_ERROR_RACE(r);
    EXPECT_ERR_HAS(r, "  what differs between the outcomes:\n");
    char *a, *b;
    diff_lines(r->err, "    rank 0, output line 1:\n", &a, &b);
    const char *x = "waitany_race: order 1 2 result 259", *y = "waitany_race: order 2 1 result 349";
    EXPECT(r, a && b &&
                  ((strcmp(a, x) == 0 && strcmp(b, y) == 0) ||
                   (strcmp(a, y) == 0 && strcmp(b, x) == 0)));
    /* Ordering A's trace replays to A's line, B's to B's. */
    const char *p = strstr(r->err, "  traces: ");
    char **paths = NULL;
    if (p) {
        char *line = g_strndup(p + strlen("  traces: "), strcspn(p + strlen("  traces: "), "\n"));
        paths = g_strsplit(line, " ", -1);
        g_free(line);
    }
    EXPECT(r, paths && g_strv_length(paths) == 2);
    for (int i = 0; paths && i < 2 && paths[i]; i++) {
        char *ap = abs_path(paths[i]);
        e2e_result *rp = e2e_ordex_run("replay", ap, NULL);
        const char *want = i == 0 ? a : b;
        EXPECT(rp, want && strstr(rp->out, want) != NULL);
        e2e_free(rp);
        g_free(ap);
    }
    g_strfreev(paths);
    JsonObject *doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_len(doc, "findings[0].differences") == 1);
    EXPECT(r, e2e_json_str_is(doc, "findings[0].differences[0].what", "output"));
    EXPECT(r, e2e_json_num(doc, "findings[0].differences[0].rank") == 0 &&
                  e2e_json_num(doc, "findings[0].differences[0].line") == 1);
    EXPECT(r, a && e2e_json_str_is(doc, "findings[0].differences[0].a", a));
    EXPECT(r, b && e2e_json_str_is(doc, "findings[0].differences[0].b", b));
    EXPECT(r, e2e_json_len(doc, "findings[0].traces") == 2);
    e2e_json_free(doc);
    g_free(a);
    g_free(b);
    e2e_free(r);

    /* No output differs; a value registered with ordex_observe does. */
    j = json_path("observe_diff");
    r = EX("--json", j, "-n", "3", PROG("observe_race.c"));
    EXPECT_NO_ERROR_RACE(r);
    diff_lines(r->err, "    rank 0, observed value v:\n", &a, &b);
    x = "12 (0x0000000c)";
    y = "21 (0x00000015)";
    EXPECT(r, a && b &&
                  ((strcmp(a, x) == 0 && strcmp(b, y) == 0) ||
                   (strcmp(a, y) == 0 && strcmp(b, x) == 0)));
    EXPECT_ERR_LACKS(r, "output line");
    doc = EXPECT_JSON_FILE(r, j);
    EXPECT(r, e2e_json_str_is(doc, "findings[0].differences[0].what", "observed"));
    EXPECT(r, e2e_json_str_is(doc, "findings[0].differences[0].name", "v"));
    e2e_json_free(doc);
    g_free(a);
    g_free(b);
    e2e_free(r);
}

/* ordex explore with the default number of jobs (not through
 * e2e_ordex_run, which gives --jobs=1): the JSON's jobs and why. */
static JsonObject *explore_default_jobs(const char *prog, const char *extra, e2e_result **out) {
    const char *j = e2e_tmp("default_jobs.json");
    const char *argv[] = {e2e_ordex(), "explore", "-q", "-n", "2", "--json", j, prog, extra, NULL};
    if (!extra) /* prog last */
        argv[8] = NULL;
    else { /* the option goes before the program */
        argv[7] = extra;
        argv[8] = prog;
    }
    *out = e2e_exec(argv);
    return EXPECT_JSON_FILE(*out, j);
}

/* Processes exploring at once share the host's files: a program that opens
 * files is explored with one job by default (each ordering of an MPI-IO
 * program saw the bytes another wrote, and outcomes that no ordering has
 * appeared), and with as many as the user asks for. */
static void test_default_jobs_files(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    e2e_result *r;
    JsonObject *doc = explore_default_jobs(PROG("mpiio_nonblocking.c"), NULL, &r);
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_json_num(doc, "jobs") == 1);
    if (cores > 1) {
        EXPECT(r, strstr(e2e_json_str(doc, "jobs_reason"), "the program opens files") != NULL);
        EXPECT_ERR_HAS(r, "ordex explore: one job: the program opens files");
    }
    e2e_json_free(doc);
    e2e_free(r);
    doc = explore_default_jobs(PROG("mpiio_nonblocking.c"), "--jobs=2", &r);
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_json_num(doc, "jobs") == 2);
    EXPECT(r, strcmp(e2e_json_str(doc, "jobs_reason"), "--jobs") == 0);
    e2e_json_free(doc);
    e2e_free(r);
    doc = explore_default_jobs(e2e_src("examples/nbexchange.c"), NULL, &r);
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_json_num(doc, "jobs") == (double)(cores > 64 ? 64 : cores));
    EXPECT(r, strcmp(e2e_json_str(doc, "jobs_reason"), "default") == 0);
    e2e_json_free(doc);
    e2e_free(r);
}

static void e2e_add_explore_tests(CU_pSuite s) {
    CU_add_test(s, "mergesort: truncation (n=4, n=3), none n=2", test_mergesort);
    CU_add_test(s, "wildcard_deadlock: deadlock at [FROM2]", test_wildcard_deadlock);
    CU_add_test(s, "waitany_race: race, 6 outcomes; --divergence", test_waitany_race);
    CU_add_test(s, "probe_race: truncation at [RECV]", test_probe_race);
    CU_add_test(s, "intercomm_errors.c race: a wildcard receive on an intercommunicator",
                test_intercomm_race);
    CU_add_test(s, "deadlock_cycle: deadlock only unbuffered", test_deadlock_cycle);
    CU_add_test(s, "deadlock_else: deadlock n=3, none n=2", test_deadlock_else);
    CU_add_test(s, "barrier_comm: deadlock", test_barrier_comm);
    CU_add_test(s, "neighbor_exchange: race; --fixed none", test_neighbor_exchange);
    CU_add_test(s, "neighbor_exchange: race with buffered sends too (--async-progress)",
                test_neighbor_exchange_eager);
    CU_add_test(s, "benign_any_source, benign_waitall: no error", test_benign);
    CU_add_test(s, "bcast_sync: deadlock (header)", test_bcast_sync);
    CU_add_test(s, "ring: no error", test_ring);
    CU_add_test(s, "heat: no error", test_heat);
    CU_add_test(s, "pingpong: no error", test_pingpong);
    CU_add_test(s, "nbexchange: no error", test_nbexchange);
    CU_add_test(s, "Waitany orders that only differ in dead outputs merge", test_waitany_merge);
    CU_add_test(s, "callee-saved registers at MPI calls are state", test_register_state);
    CU_add_test(s, "dead local variables are not state", test_dead_locals);
    CU_add_test(s, "long orderings: outcomes summed up as they end", test_long_orderings);
    CU_add_test(s, "a log kept open across MPI calls is each ordering's own", test_rank_log);
    CU_add_test(s, "floyd_steinberg: no error", test_floyd_steinberg);
    CU_add_test(s, "lu: no error", test_lu);
    CU_add_test(s, "iprobe_once: deadlock when MPI_Iprobe says not yet", test_iprobe_once);
    CU_add_test(s, "reduction sound: mergesort -n 4", test_red_mergesort4);
    CU_add_test(s, "reduction sound: mergesort -n 3", test_red_mergesort3);
    CU_add_test(s, "reduction sound: wildcard_deadlock -n 3", test_red_wildcard_deadlock);
    CU_add_test(s, "reduction sound: waitany_race -n 4", test_red_waitany_race);
    CU_add_test(s, "reduction sound: waitany_ranks -n 4", test_red_waitany_ranks);
    CU_add_test(s, "choices inside calls are events, replayed from traces", test_choice_events);
    CU_add_test(s, "states stored with their sleep sets merge (lu -n 4)", test_sleep_states_stored);
    CU_add_test(s, "reduction sound: probe_race -n 3", test_red_probe_race3);
    CU_add_test(s, "reduction sound: probe_race -n 4", test_red_probe_race4);
    CU_add_test(s, "reduction sound: neighbor_exchange -n 3", test_red_neighbor_exchange);
    CU_add_test(s, "reduction: lu -n 3, covered wildcard receives cut states",
                test_red_lu3_covered);
    CU_add_test(s, "reduction off for programs that may cancel requests", test_red_cancel);
    CU_add_test(s, "reduction sound: neighbor_exchange --fixed", test_red_neighbor_fixed);
    CU_add_test(s, "reduction sound: benign_any_source -n 3", test_red_benign_any_source);
    CU_add_test(s, "reduction sound: benign_waitall -n 3", test_red_benign_waitall);
    CU_add_test(s, "reduction sound: deadlock_cycle -n 3", test_red_deadlock_cycle);
    CU_add_test(s, "reduction sound: deadlock_else -n 3", test_red_deadlock_else);
    CU_add_test(s, "reduction sound: barrier_comm -n 4", test_red_barrier_comm);
    CU_add_test(s, "reduction sound: bcast_sync -n 2", test_red_bcast_sync);
    CU_add_test(s, "reduction sound: nbexchange -n 2", test_red_nbexchange);
    CU_add_test(s, "reduction sound: floyd_steinberg -n 3", test_red_floyd_steinberg);
    CU_add_test(s, "reduction sound: lu -n 3", test_red_lu);
    CU_add_test(s, "reduction sound: heat -n 3", test_red_heat);
    CU_add_test(s, "reduction sound: ring -n 3", test_red_ring);
    CU_add_test(s, "reduction sound: crash_some_orderings -n 3", test_red_crash_some);
    CU_add_test(s, "reduction sound: iprobe_once -n 2", test_red_iprobe_once);
    CU_add_test(s, "reduction sound: not_yet loop -n 2", test_red_not_yet_loop);
    CU_add_test(s, "reduction sound: not_yet testany -n 2", test_red_not_yet_testany);
    CU_add_test(s, "--checkpoint=replay: same results as fork", test_replay_checkpoints);
    CU_add_test(s, "copy snapshots (default): same results as fork", test_copy_checkpoints);
    CU_add_test(s, "copy snapshots (default) = fork on every example",
                test_copy_default_every_example);
    CU_add_test(s, "copy snapshots switch to fork when a rank maps memory",
                test_copy_switches_on_mmap);
    CU_add_test(s, "--jobs 2 runs copy snapshots", test_jobs_take_copy);
    CU_add_test(s, "--graph after a switch to fork or replayed prefixes", test_graph_after_switch);
    CU_add_test(s, "incremental state hashes are never stale", test_incremental_hashes);
    CU_add_test(s, "--jobs 2: same results as one job", test_jobs);
    CU_add_test(s, "--jobs 2 = one job on every example", test_jobs_every_example);
    CU_add_test(s, "--jobs 2: a worker that dies", test_jobs_worker_dies);
    CU_add_test(s, "dfs-branches, large K: same as exhaustive", test_dfs_large_k_is_exhaustive);
    CU_add_test(s, "dfs-branches, K=0: one ordering per send mode", test_dfs_k0_one_path);
    CU_add_test(s, "dfs-branches: a bug needing 2 departures needs K=2", test_dfs_two_departures);
    CU_add_test(s, "dfs-branches: merging keeps the departures left", test_dfs_merge_keeps_budget);
    CU_add_test(s, "not yet: every Test and nonblocking probe call", test_not_yet_calls);
    CU_add_test(s, "not yet: polling loops end", test_not_yet_loops);
    CU_add_test(s, "crash in some orderings: reported, exploration goes on",
                test_crash_some_orderings);
    CU_add_test(s, "livelock in some orderings: reported, exploration goes on", test_livelock_some);
    CU_add_test(s, "--json: error report shape", test_json_error);
    CU_add_test(s, "--json: ok, race, deadlock", test_json_ok_and_race);
    CU_add_test(s, "--json-progress: JSON lines, monotone, final = report", test_json_progress);
    CU_add_test(s, "trace files and --trace-dir", test_trace_format);
    CU_add_test(s, "bad options: exit 2", test_bad_options);
    CU_add_test(s, "--strategy=bfs: one ordering, not exhaustive", test_strategy_bfs);
    CU_add_test(s, "--max-states 1: incomplete, exit 2", test_incomplete);
    CU_add_test(s, "MPI_Wtime advances when exploring: a wait on it ends", test_wtime_wait);
    CU_add_test(s, "--max-time stops a rank that computes", test_max_time_while_computing);
    CU_add_test(s, "--max-time is shared by the two passes", test_max_time_shared_by_passes);
    CU_add_test(s, "SIGTERM: report, JSON, no process left", test_sigterm_explore);
    CU_add_test(s, "SIGINT after a finding: finding, trace, exit 1",
                test_sigint_explore_with_finding);
    CU_add_test(s, "run: SIGTERM ends it cleanly, output kept", test_sigterm_run);
    CU_add_test(s, "predict: SIGTERM ends it and its placement child", test_sigterm_predict);
    CU_add_test(s, "a trace directory that cannot be made: exit 2", test_trace_dir_unwritable);
    CU_add_test(s, "a message race shows what differs", test_race_differences);
    CU_add_test(s, "the default jobs: one for a program that opens files", test_default_jobs_files);
}

E2E_MAIN("explore", e2e_add_explore_tests)
