/*
 * test_verdict.c - what findings mean for the verdict: errors, warnings
 * (advisory findings: leaks, active requests freed) and what --leaks makes
 * of leaks, for one run and for an exploration's two passes.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <string.h>

#include "stategraph/verdict.h"

static void test_leaks_parse(void) {
    sg_leaks l = SG_LEAKS_ERROR;
    CU_ASSERT_TRUE(sg_leaks_parse("warn", &l));
    CU_ASSERT_EQUAL(l, SG_LEAKS_WARN);
    CU_ASSERT_TRUE(sg_leaks_parse("error", &l));
    CU_ASSERT_EQUAL(l, SG_LEAKS_ERROR);
    CU_ASSERT_TRUE(sg_leaks_parse("off", &l));
    CU_ASSERT_EQUAL(l, SG_LEAKS_OFF);
    l = SG_LEAKS_WARN;
    CU_ASSERT_TRUE(sg_leaks_parse("ignore", &l));
    CU_ASSERT_EQUAL(l, SG_LEAKS_OFF);
    CU_ASSERT_FALSE(sg_leaks_parse("Warn", &l));
    CU_ASSERT_FALSE(sg_leaks_parse("", &l));
    CU_ASSERT_EQUAL(l, SG_LEAKS_OFF); /* untouched on failure */
}

static void test_severity(void) {
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_LEAK, SG_LEAKS_WARN), SG_SEV_WARNING);
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_LEAK, SG_LEAKS_ERROR), SG_SEV_ERROR);
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_LEAK, SG_LEAKS_OFF), SG_SEV_NONE);
    /* --leaks is about leaks only. */
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_ACTIVE_FREED, SG_LEAKS_ERROR), SG_SEV_WARNING);
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_ACTIVE_FREED, SG_LEAKS_OFF), SG_SEV_WARNING);
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_MPI_ERROR, SG_LEAKS_OFF), SG_SEV_ERROR);
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_DEADLOCK, SG_LEAKS_WARN), SG_SEV_ERROR);
    CU_ASSERT_TRUE(sim_finding_kind_advisory(SIM_F_LEAK));
    CU_ASSERT_TRUE(sim_finding_kind_advisory(SIM_F_ACTIVE_FREED));
    CU_ASSERT_FALSE(sim_finding_kind_advisory(SIM_F_PENDING_REQUEST));
    CU_ASSERT_STRING_EQUAL(sim_finding_kind_name(SIM_F_LEAK), "leak");
    CU_ASSERT_STRING_EQUAL(sim_finding_kind_name(SIM_F_ACTIVE_FREED), "freed_active_request");
    /* A type mismatch under --type-check=warn (an MPI error otherwise). */
    CU_ASSERT_TRUE(sim_finding_kind_advisory(SIM_F_TYPE_MISMATCH));
    CU_ASSERT_EQUAL(sg_severity_of(SIM_F_TYPE_MISMATCH, SG_LEAKS_ERROR), SG_SEV_WARNING);
    CU_ASSERT_STRING_EQUAL(sim_finding_kind_name(SIM_F_TYPE_MISMATCH), "type_mismatch");
}

static void free_sim_finding(gpointer p) {
    sim_finding *f = p;
    g_free(f->message);
    g_free(f);
}

static GPtrArray *run_findings(const sim_finding_kind *kinds, int n) {
    GPtrArray *a = g_ptr_array_new_with_free_func(free_sim_finding);
    for (int i = 0; i < n; i++) {
        sim_finding *f = g_new0(sim_finding, 1);
        f->kind = kinds[i];
        f->message = g_strdup_printf("finding %d", i);
        g_ptr_array_add(a, f);
    }
    return a;
}

