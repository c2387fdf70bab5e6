/*
 * test_envelope.c - unit tests of simulator/typeenvelope.c: the records
 * behind MPI_Type_get_envelope/get_contents (MPI 3.1 section 4.1.13), the
 * types of MPI_Type_create_f90_* and MPI_Type_match_size (section
 * 17.2.5).
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <string.h>

#include "simulator/datatype.h"
#include "simulator/handle.h"

#define R0 0
#define R1 1
#define OK(call) CU_ASSERT_EQUAL_FATAL((call), MPI_SUCCESS)

static const sim_datatype *get(MPI_Datatype t) {
    const sim_datatype *dt = sim_dt_get(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dt);
    return dt;
}

static void expect_envelope(MPI_Datatype t, int ni, int na, int nd, int comb) {
    int i, a, d, c;
    sim_dt_envelope(get(t), &i, &a, &d, &c);
    CU_ASSERT_EQUAL(i, ni);
    CU_ASSERT_EQUAL(a, na);
    CU_ASSERT_EQUAL(d, nd);
    CU_ASSERT_EQUAL(c, comb);
}

static void setup_test(void) {
    sim_dt_init();
}

static void teardown_test(void) {
    sim_dt_fini();
}

static void test_named(void) {
    expect_envelope(MPI_INT, 0, 0, 0, MPI_COMBINER_NAMED);
    expect_envelope(MPI_2INT, 0, 0, 0, MPI_COMBINER_NAMED);
    int ints[1];
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_dt_contents(R0, get(MPI_INT), 1, ints, 0, NULL, 0, NULL, NULL, &why),
                    MPI_ERR_TYPE);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "named predefined type"));
    g_free(why);
}

/* Every constructor records its arguments in the standard's order. */
static void test_constructors(void) {
    MPI_Datatype v, st, sub;
    OK(sim_dt_create_vector(R0, 4, 2, -3, MPI_INT, &v, NULL));
    expect_envelope(v, 3, 0, 1, MPI_COMBINER_VECTOR);
    int ints[16];
    MPI_Aint aints[4];
    MPI_Datatype types[4];
    bool fresh[4];
    OK(sim_dt_contents(R0, get(v), 3, ints, 0, aints, 1, types, fresh, NULL));
    CU_ASSERT(ints[0] == 4 && ints[1] == 2 && ints[2] == -3);
    CU_ASSERT(types[0] == MPI_INT && !fresh[0]);

    int bl[2] = {1, 3};
    MPI_Aint dis[2] = {16, 0};
    MPI_Datatype ty[2] = {v, MPI_UB};
    OK(sim_dt_create_struct(R0, 2, bl, dis, ty, &st, NULL));
    expect_envelope(st, 3, 2, 2, MPI_COMBINER_STRUCT);
    OK(sim_dt_contents(R0, get(st), 3, ints, 2, aints, 2, types, fresh, NULL));
    CU_ASSERT(ints[0] == 2 && ints[1] == 1 && ints[2] == 3);
    CU_ASSERT(aints[0] == 16 && aints[1] == 0);
    /* v is derived: a new type of R0, equivalent to it; the marker stays. */
    CU_ASSERT(fresh[0] && types[0] != v && !fresh[1] && types[1] == MPI_UB);
    expect_envelope(types[0], 3, 0, 1, MPI_COMBINER_VECTOR);
    CU_ASSERT_EQUAL(sim_dt_size(get(types[0])), sim_dt_size(get(v)));
    CU_ASSERT_EQUAL(sim_dt_extent(get(types[0])), sim_dt_extent(get(v)));
    CU_ASSERT_EQUAL(sim_dt_free(R1, types[0], NULL), MPI_ERR_TYPE); /* R0's */
    OK(sim_dt_free(R0, types[0], NULL));

    /* Arrays shorter than the envelope are refused. */
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_dt_contents(R0, get(st), 2, ints, 2, aints, 2, types, fresh, &why),
                    MPI_ERR_ARG);
    g_free(why);

    int sizes[2] = {4, 5}, subs[2] = {2, 2}, starts[2] = {1, 3};
    OK(sim_dt_create_subarray(R0, 2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_SHORT, &sub,
                              NULL));
    expect_envelope(sub, 8, 0, 1, MPI_COMBINER_SUBARRAY);
    OK(sim_dt_contents(R0, get(sub), 8, ints, 0, aints, 1, types, fresh, NULL));
    int want[] = {2, 4, 5, 2, 2, 1, 3, MPI_ORDER_FORTRAN};
    CU_ASSERT(memcmp(ints, want, sizeof want) == 0 && types[0] == MPI_SHORT);
}

/* The record keeps the old types alive past MPI_Type_free; the handle is
 * handed out again only once nothing refers to the type. */
