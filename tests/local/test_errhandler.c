/*
 * test_errhandler.c - unit tests of simulator/errhandler.c: handlers per
 * rank, their kinds and references, the file handler, added classes and
 * codes with their strings, MPI_LASTUSEDCODE, and the digest.
 */
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/errhandler.h"
#include "simulator/handle.h"
#include "tests/local/digest.h"

static void fn_a(int *h, int *code, ...) {}
static void fn_b(int *h, int *code, ...) {}

/* check's verdict and message (g_free'd); NULL message on success. */
static int check(int rank, MPI_Errhandler h, sim_errh_kind kind, char **msg) {
    *msg = NULL;
    return sim_errh_check(rank, h, kind, msg);
}

static void test_handlers(void) {
    sim_errh_init(2);
    MPI_Errhandler a = sim_errh_create(0, SIM_ERRH_COMM, fn_a);
    MPI_Errhandler w = sim_errh_create(0, SIM_ERRH_WIN, fn_b);
    MPI_Errhandler b = sim_errh_create(1, SIM_ERRH_COMM, fn_b);
    CU_ASSERT_EQUAL(a, SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_ERRHANDLER, 0));
    CU_ASSERT_EQUAL(w, SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_ERRHANDLER, 1));
    CU_ASSERT_EQUAL(b, a); /* rank 1's own table */
    CU_ASSERT_PTR_EQUAL(sim_errh_function(0, a), fn_a);
    CU_ASSERT_PTR_EQUAL(sim_errh_function(1, b), fn_b);
    CU_ASSERT_PTR_NULL(sim_errh_function(0, MPI_ERRORS_RETURN));
    CU_ASSERT_PTR_NULL(sim_errh_function(0, MPI_ERRORS_ARE_FATAL));

    char *msg;
    CU_ASSERT_EQUAL(check(0, a, SIM_ERRH_COMM, &msg), MPI_SUCCESS);
    CU_ASSERT_EQUAL(check(0, MPI_ERRORS_RETURN, SIM_ERRH_WIN, &msg), MPI_SUCCESS);
    CU_ASSERT_EQUAL(check(0, MPI_ERRORS_ABORT, SIM_ERRH_FILE, &msg), MPI_SUCCESS);
    CU_ASSERT_EQUAL(check(0, w, SIM_ERRH_COMM, &msg), MPI_ERR_ARG);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "was made for windows"));
    g_free(msg);
    CU_ASSERT_EQUAL(check(0, MPI_ERRHANDLER_NULL, SIM_ERRH_COMM, &msg), MPI_ERR_ARG);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "MPI_ERRHANDLER_NULL"));
    g_free(msg);
    CU_ASSERT_EQUAL(check(1, w, SIM_ERRH_WIN, &msg), MPI_ERR_ARG); /* not rank 1's */
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "not an error handler of this rank"));
    g_free(msg);

    /* The program holds the handle while it has references. */
    sim_errh_ref(0, a); /* as MPI_Comm_get_errhandler returned it */
    sim_errh_unref(0, a);
    CU_ASSERT_EQUAL(check(0, a, SIM_ERRH_COMM, &msg), MPI_SUCCESS);
    sim_errh_unref(0, a);
    CU_ASSERT_EQUAL(check(0, a, SIM_ERRH_COMM, &msg), MPI_ERR_ARG);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "was freed"));
    g_free(msg);
    /* ... while the communicators that keep it still call it. */
    CU_ASSERT_PTR_EQUAL(sim_errh_function(0, a), fn_a);
    /* Handles are never reused. */
    CU_ASSERT_EQUAL(sim_errh_create(0, SIM_ERRH_COMM, fn_a),
                    SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_ERRHANDLER, 2));
    sim_errh_fini();
}

static void test_file_default(void) {
    sim_errh_init(2);
    CU_ASSERT_EQUAL(sim_errh_file_default(0), MPI_ERRORS_RETURN);
    MPI_Errhandler f = sim_errh_create(0, SIM_ERRH_FILE, fn_a);
    sim_errh_set_file_default(0, f);
    CU_ASSERT_EQUAL(sim_errh_file_default(0), f);
    CU_ASSERT_EQUAL(sim_errh_file_default(1), MPI_ERRORS_RETURN);
    sim_errh_fini();
}

