/*
 * test_info.c - unit tests of simulator/info.c: handles per rank, key
 * order, values in place, deletion, copies, MPI_INFO_ENV, hints, and the
 * digest that makes them part of a rank's state.
 */
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/handle.h"
#include "simulator/info.h"
#include "tests/local/digest.h"

static sim_info *get(int rank, MPI_Info h) {
    char *why = NULL;
    sim_info *i = sim_info_lookup(rank, h, &why);
    g_free(why);
    return i;
}

static void test_handles_per_rank(void) {
    sim_info_init(2);
    MPI_Info a = sim_info_create(0), b = sim_info_create(0), c = sim_info_create(1);
    CU_ASSERT_EQUAL(a, SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_INFO, 0));
    CU_ASSERT_EQUAL(b, SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_INFO, 1));
    /* Rank 1's table is its own: its first info has the first handle. */
    CU_ASSERT_EQUAL(c, a);
    CU_ASSERT_PTR_NOT_EQUAL(get(0, a), get(1, c));
    /* The lowest free index comes back first. */
    sim_info_free(0, a);
    CU_ASSERT_PTR_NULL(get(0, a));
    CU_ASSERT_EQUAL(sim_info_create(0), a);
    char *why = NULL;
    CU_ASSERT_PTR_NULL(sim_info_lookup(0, MPI_INFO_NULL, &why));
    CU_ASSERT_STRING_EQUAL(why, "is MPI_INFO_NULL");
    g_free(why);
    why = NULL;
    CU_ASSERT_PTR_NULL(sim_info_lookup(0, (MPI_Info)0x1234, &why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "is not an info handle"));
    g_free(why);
    sim_info_fini();
}

static void test_keys_and_values(void) {
    sim_info_init(1);
    sim_info *i = get(0, sim_info_create(0));
    sim_info_set(i, "b", "1");
    sim_info_set(i, " A ", "x y");
    sim_info_set(i, "c", "3");
    sim_info_set(i, "b", "two"); /* in place */
    CU_ASSERT_EQUAL(sim_info_nkeys(i), 3);
    CU_ASSERT_STRING_EQUAL(sim_info_nthkey(i, 0), "b");
    CU_ASSERT_STRING_EQUAL(sim_info_nthkey(i, 1), " A ");
    CU_ASSERT_STRING_EQUAL(sim_info_nthkey(i, 2), "c");
    CU_ASSERT_STRING_EQUAL(sim_info_get(i, "b"), "two");
    CU_ASSERT_STRING_EQUAL(sim_info_get(i, " A "), "x y");
    CU_ASSERT_PTR_NULL(sim_info_get(i, "A")); /* keys are taken as given */
    CU_ASSERT_TRUE(sim_info_delete(i, "b"));
    CU_ASSERT_FALSE(sim_info_delete(i, "b"));
    CU_ASSERT_EQUAL(sim_info_nkeys(i), 2);
    CU_ASSERT_STRING_EQUAL(sim_info_nthkey(i, 0), " A ");
    /* A copy is independent of its original. */
    sim_info *d = get(0, sim_info_dup(0, i));
    sim_info_set(d, "new", "v");
    sim_info_set(d, "c", "changed");
    CU_ASSERT_EQUAL(sim_info_nkeys(i), 2);
    CU_ASSERT_STRING_EQUAL(sim_info_get(i, "c"), "3");
    CU_ASSERT_EQUAL(sim_info_nkeys(d), 3);
    sim_info_fini();
}

static void test_env(void) {
    sim_info_init(5);
    sim_info_set_command("/tmp/prog.so");
    CU_ASSERT_TRUE(sim_info_is_env(MPI_INFO_ENV));
    sim_info *e0 = get(0, MPI_INFO_ENV), *e4 = get(4, MPI_INFO_ENV);
    CU_ASSERT_PTR_EQUAL(e0, e4);
    CU_ASSERT_STRING_EQUAL(sim_info_get(e0, "maxprocs"), "5");
    CU_ASSERT_STRING_EQUAL(sim_info_get(e0, "command"), "/tmp/prog.so");
    sim_info_fini();
}

