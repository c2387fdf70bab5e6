/*
 * test_attr.c - unit tests of simulator/attr.c: keyval handles per rank and
 * their checks, attributes per rank and object, the copy and delete
 * callbacks and their order, failures of callbacks, the predefined
 * communicator attributes, and the digest.
 */
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/attr.h"
#include "simulator/errhandler.h"
#include "simulator/handle.h"
#include "tests/local/digest.h"

#define KEYVAL(i) SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_KEYVAL, (i))

/* What the callbacks did, one "copy K V;" or "delete K V;" each, with K
 * the extra state (a name) and V the value. */
static GString *calls_log;

static int copy_plus(int handle, int keyval, void *extra, void *in, void *out, int *flag) {
    g_string_append_printf(calls_log, "copy %s %ld;", (const char *)extra, (long)in);
    if ((long)in < 0)
        return MPI_ERR_OTHER;
    *(void **)out = (void *)((long)in + 100);
    *flag = (long)in != 2;
    return MPI_SUCCESS;
}

static int delete_log(int handle, int keyval, void *value, void *extra) {
    g_string_append_printf(calls_log, "delete %s %ld;", (const char *)extra, (long)value);
    return (long)value == 13 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void setup(int nranks) {
    sim_errh_init(nranks);
    sim_attr_init(nranks);
    if (!calls_log)
        calls_log = g_string_new(NULL);
    g_string_truncate(calls_log, 0);
}

static void teardown(void) {
    sim_attr_fini();
    sim_errh_fini();
}

static long get(int rank, sim_attr_kind kind, int obj, int kv) {
    void *v = NULL;
    int flag = -1;
    sim_attr_get(rank, kind, obj, kv, &v, &flag);
    return flag ? (long)v : -1;
}

static int set(int rank, sim_attr_kind kind, int obj, int kv, long value) {
    char *why = NULL;
    int rc = sim_attr_set(rank, kind, obj, kv, (void *)value, &why);
    g_free(why);
    return rc;
}

static void test_keyvals(void) {
    setup(2);
    int a = sim_keyval_create(0, SIM_ATTR_COMM, NULL, NULL, NULL);
    int b = sim_keyval_create(0, SIM_ATTR_TYPE, NULL, NULL, NULL);
    int c = sim_keyval_create(1, SIM_ATTR_WIN, NULL, NULL, NULL);
    CU_ASSERT_EQUAL(a, KEYVAL(0));
    CU_ASSERT_EQUAL(b, KEYVAL(1));
    CU_ASSERT_EQUAL(c, KEYVAL(0)); /* rank 1's own table */
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, a, false, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, b, false, &why), MPI_ERR_KEYVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "was made by MPI_Type_create_keyval"));
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, MPI_KEYVAL_INVALID, false, &why),
                    MPI_ERR_KEYVAL);
    CU_ASSERT_STRING_EQUAL(why, "keyval is MPI_KEYVAL_INVALID");
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, MPI_TAG_UB, true, &why), MPI_ERR_KEYVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "is predefined"));
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, 12345, false, &why), MPI_ERR_KEYVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "is not a keyval"));
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, KEYVAL(7), false, &why), MPI_ERR_KEYVAL);
    g_free(why);
    why = NULL;

    /* A freed keyval in use lives on for its attributes only. */
    CU_ASSERT_EQUAL(set(0, SIM_ATTR_COMM, MPI_COMM_WORLD, a, 5), MPI_SUCCESS);
    sim_keyval_free(0, a);
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, a, true, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, a, false, &why), MPI_ERR_KEYVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "was freed"));
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_WORLD, a), 5);
    /* Its index is not handed out while it is in use ... */
    CU_ASSERT_EQUAL(sim_keyval_create(0, SIM_ATTR_COMM, NULL, NULL, NULL), KEYVAL(2));
    /* ... and is, lowest first, once its last attribute went. */
    CU_ASSERT_EQUAL(sim_attr_delete(0, SIM_ATTR_COMM, MPI_COMM_WORLD, a, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(sim_keyval_check(0, SIM_ATTR_COMM, a, true, &why), MPI_ERR_KEYVAL);
    g_free(why);
    CU_ASSERT_EQUAL(sim_keyval_create(0, SIM_ATTR_COMM, NULL, NULL, NULL), KEYVAL(0));
    teardown();
}

static void test_set_get_delete(void) {
    setup(2);
    int k = sim_keyval_create(0, SIM_ATTR_COMM, NULL, delete_log, "k");
    int k1 = sim_keyval_create(1, SIM_ATTR_COMM, NULL, delete_log, "k1");
    CU_ASSERT_EQUAL(k, k1);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k), -1);
    set(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k, 1);
    /* Per rank, per object, per kind. */
    CU_ASSERT_EQUAL(get(1, SIM_ATTR_COMM, MPI_COMM_WORLD, k1), -1);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_SELF, k), -1);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_TYPE, MPI_COMM_WORLD, k), -1);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k), 1);
    /* A new value deletes the old one. */
    set(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k, 2);
    CU_ASSERT_STRING_EQUAL(calls_log->str, "delete k 1;");
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k), 2);
    /* A delete callback that fails keeps the value, and says so. */
    set(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k, 13);
    g_string_truncate(calls_log, 0);
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_attr_set(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k, (void *)3, &why),
                    MPI_ERR_OTHER);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "the delete callback of keyval 0xa4000000 returned error "
                                       "code 15"));
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k), 13);
    CU_ASSERT_EQUAL(sim_attr_delete(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k, &why), MPI_ERR_OTHER);
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k), 13);
    set(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k, 4); /* fails: still 13 */
    sim_attr_forget(0, SIM_ATTR_COMM, MPI_COMM_WORLD);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k), -1);
    /* Deleting what is not set is no error and calls nothing. */
    g_string_truncate(calls_log, 0);
    CU_ASSERT_EQUAL(sim_attr_delete(0, SIM_ATTR_COMM, MPI_COMM_WORLD, k, &why), MPI_SUCCESS);
    CU_ASSERT_STRING_EQUAL(calls_log->str, "");
    teardown();
}

