/*
 * test_json_reader.c - the end-to-end tests' reader of JSON documents
 * (e2e.c): it refuses every text that is not strict JSON, including what
 * json-glib alone would take, and finds values by their path whatever the
 * whitespace and the order of keys.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <string.h>

#include "e2e.h"

static void test_strict(void) {
    static const char *const good[] = {
        "{}",
        " {\"a\" : [1, -2.5e-05, 0.5, 0, -0, 1E+3, \"x\\\"\\u0001\\/\"], \"b\": {}, \"c\": null,"
        " \"d\": true, \"e\": false}\n",
        "{\"s\": \"\\ud83d\\ude00 caf\xc3\xa9\"}",
        "[1]",
        "\"top\"",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(good); i++) {
        char *why = e2e_json_problem(good[i]);
        if (why)
            printf("\nrefused %s: %s\n", good[i], why);
        CU_ASSERT_PTR_NULL(why);
        g_free(why);
    }
    /* Each is refused, and json-glib 1.6 takes the first twelve. */
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"{\"a\": .5}", "a value expected"},
        {"{\"a\": 01}", "leading zero"},
        {"{\"a\": 0x10}", "',' or '}' expected"},
        {"{\"a\": 1.}", "a digit expected"},
        {"{'a': 1}", "a string expected"},
        {"{\"a\": 'x'}", "a value expected"},
        {"/* c */ {\"a\": 1}", "a value expected"},
        {"{\"a\": \"x\ny\"}", "control character 0x0a"},
        {"{\"a\": \"x\ty\"}", "control character 0x09"},
        {"{\"a\": \"\\x\"}", "bad escape \\x"},
        {"{\"a\": 1, \"a\": 2}", "key \"a\" twice"},
        {"{\"a\": \"\\u0061\", \"\\u0061\": 2}", "key \"a\" twice"},
        {"{\"a\": 1,}", "a string expected"},
        {"[1, 2,]", "a value expected"},
        {"{\"a\": nan}", "a value expected"},
        {"{\"a\": 1} x", "text after the value"},
        {"{\"a\": 1}}", "text after the value"},
        {"{\"a\": \"\\ud800\"}", "unpaired high surrogate"},
        {"{\"a\": \"\\udc00\"}", "unpaired low surrogate"},
        {"{\"a\": \"caf\xe9\"}", "not UTF-8"},
        {"{\"a\": \"x", "unterminated string"},
        {"", "a value expected"},
        {"{\"a\" 1}", "':' expected"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *why = e2e_json_problem(bad[i].text);
        bool ok = why && strstr(why, bad[i].why);
        if (!ok)
            printf("\n%s: got \"%s\", want \"%s\"\n", bad[i].text, why ? why : "(accepted)",
                   bad[i].why);
        CU_ASSERT_TRUE(ok);
        g_free(why);
    }
}

/* The same document written two ways: paths find the same values. */
static void test_paths(void) {
    static const char *const texts[] = {
        "{\"ranks\": [{\"rank\": 1, \"t\": 2}, {\"rank\": 0, \"t\": 3.5}],\n"
        " \"totals\": {\"t\": 5}, \"sw\": [{\"points\": [{\"value\": \"1GBps\", \"y\": 7e-3},"
        " {\"value\": \"2GBps\", \"y\": 8}]}], \"n\": null, \"b\": false, \"s\": \"x\","
        " \"ev\": [{\"name\": \"MPI_Recv\"}, {\"name\": \"MPI_Send\"}, {\"name\": \"MPI_Recv\"},"
        " 4]}",
        "{\"ev\":[{\"name\":\"MPI_Recv\"},{\"name\":\"MPI_Send\"},{\"name\":\"MPI_Recv\"},4],"
        "\"s\":\"x\",\"b\":false,\"n\":null,\"sw\":[{\"points\":[{\"y\":0.007,\"value\":\"1GBps\"},"
        "{\"y\":8,\"value\":\"2GBps\"}]}],\"totals\":{\"t\":5},"
        "\"ranks\":[{\"t\":2,\"rank\":1},{\"t\":3.5,\"rank\":0}]}",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
        JsonObject *o = EXPECT_JSON_TEXT(NULL, texts[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        CU_ASSERT_EQUAL(e2e_json_num(o, "ranks[rank=0].t"), 3.5);
        CU_ASSERT_EQUAL(e2e_json_num(o, "ranks[rank=1].t"), 2);
        CU_ASSERT_EQUAL(e2e_json_num(o, "ranks[1].t"), 3.5);
        CU_ASSERT_EQUAL(e2e_json_num(o, "totals.t"), 5);
        CU_ASSERT_EQUAL(e2e_json_num(o, "sw[0].points[value=1GBps].y"), 7e-3);
        CU_ASSERT_EQUAL(e2e_json_num(o, "sw[0].points[value=2GBps].y"), 8);
        CU_ASSERT_TRUE(isnan(e2e_json_num(o, "ranks[2].t")));
        CU_ASSERT_TRUE(isnan(e2e_json_num(o, "ranks[rank=5].t")));
        CU_ASSERT_TRUE(isnan(e2e_json_num(o, "totals.u")));
        CU_ASSERT_TRUE(isnan(e2e_json_num(o, "s"))); /* a string is no number */
        CU_ASSERT_PTR_NULL(e2e_json_at(o, "totals[0]"));
        CU_ASSERT_PTR_NULL(e2e_json_at(o, "ranks.t"));
        CU_ASSERT_TRUE(e2e_json_str_is(o, "s", "x"));
        CU_ASSERT_FALSE(e2e_json_str_is(o, "s", "y"));
        CU_ASSERT_PTR_NULL(e2e_json_str(o, "b"));
        CU_ASSERT_TRUE(e2e_json_is_null(o, "n"));
        CU_ASSERT_FALSE(e2e_json_is_null(o, "missing"));
        CU_ASSERT_EQUAL(e2e_json_bool(o, "b"), 0);
        CU_ASSERT_EQUAL(e2e_json_bool(o, "n"), -1);
        CU_ASSERT_TRUE(e2e_json_is_array(o, "ranks"));
        CU_ASSERT_EQUAL(e2e_json_len(o, "ranks"), 2);
        CU_ASSERT_EQUAL(e2e_json_len(o, "totals"), -1);
        CU_ASSERT_EQUAL(e2e_json_count(o, "ev", "name", "MPI_Recv"), 2);
        CU_ASSERT_EQUAL(e2e_json_count(o, "ev", "name", "MPI_Wait"), 0);
        CU_ASSERT_EQUAL(e2e_json_count(o, "s", "name", "MPI_Recv"), -1);
        char *c = e2e_json_compact(o, "ranks[rank=1]");
        CU_ASSERT_TRUE(c && (strcmp(c, "{\"rank\":1,\"t\":2}") == 0 ||
                             strcmp(c, "{\"t\":2,\"rank\":1}") == 0));
        g_free(c);
        e2e_json_free(o);
    }
}

int main(void) {
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("JSON reader of the end-to-end tests", NULL, NULL);
    CU_add_test(s, "strict JSON only", test_strict);
    CU_add_test(s, "values by path, whatever the layout", test_paths);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
