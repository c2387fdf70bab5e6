/*
 * test_datatype.c - unit tests of simulator/datatype.c: predefined and pair
 * types, derived constructors, exact pack/unpack byte layouts, signatures
 * and their matching, counts, handles and errors.
 *
 * Every test starts from fresh tables (setup/teardown per test), so the
 * first derived handle is always SIM_DT_FIRST_DERIVED_INDEX.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "simulator/datatype.h"
#include "simulator/handle.h"

#define R0 0 /* the rank that makes the types */
#define R1 1

#define OK(call) CU_ASSERT_EQUAL_FATAL((call), MPI_SUCCESS)

static const sim_datatype *get(MPI_Datatype t) {
    const sim_datatype *dt = sim_dt_get(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dt);
    return dt;
}

/* The runs that sim_typesig_each_run reports, collected. */
typedef struct run_list {
    GArray *basics;    /* MPI_Datatype */
    GArray *counts;    /* size_t */
    size_t stop_after; /* stop the walk after this many runs; 0 = never */
} run_list;

static bool collect_run(MPI_Datatype basic, size_t count, void *p) {
    run_list *l = p;
    g_array_append_val(l->basics, basic);
    g_array_append_val(l->counts, count);
    return l->stop_after == 0 || l->basics->len < l->stop_after;
}

static run_list runs_of(MPI_Datatype t, int count) {
    run_list l = {g_array_new(FALSE, FALSE, sizeof(MPI_Datatype)),
                  g_array_new(FALSE, FALSE, sizeof(size_t)), 0};
    CU_ASSERT_TRUE(sim_typesig_each_run(sim_dt_typesig(get(t)), (size_t)count, collect_run, &l));
    return l;
}

static void runs_free(run_list *l) {
    g_array_free(l->basics, TRUE);
    g_array_free(l->counts, TRUE);
}

/* Asserts that the signature of count elements of t is exactly the runs
 * given as (basic, count) pairs. */
static void check_sig(MPI_Datatype t, int count, int nruns, const MPI_Datatype *basics,
                      const size_t *counts) {
    run_list l = runs_of(t, count);
    CU_ASSERT_EQUAL(l.basics->len, (guint)nruns);
    for (guint i = 0; i < (guint)nruns && i < l.basics->len; i++) {
        CU_ASSERT_EQUAL(g_array_index(l.basics, MPI_Datatype, i), basics[i]);
        CU_ASSERT_EQUAL(g_array_index(l.counts, size_t, i), counts[i]);
    }
    CU_ASSERT_EQUAL(sim_typesig_bytes(sim_dt_typesig(get(t))), sim_dt_size(get(t)));
    runs_free(&l);
}

/* A message's signature: count elements of a type. */
typedef struct msg_sig {
    const sim_typesig *sig;
    size_t count;
} msg_sig;

static msg_sig sig_of(MPI_Datatype type, int count) {
    return (msg_sig){sim_dt_typesig(get(type)), (size_t)count};
}

static bool matches(msg_sig msg, MPI_Datatype recv, int count, char **why) {
    return sim_typesig_matches(msg.sig, msg.count, get(recv), count, why);
}

static void fill_ints(int *a, int n) {
    for (int i = 0; i < n; i++)
        a[i] = i;
}

/* ---------------------------------------------------------------------- */
/* Predefined types                                                        */

typedef struct {
    MPI_Datatype t;
    size_t size;
} size_case;

static const size_case c_types[] = {
    {MPI_CHAR, sizeof(char)},
    {MPI_SIGNED_CHAR, sizeof(signed char)},
    {MPI_UNSIGNED_CHAR, sizeof(unsigned char)},
    {MPI_BYTE, 1},
    {MPI_PACKED, 1},
    {MPI_SHORT, sizeof(short)},
    {MPI_UNSIGNED_SHORT, sizeof(unsigned short)},
    {MPI_INT, sizeof(int)},
    {MPI_UNSIGNED, sizeof(unsigned)},
    {MPI_LONG, sizeof(long)},
    {MPI_UNSIGNED_LONG, sizeof(unsigned long)},
    {MPI_LONG_LONG_INT, sizeof(long long)},
    {MPI_LONG_LONG, sizeof(long long)},
    {MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long)},
    {MPI_FLOAT, sizeof(float)},
    {MPI_DOUBLE, sizeof(double)},
    {MPI_LONG_DOUBLE, sizeof(long double)},
    {MPI_WCHAR, sizeof(wchar_t)},
    {MPI_C_BOOL, sizeof(_Bool)},
    {MPI_INT8_T, 1},
    {MPI_INT16_T, 2},
    {MPI_INT32_T, 4},
    {MPI_INT64_T, 8},
    {MPI_UINT8_T, 1},
    {MPI_UINT16_T, 2},
    {MPI_UINT32_T, 4},
    {MPI_UINT64_T, 8},
    {MPI_C_COMPLEX, sizeof(float _Complex)},
    {MPI_C_FLOAT_COMPLEX, sizeof(float _Complex)},
    {MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex)},
    {MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex)},
    {MPI_AINT, sizeof(MPI_Aint)},
    {MPI_OFFSET, sizeof(MPI_Offset)},
    {MPI_COUNT, sizeof(MPI_Count)},
};

static void test_predefined_sizes(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(c_types); i++) {
        const sim_datatype *dt = sim_dt_get(c_types[i].t);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dt);
        CU_ASSERT_EQUAL(sim_dt_size(dt), c_types[i].size);
        CU_ASSERT_EQUAL(sim_dt_extent(dt), (MPI_Aint)c_types[i].size);
        CU_ASSERT_EQUAL(sim_dt_lb(dt), 0);
        CU_ASSERT_EQUAL(sim_dt_true_lb(dt), 0);
        CU_ASSERT_EQUAL(sim_dt_true_extent(dt), (MPI_Aint)c_types[i].size);
        CU_ASSERT_TRUE(sim_dt_committed(dt));
        CU_ASSERT_TRUE(sim_dt_is_predefined(c_types[i].t));
        /* MPICH's handle encodes the size in bits 8-15. */
        CU_ASSERT_EQUAL(((unsigned)c_types[i].t >> 8) & 0xffu, c_types[i].size);
        /* One basic element each. */
        CU_ASSERT_EQUAL(sim_dt_elements_of(dt, c_types[i].size), 1);
    }
    CU_ASSERT_PTR_EQUAL(sim_dt_get(MPI_LONG_LONG), sim_dt_get(MPI_LONG_LONG_INT));
}

static void test_not_datatypes(void) {
    CU_ASSERT_PTR_NULL(sim_dt_get(MPI_DATATYPE_NULL));
    CU_ASSERT_PTR_NULL(sim_dt_get(MPI_LB));
    CU_ASSERT_PTR_NULL(sim_dt_get(MPI_UB));
    CU_ASSERT_PTR_NULL(sim_dt_get(MPI_COMM_WORLD));
    CU_ASSERT_PTR_NULL(sim_dt_get((MPI_Datatype)0x4c0004ff)); /* builtin kind, unknown index */
    CU_ASSERT_PTR_NULL(sim_dt_get((MPI_Datatype)0x8c000010)); /* derived, not created */
    CU_ASSERT_FALSE(sim_dt_is_predefined(MPI_DATATYPE_NULL));
    CU_ASSERT_FALSE(sim_dt_is_predefined(MPI_LB));
}

/* Contiguous data of every length up to 40 bytes (the short copies of
 * most messages take their own path) is packed and unpacked exactly: every
 * byte of the range, none past it. */
static void test_pack_short_lengths(void) {
    const sim_datatype *ch = sim_dt_get(MPI_CHAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ch);
    for (int n = 0; n <= 40; n++) {
        unsigned char src[48], packed[48], back[48];
        for (int i = 0; i < 48; i++) {
            src[i] = (unsigned char)(i * 7 + 1);
            packed[i] = 0xee;
            back[i] = 0xdd;
        }
        sim_dt_pack(ch, src, n, packed);
        sim_dt_unpack(ch, packed, (size_t)n, back, n);
        for (int i = 0; i < 48; i++) {
            CU_ASSERT_EQUAL(packed[i], i < n ? src[i] : 0xee);
            CU_ASSERT_EQUAL(back[i], i < n ? src[i] : 0xdd);
        }
    }
    /* Fewer bytes than the type's count holds: only those arrive. */
    unsigned char in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[12];
    memset(out, 0xcc, sizeof out);
    sim_dt_unpack(ch, in, 5, out, 10);
    for (int i = 0; i < 12; i++)
        CU_ASSERT_EQUAL(out[i], i < 5 ? in[i] : 0xcc);
}

/* sim_dt_get finds builtin types by their handle's low byte: a handle that
 * shares MPI_INT's low byte but differs above it is not MPI_INT, and the
 * table is filled again by the next sim_dt_init after sim_dt_fini. */
static void test_builtin_lookup_exact(void) {
    const sim_datatype *dt = sim_dt_get(MPI_INT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dt);
    CU_ASSERT_EQUAL(sim_dt_size(dt), sizeof(int));
    unsigned h = (unsigned)MPI_INT;
    CU_ASSERT_PTR_NULL(sim_dt_get((MPI_Datatype)((h & ~0xff00u) | 0x0800u))); /* size byte */
    CU_ASSERT_PTR_NULL(sim_dt_get((MPI_Datatype)((h & ~0x3c000000u) | 0x04000000u))); /* object */
    CU_ASSERT_PTR_NULL(sim_dt_get((MPI_Datatype)(h & 0xffu))); /* kind and object zero */
    sim_dt_fini();
    sim_dt_init();
    const sim_datatype *again = sim_dt_get(MPI_INT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_EQUAL(sim_dt_size(again), sizeof(int));
    CU_ASSERT_TRUE(sim_dt_is_predefined(MPI_INT));
}

typedef struct {
    MPI_Datatype t;
    size_t size;
    MPI_Aint extent, true_extent;
} pair_case;

struct s_float_int {
    float v;
    int i;
};
struct s_double_int {
    double v;
    int i;
};
struct s_long_int {
    long v;
    int i;
};
struct s_short_int {
    short v;
    int i;
};
struct s_long_double_int {
    long double v;
    int i;
};

static void test_pair_types(void) {
    const pair_case cases[] = {
        {MPI_FLOAT_INT, 8, sizeof(struct s_float_int), 8},
        {MPI_DOUBLE_INT, 12, sizeof(struct s_double_int), 12},
        {MPI_LONG_INT, 12, sizeof(struct s_long_int), 12},
        {MPI_SHORT_INT, 6, sizeof(struct s_short_int), 8},
        {MPI_2INT, 8, 2 * sizeof(int), 8},
        {MPI_LONG_DOUBLE_INT, sizeof(long double) + 4, sizeof(struct s_long_double_int),
         (MPI_Aint)(offsetof(struct s_long_double_int, i) + 4)},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const sim_datatype *dt = get(cases[i].t);
        CU_ASSERT_EQUAL(sim_dt_size(dt), cases[i].size);
        CU_ASSERT_EQUAL(sim_dt_extent(dt), cases[i].extent);
        CU_ASSERT_EQUAL(sim_dt_true_extent(dt), cases[i].true_extent);
        CU_ASSERT_EQUAL(sim_dt_lb(dt), 0);
        CU_ASSERT_TRUE(sim_dt_is_predefined(cases[i].t));
        CU_ASSERT_EQUAL(sim_dt_elements_of(dt, cases[i].size), 2);
        CU_ASSERT_EQUAL(sim_dt_count_of(dt, cases[i].size), 1);
    }
    /* The values the C layout implies on x86-64. */
    CU_ASSERT_EQUAL(sim_dt_extent(get(MPI_DOUBLE_INT)), 16);
    CU_ASSERT_EQUAL(sim_dt_extent(get(MPI_SHORT_INT)), 8);
    CU_ASSERT_EQUAL(sim_dt_extent(get(MPI_LONG_DOUBLE_INT)), 32);
    CU_ASSERT_EQUAL(sim_dt_size(get(MPI_LONG_DOUBLE_INT)), 20);
}

static void test_pair_pack_short_int(void) {
    struct s_short_int src[2], dst[2];
    memset(src, 0xaa, sizeof src);
    memset(dst, 0, sizeof dst);
    src[0].v = 0x0102;
    src[0].i = 0x03040506;
    src[1].v = 0x0708;
    src[1].i = 0x090a0b0c;
    unsigned char packed[12];
    sim_dt_pack(get(MPI_SHORT_INT), src, 2, packed);
    /* The padding after each short is skipped. */
    CU_ASSERT_EQUAL(memcmp(packed, &src[0].v, 2), 0);
    CU_ASSERT_EQUAL(memcmp(packed + 2, &src[0].i, 4), 0);
    CU_ASSERT_EQUAL(memcmp(packed + 6, &src[1].v, 2), 0);
    CU_ASSERT_EQUAL(memcmp(packed + 8, &src[1].i, 4), 0);
    sim_dt_unpack(get(MPI_SHORT_INT), packed, sizeof packed, dst, 2);
    CU_ASSERT_EQUAL(dst[0].v, 0x0102);
    CU_ASSERT_EQUAL(dst[0].i, 0x03040506);
    CU_ASSERT_EQUAL(dst[1].v, 0x0708);
    CU_ASSERT_EQUAL(dst[1].i, 0x090a0b0c);
    unsigned char pad[2] = {0, 0};
    CU_ASSERT_EQUAL(memcmp((char *)&dst[0] + 2, pad, 2), 0); /* padding untouched */
}

static void test_pair_signatures(void) {
    check_sig(MPI_DOUBLE_INT, 2, 4, (MPI_Datatype[]){MPI_DOUBLE, MPI_INT, MPI_DOUBLE, MPI_INT},
              (size_t[]){1, 1, 1, 1});
    check_sig(MPI_2INT, 3, 1, (MPI_Datatype[]){MPI_INT}, (size_t[]){6});
    check_sig(MPI_SHORT_INT, 1, 2, (MPI_Datatype[]){MPI_SHORT, MPI_INT}, (size_t[]){1, 1});
}

static void test_names(void) {
    CU_ASSERT_STRING_EQUAL(sim_dt_name(MPI_INT), "MPI_INT");
    CU_ASSERT_STRING_EQUAL(sim_dt_name(MPI_DOUBLE_INT), "MPI_DOUBLE_INT");
    CU_ASSERT_STRING_EQUAL(sim_dt_name(MPI_LONG_LONG), "MPI_LONG_LONG_INT");
    CU_ASSERT_STRING_EQUAL(sim_dt_name(MPI_DATATYPE_NULL), "MPI_DATATYPE_NULL");
    CU_ASSERT_STRING_EQUAL(sim_dt_name((MPI_Datatype)0x12345), "invalid datatype 0x00012345");
    MPI_Datatype t;
    OK(sim_dt_create_contiguous(R0, 2, MPI_INT, &t, NULL));
    CU_ASSERT_EQUAL(t, (MPI_Datatype)0x8c000010);
    CU_ASSERT_STRING_EQUAL(sim_dt_name(t), "derived type 0x8c000010");
    CU_ASSERT_STRING_EQUAL(sim_dt_get_name(R0, t), "");
    OK(sim_dt_set_name(R0, t, "row", NULL));
    CU_ASSERT_STRING_EQUAL(sim_dt_get_name(R0, t), "row");
    CU_ASSERT_STRING_EQUAL(sim_dt_name(t), "derived type 0x8c000010 \"row\"");
    /* Predefined names are per rank. */
    CU_ASSERT_STRING_EQUAL(sim_dt_get_name(R1, MPI_DOUBLE), "MPI_DOUBLE");
    OK(sim_dt_set_name(R1, MPI_DOUBLE, "real", NULL));
    CU_ASSERT_STRING_EQUAL(sim_dt_get_name(R1, MPI_DOUBLE), "real");
    CU_ASSERT_STRING_EQUAL(sim_dt_get_name(R0, MPI_DOUBLE), "MPI_DOUBLE");
    /* Long names are cut to MPI_MAX_OBJECT_NAME - 1 characters. */
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    OK(sim_dt_set_name(R0, t, longname, NULL));
    CU_ASSERT_EQUAL(strlen(sim_dt_get_name(R0, t)), MPI_MAX_OBJECT_NAME - 1);
}

/* ---------------------------------------------------------------------- */
/* Derived types: layouts                                                  */

static void test_contiguous_dense(void) {
    MPI_Datatype t;
    OK(sim_dt_create_contiguous(R0, 5, MPI_INT, &t, NULL));
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 20);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 20);
    CU_ASSERT_FALSE(sim_dt_committed(dt));
    CU_ASSERT_FALSE(sim_dt_is_predefined(t));
    MPI_Aint off = -1;
    /* One memcpy for any count: the whole range is one block. */
    CU_ASSERT_TRUE(sim_dt_is_dense(dt, 3, &off));
    CU_ASSERT_EQUAL(off, 0);
    int a[10], packed[10];
    fill_ints(a, 10);
    sim_dt_pack(dt, a, 2, packed);
    CU_ASSERT_EQUAL(memcmp(a, packed, sizeof a), 0);
    check_sig(t, 2, 1, (MPI_Datatype[]){MPI_INT}, (size_t[]){10});
    CU_ASSERT_EQUAL(sim_dt_count_of(dt, 40), 2);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 40), 10);
}

