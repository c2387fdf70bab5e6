/*
 * test_outcome_diff.c - what differs between two orderings' outcomes: the
 * first differing output line per rank, observed values, exits.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <string.h>

#include "scheduler/sched.h"
#include "stategraph/outcome_diff.h"

/* An outcome of n ranks that all exited with status 0 and printed nothing. */
static sg_path_outcome make(int n) {
    sg_path_outcome o = {n, g_new0(sg_rank_end, n)};
    for (int r = 0; r < n; r++) {
        o.ranks[r].state = SCHED_DONE;
        o.ranks[r].out = g_string_new(NULL);
        o.ranks[r].names = g_ptr_array_new_with_free_func(g_free);
        o.ranks[r].values = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    }
    return o;
}

static void observe(sg_path_outcome *o, int rank, const char *name, const void *v, size_t n) {
    g_ptr_array_add(o->ranks[rank].names, g_strdup(name));
    g_ptr_array_add(o->ranks[rank].values, g_bytes_new(v, n));
}

static const sg_outcome_diff *at(GArray *d, guint i) {
    return &g_array_index(d, sg_outcome_diff, i);
}

static void test_equal(void) {
    sg_path_outcome a = make(2), b = make(2);
    g_string_append(a.ranks[1].out, "same\nlines\n");
    g_string_append(b.ranks[1].out, "same\nlines\n");
    int v = 7;
    observe(&a, 0, "v", &v, sizeof v);
    observe(&b, 0, "v", &v, sizeof v);
    GArray *d = sg_outcome_diffs(&a, &b);
    CU_ASSERT_EQUAL(d->len, 0);
    sg_outcome_diffs_free(d);
    sg_path_outcome_clear(&a);
    sg_path_outcome_clear(&b);
}

static void test_output_lines(void) {
    sg_path_outcome a = make(3), b = make(3);
    g_string_append(a.ranks[0].out, "head\nx = 1\ny = 2\nz = 3\ntail\n");
    g_string_append(b.ranks[0].out, "head\nx = 9\ny = 2\nz = 8\ntail\n");
    g_string_append(a.ranks[2].out, "one\n");
    g_string_append(b.ranks[2].out, "one\ntwo\n");
    GArray *d = sg_outcome_diffs(&a, &b);
    CU_ASSERT_EQUAL_FATAL(d->len, 2);
    /* rank 0: the first differing line, and how many more differ */
    CU_ASSERT_EQUAL(at(d, 0)->kind, SG_DIFF_OUTPUT);
    CU_ASSERT_EQUAL(at(d, 0)->rank, 0);
    CU_ASSERT_EQUAL(at(d, 0)->line, 2);
    CU_ASSERT_EQUAL(at(d, 0)->more, 1);
    CU_ASSERT_STRING_EQUAL(at(d, 0)->a, "x = 1");
    CU_ASSERT_STRING_EQUAL(at(d, 0)->b, "x = 9");
    /* rank 2: a line that only one ordering printed */
    CU_ASSERT_EQUAL(at(d, 1)->rank, 2);
    CU_ASSERT_EQUAL(at(d, 1)->line, 2);
    CU_ASSERT_PTR_NULL(at(d, 1)->a);
    CU_ASSERT_STRING_EQUAL(at(d, 1)->b, "two");
    sg_outcome_diffs_free(d);
    sg_path_outcome_clear(&a);
    sg_path_outcome_clear(&b);
}

static void test_long_and_control_characters(void) {
    sg_path_outcome a = make(1), b = make(1);
    for (int i = 0; i < 300; i++)
        g_string_append_c(a.ranks[0].out, 'a');
    g_string_append(a.ranks[0].out, "\n");
    g_string_append(b.ranks[0].out, "bell\a tab\t\n");
    GArray *d = sg_outcome_diffs(&a, &b);
    CU_ASSERT_EQUAL_FATAL(d->len, 1);
    CU_ASSERT(g_str_has_suffix(at(d, 0)->a, "..."));
    CU_ASSERT(strlen(at(d, 0)->a) < 200);
    CU_ASSERT_STRING_EQUAL(at(d, 0)->b, "bell? tab?");
    sg_outcome_diffs_free(d);
    sg_path_outcome_clear(&a);
    sg_path_outcome_clear(&b);
}

static void test_observed_and_exit(void) {
    sg_path_outcome a = make(2), b = make(2);
    int x = 12, y = 21;
    observe(&a, 1, "v", &x, sizeof x);
    observe(&b, 1, "v", &y, sizeof y);
    unsigned char big_a[20] = {0}, big_b[20] = {0};
    big_b[17] = 0xab;
    observe(&a, 0, "buf", big_a, sizeof big_a);
    observe(&b, 0, "buf", big_b, sizeof big_b);
    b.ranks[0].exit_code = 3;
    GArray *d = sg_outcome_diffs(&a, &b);
    CU_ASSERT_EQUAL_FATAL(d->len, 3);
    CU_ASSERT_EQUAL(at(d, 0)->kind, SG_DIFF_END);
    CU_ASSERT_EQUAL(at(d, 0)->rank, 0);
    CU_ASSERT_STRING_EQUAL(at(d, 0)->a, "exit status 0");
    CU_ASSERT_STRING_EQUAL(at(d, 0)->b, "exit status 3");
    CU_ASSERT_EQUAL(at(d, 1)->kind, SG_DIFF_OBSERVED);
    CU_ASSERT_STRING_EQUAL(at(d, 1)->name, "buf");
    CU_ASSERT_STRING_EQUAL(at(d, 1)->a, "20 bytes; from byte 16: 00 00 00 00");
    CU_ASSERT_STRING_EQUAL(at(d, 1)->b, "20 bytes; from byte 16: 00 ab 00 00");
    CU_ASSERT_EQUAL(at(d, 2)->rank, 1);
    CU_ASSERT_STRING_EQUAL(at(d, 2)->a, "12 (0x0000000c)");
    CU_ASSERT_STRING_EQUAL(at(d, 2)->b, "21 (0x00000015)");
    sg_outcome_diffs_free(d);
    sg_path_outcome_clear(&a);
    sg_path_outcome_clear(&b);
}

static void test_negative_value(void) {
    sg_path_outcome a = make(1), b = make(1);
    short s = -2, t = 5;
    observe(&a, 0, "s", &s, sizeof s);
    observe(&b, 0, "s", &t, sizeof t);
    GArray *d = sg_outcome_diffs(&a, &b);
    CU_ASSERT_EQUAL_FATAL(d->len, 1);
    CU_ASSERT_STRING_EQUAL(at(d, 0)->a, "-2 (0xfffe)");
    CU_ASSERT_STRING_EQUAL(at(d, 0)->b, "5 (0x0005)");
    sg_outcome_diffs_free(d);
    sg_path_outcome_clear(&a);
    sg_path_outcome_clear(&b);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("outcome_diff", NULL, NULL);
    CU_add_test(s, "equal outcomes: no difference", test_equal);
    CU_add_test(s, "output: first differing line per rank, and how many more", test_output_lines);
    CU_add_test(s, "output: long lines cut, control characters shown as ?",
                test_long_and_control_characters);
    CU_add_test(s, "observed values and exit statuses", test_observed_and_exit);
    CU_add_test(s, "a small value as a signed integer and in hex", test_negative_value);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
