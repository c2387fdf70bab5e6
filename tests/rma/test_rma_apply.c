/*
 * test_rma_apply.c - unit tests of the data movement of RMA operations
 * (simulator/rma_apply.c): put and get with derived datatypes on either
 * side, accumulates with every kind of predefined op (MPI_REPLACE and
 * MPI_NO_OP included), get_accumulate, fetch_and_op, compare_and_swap, the
 * byte span of a target access, and the checks that refuse what MPI 3.1
 * section 11.3 does not allow.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/datatype.h"
#include "simulator/op.h"
#include "simulator/rma_apply.h"

static sim_rma_xfer xfer(sim_rma_kind kind, void *origin, int ocount, MPI_Datatype otype,
                         void *target, int tcount, MPI_Datatype ttype, MPI_Op op) {
    sim_rma_xfer x = {0};
    x.kind = kind;
    x.origin = origin;
    x.ocount = ocount;
    x.otype = otype;
    x.target = target;
    x.tcount = tcount;
    x.ttype = ttype;
    x.op = op;
    return x;
}

/* Checks and applies x, asserting both succeed. */
static void run_ok(const sim_rma_xfer *x) {
    char *why = NULL;
    int rc = sim_rma_check(x, &why);
    if (rc != MPI_SUCCESS)
        fprintf(stderr, "check failed: %s\n", why ? why : "?");
    CU_ASSERT_EQUAL_FATAL(rc, MPI_SUCCESS);
    rc = sim_rma_apply(x, &why);
    if (rc != MPI_SUCCESS)
        fprintf(stderr, "apply failed: %s\n", why ? why : "?");
    CU_ASSERT_EQUAL(rc, MPI_SUCCESS);
    g_free(why);
}

/* Asserts that the check refuses x with errclass and a message holding text. */
static void check_refuses(const sim_rma_xfer *x, int errclass, const char *text) {
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_rma_check(x, &why), errclass);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    if (!strstr(why, text))
        fprintf(stderr, "message lacks '%s': %s\n", text, why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, text));
    g_free(why);
}

/* Asserts that a constructor succeeded, and commits its type. */
#define MADE(call, t)                                                                              \
    do {                                                                                           \
        char *why_ = NULL;                                                                         \
        CU_ASSERT_EQUAL_FATAL((call), MPI_SUCCESS);                                                \
        CU_ASSERT_EQUAL_FATAL(sim_dt_commit(0, (t), &why_), MPI_SUCCESS);                          \
    } while (0)

static void test_put_get_contiguous(void) {
    int src[4] = {1, 2, 3, 4}, dst[6] = {0};
    sim_rma_xfer x = xfer(SIM_RMA_PUT, src, 4, MPI_INT, dst + 1, 4, MPI_INT, MPI_OP_NULL);
    run_ok(&x);
    int want[6] = {0, 1, 2, 3, 4, 0};
    CU_ASSERT_EQUAL(memcmp(dst, want, sizeof want), 0);
    /* A shorter origin fills the front of the target only, as a message. */
    int two[2] = {9, 8};
    x = xfer(SIM_RMA_PUT, two, 2, MPI_INT, dst, 4, MPI_INT, MPI_OP_NULL);
    run_ok(&x);
    CU_ASSERT(dst[0] == 9 && dst[1] == 8 && dst[2] == 2);
    int got[3] = {0};
    x = xfer(SIM_RMA_GET, got, 3, MPI_INT, dst + 2, 3, MPI_INT, MPI_OP_NULL);
    run_ok(&x);
    CU_ASSERT(got[0] == 2 && got[1] == 3 && got[2] == 4);
}