static void test_vector_layout(void) {
    MPI_Datatype t;
    OK(sim_dt_create_vector(R0, 3, 2, 4, MPI_INT, &t, NULL));
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 24);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 40);
    CU_ASSERT_EQUAL(sim_dt_lb(dt), 0);
    MPI_Aint off;
    CU_ASSERT_FALSE(sim_dt_is_dense(dt, 1, &off));
    int a[12], packed[6], b[12] = {0};
    fill_ints(a, 12);
    sim_dt_pack(dt, a, 1, packed);
    const int want[6] = {0, 1, 4, 5, 8, 9};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
    sim_dt_unpack(dt, packed, sizeof packed, b, 1);
    const int back[12] = {0, 1, 0, 0, 4, 5, 0, 0, 8, 9, 0, 0};
    CU_ASSERT_EQUAL(memcmp(b, back, sizeof back), 0);
}

static void test_vector_two_elements(void) {
    MPI_Datatype t;
    OK(sim_dt_create_vector(R0, 2, 1, 3, MPI_INT, &t, NULL));
    CU_ASSERT_EQUAL(sim_dt_extent(get(t)), 16);
    int a[8], packed[4];
    fill_ints(a, 8);
    sim_dt_pack(get(t), a, 2, packed);
    const int want[4] = {0, 3, 4, 7};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
}

static void test_hvector_negative_stride(void) {
    MPI_Datatype t;
    OK(sim_dt_create_hvector(R0, 3, 1, -8, MPI_INT, &t, NULL));
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_lb(dt), -16);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 20);
    CU_ASSERT_EQUAL(sim_dt_true_lb(dt), -16);
    CU_ASSERT_EQUAL(sim_dt_true_extent(dt), 20);
    int a[10], packed[3], b[10] = {0};
    fill_ints(a, 10);
    sim_dt_pack(dt, &a[8], 1, packed);
    const int want[3] = {8, 6, 4};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
    sim_dt_unpack(dt, packed, sizeof packed, &b[8], 1);
    const int back[10] = {0, 0, 0, 0, 4, 0, 6, 0, 8, 0};
    CU_ASSERT_EQUAL(memcmp(b, back, sizeof back), 0);
}

static void test_indexed_typemap_order(void) {
    MPI_Datatype t;
    OK(sim_dt_create_indexed(R0, 2, (int[]){1, 2}, (int[]){4, 0}, MPI_INT, &t, NULL));
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 12);
    CU_ASSERT_EQUAL(sim_dt_lb(dt), 0);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 20);
    int a[6], packed[3];
    fill_ints(a, 6);
    sim_dt_pack(dt, a, 1, packed);
    /* Packing follows the typemap, not increasing addresses. */
    const int want[3] = {4, 0, 1};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
    check_sig(t, 1, 1, (MPI_Datatype[]){MPI_INT}, (size_t[]){3});
}

static void test_indexed_negative_displacement(void) {
    MPI_Datatype t;
    OK(sim_dt_create_indexed(R0, 2, (int[]){1, 1}, (int[]){-2, 1}, MPI_INT, &t, NULL));
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_lb(dt), -8);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 16);
    CU_ASSERT_EQUAL(sim_dt_true_lb(dt), -8);
    int a[10], packed[4];
    fill_ints(a, 10);
    /* Two elements: the second is shifted by the extent (4 ints). */
    sim_dt_pack(dt, &a[3], 2, packed);
    const int want[4] = {1, 4, 5, 8};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
    int b[10] = {0};
    sim_dt_unpack(dt, packed, sizeof packed, &b[3], 2);
    const int back[10] = {0, 1, 0, 0, 4, 5, 0, 0, 8, 0};
    CU_ASSERT_EQUAL(memcmp(b, back, sizeof back), 0);
}

static void test_hindexed_bytes(void) {
    MPI_Datatype t;
    OK(sim_dt_create_hindexed(R0, 2, (int[]){2, 1}, (MPI_Aint[]){8, 0}, MPI_SHORT, &t, NULL));
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 6);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 12);
    short s[6] = {0, 1, 2, 3, 4, 5}, packed[3];
    sim_dt_pack(dt, s, 1, packed);
    const short want[3] = {4, 5, 0};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
}

static void test_indexed_block_variants(void) {
    MPI_Datatype t, h;
    OK(sim_dt_create_indexed_block(R0, 3, 2, (int[]){0, 3, 6}, MPI_INT, &t, NULL));
    CU_ASSERT_EQUAL(sim_dt_size(get(t)), 24);
    CU_ASSERT_EQUAL(sim_dt_extent(get(t)), 32);
    int a[8], packed[6];
    fill_ints(a, 8);
    sim_dt_pack(get(t), a, 1, packed);
    const int want[6] = {0, 1, 3, 4, 6, 7};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);

    OK(sim_dt_create_hindexed_block(R0, 2, 1, (MPI_Aint[]){12, 4}, MPI_INT, &h, NULL));
    CU_ASSERT_EQUAL(sim_dt_lb(get(h)), 4);
    CU_ASSERT_EQUAL(sim_dt_extent(get(h)), 12);
    sim_dt_pack(get(h), a, 1, packed);
    CU_ASSERT_EQUAL(packed[0], 3);
    CU_ASSERT_EQUAL(packed[1], 1);
}

struct cdi {
    char c;
    double d;
    int i;
};

static MPI_Datatype make_cdi(void) {
    MPI_Datatype t;
    OK(sim_dt_create_struct(
        R0, 3, (int[]){1, 1, 1},
        (MPI_Aint[]){offsetof(struct cdi, c), offsetof(struct cdi, d), offsetof(struct cdi, i)},
        (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE, MPI_INT}, &t, NULL));
    return t;
}

static void test_struct_layout_and_padding(void) {
    MPI_Datatype t = make_cdi();
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 13);
    CU_ASSERT_EQUAL(sim_dt_lb(dt), 0);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), (MPI_Aint)sizeof(struct cdi)); /* 24: padded like C */
    CU_ASSERT_EQUAL(sim_dt_true_extent(dt), (MPI_Aint)offsetof(struct cdi, i) + 4);
    struct cdi src[2] = {{'x', 2.5, 7}, {'y', -1.0, 9}}, dst[2];
    memset(dst, 0, sizeof dst);
    unsigned char packed[26];
    sim_dt_pack(dt, src, 2, packed);
    CU_ASSERT_EQUAL(packed[0], 'x');
    CU_ASSERT_EQUAL(memcmp(packed + 1, &src[0].d, 8), 0);
    CU_ASSERT_EQUAL(memcmp(packed + 9, &src[0].i, 4), 0);
    CU_ASSERT_EQUAL(packed[13], 'y');
    CU_ASSERT_EQUAL(memcmp(packed + 14, &src[1].d, 8), 0);
    CU_ASSERT_EQUAL(memcmp(packed + 22, &src[1].i, 4), 0);
    sim_dt_unpack(dt, packed, sizeof packed, dst, 2);
    CU_ASSERT_EQUAL(dst[1].c, 'y');
    CU_ASSERT_EQUAL(dst[1].d, -1.0);
    CU_ASSERT_EQUAL(dst[1].i, 9);
    check_sig(t, 1, 3, (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE, MPI_INT}, (size_t[]){1, 1, 1});
}

static void test_struct_extent_matches_c(void) {
    struct ic {
        int a;
        char b;
    };
    struct sc {
        short a;
        char b;
    };
    MPI_Datatype t1, t2, t3;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct ic, b)},
                            (MPI_Datatype[]){MPI_INT, MPI_CHAR}, &t1, NULL));
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct sc, b)},
                            (MPI_Datatype[]){MPI_SHORT, MPI_CHAR}, &t2, NULL));
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 1},
                            (MPI_Datatype[]){MPI_CHAR, MPI_CHAR}, &t3, NULL));
    CU_ASSERT_EQUAL(sim_dt_extent(get(t1)), (MPI_Aint)sizeof(struct ic));
    CU_ASSERT_EQUAL(sim_dt_extent(get(t2)), (MPI_Aint)sizeof(struct sc));
    CU_ASSERT_EQUAL(sim_dt_extent(get(t3)), 2);
    /* A vector is not padded: no epsilon outside structs. */
    MPI_Datatype v;
    OK(sim_dt_create_hvector(R0, 2, 1, 5, MPI_INT, &v, NULL));
    CU_ASSERT_EQUAL(sim_dt_extent(get(v)), 9);
}

static void test_resized(void) {
    MPI_Datatype r, c;
    OK(sim_dt_create_resized(R0, MPI_INT, -4, 12, &r, NULL));
    const sim_datatype *dt = get(r);
    CU_ASSERT_EQUAL(sim_dt_lb(dt), -4);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 12);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 4);
    CU_ASSERT_EQUAL(sim_dt_true_lb(dt), 0);
    CU_ASSERT_EQUAL(sim_dt_true_extent(dt), 4);
    OK(sim_dt_create_contiguous(R0, 3, r, &c, NULL));
    CU_ASSERT_EQUAL(sim_dt_lb(get(c)), -4);
    CU_ASSERT_EQUAL(sim_dt_extent(get(c)), 36);
    int a[9], packed[3];
    fill_ints(a, 9);
    sim_dt_pack(get(c), a, 1, packed);
    const int want[3] = {0, 3, 6};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
    /* count > 1 of the resized type itself steps by the new extent. */
    sim_dt_pack(dt, &a[1], 3, packed);
    const int want2[3] = {1, 4, 7};
    CU_ASSERT_EQUAL(memcmp(packed, want2, sizeof want2), 0);
}

static void test_resized_markers_are_sticky(void) {
    MPI_Datatype r, s;
    OK(sim_dt_create_resized(R0, MPI_INT, 0, 16, &r, NULL));
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 20},
                            (MPI_Datatype[]){r, MPI_CHAR}, &s, NULL));
    const sim_datatype *dt = get(s);
    /* The upper-bound marker at 16 wins over the char at 20; no padding. */
    CU_ASSERT_EQUAL(sim_dt_lb(dt), 0);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 16);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 5);
    CU_ASSERT_EQUAL(sim_dt_true_extent(dt), 21);
}

static void test_lb_ub_markers_in_struct(void) {
    MPI_Datatype t;
    OK(sim_dt_create_struct(R0, 3, (int[]){1, 1, 1}, (MPI_Aint[]){-8, 0, 32},
                            (MPI_Datatype[]){MPI_LB, MPI_INT, MPI_UB}, &t, NULL));
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_lb(dt), -8);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), 40);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 4);
    CU_ASSERT_EQUAL(sim_dt_true_lb(dt), 0);
    CU_ASSERT_EQUAL(sim_dt_true_extent(dt), 4);
    int a[30], packed[3];
    fill_ints(a, 30);
    sim_dt_pack(dt, a, 3, packed);
    CU_ASSERT_EQUAL(packed[0], 0);
    CU_ASSERT_EQUAL(packed[1], 10);
    CU_ASSERT_EQUAL(packed[2], 20);
}