static void test_delete_all_order(void) {
    setup(1);
    int a = sim_keyval_create(0, SIM_ATTR_COMM, NULL, delete_log, "a");
    int b = sim_keyval_create(0, SIM_ATTR_COMM, NULL, delete_log, "b");
    int c = sim_keyval_create(0, SIM_ATTR_COMM, NULL, NULL, "c"); /* null delete */
    int obj = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, 4);
    set(0, SIM_ATTR_COMM, obj, b, 20);
    set(0, SIM_ATTR_COMM, obj, a, 10);
    set(0, SIM_ATTR_COMM, obj, c, 30);
    set(0, SIM_ATTR_COMM, obj, b, 21); /* keeps b's place */
    g_string_truncate(calls_log, 0);
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_attr_delete_all(0, SIM_ATTR_COMM, obj, &why), MPI_SUCCESS);
    CU_ASSERT_STRING_EQUAL(calls_log->str, "delete a 10;delete b 21;");
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, obj, b), -1);
    /* A failing callback stops the deletion at its attribute. */
    set(0, SIM_ATTR_COMM, obj, a, 13);
    set(0, SIM_ATTR_COMM, obj, b, 1);
    g_string_truncate(calls_log, 0);
    CU_ASSERT_EQUAL(sim_attr_delete_all(0, SIM_ATTR_COMM, obj, &why), MPI_ERR_OTHER);
    g_free(why);
    CU_ASSERT_STRING_EQUAL(calls_log->str, "delete b 1;delete a 13;");
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, obj, a), 13);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, obj, b), -1);
    teardown();
}

static void test_copy_all(void) {
    setup(1);
    int a = sim_keyval_create(0, SIM_ATTR_COMM, copy_plus, delete_log, "a");
    int n = sim_keyval_create(0, SIM_ATTR_COMM, NULL, delete_log, "n"); /* null copy */
    int r = sim_keyval_create(0, SIM_ATTR_COMM, copy_plus, delete_log, "r");
    int from = MPI_COMM_WORLD, to = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, 0);
    set(0, SIM_ATTR_COMM, from, a, 1);
    set(0, SIM_ATTR_COMM, from, n, 5);
    set(0, SIM_ATTR_COMM, from, r, 2); /* the copy function refuses 2 */
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_attr_copy_all(0, SIM_ATTR_COMM, from, to, &why), MPI_SUCCESS);
    CU_ASSERT_STRING_EQUAL(calls_log->str, "copy a 1;copy r 2;");
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, to, a), 101);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, to, n), -1);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, to, r), -1);
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, from, a), 1);
    /* A failing copy fails the whole and takes back what was copied. */
    int to2 = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, 1);
    set(0, SIM_ATTR_COMM, from, r, -1);
    g_string_truncate(calls_log, 0);
    CU_ASSERT_EQUAL(sim_attr_copy_all(0, SIM_ATTR_COMM, from, to2, &why), MPI_ERR_OTHER);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "the copy callback of keyval 0xa4000002 returned"));
    g_free(why);
    CU_ASSERT_STRING_EQUAL(calls_log->str, "copy a 1;copy r -1;delete a 101;");
    CU_ASSERT_EQUAL(get(0, SIM_ATTR_COMM, to2, a), -1);
    teardown();
}