static void test_hints(void) {
    sim_info_init(2);
    sim_info *given = get(0, sim_info_create(0));
    sim_info_set(given, "no_locks", "true");
    sim_info_set(given, "same_size", "false");
    sim_hints_set(0, SIM_HINT_WIN, 7, given);
    sim_info_set(given, "no_locks", "false"); /* the window keeps its copy */
    CU_ASSERT_TRUE(sim_hints_true(0, SIM_HINT_WIN, 7, "no_locks"));
    CU_ASSERT_FALSE(sim_hints_true(0, SIM_HINT_WIN, 7, "same_size"));
    CU_ASSERT_FALSE(sim_hints_true(1, SIM_HINT_WIN, 7, "no_locks"));  /* another member */
    CU_ASSERT_FALSE(sim_hints_true(0, SIM_HINT_COMM, 7, "no_locks")); /* another kind */
    /* An update changes the keys it names and keeps the others. */
    sim_info *upd = get(0, sim_info_create(0));
    sim_info_set(upd, "same_size", "true");
    sim_hints_update(0, SIM_HINT_WIN, 7, upd);
    CU_ASSERT_TRUE(sim_hints_true(0, SIM_HINT_WIN, 7, "same_size"));
    CU_ASSERT_TRUE(sim_hints_true(0, SIM_HINT_WIN, 7, "no_locks"));
    /* An update of an object without hints sets them. */
    sim_hints_update(1, SIM_HINT_COMM, 3, upd);
    CU_ASSERT_TRUE(sim_hints_true(1, SIM_HINT_COMM, 3, "same_size"));
    sim_hints_drop(0, SIM_HINT_WIN, 7);
    CU_ASSERT_PTR_NULL(sim_hints_get(0, SIM_HINT_WIN, 7));
    sim_hints_set(1, SIM_HINT_COMM, 3, NULL);
    CU_ASSERT_PTR_NULL(sim_hints_get(1, SIM_HINT_COMM, 3));
    sim_info_fini();
}

/* The same contents reached in another order give the same digest;
 * another value, another key order or another handle do not. */
static void test_digest(void) {
    sim_info_init(2);
    char *empty = digest_of(sim_info_digest_rank, 0);
    /* Rank 0: create a and b, free a: b is left at index 1. */
    MPI_Info a = sim_info_create(0), b = sim_info_create(0);
    sim_info_set(get(0, b), "k", "v");
    sim_info_free(0, a);
    /* Rank 1: the same contents at index 1, reached another way. */
    MPI_Info x = sim_info_create(1), y = sim_info_create(1);
    sim_info_set(get(1, y), "k", "old");
    sim_info_set(get(1, y), "k", "v");
    sim_info_free(1, x);
    char *d0 = digest_of(sim_info_digest_rank, 0), *d1 = digest_of(sim_info_digest_rank, 1);
    CU_ASSERT_STRING_EQUAL(d0, d1);
    CU_ASSERT_STRING_NOT_EQUAL(d0, empty);
    sim_info_set(get(1, y), "k", "w");
    char *d2 = digest_of(sim_info_digest_rank, 1);
    CU_ASSERT_STRING_NOT_EQUAL(d0, d2);
    /* Hints count too. */
    sim_info_set(get(1, y), "k", "v");
    sim_hints_set(1, SIM_HINT_COMM, 5, get(1, y));
    char *d3 = digest_of(sim_info_digest_rank, 1);
    CU_ASSERT_STRING_NOT_EQUAL(d0, d3);
    sim_hints_set(0, SIM_HINT_COMM, 5, get(0, b));
    char *d4 = digest_of(sim_info_digest_rank, 0);
    CU_ASSERT_STRING_EQUAL(d3, d4);
    g_free(empty);
    g_free(d0);
    g_free(d1);
    g_free(d2);
    g_free(d3);
    g_free(d4);
    sim_info_fini();
}

int main(void) {
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("info", NULL, NULL);
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
        {"handles per rank, lowest free first", test_handles_per_rank},
        {"keys in order, values in place, delete, dup", test_keys_and_values},
        {"MPI_INFO_ENV", test_env},
        {"hints: set, update, drop", test_hints},
        {"digest", test_digest},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(tests); i++)
        CU_add_test(s, tests[i].name, tests[i].fn);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failures != 0;
}
