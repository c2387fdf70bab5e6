/*
 * test_trace.c - trace files: writing, reading back, rejecting bad ones.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "simulator/sim.h"
#include "stategraph/rundesc.h"
#include "stategraph/trace.h"

static char *g_dir;

static char *path_of(const char *name) {
    return g_build_filename(g_dir, name, NULL);
}

static GArray *sample_steps(void) {
    GArray *a = g_array_new(FALSE, TRUE, sizeof(sg_step));
    sg_step s1 = {SIM_EV_DELIVER, 1, 0, 6, 0, 0, 0, NULL, 0, 1};
    sg_step s2 = {SIM_EV_DELIVER, 0, 2, 7, 0, 0, 0, NULL, 1, 2};
    sg_step s3 = {SG_STEP_CHOICE, 0, -1, -1, -1, 0, 0, "MPI_Waitany", 2, 3};
    sg_step s4 = {SIM_EV_COLLECTIVE, 0, -1, -1, 3, 0, 0, "MPI_Bcast", 0, 1};
    g_array_append_val(a, s1);
    g_array_append_val(a, s2);
    g_array_append_val(a, s3);
    g_array_append_val(a, s4);
    return a;
}

static char *write_sample(const char *name) {
    char *p = path_of(name);
    char *so = path_of("prog.so");
    g_file_set_contents(so, "not really a program", -1, NULL);
    char *args[] = {"/src/prog.c", "64", "two words", NULL};
    sg_rundesc run;
    sg_rundesc_init(&run);
    run.nranks = 4;
    run.argc = 3;
    run.argv = args;
    run.send_mode = SIM_SEND_RENDEZVOUS;
    run.async_progress = true;
    run.test_later = true;
    run.heap_size = (size_t)1 << 20;
    run.stack_size = (size_t)64 << 10;
    run.step_timeout_s = 2.5;
    run.type_check = SIM_TYPE_CHECK_WARN;
    sg_trace_header h = {"/src/prog.c", so, &run};
    GArray *steps = sample_steps();
    CU_ASSERT(sg_trace_write(p, &h, "mpi_error", "prog.c:12", "rank 0: truncated", steps));
    g_array_free(steps, TRUE);
    g_free(so);
    return p;
}

static void test_round_trip(void) {
    char *p = write_sample("a.trace");
    sg_trace t;
    char *err = NULL;
    CU_ASSERT_FATAL(sg_trace_read(p, &t, &err));
    CU_ASSERT_STRING_EQUAL(t.program, "/src/prog.c");
    CU_ASSERT_EQUAL(t.nranks, 4);
    CU_ASSERT_STRING_EQUAL(t.send_mode, "rendezvous");
    CU_ASSERT_EQUAL(t.eager_limit, 65536);
    CU_ASSERT_TRUE(t.async_progress);
    CU_ASSERT_TRUE(t.test_later);
    CU_ASSERT_EQUAL(g_strv_length(t.args), 2);
    CU_ASSERT_STRING_EQUAL(t.args[1], "two words");
    CU_ASSERT_EQUAL(t.heap_size, (size_t)1 << 20);
    CU_ASSERT_EQUAL(t.stack_size, (size_t)64 << 10);
    CU_ASSERT_EQUAL(t.step_timeout_s, 2.5);
    sg_rundesc d;
    sg_trace_rundesc(&t, &d);
    CU_ASSERT_EQUAL(d.nranks, 4);
    CU_ASSERT_EQUAL(d.argc, 3);
    CU_ASSERT_STRING_EQUAL(d.argv[0], "/src/prog.c");
    CU_ASSERT_STRING_EQUAL(d.argv[2], "two words");
    CU_ASSERT_PTR_NULL(d.argv[3]);
    CU_ASSERT_EQUAL(d.send_mode, SIM_SEND_RENDEZVOUS);
    CU_ASSERT_EQUAL(d.heap_size, (size_t)1 << 20);
    CU_ASSERT_EQUAL(d.stack_size, (size_t)64 << 10);
    CU_ASSERT_EQUAL(d.step_timeout_s, 2.5);
    CU_ASSERT_TRUE(d.exploring);
    CU_ASSERT_TRUE(d.async_progress);
    CU_ASSERT_FALSE(d.early_collectives);
    CU_ASSERT_TRUE(d.test_later);
    CU_ASSERT_FALSE(d.no_buffer_checks);
    CU_ASSERT_EQUAL(d.type_check, SIM_TYPE_CHECK_WARN);
    g_free(d.argv);
    char *sha = path_of("prog.so");
    char *digest = sg_file_sha256(sha);
    CU_ASSERT_STRING_EQUAL(t.sha256, digest);
    g_free(digest);
    g_free(sha);
    CU_ASSERT_PTR_NOT_NULL(t.finding);
    CU_ASSERT_EQUAL_FATAL(t.steps->len, 4);
    sg_trace_step *s = &g_array_index(t.steps, sg_trace_step, 1);
    CU_ASSERT_EQUAL(s->kind, SIM_EV_DELIVER);
    CU_ASSERT_EQUAL(s->dst, 0);
    CU_ASSERT_EQUAL(s->src, 2);
    CU_ASSERT_EQUAL(s->tag, 7);
    CU_ASSERT_EQUAL(s->choice, 2);
    CU_ASSERT_EQUAL(s->nalts, 2);
    s = &g_array_index(t.steps, sg_trace_step, 2);
    CU_ASSERT_EQUAL(s->kind, SG_STEP_CHOICE);
    CU_ASSERT_STRING_EQUAL(s->call, "MPI_Waitany");
    CU_ASSERT_EQUAL(s->choice, 3);
    s = &g_array_index(t.steps, sg_trace_step, 3);
    CU_ASSERT_EQUAL(s->kind, SIM_EV_COLLECTIVE);
    CU_ASSERT_EQUAL(s->comm, 3);
    sg_trace_free(&t);
    g_free(p);
}

/* Makes a written trace one of format 2: no checksum line. */
static void as_version2(GString *s) {
    CU_ASSERT_EQUAL(g_string_replace(s, "ordex-trace 3\n", "ordex-trace 2\n", 1), 1);
    char *c = strstr(s->str, "\nchecksum ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    g_string_truncate(s, (gsize)(c - s->str) + 1);
}

/* Rewrites the sample (made a version 2 trace first when v2) with `from`
 * replaced by `to` and expects a rejection whose message contains `why`. */
static void expect_rejected_in(bool v2, const char *from, const char *to, const char *why) {
    char *p = write_sample("b.trace");
    char *text;
    g_file_get_contents(p, &text, NULL, NULL);
    GString *s = g_string_new(text);
    if (v2)
        as_version2(s);
    CU_ASSERT_EQUAL(g_string_replace(s, from, to, 1), 1);
    g_file_set_contents(p, s->str, -1, NULL);
    sg_trace t;
    char *err = NULL;
    CU_ASSERT_FALSE(sg_trace_read(p, &t, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    if (err) {
        CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, p)); /* names the file */
        if (!strstr(err, why))
            printf("\n%s -> %s: \"%s\" lacks \"%s\"\n", from, to, err, why);
    }
    g_free(err);
    g_string_free(s, TRUE);
    g_free(text);
    g_free(p);
}

static void expect_rejected(const char *from, const char *to, const char *why) {
    expect_rejected_in(false, from, to, why);
}

/* Traces made before MPI_Test/MPI_Iprobe could say "not yet" have no
 * test-later line: they replay without that choice. */
static void test_test_later_optional(void) {
    char *p = write_sample("c.trace");
    char *text;
    g_file_get_contents(p, &text, NULL, NULL);
    GString *s = g_string_new(text);
    as_version2(s);
    CU_ASSERT_EQUAL(g_string_replace(s, "test-later yes\n", "", 1), 1);
    g_file_set_contents(p, s->str, -1, NULL);
    sg_trace t;
    char *err = NULL;
    CU_ASSERT_FATAL(sg_trace_read(p, &t, &err));
    CU_ASSERT_FALSE(t.test_later);
    sg_trace_free(&t);
    g_string_free(s, TRUE);
    g_free(text);
    g_free(p);
}

/* Traces made before the buffer checks have no buffer-checks or type-check
 * line: they replay without the checks, as they were made. */
static void test_buffer_checks_optional(void) {
    char *p = write_sample("e.trace");
    char *text;
    g_file_get_contents(p, &text, NULL, NULL);
    GString *s = g_string_new(text);
    as_version2(s);
    CU_ASSERT_EQUAL(g_string_replace(s, "buffer-checks on\n", "", 1), 1);
    CU_ASSERT_EQUAL(g_string_replace(s, "type-check warn\n", "", 1), 1);
    g_file_set_contents(p, s->str, -1, NULL);
    sg_trace t;
    char *err = NULL;
    CU_ASSERT_FATAL(sg_trace_read(p, &t, &err));
    sg_rundesc d;
    sg_trace_rundesc(&t, &d);
    CU_ASSERT_TRUE(d.no_buffer_checks);
    CU_ASSERT_EQUAL(d.type_check, SIM_TYPE_CHECK_OFF);
    g_free(d.argv);
    sg_trace_free(&t);
    g_string_free(s, TRUE);
    g_free(text);
    g_free(p);
}

/* Version 1 traces have no sizes or step timeout: the defaults of the time
 * (8MiB stack, 1GiB heap, 10 s), which were then the only ones recorded. */
static void test_version1(void) {
    char *p = write_sample("d.trace");
    char *text;
    g_file_get_contents(p, &text, NULL, NULL);
    GString *s = g_string_new(text);
    as_version2(s);
    CU_ASSERT_EQUAL(g_string_replace(s, "ordex-trace 2\n", "ordex-trace 1\n", 1), 1);
    CU_ASSERT_EQUAL(g_string_replace(s, "stack-size 65536\n", "", 1), 1);
    CU_ASSERT_EQUAL(g_string_replace(s, "heap-size 1048576\n", "", 1), 1);
    CU_ASSERT_EQUAL(g_string_replace(s, "step-timeout 2.5\n", "", 1), 1);
    g_file_set_contents(p, s->str, -1, NULL);
    sg_trace t;
    char *err = NULL;
    CU_ASSERT_FATAL(sg_trace_read(p, &t, &err));
    CU_ASSERT_EQUAL(t.stack_size, (size_t)8 << 20);
    CU_ASSERT_EQUAL(t.heap_size, (size_t)1 << 30);
    CU_ASSERT_EQUAL(t.step_timeout_s, 10.0);
    sg_trace_free(&t);
    g_string_free(s, TRUE);
    g_free(text);
    g_free(p);
}

/* How a "not yet" choice reads in a report. */
static void test_not_yet_text(void) {
    sg_step later = {SG_STEP_CHOICE, 2, -1, -1, -1, 0, 0, "MPI_Iprobe:now-or-later", 1, 2};
    char *t = sg_step_text(&later);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "rank 2 at "));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(t, ": MPI_Iprobe says \"not yet\" although it could succeed [alternative 2 of 2]"));
    g_free(t);
    sg_step now = {SG_STEP_CHOICE, 0, -1, -1, -1, 0, 0, "MPI_Testany:now-or-later", 0, 2};
    t = sg_step_text(&now);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, ": MPI_Testany succeeds at once [alternative 1 of 2]"));
    g_free(t);
}