static void test_dup(void) {
    MPI_Datatype v, d, d2, di;
    OK(sim_dt_create_vector(R0, 2, 1, 2, MPI_INT, &v, NULL));
    OK(sim_dt_dup(R0, v, &d, NULL));
    CU_ASSERT_NOT_EQUAL(d, v);
    CU_ASSERT_FALSE(sim_dt_committed(get(d))); /* same committed state */
    OK(sim_dt_commit(R0, v, NULL));
    OK(sim_dt_dup(R0, v, &d2, NULL));
    CU_ASSERT_TRUE(sim_dt_committed(get(d2)));
    OK(sim_dt_dup(R0, MPI_INT, &di, NULL));
    CU_ASSERT_TRUE(sim_dt_committed(get(di)));
    CU_ASSERT_FALSE(sim_dt_is_predefined(di));
    OK(sim_dt_free(R0, v, NULL));
    /* Invalid for the program; the copies' records (MPI_Type_get_contents)
     * still refer to it. */
    CU_ASSERT_PTR_NULL(sim_dt_lookup(v, R0, "datatype", NULL));
    /* The copy's layout owes nothing to the freed original. */
    CU_ASSERT_EQUAL(sim_dt_size(get(d2)), 8);
    CU_ASSERT_EQUAL(sim_dt_extent(get(d2)), 12);
    int a[4] = {10, 11, 12, 13}, packed[2];
    sim_dt_pack(get(d2), a, 1, packed);
    CU_ASSERT_EQUAL(packed[0], 10);
    CU_ASSERT_EQUAL(packed[1], 12);
}

static void test_vector_of_struct(void) {
    struct id {
        int a;
        double b;
    };
    MPI_Datatype s, v;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct id, b)},
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &s, NULL));
    CU_ASSERT_EQUAL(sim_dt_extent(get(s)), (MPI_Aint)sizeof(struct id));
    OK(sim_dt_create_vector(R0, 2, 1, 2, s, &v, NULL));
    CU_ASSERT_EQUAL(sim_dt_size(get(v)), 24);
    CU_ASSERT_EQUAL(sim_dt_extent(get(v)), 3 * (MPI_Aint)sizeof(struct id));
    struct id arr[4] = {{1, 1.5}, {2, 2.5}, {3, 3.5}, {4, 4.5}}, out[4];
    memset(out, 0, sizeof out);
    unsigned char packed[24];
    sim_dt_pack(get(v), arr, 1, packed);
    int i0, i2;
    double d0, d2;
    memcpy(&i0, packed, 4);
    memcpy(&d0, packed + 4, 8);
    memcpy(&i2, packed + 12, 4);
    memcpy(&d2, packed + 16, 8);
    CU_ASSERT_EQUAL(i0, 1);
    CU_ASSERT_EQUAL(d0, 1.5);
    CU_ASSERT_EQUAL(i2, 3);
    CU_ASSERT_EQUAL(d2, 3.5);
    sim_dt_unpack(get(v), packed, sizeof packed, out, 1);
    CU_ASSERT_EQUAL(out[2].a, 3);
    CU_ASSERT_EQUAL(out[1].a, 0);
    check_sig(v, 1, 4, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_INT, MPI_DOUBLE},
              (size_t[]){1, 1, 1, 1});
}

static void test_contiguous_of_vector(void) {
    MPI_Datatype v, c;
    OK(sim_dt_create_vector(R0, 2, 1, 2, MPI_INT, &v, NULL));
    CU_ASSERT_EQUAL(sim_dt_extent(get(v)), 12);
    OK(sim_dt_create_contiguous(R0, 4, v, &c, NULL));
    CU_ASSERT_EQUAL(sim_dt_extent(get(c)), 48);
    CU_ASSERT_EQUAL(sim_dt_size(get(c)), 32);
    int a[12], packed[8];
    fill_ints(a, 12);
    sim_dt_pack(get(c), a, 1, packed);
    const int want[8] = {0, 2, 3, 5, 6, 8, 9, 11};
    CU_ASSERT_EQUAL(memcmp(packed, want, sizeof want), 0);
}

static void test_nested_contiguous_of_pairs(void) {
    MPI_Datatype c2, c6;
    OK(sim_dt_create_contiguous(R0, 2, MPI_DOUBLE_INT, &c2, NULL));
    OK(sim_dt_create_contiguous(R0, 3, c2, &c6, NULL));
    CU_ASSERT_EQUAL(sim_dt_size(get(c6)), 72);
    CU_ASSERT_EQUAL(sim_dt_extent(get(c6)), 96);
    struct s_double_int src[6], dst[6];
    memset(src, 0x55, sizeof src);
    memset(dst, 0, sizeof dst);
    for (int i = 0; i < 6; i++) {
        src[i].v = i + 0.25;
        src[i].i = 100 + i;
    }
    unsigned char packed[72];
    sim_dt_pack(get(c6), src, 1, packed);
    for (int i = 0; i < 6; i++) {
        double v;
        int k;
        memcpy(&v, packed + 12 * i, 8);
        memcpy(&k, packed + 12 * i + 8, 4);
        CU_ASSERT_EQUAL(v, i + 0.25);
        CU_ASSERT_EQUAL(k, 100 + i);
    }
    sim_dt_unpack(get(c6), packed, sizeof packed, dst, 1);
    CU_ASSERT_EQUAL(dst[5].v, 5.25);
    CU_ASSERT_EQUAL(dst[5].i, 105);
    CU_ASSERT_EQUAL(sim_dt_elements_of(get(c6), 72), 12);
    run_list runs = runs_of(c6, 1);
    CU_ASSERT_EQUAL(runs.basics->len, 12);
    CU_ASSERT_EQUAL(g_array_index(runs.basics, MPI_Datatype, 11), MPI_INT);
    runs_free(&runs);
}

static void test_absolute_addresses(void) {
    /* Displacements from MPI_Get_address used with MPI_BOTTOM (NULL). */
    int x = 42;
    double y = 6.5;
    MPI_Datatype t;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1},
                            (MPI_Aint[]){(MPI_Aint)(uintptr_t)&x, (MPI_Aint)(uintptr_t)&y},
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t, NULL));
    unsigned char packed[12];
    sim_dt_pack(get(t), NULL, 1, packed);
    int x2;
    double y2;
    memcpy(&x2, packed, 4);
    memcpy(&y2, packed + 4, 8);
    CU_ASSERT_EQUAL(x2, 42);
    CU_ASSERT_EQUAL(y2, 6.5);
    x = 0;
    y = 0;
    sim_dt_unpack(get(t), packed, sizeof packed, NULL, 1);
    CU_ASSERT_EQUAL(x, 42);
    CU_ASSERT_EQUAL(y, 6.5);
}

/* ---------------------------------------------------------------------- */
/* Short messages and counting                                             */

static void test_partial_unpack(void) {
    int packed[3] = {7, 8, 0x0a0b0c0d};
    int b[3] = {-1, -1, -1};
    MPI_Datatype c;
    OK(sim_dt_create_contiguous(R0, 3, MPI_INT, &c, NULL));
    sim_dt_unpack(get(c), packed, 10, b, 1);
    CU_ASSERT_EQUAL(b[0], 7);
    CU_ASSERT_EQUAL(b[1], 8);
    CU_ASSERT_EQUAL(memcmp(&b[2], &packed[2], 2), 0);
    const unsigned char ff[2] = {0xff, 0xff};
    CU_ASSERT_EQUAL(memcmp((char *)&b[2] + 2, ff, 2), 0);

    MPI_Datatype v;
    OK(sim_dt_create_vector(R0, 3, 2, 4, MPI_INT, &v, NULL));
    int src[6] = {1, 2, 3, 4, 5, 6}, dst[12] = {0};
    sim_dt_unpack(get(v), src, 12, dst, 1);
    const int want[12] = {1, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0};
    CU_ASSERT_EQUAL(memcmp(dst, want, sizeof want), 0);
    /* More bytes than the buffer holds: only count elements are written. */
    int big[8] = {1, 2, 3, 4, 5, 6, 7, 8}, two[3] = {0, 0, -1};
    sim_dt_unpack(get(MPI_INT), big, sizeof big, two, 2);
    CU_ASSERT_EQUAL(two[1], 2);
    CU_ASSERT_EQUAL(two[2], -1);
}

static void test_get_count(void) {
    CU_ASSERT_EQUAL(sim_dt_count_of(get(MPI_INT), 12), 3);
    CU_ASSERT_EQUAL(sim_dt_count_of(get(MPI_INT), 10), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_count_of(get(MPI_INT), 0), 0);
    MPI_Datatype empty, v;
    OK(sim_dt_create_contiguous(R0, 0, MPI_INT, &empty, NULL));
    CU_ASSERT_EQUAL(sim_dt_count_of(get(empty), 0), 0);
    OK(sim_dt_create_vector(R0, 3, 2, 4, MPI_INT, &v, NULL));
    CU_ASSERT_EQUAL(sim_dt_count_of(get(v), 48), 2);
    CU_ASSERT_EQUAL(sim_dt_count_of(get(v), 30), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_elements_of(get(v), 30), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_elements_of(get(v), 32), 8);
    /* Counts that do not fit an int. */
    CU_ASSERT_EQUAL(sim_dt_count_of(get(MPI_CHAR), (size_t)INT_MAX + 1), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_elements_of(get(MPI_CHAR), (size_t)INT_MAX + 1), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_elements_of_x(get(MPI_CHAR), (size_t)INT_MAX + 1),
                    (MPI_Count)INT_MAX + 1);
}

static void test_get_elements_struct(void) {
    struct id {
        int a;
        double b;
    };
    MPI_Datatype s;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct id, b)},
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &s, NULL));
    const sim_datatype *dt = get(s);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 12);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 0), 0);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 4), 1);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 6), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 12), 2);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 16), 3);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 24), 4);
    CU_ASSERT_EQUAL(sim_dt_elements_of_x(dt, 16), 3);
    CU_ASSERT_EQUAL(sim_dt_count_of(dt, 16), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_count_of(dt, 24), 2);
    CU_ASSERT_EQUAL(sim_dt_elements_of(get(MPI_DOUBLE_INT), 12), 2);
    CU_ASSERT_EQUAL(sim_dt_elements_of(get(MPI_DOUBLE_INT), 8), 1);
    CU_ASSERT_EQUAL(sim_dt_count_of(get(MPI_DOUBLE_INT), 8), MPI_UNDEFINED);
}

static void test_status_bytes(void) {
    MPI_Status st;
    memset(&st, 0, sizeof st);
    sim_status_set_bytes(&st, 5);
    CU_ASSERT_EQUAL(sim_status_bytes(&st), 5);
    CU_ASSERT_EQUAL(st.count_lo, 5);
    CU_ASSERT_EQUAL(st.count_hi_and_cancelled, 0);
    sim_status_set_bytes(&st, 0xffffffffu);
    CU_ASSERT_EQUAL(sim_status_bytes(&st), 0xffffffffu);
    size_t big = ((size_t)1 << 33) + 7;
    sim_status_set_bytes(&st, big);
    CU_ASSERT_EQUAL(sim_status_bytes(&st), big);
    CU_ASSERT_EQUAL(st.count_hi_and_cancelled, 2 << 1);
    /* The cancelled flag in bit 0 survives setting and reading the count. */
    st.count_hi_and_cancelled |= 1;
    sim_status_set_bytes(&st, ((size_t)1 << 40) + 3);
    CU_ASSERT_EQUAL(st.count_hi_and_cancelled & 1, 1);
    CU_ASSERT_EQUAL(sim_status_bytes(&st), ((size_t)1 << 40) + 3);
    sim_status_set_bytes(&st, 12);
    CU_ASSERT_EQUAL(st.count_hi_and_cancelled, 1);
    CU_ASSERT_EQUAL(sim_status_bytes(&st), 12);
}

/* ---------------------------------------------------------------------- */
/* Signatures and matching                                                 */

static void test_signature_runs(void) {
    MPI_Datatype v;
    OK(sim_dt_create_vector(R0, 3, 2, 4, MPI_INT, &v, NULL));
    check_sig(v, 2, 1, (MPI_Datatype[]){MPI_INT}, (size_t[]){12});
    MPI_Datatype s = make_cdi();
    check_sig(s, 2, 6,
              (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE, MPI_INT, MPI_CHAR, MPI_DOUBLE, MPI_INT},
              (size_t[]){1, 1, 1, 1, 1, 1});
    check_sig(MPI_INT, 0, 0, NULL, NULL);
}

static void test_uniform_basic(void) {
    MPI_Datatype v, e;
    OK(sim_dt_create_vector(R0, 3, 2, 4, MPI_DOUBLE, &v, NULL));
    OK(sim_dt_create_contiguous(R0, 0, MPI_INT, &e, NULL));
    CU_ASSERT_EQUAL(sim_dt_uniform_basic(get(v)), MPI_DOUBLE);
    CU_ASSERT_EQUAL(sim_dt_uniform_basic(get(MPI_INT)), MPI_INT);
    CU_ASSERT_EQUAL(sim_dt_uniform_basic(get(MPI_2INT)), MPI_INT);
    CU_ASSERT_EQUAL(sim_dt_uniform_basic(get(MPI_DOUBLE_INT)), MPI_DATATYPE_NULL);
    CU_ASSERT_EQUAL(sim_dt_uniform_basic(get(make_cdi())), MPI_DATATYPE_NULL);
    CU_ASSERT_EQUAL(sim_dt_uniform_basic(get(e)), MPI_DATATYPE_NULL);
}

