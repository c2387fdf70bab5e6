/*
 * op_kernel.c - the arithmetic of the predefined reduction operations:
 * inout[i] = in[i] op inout[i] over contiguous elements of one storage kind
 * (integers wrap as MPI implementations do), and MPI_MAXLOC / MPI_MINLOC
 * over value-index pairs.  Which op may be applied to which data is op.c's
 * decision, taken before a kernel runs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "simulator/op_internal.h"

/* ---------------------------------------------------------------------- */
/* Element-wise kernels: inout[i] = in[i] op inout[i]                      */

#ifdef __FLT128_MAX__
typedef _Float128 f128_t;
typedef _Complex _Float128 c128_t;
#endif

/* Applies EXPR (over x = in[i], y = inout[i]) to n elements of type T.  The
 * buffers are either the caller's (aligned for T, as C requires of the
 * program) or g_malloc'ed packed data (aligned for any type). */
/* T is a type name, which cannot be parenthesised. */
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define EACH(T, EXPR)                                                                              \
    do {                                                                                           \
        const T *a_ = in;                                                                          \
        T *b_ = io;                                                                                \
        for (size_t i_ = 0; i_ < n; i_++) {                                                        \
            T x = a_[i_], y = b_[i_];                                                              \
            b_[i_] = (T)(EXPR);                                                                    \
        }                                                                                          \
    } while (0)

/* Signed overflow is undefined in C but wraps in MPI implementations:
 * compute signed sums and products in the unsigned type of the same width. */
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define EACH_WRAP(T, UT, EXPR)                                                                     \
    do {                                                                                           \
        const T *a_ = in;                                                                          \
        T *b_ = io;                                                                                \
        for (size_t i_ = 0; i_ < n; i_++) {                                                        \
            UT x = (UT)a_[i_], y = (UT)b_[i_];                                                     \
            b_[i_] = (T)(UT)(EXPR);                                                                \
        }                                                                                          \
    } while (0)

#define INT_CASES(X)                                                                               \
    X(EK_I8, int8_t, uint8_t)                                                                      \
    X(EK_U8, uint8_t, uint8_t)                                                                     \
    X(EK_I16, int16_t, uint16_t)                                                                   \
    X(EK_U16, uint16_t, uint16_t)                                                                  \
    X(EK_I32, int32_t, uint32_t)                                                                   \
    X(EK_U32, uint32_t, uint32_t)                                                                  \
    X(EK_I64, int64_t, uint64_t)                                                                   \
    X(EK_U64, uint64_t, uint64_t)

#ifdef __FLT128_MAX__
#define F128_CASE(X) X(EK_F128, f128_t, f128_t)
#define C128_CASE(X) X(EK_C128, c128_t, c128_t)
#else
#define F128_CASE(X)
#define C128_CASE(X)
#endif

#define FLOAT_CASES(X)                                                                             \
    X(EK_F32, float, float)                                                                        \
    X(EK_F64, double, double)                                                                      \
    X(EK_F80, long double, long double)                                                            \
    F128_CASE(X)

#define COMPLEX_CASES(X)                                                                           \
    X(EK_C32, float _Complex, float _Complex)                                                      \
    X(EK_C64, double _Complex, double _Complex)                                                    \
    X(EK_C80, long double _Complex, long double _Complex)                                          \
    C128_CASE(X)

/* Logical values are stored as integers: C/C++ bool in one byte, Fortran
 * LOGICAL in four; the result is always 1 or 0. */
#define LOGICAL_CASES(X)                                                                           \
    INT_CASES(X)                                                                                   \
    X(EK_BOOL, uint8_t, uint8_t)                                                                   \
    X(EK_LOGICAL, int32_t, uint32_t)

#define BITWISE_CASES(X)                                                                           \
    INT_CASES(X)                                                                                   \
    X(EK_BYTE, uint8_t, uint8_t)

#define CASE_MAX(K, T, UT)                                                                         \
    case K:                                                                                        \
        EACH(T, x > y ? x : y);                                                                    \
        break;
#define CASE_MIN(K, T, UT)                                                                         \
    case K:                                                                                        \
        EACH(T, x < y ? x : y);                                                                    \
        break;
#define CASE_SUM(K, T, UT)                                                                         \
    case K:                                                                                        \
        EACH_WRAP(T, UT, x + y);                                                                   \
        break;
