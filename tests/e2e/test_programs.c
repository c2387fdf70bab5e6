/*
 * test_programs.c - `ordex run` on the small programs of tests/programs/: each
 * erroneous one must give its finding (kind, rank, source line of the marker
 * comment "FAULT"), each correct one the output of real MPICH.
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define P(name) e2e_src("tests/programs/" name)
#define SRC(name) ("tests/programs/" name)
#define FAULT "/* FAULT */"
#define FAULT_END "/* FAULT_END */"

/* ---------------------------------------------------------------------- */
/* Crashes                                                                 */

static void test_segv(void) {
    e2e_result *r = RUN("run", "-n", "4", P("segv.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "crash", "rank 1 crashed: SIGSEGV", SRC("segv.c"), FAULT);
    EXPECT_BLOCK_HAS(r, f, "main (");
    EXPECT_BLOCK_HAS(r, f, " at address "); /* the NULL pointer written through */
    EXPECT_OUT_LACKS(r, "rank 1: survived");
    EXPECT_ERR_HAS(r, "; 1 error found\n");
    g_free(f);
    e2e_free(r);
    /* raise(SIGSEGV): no access failed, so there is no fault address. */
    r = RUN("run", "-n", "4", P("segv.c"), "raise");
    EXPECT_STATUS(r, 1);
    f = EXPECT_FINDING(r, 1, "crash",
                       "rank 1 crashed: SIGSEGV sent by the program (raise() or kill()), not by "
                       "a fault",
                       SRC("segv.c"), "/* RAISE */");
    EXPECT_BLOCK_LACKS(r, f, "address");
    EXPECT_OUT_LACKS(r, "rank 1: survived");
    g_free(f);
    e2e_free(r);
}

static void test_assert_fail(void) {
    e2e_result *r = RUN("run", "-n", "4", P("assert_fail.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "crash", "rank 2 crashed: SIGABRT", SRC("assert_fail.c"), FAULT);
    EXPECT_BLOCK_HAS(r, f, "main (");
    EXPECT_ERR_HAS(r, "Assertion `value != 20' failed"); /* the C library's own message */
    EXPECT_OUT_LACKS(r, "rank 2: value");
    g_free(f);
    e2e_free(r);
}

static void test_fpe(void) {
    e2e_result *r = RUN("run", "-n", "4", P("fpe.c"));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "crash", "rank 0 crashed: SIGFPE", SRC("fpe.c"), FAULT));
    EXPECT_OUT_LACKS(r, "rank 0: quotient");
    e2e_free(r);
}

static void check_stack_overflow(e2e_result *r) {
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING_IN(r, 1, "crash", "rank 1 overflowed its stack",
                                SRC("stack_overflow.c"), FAULT, FAULT_END);
    EXPECT_BLOCK_HAS(r, f, "--stack-size");
    EXPECT_BLOCK_HAS(r, f, "depth (");
    EXPECT_OUT_LACKS(r, "rank 1:");
    g_free(f);
}

static void test_stack_overflow(void) {
    e2e_result *r = RUN("run", "-n", "4", P("stack_overflow.c"));
    check_stack_overflow(r);
    e2e_free(r);
    r = RUN("run", "--stack-size", "64KiB", "-n", "2", P("stack_overflow.c"));
    check_stack_overflow(r);
    e2e_free(r);
}

static void test_exit_code(void) {
    e2e_result *r = RUN("run", "-n", "4", P("exit_code.c"));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "crash", "rank 2 exited with status 3", NULL, NULL));
    for (int k = 0; k < 4; k++) {
        char *l = g_strdup_printf("rank %d: finishing\n", k);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
    }
    e2e_free(r);
}

static void test_no_finalize(void) {
    e2e_result *r = RUN("run", "-n", "4", P("no_finalize.c"));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error", "rank 1 ended (status 0) without calling MPI_Finalize",
                          NULL, NULL));
    EXPECT(r, e2e_count(r->out, ": done\n") == 4);
    e2e_free(r);
}