static void test_predefined(void) {
    setup(3);
    int *v = NULL, flag = 0;
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_TAG_UB, (void **)&v, &flag));
    CU_ASSERT_EQUAL(flag, 1);
    CU_ASSERT_EQUAL(*v, SIM_TAG_UB);
    CU_ASSERT_TRUE(*v >= 32767);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_HOST, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, MPI_PROC_NULL);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_IO, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, MPI_ANY_SOURCE);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_WTIME_IS_GLOBAL, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, 0);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_UNIVERSE_SIZE, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, 3);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_APPNUM, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, 0);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_LASTUSEDCODE, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, MPI_ERR_LASTCODE);
    int cls = sim_errcode_add_class(1);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(1, MPI_LASTUSEDCODE, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, cls);
    CU_ASSERT_TRUE(sim_attr_predefined_comm(0, MPI_LASTUSEDCODE, (void **)&v, &flag));
    CU_ASSERT_EQUAL(*v, MPI_ERR_LASTCODE); /* rank 0 added none */
    CU_ASSERT_FALSE(sim_attr_predefined_comm(0, MPI_WIN_BASE, (void **)&v, &flag));
    CU_ASSERT_FALSE(sim_attr_predefined_comm(0, KEYVAL(0), (void **)&v, &flag));
    CU_ASSERT_TRUE(sim_keyval_predefined(MPI_WIN_MODEL));
    CU_ASSERT_FALSE(sim_keyval_predefined(KEYVAL(0)));
    teardown();
}

/* Equal keyvals and attributes reached in other orders digest equal;
 * any difference shows. */
static void test_digest(void) {
    setup(2);
    int obj1 = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, 1);
    int obj2 = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, 2);
    for (int r = 0; r < 2; r++)
        sim_keyval_create(r, SIM_ATTR_COMM, NULL, NULL, NULL);
    /* Rank 0 sets obj1 then obj2, rank 1 the other way round. */
    set(0, SIM_ATTR_COMM, obj1, KEYVAL(0), 1);
    set(0, SIM_ATTR_COMM, obj2, KEYVAL(0), 2);
    set(1, SIM_ATTR_COMM, obj2, KEYVAL(0), 2);
    set(1, SIM_ATTR_COMM, obj1, KEYVAL(0), 7);
    set(1, SIM_ATTR_COMM, obj1, KEYVAL(0), 1);
    char *d0 = digest_of(sim_attr_digest_rank, 0), *d1 = digest_of(sim_attr_digest_rank, 1);
    CU_ASSERT_STRING_EQUAL(d0, d1);
    set(1, SIM_ATTR_COMM, obj1, KEYVAL(0), 3);
    char *d2 = digest_of(sim_attr_digest_rank, 1);
    CU_ASSERT_STRING_NOT_EQUAL(d0, d2);
    set(1, SIM_ATTR_COMM, obj1, KEYVAL(0), 1);
    sim_keyval_free(1, KEYVAL(0));
    char *d3 = digest_of(sim_attr_digest_rank, 1);
    CU_ASSERT_STRING_NOT_EQUAL(d0, d3);
    g_free(d0);
    g_free(d1);
    g_free(d2);
    g_free(d3);
    teardown();
}

int main(void) {
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("attr", NULL, NULL);
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
        {"keyvals: handles per rank, checks, freeing", test_keyvals},
        {"set, get, delete, failing delete callbacks", test_set_get_delete},
        {"deletion of all: the last set first", test_delete_all_order},
        {"copies: callbacks decide, failures roll back", test_copy_all},
        {"predefined communicator attributes", test_predefined},
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
