/*
 * test_run.c - end-to-end tests of the ordex command line: runs the ordex
 * binary (from the Bazel runfiles) on the examples and on tests/programs, and
 * checks exit status, findings and output (compared with real MPICH's output
 * recorded in expected/ by record_expected.sh).
 */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "e2e.h"

void e2e_add_explore_tests(CU_pSuite s);   /* test_explore.c */
void e2e_add_replay_tests(CU_pSuite s);    /* test_replay.c */
void e2e_add_thread_tests(CU_pSuite s);    /* test_threads.c */
void e2e_add_gdb_tests(CU_pSuite s);       /* test_gdb.c */
void e2e_add_symbolize_tests(CU_pSuite s); /* test_symbolize.c */

static int suite_init(void) {
    return 0;
}
static int suite_clean(void) {
    return 0;
}

int main(void) {
    if (!e2e_init())
        return 2;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite ex = CU_add_suite("examples", suite_init, suite_clean);
    CU_pSuite pr = CU_add_suite("programs", suite_init, suite_clean);
    CU_pSuite cli = CU_add_suite("command line", suite_init, suite_clean);
    CU_pSuite exp = CU_add_suite("explore", suite_init, suite_clean);
    if (!ex || !pr || !cli || !exp) {
        CU_cleanup_registry();
        return 2;
    }
    e2e_add_example_tests(ex);
    e2e_add_program_tests(pr);
    e2e_add_cli_tests(cli);
    e2e_add_explore_tests(exp);
    e2e_add_replay_tests(CU_add_suite("replay", suite_init, suite_clean));
    e2e_add_thread_tests(CU_add_suite("threads", suite_init, suite_clean));
    e2e_add_gdb_tests(CU_add_suite("gdb", suite_init, suite_clean));
    e2e_add_symbolize_tests(CU_add_suite("symbolisation", suite_init, suite_clean));
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
    unsigned asserts_failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    e2e_fini();
    return failed || asserts_failed ? 1 : 0;
}