static void test_rejections(void) {
    expect_rejected("ordex-trace 3", "ordex-trace 7", "not supported");
    expect_rejected("ordex-trace 3", "hello", "not an ordex trace");
    expect_rejected("ranks 4\n", "ranks 4\nranks 5\n", "appears twice");
    expect_rejected(" at=", " at=a.c:1 at=", "the field 'at' appears twice");
    expect_rejected("heap-size 1048576", "heap-size 1MiB", "heap-size");
    expect_rejected("heap-size 1048576", "heap-size 100", "heap-size");
    expect_rejected("stack-size 65536", "stack-size -1", "stack-size");
    expect_rejected("step-timeout 2.5", "step-timeout nan", "step-timeout");
    expect_rejected("eager-limit 65536", "eager-limit banana", "eager-limit");
    expect_rejected("ordex-trace 3", "ordex-trace 1", "unknown line 'stack-size'");
    expect_rejected("step 2 deliver", "step 2 teleport", "unknown step kind");
    expect_rejected("step 2 deliver", "step 5 deliver", "expected step 2");
    expect_rejected("choice=2/2", "choice=3/2", "choice=");
    expect_rejected("end 4", "end 9", "ends after 4 steps");
    expect_rejected("end 4\n", "", "truncated");
    expect_rejected("ranks 4", "ranks zero", "ranks");
    expect_rejected("send-mode rendezvous", "send-mode maybe", "send-mode");
    expect_rejected("dst=1", "dst=x", "not a number");
    expect_rejected("test-later yes", "test-later maybe", "test-later");
    expect_rejected("buffer-checks on", "buffer-checks maybe", "buffer-checks 'maybe'");
    expect_rejected("type-check warn", "type-check strict", "type-check 'strict'");
}

