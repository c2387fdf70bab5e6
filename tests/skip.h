/*
 * skip.h - tests that cannot run in this configuration (a sanitizer build,
 * valgrind) are skipped, never passed without asserting anything.
 *
 * A skipped test is registered inactive: CUnit does not run it and counts it
 * in the "Inactive" column of its summary, which ./test adds up as
 * "N skipped"; a line "skipped: NAME (WHY)" in the test log says why.
 */
#ifndef ORDEX_TESTS_SKIP_H
#define ORDEX_TESTS_SKIP_H

#include <CUnit/CUnit.h>
#include <stdio.h>

/* Adds test `fn` named `name` to suite `s`.  When `why` is not NULL the test
 * cannot run here: it is registered inactive and "skipped: NAME (WHY)" is
 * printed, and an inactive test no longer counts as a failure (CUnit's
 * default).  Returns the test, or NULL when CUnit could not add it. */
static inline CU_pTest test_add_unless(CU_pSuite s, const char *name, CU_TestFunc fn,
                                       const char *why) {
    CU_pTest t = CU_add_test(s, name, fn);
    if (t && why) {
        CU_set_fail_on_inactive(CU_FALSE);
        CU_set_test_active(t, CU_FALSE);
        printf("skipped: %s (%s)\n", name, why);
        fflush(stdout);
    }
    return t;
}

#endif