static void test_match_type_mismatch(void) {
    char *why = NULL;
    CU_ASSERT_FALSE(matches(sig_of(MPI_DOUBLE, 2), MPI_INT, 4, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_STRING_EQUAL(
        why, "element 0 is MPI_DOUBLE in the message but MPI_INT in the receive type");
    g_free(why);
    why = NULL;
    /* Mismatch after a matching prefix names the right element. */
    MPI_Datatype s;
    OK(sim_dt_create_struct(R0, 2, (int[]){2, 1}, (MPI_Aint[]){0, 8},
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &s, NULL));
    CU_ASSERT_FALSE(matches(sig_of(s, 1), MPI_INT, 4, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_STRING_EQUAL(
        why, "element 2 is MPI_DOUBLE in the message but MPI_INT in the receive type");
    g_free(why);
    /* Same types match; NULL why is allowed. */
    CU_ASSERT_TRUE(matches(sig_of(s, 2), s, 2, NULL));
    /* A receive type of one basic type is compared run by run: a long
     * message matches, and a mismatch deep inside it is found and named. */
    CU_ASSERT_TRUE(matches(sig_of(MPI_BYTE, 1 << 20), MPI_BYTE, 1 << 20, NULL));
    MPI_Datatype tail;
    OK(sim_dt_create_struct(R0, 2, (int[]){100000, 1}, (MPI_Aint[]){0, 400000},
                            (MPI_Datatype[]){MPI_INT, MPI_FLOAT}, &tail, NULL));
    CU_ASSERT_FALSE(matches(sig_of(tail, 1), MPI_INT, 100001, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_STRING_EQUAL(
        why, "element 100000 is MPI_FLOAT in the message but MPI_INT in the receive type");
    g_free(why);
    why = NULL;
}

static void test_match_byte_and_packed(void) {
    MPI_Datatype s = make_cdi();
    CU_ASSERT_TRUE(matches(sig_of(MPI_BYTE, 8), MPI_INT, 2, NULL));
    CU_ASSERT_TRUE(matches(sig_of(MPI_INT, 2), MPI_BYTE, 8, NULL));
    CU_ASSERT_TRUE(matches(sig_of(MPI_PACKED, 13), s, 1, NULL));
    CU_ASSERT_TRUE(matches(sig_of(s, 1), MPI_PACKED, 13, NULL));
    /* Bytes need not fill whole elements of the receive type. */
    CU_ASSERT_TRUE(matches(sig_of(MPI_BYTE, 3), MPI_INT, 1, NULL));
}

static void test_match_prefix_and_truncation(void) {
    /* Fewer elements than the receive type holds: a prefix, fine. */
    CU_ASSERT_TRUE(matches(sig_of(MPI_INT, 2), MPI_INT, 5, NULL));
    MPI_Datatype s = make_cdi();
    MPI_Datatype pre;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                            (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE}, &pre, NULL));
    CU_ASSERT_TRUE(matches(sig_of(pre, 1), s, 3, NULL));
    /* More elements than it holds: truncation, which is not a signature
     * error; only the part that fits is compared. */
    CU_ASSERT_TRUE(matches(sig_of(MPI_INT, 10), MPI_INT, 5, NULL));
    MPI_Datatype tail;
    OK(sim_dt_create_struct(R0, 2, (int[]){5, 1}, (MPI_Aint[]){0, 24},
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &tail, NULL));
    CU_ASSERT_TRUE(matches(sig_of(tail, 1), MPI_INT, 5, NULL));
    CU_ASSERT_FALSE(matches(sig_of(tail, 1), MPI_INT, 6, NULL));
    /* A receive of size 0 matches anything (all of it is truncation). */
    CU_ASSERT_TRUE(matches(sig_of(MPI_DOUBLE, 1), MPI_INT, 0, NULL));
}

static void test_match_distinct_handles(void) {
    CU_ASSERT_FALSE(matches(sig_of(MPI_CHAR, 1), MPI_SIGNED_CHAR, 1, NULL));
    CU_ASSERT_FALSE(matches(sig_of(MPI_CHAR, 1), MPI_UNSIGNED_CHAR, 1, NULL));
    CU_ASSERT_FALSE(matches(sig_of(MPI_INT, 1), MPI_INT32_T, 1, NULL));
    CU_ASSERT_FALSE(matches(sig_of(MPI_LONG, 1), MPI_LONG_LONG, 1, NULL));
    CU_ASSERT_TRUE(matches(sig_of(MPI_LONG_LONG, 3), MPI_LONG_LONG_INT, 3, NULL));
    CU_ASSERT_TRUE(matches(sig_of(MPI_C_COMPLEX, 1), MPI_C_FLOAT_COMPLEX, 1, NULL));
    /* Pair types match their components; MPI_2INT is two ints. */
    MPI_Datatype di;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                            (MPI_Datatype[]){MPI_DOUBLE, MPI_INT}, &di, NULL));
    CU_ASSERT_TRUE(matches(sig_of(MPI_DOUBLE_INT, 2), di, 2, NULL));
    CU_ASSERT_TRUE(matches(sig_of(MPI_2INT, 2), MPI_INT, 4, NULL));
    char *why = NULL;
    CU_ASSERT_FALSE(matches(sig_of(MPI_DOUBLE_INT, 1), MPI_DOUBLE, 2, &why));
    CU_ASSERT_STRING_EQUAL(
        why, "element 1 is MPI_INT in the message but MPI_DOUBLE in the receive type");
    g_free(why);
}

/* ---------------------------------------------------------------------- */
/* Handles, life cycle, errors                                             */

static void test_commit(void) {
    MPI_Datatype t;
    OK(sim_dt_create_contiguous(R0, 2, MPI_INT, &t, NULL));
    CU_ASSERT_FALSE(sim_dt_committed(get(t)));
    OK(sim_dt_commit(R0, t, NULL));
    CU_ASSERT_TRUE(sim_dt_committed(get(t)));
    OK(sim_dt_commit(R0, t, NULL));
    OK(sim_dt_commit(R0, MPI_INT, NULL));
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_dt_commit(R0, MPI_DATATYPE_NULL, &why), MPI_ERR_TYPE);
    CU_ASSERT_STRING_EQUAL(why, "datatype is MPI_DATATYPE_NULL");
    g_free(why);
}

static void test_free_rules(void) {
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_dt_free(R0, MPI_INT, &why), MPI_ERR_TYPE);
    CU_ASSERT_STRING_EQUAL(why, "datatype MPI_INT is predefined and cannot be freed");
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(sim_dt_free(R0, MPI_DOUBLE_INT, NULL), MPI_ERR_TYPE);

    MPI_Datatype a, b, c, d, e;
    OK(sim_dt_create_contiguous(R0, 1, MPI_INT, &a, NULL));
    OK(sim_dt_create_contiguous(R0, 2, MPI_INT, &b, NULL));
    OK(sim_dt_create_contiguous(R0, 3, MPI_INT, &c, NULL));
    CU_ASSERT_EQUAL(a, (MPI_Datatype)0x8c000010);
    CU_ASSERT_EQUAL(c, (MPI_Datatype)0x8c000012);
    /* Another rank may not free (or use) rank 0's type. */
    CU_ASSERT_EQUAL(sim_dt_free(R1, b, &why), MPI_ERR_TYPE);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "was created by rank 0"));
    g_free(why);
    why = NULL;
    CU_ASSERT_PTR_NULL(sim_dt_lookup(b, R1, "oldtype", NULL));
    CU_ASSERT_PTR_NOT_NULL(sim_dt_lookup(b, R0, "oldtype", NULL));
    OK(sim_dt_free(R0, b, NULL));
    CU_ASSERT_EQUAL(sim_dt_free(R0, b, &why), MPI_ERR_TYPE);
    CU_ASSERT_STRING_EQUAL(why, "datatype 0x8c000011 is not a valid datatype (freed or never "
                                "created)");
    g_free(why);
    /* Freed handles are reused lowest first. */
    OK(sim_dt_free(R0, a, NULL));
    OK(sim_dt_create_contiguous(R0, 4, MPI_INT, &d, NULL));
    OK(sim_dt_create_contiguous(R0, 5, MPI_INT, &e, NULL));
    CU_ASSERT_EQUAL(d, a);
    CU_ASSERT_EQUAL(e, b);
    CU_ASSERT_EQUAL(sim_dt_size(get(e)), 20);
}

/* Buffer arguments overlap when a byte of one type map is in the other:
 * gaps do not count, bounds decide at once when they do not meet. */
static void test_regions_overlap(void) {
    int buf[16];
    const sim_datatype *i1 = get(MPI_INT);
    uintptr_t at = 0;
    sim_dt_region a = {buf, 4, i1}, b = {buf + 4, 4, i1};
    CU_ASSERT_FALSE(sim_dt_regions_overlap(&a, 1, &b, 1, &at)); /* adjacent */
    b.buf = buf + 3;
    CU_ASSERT_TRUE(sim_dt_regions_overlap(&a, 1, &b, 1, &at));
    CU_ASSERT_EQUAL(at, (uintptr_t)(buf + 3));
    CU_ASSERT_TRUE(sim_dt_regions_overlap(&b, 1, &a, 1, &at)); /* symmetric */
    CU_ASSERT_EQUAL(at, (uintptr_t)(buf + 3));
    b.count = 0; /* nothing to overlap with */
    CU_ASSERT_FALSE(sim_dt_regions_overlap(&a, 1, &b, 1, &at));
    b.count = 4;
    b.dt = NULL;
    CU_ASSERT_FALSE(sim_dt_regions_overlap(&a, 1, &b, 1, &at));

    /* Every other int, and the ints between: interleaved, disjoint. */
    MPI_Datatype every_other;
    OK(sim_dt_create_vector(R0, 4, 1, 2, MPI_INT, &every_other, NULL));
    const sim_datatype *v = get(every_other);
    sim_dt_region even = {buf, 1, v}, odd = {buf + 1, 1, v};
    CU_ASSERT_FALSE(sim_dt_regions_overlap(&even, 1, &odd, 1, &at));
    sim_dt_region shifted = {buf + 6, 1, v}; /* ints 6, 8, 10, 12 */
    CU_ASSERT_TRUE(sim_dt_regions_overlap(&even, 1, &shifted, 1, &at));
    CU_ASSERT_EQUAL(at, (uintptr_t)(buf + 6));
    /* Two elements of the vector: the second starts at the first's extent
     * (7 ints), so int 7 belongs to it and to odd. */
    even.count = 2;
    CU_ASSERT_TRUE(sim_dt_regions_overlap(&even, 1, &odd, 1, &at));
    CU_ASSERT_EQUAL(at, (uintptr_t)(buf + 7));

    /* Several regions a side: the blocks of a v collective. */
    sim_dt_region blocks[2] = {{buf, 2, i1}, {buf + 8, 2, i1}};
    sim_dt_region gap = {buf + 2, 6, i1}, into = {buf + 9, 1, i1};
    CU_ASSERT_FALSE(sim_dt_regions_overlap(blocks, 2, &gap, 1, &at));
    CU_ASSERT_TRUE(sim_dt_regions_overlap(&gap, 1, blocks, 2, &at) == false);
    sim_dt_region both[2] = {gap, into};
    CU_ASSERT_TRUE(sim_dt_regions_overlap(blocks, 2, both, 2, &at));
    CU_ASSERT_EQUAL(at, (uintptr_t)(buf + 9));
    OK(sim_dt_free(R0, every_other, NULL));
}

/* More blocks than are compared: no verdict rather than a wrong one. */
static void test_regions_overlap_limit(void) {
    size_t n = (size_t)SIM_DT_OVERLAP_MAX_BLOCKS + 8;
    char *buf = g_malloc0(2 * n + 2);
    MPI_Datatype every_other;
    OK(sim_dt_create_vector(R0, (int)n, 1, 2, MPI_CHAR, &every_other, NULL));
    sim_dt_region a = {buf, 1, get(every_other)}, b = {buf + 2, 1, get(every_other)};
    uintptr_t at = 0;
    CU_ASSERT_FALSE(sim_dt_regions_overlap(&a, 1, &b, 1, &at));
    b.count = 0;
    CU_ASSERT_FALSE(sim_dt_regions_overlap(&a, 1, &b, 1, &at));
    OK(sim_dt_free(R0, every_other, NULL));
    g_free(buf);
}

/* Basic elements with their offsets, as runs. */
typedef struct elem_run {
    MPI_Datatype basic;
    MPI_Aint off;
    size_t n;
} elem_run;

static bool collect_element(MPI_Datatype basic, MPI_Aint off, size_t n, void *data) {
    GArray *a = data;
    elem_run r = {basic, off, n};
    g_array_append_val(a, r);
    return true;
}

static GArray *elements_of(MPI_Datatype type, int count) {
    GArray *a = g_array_new(FALSE, FALSE, sizeof(elem_run));
    CU_ASSERT_TRUE(sim_dt_each_element(get(type), count, collect_element, a));
    return a;
}

static void run_is(GArray *a, guint i, MPI_Datatype basic, MPI_Aint off, size_t n) {
    CU_ASSERT_FATAL(a->len > i);
    const elem_run *r = &g_array_index(a, elem_run, i);
    CU_ASSERT_EQUAL(r->basic, basic);
    CU_ASSERT_EQUAL(r->off, off);
    CU_ASSERT_EQUAL(r->n, n);
}

static void test_each_element(void) {
    /* A contiguous run of one type: one call. */
    GArray *a = elements_of(MPI_DOUBLE, 5);
    CU_ASSERT_EQUAL(a->len, 1);
    run_is(a, 0, MPI_DOUBLE, 0, 5);
    g_array_free(a, TRUE);
    /* A struct {int; double} with its padding, twice: the elements sit
     * where the displacements put them, the second copy one extent on. */
    struct id {
        int a;
        double b;
    };
    MPI_Datatype st;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct id, b)},
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &st, NULL));
    a = elements_of(st, 2);
    CU_ASSERT_EQUAL(a->len, 4);
    run_is(a, 0, MPI_INT, 0, 1);
    run_is(a, 1, MPI_DOUBLE, 8, 1);
    run_is(a, 2, MPI_INT, 16, 1);
    run_is(a, 3, MPI_DOUBLE, 24, 1);
    g_array_free(a, TRUE);
    /* A vector with a negative stride: typemap order, not address order. */
    MPI_Datatype v;
    OK(sim_dt_create_hvector(R0, 3, 2, -12, MPI_FLOAT, &v, NULL));
    a = elements_of(v, 1);
    CU_ASSERT_EQUAL(a->len, 3);
    run_is(a, 0, MPI_FLOAT, 0, 2);
    run_is(a, 1, MPI_FLOAT, -12, 2);
    run_is(a, 2, MPI_FLOAT, -24, 2);
    g_array_free(a, TRUE);
    /* A pair type: its two basic types. */
    a = elements_of(MPI_DOUBLE_INT, 1);
    CU_ASSERT_EQUAL(a->len, 2);
    run_is(a, 0, MPI_DOUBLE, 0, 1);
    run_is(a, 1, MPI_INT, 8, 1);
    g_array_free(a, TRUE);
    OK(sim_dt_free(R0, st, NULL));
    OK(sim_dt_free(R0, v, NULL));
}

