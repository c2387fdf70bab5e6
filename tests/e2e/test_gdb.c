/*
 * test_gdb.c - `ordex replay --gdb`: a trace recorded by `ordex explore`
 * replayed under gdb in batch mode, with tools/gdb/ordex.py's commands, rank
 * threads named "rank N", backtraces into the program's source, and plain
 * gdb breakpoints conditioned on ordex_rank.
 *
 * gdb is part of what the project's scripts install: without it these tests
 * fail, saying so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define MERGESORT "examples/mergesort.c"

static bool have_gdb(void) {
    char *gdb = g_find_program_in_path("gdb");
    if (!gdb) {
        printf("\ngdb is not installed (install the Debian package gdb; tools/setup.sh does)\n");
        CU_FAIL("gdb is not installed");
        return false;
    }
    g_free(gdb);
    return true;
}

/* Records mergesort's failing ordering once; returns the trace's path (lives
 * until e2e_fini) or NULL. */
static const char *mergesort_trace(void) {
    static const char *trace;
    if (trace)
        return trace;
    const char *dir = e2e_tmp("gdb-traces");
    e2e_result *r =
        e2e_ordex_run("explore", "-n", "4", "--trace-dir", dir, e2e_src(MERGESORT), NULL);
    EXPECT_STATUS(r, 1);
    e2e_free(r);
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d)))
        if (g_str_has_prefix(name, "mergesort") && g_str_has_suffix(name, ".trace")) {
            char *path = g_build_filename(dir, name, NULL);
            char *text = e2e_read_file(path);
            if (text && strstr(text, "finding mpi_error")) {
                char *rel = g_build_filename("gdb-traces", name, NULL);
                trace = e2e_tmp(rel);
                g_free(rel);
            }
            g_free(text);
            g_free(path);
        }
    if (d)
        g_dir_close(d);
    CU_ASSERT_PTR_NOT_NULL(trace);
    return trace;
}

/* The first step whose choice is not 1/N, as ordex replay --gdb chooses, and
 * the trace's step count. */
static int first_divergence(const char *trace, int *nsteps) {
    char *text = e2e_read_file(trace);
    char **lines = g_strsplit(text ? text : "", "\n", -1);
    int first = 0, n = 0;
    for (int i = 0; lines[i]; i++) {
        if (!g_str_has_prefix(lines[i], "step "))
            continue;
        n++;
        const char *c = strstr(lines[i], " choice=");
        if (!first && c && !g_str_has_prefix(c, " choice=1/"))
            first = n;
    }
    g_strfreev(lines);
    g_free(text);
    *nsteps = n;
    return first ? first : 1;
}