static void test_outlives_free(void) {
    MPI_Datatype c, r, again;
    OK(sim_dt_create_contiguous(R0, 3, MPI_DOUBLE, &c, NULL));
    OK(sim_dt_create_resized(R0, c, 0, 64, &r, NULL));
    OK(sim_dt_free(R0, c, NULL));
    CU_ASSERT_PTR_NULL(sim_dt_lookup(c, R0, "t", NULL)); /* invalid for the program */
    int ints[1];
    MPI_Aint aints[2];
    MPI_Datatype types[1];
    bool fresh[1];
    OK(sim_dt_contents(R0, get(r), 0, ints, 2, aints, 1, types, fresh, NULL));
    CU_ASSERT(aints[0] == 0 && aints[1] == 64 && fresh[0]);
    expect_envelope(types[0], 1, 0, 1, MPI_COMBINER_CONTIGUOUS);
    CU_ASSERT_EQUAL(sim_dt_size(get(types[0])), 3 * sizeof(double));
    OK(sim_dt_free(R0, types[0], NULL));
    OK(sim_dt_free(R0, r, NULL));
    /* Nothing refers to c any more: its handle is free again. */
    OK(sim_dt_create_contiguous(R0, 1, MPI_INT, &again, NULL));
    CU_ASSERT_EQUAL(again, c);
}

/* Subarrays keep no intermediate types: handles are as before records. */
static void test_subarray_handles(void) {
    int sizes[3] = {4, 5, 6}, subs[3] = {2, 2, 2}, starts[3] = {0, 1, 2};
    MPI_Datatype sub, next;
    OK(sim_dt_create_subarray(R0, 3, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &sub, NULL));
    OK(sim_dt_create_contiguous(R0, 1, MPI_INT, &next, NULL));
    CU_ASSERT_EQUAL(SIM_HANDLE_INDEX((unsigned)next), SIM_DT_FIRST_DERIVED_INDEX);
}

static void test_f90(void) {
    MPI_Datatype a, b, r, c;
    char *why = NULL;
    OK(sim_dt_f90(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 5, &a, NULL));
    OK(sim_dt_f90(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 5, &b, NULL));
    CU_ASSERT_EQUAL(a, b); /* the same type for the same arguments */
    CU_ASSERT_EQUAL(sim_dt_size(get(a)), 4);
    CU_ASSERT(sim_dt_is_predefined(a));
    expect_envelope(a, 1, 0, 0, MPI_COMBINER_F90_INTEGER);
    int ints[2];
    OK(sim_dt_contents(R0, get(a), 2, ints, 0, NULL, 0, NULL, NULL, NULL));
    CU_ASSERT_EQUAL(ints[0], 5);
    CU_ASSERT_EQUAL(sim_dt_free(R0, a, &why), MPI_ERR_TYPE);
    g_free(why);
    OK(sim_dt_f90(MPI_COMBINER_F90_REAL, 16, MPI_UNDEFINED, &r, NULL));
    CU_ASSERT_EQUAL(sim_dt_size(get(r)), 16);
    OK(sim_dt_f90(MPI_COMBINER_F90_COMPLEX, MPI_UNDEFINED, 38, &c, NULL));
    CU_ASSERT_EQUAL(sim_dt_size(get(c)), 16); /* two REAL8 */
    expect_envelope(c, 2, 0, 0, MPI_COMBINER_F90_COMPLEX);
    OK(sim_dt_contents(R0, get(c), 2, ints, 0, NULL, 0, NULL, NULL, NULL));
    CU_ASSERT(ints[0] == MPI_UNDEFINED && ints[1] == 38);
    CU_ASSERT_EQUAL(sim_dt_f90(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 19, &a, &why), MPI_ERR_ARG);
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_dt_f90(MPI_COMBINER_F90_REAL, 34, MPI_UNDEFINED, &a, &why), MPI_ERR_ARG);
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_dt_f90(MPI_COMBINER_F90_REAL, MPI_UNDEFINED, MPI_UNDEFINED, &a, &why),
                    MPI_ERR_ARG);
    g_free(why);
}

static void test_match_size(void) {
    MPI_Datatype t;
    OK(sim_dt_match_size(MPI_TYPECLASS_REAL, 8, &t, NULL));
    CU_ASSERT_EQUAL(t, MPI_DOUBLE);
    OK(sim_dt_match_size(MPI_TYPECLASS_INTEGER, 2, &t, NULL));
    CU_ASSERT_EQUAL(t, MPI_SHORT);
    OK(sim_dt_match_size(MPI_TYPECLASS_COMPLEX, 8, &t, NULL));
    CU_ASSERT_EQUAL(t, MPI_C_FLOAT_COMPLEX);
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_dt_match_size(MPI_TYPECLASS_REAL, 2, &t, &why), MPI_ERR_ARG);
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_dt_match_size(7, 4, &t, &why), MPI_ERR_ARG);
    g_free(why);
}

int main(void) {
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
        {"named types", test_named},
        {"constructors record their arguments", test_constructors},
        {"contents outlive MPI_Type_free", test_outlives_free},
        {"subarray handles", test_subarray_handles},
        {"f90 types", test_f90},
        {"match_size", test_match_size},
    };
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite =
        CU_add_suite_with_setup_and_teardown("envelope", NULL, NULL, setup_test, teardown_test);
    if (!suite) {
        CU_cleanup_registry();
        return 2;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(tests); i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn)) {
            CU_cleanup_registry();
            return 2;
        }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed == 0 ? 0 : 1;
}