/* Every edit of a trace is refused: one whose lines all still make sense
 * (another rank count, a message from another rank) by the checksum, and in
 * traces of any version the numbers a step cannot have. */
static void test_edits_rejected(void) {
    /* Consistent edits of a version 3 trace. */
    expect_rejected("ranks 4", "ranks 5", "the trace was edited");
    expect_rejected("dst=0 src=2 tag=7", "dst=0 src=3 tag=7", "the trace was edited");
    expect_rejected("args '64'", "args '65'", "the trace was edited");
    expect_rejected("# one explored", "# an explored", "the trace was edited");
    expect_rejected("\nchecksum ", "\n# checksum ", "the checksum line is missing");
    expect_rejected("checksum ", "checksum 0", "the trace was edited");
    expect_rejected("\nend 4\n", "\n", "truncated");
    for (int v2 = 0; v2 < 2; v2++) {
        /* Numbers that do not fit an int are refused, not wrapped. */
        expect_rejected_in(v2, "dst=1 src=0", "dst=4294967297 src=0", "out of range");
        expect_rejected_in(v2, "tag=7", "tag=4294967303", "out of range");
        expect_rejected_in(v2, "tag=7", "tag=-4294967296", "out of range");
        expect_rejected_in(v2, "comm=3", "comm=99999999999", "out of range");
        /* Ranks outside 0..ranks-1, and values a kind cannot have. */
        expect_rejected_in(v2, "dst=1 src=0", "dst=4 src=0", "dst=4 names a rank");
        expect_rejected_in(v2, "dst=0 src=2", "dst=0 src=4", "src=4 names a rank");
        expect_rejected_in(v2, "dst=1 src=0", "dst=1 src=-1", "src=-1");
        expect_rejected_in(v2, "tag=7", "tag=-1", "tag=-1");
        expect_rejected_in(v2, "dst=0 call=MPI_Waitany", "dst=7 call=MPI_Waitany", "dst=7");
        expect_rejected_in(v2, "dst=1 src=0", "dst=-1 src=0", "dst=-1");
        /* Missing and repeated fields. */
        expect_rejected_in(v2, "dst=1 src=0", "src=0", "no dst field");
        expect_rejected_in(v2, " call=MPI_Waitany", "", "no call field");
        expect_rejected_in(v2, "tag=7", "tag=7 tag=8", "appears twice");
        expect_rejected_in(v2, "choice=2/2", "choice=2/2x", "choice=");
    }
    /* ranks 5 in a version 2 trace whose steps all fit 4 ranks is read (no
     * checksum to tell): replay compares the run with the trace. */
    char *p = write_sample("e.trace");
    char *text;
    g_file_get_contents(p, &text, NULL, NULL);
    GString *s = g_string_new(text);
    as_version2(s);
    CU_ASSERT_EQUAL(g_string_replace(s, "ranks 4\n", "ranks 5\n", 1), 1);
    g_file_set_contents(p, s->str, -1, NULL);
    sg_trace t;
    char *err = NULL;
    CU_ASSERT_FATAL(sg_trace_read(p, &t, &err));
    CU_ASSERT_EQUAL(t.nranks, 5);
    sg_trace_free(&t);
    g_string_free(s, TRUE);
    g_free(text);
    g_free(p);
}