#define CASE_PROD(K, T, UT)                                                                        \
    case K:                                                                                        \
        EACH_WRAP(T, UT, x *y);                                                                    \
        break;
#define CASE_LAND(K, T, UT)                                                                        \
    case K:                                                                                        \
        EACH(T, (x != 0) && (y != 0));                                                             \
        break;
#define CASE_LOR(K, T, UT)                                                                         \
    case K:                                                                                        \
        EACH(T, (x != 0) || (y != 0));                                                             \
        break;
#define CASE_LXOR(K, T, UT)                                                                        \
    case K:                                                                                        \
        EACH(T, (x != 0) != (y != 0));                                                             \
        break;
#define CASE_BAND(K, T, UT)                                                                        \
    case K:                                                                                        \
        EACH(T, x &y);                                                                             \
        break;
#define CASE_BOR(K, T, UT)                                                                         \
    case K:                                                                                        \
        EACH(T, x | y);                                                                            \
        break;
#define CASE_BXOR(K, T, UT)                                                                        \
    case K:                                                                                        \
        EACH(T, x ^ y);                                                                            \
        break;

void sim_op_kernel(int opi, elem_kind ek, const void *in, void *io, size_t n) {
    switch (opi) {
    case OPI_MAX:
        switch (ek) {
            INT_CASES(CASE_MAX)
            FLOAT_CASES(CASE_MAX)
        default:
            break;
        }
        break;
    case OPI_MIN:
        switch (ek) {
            INT_CASES(CASE_MIN)
            FLOAT_CASES(CASE_MIN)
        default:
            break;
        }
        break;
    case OPI_SUM:
        switch (ek) {
            INT_CASES(CASE_SUM)
            FLOAT_CASES(CASE_SUM)
            COMPLEX_CASES(CASE_SUM)
        default:
            break;
        }
        break;
    case OPI_PROD:
        switch (ek) {
            INT_CASES(CASE_PROD)
            FLOAT_CASES(CASE_PROD)
            COMPLEX_CASES(CASE_PROD)
        default:
            break;
        }
        break;
    case OPI_LAND:
        switch (ek) {
            LOGICAL_CASES(CASE_LAND)
        default:
            break;
        }
        break;
    case OPI_LOR:
        switch (ek) {
            LOGICAL_CASES(CASE_LOR)
        default:
            break;
        }
        break;
    case OPI_LXOR:
        switch (ek) {
            LOGICAL_CASES(CASE_LXOR)
        default:
            break;
        }
        break;
    case OPI_BAND:
        switch (ek) {
            BITWISE_CASES(CASE_BAND)
        default:
            break;
        }
        break;
    case OPI_BOR:
        switch (ek) {
            BITWISE_CASES(CASE_BOR)
        default:
            break;
        }
        break;
    case OPI_BXOR:
        switch (ek) {
            BITWISE_CASES(CASE_BXOR)
        default:
            break;
        }
        break;
    default:
        break;
    }
}

/* Reads one scalar of kind ek (value or index of a pair) widened to long
 * double, which represents every value and index type of the pairs exactly
 * except long double itself (compared as is). */
static long double load_scalar(elem_kind ek, const char *p) {
    switch (ek) {
    case EK_F32: {
        float v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case EK_F64: {
        double v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case EK_F80: {
        long double v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case EK_I64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        return (long double)v;
    }
    case EK_I16: {
        int16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case EK_I32:
    default: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

void sim_op_pair_kernel(bool maxloc, const pair_geom *g, const void *in, void *io, size_t n,
                        size_t stride, size_t ioff) {
    const char *a = in;
    char *b = io;
    for (size_t i = 0; i < n; i++, a += stride, b += stride) {
        long double u = load_scalar(g->value, a), v = load_scalar(g->value, b);
        bool in_wins = maxloc ? u > v : u < v;
        if (in_wins) {
            memcpy(b, a, g->vsize);
            memcpy(b + ioff, a + ioff, g->isize);
        } else if (u == v) {
            long double ia = load_scalar(g->index, a + ioff), ib = load_scalar(g->index, b + ioff);
            if (ia < ib)
                memcpy(b + ioff, a + ioff, g->isize);
        }
    }
}