static void test_overlaps_itself(void) {
    MPI_Aint at = -1;
    CU_ASSERT_FALSE(sim_dt_overlaps_itself(get(MPI_INT), 10, &at));
    /* Floats 3 bytes apart: the second starts inside the first. */
    MPI_Datatype h3, h4, r;
    OK(sim_dt_create_hvector(R0, 4, 1, 3, MPI_FLOAT, &h3, NULL));
    CU_ASSERT_TRUE(sim_dt_overlaps_itself(get(h3), 1, &at));
    CU_ASSERT_EQUAL(at, 3);
    OK(sim_dt_create_hvector(R0, 4, 1, 4, MPI_FLOAT, &h4, NULL));
    CU_ASSERT_FALSE(sim_dt_overlaps_itself(get(h4), 3, &at));
    /* Elements closer than their size: count 1 is fine, 2 overlap. */
    OK(sim_dt_create_resized(R0, MPI_DOUBLE, 0, 4, &r, NULL));
    CU_ASSERT_FALSE(sim_dt_overlaps_itself(get(r), 1, &at));
    CU_ASSERT_TRUE(sim_dt_overlaps_itself(get(r), 2, &at));
    CU_ASSERT_EQUAL(at, 4);
    /* Serials tell a freed type from its successor under the same handle. */
    uint64_t old = sim_dt_serial(get(r));
    OK(sim_dt_free(R0, r, NULL));
    MPI_Datatype r2;
    OK(sim_dt_create_resized(R0, MPI_DOUBLE, 0, 4, &r2, NULL));
    CU_ASSERT_EQUAL(r2, r);
    CU_ASSERT_NOT_EQUAL(sim_dt_serial(get(r2)), old);
    OK(sim_dt_free(R0, r2, NULL));
    OK(sim_dt_free(R0, h3, NULL));
    OK(sim_dt_free(R0, h4, NULL));
}

static void test_ref_keeps_freed_type(void) {
    MPI_Datatype v;
    OK(sim_dt_create_vector(R0, 2, 1, 2, MPI_INT, &v, NULL));
    const sim_datatype *held = sim_dt_ref(get(v));
    OK(sim_dt_free(R0, v, NULL));
    /* Pending operations still find it by its handle; the program may not
     * use it, and a new type does not get its handle while it is held. */
    CU_ASSERT_PTR_EQUAL(sim_dt_get(v), held);
    char *why = NULL;
    CU_ASSERT_PTR_NULL(sim_dt_lookup(v, R0, "datatype", &why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why ? why : "", "was freed (MPI_Type_free)"));
    g_free(why);
    MPI_Datatype w;
    OK(sim_dt_create_contiguous(R0, 2, MPI_INT, &w, NULL));
    CU_ASSERT_NOT_EQUAL(w, v);
    int a[3] = {1, 2, 3}, packed[2];
    sim_dt_pack(held, a, 1, packed);
    CU_ASSERT_EQUAL(packed[0], 1);
    CU_ASSERT_EQUAL(packed[1], 3);
    sim_dt_unref(held);
    CU_ASSERT_PTR_NULL(sim_dt_get(v)); /* gone with its last reference */
    MPI_Datatype x;
    OK(sim_dt_create_contiguous(R0, 3, MPI_INT, &x, NULL));
    CU_ASSERT_EQUAL(x, v); /* its handle is given out again */
    OK(sim_dt_free(R0, w, NULL));
    OK(sim_dt_free(R0, x, NULL));
    /* Predefined types ignore references. */
    sim_dt_unref(sim_dt_ref(get(MPI_INT)));
    CU_ASSERT_EQUAL(sim_dt_size(get(MPI_INT)), 4);
}

static void expect_error(int rc, int want_rc, char *why, const char *want_why) {
    CU_ASSERT_EQUAL(rc, want_rc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_STRING_EQUAL(why, want_why);
    g_free(why);
}

static void test_argument_errors(void) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    char *why = NULL;
    int rc;
    rc = sim_dt_create_contiguous(R0, -1, MPI_INT, &t, &why);
    expect_error(rc, MPI_ERR_COUNT, why, "count -1 is negative");
    why = NULL;
    rc = sim_dt_create_vector(R0, 2, -2, 1, MPI_INT, &t, &why);
    expect_error(rc, MPI_ERR_ARG, why, "blocklength -2 is negative");
    why = NULL;
    rc = sim_dt_create_indexed(R0, 2, (int[]){1, -1}, (int[]){0, 1}, MPI_INT, &t, &why);
    expect_error(rc, MPI_ERR_ARG, why, "array_of_blocklengths[1] = -1 is negative");
    why = NULL;
    rc = sim_dt_create_indexed(R0, 2, (int[]){1, 1}, NULL, MPI_INT, &t, &why);
    expect_error(rc, MPI_ERR_ARG, why, "array_of_displacements is NULL");
    why = NULL;
    rc = sim_dt_create_vector(R0, 2, 1, 1, MPI_DATATYPE_NULL, &t, &why);
    expect_error(rc, MPI_ERR_TYPE, why, "oldtype is MPI_DATATYPE_NULL");
    why = NULL;
    rc = sim_dt_create_contiguous(R0, 2, MPI_COMM_WORLD, &t, &why);
    expect_error(rc, MPI_ERR_TYPE, why, "oldtype 0x44000000 is not a datatype handle");
    why = NULL;
    rc = sim_dt_create_contiguous(R0, 2, MPI_UB, &t, &why);
    expect_error(rc, MPI_ERR_TYPE, why, "oldtype is MPI_UB, which only MPI_Type_struct accepts");
    why = NULL;
    rc = sim_dt_create_struct(R0, 3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 4, 8},
                              (MPI_Datatype[]){MPI_INT, MPI_INT, MPI_DATATYPE_NULL}, &t, &why);
    expect_error(rc, MPI_ERR_TYPE, why, "array_of_types[2] is MPI_DATATYPE_NULL");
    why = NULL;
    rc = sim_dt_create_resized(R0, MPI_INT, 0, 4, NULL, &why);
    expect_error(rc, MPI_ERR_ARG, why, "newtype is NULL");
    why = NULL;
    rc = sim_dt_create_hindexed_block(R0, 1, -3, (MPI_Aint[]){0}, MPI_INT, &t, &why);
    expect_error(rc, MPI_ERR_ARG, why, "blocklength -3 is negative");
    /* Nothing was created by the failures. */
    CU_ASSERT_EQUAL(t, MPI_DATATYPE_NULL);
    CU_ASSERT_PTR_NULL(sim_dt_get((MPI_Datatype)0x8c000010));
}

static void test_empty_and_zero_blocks(void) {
    MPI_Datatype c, v, s;
    OK(sim_dt_create_contiguous(R0, 0, MPI_INT, &c, NULL));
    OK(sim_dt_create_vector(R0, 0, 3, 5, MPI_DOUBLE, &v, NULL));
    for (int k = 0; k < 2; k++) {
        const sim_datatype *dt = get(k ? v : c);
        CU_ASSERT_EQUAL(sim_dt_size(dt), 0);
        CU_ASSERT_EQUAL(sim_dt_extent(dt), 0);
        CU_ASSERT_EQUAL(sim_dt_lb(dt), 0);
        CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 0), 0);
    }
    /* A block of zero elements adds nothing, not even to the bounds. */
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 0}, (MPI_Aint[]){0, 100},
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &s, NULL));
    CU_ASSERT_EQUAL(sim_dt_extent(get(s)), 4);
    CU_ASSERT_EQUAL(sim_dt_size(get(s)), 4);
    int x = 5, out = 0;
    sim_dt_pack(get(c), &x, 3, &out); /* writes nothing */
    CU_ASSERT_EQUAL(out, 0);
}

static void test_large_types(void) {
    /* A long vector stays compact: no per-block storage. */
    MPI_Datatype v;
    OK(sim_dt_create_vector(R0, 1 << 24, 1, 2, MPI_INT, &v, NULL));
    const sim_datatype *dt = get(v);
    CU_ASSERT_EQUAL(sim_dt_size(dt), (size_t)4 << 24);
    CU_ASSERT_EQUAL(sim_dt_extent(dt), (((MPI_Aint)1 << 25) - 1) * 4);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, (size_t)4 << 24), 1 << 24);
    check_sig(v, 2, 1, (MPI_Datatype[]){MPI_INT}, (size_t[]){(size_t)2 << 24});
    /* Partial pack/unpack works on it without touching the whole range. */
    int a[8], out[4] = {0};
    fill_ints(a, 8);
    sim_dt_unpack(dt, a, 8, out, 1);
    CU_ASSERT_EQUAL(out[0], 0);
    CU_ASSERT_EQUAL(out[2], 1);

    /* Sizes beyond the address space are refused. */
    MPI_Datatype big, bigger;
    char *why = NULL;
    OK(sim_dt_create_contiguous(R0, INT_MAX, MPI_INT, &big, NULL));
    int rc = sim_dt_create_contiguous(R0, INT_MAX, big, &bigger, &why);
    expect_error(rc, MPI_ERR_TYPE, why, "the type is too large: its size overflows");
}

/* ---------------------------------------------------------------------- */
/* Compact signatures                                                      */

/* The struct of the benchmark: {int; double; char[3]}. */
struct idc {
    int i;
    double d;
    char c[3];
};

#define IDC_DISPL                                                                                  \
    (MPI_Aint[]) {                                                                                 \
        offsetof(struct idc, i), offsetof(struct idc, d), offsetof(struct idc, c)                  \
    }

/* The struct with its chars as `copies` of type `chars`. */
static MPI_Datatype make_idc_with(MPI_Datatype chars, int copies) {
    MPI_Datatype t;
    OK(sim_dt_create_struct(R0, 3, (int[]){1, 1, copies}, IDC_DISPL,
                            (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, chars}, &t, NULL));
    return t;
}

static MPI_Datatype make_idc(void) {
    return make_idc_with(MPI_CHAR, 3);
}

static MPI_Datatype contiguous(int count, MPI_Datatype old) {
    MPI_Datatype t;
    OK(sim_dt_create_contiguous(R0, count, old, &t, NULL));
    return t;
}

/* A struct of the given types, one element each, packed one after another
 * at their extents. */
static MPI_Datatype struct_of(int n, const MPI_Datatype *types) {
    int *bl = g_new(int, n);
    MPI_Aint *displ = g_new(MPI_Aint, n), at = 0;
    for (int i = 0; i < n; i++) {
        bl[i] = 1;
        displ[i] = at;
        at += sim_dt_extent(get(types[i]));
    }
    MPI_Datatype t;
    OK(sim_dt_create_struct(R0, n, bl, displ, types, &t, NULL));
    g_free(bl);
    g_free(displ);
    return t;
}

/* Both directions match, the reduction rule holds, and no difference is named. */
static void assert_equivalent(MPI_Datatype a, int acount, MPI_Datatype b, int bcount) {
    char *why = NULL;
    CU_ASSERT_TRUE(matches(sig_of(a, acount), b, bcount, &why));
    CU_ASSERT_TRUE(matches(sig_of(b, bcount), a, acount, &why));
    CU_ASSERT_PTR_NULL(why);
    CU_ASSERT_TRUE(sim_typesig_same(sim_dt_typesig(get(a)), (size_t)acount, sim_dt_typesig(get(b)),
                                    (size_t)bcount));
}

static void expect_mismatch(msg_sig msg, MPI_Datatype recv, int count, const char *want) {
    char *why = NULL;
    CU_ASSERT_FALSE(matches(msg, recv, count, &why));
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_STRING_EQUAL(why, want);
    g_free(why);
}

static void test_sig_equivalent_int_layouts(void) {
    MPI_Datatype c4 = contiguous(4, MPI_INT), s4, v, idx, hidx, c22;
    OK(sim_dt_create_struct(R0, 4, (int[]){1, 1, 1, 1}, (MPI_Aint[]){0, 4, 8, 12},
                            (MPI_Datatype[]){MPI_INT, MPI_INT, MPI_INT, MPI_INT}, &s4, NULL));
    OK(sim_dt_create_vector(R0, 2, 2, 3, MPI_INT, &v, NULL));
    OK(sim_dt_create_indexed(R0, 2, (int[]){1, 3}, (int[]){5, 0}, MPI_INT, &idx, NULL));
    OK(sim_dt_create_hindexed(R0, 3, (int[]){2, 0, 2}, (MPI_Aint[]){0, 99, 40}, MPI_INT, &hidx,
                              NULL));
    c22 = contiguous(2, MPI_2INT);
    const MPI_Datatype all[] = {c4, s4, v, idx, hidx, c22};
    for (size_t i = 0; i < G_N_ELEMENTS(all); i++) {
        check_sig(all[i], 1, 1, (MPI_Datatype[]){MPI_INT}, (size_t[]){4});
        /* Built once per structure and shared, not one per type or message. */
        CU_ASSERT_PTR_EQUAL(sim_dt_typesig(get(all[i])), sim_dt_typesig(get(c4)));
        CU_ASSERT_EQUAL(sim_dt_uniform_basic(get(all[i])), MPI_INT);
        assert_equivalent(all[i], 3, MPI_INT, 12);
        assert_equivalent(all[i], 2, c4, 2);
    }
    /* MPI_BYTE stands in for ints in a message, not in a reduction. */
    CU_ASSERT_TRUE(matches(sig_of(MPI_BYTE, 16), v, 1, NULL));
    CU_ASSERT_FALSE(sim_typesig_same(sim_dt_typesig(get(MPI_BYTE)), 16, sim_dt_typesig(get(v)), 1));
}

