/*
 * external32.c - the "external32" data representation (MPI 3.1 section
 * 13.5.2) for MPI_Pack_external and MPI_Unpack_external: every basic
 * element big-endian, in the size the standard's table 13.2 gives it
 * (MPI_LONG in 4 bytes, MPI_WCHAR in 2, MPI_LONG_DOUBLE as an IEEE
 * quadruple-precision number in 16, ...), one after the other with no
 * padding.
 *
 * Conversion works on the native packed form: packing packs natively
 * (sim_dt_pack) and converts each element of the signature; unpacking
 * converts back and unpacks.  An integer that does not fit into its
 * external size (a long beyond 32 bits) cannot be represented: that is
 * MPI_ERR_CONVERSION, never a silent truncation.
 */
#include <float.h>
#include <glib.h>
#include <string.h>

#include "simulator/datatype.h"
#include "simulator/datatype_internal.h"

typedef enum conv { CONV_SIGNED, CONV_UNSIGNED, CONV_FLOAT, CONV_LONG_DOUBLE } conv;

typedef struct ext_type {
    MPI_Datatype type;
    size_t size; /* external bytes of one element (a complex: of one of its two parts) */
    conv how;
    int parts; /* 2 for complex types */
} ext_type;

static const ext_type g_types[] = {
    {MPI_CHAR, 1, CONV_SIGNED, 1},
    {MPI_SIGNED_CHAR, 1, CONV_SIGNED, 1},
    {MPI_UNSIGNED_CHAR, 1, CONV_UNSIGNED, 1},
    {MPI_BYTE, 1, CONV_UNSIGNED, 1},
    {MPI_PACKED, 1, CONV_UNSIGNED, 1},
    {MPI_CHARACTER, 1, CONV_UNSIGNED, 1},
    {MPI_C_BOOL, 1, CONV_UNSIGNED, 1},
    {MPI_CXX_BOOL, 1, CONV_UNSIGNED, 1},
    {MPI_INT8_T, 1, CONV_SIGNED, 1},
    {MPI_UINT8_T, 1, CONV_UNSIGNED, 1},
    {MPI_INTEGER1, 1, CONV_SIGNED, 1},
    {MPI_WCHAR, 2, CONV_SIGNED, 1},
    {MPI_SHORT, 2, CONV_SIGNED, 1},
    {MPI_UNSIGNED_SHORT, 2, CONV_UNSIGNED, 1},
    {MPI_INT16_T, 2, CONV_SIGNED, 1},
    {MPI_UINT16_T, 2, CONV_UNSIGNED, 1},
    {MPI_INTEGER2, 2, CONV_SIGNED, 1},
    {MPI_INT, 4, CONV_SIGNED, 1},
    {MPI_UNSIGNED, 4, CONV_UNSIGNED, 1},
    {MPI_LONG, 4, CONV_SIGNED, 1},
    {MPI_UNSIGNED_LONG, 4, CONV_UNSIGNED, 1},
    {MPI_INT32_T, 4, CONV_SIGNED, 1},
    {MPI_UINT32_T, 4, CONV_UNSIGNED, 1},
    {MPI_INTEGER, 4, CONV_SIGNED, 1},
    {MPI_INTEGER4, 4, CONV_SIGNED, 1},
    {MPI_LOGICAL, 4, CONV_SIGNED, 1},
    {MPI_LONG_LONG_INT, 8, CONV_SIGNED, 1},
    {MPI_UNSIGNED_LONG_LONG, 8, CONV_UNSIGNED, 1},
    {MPI_INT64_T, 8, CONV_SIGNED, 1},
    {MPI_UINT64_T, 8, CONV_UNSIGNED, 1},
    {MPI_INTEGER8, 8, CONV_SIGNED, 1},
    {MPI_AINT, 8, CONV_SIGNED, 1},
    {MPI_OFFSET, 8, CONV_SIGNED, 1},
    {MPI_COUNT, 8, CONV_SIGNED, 1},
    {MPI_FLOAT, 4, CONV_FLOAT, 1},
    {MPI_REAL, 4, CONV_FLOAT, 1},
    {MPI_REAL4, 4, CONV_FLOAT, 1},
    {MPI_DOUBLE, 8, CONV_FLOAT, 1},
    {MPI_DOUBLE_PRECISION, 8, CONV_FLOAT, 1},
    {MPI_REAL8, 8, CONV_FLOAT, 1},
    {MPI_REAL16, 16, CONV_FLOAT, 1}, /* already IEEE quadruple precision */
    {MPI_LONG_DOUBLE, 16, CONV_LONG_DOUBLE, 1},
    {MPI_COMPLEX, 4, CONV_FLOAT, 2},
    {MPI_COMPLEX8, 4, CONV_FLOAT, 2},
    {MPI_C_FLOAT_COMPLEX, 4, CONV_FLOAT, 2},
    {MPI_CXX_FLOAT_COMPLEX, 4, CONV_FLOAT, 2},
    {MPI_DOUBLE_COMPLEX, 8, CONV_FLOAT, 2},
    {MPI_COMPLEX16, 8, CONV_FLOAT, 2},
    {MPI_C_DOUBLE_COMPLEX, 8, CONV_FLOAT, 2},
    {MPI_CXX_DOUBLE_COMPLEX, 8, CONV_FLOAT, 2},
    {MPI_COMPLEX32, 16, CONV_FLOAT, 2},
    {MPI_C_LONG_DOUBLE_COMPLEX, 16, CONV_LONG_DOUBLE, 2},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, 16, CONV_LONG_DOUBLE, 2},
};