static void test_classify(void) {
    const sim_finding_kind kinds[] = {SIM_F_LEAK, SIM_F_MPI_ERROR, SIM_F_ACTIVE_FREED, SIM_F_LEAK};
    GPtrArray *a = run_findings(kinds, 4);
    CU_ASSERT_TRUE(sim_findings_have_error(a));
    sg_findings_classify(a, SG_LEAKS_WARN);
    CU_ASSERT_EQUAL_FATAL(a->len, 4);
    const bool warn[] = {true, false, true, true};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(((sim_finding *)g_ptr_array_index(a, i))->warning, warn[i]);
    sg_findings_classify(a, SG_LEAKS_ERROR);
    CU_ASSERT_FALSE(((sim_finding *)g_ptr_array_index(a, 0))->warning);
    CU_ASSERT_TRUE(((sim_finding *)g_ptr_array_index(a, 2))->warning);
    /* off: the leaks go, the others keep their order */
    sg_findings_classify(a, SG_LEAKS_OFF);
    CU_ASSERT_EQUAL_FATAL(a->len, 2);
    CU_ASSERT_STRING_EQUAL(((sim_finding *)g_ptr_array_index(a, 0))->message, "finding 1");
    CU_ASSERT_STRING_EQUAL(((sim_finding *)g_ptr_array_index(a, 1))->message, "finding 2");
    g_ptr_array_free(a, TRUE);

    const sim_finding_kind advisory[] = {SIM_F_LEAK, SIM_F_ACTIVE_FREED};
    a = run_findings(advisory, 2);
    CU_ASSERT_FALSE(sim_findings_have_error(a));
    g_ptr_array_free(a, TRUE);
}

static sg_finding *explored(sim_finding_kind kind, int pass, const char *location) {
    sg_finding *f = g_new0(sg_finding, 1);
    f->kind = kind;
    f->pass = pass;
    f->location = g_strdup(location);
    f->message = g_strdup("m");
    f->path = g_array_new(FALSE, FALSE, sizeof(sg_step));
    return f;
}

static void free_explored(gpointer p) {
    sg_finding *f = p;
    g_free(f->location);
    g_free(f->message);
    g_array_free(f->path, TRUE);
    g_free(f);
}

/* An exploration of both passes: a leak found by both is one warning; it
 * makes the verdict an error only with --leaks=error. */
static void test_explore_verdict(void) {
    sg_explore_opts o;
    memset(&o, 0, sizeof o);
    o.strategy = SG_EXHAUSTIVE;
    o.both_send_modes = true;
    sg_explore_result res;
    memset(&res, 0, sizeof res);
    res.findings = g_ptr_array_new_with_free_func(free_explored);
    g_ptr_array_add(res.findings, explored(SIM_F_LEAK, 0, "x.c:3"));
    g_ptr_array_add(res.findings, explored(SIM_F_LEAK, 1, "x.c:3"));
    g_ptr_array_add(res.findings, explored(SIM_F_ACTIVE_FREED, 1, "x.c:9"));
    sg_verdict v;
    sg_verdict_of(&o, &res, SG_DIVERGENCE_WARN, SG_LEAKS_WARN, &v);
    CU_ASSERT_EQUAL(v.nerrors, 0);
    CU_ASSERT_EQUAL(v.nwarnings, 2);
    CU_ASSERT_EQUAL(v.errors->len, 0);
    CU_ASSERT_STRING_EQUAL(v.word, "ok");
    CU_ASSERT_EQUAL(v.status, 0);
    sg_verdict_clear(&v);

    sg_verdict_of(&o, &res, SG_DIVERGENCE_WARN, SG_LEAKS_ERROR, &v);
    CU_ASSERT_EQUAL(v.nerrors, 1);
    CU_ASSERT_EQUAL(v.nwarnings, 1);
    CU_ASSERT_STRING_EQUAL(v.word, "error");
    CU_ASSERT_EQUAL(v.status, 1);
    sg_verdict_clear(&v);

    sg_verdict_of(&o, &res, SG_DIVERGENCE_WARN, SG_LEAKS_OFF, &v);
    CU_ASSERT_EQUAL(v.nerrors, 0);
    CU_ASSERT_EQUAL(v.nwarnings, 1);
    CU_ASSERT_EQUAL(v.status, 0);
    sg_verdict_clear(&v);

    g_ptr_array_add(res.findings, explored(SIM_F_MPI_ERROR, 0, "x.c:5"));
    sg_verdict_of(&o, &res, SG_DIVERGENCE_WARN, SG_LEAKS_WARN, &v);
    CU_ASSERT_EQUAL(v.nerrors, 1);
    CU_ASSERT_EQUAL(v.nwarnings, 2);
    CU_ASSERT_EQUAL(v.status, 1);
    sg_verdict_clear(&v);
    g_ptr_array_free(res.findings, TRUE);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("verdict", NULL, NULL);
    CU_add_test(s, "--leaks values", test_leaks_parse);
    CU_add_test(s, "severity of each kind", test_severity);
    CU_add_test(s, "one run's findings: warnings marked, leaks dropped with off", test_classify);
    CU_add_test(s, "an exploration's verdict with warnings", test_explore_verdict);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