static void test_mpi_abort(void) {
    e2e_result *r = RUN("run", "-n", "4", P("mpi_abort.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "crash", "MPI_Abort", SRC("mpi_abort.c"), FAULT);
    EXPECT_BLOCK_HAS(r, f, "rank 0 ");
    EXPECT_BLOCK_HAS(r, f, "error code 7");
    EXPECT(r, strcmp(r->out, "rank 0: giving up\n") == 0);
    g_free(f);
    e2e_free(r);
}

static void test_livelock(void) {
    e2e_result *r = RUN("run", "--step-timeout", "1", "-n", "4", P("livelock.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING_IN(r, 1, "livelock", "rank 1 ran past the step timeout",
                                SRC("livelock.c"), FAULT, FAULT_END);
    /* The default step timeout is 10 s: this one must be used. */
    EXPECT_BLOCK_HAS(r, f, "step timeout of 1 s");
    g_free(f);
    e2e_free(r);
}

/* A bounded polling loop that gives up is correct: no deadlock in any
 * command (all three reported one before). */
static void test_poll_bounded(void) {
    const char *want = "rank 0: no message after 5 tries\nrank 0: test gave up\n";
    e2e_result *r = RUN("run", "-n", "2", P("poll_bounded.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, strcmp(r->out, want) == 0);
    e2e_free(r);
    r = RUN("explore", "--trace-dir", e2e_tmp("poll_traces"), "-n", "2", P("poll_bounded.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists");
    EXPECT(r, r->out[0] == '\0'); /* explore shows no program output */
    e2e_free(r);
    r = RUN("explore", "--no-test-later", "--trace-dir", e2e_tmp("poll_traces"), "-n", "2",
            P("poll_bounded.c"));
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    r = RUN("predict", "--no-timeline", "--platform", P("predict.ini"), "-n", "2",
            P("poll_bounded.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, strcmp(r->out, want) == 0); /* stdout: the program's output only */
    EXPECT_ERR_HAS(r, "predicted time: ");
    e2e_free(r);
}

/* Polling for what can never come is a livelock at the poll: at once when
 * the loop changes nothing, after the step timeout when it counts. */
static void test_poll_forever(void) {
    e2e_result *r = RUN("run", "-n", "2", P("poll_forever.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "livelock", "rank 0 polls with MPI_Iprobe forever",
                             SRC("poll_forever.c"), FAULT);
    EXPECT_BLOCK_HAS(r, f, "came back to the same state");
    EXPECT_BLOCK_HAS(r, f, "rank 1: MPI_Barrier");
    g_free(f);
    e2e_free(r);
    r = RUN("run", "--step-timeout", "0.5", "-n", "2", P("poll_forever.c"), "count");
    EXPECT_STATUS(r, 1);
    f = EXPECT_FINDING(r, 1, "livelock", "rank 0 polls with MPI_Iprobe forever",
                       SRC("poll_forever.c"), "/* COUNT */");
    EXPECT_BLOCK_HAS(r, f, "polled in vain");
    g_free(f);
    e2e_free(r);
    r = RUN("explore", "--trace-dir", e2e_tmp("poll_traces"), "-n", "2", P("poll_forever.c"));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [livelock] livelock: rank 0 polls with MPI_Iprobe forever");
    e2e_free(r);
}

/* A program that asks for MPI_THREAD_MULTIPLE, gets less and stops as it
 * was written to is ordex's limit, not the program's error: exit status 2,
 * verdict "unsupported", the level and the MPI_Init_thread call named (it
 * was reported as the program's crash or error, exit status 1). */
static void test_thread_level_unsupported(void) {
    int init = e2e_marker_line("tests/programs/thread_multiple.c", "/* INIT */");
    char *at = g_strdup_printf("rank 0 asked MPI_Init_thread for it at thread_multiple.c:%d", init);
    const char *hows[] = {"abort", "exit"};
    for (int i = 0; i < 2; i++) {
        const char *json = e2e_tmp("thread.json");
        e2e_result *r = RUN("run", "--json", json, "-n", "2", P("thread_multiple.c"), hows[i]);
        EXPECT_STATUS(r, 2);
        EXPECT_ERR_HAS(r, "ordex: UNSUPPORTED the program needs MPI_THREAD_MULTIPLE, which ordex "
                          "does not support");
        EXPECT_ERR_HAS(r, at);
        EXPECT_ERR_LACKS(r, "ERROR [");
        JsonObject *doc = EXPECT_JSON_FILE(r, json);
        EXPECT(r, e2e_json_str_is(doc, "verdict", "unsupported"));
        e2e_json_free(doc);
        e2e_free(r);
    }
    e2e_result *r =
        RUN("explore", "--trace-dir", e2e_tmp("thread_traces"), "-n", "2", P("thread_multiple.c"));
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "ordex explore: the program needs what ordex does not support");
    e2e_free(r);
    r = RUN("run", "-n", "2", P("thread_multiple.c"), "funneled");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 1: funneled ok\n");
    e2e_free(r);
    g_free(at);
}

/* ---------------------------------------------------------------------- */
/* MPI usage errors                                                        */

static void mpi_error(const char *file, int rank, const char *text, const char *text2) {
    char *rel = g_strdup_printf("tests/programs/%s", file);
    e2e_result *r = RUN("run", "-n", "4", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "mpi_error", text, rel, FAULT);
    char *who = g_strdup_printf("] rank %d: ", rank);
    EXPECT_BLOCK_HAS(r, f, who);
    if (text2)
        EXPECT_BLOCK_HAS(r, f, text2);
    g_free(who);
    g_free(f);
    g_free(rel);
    e2e_free(r);
}

static void test_bad_rank(void) {
    mpi_error("bad_rank.c", 0, "dest 99", "MPI_Send");
}
static void test_bad_tag(void) {
    mpi_error("bad_tag.c", 0, "tag -5", "MPI_Send");
}
static void test_bad_count(void) {
    mpi_error("bad_count.c", 1, "count -1", "MPI_Send");
}
static void test_bad_type(void) {
    mpi_error("bad_type.c", 0, "not committed", "MPI_Send");
}
/* MPI 2.2's MPI_Comm_create takes a group per process, but groups that
 * overlap are erroneous; the twin with disjoint groups runs clean below. */
static void test_comm_create_overlap(void) {
    mpi_error("comm_create_overlap.c", 0,
              "MPI_Comm_create: its group (world ranks 0, 1) includes comm rank 1, which passes "
              "another group (world ranks 1, 2)",
              "the groups are disjoint");
}
static void test_truncate(void) {
    mpi_error("truncate.c", 1, "truncated", "MPI_Recv");
}

static void test_type_mismatch(void) {
    mpi_error("type_mismatch.c", 1, "type signatures", "MPI_DOUBLE");
    e2e_result *r = RUN("run", "-n", "2", P("type_mismatch.c"));
    EXPECT_ERR_HAS(r, "MPI_INT");
    EXPECT_OUT_LACKS(r, "rank 1:");
    e2e_free(r);
}

/* Compact type signatures: an equivalent struct type built another way
 * matches, and a mismatch deep inside repeated structs is found at its
 * element. */
static void test_struct_array_mismatch(void) {
    mpi_error("struct_array_mismatch.c", 1, "type signatures",
              "element 4997 is MPI_CHAR in the message but MPI_UNSIGNED_CHAR in the receive type");
    e2e_result *r = RUN("run", "-n", "2", P("struct_array_mismatch.c"));
    EXPECT_STATUS(r, 1);
    EXPECT_OUT_HAS(r, "rank 1: first message ok");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Leftovers and deadlocks                                                 */

static void test_lost_message(void) {
    e2e_result *r = RUN("run", "-n", "4", P("lost_message.c"));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "lost_message", "rank 0 sent a message to rank 1 (tag 9",
                          SRC("lost_message.c"), FAULT));
    EXPECT_ERR_HAS(r, "never received");
    EXPECT(r, e2e_count(r->out, ": done\n") == 4);
    e2e_free(r);
}

static void test_pending_request(void) {
    e2e_result *r = RUN("run", "-n", "4", P("pending_request.c"));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "pending_request", "rank 1: the request of MPI_Irecv",
                          SRC("pending_request.c"), FAULT));
    EXPECT(r, e2e_count(r->out, ": done\n") == 4);
    e2e_free(r);
}

static void test_ssend_cycle(void) {
    /* Synchronous sends deadlock in every send mode. */
    static const char *const modes[] = {"eager", "auto", "rendezvous"};
    for (size_t i = 0; i < G_N_ELEMENTS(modes); i++) {
        e2e_result *r = RUN("run", "--send-mode", modes[i], "-n", "3", P("ssend_cycle.c"));
        EXPECT_STATUS(r, 1);
        char *f = EXPECT_FINDING(r, 1, "deadlock", "2 ranks blocked", SRC("ssend_cycle.c"), FAULT);
        EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 1 -> rank 0\n");
        EXPECT_BLOCK_HAS(r, f, "  rank 0: MPI_Ssend(dest=1");
        EXPECT_BLOCK_HAS(r, f, "  rank 1: MPI_Ssend(dest=0");
        EXPECT(r, f && !strstr(f, "not buffered"));
        EXPECT(r, r->out[0] == '\0');
        g_free(f);
        e2e_free(r);
    }
}

/* ---------------------------------------------------------------------- */
/* Correct programs: no finding, MPICH's output                            */

static void test_errors_return(void) {
    e2e_result *r = RUN("run", "-n", "4", P("errors_return.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, strcmp(r->out, "rank 0: got error class 6\n") == 0);
    EXPECT_MPICH_OUTPUT(r, "errors_return.n4");
    e2e_free(r);
}

static void test_globals(void) {
    e2e_result *r = RUN("run", "-n", "4", P("globals.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 3: counter 106 calls 4 table 30 31 32 33 initialised 1\n");
    EXPECT_MPICH_OUTPUT(r, "globals.n4");
    e2e_free(r);
}

/* Builds tests/programs/userlib_lib.c as libuserlib.so in DIR (a scratch
 * directory named `dir`) and tests/programs/SRC as program `so` linked with
 * it, with `link_flags` (NULL-terminated) after "-L DIR -luserlib"; returns
 * the program's path (lives until e2e_fini) or NULL. */
static const char *build_with_userlib(const char *dir, const char *so, const char *src,
                                      const char *const *link_flags) {
    const char *d = e2e_tmp(dir);
    g_mkdir_with_parents(d, 0755);
    char *lib = g_build_filename(d, "libuserlib.so", NULL);
    e2e_result *r = RUN("cc", "-o", lib, P("userlib_lib.c"));
    bool ok = EXPECT_STATUS(r, 0);
    e2e_free(r);
    g_free(lib);
    char *rel = g_build_filename(dir, so, NULL);
    const char *prog = e2e_tmp(rel);
    g_free(rel);
    char *ldir = g_strdup_printf("-L%s", d);
    GPtrArray *a = g_ptr_array_new();
    char *rel_src = g_build_filename("tests/programs", src, NULL);
    const char *head[] = {"cc", "-o", prog, e2e_src(rel_src), ldir, "-luserlib"};
    g_free(rel_src);
    for (size_t i = 0; i < G_N_ELEMENTS(head); i++)
        g_ptr_array_add(a, (gpointer)head[i]);
    for (int i = 0; link_flags && link_flags[i]; i++)
        g_ptr_array_add(a, (gpointer)link_flags[i]);
    g_ptr_array_add(a, NULL);
    r = e2e_ordex_runv((const char *const *)a->pdata);
    ok = EXPECT_STATUS(r, 0) && ok;
    e2e_free(r);
    g_ptr_array_free(a, TRUE);
    g_free(ldir);
    return ok ? prog : NULL;
}

static const char *build_userlib(const char *dir, const char *so, const char *const *link_flags) {
    return build_with_userlib(dir, so, "userlib.c", link_flags);
}

/* Globals of the user's own shared library are per rank, as under mpiexec
 * (they were shared: rank 2 of 3 counted 6 calls instead of 3), whether the
 * program finds the library through its run path ($ORIGIN, which ordex once
 * pointed at a temporary directory, or a plain directory) or through
 * LD_LIBRARY_PATH; in run and in explore. */
static void test_userlib(void) {
    const char *origin[] = {"-Wl,-rpath,$ORIGIN", NULL};
    const char *prog = build_userlib("userlib", "userlib.so", origin);
    if (!prog)
        return;
    e2e_result *r = RUN("run", "-n", "3", prog);
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 2: library calls 3 total 1003 constructed 1 library rank 2\n");
    EXPECT_MPICH_OUTPUT(r, "userlib.n3");
    e2e_free(r);
    r = RUN("run", "-n", "4", prog);
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "userlib.n4");
    e2e_free(r);
    r = RUN("explore", "-n", "3", prog);
    EXPECT_STATUS(r, 0);
    EXPECT(r, strstr(r->out, "no error exists") || strstr(r->err, "no error exists"));
    e2e_free(r);

    char *dir = g_path_get_dirname(prog);
    char *rpath = g_strdup_printf("-Wl,-rpath,%s", dir);
    const char *plain[] = {rpath, NULL};
    const char *prog2 = build_userlib("userlib", "userlib_rpath.so", plain);
    if (prog2) {
        r = RUN("run", "-n", "4", prog2);
        EXPECT_CLEAN(r);
        EXPECT_MPICH_OUTPUT(r, "userlib.n4");
        e2e_free(r);
    }
    const char *prog3 = build_userlib("userlib", "userlib_norpath.so", NULL);
    if (prog3) {
        char *env = g_strdup_printf("LD_LIBRARY_PATH=%s", dir);
        const char *argv[] = {"env", env, e2e_ordex(), "run", "-n", "3", prog3, NULL};
        r = e2e_exec(argv);
        EXPECT_CLEAN(r);
        EXPECT_MPICH_OUTPUT(r, "userlib.n3");
        e2e_free(r);
        g_free(env);
        /* Not found: one line saying where a library is looked for. */
        const char *unset[] = {"env", "-u", "LD_LIBRARY_PATH", e2e_ordex(), "run", "-n", "3",
                               prog3, NULL};
        r = e2e_exec(unset);
        EXPECT_ONE_LINE_ERROR(r, "libuserlib.so: cannot open shared object file");
        EXPECT_ERR_HAS(r, "LD_LIBRARY_PATH");
        e2e_free(r);
    }
    g_free(rpath);
    g_free(dir);
}

/* A finding in the user's own library names its source line. */
static void test_userlib_deadlock(void) {
    const char *origin[] = {"-Wl,-rpath,$ORIGIN", NULL};
    const char *prog =
        build_with_userlib("userlib_dl", "userlib_deadlock.so", "userlib_deadlock.c", origin);
    if (!prog)
        return;
    e2e_result *r = RUN("run", "-n", "3", prog);
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "3 ranks blocked", SRC("userlib_lib.c"), FAULT);
    EXPECT_BLOCK_HAS(r, f,
                     "rank 2: MPI_Recv(source=0, tag=0, count=1, MPI_INT, MPI_COMM_WORLD) "
                     "at userlib_lib.c:");
    g_free(f);
    e2e_free(r);
}

static void test_heap(void) {
    e2e_result *r = RUN("run", "-n", "4", P("heap.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, e2e_count(r->out, ": offsets ") == 4);
    e2e_expect_mpich_output(r, "heap.n4", " contents ", __FILE__, __LINE__);
    /* Heap addresses are deterministic: a second run prints the same. */
    e2e_result *r2 = RUN("run", "-n", "4", P("heap.c"));
    EXPECT_CLEAN(r2);
    EXPECT(r2, strcmp(r->out, r2->out) == 0);
    e2e_free(r2);
    e2e_free(r);
}

/* A crash after malloc returned NULL for lack of heap (--heap-size) says
 * that the rank's heap limit was reached and how to raise it; it read like
 * the program's own SIGSEGV. */
static void test_heap_null(void) {
    e2e_result *r = RUN("run", "--heap-size", "1MiB", "-n", "2", P("heap_null.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "crash", "rank 1 crashed: SIGSEGV", SRC("heap_null.c"), FAULT);
    EXPECT_BLOCK_HAS(r, f, "heap limit was reached: an allocation of 4 MiB failed");
    EXPECT_BLOCK_HAS(r, f, "in a heap of 1 MiB");
    EXPECT_BLOCK_HAS(r, f, "raise --heap-size");
    g_free(f);
    e2e_free(r);
    r = RUN("run", "-n", "2", P("heap_null.c"));
    EXPECT_CLEAN(r);
    char *got = e2e_sorted_lines(r->out);
    EXPECT(r, strcmp(got, "rank 0: done\nrank 1: done\n") == 0);
    g_free(got);
    e2e_free(r);
    /* A crash with nothing refused before has no such note. */
    r = RUN("run", "-n", "4", P("segv.c"));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_LACKS(r, "heap limit");
    e2e_free(r);
}

static void test_nomain(void) {
    e2e_result *r = RUN("run", "-n", "2", P("nomain.c"));
    EXPECT_ONE_LINE_ERROR(r, "no main function");
    EXPECT_ERR_HAS(r, "nomain");
    e2e_free(r);
}

/* A program that calls an MPI function ordex does not implement loads and
 * runs; the call stops the run, in every command that runs it, with a
 * finding that names the function and the caller's line: exit status 2 and
 * the JSON verdict "unsupported" (the program was refused before it ran,
 * with nothing on stdout). */
static void test_unsupported(void) {
    const char *src = "tests/programs/unsupported_port.c";
    int open = e2e_marker_line(src, "/* OPEN_PORT */");
    CU_ASSERT_FATAL(open > 0);
    char *at = g_strdup_printf("unsupported_port.c:%d", open);
    char *where = g_strdup_printf("\n  at %s\n", at);
    const char *cmds[] = {"run", "explore", "predict"};
    for (int c = 0; c < 3; c++) {
        const char *json = e2e_tmp("unsupported.json");
        g_unlink(json);
        bool explore = strcmp(cmds[c], "explore") == 0;
        e2e_result *r = explore
                            ? RUN(cmds[c], "--json", json, "--trace-dir",
                                  e2e_tmp("unsupported_traces"), "-n", "2", P("unsupported_port.c"))
                            : RUN(cmds[c], "--json", json, "-n", "2", P("unsupported_port.c"));
        EXPECT_STATUS(r, 2);
        if (!explore) { /* explore keeps the program's output to itself */
            EXPECT_OUT_HAS(r, "rank 0: starting\n");
            EXPECT_OUT_HAS(r, "rank 1: starting\n");
        }
        EXPECT_OUT_LACKS(r, "connected");
        /* Which rank calls first depends on the command's order (predict
         * follows simulated time). */
        EXPECT_ERR_HAS(r, " called MPI_Open_port, which ordex does not implement\n");
        EXPECT_ERR_HAS(r, "UNSUPPORTED rank ");
        EXPECT_ERR_HAS(r, where);
        EXPECT_ERR_LACKS(r, "MPI_Comm_accept");
        JsonObject *doc = EXPECT_JSON_FILE(r, json);
        EXPECT(r, e2e_json_str_is(doc, "verdict", "unsupported"));
        EXPECT(r, e2e_json_len(doc, "findings") == 1);
        EXPECT(r, e2e_json_str_is(doc, "findings[0].kind", "unsupported"));
        EXPECT(r, e2e_json_str_is(doc, "findings[0].location", at));
        EXPECT(r,
               e2e_json_str_is(doc, "findings[0].message",
                               "rank 0 called MPI_Open_port, which ordex does not implement") ||
                   e2e_json_str_is(doc, "findings[0].message",
                                   "rank 1 called MPI_Open_port, which ordex does not implement"));
        e2e_json_free(doc);
        e2e_free(r);
    }
    g_free(where);
    g_free(at);
}

/* A program that references an MPI function ordex does not implement only
 * on a path it does not take runs to its end (it was refused). */
static void test_unsupported_untaken(void) {
    const char *cmds[] = {"run", "explore", "predict"};
    for (int c = 0; c < 3; c++) {
        e2e_result *r = RUN(cmds[c], "-n", "2", P("unsupported_untaken.c"));
        EXPECT_STATUS(r, 0);
        if (strcmp(cmds[c], "explore") != 0) /* explore keeps the output to itself */
            EXPECT_OUT_HAS(r, "rank 1: got 42\n");
        EXPECT_ERR_LACKS(r, "MPI_Open_port");
        e2e_free(r);
    }
}

/* Explore reports the call of an unimplemented function for the ordering
 * that reaches it, with that ordering and a trace whose replay stops at the
 * same call; run, which takes the other ordering, ends well. */
static void test_unsupported_ordering(void) {
    const char *src = "tests/programs/unsupported_race.c";
    int open = e2e_marker_line(src, "/* OPEN_PORT */");
    CU_ASSERT_FATAL(open > 0);
    char *where = g_strdup_printf("\n  at unsupported_race.c:%d\n", open);
    const char *dir = e2e_tmp("unsupported_race_traces");
    e2e_result *r = RUN("explore", "--trace-dir", dir, "-n", "3", P("unsupported_race.c"));
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "UNSUPPORTED rank 0 called MPI_Open_port, which ordex does not implement");
    EXPECT_ERR_HAS(r, where);
    EXPECT_ERR_HAS(r, "1. rank 0 receives from rank 2 (tag 0)");
    EXPECT_ERR_HAS(r, "ordex explore: the program needs what ordex does not support");
    e2e_free(r);
    char *trace = g_build_filename(dir, "unsupported_race-1.trace", NULL);
    r = RUN("replay", trace);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "UNSUPPORTED rank 0 called MPI_Open_port, which ordex does not implement");
    EXPECT_ERR_HAS(r, where);
    EXPECT_OUT_LACKS(r, "rank 0: first");
    e2e_free(r);
    r = RUN("run", "-n", "3", P("unsupported_race.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0: first 1\n");
    e2e_free(r);
    g_free(trace);
    g_free(where);
}

/* name of the program (without .c), number of ranks, expected output file */
static const struct {
    const char *prog, *n, *expected;
} outputs[] = {
    {"wildcard", "4", "wildcard.n4"},
    {"persistent", "4", "persistent.n4"},
    {"probe", "4", "probe.n4"},
    {"sendrecv_replace", "4", "sendrecv_replace.n4"},
    {"sendrecv_replace", "1", "sendrecv_replace.n1"},
    {"bsend", "4", "bsend.n4"},
    {"ssend", "4", "ssend.n4"},
    {"ssend", "3", "ssend.n3"},
    {"waitany", "4", "waitany.n4"},
    {"collectives", "4", "collectives.n4"},
    {"collectives", "3", "collectives.n3"},
    {"collectives", "1", "collectives.n1"},
    {"datatypes", "2", "datatypes.n2"},
    {"cart", "4", "cart.n4"},
    {"mprobe", "4", "mprobe.n4"},
    {"comm_split", "4", "comm_split.n4"},
    {"comm_split", "3", "comm_split.n3"},
    {"comm_create_disjoint", "4", "comm_create_disjoint.n4"},
    {"comm_create_disjoint", "5", "comm_create_disjoint.n5"},
    {"comm_create_disjoint", "1", "comm_create_disjoint.n1"},
    {"attrs", "3", "attrs.n3"},
    {"attrs", "1", "attrs.n1"},
    {"errhandlers", "2", "errhandlers.n2"},
    {"info", "2", "info.n2"},
    {"typearrays", "4", "typearrays.n4"},
    {"comm_more", "4", "comm_more.n4"},
    {"intercomm", "4", "intercomm.n4"},
    {"intercoll", "3", "intercoll.n3"},
    {"intercoll", "4", "intercoll.n4"},
    {"grequest", "2", "grequest.n2"},
    {"topo_graph", "4", "topo_graph.n4"},
    {"fixed_match", "3", "fixed_match.n3"},
};

static void run_output(const char *prog, const char *mode) {
    for (size_t i = 0; i < G_N_ELEMENTS(outputs); i++) {
        if (strcmp(outputs[i].prog, prog) != 0)
            continue;
        char *rel = g_strdup_printf("tests/programs/%s.c", prog);
        e2e_result *r = mode ? RUN("run", "--send-mode", mode, "-n", outputs[i].n, e2e_src(rel))
                             : RUN("run", "-n", outputs[i].n, e2e_src(rel));
        EXPECT_CLEAN(r);
        EXPECT(r, r->out[0] != '\0');
        e2e_expect_mpich_output(r, outputs[i].expected, NULL, __FILE__, __LINE__);
        e2e_free(r);
        g_free(rel);
    }
}

static void test_wildcard(void) {
    run_output("wildcard", NULL);
}
static void test_persistent(void) {
    run_output("persistent", NULL);
}
static void test_probe(void) {
    run_output("probe", NULL);
}
static void test_sendrecv_replace(void) {
    run_output("sendrecv_replace", NULL);
}
static void test_bsend(void) {
    run_output("bsend", NULL);
    run_output("bsend", "rendezvous"); /* MPI_Bsend is buffered in every mode */
}
/* Matches completed at once by `ordex run` (a named source, the message
 * queued or the receive posted and waited on alone) follow MPI's rules next
 * to receives posted earlier, in every send mode. */
static void test_fixed_match(void) {
    run_output("fixed_match", NULL);
    run_output("fixed_match", "eager");
    run_output("fixed_match", "rendezvous");
}
static void test_ssend(void) {
    run_output("ssend", NULL);
    run_output("ssend", "eager");
}
static void test_waitany(void) {
    run_output("waitany", NULL);
}
static void test_collectives(void) {
    run_output("collectives", NULL);
    run_output("collectives", "rendezvous");
}
static void test_datatypes(void) {
    run_output("datatypes", NULL);
}
static void test_cart(void) {
    run_output("cart", NULL);
}
static void test_mprobe(void) {
    run_output("mprobe", NULL);
}
static void test_comm_split(void) {
    run_output("comm_split", NULL);
}
static void test_comm_create_disjoint(void) {
    run_output("comm_create_disjoint", NULL);
}

static void test_attrs(void) {
    run_output("attrs", NULL);
}
static void test_errhandlers(void) {
    run_output("errhandlers", NULL);
}
static void test_info(void) {
    run_output("info", NULL);
}
static void test_typearrays(void) {
    run_output("typearrays", NULL);
}
static void test_comm_more(void) {
    run_output("comm_more", NULL);
}

/* Usage errors of attributes, error handlers and info objects: the case
 * (argv[1] of api_errors.c), its marker and what the finding says. */
static const struct {
    const char *arg, *marker, *text;
} api_errors[] = {
    {"freedkey", "/* [FREEDKEY] */", "MPI_Comm_set_attr: keyval 0xa4000000 was freed"},
    {"wrongkind", "/* [WRONGKIND] */",
     "MPI_Comm_set_attr: keyval 0xa4000000 was made by MPI_Type_create_keyval, for datatypes; a "
     "communicator needs one of MPI_Comm_create_keyval"},
    {"predefined", "/* [PREDEFINED] */", "keyval 0x64400001 is predefined"},
    {"winkey", "/* [WINKEY] */",
     "keyval 0x66000001 is predefined for windows, not for communicators"},
    {"baddelete", "/* [BADDELETE] */",
     "MPI_Comm_free: the delete callback of keyval 0xa4000000 returned error code 15"},
    {"badcopy", "/* [BADCOPY] */",
     "MPI_Comm_dup: the copy callback of keyval 0xa4000000 returned error code 15"},
    {"ehkind", "/* [EHKIND] */",
     "MPI_Comm_set_errhandler: error handler 0x94000000 was made for windows"},
    {"ehfreed", "/* [EHFREED] */", "error handler 0x94000000 was freed (MPI_Errhandler_free)"},
    {"fatalcall", "/* [FATALCALL] */",
     "rank 1: MPI_Comm_call_errhandler: the program raised MPI_ERR_TAG (Invalid tag argument) on "
     "MPI_COMM_WORLD, whose error handler is fatal"},
    {"errstring", "/* [ERRSTRING] */", "the strings of predefined codes are fixed"},
    {"emptykey", "/* [EMPTYKEY] */", "MPI_Info_set: key is the empty string"},
    {"nokey", "/* [NOKEY] */", "MPI_Info_delete: key \"b\" is not set in info 0x9c000000"},
    {"infofreed", "/* [INFOFREED] */", "MPI_Info_get_nkeys: info 0x9c000000 was freed"},
    {"infoenv", "/* [INFOENV] */", "MPI_INFO_ENV is predefined and cannot be freed"},
    {"nthkey", "/* [NTHKEY] */", "n = 1 is out of range (the info has 1 key)"},
    {"badinfo", "/* [BADINFO] */", "MPI_Comm_dup_with_info: info 0x00012345 is not an info handle"},
    {"outsidegroup", "/* [OUTSIDEGROUP] */",
     "MPI_Comm_create_group: the group is not a subgroup of comm"},
    {"datarep", "/* [DATAREP] */", "MPI_Pack_external: datarep \"native\" is not \"external32\""},
    {"conversion", "/* [CONVERSION] */",
     "MPI_Pack_external: basic element 0 (MPI_LONG) has a value that external32 cannot "
     "represent in its 4 bytes"},
    {"subarray", "/* [SUBARRAY] */",
     "MPI_Type_create_subarray: array_of_starts[0] = 2 puts the subarray (3 long) outside the "
     "array's 4 elements"},
    {"darray", "/* [DARRAY] */",
     "MPI_Type_create_darray: array_of_dargs[0] = 2: blocks of 2 on 2 processes do not cover the "
     "10 elements"},
    {"setelements", "/* [SETELEMENTS] */", "MPI_Status_set_elements: count -1 is negative"},
    {"notopo", "/* [NOTOPO] */",
     "MPI_Neighbor_allgather: MPI_COMM_WORLD has no topology (Cartesian, graph or distributed "
     "graph)"},
    {"asymmetric", "/* [ASYMMETRIC] */",
     "rank 0: MPI_Neighbor_allgather: rank 0 has rank 1 among its neighbours, but rank 1 does not "
     "have rank 0 among its"},
    {"adjacent", "/* [ADJACENT] */",
     "rank 1: MPI_Dist_graph_create_adjacent: comm rank 0 lists 1 as a destination 1 time(s) "
     "more than comm rank 1 lists 0 as a source"},
    {"halfweights", "/* [HALFWEIGHTS] */",
     "MPI_Dist_graph_create_adjacent: destweights is MPI_UNWEIGHTED but sourceweights is not"},
};

static void test_api_errors(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(api_errors); i++) {
        e2e_result *r = RUN("run", "-n", "2", P("api_errors.c"), api_errors[i].arg);
        EXPECT_STATUS(r, 1);
        g_free(EXPECT_FINDING(r, 1, "mpi_error", api_errors[i].text, SRC("api_errors.c"),
                              api_errors[i].marker));
        e2e_free(r);
    }
    /* Under MPI_ERRORS_RETURN the callback's code comes back, and the
     * communicator stays. */
    e2e_result *r = RUN("run", "-n", "2", "--leaks=warn", P("api_errors.c"), "returncode");
    EXPECT_STATUS(r, 0);
    /* ... and so it is never freed: a leak (a warning with --leaks=warn, an
     * error by default), and no other finding. */
    EXPECT_ERR_HAS(r, "WARNING [leak] 2 communicators made by MPI_Comm_dup were never freed");
    EXPECT_ERR_LACKS(r, "ERROR [");
    EXPECT_OUT_HAS(r, "rank 1: MPI_Comm_free returned MPI_ERR_OTHER 1, comm of size 2\n");
    e2e_free(r);
}

static void test_intercomm(void) {
    run_output("intercomm", NULL);
}
static void test_topo_graph(void) {
    run_output("topo_graph", NULL);
}

static void test_intercomm_errors(void) {
    const char *src = SRC("intercomm_errors.c");
    e2e_result *r = RUN("run", "-n", "4", P("intercomm_errors.c"), "samecomm");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "MPI_Intercomm_create: local_leader = 1 at rank 1 of MPI_COMM_WORLD "
                          "differs from 0 at its rank 0",
                          src, "/* [SAMECOMM] */"));
    e2e_free(r);
    r = RUN("run", "-n", "4", P("intercomm_errors.c"), "notinter");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "MPI_Comm_remote_size: MPI_COMM_WORLD is not an intercommunicator", src,
                          "/* [NOTINTER] */"));
    e2e_free(r);
    r = RUN("run", "-n", "4", P("intercomm_errors.c"), "remoterank");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "MPI_Send: dest 2 is not a rank of the remote group of", src,
                          "/* [REMOTERANK] */"));
    e2e_free(r);
    r = RUN("run", "-n", "4", P("intercomm_errors.c"), "tags");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "4 ranks blocked", src, "/* [TAGS] */");
    EXPECT_BLOCK_HAS(r, f, "rank 0: MPI_Intercomm_create(");
    EXPECT_BLOCK_HAS(r, f, "remote_leader=1 tag=0)");
    EXPECT_BLOCK_HAS(r, f, "remote_leader=0 tag=1)");
    g_free(f);
    e2e_free(r);
    r = RUN("run", "-n", "4", P("intercomm_errors.c"), "collective");
    EXPECT_CLEAN(r);
    e2e_free(r);
}

/* Every collective on an intercommunicator, split, create and idup of one:
 * MPICH's output under run (uneven and even groups), explore and predict. */
static void test_intercoll(void) {
    run_output("intercoll", NULL);
    e2e_result *r =
        RUN("explore", "--trace-dir", e2e_tmp("intercoll_traces"), "-n", "3", P("intercoll.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, strstr(r->err, "ordex: ERROR") == NULL);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
    r = RUN("predict", "--no-timeline", "-n", "4", P("intercoll.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "predicted time");
    e2e_expect_mpich_output(r, "intercoll.n4", NULL, __FILE__, __LINE__);
    e2e_free(r);
    /* Six ranks: groups of 2 and 4 reduce 6 and 4 elements in
     * Reduce_scatter_block (MPICH: "Message truncated"); the report uses the
     * name the program gave the intercommunicator. */
    r = RUN("run", "-n", "6", P("intercoll.c"));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "MPI_Reduce_scatter_block on comm 9 \"A-B\" (intercomm: the group of comm "
                      "8, to comm 10): world rank 5 (rank 0 of its group) contributes 4 x MPI_INT "
                      "but world rank 3 (rank 0 of its group) contributes 6 x MPI_INT");
    e2e_free(r);
}

/* One intercoll_errors.c case under `run` (and, when explore_too, under
 * `explore`): exit status 1 and the one finding of kind with text at the
 * marker. */
static void intercoll_error(const char *mode, const char *kind, const char *text,
                            const char *marker, bool explore_too) {
    const char *src = SRC("intercoll_errors.c");
    e2e_result *r = RUN("run", "-n", "4", P("intercoll_errors.c"), mode);
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, kind, text, src, marker));
    e2e_free(r);
    if (!explore_too)
        return;
    r = RUN("explore", "--trace-dir", e2e_tmp("intercoll_err_traces"), "-n", "4",
            P("intercoll_errors.c"), mode);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, text);
    e2e_free(r);
}

static void test_intercoll_errors(void) {
    intercoll_error("scan", "mpi_error",
                    "MPI_Scan: comm 7 (intercomm: the group of comm 6, to comm 8) is an "
                    "intercommunicator; MPI_Scan is defined on intracommunicators only",
                    "/* [SCAN] */", false);
    intercoll_error("noroot", "mpi_error",
                    "MPI_Bcast on comm 7 (intercomm: the group of comm 6, to comm 8): no member "
                    "passes root = MPI_ROOT; the group of world rank 1 names rank 0 of the other "
                    "group as the root, which passes MPI_PROC_NULL",
                    "/* [NOROOT] */", true);
    intercoll_error(
        "tworoots", "mpi_error",
        "world rank 0 (rank 0 of its group) and world rank 2 (rank 1 of its group) both "
        "pass MPI_ROOT",
        "/* [TWOROOTS] */", false);
    intercoll_error(
        "wrongroot", "mpi_error",
        "world rank 1 (rank 0 of its group) passes root = 1, but the root is world rank "
        "0 (rank 0 of its group): the other group passes the root's rank in its group, 0",
        "/* [WRONGROOT] */", true);
    intercoll_error("named", "mpi_error",
                    "MPI_Bcast on comm 7 \"pairs\" (intercomm:", "/* [WRONGROOT] */", false);
    intercoll_error("inplace", "mpi_error",
                    "MPI_Allreduce: MPI_IN_PLACE is not allowed as sendbuf on an intercommunicator",
                    "/* [INPLACE] */", false);
    intercoll_error("count", "mpi_error",
                    "world rank 0 (rank 0 of its group) receives 8 bytes (2 x MPI_INT) but world "
                    "rank 1 (rank 0 of its group) sends 4 bytes (1 x MPI_INT)",
                    "/* [COUNT] */", true);
    intercoll_error("kinds", "mpi_error",
                    "calls MPI_Bcast(root=MPI_ROOT) at intercoll_errors.c:", "/* [KINDS] */",
                    false);
    const char *src = SRC("intercoll_errors.c");
    e2e_result *r = RUN("run", "-n", "4", P("intercoll_errors.c"), "missing");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "2 ranks blocked", src, "/* [MISSING] */");
    EXPECT_BLOCK_HAS(r, f, "rank 0: MPI_Barrier(");
    EXPECT_BLOCK_HAS(r, f, "rank 2: MPI_Barrier(");
    g_free(f);
    e2e_free(r);
    /* A bystander's send buffer is not significant: writing it while its
     * MPI_Igather is pending is no race. */
    r = RUN("explore", "--trace-dir", e2e_tmp("intercoll_err_traces"), "-n", "4",
            P("intercoll_errors.c"), "bystander");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
    /* A replay of the failing ordering explore recorded finds the same. */
    const char *dir = e2e_tmp("intercoll_replay");
    e2e_free(RUN("explore", "--trace-dir", dir, "-n", "4", P("intercoll_errors.c"), "noroot"));
    char *t = g_build_filename(dir, "intercoll_errors-1.trace", NULL);
    r = RUN("replay", t);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "no member passes root = MPI_ROOT");
    e2e_free(r);
    g_free(t);
}

