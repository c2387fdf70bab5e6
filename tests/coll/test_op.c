/*
 * test_op.c - unit tests of the reduction operations (simulator/op.c):
 * results of every predefined op on its type classes, the type classes
 * MPI 3.1 section 5.9.2 excludes, MAXLOC/MINLOC with the lower-index tie
 * rule, derived datatypes, and user operations.
 */
#include <CUnit/Basic.h>
#include <complex.h>
#include <glib.h>
#include <limits.h>
#include <mpi.h>
#include <string.h>

#include "simulator/datatype.h"
#include "simulator/op.h"

/* Applies op and asserts success. */
#define APPLY_OK(op, in, io, n, type)                                                              \
    do {                                                                                           \
        char *why_ = NULL;                                                                         \
        int rc_ = sim_op_apply((op), (in), (io), (n), (type), &why_);                              \
        if (rc_ != MPI_SUCCESS)                                                                    \
            fprintf(stderr, "unexpected failure: %s\n", why_ ? why_ : "?");                        \
        CU_ASSERT_EQUAL(rc_, MPI_SUCCESS);                                                         \
        g_free(why_);                                                                              \
    } while (0)

/* Asserts that op is undefined for type, and that the message names both. */
static void expect_op_error(MPI_Op op, MPI_Datatype type, const char *opname, const char *tname) {
    char in[64] = {0}, io[64] = {0};
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_op_apply(op, in, io, 1, type, &why), MPI_ERR_OP);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, opname));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, tname));
    g_free(why);
    why = NULL;
    CU_ASSERT_FALSE(sim_op_defined_for(op, type, &why));
    CU_ASSERT_PTR_NOT_NULL(why);
    g_free(why);
}

static void test_handles(void) {
    MPI_Op ops[] = {MPI_MAX,  MPI_MIN, MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_LOR,     MPI_LXOR,
                    MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        CU_ASSERT_TRUE(sim_op_valid(ops[i]));
        CU_ASSERT_TRUE(sim_op_commutative(ops[i]));
    }
    CU_ASSERT_STRING_EQUAL(sim_op_name(MPI_SUM), "MPI_SUM");
    CU_ASSERT_STRING_EQUAL(sim_op_name(MPI_MAXLOC), "MPI_MAXLOC");
    CU_ASSERT_STRING_EQUAL(sim_op_name(MPI_NO_OP), "MPI_NO_OP");
    CU_ASSERT_FALSE(sim_op_valid(MPI_OP_NULL));
    CU_ASSERT_FALSE(sim_op_valid((MPI_Op)0x5800000f));
    CU_ASSERT_FALSE(sim_op_valid((MPI_Op)0x98000000)); /* no user op yet */
    CU_ASSERT_FALSE(sim_op_valid(MPI_COMM_WORLD));
    CU_ASSERT_STRING_EQUAL(sim_op_name(MPI_OP_NULL), "MPI_OP_NULL");
    CU_ASSERT_TRUE(sim_op_rma_only(MPI_REPLACE));
    CU_ASSERT_TRUE(sim_op_rma_only(MPI_NO_OP));
    CU_ASSERT_FALSE(sim_op_rma_only(MPI_SUM));
    CU_ASSERT_FALSE(sim_op_free(MPI_SUM));
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_op_apply(MPI_OP_NULL, &why, &why, 1, MPI_INT, &why), MPI_ERR_OP);
    g_free(why);
}