static const ext_type *ext_of(MPI_Datatype basic) {
    for (size_t i = 0; i < G_N_ELEMENTS(g_types); i++)
        if (g_types[i].type == basic)
            return &g_types[i];
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Sizes                                                                   */

typedef struct size_walk {
    size_t bytes;
    MPI_Datatype unknown; /* a basic type external32 has no size for */
} size_walk;

static bool add_size(MPI_Datatype basic, size_t count, void *data) {
    size_walk *w = data;
    const ext_type *e = ext_of(basic);
    if (!e) {
        w->unknown = basic;
        return false;
    }
    w->bytes += count * e->size * (size_t)e->parts;
    return true;
}

int sim_dt_external32_size(const sim_datatype *dt, size_t count, size_t *bytes, char **why) {
    size_walk w = {0, MPI_DATATYPE_NULL};
    if (!sim_typesig_each_run(sim_dt_typesig(dt), count, add_size, &w))
        return sim_dt_fail(why, MPI_ERR_TYPE, "%s has no external32 representation",
                           sim_dt_name(w.unknown));
    *bytes = w.bytes;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* One element                                                             */

/* Native bytes are little-endian on every machine ordex runs on (x86-64,
 * aarch64); external32 is big-endian. */
static void reverse_into(unsigned char *to, const unsigned char *from, size_t n) {
    for (size_t i = 0; i < n; i++)
        to[i] = from[n - 1 - i];
}

#if LDBL_MANT_DIG == 64
/* x87 extended precision (64-bit significand with its integer bit, 15-bit
 * exponent) and IEEE quadruple precision (112-bit fraction, the same
 * exponent and bias): the exponent and sign carry over, the significand
 * without its integer bit moves to the top of the fraction.  Denormals,
 * infinities and NaNs map the same way. */
static void ld_to_quad(const unsigned char native[16], unsigned char out[16]) {
    uint64_t m;
    uint16_t se;
    memcpy(&m, native, 8);
    memcpy(&se, native + 8, 2);
    unsigned __int128 q =
        ((unsigned __int128)se << 112) | ((unsigned __int128)(m & 0x7fffffffffffffffull) << 49);
    unsigned char le[16];
    memcpy(le, &q, 16);
    reverse_into(out, le, 16);
}

static void quad_to_ld(const unsigned char in[16], unsigned char native[16]) {
    unsigned char le[16];
    reverse_into(le, in, 16);
    unsigned __int128 q;
    memcpy(&q, le, 16);
    uint16_t se = (uint16_t)(q >> 112);
    uint64_t m = (uint64_t)(q >> 49) & 0x7fffffffffffffffull;
    if ((se & 0x7fff) != 0)
        m |= 0x8000000000000000ull; /* the integer bit of normal numbers, infinities, NaNs */
    memset(native, 0, 16);
    memcpy(native, &m, 8);
    memcpy(native + 8, &se, 2);
}
#else
/* long double is IEEE quadruple precision already (aarch64). */
static void ld_to_quad(const unsigned char native[16], unsigned char out[16]) {
    reverse_into(out, native, 16);
}

static void quad_to_ld(const unsigned char in[16], unsigned char native[16]) {
    reverse_into(native, in, 16);
}
#endif

/* Native integer of `ns` bytes to external of `es`; false when its value
 * does not fit. */
static bool int_out(const unsigned char *native, size_t ns, bool is_signed, unsigned char *out,
                    size_t es) {
    uint64_t u = 0;
    memcpy(&u, native, ns); /* little-endian: the low bytes */
    if (is_signed && ns < 8 && (native[ns - 1] & 0x80))
        u |= ~0ull << (8 * ns); /* sign-extend */
    if (es < 8) {
        if (is_signed) {
            int64_t v = (int64_t)u, lim = (int64_t)1 << (8 * es - 1);
            if (v < -lim || v >= lim)
                return false;
        } else if (u >> (8 * es)) {
            return false;
        }
    }
    for (size_t i = 0; i < es; i++)
        out[i] = (unsigned char)(u >> (8 * (es - 1 - i)));
    return true;
}

static void int_in(const unsigned char *in, size_t es, bool is_signed, unsigned char *native,
                   size_t ns) {
    uint64_t u = 0;
    for (size_t i = 0; i < es; i++)
        u = (u << 8) | in[i];
    if (is_signed && es < 8 && (in[0] & 0x80))
        u |= ~0ull << (8 * es);
    memcpy(native, &u, ns);
}

/* ---------------------------------------------------------------------- */
/* Whole buffers                                                           */

typedef struct conv_walk {
    unsigned char *native; /* the native packed bytes, advanced */
    unsigned char *ext;    /* the external bytes, advanced */
    bool to_external;
    MPI_Datatype failed; /* an element that cannot be represented */
    size_t failed_at;    /* its index among the basic elements */
    size_t done;         /* basic elements converted */
} conv_walk;

static bool convert_run(MPI_Datatype basic, size_t count, void *data) {
    conv_walk *w = data;
    const ext_type *e = ext_of(basic);
    size_t ns = sim_dt_basic_size(basic) / (size_t)e->parts;
    for (size_t k = 0; k < count * (size_t)e->parts; k++) {
        unsigned char *n = w->native, *x = w->ext;
        switch (e->how) {
        case CONV_SIGNED:
        case CONV_UNSIGNED:
            if (w->to_external) {
                if (!int_out(n, ns, e->how == CONV_SIGNED, x, e->size)) {
                    w->failed = basic;
                    w->failed_at = w->done + k / (size_t)e->parts;
                    return false;
                }
            } else {
                int_in(x, e->size, e->how == CONV_SIGNED, n, ns);
            }
            break;
        case CONV_FLOAT:
            if (w->to_external)
                reverse_into(x, n, ns);
            else
                reverse_into(n, x, ns);
            break;
        case CONV_LONG_DOUBLE:
            if (w->to_external)
                ld_to_quad(n, x);
            else
                quad_to_ld(x, n);
            break;
        }
        w->native += ns;
        w->ext += e->size;
    }
    w->done += count;
    return true;
}

int sim_dt_pack_external32(const sim_datatype *dt, const void *buf, int count, void *out,
                           char **why) {
    size_t native = sim_dt_size(dt) * (size_t)count;
    unsigned char *tmp = g_malloc(native ? native : 1);
    sim_dt_pack(dt, buf, count, tmp);
    conv_walk w = {tmp, out, true, MPI_DATATYPE_NULL, 0, 0};
    bool ok = sim_typesig_each_run(sim_dt_typesig(dt), (size_t)count, convert_run, &w);
    g_free(tmp);
    if (!ok)
        return sim_dt_fail(why, MPI_ERR_CONVERSION,
                           "basic element %zu (%s) has a value that external32 cannot represent "
                           "in its %zu bytes",
                           w.failed_at, sim_dt_name(w.failed), ext_of(w.failed)->size);
    return MPI_SUCCESS;
}

void sim_dt_unpack_external32(const sim_datatype *dt, const void *in, void *buf, int count) {
    size_t native = sim_dt_size(dt) * (size_t)count;
    unsigned char *tmp = g_malloc0(native ? native : 1);
    conv_walk w = {tmp, (unsigned char *)in, false, MPI_DATATYPE_NULL, 0, 0};
    sim_typesig_each_run(sim_dt_typesig(dt), (size_t)count, convert_run, &w);
    sim_dt_unpack(dt, tmp, native, buf, count);
    g_free(tmp);
}
