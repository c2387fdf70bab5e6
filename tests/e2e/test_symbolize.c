/*
 * test_symbolize.c - reports name the program's functions and source lines
 * exactly: a crash's backtrace (function and line of every frame, in a rank
 * other than 0, whose copy of the program lies elsewhere), the lines of an
 * explored ordering, source paths with unusual characters, programs without
 * debug information, rank code with a tiny stack, and all of it without
 * starting any other program (no addr2line).
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define P(name) e2e_src("tests/programs/" name)
#define SRC(name) ("tests/programs/" name)
#define BT SRC("backtrace.c")

/* The backtrace of backtrace.c's crash, compiled from the source at path. */
static char *expected_frames(const char *path) {
    char *abs = g_canonicalize_filename(path, NULL);
    char *s = g_strdup_printf("  backtrace:\n"
                              "    #0 inner (%s:%d)\n"
                              "    #1 outer (%s:%d)\n"
                              "    #2 main (%s:%d)\n",
                              abs, e2e_marker_line(BT, "/* FAULT */"), abs,
                              e2e_marker_line(BT, "/* CALL_INNER */"), abs,
                              e2e_marker_line(BT, "/* CALL_OUTER */"));
    g_free(abs);
    return s;
}

/* r reports backtrace.c's crash, with the frames of the source at path. */
static void expect_crash(e2e_result *r, const char *path) {
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "crash", "rank 2 crashed: SIGSEGV", BT, "/* FAULT */");
    char *frames = expected_frames(path);
    EXPECT_BLOCK_HAS(r, f, frames);
    g_free(frames);
    g_free(f);
}

static void test_backtrace(void) {
    e2e_result *r = RUN("run", "-n", "3", P("backtrace.c"));
    expect_crash(r, P("backtrace.c"));
    e2e_free(r);
    /* Optimised code: the same functions and lines (nothing is inlined). */
    const char *so = e2e_tmp("backtrace-O2.so");
    e2e_result *c = RUN("cc", "-O2", "-o", so, P("backtrace.c"));
    EXPECT_STATUS(c, 0);
    e2e_free(c);
    r = RUN("run", "-n", "3", so);
    expect_crash(r, P("backtrace.c"));
    e2e_free(r);
}

/* The explored ordering that crashes names the send and receive lines,
 * which the report reads from the program file (trace.c). */
static void test_ordering_lines(void) {
    e2e_result *r = RUN("explore", "-n", "3", P("backtrace.c"));
    EXPECT_STATUS(r, 1);
    char *step =
        g_strdup_printf("rank 2 receives from rank 1 (tag 0): sent at backtrace.c:%d, "
                        "received at backtrace.c:%d",
                        e2e_marker_line(BT, "/* SEND */"), e2e_marker_line(BT, "/* RECV */"));
    EXPECT_ERR_HAS(r, step); /* explore's report, on stderr */
    char *frames = expected_frames(P("backtrace.c"));
    EXPECT_ERR_HAS(r, frames);
    g_free(frames);
    g_free(step);
    e2e_free(r);
}

/* Spaces, parentheses, a colon and a non-ASCII letter in the source's path:
 * the frames name it as it is, the location by its base name. */
static void test_unusual_path(void) {
    const char *dir = e2e_tmp("a dir (with) spaces/sub:\xc3\xa9");
    g_mkdir_with_parents(dir, 0755);
    char *src = g_build_filename(dir, "backtrace.c", NULL);
    const char *text = e2e_read_src(BT);
    CU_ASSERT_FATAL(text != NULL);
    CU_ASSERT_FATAL(g_file_set_contents(src, text, -1, NULL));
    e2e_result *r = RUN("run", "-n", "3", src);
    expect_crash(r, src);
    e2e_free(r);
    g_free(src);
}

/* Whether text names a line of backtrace.c ("backtrace.c:" and a digit). */
static bool names_a_line(const char *text) {
    for (const char *p = text; (p = strstr(p, "backtrace.c:")); p++)
        if (g_ascii_isdigit(p[strlen("backtrace.c:")]))
            return true;
    return false;
}