static void test_arith_int(void) {
    int in[4] = {1, -7, 5, INT_MAX}, io[4] = {3, 2, 5, 1};
    APPLY_OK(MPI_SUM, in, io, 4, MPI_INT);
    CU_ASSERT_EQUAL(io[0], 4);
    CU_ASSERT_EQUAL(io[1], -5);
    CU_ASSERT_EQUAL(io[2], 10);
    CU_ASSERT_EQUAL(io[3], INT_MIN); /* wraps like every MPI implementation */

    int a[3] = {2, -3, 4}, b[3] = {5, 6, -7};
    APPLY_OK(MPI_PROD, a, b, 3, MPI_INT);
    CU_ASSERT_EQUAL(b[0], 10);
    CU_ASSERT_EQUAL(b[1], -18);
    CU_ASSERT_EQUAL(b[2], -28);

    int mx_in[3] = {1, 9, -4}, mx_io[3] = {2, 3, -5};
    int mn_in[3] = {1, 9, -4}, mn_io[3] = {2, 3, -5};
    APPLY_OK(MPI_MAX, mx_in, mx_io, 3, MPI_INT);
    APPLY_OK(MPI_MIN, mn_in, mn_io, 3, MPI_INT);
    CU_ASSERT(mx_io[0] == 2 && mx_io[1] == 9 && mx_io[2] == -4);
    CU_ASSERT(mn_io[0] == 1 && mn_io[1] == 3 && mn_io[2] == -5);

    unsigned u_in[2] = {UINT_MAX, 7}, u_io[2] = {2, 8};
    APPLY_OK(MPI_SUM, u_in, u_io, 2, MPI_UNSIGNED);
    CU_ASSERT_EQUAL(u_io[0], 1u);
    CU_ASSERT_EQUAL(u_io[1], 15u);

    int64_t l_in = INT64_C(1) << 40, l_io = 3;
    APPLY_OK(MPI_PROD, &l_in, &l_io, 1, MPI_INT64_T);
    CU_ASSERT_EQUAL(l_io, INT64_C(3) << 40);

    signed char c_in = -3, c_io = 100;
    APPLY_OK(MPI_MIN, &c_in, &c_io, 1, MPI_SIGNED_CHAR);
    CU_ASSERT_EQUAL(c_io, -3);

    /* Fortran and multi-language integer types take the arithmetic ops. */
    int f_in = 4, f_io = 5;
    APPLY_OK(MPI_SUM, &f_in, &f_io, 1, MPI_INTEGER);
    CU_ASSERT_EQUAL(f_io, 9);
    MPI_Aint ai_in = 40, ai_io = 2;
    APPLY_OK(MPI_MAX, &ai_in, &ai_io, 1, MPI_AINT);
    CU_ASSERT_EQUAL(ai_io, 40);
}