/* Whether a replay's findings include the one a trace was recorded for. */
static void test_finding_reproduced(void) {
    char *p = write_sample("f.trace");
    sg_trace t;
    char *err = NULL;
    CU_ASSERT_FATAL(sg_trace_read(p, &t, &err));
    CU_ASSERT_STRING_EQUAL(t.finding_kind, "mpi_error");
    CU_ASSERT_STRING_EQUAL(t.finding_location, "prog.c:12");
    GPtrArray *found = g_ptr_array_new();
    char *why = sg_trace_unreproduced(&t, found);
    CU_ASSERT_PTR_NOT_NULL(why);
    if (why)
        CU_ASSERT_PTR_NOT_NULL(strstr(why, "[mpi_error] at prog.c:12"));
    g_free(why);
    int rank = 0;
    sim_finding other = {.kind = SIM_F_MPI_ERROR,
                         .ranks = &rank,
                         .nranks = 1,
                         .location = "prog.c:13",
                         .message = "x"};
    g_ptr_array_add(found, &other);
    why = sg_trace_unreproduced(&t, found);
    CU_ASSERT_PTR_NOT_NULL(why);
    g_free(why);
    sim_finding same = other;
    same.location = "prog.c:12";
    g_ptr_array_add(found, &same);
    CU_ASSERT_PTR_NULL(sg_trace_unreproduced(&t, found));
    g_ptr_array_free(found, TRUE);
    sg_trace_free(&t);
    g_free(p);
}

int main(void) {
    g_dir = g_dir_make_tmp("ordex-trace-test-XXXXXX", NULL);
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("trace", NULL, NULL);
    CU_add_test(s, "a trace reads back as written", test_round_trip);
    CU_add_test(s, "bad traces are rejected with file and reason", test_rejections);
    CU_add_test(s, "edited traces and impossible steps are rejected", test_edits_rejected);
    CU_add_test(s, "a replay's findings hold the trace's or not", test_finding_reproduced);
    CU_add_test(s, "the test-later line is optional (older traces)", test_test_later_optional);
    CU_add_test(s, "the buffer-checks and type-check lines are optional (older traces)",
                test_buffer_checks_optional);
    CU_add_test(s, "a \"not yet\" choice in words", test_not_yet_text);
    CU_add_test(s, "version 1 traces read with the default sizes", test_version1);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    GDir *d = g_dir_open(g_dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *f = path_of(name);
        g_unlink(f);
        g_free(f);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(g_dir);
    g_free(g_dir);
    return failed != 0;
}