/* Built without debug information: the functions by name from the symbol
 * table, main (global) as an offset into the program, and no line. */
static void test_no_debug_info(void) {
    const char *so = e2e_tmp("backtrace-g0.so");
    e2e_result *c = RUN("cc", "-g0", "-o", so, P("backtrace.c"));
    EXPECT_STATUS(c, 0);
    e2e_free(c);
    e2e_result *r = RUN("run", "-n", "3", so);
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "crash", "rank 2 crashed: SIGSEGV", NULL, NULL);
    EXPECT_BLOCK_HAS(r, f, "    #0 inner (");
    EXPECT_BLOCK_HAS(r, f, "    #1 outer (");
    char *main_frame = g_strdup_printf("    #2 main (%s+0x", so);
    EXPECT_BLOCK_HAS(r, f, main_frame);
    EXPECT(r, f && !names_a_line(f));
    g_free(main_frame);
    g_free(f);
    e2e_free(r);
}

/* Symbolisation runs inside ordex: with a PATH whose only addr2line gives
 * wrong answers and leaves a trace, the report is right and the trace is
 * not there. */
static void test_no_addr2line(void) {
    const char *bin = e2e_tmp("fake-bin");
    const char *ran = e2e_tmp("fake-addr2line-ran");
    g_mkdir_with_parents(bin, 0755);
    char *tool = g_build_filename(bin, "addr2line", NULL);
    char *script =
        g_strdup_printf("#!/bin/sh\n: > '%s'\nprintf 'wrong\\n/wrong/wrong.c:999\\n'\n", ran);
    CU_ASSERT_FATAL(g_file_set_contents(tool, script, -1, NULL));
    CU_ASSERT_FATAL(g_chmod(tool, 0755) == 0);
    g_unlink(ran);
    const char *so = e2e_tmp("backtrace.so");
    e2e_result *c = RUN("cc", "-o", so, P("backtrace.c"));
    EXPECT_STATUS(c, 0);
    e2e_free(c);
    char *path = g_strdup_printf("PATH=%s", bin);
    const char *argv[] = {"env", path, e2e_ordex(), "run", "-n", "3", so, NULL};
    e2e_result *r = e2e_exec(argv);
    expect_crash(r, P("backtrace.c"));
    EXPECT(r, !strstr(r->err, "wrong.c"));
    EXPECT(r, !g_file_test(ran, G_FILE_TEST_EXISTS));
    e2e_free(r);
    g_free(path);
    g_free(script);
    g_free(tool);
}

/* An MPI usage error is located from inside the MPI call, on the rank's
 * stack; the smallest stack allowed must do, with fibers and threads. */
static void test_small_stack(void) {
    for (int threads = 0; threads < 2; threads++) {
        e2e_result *r =
            threads ? RUN("run", "--threads", "-n", "2", "--stack-size", "16KiB", P("bad_count.c"))
                    : RUN("run", "-n", "2", "--stack-size", "16KiB", P("bad_count.c"));
        EXPECT_STATUS(r, 1);
        g_free(EXPECT_FINDING(r, 1, "mpi_error", "rank 1: MPI_Send: count -1 is negative",
                              SRC("bad_count.c"), "/* FAULT */"));
        e2e_free(r);
    }
}

void e2e_add_symbolize_tests(CU_pSuite s) {
    CU_add_test(s, "backtrace: functions and lines of every frame", test_backtrace);
    CU_add_test(s, "explore: the ordering's send and receive lines", test_ordering_lines);
    CU_add_test(s, "a source path with spaces, parentheses, colon, UTF-8", test_unusual_path);
    CU_add_test(s, "a program built without debug information", test_no_debug_info);
    CU_add_test(s, "no addr2line is run", test_no_addr2line);
    CU_add_test(s, "located from rank code with a 16 KiB stack", test_small_stack);
}

E2E_MAIN("symbolisation", e2e_add_symbolize_tests)