static void test_put_get_derived(void) {
    char *why = NULL;
    MPI_Datatype vec, col;
    /* every other int, 3 of them */
    MADE(sim_dt_create_vector(0, 3, 1, 2, MPI_INT, &vec, &why), vec);
    /* a column of a 3x3 matrix of doubles: one at a stride of 3 */
    MADE(sim_dt_create_vector(0, 3, 1, 3, MPI_DOUBLE, &col, &why), col);
    int src[3] = {7, 8, 9}, dst[6] = {0};
    sim_rma_xfer x = xfer(SIM_RMA_PUT, src, 3, MPI_INT, dst, 1, vec, MPI_OP_NULL);
    run_ok(&x);
    int want[6] = {7, 0, 8, 0, 9, 0};
    CU_ASSERT_EQUAL(memcmp(dst, want, sizeof want), 0);
    /* origin strided, target contiguous: gather into a row */
    int row[3] = {0};
    x = xfer(SIM_RMA_PUT, dst, 1, vec, row, 3, MPI_INT, MPI_OP_NULL);
    run_ok(&x);
    CU_ASSERT(row[0] == 7 && row[1] == 8 && row[2] == 9);
    /* get a matrix column into a contiguous buffer */
    double m[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, c[3] = {0};
    x = xfer(SIM_RMA_GET, c, 3, MPI_DOUBLE, m + 1, 1, col, MPI_OP_NULL);
    run_ok(&x);
    CU_ASSERT(c[0] == 2 && c[1] == 5 && c[2] == 8);
    /* and put it back doubled into column 2 */
    for (int i = 0; i < 3; i++)
        c[i] *= 2;
    x = xfer(SIM_RMA_PUT, c, 3, MPI_DOUBLE, m + 2, 1, col, MPI_OP_NULL);
    run_ok(&x);
    CU_ASSERT(m[2] == 4 && m[5] == 10 && m[8] == 16 && m[1] == 2);
    sim_dt_free(0, vec, &why);
    sim_dt_free(0, col, &why);
}

static void test_accumulate_ops(void) {
    struct {
        MPI_Op op;
        long in, io, want;
    } cases[] = {
        {MPI_SUM, 5, 7, 12}, {MPI_PROD, 5, 7, 35}, {MPI_MAX, 5, 7, 7},     {MPI_MIN, 5, 7, 5},
        {MPI_BAND, 6, 3, 2}, {MPI_BOR, 6, 3, 7},   {MPI_BXOR, 6, 3, 5},    {MPI_LAND, 2, 0, 0},
        {MPI_LOR, 2, 0, 1},  {MPI_LXOR, 2, 3, 0},  {MPI_REPLACE, 5, 7, 5},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        long in[2] = {cases[i].in, cases[i].in}, io[2] = {cases[i].io, cases[i].io};
        sim_rma_xfer x = xfer(SIM_RMA_ACC, in, 2, MPI_LONG, io, 2, MPI_LONG, cases[i].op);
        run_ok(&x);
        CU_ASSERT_EQUAL(io[0], cases[i].want);
        CU_ASSERT_EQUAL(io[1], cases[i].want);
    }
    double din = 1.5, dio = 2.25;
    sim_rma_xfer x = xfer(SIM_RMA_ACC, &din, 1, MPI_DOUBLE, &dio, 1, MPI_DOUBLE, MPI_SUM);
    run_ok(&x);
    CU_ASSERT_DOUBLE_EQUAL(dio, 3.75, 0);
    /* MAXLOC on value-index pairs */
    struct {
        int v, i;
    } pin = {9, 2}, pio = {4, 7};
    x = xfer(SIM_RMA_ACC, &pin, 1, MPI_2INT, &pio, 1, MPI_2INT, MPI_MAXLOC);
    run_ok(&x);
    CU_ASSERT(pio.v == 9 && pio.i == 2);
}

static void test_accumulate_derived(void) {
    char *why = NULL;
    MPI_Datatype vec;
    MADE(sim_dt_create_vector(0, 2, 1, 3, MPI_INT, &vec, &why), vec);
    int in[2] = {10, 20}, io[4] = {1, 2, 3, 4};
    sim_rma_xfer x = xfer(SIM_RMA_ACC, in, 2, MPI_INT, io, 1, vec, MPI_SUM);
    run_ok(&x);
    CU_ASSERT(io[0] == 11 && io[1] == 2 && io[2] == 3 && io[3] == 24);
    sim_dt_free(0, vec, &why);
}

static void test_get_accumulate(void) {
    int in[2] = {3, 4}, io[2] = {10, 20}, res[2] = {0};
    sim_rma_xfer x = xfer(SIM_RMA_GET_ACC, in, 2, MPI_INT, io, 2, MPI_INT, MPI_SUM);
    x.result = res;
    x.rcount = 2;
    x.rtype = MPI_INT;
    run_ok(&x);
    CU_ASSERT(res[0] == 10 && res[1] == 20 && io[0] == 13 && io[1] == 24);
    /* MPI_NO_OP: a fetch, the origin is ignored (even NULL) */
    x = xfer(SIM_RMA_GET_ACC, NULL, 0, MPI_DATATYPE_NULL, io, 2, MPI_INT, MPI_NO_OP);
    x.result = res;
    x.rcount = 2;
    x.rtype = MPI_INT;
    run_ok(&x);
    CU_ASSERT(res[0] == 13 && res[1] == 24 && io[0] == 13);
}

static void test_fetch_and_op(void) {
    long counter = 41, one = 1, old = 0;
    sim_rma_xfer x = xfer(SIM_RMA_FOP, &one, 1, MPI_LONG, &counter, 1, MPI_LONG, MPI_SUM);
    x.result = &old;
    x.rcount = 1;
    x.rtype = MPI_LONG;
    run_ok(&x);
    CU_ASSERT(old == 41 && counter == 42);
    x.op = MPI_NO_OP;
    x.origin = NULL;
    run_ok(&x);
    CU_ASSERT(old == 42 && counter == 42);
    double d = 1.0, two = 2.0, dold = 0;
    x = xfer(SIM_RMA_FOP, &two, 1, MPI_DOUBLE, &d, 1, MPI_DOUBLE, MPI_PROD);
    x.result = &dold;
    run_ok(&x);
    CU_ASSERT(dold == 1.0 && d == 2.0);
}

static void test_compare_and_swap(void) {
    int target = 5, newv = 9, cmp = 5, old = -1;
    sim_rma_xfer x = xfer(SIM_RMA_CAS, &newv, 1, MPI_INT, &target, 1, MPI_INT, MPI_OP_NULL);
    x.compare = &cmp;
    x.result = &old;
    run_ok(&x);
    CU_ASSERT(old == 5 && target == 9);
    cmp = 5; /* no longer equal: nothing swapped */
    newv = 1;
    run_ok(&x);
    CU_ASSERT(old == 9 && target == 9);
}

static void test_span(void) {
    char *why = NULL;
    MPI_Aint lo, hi;
    CU_ASSERT_TRUE(sim_rma_span(sim_dt_get(MPI_INT), 4, &lo, &hi));
    CU_ASSERT(lo == 0 && hi == 16);
    CU_ASSERT_FALSE(sim_rma_span(sim_dt_get(MPI_INT), 0, &lo, &hi));
    MPI_Datatype vec;
    MADE(sim_dt_create_vector(0, 3, 1, 4, MPI_DOUBLE, &vec, &why), vec);
    CU_ASSERT_TRUE(sim_rma_span(sim_dt_get(vec), 1, &lo, &hi));
    CU_ASSERT(lo == 0 && hi == 9 * 8); /* elements 0, 4, 8 */
    CU_ASSERT_TRUE(sim_rma_span(sim_dt_get(vec), 2, &lo, &hi));
    CU_ASSERT(lo == 0 && hi == 9 * 8 + 9 * 8); /* the second starts at the extent */
    MPI_Datatype shifted;
    MADE(sim_dt_create_resized(0, MPI_INT, -4, 4, &shifted, &why), shifted);
    CU_ASSERT_TRUE(sim_rma_span(sim_dt_get(shifted), 2, &lo, &hi));
    CU_ASSERT(lo == 0 && hi == 8); /* true bounds: the data, not the markers */
    sim_dt_free(0, vec, &why);
    sim_dt_free(0, shifted, &why);
}

static void test_element_type(void) {
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_rma_element_type(MPI_INT), MPI_INT);
    CU_ASSERT_EQUAL(sim_rma_element_type(MPI_2INT), MPI_INT);
    CU_ASSERT_EQUAL(sim_rma_element_type(MPI_DOUBLE_INT), MPI_DOUBLE_INT);
    MPI_Datatype st;
    int bl[2] = {1, 1};
    MPI_Aint dis[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    MADE(sim_dt_create_struct(0, 2, bl, dis, ty, &st, &why), st);
    CU_ASSERT_EQUAL(sim_rma_element_type(st), MPI_DATATYPE_NULL);
    sim_dt_free(0, st, &why);
}

static void test_refusals(void) {
    int a[4] = {0}, b[4] = {0};
    sim_rma_xfer x = xfer(SIM_RMA_PUT, a, 4, MPI_INT, b, 2, MPI_INT, MPI_OP_NULL);
    check_refuses(&x, MPI_ERR_TRUNCATE, "does not fit");
    x = xfer(SIM_RMA_GET, a, 1, MPI_INT, b, 2, MPI_INT, MPI_OP_NULL);
    check_refuses(&x, MPI_ERR_TRUNCATE, "does not fit");
    x = xfer(SIM_RMA_PUT, a, 2, MPI_INT, b, 2, MPI_FLOAT, MPI_OP_NULL);
    check_refuses(&x, MPI_ERR_TYPE, "do not match");
    /* MPI_BYTE matches anything, as in messages */
    x = xfer(SIM_RMA_PUT, a, 8, MPI_BYTE, b, 2, MPI_INT, MPI_OP_NULL);
    run_ok(&x);
    /* accumulates: predefined ops only, defined for the type, one basic type */
    MPI_Op user = sim_op_create((MPI_User_function *)(void *)test_refusals, true);
    x = xfer(SIM_RMA_ACC, a, 1, MPI_INT, b, 1, MPI_INT, user);
    check_refuses(&x, MPI_ERR_OP, "user-defined");
    sim_op_free(user);
    x = xfer(SIM_RMA_ACC, a, 1, MPI_INT, b, 1, MPI_INT, MPI_NO_OP);
    check_refuses(&x, MPI_ERR_OP, "MPI_NO_OP");
    double d = 0;
    x = xfer(SIM_RMA_ACC, &d, 1, MPI_DOUBLE, &d, 1, MPI_DOUBLE, MPI_BAND);
    check_refuses(&x, MPI_ERR_OP, "MPI_BAND");
    x = xfer(SIM_RMA_ACC, a, 2, MPI_INT, b, 1, MPI_LONG, MPI_SUM);
    check_refuses(&x, MPI_ERR_TYPE, "same predefined type");
    x = xfer(SIM_RMA_ACC, a, 3, MPI_INT, b, 2, MPI_INT, MPI_SUM);
    check_refuses(&x, MPI_ERR_TRUNCATE, "does not fit");
    x = xfer(SIM_RMA_ACC, a, 1, MPI_INT, b, 1, MPI_INT, MPI_OP_NULL);
    check_refuses(&x, MPI_ERR_OP, "MPI_OP_NULL");
    /* fetch_and_op and compare_and_swap take one predefined element */
    char *why = NULL;
    MPI_Datatype pair;
    MADE(sim_dt_create_contiguous(0, 2, MPI_INT, &pair, &why), pair);
    x = xfer(SIM_RMA_FOP, a, 1, pair, b, 1, pair, MPI_SUM);
    check_refuses(&x, MPI_ERR_TYPE, "predefined");
    x = xfer(SIM_RMA_CAS, &d, 1, MPI_DOUBLE, &d, 1, MPI_DOUBLE, MPI_OP_NULL);
    check_refuses(&x, MPI_ERR_TYPE, "integer, logical or byte");
    sim_dt_free(0, pair, &why);
}

int main(void) {
    sim_dt_init();
    sim_op_init();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("rma_apply", NULL, NULL);
    CU_add_test(s, "put and get, contiguous", test_put_get_contiguous);
    CU_add_test(s, "put and get, derived datatypes", test_put_get_derived);
    CU_add_test(s, "accumulate with every kind of op", test_accumulate_ops);
    CU_add_test(s, "accumulate into a derived target", test_accumulate_derived);
    CU_add_test(s, "get_accumulate", test_get_accumulate);
    CU_add_test(s, "fetch_and_op", test_fetch_and_op);
    CU_add_test(s, "compare_and_swap", test_compare_and_swap);
    CU_add_test(s, "span of a target access", test_span);
    CU_add_test(s, "element type of accumulates", test_element_type);
    CU_add_test(s, "what the checks refuse", test_refusals);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    sim_op_fini();
    sim_dt_fini();
    return failed ? 1 : 0;
}