/* Generalized requests: callbacks at the times MPI 3.1 section 12.2 gives,
 * in every completion call, under run, explore and predict; the misuses. */
static void test_grequest(void) {
    run_output("grequest", NULL);
    e2e_result *r =
        RUN("explore", "--trace-dir", e2e_tmp("grequest_traces"), "-n", "2", P("grequest.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
    r = RUN("predict", "--no-timeline", "-n", "2", P("grequest.c"));
    EXPECT_STATUS(r, 0);
    e2e_expect_mpich_output(r, "grequest.n2", NULL, __FILE__, __LINE__);
    e2e_free(r);
    /* Freed before completion: free_fn at MPI_Grequest_complete. */
    r = RUN("run", "-n", "2", P("grequest.c"), "freepending");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: free pending: [freed free] count -1 cancelled -1\n");
    e2e_free(r);
    const char *src = SRC("grequest.c");
    for (int explore = 0; explore < 2; explore++) {
        r = explore ? RUN("explore", "--trace-dir", e2e_tmp("grequest_traces"), "-n", "2",
                          P("grequest.c"), "never")
                    : RUN("run", "-n", "2", P("grequest.c"), "never");
        EXPECT_STATUS(r, 1);
        EXPECT_ERR_HAS(r, "ERROR [deadlock]");
        EXPECT_ERR_HAS(r, "rank 0: MPI_Wait(MPI_Grequest_start at grequest.c:");
        e2e_free(r);
    }
    r = RUN("run", "-n", "2", P("grequest.c"), "twice");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "MPI_Grequest_complete: the generalized request 0xac000000 made at "
                          "grequest.c:",
                          src, "/* [TWICE] */"));
    e2e_free(r);
    r = RUN("run", "-n", "2", P("grequest.c"), "queryerr");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "MPI_Wait: the query_fn of the generalized request returned error code",
                          src, "/* [QUERYERR] */"));
    e2e_free(r);
}