static const char *write_script(const char *name, const char *text) {
    const char *path = e2e_tmp(name);
    CU_ASSERT_FATAL(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* Selects the thread named "rank R" the plain gdb way: `thread N`. */
#define SELECT_RANK_THREAD(R)                                                                      \
    "python\n"                                                                                     \
    "import gdb\n"                                                                                 \
    "n = [t.num for t in gdb.selected_inferior().threads() if t.name == 'rank " #R "']\n"          \
    "gdb.execute('thread %d' % n[0])\n"                                                            \
    "end\n"

static void test_replay_gdb(void) {
    if (!have_gdb())
        return;
    const char *trace = mergesort_trace();
    if (!trace)
        return;
    int nsteps, stop = first_divergence(trace, &nsteps);
    int recv = e2e_marker_line(MERGESORT, "[RECV]");
    CU_ASSERT_FATAL(recv > 0);
    /* What a user would type at the stop, one command a line. */
    static const char commands[] =
        "ordex ranks\n"
        "ordex where\n" SELECT_RANK_THREAD(0) /* `thread N` of "rank 0" */
        "bt\n"
        "print ordex_rank\n"
        "print $ordex_rank\n"
        "ordex thread 2\n"
        "ordex step\n"
        "ordex goto 1000\n"
        "ordex ranks\n"
        "continue\n";
    const char *script = write_script("replay.gdb", commands);
    e2e_result *r = e2e_ordex_run("replay", "--gdb", "--gdb-batch", script, trace, NULL);
    char *s;

    /* Stopped before the first step that leaves the default schedule. */
    s = g_strdup_printf("ordex: before step %d of %d", stop, nsteps);
    EXPECT(r, strstr(r->out, s) != NULL);
    g_free(s);
    /* ordex ranks: every rank with its state and pending call. */
    char *ranks0 = e2e_grep(r->out, "  rank 0  ");
    s = g_strdup_printf("MPI_Recv(source=MPI_ANY_SOURCE, tag=7, count=16, MPI_INT, "
                        "MPI_COMM_WORLD) at mergesort.c:%d",
                        recv);
    EXPECT_BLOCK_HAS(r, ranks0, "blocked");
    EXPECT_BLOCK_HAS(r, ranks0, s);
    g_free(s);
    g_free(ranks0);
    EXPECT_OUT_HAS(r, "  rank 3  ended ");
    EXPECT_OUT_HAS(r, "[Switching to thread ");
    /* bt in rank 0's thread reaches the wildcard receive of the program. */
    char *frames = e2e_grep(r->out, " in main (");
    s = g_strdup_printf("mergesort.c:%d", recv);
    EXPECT_BLOCK_HAS(r, frames, s);
    EXPECT(r, e2e_count(frames, s) >= 2); /* rank 0's bt, and `ordex thread 2` */
    g_free(s);
    g_free(frames);
    /* ordex thread selects a rank's thread at its frame in the program. */
    EXPECT_OUT_HAS(r, "[thread 4, \"rank 2\"]\n#");
    /* The scheduler runs at a stop: ordex_rank is -1 (typed, printed plainly). */
    EXPECT_OUT_HAS(r, "$1 = -1\n");
    EXPECT_OUT_HAS(r, "$2 = -1\n");
    /* ordex step fires the step: the next stop is before the following one. */
    s = g_strdup_printf("ordex: before step %d of %d", stop + 1, nsteps);
    EXPECT(r, stop >= nsteps || strstr(r->out, s) != NULL);
    g_free(s);
    /* Past the trace: the end of the run, still inspectable, then the report. */
    EXPECT_OUT_HAS(r, "the run has ended after step");
    EXPECT_OUT_HAS(r, "  rank 0  failed ");
    EXPECT_ERR_HAS(r, "ERROR [mpi_error] rank 0: MPI_Recv: message truncated"); /* the report */
    EXPECT_OUT_LACKS(r, "Error in sourced command file");
    EXPECT_ERR_LACKS(r, "Error in sourced command file");
    e2e_free(r);
}

static void test_plain_gdb_breakpoint(void) {
    /* gdb started by hand on ordex, loading the extension itself; a plain
     * breakpoint in the program's source, only for rank 3. */
    if (!have_gdb())
        return;
    const char *trace = mergesort_trace();
    if (!trace)
        return;
    int send = e2e_marker_line(MERGESORT, "[SEND]");
    CU_ASSERT_FATAL(send > 0);
    char *text = g_strdup_printf("source %s\n"
                                 "file %s\n"
                                 "set args replay --gdb-inferior %s\n"
                                 "ordex start 1\n"
                                 "break mergesort.c:%d if ordex_rank == 3\n"
                                 "continue\n"
                                 "print ordex_rank\n"
                                 "print $ordex_rank\n"
                                 "ordex where\n"
                                 "ordex ranks\n",
                                 e2e_src("tools/gdb/ordex.py"), e2e_ordex(), trace, send);
    const char *script = write_script("breakpoint.gdb", text);
    g_free(text);
    const char *argv[] = {"gdb", "-nx",  "-batch", "-iex", "set debuginfod enabled off",
                          "-x",  script, NULL};
    e2e_result *r = e2e_exec(argv);
    EXPECT_OUT_HAS(r, "ordex: before step 1 of");
    char *s = g_strdup_printf("mergesort.c:%d", send);
    char *hit = e2e_grep(r->out, "\"rank 3\" hit Breakpoint");
    EXPECT_BLOCK_HAS(r, hit, s);
    g_free(hit);
    g_free(s);
    EXPECT_OUT_LACKS(r, "\"rank 0\" hit Breakpoint");
    EXPECT_OUT_LACKS(r, "\"rank 1\" hit Breakpoint");
    EXPECT_OUT_LACKS(r, "\"rank 2\" hit Breakpoint");
    EXPECT_OUT_HAS(r, "$1 = 3\n");
    EXPECT_OUT_HAS(r, "$2 = 3\n");
    EXPECT_OUT_HAS(r, "rank 3 is running");
    EXPECT_OUT_HAS(r, "* rank 3  running ");
    e2e_free(r);
}

/* A breakpoint set before the replay starts is pending until the ranks'
 * copies of the program are loaded; while ordex loads them it keeps them
 * off the dynamic linker's list, and gdb, which took a copy it lost sight of
 * for unloaded, left its breakpoint instruction in the copy's code (the
 * ranks then crashed or computed nonsense).  It must stop in rank 3 only,
 * and the replay must run to its usual report. */
static void test_breakpoint_before_start(void) {
    if (!have_gdb())
        return;
    const char *trace = mergesort_trace();
    if (!trace)
        return;
    int send = e2e_marker_line(MERGESORT, "[SEND]");
    CU_ASSERT_FATAL(send > 0);
    char *text = g_strdup_printf("source %s\n"
                                 "file %s\n"
                                 "set args replay --gdb-inferior %s\n"
                                 "set breakpoint pending on\n"
                                 /* Typed by hand: the test binary has no debug
                                  * information, and ordex.py types ordex_rank
                                  * only at the first stop. */
                                 "break mergesort.c:%d if *(int *)&ordex_rank == 3\n"
                                 "ordex start 1\n"
                                 "continue\n"
                                 "print $ordex_rank\n"
                                 "delete\n"
                                 "continue\n",
                                 e2e_src("tools/gdb/ordex.py"), e2e_ordex(), trace, send);
    const char *script = write_script("pending.gdb", text);
    g_free(text);
    const char *argv[] = {"gdb", "-nx",  "-batch", "-iex", "set debuginfod enabled off",
                          "-x",  script, NULL};
    e2e_result *r = e2e_exec(argv);
    char *s = g_strdup_printf("mergesort.c:%d", send);
    char *hit = e2e_grep(r->out, "\"rank 3\" hit Breakpoint");
    EXPECT_BLOCK_HAS(r, hit, s);
    g_free(hit);
    g_free(s);
    EXPECT_OUT_LACKS(r, "\"rank 0\" hit Breakpoint");
    EXPECT_OUT_LACKS(r, "\"rank 1\" hit Breakpoint");
    EXPECT_OUT_LACKS(r, "\"rank 2\" hit Breakpoint");
    EXPECT_OUT_HAS(r, "$1 = 3\n");
    EXPECT_OUT_LACKS(r, "received signal");
    EXPECT_OUT_LACKS(r, "Temporarily disabling breakpoints");
    EXPECT_ERR_LACKS(r, "Temporarily disabling breakpoints");
    EXPECT_ERR_HAS(r, "ERROR [mpi_error] rank 0: MPI_Recv: message truncated");
    e2e_free(r);
}

static void test_stop_at(void) {
    if (!have_gdb())
        return;
    const char *trace = mergesort_trace();
    if (!trace)
        return;
    const char *script = write_script("where.gdb", "ordex where\n");
    e2e_result *r =
        e2e_ordex_run("replay", "--gdb", "--stop-at", "2", "--gdb-batch", script, trace, NULL);
    EXPECT_OUT_HAS(r, "before step 2 of");
    EXPECT_OUT_HAS(r, "next: step 2: rank 2 receives from rank 1 (tag 6): sent at mergesort.c:");
    e2e_free(r);
}

/* A gdb session leaves nothing in the temporary directory (neither the typed
 * description of ordex_rank nor the replay's copies of the program, which
 * gdb's end kills), and the program still sees the TMPDIR it was given. */
static void test_gdb_leaves_no_files(void) {
    if (!have_gdb())
        return;
    const char *trace = mergesort_trace();
    if (!trace)
        return;
    const char *tmp = e2e_tmp("gdb-tmpdir");
    CU_ASSERT_FATAL(g_mkdir_with_parents(tmp, 0700) == 0);
    const char *script = write_script(
        "tmpdir.gdb", "ordex ranks\nprint ordex_rank\nprint (char *) getenv(\"TMPDIR\")\n");
    char *env = g_strdup_printf("TMPDIR=%s", tmp);
    const char *argv[] = {"env",         env,    e2e_ordex(), "replay", "--gdb",
                          "--gdb-batch", script, trace,       NULL};
    e2e_result *r = e2e_exec(argv);
    EXPECT_OUT_HAS(r, "  rank 0  blocked ");
    EXPECT_OUT_HAS(r, "$1 = -1\n"); /* the typed ordex_rank was made and loaded */
    char *seen = g_strdup_printf("\"%s\"", tmp);
    EXPECT_OUT_HAS(r, seen);
    g_free(seen);
    GDir *d = g_dir_open(tmp, 0, NULL);
    const char *left = d ? g_dir_read_name(d) : NULL;
    e2e_check(d && !left, r, "the temporary directory is empty after gdb ended", __FILE__,
              __LINE__);
    if (left)
        printf("left in %s: %s\n", tmp, left);
    if (d)
        g_dir_close(d);
    g_free(env);
    e2e_free(r);
}

static void test_gdb_usage(void) {
    const char *trace = mergesort_trace();
    if (!trace)
        return;
    e2e_result *r = e2e_ordex_run("replay", "--gdb-batch", "x.gdb", trace, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "--gdb-batch needs --gdb");
    e2e_free(r);
    /* Without gdb on the PATH: one line naming the package, status 2. */
    const char *argv[] = {"env", "PATH=/nonexistent", e2e_ordex(), "replay", "--gdb", trace, NULL};
    r = e2e_exec(argv);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "install the Debian package gdb");
    e2e_free(r);
}

static void e2e_add_gdb_tests(CU_pSuite s) {
    CU_add_test(s, "replay --gdb: ranks, threads, bt, step, end", test_replay_gdb);
    CU_add_test(s, "plain gdb: break mergesort.c:N if ordex_rank == 3", test_plain_gdb_breakpoint);
    CU_add_test(s, "plain gdb: a breakpoint set before the replay starts",
                test_breakpoint_before_start);
    CU_add_test(s, "replay --gdb --stop-at 2", test_stop_at);
    CU_add_test(s, "replay --gdb: usage errors, gdb missing", test_gdb_usage);
    CU_add_test(s, "replay --gdb leaves no temporary files", test_gdb_leaves_no_files);
}

E2E_MAIN("gdb", e2e_add_gdb_tests)