static void test_arith_float_complex(void) {
    double d_in[3] = {1.5, -2.0, 0.25}, d_io[3] = {2.25, 3.0, 4.0};
    APPLY_OK(MPI_SUM, d_in, d_io, 3, MPI_DOUBLE);
    CU_ASSERT_DOUBLE_EQUAL(d_io[0], 3.75, 0);
    CU_ASSERT_DOUBLE_EQUAL(d_io[1], 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(d_io[2], 4.25, 0);

    float f_in[2] = {1.5f, -8.0f}, f_io[2] = {-1.0f, 2.0f};
    APPLY_OK(MPI_MAX, f_in, f_io, 2, MPI_FLOAT);
    CU_ASSERT(f_io[0] == 1.5f && f_io[1] == 2.0f);

    long double ld_in = 3.0L, ld_io = 0.5L;
    APPLY_OK(MPI_PROD, &ld_in, &ld_io, 1, MPI_LONG_DOUBLE);
    CU_ASSERT(ld_io == 1.5L);

    double complex z_in = 1.0 + 2.0 * I, z_io = 3.0 - 1.0 * I;
    APPLY_OK(MPI_PROD, &z_in, &z_io, 1, MPI_C_DOUBLE_COMPLEX);
    CU_ASSERT_DOUBLE_EQUAL(creal(z_io), 5.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(cimag(z_io), 5.0, 0);
    float complex c_in = 1.0f + 1.0f * I, c_io = 2.0f;
    APPLY_OK(MPI_SUM, &c_in, &c_io, 1, MPI_C_FLOAT_COMPLEX);
    CU_ASSERT(crealf(c_io) == 3.0f && cimagf(c_io) == 1.0f);
}

static void test_logical_bitwise(void) {
    int in[4] = {0, 0, 5, 7}, io_and[4] = {0, 3, 0, -1};
    int io_or[4], io_xor[4];
    memcpy(io_or, io_and, sizeof io_and);
    memcpy(io_xor, io_and, sizeof io_and);
    APPLY_OK(MPI_LAND, in, io_and, 4, MPI_INT);
    APPLY_OK(MPI_LOR, in, io_or, 4, MPI_INT);
    APPLY_OK(MPI_LXOR, in, io_xor, 4, MPI_INT);
    int e_and[4] = {0, 0, 0, 1}, e_or[4] = {0, 1, 1, 1}, e_xor[4] = {0, 1, 1, 0};
    CU_ASSERT_EQUAL(memcmp(io_and, e_and, sizeof e_and), 0);
    CU_ASSERT_EQUAL(memcmp(io_or, e_or, sizeof e_or), 0);
    CU_ASSERT_EQUAL(memcmp(io_xor, e_xor, sizeof e_xor), 0);

    _Bool b_in[2] = {1, 0}, b_io[2] = {1, 1};
    APPLY_OK(MPI_LAND, b_in, b_io, 2, MPI_C_BOOL);
    CU_ASSERT(b_io[0] == 1 && b_io[1] == 0);
    int lg_in = 1, lg_io = 0; /* Fortran LOGICAL */
    APPLY_OK(MPI_LOR, &lg_in, &lg_io, 1, MPI_LOGICAL);
    CU_ASSERT_EQUAL(lg_io, 1);

    unsigned char y_in[3] = {0xf0, 0x0f, 0xaa}, y_io[3] = {0xff, 0xff, 0x0f};
    APPLY_OK(MPI_BAND, y_in, y_io, 3, MPI_BYTE);
    CU_ASSERT(y_io[0] == 0xf0 && y_io[1] == 0x0f && y_io[2] == 0x0a);
    unsigned u_in = 0x00ff00ffu, u_io = 0x0f0f0f0fu, x_io = 0x0f0f0f0fu;
    APPLY_OK(MPI_BOR, &u_in, &u_io, 1, MPI_UNSIGNED);
    APPLY_OK(MPI_BXOR, &u_in, &x_io, 1, MPI_UNSIGNED);
    CU_ASSERT_EQUAL(u_io, 0x0fff0fffu);
    CU_ASSERT_EQUAL(x_io, 0x0ff00ff0u);
}

static void test_type_classes(void) {
    expect_op_error(MPI_BAND, MPI_DOUBLE, "MPI_BAND", "MPI_DOUBLE");
    expect_op_error(MPI_BXOR, MPI_FLOAT, "MPI_BXOR", "MPI_FLOAT");
    expect_op_error(MPI_SUM, MPI_CHAR, "MPI_SUM", "MPI_CHAR"); /* MPI_CHAR is text, no class */
    expect_op_error(MPI_LAND, MPI_DOUBLE, "MPI_LAND", "MPI_DOUBLE");
    expect_op_error(MPI_LAND, MPI_INTEGER, "MPI_LAND", "MPI_INTEGER"); /* Fortran integer */
    expect_op_error(MPI_BAND, MPI_LOGICAL, "MPI_BAND", "MPI_LOGICAL");
    expect_op_error(MPI_SUM, MPI_C_BOOL, "MPI_SUM", "MPI_C_BOOL");
    expect_op_error(MPI_MAX, MPI_C_DOUBLE_COMPLEX, "MPI_MAX", "MPI_C_DOUBLE_COMPLEX");
    expect_op_error(MPI_SUM, MPI_BYTE, "MPI_SUM", "MPI_BYTE");
    expect_op_error(MPI_MAXLOC, MPI_INT, "MPI_MAXLOC", "MPI_INT");
    expect_op_error(MPI_SUM, MPI_DOUBLE_INT, "MPI_SUM", "MPI_DOUBLE_INT");
    expect_op_error(MPI_LAND, MPI_AINT, "MPI_LAND", "MPI_AINT");
    CU_ASSERT_TRUE(sim_op_defined_for(MPI_BAND, MPI_AINT, NULL));
    CU_ASSERT_TRUE(sim_op_defined_for(MPI_SUM, MPI_C_LONG_DOUBLE_COMPLEX, NULL));
    CU_ASSERT_TRUE(sim_op_defined_for(MPI_MINLOC, MPI_2INT, NULL));
    CU_ASSERT_TRUE(sim_op_defined_for(MPI_REPLACE, MPI_CHAR, NULL));
    CU_ASSERT_FALSE(sim_op_defined_for(MPI_OP_NULL, MPI_INT, NULL));
}

struct dint {
    double v;
    int i;
};
struct sint {
    short v;
    int i;
};
struct ldint {
    long double v;
    int i;
};

static void test_loc(void) {
    struct dint in[4] = {{3.0, 7}, {5.0, 2}, {5.0, 9}, {-1.0, 0}};
    struct dint io[4] = {{1.0, 1}, {5.0, 4}, {5.0, 3}, {-1.0, 5}};
    struct dint mn[4];
    memcpy(mn, io, sizeof io);
    APPLY_OK(MPI_MAXLOC, in, io, 4, MPI_DOUBLE_INT);
    CU_ASSERT(io[0].v == 3.0 && io[0].i == 7); /* larger value wins */
    CU_ASSERT(io[1].v == 5.0 && io[1].i == 2); /* tie: lower index wins, from in */
    CU_ASSERT(io[2].v == 5.0 && io[2].i == 3); /* tie: lower index wins, kept */
    CU_ASSERT(io[3].v == -1.0 && io[3].i == 0);
    APPLY_OK(MPI_MINLOC, in, mn, 4, MPI_DOUBLE_INT);
    CU_ASSERT(mn[0].v == 1.0 && mn[0].i == 1);
    CU_ASSERT(mn[1].v == 5.0 && mn[1].i == 2);
    CU_ASSERT(mn[2].v == 5.0 && mn[2].i == 3);
    CU_ASSERT(mn[3].v == -1.0 && mn[3].i == 0);

    int p_in[4] = {4, 10, 8, 1}, p_io[4] = {4, 3, 9, 0};
    APPLY_OK(MPI_MAXLOC, p_in, p_io, 2, MPI_2INT);
    CU_ASSERT(p_io[0] == 4 && p_io[1] == 3 && p_io[2] == 9 && p_io[3] == 0);

    struct sint s_in = {-2, 6}, s_io = {-1, 8};
    APPLY_OK(MPI_MINLOC, &s_in, &s_io, 1, MPI_SHORT_INT);
    CU_ASSERT(s_io.v == -2 && s_io.i == 6);

    struct ldint l_in = {2.5L, 1}, l_io = {2.5L, 4};
    APPLY_OK(MPI_MAXLOC, &l_in, &l_io, 1, MPI_LONG_DOUBLE_INT);
    CU_ASSERT(l_io.v == 2.5L && l_io.i == 1);

    float r_in[2] = {1.0f, 3.0f}, r_io[2] = {2.0f, 1.0f}; /* MPI_2REAL: float index */
    APPLY_OK(MPI_MINLOC, r_in, r_io, 1, MPI_2REAL);
    CU_ASSERT(r_io[0] == 1.0f && r_io[1] == 3.0f);
}

static MPI_Datatype make_committed(MPI_Datatype t) {
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_dt_commit(0, t, &why), MPI_SUCCESS);
    g_free(why);
    return t;
}

static void test_derived(void) {
    char *why = NULL;
    MPI_Datatype c3, vec, cpair, mixed, c2int;
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_contiguous(0, 3, MPI_INT, &c3, &why), MPI_SUCCESS);
    make_committed(c3);
    int in[6] = {1, 2, 3, 4, 5, 6}, io[6] = {10, 20, 30, 40, 50, 60};
    APPLY_OK(MPI_SUM, in, io, 2, c3);
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(io[i], 11 * (i + 1));
    CU_ASSERT_TRUE(sim_op_defined_for(MPI_BAND, c3, NULL));

    /* Every other double: the holes must not be touched. */
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_vector(0, 2, 1, 2, MPI_DOUBLE, &vec, &why), MPI_SUCCESS);
    make_committed(vec);
    double d_in[3] = {1.0, 100.0, 2.0}, d_io[3] = {5.0, -1.0, 0.5};
    APPLY_OK(MPI_MAX, d_in, d_io, 1, vec);
    CU_ASSERT(d_io[0] == 5.0 && d_io[1] == -1.0 && d_io[2] == 2.0);
    expect_op_error(MPI_BAND, vec, "MPI_BAND", "derived type");

    /* A derived type made of pairs takes MAXLOC. */
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_contiguous(0, 2, MPI_DOUBLE_INT, &cpair, &why),
                          MPI_SUCCESS);
    make_committed(cpair);
    struct dint p_in[2] = {{1.0, 0}, {7.0, 3}}, p_io[2] = {{1.0, 5}, {8.0, 1}};
    APPLY_OK(MPI_MAXLOC, p_in, p_io, 1, cpair);
    CU_ASSERT(p_io[0].v == 1.0 && p_io[0].i == 0);
    CU_ASSERT(p_io[1].v == 8.0 && p_io[1].i == 1);
    CU_ASSERT_FALSE(sim_op_defined_for(MPI_SUM, cpair, NULL));

    CU_ASSERT_EQUAL_FATAL(sim_dt_create_contiguous(0, 2, MPI_2INT, &c2int, &why), MPI_SUCCESS);
    make_committed(c2int);
    int q_in[4] = {3, 1, 3, 2}, q_io[4] = {3, 0, 2, 9};
    APPLY_OK(MPI_MINLOC, q_in, q_io, 1, c2int);
    CU_ASSERT(q_io[0] == 3 && q_io[1] == 0 && q_io[2] == 2 && q_io[3] == 9);

    /* Mixed basic types: predefined ops do not apply. */
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_struct(0, 2, bl, disp, types, &mixed, &why), MPI_SUCCESS);
    make_committed(mixed);
    char *msg = NULL;
    char buf1[16] = {0}, buf2[16] = {0};
    CU_ASSERT_EQUAL(sim_op_apply(MPI_SUM, buf1, buf2, 1, mixed, &msg), MPI_ERR_OP);
    CU_ASSERT_PTR_NOT_NULL(msg);
    CU_ASSERT_PTR_NOT_NULL(msg ? strstr(msg, "mix") : NULL);
    g_free(msg);
    g_free(why);
}