static void e2e_add_program_tests(CU_pSuite s) {
    CU_add_test(s, "unsupported MPI function: the call stops the run, named with where, JSON",
                test_unsupported);
    CU_add_test(s, "unsupported MPI function on a path not taken: the program ends well",
                test_unsupported_untaken);
    CU_add_test(s, "unsupported MPI function: the ordering that calls it, replayed",
                test_unsupported_ordering);
    CU_add_test(s, "segv.c: SIGSEGV in rank 1", test_segv);
    CU_add_test(s, "assert_fail.c: failed assert in rank 2", test_assert_fail);
    CU_add_test(s, "fpe.c: division by zero in rank 0", test_fpe);
    CU_add_test(s, "stack_overflow.c: rank 1 overflows its stack", test_stack_overflow);
    CU_add_test(s, "exit_code.c: rank 2 exits with status 3", test_exit_code);
    CU_add_test(s, "no_finalize.c: rank 1 skips MPI_Finalize", test_no_finalize);
    CU_add_test(s, "mpi_abort.c: MPI_Abort(7) in rank 0", test_mpi_abort);
    CU_add_test(s, "livelock.c: --step-timeout 1", test_livelock);
    CU_add_test(s, "bad_rank.c: MPI_Send to rank 99", test_bad_rank);
    CU_add_test(s, "bad_tag.c: negative tag", test_bad_tag);
    CU_add_test(s, "bad_count.c: negative count", test_bad_count);
    CU_add_test(s, "bad_type.c: uncommitted datatype", test_bad_type);
    CU_add_test(s, "truncate.c: MPI_ERR_TRUNCATE", test_truncate);
    CU_add_test(s, "type_mismatch.c: MPI_INT vs MPI_DOUBLE", test_type_mismatch);
    CU_add_test(s, "poll_bounded.c: polling that gives up is no deadlock", test_poll_bounded);
    CU_add_test(s, "thread_multiple.c: a thread level ordex lacks is unsupported, not an error",
                test_thread_level_unsupported);
    CU_add_test(s, "poll_forever.c: polling for what never comes is a livelock", test_poll_forever);
    CU_add_test(s, "struct_array_mismatch.c: element 4997 of 1000 structs",
                test_struct_array_mismatch);
    CU_add_test(s, "lost_message.c: message never received", test_lost_message);
    CU_add_test(s, "pending_request.c: Irecv never completed", test_pending_request);
    CU_add_test(s, "ssend_cycle.c: Ssend deadlock in every send mode", test_ssend_cycle);
    CU_add_test(s, "errors_return.c: MPI_ERRORS_RETURN", test_errors_return);
    CU_add_test(s, "globals.c: globals are per rank", test_globals);
    CU_add_test(s, "userlib.c: globals of the user's own library are per rank", test_userlib);
    CU_add_test(s, "userlib_deadlock.c: a finding in the user's library names its line",
                test_userlib_deadlock);
    CU_add_test(s, "heap.c: per-rank heap, deterministic", test_heap);
    CU_add_test(s, "heap_null.c: a crash after the heap limit says so", test_heap_null);
    CU_add_test(s, "nomain.c: refused", test_nomain);
    CU_add_test(s, "wildcard.c", test_wildcard);
    CU_add_test(s, "persistent.c", test_persistent);
    CU_add_test(s, "probe.c", test_probe);
    CU_add_test(s, "sendrecv_replace.c", test_sendrecv_replace);
    CU_add_test(s, "bsend.c", test_bsend);
    CU_add_test(s, "fixed_match.c: matches MPI fixes, completed at once", test_fixed_match);
    CU_add_test(s, "ssend.c", test_ssend);
    CU_add_test(s, "waitany.c", test_waitany);
    CU_add_test(s, "collectives.c", test_collectives);
    CU_add_test(s, "datatypes.c", test_datatypes);
    CU_add_test(s, "cart.c", test_cart);
    CU_add_test(s, "mprobe.c", test_mprobe);
    CU_add_test(s, "comm_split.c", test_comm_split);
    CU_add_test(s, "comm_create_disjoint.c: MPI_Comm_create with disjoint groups",
                test_comm_create_disjoint);
    CU_add_test(s, "comm_create_overlap.c: MPI_Comm_create with overlapping groups",
                test_comm_create_overlap);
    CU_add_test(s, "attrs.c: keyvals, attributes, callbacks, predefined attributes", test_attrs);
    CU_add_test(s, "errhandlers.c: user error handlers, added codes and strings", test_errhandlers);
    CU_add_test(s, "info.c: info objects, communicator and window hints", test_info);
    CU_add_test(s, "typearrays.c: subarray, darray, external32, status setters", test_typearrays);
    CU_add_test(s, "comm_more.c: MPI_Comm_idup, _idup_with_info, _create_group", test_comm_more);
    CU_add_test(s, "intercomm.c: intercommunicators, point-to-point, dup, merge", test_intercomm);
    CU_add_test(s, "intercomm_errors.c: misuses and collectives on intercommunicators",
                test_intercomm_errors);
    CU_add_test(s, "intercoll.c: every collective on intercommunicators, split, create, idup",
                test_intercoll);
    CU_add_test(s, "intercoll_errors.c: roots, kinds, counts, MPI_IN_PLACE, Scan, deadlock",
                test_intercoll_errors);
    CU_add_test(s, "grequest.c: generalized requests, status setters, Reduce_local, names",
                test_grequest);
    CU_add_test(s, "topo_graph.c: graph topologies, neighbourhood collectives", test_topo_graph);
    CU_add_test(s, "api_errors.c: usage errors of attributes, handlers, info, types",
                test_api_errors);
}

E2E_MAIN("programs", e2e_add_program_tests)