static void test_codes(void) {
    sim_errh_init(2);
    CU_ASSERT_EQUAL(sim_errcode_last_used(0), MPI_ERR_LASTCODE);
    int cls = sim_errcode_add_class(0);
    CU_ASSERT_EQUAL(cls, SIM_ERRCODE_FIRST);
    CU_ASSERT_TRUE(cls > MPI_ERR_LASTCODE);
    int code = 0;
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_errcode_add_code(0, cls, &code, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(code, SIM_ERRCODE_FIRST + 1);
    int pcode = 0;
    CU_ASSERT_EQUAL(sim_errcode_add_code(0, MPI_ERR_TAG, &pcode, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(sim_errcode_last_used(0), pcode);
    int c = -1;
    CU_ASSERT_TRUE(sim_errcode_class_of(0, code, &c));
    CU_ASSERT_EQUAL(c, cls);
    CU_ASSERT_TRUE(sim_errcode_class_of(0, cls, &c));
    CU_ASSERT_EQUAL(c, cls); /* a class is a code of itself */
    CU_ASSERT_TRUE(sim_errcode_class_of(0, pcode, &c));
    CU_ASSERT_EQUAL(c, MPI_ERR_TAG);
    CU_ASSERT_FALSE(sim_errcode_class_of(0, MPI_ERR_TAG, &c)); /* not added */
    CU_ASSERT_FALSE(sim_errcode_class_of(1, code, &c));        /* rank 1 added none */
    /* A code is no class: no code can be added to it. */
    CU_ASSERT_EQUAL(sim_errcode_add_code(0, code, &pcode, &why), MPI_ERR_ARG);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "is neither a predefined error class"));
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_errcode_add_code(0, 5000, &pcode, &why), MPI_ERR_ARG);
    g_free(why);
    why = NULL;

    CU_ASSERT_STRING_EQUAL(sim_errcode_string(0, code), "");
    CU_ASSERT_EQUAL(sim_errcode_set_string(0, code, "mine", &why), MPI_SUCCESS);
    CU_ASSERT_STRING_EQUAL(sim_errcode_string(0, code), "mine");
    CU_ASSERT_PTR_NULL(sim_errcode_string(0, MPI_ERR_TAG));
    CU_ASSERT_EQUAL(sim_errcode_set_string(0, MPI_ERR_TAG, "x", &why), MPI_ERR_ARG);
    g_free(why);
    why = NULL;
    char *longs = g_strnfill(MPI_MAX_ERROR_STRING, 'x');
    CU_ASSERT_EQUAL(sim_errcode_set_string(0, code, longs, &why), MPI_ERR_ARG);
    CU_ASSERT_STRING_EQUAL(sim_errcode_string(0, code), "mine");
    g_free(why);
    longs[MPI_MAX_ERROR_STRING - 1] = '\0'; /* the longest allowed */
    why = NULL;
    CU_ASSERT_EQUAL(sim_errcode_set_string(0, code, longs, &why), MPI_SUCCESS);
    g_free(longs);
    sim_errh_fini();
}

static void test_digest(void) {
    sim_errh_init(2);
    char *d0 = digest_of(sim_errh_digest_rank, 0), *d1 = digest_of(sim_errh_digest_rank, 1);
    CU_ASSERT_STRING_EQUAL(d0, d1);
    MPI_Errhandler a = sim_errh_create(0, SIM_ERRH_COMM, fn_a);
    char *d2 = digest_of(sim_errh_digest_rank, 0);
    CU_ASSERT_STRING_NOT_EQUAL(d0, d2);
    sim_errh_unref(0, a);
    char *d3 = digest_of(sim_errh_digest_rank, 0);
    CU_ASSERT_STRING_NOT_EQUAL(d2, d3);
    int cls = sim_errcode_add_class(1);
    char *d4 = digest_of(sim_errh_digest_rank, 1);
    char *why = NULL;
    sim_errcode_set_string(1, cls, "s", &why);
    char *d5 = digest_of(sim_errh_digest_rank, 1);
    CU_ASSERT_STRING_NOT_EQUAL(d1, d4);
    CU_ASSERT_STRING_NOT_EQUAL(d4, d5);
    sim_errh_set_file_default(1, MPI_ERRORS_ARE_FATAL);
    char *d6 = digest_of(sim_errh_digest_rank, 1);
    CU_ASSERT_STRING_NOT_EQUAL(d5, d6);
    g_free(d0);
    g_free(d1);
    g_free(d2);
    g_free(d3);
    g_free(d4);
    g_free(d5);
    g_free(d6);
    sim_errh_fini();
}

int main(void) {
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("errhandler", NULL, NULL);
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
        {"handlers: per rank, kinds, references", test_handlers},
        {"the handler of MPI_FILE_NULL", test_file_default},
        {"added classes, codes and strings", test_codes},
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