/* User functions record how they were called. */
static int calls;
static int last_count;
static MPI_Datatype last_type;

static void sub_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
    calls++;
    last_count = *len;
    last_type = *type;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] - b[i];
}

/* Works on a vector type of doubles; must see the type's layout. */
static void vec_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
    calls++;
    const double *a = in;
    double *b = inout;
    for (int i = 0; i < *len; i++) {
        b[3 * i] = a[3 * i] * 10 + b[3 * i];
        b[3 * i + 2] = a[3 * i + 2] * 10 + b[3 * i + 2];
    }
}

/* A user op freed while a pending operation holds it still applies for it;
 * the program may not use its handle, and a new op does not get the handle
 * until the last hold goes. */
static void test_user_op_held(void) {
    MPI_Op op = sim_op_create(sub_fn, false);
    sim_op_ref(op);
    CU_ASSERT_TRUE(sim_op_free(op));
    CU_ASSERT_FALSE(sim_op_valid(op));
    CU_ASSERT_FALSE(sim_op_free(op)); /* freed once */
    CU_ASSERT_FALSE(sim_op_commutative(op));
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_op_name(op), "user op 0x"));
    MPI_Op other = sim_op_create(sub_fn, true);
    CU_ASSERT_NOT_EQUAL(other, op);
    int in[2] = {10, 20}, io[2] = {1, 2};
    char *why = NULL;
    calls = 0;
    CU_ASSERT_EQUAL(sim_op_apply_packed(op, in, io, 2, MPI_INT, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(calls, 1);
    CU_ASSERT(io[0] == 9 && io[1] == 18);
    sim_op_unref(op);
    CU_ASSERT_EQUAL(sim_op_apply_packed(op, in, io, 2, MPI_INT, &why), MPI_ERR_OP);
    g_free(why);
    MPI_Op again = sim_op_create(sub_fn, true);
    CU_ASSERT_EQUAL(again, op); /* its slot is free now */
    /* A held op that is not freed stays valid after the hold. */
    sim_op_ref(again);
    sim_op_unref(again);
    CU_ASSERT_TRUE(sim_op_valid(again));
    CU_ASSERT_TRUE(sim_op_free(again));
    CU_ASSERT_TRUE(sim_op_free(other));
}

static void test_user_ops(void) {
    MPI_Op op = sim_op_create(sub_fn, false);
    CU_ASSERT_TRUE(sim_op_valid(op));
    CU_ASSERT_FALSE(sim_op_commutative(op));
    CU_ASSERT_EQUAL(((unsigned)op >> 30) & 3u, 2u);     /* direct handle */
    CU_ASSERT_EQUAL(((unsigned)op >> 26) & 0xfu, 0x6u); /* of an op */
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_op_name(op), "user op 0x"));
    CU_ASSERT_TRUE(sim_op_defined_for(op, MPI_DOUBLE_INT, NULL));

    int in[3] = {10, 20, 30}, io[3] = {1, 2, 3};
    calls = 0;
    APPLY_OK(op, in, io, 3, MPI_INT);
    CU_ASSERT_EQUAL(calls, 1);
    CU_ASSERT_EQUAL(last_count, 3);
    CU_ASSERT_EQUAL(last_type, MPI_INT);
    CU_ASSERT(io[0] == 9 && io[1] == 18 && io[2] == 27);

    /* Packed data of a predefined type is its layout. */
    int pin[2] = {5, 5}, pio[2] = {1, 7};
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_op_apply_packed(op, pin, pio, 2, MPI_INT, &why), MPI_SUCCESS);
    CU_ASSERT(pio[0] == 4 && pio[1] == -2);

    MPI_Op op2 = sim_op_create(sub_fn, true);
    CU_ASSERT_NOT_EQUAL(op, op2);
    CU_ASSERT_TRUE(sim_op_commutative(op2));
    CU_ASSERT_TRUE(sim_op_free(op));
    CU_ASSERT_FALSE(sim_op_valid(op));
    CU_ASSERT_FALSE(sim_op_free(op));
    MPI_Op op3 = sim_op_create(sub_fn, true);
    CU_ASSERT_EQUAL(op3, op); /* lowest free slot is reused */
    CU_ASSERT_TRUE(sim_op_free(op2));
    CU_ASSERT_TRUE(sim_op_free(op3));

    /* Packed data of a strided type: the user function gets the layout. */
    MPI_Datatype vec;
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_vector(0, 2, 1, 2, MPI_DOUBLE, &vec, &why), MPI_SUCCESS);
    make_committed(vec);
    MPI_Op vop = sim_op_create(vec_fn, false);
    double packed_in[4] = {1, 2, 3, 4}, packed_io[4] = {5, 6, 7, 8};
    calls = 0;
    CU_ASSERT_EQUAL(sim_op_apply_packed(vop, packed_in, packed_io, 2, vec, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(calls, 1);
    CU_ASSERT(packed_io[0] == 15 && packed_io[1] == 26 && packed_io[2] == 37 && packed_io[3] == 48);
    CU_ASSERT_TRUE(sim_op_free(vop));
    g_free(why);
}

static void test_replace_noop(void) {
    int in[2] = {1, 2}, io[2] = {7, 8};
    APPLY_OK(MPI_NO_OP, in, io, 2, MPI_INT);
    CU_ASSERT(io[0] == 7 && io[1] == 8);
    APPLY_OK(MPI_REPLACE, in, io, 2, MPI_INT);
    CU_ASSERT(io[0] == 1 && io[1] == 2);
    struct dint a = {2.0, 1}, b = {0.0, 0};
    APPLY_OK(MPI_REPLACE, &a, &b, 1, MPI_DOUBLE_INT);
    CU_ASSERT(b.v == 2.0 && b.i == 1);
}

static void test_packed_pairs(void) {
    /* Packed MPI_DOUBLE_INT is 12 bytes: value then index, no padding. */
    char in[24], io[24];
    double v;
    int i;
    v = 4.0, i = 3;
    memcpy(in, &v, 8), memcpy(in + 8, &i, 4);
    v = 4.0, i = 1;
    memcpy(io, &v, 8), memcpy(io + 8, &i, 4);
    v = 9.0, i = 0;
    memcpy(in + 12, &v, 8), memcpy(in + 20, &i, 4);
    v = 1.0, i = 2;
    memcpy(io + 12, &v, 8), memcpy(io + 20, &i, 4);
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_op_apply_packed(MPI_MAXLOC, in, io, 2, MPI_DOUBLE_INT, &why), MPI_SUCCESS);
    memcpy(&v, io, 8), memcpy(&i, io + 8, 4);
    CU_ASSERT(v == 4.0 && i == 1);
    memcpy(&v, io + 12, 8), memcpy(&i, io + 20, 4);
    CU_ASSERT(v == 9.0 && i == 0);
    CU_ASSERT_EQUAL(sim_op_apply_packed(MPI_BAND, in, io, 1, MPI_DOUBLE, &why), MPI_ERR_OP);
    g_free(why);
}

int main(void) {
    sim_dt_init();
    sim_op_init();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("op", NULL, NULL);
    CU_add_test(s, "handles and names", test_handles);
    CU_add_test(s, "integer arithmetic", test_arith_int);
    CU_add_test(s, "floating point and complex", test_arith_float_complex);
    CU_add_test(s, "logical and bitwise", test_logical_bitwise);
    CU_add_test(s, "type classes", test_type_classes);
    CU_add_test(s, "MAXLOC and MINLOC", test_loc);
    CU_add_test(s, "derived datatypes", test_derived);
    CU_add_test(s, "user operations", test_user_ops);
    CU_add_test(s, "user operations held by pending operations", test_user_op_held);
    CU_add_test(s, "MPI_REPLACE and MPI_NO_OP", test_replace_noop);
    CU_add_test(s, "packed pairs", test_packed_pairs);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    sim_op_fini();
    sim_dt_fini();
    return failed ? 1 : 0;
}