static void test_sig_equivalent_struct_layouts(void) {
    MPI_Datatype s1 = make_idc();
    MPI_Datatype chars = contiguous(3, MPI_CHAR), dc, s3, s4, dup, rs;
    MPI_Datatype s2 = make_idc_with(chars, 1);
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 3}, (MPI_Aint[]){0, 8},
                            (MPI_Datatype[]){MPI_DOUBLE, MPI_CHAR}, &dc, NULL));
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, dc},
                            &s3, NULL));
    OK(sim_dt_create_hindexed(R0, 1, (int[]){1}, (MPI_Aint[]){64}, s1, &s4, NULL));
    OK(sim_dt_dup(R0, s1, &dup, NULL));
    OK(sim_dt_create_resized(R0, s1, 0, 40, &rs, NULL));
    const MPI_Datatype ones[] = {s2, s3, s4, dup, rs};
    for (size_t i = 0; i < G_N_ELEMENTS(ones); i++) {
        CU_ASSERT_PTR_EQUAL(sim_dt_typesig(get(ones[i])), sim_dt_typesig(get(s1)));
        check_sig(ones[i], 2, 6,
                  (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_CHAR},
                  (size_t[]){1, 1, 3, 1, 1, 3});
        assert_equivalent(ones[i], 7, s1, 7);
    }

    /* Two elements, written four ways: a contiguous type, a struct of the
     * struct twice, a struct of its six basic pieces, an hindexed type. */
    MPI_Datatype twice = contiguous(2, s1), pair, six, hpair;
    pair = struct_of(2, (MPI_Datatype[]){s1, s1});
    six = struct_of(6, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, chars, MPI_INT, MPI_DOUBLE, chars});
    OK(sim_dt_create_hindexed(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 48}, s1, &hpair, NULL));
    const MPI_Datatype twos[] = {pair, six, hpair};
    for (size_t i = 0; i < G_N_ELEMENTS(twos); i++) {
        CU_ASSERT_PTR_EQUAL(sim_dt_typesig(get(twos[i])), sim_dt_typesig(get(twice)));
        assert_equivalent(twos[i], 5, s1, 10);
        assert_equivalent(twos[i], 3, twice, 3);
        CU_ASSERT_EQUAL(sim_dt_elements_of(get(twos[i]), 30), 10);
    }
    /* A prefix of the same structure. */
    CU_ASSERT_TRUE(matches(sig_of(twice, 3), s1, 7, NULL));
    CU_ASSERT_TRUE(matches(sig_of(s1, 5), twice, 3, NULL));
}

static void test_sig_mismatch_deep_inside(void) {
    MPI_Datatype s1 = make_idc(), uc = make_idc_with(MPI_UNSIGNED_CHAR, 3);
    MPI_Datatype many = contiguous(999, s1);
    /* 999 good elements, then one whose chars are unsigned. */
    MPI_Datatype tail = struct_of(2, (MPI_Datatype[]){many, uc});
    expect_mismatch(sig_of(s1, 1000), tail, 1,
                    "element 4997 is MPI_CHAR in the message but MPI_UNSIGNED_CHAR in the "
                    "receive type");
    expect_mismatch(sig_of(tail, 1), s1, 1000,
                    "element 4997 is MPI_UNSIGNED_CHAR in the message but MPI_CHAR in the "
                    "receive type");
    /* The receive holds only the good part: the rest is truncation. */
    CU_ASSERT_TRUE(matches(sig_of(tail, 1), s1, 999, NULL));
    CU_ASSERT_TRUE(matches(sig_of(tail, 1), many, 1, NULL));
    CU_ASSERT_FALSE(sim_typesig_same(sim_dt_typesig(get(tail)), 1, sim_dt_typesig(get(s1)), 1000));
    /* Differences in the first element, both ways round. */
    MPI_Datatype f;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 4},
                            (MPI_Datatype[]){MPI_INT, MPI_FLOAT}, &f, NULL));
    expect_mismatch(sig_of(s1, 1000), f, 2000,
                    "element 1 is MPI_DOUBLE in the message but MPI_FLOAT in the receive type");
    expect_mismatch(sig_of(f, 10), s1, 3,
                    "element 1 is MPI_FLOAT in the message but MPI_DOUBLE in the receive type");
}

static void test_sig_mismatch_after_wildcards(void) {
    MPI_Datatype s1 = make_idc();
    MPI_Datatype bytes = contiguous(7500, MPI_BYTE);
    MPI_Datatype b_then_d = struct_of(2, (MPI_Datatype[]){bytes, MPI_DOUBLE});
    /* 7500 bytes are 500 structs; the double then meets the int of the 501st. */
    expect_mismatch(sig_of(b_then_d, 1), s1, 501,
                    "element 7500 is MPI_DOUBLE in the message but MPI_INT in the receive type");
    CU_ASSERT_TRUE(matches(sig_of(b_then_d, 1), s1, 500, NULL));
    CU_ASSERT_TRUE(matches(sig_of(s1, 1000), MPI_BYTE, 15000, NULL));
    CU_ASSERT_TRUE(matches(sig_of(s1, 1000), MPI_PACKED, 15000, NULL));
    CU_ASSERT_TRUE(matches(sig_of(MPI_BYTE, 15000), s1, 1000, NULL));
    /* Bytes then an int meeting the struct's int at byte 7500 do match. */
    MPI_Datatype b_then_i = struct_of(2, (MPI_Datatype[]){bytes, MPI_INT});
    CU_ASSERT_TRUE(matches(sig_of(b_then_i, 1), s1, 501, NULL));
    /* Bytes need not line up with elements on the other side. */
    MPI_Datatype odd = struct_of(2, (MPI_Datatype[]){contiguous(6, MPI_BYTE), MPI_DOUBLE});
    expect_mismatch(sig_of(odd, 1), s1, 1,
                    "element 6 is MPI_DOUBLE in the message but MPI_CHAR in the receive type");
}

static void test_sig_different_periods(void) {
    /* Message: (int, float) pairs; receive: int, 4 bytes, int, float. */
    MPI_Datatype f, r, bad;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 4},
                            (MPI_Datatype[]){MPI_INT, MPI_FLOAT}, &f, NULL));
    MPI_Datatype pairs = contiguous(100, f);
    OK(sim_dt_create_struct(R0, 4, (int[]){1, 4, 1, 1}, (MPI_Aint[]){0, 4, 8, 12},
                            (MPI_Datatype[]){MPI_INT, MPI_BYTE, MPI_INT, MPI_FLOAT}, &r, NULL));
    CU_ASSERT_TRUE(matches(sig_of(pairs, 1), r, 50, NULL));
    CU_ASSERT_TRUE(matches(sig_of(r, 50), pairs, 1, NULL));
    OK(sim_dt_create_struct(R0, 4, (int[]){1, 4, 1, 1}, (MPI_Aint[]){0, 4, 8, 12},
                            (MPI_Datatype[]){MPI_INT, MPI_BYTE, MPI_INT, MPI_INT}, &bad, NULL));
    expect_mismatch(sig_of(pairs, 1), bad, 50,
                    "element 3 is MPI_FLOAT in the message but MPI_INT in the receive type");
    /* Periods of 8 and 12 bytes (lcm 24): two floats against float, int, float. */
    MPI_Datatype ff = contiguous(2, MPI_FLOAT), fif, ffi;
    fif = struct_of(3, (MPI_Datatype[]){MPI_FLOAT, MPI_INT, MPI_FLOAT});
    ffi = struct_of(3, (MPI_Datatype[]){MPI_FLOAT, MPI_FLOAT, MPI_INT});
    expect_mismatch(sig_of(ff, 30), fif, 20,
                    "element 1 is MPI_FLOAT in the message but MPI_INT in the receive type");
    expect_mismatch(sig_of(ff, 30), ffi, 20,
                    "element 2 is MPI_FLOAT in the message but MPI_INT in the receive type");
    CU_ASSERT_TRUE(matches(sig_of(ff, 1), ffi, 20, NULL));
}

static void test_sig_prefix_and_truncation(void) {
    MPI_Datatype s1 = make_idc();
    CU_ASSERT_TRUE(matches(sig_of(s1, 3), s1, 5, NULL));
    CU_ASSERT_TRUE(matches(sig_of(s1, 5), s1, 3, NULL));
    MPI_Datatype extra = struct_of(2, (MPI_Datatype[]){contiguous(3, s1), MPI_FLOAT});
    /* The float lies beyond a receive of 3: truncation, not a mismatch. */
    CU_ASSERT_TRUE(matches(sig_of(extra, 1), s1, 3, NULL));
    expect_mismatch(sig_of(extra, 1), s1, 4,
                    "element 15 is MPI_FLOAT in the message but MPI_INT in the receive type");
    /* A receive of 3 and a half elements: the float meets the int still. */
    MPI_Datatype half = struct_of(2, (MPI_Datatype[]){contiguous(3, s1), MPI_INT});
    CU_ASSERT_TRUE(matches(sig_of(s1, 4), half, 1, NULL));
    CU_ASSERT_FALSE(matches(sig_of(extra, 1), half, 1, NULL));
    CU_ASSERT_TRUE(matches(sig_of(s1, 0), MPI_INT, 1, NULL));
    CU_ASSERT_TRUE(matches(sig_of(extra, 1), s1, 0, NULL));
}

static void test_sig_elements_of_nested(void) {
    MPI_Datatype s1 = make_idc();
    MPI_Datatype t = struct_of(2, (MPI_Datatype[]){MPI_INT, contiguous(1000, s1)});
    const sim_datatype *dt = get(t);
    CU_ASSERT_EQUAL(sim_dt_size(dt), 15004);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 15004), 5001);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 2 * 15004), 10002);
    /* The int, 10 structs, then the int and double of the 11th. */
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 4 + 150 + 12), 53);
    CU_ASSERT_EQUAL(sim_dt_elements_of_x(dt, 15004 + 4 + 150 + 13), 5001 + 54);
    /* Ending inside the double. */
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 4 + 150 + 6), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 2), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, 0), 0);
    CU_ASSERT_EQUAL(sim_dt_count_of(dt, 15004 * 3), 3);
    CU_ASSERT_EQUAL(sim_dt_count_of(dt, 15005), MPI_UNDEFINED);
    CU_ASSERT_EQUAL(sim_dt_uniform_basic(dt), MPI_DATATYPE_NULL);
}

static void test_sig_long_array_of_structs_in_a_struct(void) {
    /* A header int then 3 Mi dense {int, float} structs: 6 Mi + 1 basic
     * elements in a signature of a handful of items.  Spelling it out one
     * run per element made this type fail with "too irregular". */
    MPI_Datatype f, c, t;
    char *why = NULL;
    OK(sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 4},
                            (MPI_Datatype[]){MPI_INT, MPI_FLOAT}, &f, NULL));
    OK(sim_dt_create_contiguous(R0, 3 << 20, f, &c, NULL));
    int rc = sim_dt_create_struct(R0, 2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                                  (MPI_Datatype[]){MPI_INT, c}, &t, &why);
    CU_ASSERT_EQUAL_FATAL(rc, MPI_SUCCESS);
    CU_ASSERT_PTR_NULL(why);
    const sim_datatype *dt = get(t);
    size_t n = (size_t)3 << 20;
    CU_ASSERT_EQUAL(sim_dt_size(dt), 4 + 8 * n);
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, sim_dt_size(dt)), (int)(2 * n + 1));
    /* Its runs: int (the header and the first struct's), float, int, ... */
    run_list l = {g_array_new(FALSE, FALSE, sizeof(MPI_Datatype)),
                  g_array_new(FALSE, FALSE, sizeof(size_t)), 3};
    CU_ASSERT_FALSE(sim_typesig_each_run(sim_dt_typesig(dt), 1, collect_run, &l));
    CU_ASSERT_EQUAL_FATAL(l.basics->len, 3);
    CU_ASSERT_EQUAL(g_array_index(l.basics, MPI_Datatype, 0), MPI_INT);
    CU_ASSERT_EQUAL(g_array_index(l.counts, size_t, 0), 2);
    CU_ASSERT_EQUAL(g_array_index(l.basics, MPI_Datatype, 1), MPI_FLOAT);
    CU_ASSERT_EQUAL(g_array_index(l.basics, MPI_Datatype, 2), MPI_INT);
    runs_free(&l);
    assert_equivalent(t, 2, t, 2);
    /* The same elements as an int then the structs; the last float differs. */
    MPI_Datatype most, last, other;
    OK(sim_dt_create_contiguous(R0, (3 << 20) - 1, f, &most, NULL));
    last = contiguous(2, MPI_INT);
    other = struct_of(3, (MPI_Datatype[]){MPI_INT, most, last});
    expect_mismatch(sig_of(t, 1), other, 1,
                    "element 6291456 is MPI_FLOAT in the message but MPI_INT in the receive type");
    CU_ASSERT_TRUE(matches(sig_of(t, 1), MPI_BYTE, (int)sim_dt_size(dt), NULL));
}

static void test_sig_deep_nesting(void) {
    /* Twelve levels of struct {previous x 2, short}, and the same with an
     * unsigned short at the very end: more repeats nested than a cursor
     * keeps without allocating. */
    MPI_Datatype n = struct_of(2, (MPI_Datatype[]){MPI_CHAR, MPI_INT}), prev = n;
    for (int k = 1; k <= 12; k++) {
        prev = n;
        n = struct_of(3, (MPI_Datatype[]){n, n, MPI_SHORT});
    }
    MPI_Datatype m = struct_of(3, (MPI_Datatype[]){prev, prev, MPI_UNSIGNED_SHORT});
    int elems = 3 * (1 << 12) - 1;
    CU_ASSERT_EQUAL(sim_dt_elements_of(get(n), sim_dt_size(get(n))), elems);
    char want[128];
    g_snprintf(want, sizeof want,
               "element %d is MPI_SHORT in the message but MPI_UNSIGNED_SHORT in the receive "
               "type",
               elems - 1);
    expect_mismatch(sig_of(n, 1), m, 1, want);
    CU_ASSERT_TRUE(matches(sig_of(n, 3), n, 3, NULL));
    /* Two elements of n against n then m: the mismatch is in the second. */
    MPI_Datatype nm = struct_of(2, (MPI_Datatype[]){n, m});
    g_snprintf(want, sizeof want,
               "element %d is MPI_SHORT in the message but MPI_UNSIGNED_SHORT in the receive "
               "type",
               2 * elems - 1);
    expect_mismatch(sig_of(n, 2), nm, 1, want);
}

static void test_sig_runs_joined_across_structure(void) {
    MPI_Datatype cic = struct_of(3, (MPI_Datatype[]){MPI_CHAR, MPI_INT, MPI_CHAR});
    check_sig(cic, 2, 5, (MPI_Datatype[]){MPI_CHAR, MPI_INT, MPI_CHAR, MPI_INT, MPI_CHAR},
              (size_t[]){1, 1, 2, 1, 1});
    MPI_Datatype v;
    OK(sim_dt_create_vector(R0, 3, 1, 2, cic, &v, NULL));
    check_sig(v, 1, 7,
              (MPI_Datatype[]){MPI_CHAR, MPI_INT, MPI_CHAR, MPI_INT, MPI_CHAR, MPI_INT, MPI_CHAR},
              (size_t[]){1, 1, 2, 1, 2, 1, 1});
    run_list l = {g_array_new(FALSE, FALSE, sizeof(MPI_Datatype)),
                  g_array_new(FALSE, FALSE, sizeof(size_t)), 2};
    CU_ASSERT_FALSE(sim_typesig_each_run(sim_dt_typesig(get(v)), 1, collect_run, &l));
    CU_ASSERT_EQUAL(l.basics->len, 2);
    runs_free(&l);
}

static void test_sig_outlives_its_type(void) {
    /* A message keeps the signature of a type freed before delivery. */
    MPI_Datatype s1 = make_idc();
    const sim_typesig *held = sim_typesig_ref(sim_dt_typesig(get(s1)));
    OK(sim_dt_free(R0, s1, NULL));
    MPI_Datatype other = struct_of(2, (MPI_Datatype[]){MPI_FLOAT, MPI_FLOAT});
    MPI_Datatype again = make_idc();
    CU_ASSERT_EQUAL(sim_typesig_bytes(held), 15);
    CU_ASSERT_PTR_EQUAL(sim_dt_typesig(get(again)), held);
    CU_ASSERT_TRUE(sim_typesig_matches(held, 4, get(again), 4, NULL));
    char *why = NULL;
    CU_ASSERT_FALSE(sim_typesig_matches(held, 1, get(other), 2, &why));
    CU_ASSERT_STRING_EQUAL(why,
                           "element 0 is MPI_INT in the message but MPI_FLOAT in the receive type");
    g_free(why);
    sim_typesig_unref(held);
    CU_ASSERT_TRUE(matches(sig_of(again, 2), again, 2, NULL));
}

/* Random element sequences, built into types in random ways, against a
 * plain byte-by-byte reading of the rules: the compact signatures must give
 * exactly the answers (and texts) that spelling every element out gives. */

static const MPI_Datatype prop_alphabet[] = {MPI_INT,  MPI_INT,   MPI_DOUBLE, MPI_CHAR,
                                             MPI_BYTE, MPI_FLOAT, MPI_SHORT,  MPI_PACKED};

static void prop_append(GArray *e, const MPI_Datatype *src, guint n, int times) {
    for (int t = 0; t < times; t++)
        g_array_append_vals(e, src, n);
}

/* Runs of basic types and repeats of smaller sequences, up to depth deep. */
static GArray *prop_elems(GRand *r, int depth) {
    GArray *e = g_array_new(FALSE, FALSE, sizeof(MPI_Datatype));
    int parts = g_rand_int_range(r, 1, 4);
    for (int p = 0; p < parts; p++) {
        if (depth > 0 && g_rand_boolean(r)) {
            GArray *sub = prop_elems(r, depth - 1);
            prop_append(e, (MPI_Datatype *)(void *)sub->data, sub->len, g_rand_int_range(r, 1, 5));
            g_array_free(sub, TRUE);
        } else {
            MPI_Datatype b = prop_alphabet[g_rand_int_range(r, 0, G_N_ELEMENTS(prop_alphabet))];
            prop_append(e, &b, 1, g_rand_int_range(r, 1, 4));
        }
    }
    return e;
}

/* The smallest p that e[0..n) is e[0..p) n/p times of. */
static int prop_period(const MPI_Datatype *e, int n) {
    for (int p = 1; p < n; p++) {
        if (n % p != 0)
            continue;
        int k = p;
        while (k < n && e[k] == e[k - p])
            k++;
        if (k == n)
            return p;
    }
    return n;
}

/* A type whose signature is e[0..n), n >= 1, made by a random mix of
 * constructors. */
static MPI_Datatype prop_build(GRand *r, const MPI_Datatype *e, int n) {
    MPI_Datatype t;
    int p = prop_period(e, n);
    int how = g_rand_int_range(r, 0, 4);
    if (p == 1 && how == 0) {
        t = contiguous(n, e[0]);
    } else if (p == 1 && how == 1) {
        OK(sim_dt_create_vector(R0, 1, n, n + 1, e[0], &t, NULL));
    } else if (p == 1 && how == 2 && n > 1) {
        OK(sim_dt_create_indexed(R0, 2, (int[]){1, n - 1}, (int[]){n, 0}, e[0], &t, NULL));
    } else if (p < n && how < 2) {
        t = contiguous(n / p, prop_build(r, e, p));
    } else if (p < n && how == 2) {
        MPI_Datatype one = prop_build(r, e, p);
        OK(sim_dt_create_hvector(R0, n / p, 1, sim_dt_extent(get(one)) + 8, one, &t, NULL));
    } else if (n == 1) {
        t = struct_of(1, e);
    } else {
        /* Split into two or three parts. */
        int cut1 = g_rand_int_range(r, 1, n), cut2 = n;
        if (n - cut1 > 1 && g_rand_boolean(r))
            cut2 = g_rand_int_range(r, cut1 + 1, n);
        MPI_Datatype parts[3];
        int np = 0;
        parts[np++] = prop_build(r, e, cut1);
        parts[np++] = prop_build(r, e + cut1, cut2 - cut1);
        if (cut2 < n)
            parts[np++] = prop_build(r, e + cut2, n - cut2);
        t = struct_of(np, parts);
    }
    if (g_rand_int_range(r, 0, 8) == 0) {
        MPI_Datatype rs;
        OK(sim_dt_create_resized(R0, t, 0, sim_dt_extent(get(t)) + 16, &rs, NULL));
        t = rs;
    }
    return t;
}

typedef struct prop_byte {
    MPI_Datatype basic;
    size_t elem;
} prop_byte;

/* The message's bytes, each with its basic type and element number. */
static GArray *prop_bytes(const GArray *e, int count) {
    GArray *b = g_array_new(FALSE, FALSE, sizeof(prop_byte));
    size_t elem = 0;
    for (int c = 0; c < count; c++)
        for (guint i = 0; i < e->len; i++, elem++) {
            MPI_Datatype t = g_array_index(e, MPI_Datatype, i);
            prop_byte pb = {t, elem};
            size_t size = sim_dt_size(sim_dt_get(t));
            for (size_t k = 0; k < size; k++)
                g_array_append_val(b, pb);
        }
    return b;
}

static bool prop_wild(MPI_Datatype t) {
    return t == MPI_BYTE || t == MPI_PACKED;
}

static void prop_check_pair(MPI_Datatype ta, const GArray *ea, int ca, MPI_Datatype tb,
                            const GArray *eb, int cb) {
    GArray *ba = prop_bytes(ea, ca), *bb = prop_bytes(eb, cb);
    guint limit = MIN(ba->len, bb->len);
    char *want = NULL;
    bool same = ba->len == bb->len;
    for (guint p = 0; p < limit; p++) {
        prop_byte x = g_array_index(ba, prop_byte, p), y = g_array_index(bb, prop_byte, p);
        same = same && x.basic == y.basic;
        if (!want && x.basic != y.basic && !prop_wild(x.basic) && !prop_wild(y.basic))
            want = g_strdup_printf("element %zu is %s in the message but %s in the receive type",
                                   x.elem, sim_dt_name(x.basic), sim_dt_name(y.basic));
    }
    char *why = NULL;
    bool ok = matches(sig_of(ta, ca), tb, cb, &why);
    CU_ASSERT_EQUAL(ok, want == NULL);
    if (want && why)
        CU_ASSERT_STRING_EQUAL(why, want);
    CU_ASSERT_EQUAL(
        sim_typesig_same(sim_dt_typesig(get(ta)), (size_t)ca, sim_dt_typesig(get(tb)), (size_t)cb),
        same);
    g_free(why);
    g_free(want);
    g_array_free(ba, TRUE);
    g_array_free(bb, TRUE);
}

static void prop_check_type(GRand *r, MPI_Datatype t, const GArray *e) {
    const sim_datatype *dt = get(t);
    /* MPI_Get_elements: whole elements up to a byte count, undefined inside one. */
    GArray *b = prop_bytes(e, 2);
    CU_ASSERT_EQUAL(2 * sim_dt_size(dt), b->len);
    size_t x = (size_t)g_rand_int_range(r, 0, (gint32)b->len + 1);
    int want = x == 0 ? 0 : x == b->len ? (int)(2 * e->len) : MPI_UNDEFINED;
    if (x > 0 && x < b->len &&
        g_array_index(b, prop_byte, x).elem != g_array_index(b, prop_byte, x - 1).elem)
        want = (int)g_array_index(b, prop_byte, x).elem;
    CU_ASSERT_EQUAL(sim_dt_elements_of(dt, x), want);
    g_array_free(b, TRUE);
    /* The runs: maximal runs of the elements, written out. */
    int count = g_rand_int_range(r, 0, 3);
    run_list l = runs_of(t, count);
    guint k = 0;
    for (int c = 0; c < count; c++)
        for (guint i = 0; i < e->len; i++) {
            MPI_Datatype basic = g_array_index(e, MPI_Datatype, i);
            if (k < l.basics->len && g_array_index(l.basics, MPI_Datatype, k) == basic &&
                g_array_index(l.counts, size_t, k) > 0) {
                g_array_index(l.counts, size_t, k)--;
                if (g_array_index(l.counts, size_t, k) == 0)
                    k++;
            } else {
                CU_FAIL("each_run differs from the elements");
                c = count;
                break;
            }
        }
    CU_ASSERT_EQUAL(k, l.basics->len);
    runs_free(&l);
}

static void test_sig_random_against_spelled_out(void) {
    GRand *r = g_rand_new_with_seed(20261125);
    for (int trial = 0; trial < 1500; trial++) {
        GArray *ea = prop_elems(r, 2), *eb;
        int how = g_rand_int_range(r, 0, 6);
        if (how <= 1) {
            eb = g_array_copy(ea);
        } else if (how == 2) {
            eb = g_array_copy(ea);
            g_array_index(eb, MPI_Datatype, g_rand_int_range(r, 0, (gint32)eb->len)) =
                prop_alphabet[g_rand_int_range(r, 0, G_N_ELEMENTS(prop_alphabet))];
        } else if (how == 3) {
            eb = g_array_copy(ea);
            g_array_set_size(eb, (guint)g_rand_int_range(r, 1, (gint32)eb->len + 1));
        } else if (how == 4) {
            /* The same elements, then something else. */
            eb = g_array_copy(ea);
            GArray *more = prop_elems(r, 1);
            g_array_append_vals(eb, more->data, more->len);
            g_array_free(more, TRUE);
        } else {
            eb = prop_elems(r, 2);
        }
        MPI_Datatype ta = prop_build(r, (MPI_Datatype *)(void *)ea->data, (int)ea->len);
        MPI_Datatype tb = prop_build(r, (MPI_Datatype *)(void *)eb->data, (int)eb->len);
        int ca = g_rand_int_range(r, 0, 4), cb = g_rand_int_range(r, 0, 4);
        prop_check_pair(ta, ea, ca, tb, eb, cb);
        prop_check_pair(tb, eb, cb, ta, ea, ca);
        prop_check_type(r, ta, ea);
        g_array_free(ea, TRUE);
        g_array_free(eb, TRUE);
    }
    g_rand_free(r);
}

/* ---------------------------------------------------------------------- */

static void setup_test(void) {
    sim_dt_init();
}
static void teardown_test(void) {
    sim_dt_fini();
}

/* ---------------------------------------------------------------------- */
/* Subarrays and distributed arrays (typearray.c)                         */

/* The ints one element of t selects from 0, 1, 2 ... (n of them). */
static GArray *selected(MPI_Datatype t) {
    const sim_datatype *dt = get(t);
    int src[64];
    for (int i = 0; i < 64; i++)
        src[i] = i;
    size_t n = sim_dt_size(dt) / sizeof(int);
    int *out = g_new(int, n + 1);
    sim_dt_pack(dt, src, 1, out);
    GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
    g_array_append_vals(a, out, (guint)n);
    g_free(out);
    return a;
}

static void expect_selected(MPI_Datatype t, int n, const int *want) {
    GArray *a = selected(t);
    CU_ASSERT_EQUAL(a->len, (guint)n);
    for (int i = 0; i < n && i < (int)a->len; i++)
        CU_ASSERT_EQUAL(g_array_index(a, int, i), want[i]);
    g_array_free(a, TRUE);
}

static void test_subarray(void) {
    int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 1};
    MPI_Datatype c, f;
    OK(sim_dt_create_subarray(R0, 2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &c, NULL));
    OK(sim_dt_create_subarray(R0, 2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT, &f, NULL));
    /* Row-major: rows 1-2, columns 1-3 of 5; column-major: the first
     * dimension varies fastest. */
    expect_selected(c, 6, (const int[]){6, 7, 8, 11, 12, 13});
    expect_selected(f, 6, (const int[]){5, 6, 9, 10, 13, 14});
    CU_ASSERT_EQUAL(sim_dt_lb(get(c)), 0);
    CU_ASSERT_EQUAL(sim_dt_extent(get(c)), 80);
    CU_ASSERT_EQUAL(sim_dt_true_lb(get(c)), 24);
    /* From element (1,1) to the end of (2,3): bytes 24 to 56.  (MPICH
     * 4.0.2 says 28, one element short.) */
    CU_ASSERT_EQUAL(sim_dt_true_extent(get(c)), 32);
    CU_ASSERT_FALSE(sim_dt_committed(get(c)));
    /* The intermediate types are gone: the next handle is the one after. */
    MPI_Datatype next;
    OK(sim_dt_create_contiguous(R0, 1, MPI_INT, &next, NULL));
    CU_ASSERT_TRUE(SIM_HANDLE_INDEX((unsigned)next) < SIM_DT_FIRST_DERIVED_INDEX + 8);
    /* An old type with its own bounds: the extent is counted in its units. */
    MPI_Datatype r, rc;
    OK(sim_dt_create_resized(R0, MPI_INT, -4, 12, &r, NULL));
    OK(sim_dt_create_subarray(R0, 2, sizes, sub, starts, MPI_ORDER_C, r, &rc, NULL));
    CU_ASSERT_EQUAL(sim_dt_lb(get(rc)), 0);
    CU_ASSERT_EQUAL(sim_dt_extent(get(rc)), 240);
    CU_ASSERT_EQUAL(sim_dt_true_lb(get(rc)), 72);
    CU_ASSERT_EQUAL(sim_dt_true_extent(get(rc)), (2 * 5 + 3) * 12 + 4 - 72);
    /* An empty subarray selects nothing. */
    int none[2] = {0, 3};
    MPI_Datatype e;
    OK(sim_dt_create_subarray(R0, 2, sizes, none, starts, MPI_ORDER_C, MPI_INT, &e, NULL));
    CU_ASSERT_EQUAL(sim_dt_size(get(e)), 0);
    CU_ASSERT_EQUAL(sim_dt_extent(get(e)), 80);
}

static void expect_error_has(int rc, int errclass, char *why, const char *needle) {
    CU_ASSERT_EQUAL(rc, errclass);
    CU_ASSERT_PTR_NOT_NULL(why);
    if (why && !strstr(why, needle)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", why, needle);
        CU_FAIL("message");
    }
    g_free(why);
}

static void test_subarray_errors(void) {
    int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {3, 1};
    MPI_Datatype t;
    char *why = NULL;
    int rc = sim_dt_create_subarray(R0, 2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_ARG, why,
                     "array_of_starts[0] = 3 puts the subarray (2 long) outside");
    starts[0] = 1;
    sub[1] = 6;
    why = NULL;
    rc = sim_dt_create_subarray(R0, 2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_ARG, why,
                     "array_of_subsizes[1] = 6 is outside 0..array_of_sizes[1]");
    sub[1] = 3;
    why = NULL;
    rc = sim_dt_create_subarray(R0, 0, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_ARG, why, "ndims 0 is not positive");
    why = NULL;
    rc = sim_dt_create_subarray(R0, 2, sizes, sub, starts, 99, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_ARG, why, "order 99");
    why = NULL;
    rc =
        sim_dt_create_subarray(R0, 2, sizes, sub, starts, MPI_ORDER_C, MPI_DATATYPE_NULL, &t, &why);
    expect_error_has(rc, MPI_ERR_TYPE, why, "oldtype");
}

static void test_darray(void) {
    /* 7x5 ints, rows BLOCK over 2, columns CYCLIC(2) over 2 (MPI 3.1
     * section 4.1.4); the grid is row-major: rank 1 is (0, 1). */
    int g[2] = {7, 5}, d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, p[2] = {2, 2};
    MPI_Datatype t[4];
    for (int r = 0; r < 4; r++)
        OK(sim_dt_create_darray(R0, 4, r, 2, g, d, da, p, MPI_ORDER_C, MPI_INT, &t[r], NULL));
    expect_selected(t[0], 12, (const int[]){0, 1, 4, 5, 6, 9, 10, 11, 14, 15, 16, 19});
    expect_selected(t[1], 8, (const int[]){2, 3, 7, 8, 12, 13, 17, 18});
    expect_selected(t[2], 9, (const int[]){20, 21, 24, 25, 26, 29, 30, 31, 34});
    expect_selected(t[3], 6, (const int[]){22, 23, 27, 28, 32, 33});
    for (int r = 0; r < 4; r++) {
        CU_ASSERT_EQUAL(sim_dt_lb(get(t[r])), 0);
        CU_ASSERT_EQUAL(sim_dt_extent(get(t[r])), 140);
    }
    /* Fortran order: the first dimension is contiguous; a cyclic over 4
     * of 6. */
    int g1 = 6, d1 = MPI_DISTRIBUTE_CYCLIC, da1 = MPI_DISTRIBUTE_DFLT_DARG, p1 = 4;
    MPI_Datatype c1;
    OK(sim_dt_create_darray(R0, 4, 1, 1, &g1, &d1, &da1, &p1, MPI_ORDER_FORTRAN, MPI_INT, &c1,
                            NULL));
    expect_selected(c1, 2, (const int[]){1, 5});
    int g2[2] = {3, 4}, d2[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK};
    int da2[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, p2[2] = {1, 2};
    MPI_Datatype f;
    OK(sim_dt_create_darray(R0, 2, 1, 2, g2, d2, da2, p2, MPI_ORDER_FORTRAN, MPI_INT, &f, NULL));
    /* Columns 2-3 of 4 (column-major, 3 rows each). */
    expect_selected(f, 6, (const int[]){6, 7, 8, 9, 10, 11});
}

static void test_darray_errors(void) {
    int g[1] = {10}, d[1] = {MPI_DISTRIBUTE_BLOCK}, da[1] = {2}, p[1] = {4};
    MPI_Datatype t;
    char *why = NULL;
    int rc = sim_dt_create_darray(R0, 4, 0, 1, g, d, da, p, MPI_ORDER_C, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_ARG, why,
                     "blocks of 2 on 4 processes do not cover the 10 elements");
    da[0] = MPI_DISTRIBUTE_DFLT_DARG;
    why = NULL;
    rc = sim_dt_create_darray(R0, 3, 0, 1, g, d, da, p, MPI_ORDER_C, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_ARG, why, "has 4 processes, not size = 3");
    why = NULL;
    rc = sim_dt_create_darray(R0, 4, 4, 1, g, d, da, p, MPI_ORDER_C, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_RANK, why, "rank 4 is outside 0..size-1 = 3");
    d[0] = MPI_DISTRIBUTE_NONE;
    why = NULL;
    rc = sim_dt_create_darray(R0, 4, 0, 1, g, d, da, p, MPI_ORDER_C, MPI_INT, &t, &why);
    expect_error_has(rc, MPI_ERR_ARG, why, "MPI_DISTRIBUTE_NONE needs 1 process");
}

/* ---------------------------------------------------------------------- */
/* external32 and element counts                                          */

static void test_external32(void) {
    struct rec {
        char c;
        long double x;
        long l;
        unsigned short u;
    } in[2] = {{'a', 1.5L, -7, 65535}, {'b', -0.1L, 123456, 1}}, out[2];
    int bl[4] = {1, 1, 1, 1};
    MPI_Aint disp[4] = {offsetof(struct rec, c), offsetof(struct rec, x), offsetof(struct rec, l),
                        offsetof(struct rec, u)};
    MPI_Datatype ty[4] = {MPI_CHAR, MPI_LONG_DOUBLE, MPI_LONG, MPI_UNSIGNED_SHORT}, t;
    OK(sim_dt_create_struct(R0, 4, bl, disp, ty, &t, NULL));
    const sim_datatype *dt = get(t);
    size_t n = 0;
    OK(sim_dt_external32_size(dt, 2, &n, NULL));
    CU_ASSERT_EQUAL(n, 2 * (1 + 16 + 4 + 2));
    unsigned char buf[64];
    OK(sim_dt_pack_external32(dt, in, 2, buf, NULL));
    /* 'a'; 1.5 in IEEE quadruple precision, big-endian; -7 in 4 bytes;
     * 65535 in 2. */
    static const unsigned char first[] = {0x61, /* 'a' */
                                          0x3f, 0xff, 0x80, 0,    0, 0, 0, 0,
                                          0,    0,    0,    0,    0, 0, 0, 0, /* 1.5 */
                                          0xff, 0xff, 0xff, 0xf9,             /* -7 */
                                          0xff, 0xff};                        /* 65535 */
    CU_ASSERT_EQUAL(memcmp(buf, first, sizeof first), 0);
    memset(out, 0, sizeof out);
    sim_dt_unpack_external32(dt, buf, out, 2);
    CU_ASSERT_EQUAL(out[0].c, 'a');
    CU_ASSERT_TRUE(out[0].x == 1.5L);
    CU_ASSERT_EQUAL(out[0].l, -7);
    CU_ASSERT_EQUAL(out[0].u, 65535);
    CU_ASSERT_EQUAL(out[1].c, 'b');
    CU_ASSERT_TRUE(out[1].x == -0.1L);
    CU_ASSERT_EQUAL(out[1].l, 123456);
    CU_ASSERT_EQUAL(out[1].u, 1);
    /* A long beyond 32 bits has no external32 form. */
    in[1].l = 1L << 40;
    char *why = NULL;
    int rc = sim_dt_pack_external32(dt, in, 2, buf, &why);
    expect_error_has(rc, MPI_ERR_CONVERSION, why, "basic element 6 (MPI_LONG) has a value");
    /* Pair types are their parts: MPI_DOUBLE_INT is 8 + 4 bytes. */
    OK(sim_dt_external32_size(get(MPI_DOUBLE_INT), 3, &n, NULL));
    CU_ASSERT_EQUAL(n, 36);
    OK(sim_dt_external32_size(get(MPI_WCHAR), 1, &n, NULL));
    CU_ASSERT_EQUAL(n, 2);
}

static void test_bytes_of_elements(void) {
    /* MPI_DOUBLE_INT: a double then an int, 12 packed bytes per pass. */
    const sim_datatype *di = get(MPI_DOUBLE_INT);
    CU_ASSERT_EQUAL(sim_dt_bytes_of_elements(di, 0), 0);
    CU_ASSERT_EQUAL(sim_dt_bytes_of_elements(di, 1), 8);
    CU_ASSERT_EQUAL(sim_dt_bytes_of_elements(di, 3), 20);
    CU_ASSERT_EQUAL(sim_dt_elements_of_x(di, 20), 3);
    CU_ASSERT_EQUAL(sim_dt_count_of(di, 20), MPI_UNDEFINED);
    /* Through nested repeats: a vector of 3 contiguous pairs. */
    MPI_Datatype c, v;
    OK(sim_dt_create_contiguous(R0, 2, MPI_DOUBLE_INT, &c, NULL));
    OK(sim_dt_create_vector(R0, 3, 1, 2, c, &v, NULL));
    const sim_datatype *vd = get(v);
    for (MPI_Count e = 0; e <= 25; e++)
        CU_ASSERT_EQUAL(sim_dt_elements_of_x(vd, sim_dt_bytes_of_elements(vd, e)), e);
    CU_ASSERT_EQUAL(sim_dt_bytes_of_elements(vd, 12), sim_dt_size(vd));
}

int main(void) {
    static const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"predefined sizes", test_predefined_sizes},
        {"non-datatype handles", test_not_datatypes},
        {"builtin lookup: the whole handle, table refilled after fini", test_builtin_lookup_exact},
        {"pack and unpack: contiguous data of 0 to 40 bytes exactly", test_pack_short_lengths},
        {"pair types", test_pair_types},
        {"MPI_SHORT_INT packing skips padding", test_pair_pack_short_int},
        {"pair signatures", test_pair_signatures},
        {"names", test_names},
        {"contiguous is dense", test_contiguous_dense},
        {"vector layout", test_vector_layout},
        {"vector, two elements", test_vector_two_elements},
        {"hvector negative stride", test_hvector_negative_stride},
        {"indexed packs in typemap order", test_indexed_typemap_order},
        {"indexed negative displacement", test_indexed_negative_displacement},
        {"hindexed bytes", test_hindexed_bytes},
        {"indexed_block and hindexed_block", test_indexed_block_variants},
        {"struct layout and padding", test_struct_layout_and_padding},
        {"struct extents match C", test_struct_extent_matches_c},
        {"resized", test_resized},
        {"resized markers are sticky", test_resized_markers_are_sticky},
        {"MPI_LB/MPI_UB in struct", test_lb_ub_markers_in_struct},
        {"dup", test_dup},
        {"vector of struct", test_vector_of_struct},
        {"contiguous of vector", test_contiguous_of_vector},
        {"nested contiguous of pairs", test_nested_contiguous_of_pairs},
        {"absolute addresses from MPI_BOTTOM", test_absolute_addresses},
        {"partial unpack", test_partial_unpack},
        {"get_count", test_get_count},
        {"get_elements of a struct", test_get_elements_struct},
        {"status byte count", test_status_bytes},
        {"signature runs", test_signature_runs},
        {"uniform basic type", test_uniform_basic},
        {"match: type mismatch", test_match_type_mismatch},
        {"match: MPI_BYTE and MPI_PACKED", test_match_byte_and_packed},
        {"match: prefix and truncation", test_match_prefix_and_truncation},
        {"match: distinct handles", test_match_distinct_handles},
        {"commit", test_commit},
        {"free rules and handle reuse", test_free_rules},
        {"references keep freed types", test_ref_keeps_freed_type},
        {"argument errors", test_argument_errors},
        {"empty types and zero blocks", test_empty_and_zero_blocks},
        {"large types", test_large_types},
        {"signature: equivalent int layouts", test_sig_equivalent_int_layouts},
        {"signature: equivalent struct layouts", test_sig_equivalent_struct_layouts},
        {"signature: mismatch deep inside", test_sig_mismatch_deep_inside},
        {"signature: mismatch after wildcards", test_sig_mismatch_after_wildcards},
        {"signature: different periods", test_sig_different_periods},
        {"signature: prefix and truncation", test_sig_prefix_and_truncation},
        {"signature: elements of nested types", test_sig_elements_of_nested},
        {"signature: long array of structs in a struct",
         test_sig_long_array_of_structs_in_a_struct},
        {"signature: deep nesting", test_sig_deep_nesting},
        {"signature: runs joined across structure", test_sig_runs_joined_across_structure},
        {"signature: outlives its type", test_sig_outlives_its_type},
        {"buffer arguments that overlap", test_regions_overlap},
        {"buffer arguments of too many blocks", test_regions_overlap_limit},
        {"basic elements with their offsets", test_each_element},
        {"type maps that overlap themselves", test_overlaps_itself},
        {"signature: random types against the spelled-out rules",
         test_sig_random_against_spelled_out},
        {"subarray", test_subarray},
        {"subarray errors", test_subarray_errors},
        {"darray", test_darray},
        {"darray errors", test_darray_errors},
        {"external32", test_external32},
        {"bytes of elements", test_bytes_of_elements},
    };
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite =
        CU_add_suite_with_setup_and_teardown("datatype", NULL, NULL, setup_test, teardown_test);
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
