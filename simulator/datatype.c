/*
 * datatype.c - MPI datatypes: predefined types, derived constructors,
 * flattened typemaps, packing and signature matching.
 *
 * Representation.  A type is stored flattened, never as a tree of its old
 * types, so that packing is a loop of memcpy calls and a new type owes
 * nothing to its old types (they may be freed at once).  Because
 * constructors mostly repeat one layout (vector, contiguous), the flat form
 * keeps one level of repetition instead of spelling every copy out:
 *
 *   data:       `unit` (blocks of bytes, in typemap order, merged whenever
 *               one ends where the next begins), repeated `nrep` times,
 *               copy r shifted by r * rep_stride;
 *   signature:  `usig` (runs of basic types), repeated `sig_rep` times.
 *
 * The two repeat independently so that a dense unit can collapse into one
 * block (one memcpy) while its signature keeps several basic types.
 *
 * Bounds follow MPI 3.1 section 4.1.6: lower/upper-bound markers (set by
 * MPI_Type_create_resized, or MPI_LB/MPI_UB in MPI_Type_struct) are sticky
 * and win over the data's own bounds; struct types without an upper marker
 * are padded to the largest alignment of their basic types (epsilon).
 */
#include "simulator/datatype.h"

#include <glib.h>
#include <limits.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "simulator/handle.h"

/* One stretch of contiguous bytes of an element, relative to the buffer
 * address (not to lb). */
typedef struct dt_block {
    MPI_Aint off;
    size_t len;
} dt_block;

typedef struct sim_sigrun sig_run;

struct sim_datatype {
    MPI_Datatype handle;
    int creator; /* world rank; -1 for predefined types */
    int refs;    /* the table's own plus sim_dt_ref holds */
    bool predefined;
    bool committed;
    bool lb_marked; /* lb comes from a sticky marker */
    bool ub_marked;
    size_t size;     /* data bytes in one element */
    size_t align;    /* largest alignment of its basic types */
    MPI_Aint lb, ub; /* extent = ub - lb */
    MPI_Aint true_lb, true_ub;
    GArray *unit; /* dt_block */
    size_t nrep;
    MPI_Aint rep_stride; /* equals the extent when nrep == 1 (see tiles()) */
    GArray *usig;        /* sig_run */
    size_t sig_rep;
    size_t usig_elems; /* basic elements in one usig */
    size_t usig_bytes;
    char *label; /* sim_dt_name of a derived type */
    char *name;  /* MPI_Type_set_name of a derived type; NULL = unnamed */
};

/* Limits what a single type may flatten to (blocks + signature runs), so a
 * program building an absurd type gets an error instead of exhausting the
 * machine: 2^22 pieces are 64 MiB. */
#define DT_MAX_PIECES ((size_t)1 << 22)

/* ---------------------------------------------------------------------- */
/* Predefined types                                                        */

/* The basic types and the C types they describe.  Fortran and C++ handles of
 * mpi.h are included: C code may name them, and they cost a line each. */
#define DT_BASICS(X)                                                                               \
    X(MPI_CHAR, char)                                                                              \
    X(MPI_SIGNED_CHAR, signed char)                                                                \
    X(MPI_UNSIGNED_CHAR, unsigned char)                                                            \
    X(MPI_BYTE, unsigned char)                                                                     \
    X(MPI_PACKED, unsigned char)                                                                   \
    X(MPI_WCHAR, wchar_t)                                                                          \
    X(MPI_SHORT, short)                                                                            \
    X(MPI_UNSIGNED_SHORT, unsigned short)                                                          \
    X(MPI_INT, int)                                                                                \
    X(MPI_UNSIGNED, unsigned)                                                                      \
    X(MPI_LONG, long)                                                                              \
    X(MPI_UNSIGNED_LONG, unsigned long)                                                            \
    X(MPI_LONG_LONG_INT, long long)                                                                \
    X(MPI_UNSIGNED_LONG_LONG, unsigned long long)                                                  \
    X(MPI_FLOAT, float)                                                                            \
    X(MPI_DOUBLE, double)                                                                          \
    X(MPI_LONG_DOUBLE, long double)                                                                \
    X(MPI_C_BOOL, _Bool)                                                                           \
    X(MPI_INT8_T, int8_t)                                                                          \
    X(MPI_INT16_T, int16_t)                                                                        \
    X(MPI_INT32_T, int32_t)                                                                        \
    X(MPI_INT64_T, int64_t)                                                                        \
    X(MPI_UINT8_T, uint8_t)                                                                        \
    X(MPI_UINT16_T, uint16_t)                                                                      \
    X(MPI_UINT32_T, uint32_t)                                                                      \
    X(MPI_UINT64_T, uint64_t)                                                                      \
    X(MPI_C_FLOAT_COMPLEX, float _Complex)                                                         \
    X(MPI_C_DOUBLE_COMPLEX, double _Complex)                                                       \
    X(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex)                                             \
    X(MPI_AINT, MPI_Aint)                                                                          \
    X(MPI_OFFSET, MPI_Offset)                                                                      \
    X(MPI_COUNT, MPI_Count)                                                                        \
    X(MPI_CXX_BOOL, _Bool)                                                                         \
    X(MPI_CXX_FLOAT_COMPLEX, float _Complex)                                                       \
    X(MPI_CXX_DOUBLE_COMPLEX, double _Complex)                                                     \
    X(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex)                                           \
    X(MPIX_C_FLOAT16, uint16_t)                                                                    \
    X(MPI_CHARACTER, char)                                                                         \
    X(MPI_LOGICAL, int)                                                                            \
    X(MPI_INTEGER, int)                                                                            \
    X(MPI_REAL, float)                                                                             \
    X(MPI_DOUBLE_PRECISION, double)                                                                \
    X(MPI_COMPLEX, float _Complex)                                                                 \
    X(MPI_DOUBLE_COMPLEX, double _Complex)                                                         \
    X(MPI_INTEGER1, int8_t)                                                                        \
    X(MPI_INTEGER2, int16_t)                                                                       \
    X(MPI_INTEGER4, int32_t)                                                                       \
    X(MPI_INTEGER8, int64_t)                                                                       \
    X(MPI_REAL4, float)                                                                            \
    X(MPI_REAL8, double)                                                                           \
    X(MPI_REAL16, long double)                                                                     \
    X(MPI_COMPLEX8, float _Complex)                                                                \
    X(MPI_COMPLEX16, double _Complex)                                                              \
    X(MPI_COMPLEX32, long double _Complex)

/* MPICH encodes a builtin type's size in bits 8-15 of its handle; the
 * signature code relies on that, so check it against C here. */
#define DT_CHECK_SIZE(h, ctype)                                                                    \
    _Static_assert((((unsigned)(h) >> 8) & 0xffu) == sizeof(ctype), #h " size");
DT_BASICS(DT_CHECK_SIZE)
#undef DT_CHECK_SIZE

typedef struct basic_info {
    MPI_Datatype handle;
    const char *name;
    size_t size;
    size_t align;
} basic_info;

#define DT_BASIC_INFO(h, ctype) {(h), #h, sizeof(ctype), alignof(ctype)},
static const basic_info basics[] = {DT_BASICS(DT_BASIC_INFO)};
#undef DT_BASIC_INFO

/* The pair types for MINLOC/MAXLOC, laid out as C lays out the structs. */
struct pair_float_int {
    float v;
    int i;
};
struct pair_double_int {
    double v;
    int i;
};
struct pair_long_int {
    long v;
    int i;
};
struct pair_short_int {
    short v;
    int i;
};
struct pair_long_double_int {
    long double v;
    int i;
};
struct pair_int_int {
    int v;
    int i;
};
struct pair_float_float {
    float v;
    float i;
};
struct pair_double_double {
    double v;
    double i;
};

typedef struct pair_info {
    MPI_Datatype handle;
    const char *name;
    MPI_Datatype first, second;
    size_t second_off, extent, align;
} pair_info;

#define DT_PAIR(h, st, t1, t2)                                                                     \
    { (h), #h, (t1), (t2), offsetof(struct st, i), sizeof(struct st), alignof(struct st) }
static const pair_info pairs[] = {
    DT_PAIR(MPI_FLOAT_INT, pair_float_int, MPI_FLOAT, MPI_INT),
    DT_PAIR(MPI_DOUBLE_INT, pair_double_int, MPI_DOUBLE, MPI_INT),
    DT_PAIR(MPI_LONG_INT, pair_long_int, MPI_LONG, MPI_INT),
    DT_PAIR(MPI_SHORT_INT, pair_short_int, MPI_SHORT, MPI_INT),
    DT_PAIR(MPI_LONG_DOUBLE_INT, pair_long_double_int, MPI_LONG_DOUBLE, MPI_INT),
    DT_PAIR(MPI_2INT, pair_int_int, MPI_INT, MPI_INT),
    DT_PAIR(MPI_2INTEGER, pair_int_int, MPI_INTEGER, MPI_INTEGER),
    DT_PAIR(MPI_2REAL, pair_float_float, MPI_REAL, MPI_REAL),
    DT_PAIR(MPI_2DOUBLE_PRECISION, pair_double_double, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION),
};
#undef DT_PAIR

/* ---------------------------------------------------------------------- */
/* Tables                                                                  */

static bool dt_ready;
static sim_datatype *builtin_by_low[256]; /* builtin handles by their low byte */
static GPtrArray *direct_table;           /* direct handles by index; NULL = free */
static guint first_free;                  /* no free derived index below this */
static GHashTable *predef_names;          /* (rank, handle) -> name set on a predefined type */
static GHashTable *invalid_labels;        /* handle -> "invalid datatype 0x..." */

static size_t basic_size(MPI_Datatype basic) {
    return ((unsigned)basic >> 8) & 0xffu;
}

static bool is_wildcard(MPI_Datatype basic) {
    return basic == MPI_BYTE || basic == MPI_PACKED;
}

static MPI_Aint dt_extent(const sim_datatype *dt) {
    return dt->ub - dt->lb;
}

/* Address arithmetic through uintptr_t: displacements may be negative and
 * the base may be MPI_BOTTOM (NULL) with absolute displacements. */
static inline char *at(const void *base, MPI_Aint off) {
    return (char *)((uintptr_t)base + (uintptr_t)off);
}

static sim_datatype *dt_alloc(void) {
    sim_datatype *dt = g_new0(sim_datatype, 1);
    dt->unit = g_array_new(FALSE, FALSE, sizeof(dt_block));
    dt->usig = g_array_new(FALSE, FALSE, sizeof(sig_run));
    dt->nrep = 1;
    dt->sig_rep = 1;
    dt->refs = 1;
    dt->creator = -1;
    dt->align = 1;
    return dt;
}

static void dt_destroy(sim_datatype *dt) {
    g_array_free(dt->unit, TRUE);
    g_array_free(dt->usig, TRUE);
    g_free(dt->label);
    g_free(dt->name);
    g_free(dt);
}

static void blocks_append(GArray *blocks, MPI_Aint off, size_t len) {
    if (len == 0)
        return;
    if (blocks->len > 0) {
        dt_block *last = &g_array_index(blocks, dt_block, blocks->len - 1);
        if (last->off + (MPI_Aint)last->len == off) {
            last->len += len;
            return;
        }
    }
    dt_block b = {off, len};
    g_array_append_val(blocks, b);
}

static void sig_append(GArray *runs, MPI_Datatype basic, size_t count) {
    if (count == 0)
        return;
    if (runs->len > 0) {
        sig_run *last = &g_array_index(runs, sig_run, runs->len - 1);
        if (last->basic == basic) {
            last->count += count;
            return;
        }
    }
    sig_run r = {basic, count};
    g_array_append_val(runs, r);
}

static void dt_set_counts(sim_datatype *dt) {
    dt->usig_elems = 0;
    dt->usig_bytes = 0;
    for (guint i = 0; i < dt->usig->len; i++) {
        const sig_run *r = &g_array_index(dt->usig, sig_run, i);
        dt->usig_elems += r->count;
        dt->usig_bytes += r->count * basic_size(r->basic);
    }
}

static sim_datatype *make_basic(const basic_info *b) {
    sim_datatype *dt = dt_alloc();
    dt->handle = b->handle;
    dt->predefined = true;
    dt->committed = true;
    dt->size = b->size;
    dt->align = b->align;
    dt->ub = (MPI_Aint)b->size;
    dt->true_ub = dt->ub;
    dt->rep_stride = dt->ub;
    blocks_append(dt->unit, 0, b->size);
    sig_append(dt->usig, b->handle, 1);
    dt_set_counts(dt);
    return dt;
}

static sim_datatype *make_pair(const pair_info *p) {
    sim_datatype *dt = dt_alloc();
    size_t s1 = basic_size(p->first), s2 = basic_size(p->second);
    dt->handle = p->handle;
    dt->predefined = true;
    dt->committed = true;
    dt->size = s1 + s2;
    dt->align = p->align;
    dt->ub = (MPI_Aint)p->extent;
    dt->true_ub = (MPI_Aint)(p->second_off + s2);
    dt->rep_stride = dt->ub;
    blocks_append(dt->unit, 0, s1);
    blocks_append(dt->unit, (MPI_Aint)p->second_off, s2);
    sig_append(dt->usig, p->first, 1);
    sig_append(dt->usig, p->second, 1);
    dt_set_counts(dt);
    return dt;
}

static void register_predefined(sim_datatype *dt) {
    unsigned h = (unsigned)dt->handle;
    if (SIM_HANDLE_KIND(h) == SIM_HKIND_BUILTIN) {
        g_assert(builtin_by_low[h & 0xffu] == NULL);
        builtin_by_low[h & 0xffu] = dt;
    } else {
        guint idx = SIM_HANDLE_INDEX(h);
        g_assert(idx < SIM_DT_FIRST_DERIVED_INDEX);
        if (direct_table->len <= idx)
            g_ptr_array_set_size(direct_table, idx + 1);
        g_ptr_array_index(direct_table, idx) = dt;
    }
}

void sim_dt_init(void) {
    if (dt_ready)
        return;
    dt_ready = true;
    direct_table = g_ptr_array_new();
    g_ptr_array_set_size(direct_table, SIM_DT_FIRST_DERIVED_INDEX);
    first_free = SIM_DT_FIRST_DERIVED_INDEX;
    predef_names = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    invalid_labels = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    for (size_t i = 0; i < G_N_ELEMENTS(basics); i++) {
        /* MPI_LONG_LONG, MPI_C_COMPLEX are mere aliases in mpi.h; the
         * table lists each handle once. */
        register_predefined(make_basic(&basics[i]));
    }
    for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++)
        register_predefined(make_pair(&pairs[i]));
}

void sim_dt_fini(void) {
    if (!dt_ready)
        return;
    for (guint i = 0; i < direct_table->len; i++) {
        sim_datatype *dt = g_ptr_array_index(direct_table, i);
        if (dt)
            dt_destroy(dt);
    }
    g_ptr_array_free(direct_table, TRUE);
    direct_table = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(builtin_by_low); i++) {
        if (builtin_by_low[i])
            dt_destroy(builtin_by_low[i]);
        builtin_by_low[i] = NULL;
    }
    g_hash_table_destroy(predef_names);
    g_hash_table_destroy(invalid_labels);
    predef_names = invalid_labels = NULL;
    dt_ready = false;
}

/* ---------------------------------------------------------------------- */
/* Lookup and queries                                                      */

const sim_datatype *sim_dt_get(MPI_Datatype type) {
    sim_dt_init();
    unsigned h = (unsigned)type;
    if (SIM_HANDLE_OBJ(h) != SIM_OBJ_DATATYPE)
        return NULL;
    if (SIM_HANDLE_KIND(h) == SIM_HKIND_BUILTIN) {
        const sim_datatype *dt = builtin_by_low[h & 0xffu];
        return dt && dt->handle == type ? dt : NULL;
    }
    if (SIM_HANDLE_KIND(h) == SIM_HKIND_DIRECT && SIM_HANDLE_INDEX(h) < direct_table->len)
        return g_ptr_array_index(direct_table, SIM_HANDLE_INDEX(h));
    return NULL;
}

const sim_datatype *sim_dt_lookup(MPI_Datatype type, int rank, const char *argname, char **why) {
    const sim_datatype *dt = sim_dt_get(type);
    char *msg = NULL;
    if (type == MPI_DATATYPE_NULL)
        msg = g_strdup_printf("%s is MPI_DATATYPE_NULL", argname);
    else if (type == MPI_LB || type == MPI_UB)
        msg = g_strdup_printf("%s is %s, which only MPI_Type_struct accepts", argname,
                              sim_dt_name(type));
    else if (!dt && SIM_HANDLE_OBJ((unsigned)type) != SIM_OBJ_DATATYPE)
        msg = g_strdup_printf("%s 0x%08x is not a datatype handle", argname, (unsigned)type);
    else if (!dt)
        msg = g_strdup_printf("%s 0x%08x is not a valid datatype (freed or never created)", argname,
                              (unsigned)type);
    else if (!dt->predefined && rank >= 0 && dt->creator >= 0 && dt->creator != rank)
        msg = g_strdup_printf("%s %s was created by rank %d; rank %d cannot use it "
                              "(datatype handles are local to a process)",
                              argname, dt->label, dt->creator, rank);
    if (!msg)
        return dt;
    if (why)
        *why = msg;
    else
        g_free(msg);
    return NULL;
}

bool sim_dt_committed(const sim_datatype *dt) {
    return dt->predefined || dt->committed;
}
size_t sim_dt_size(const sim_datatype *dt) {
    return dt->size;
}
MPI_Aint sim_dt_extent(const sim_datatype *dt) {
    return dt_extent(dt);
}
MPI_Aint sim_dt_lb(const sim_datatype *dt) {
    return dt->lb;
}
MPI_Aint sim_dt_true_lb(const sim_datatype *dt) {
    return dt->true_lb;
}
MPI_Aint sim_dt_true_extent(const sim_datatype *dt) {
    return dt->true_ub - dt->true_lb;
}
MPI_Datatype sim_dt_handle(const sim_datatype *dt) {
    return dt->handle;
}

MPI_Datatype sim_dt_uniform_basic(const sim_datatype *dt) {
    if (dt->usig->len != 1)
        return MPI_DATATYPE_NULL;
    return g_array_index(dt->usig, sig_run, 0).basic;
}

bool sim_dt_is_predefined(MPI_Datatype type) {
    const sim_datatype *dt = sim_dt_get(type);
    return dt && dt->predefined;
}

const char *sim_dt_name(MPI_Datatype type) {
    if (type == MPI_DATATYPE_NULL)
        return "MPI_DATATYPE_NULL";
    if (type == MPI_LB)
        return "MPI_LB";
    if (type == MPI_UB)
        return "MPI_UB";
    const sim_datatype *dt = sim_dt_get(type);
    if (dt && dt->label)
        return dt->label;
    if (dt) {
        for (size_t i = 0; i < G_N_ELEMENTS(basics); i++)
            if (basics[i].handle == type)
                return basics[i].name;
        for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++)
            if (pairs[i].handle == type)
                return pairs[i].name;
    }
    /* Interned per handle so that the pointer stays valid for reports. */
    gpointer key = GUINT_TO_POINTER((unsigned)type);
    char *label = g_hash_table_lookup(invalid_labels, key);
    if (!label) {
        label = g_strdup_printf("invalid datatype 0x%08x", (unsigned)type);
        g_hash_table_insert(invalid_labels, key, label);
    }
    return label;
}

static bool dense(const sim_datatype *dt, size_t count, MPI_Aint *offset) {
    if (dt->size == 0 || count == 0) {
        *offset = 0;
        return true;
    }
    if (dt->nrep != 1 || dt->unit->len != 1)
        return false;
    const dt_block *b = &g_array_index(dt->unit, dt_block, 0);
    if (count > 1 && (MPI_Aint)b->len != dt_extent(dt))
        return false;
    *offset = b->off;
    return true;
}

bool sim_dt_is_dense(const sim_datatype *dt, int count, MPI_Aint *offset) {
    return dense(dt, count > 0 ? (size_t)count : 0, offset);
}

const sim_datatype *sim_dt_ref(const sim_datatype *dt) {
    if (!dt->predefined)
        ((sim_datatype *)dt)->refs++;
    return dt;
}

void sim_dt_unref(const sim_datatype *dt) {
    if (dt->predefined)
        return;
    sim_datatype *m = (sim_datatype *)dt;
    if (--m->refs == 0)
        dt_destroy(m);
}

/* ---------------------------------------------------------------------- */
/* Building derived types                                                  */

/* One part of a new type: `copies` consecutive copies of t (each shifted by
 * t's extent) at byte displacement disp, or an MPI_LB/MPI_UB marker. */
typedef struct piece {
    const sim_datatype *t; /* NULL for a marker */
    MPI_Datatype marker;
    MPI_Aint disp;
    size_t copies;
} piece;

/* Running minimum/maximum that knows whether it has seen anything. */
typedef struct bound {
    bool set;
    MPI_Aint v;
} bound;

static void bound_min(bound *b, MPI_Aint v) {
    if (!b->set || v < b->v)
        *b = (bound){true, v};
}

static void bound_max(bound *b, MPI_Aint v) {
    if (!b->set || v > b->v)
        *b = (bound){true, v};
}

/* `copies` copies of t at disp tile the same way as t's own repetition:
 * copy i's repeat r lands on (i*nrep + r) * rep_stride. */
static bool tiles(const sim_datatype *t) {
    MPI_Aint whole;
    return !__builtin_mul_overflow((MPI_Aint)t->nrep, t->rep_stride, &whole) &&
           whole == dt_extent(t);
}

static bool is_dense_unit(const sim_datatype *t) {
    return t->nrep == 1 && t->unit->len == 1 &&
           (MPI_Aint)g_array_index(t->unit, dt_block, 0).len == dt_extent(t) && dt_extent(t) > 0;
}

static int fail(char **why, int errclass, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static int fail(char **why, int errclass, const char *fmt, ...) {
    if (why) {
        va_list ap;
        va_start(ap, fmt);
        *why = g_strdup_vprintf(fmt, ap);
        va_end(ap);
    }
    return errclass;
}

#define TOO_LARGE "the type is too large: its displacements overflow the address range"

/* Appends `copies` copies of t at disp to blocks, within the piece budget. */
static bool expand_blocks(GArray *blocks, const sim_datatype *t, MPI_Aint disp, size_t copies) {
    MPI_Aint ext = dt_extent(t);
    if (t->size == 0 || copies == 0)
        return true;
    if (is_dense_unit(t)) {
        const dt_block *b = &g_array_index(t->unit, dt_block, 0);
        blocks_append(blocks, disp + b->off, b->len * copies);
        return true;
    }
    size_t per_copy, need;
    if (__builtin_mul_overflow(t->nrep, (size_t)t->unit->len, &per_copy) ||
        __builtin_mul_overflow(copies, per_copy, &need) || blocks->len + need > DT_MAX_PIECES)
        return false;
    for (size_t i = 0; i < copies; i++) {
        MPI_Aint ci = disp + (MPI_Aint)i * ext;
        for (size_t r = 0; r < t->nrep; r++) {
            MPI_Aint cr = ci + (MPI_Aint)r * t->rep_stride;
            for (guint k = 0; k < t->unit->len; k++) {
                const dt_block *b = &g_array_index(t->unit, dt_block, k);
                blocks_append(blocks, cr + b->off, b->len);
            }
        }
    }
    return true;
}

/* Appends t's signature `times` times to runs, within the piece budget. */
static bool expand_sig(GArray *runs, const sim_datatype *t, size_t times) {
    if (t->usig->len == 0 || times == 0)
        return true;
    size_t reps = t->sig_rep * times; /* bounded by the checked type size */
    if (t->usig->len == 1) {
        const sig_run *r = &g_array_index(t->usig, sig_run, 0);
        sig_append(runs, r->basic, r->count * reps);
        return true;
    }
    size_t need;
    if (__builtin_mul_overflow(reps, (size_t)t->usig->len, &need) ||
        runs->len + need > DT_MAX_PIECES)
        return false;
    for (size_t i = 0; i < reps; i++)
        for (guint k = 0; k < t->usig->len; k++) {
            const sig_run *r = &g_array_index(t->usig, sig_run, k);
            sig_append(runs, r->basic, r->count);
        }
    return true;
}

static MPI_Datatype table_insert(sim_datatype *dt) {
    sim_dt_init();
    guint idx = first_free;
    while (idx < direct_table->len && g_ptr_array_index(direct_table, idx) != NULL)
        idx++;
    if (idx >= direct_table->len)
        g_ptr_array_set_size(direct_table, idx + 1);
    g_ptr_array_index(direct_table, idx) = dt;
    first_free = idx + 1;
    dt->handle = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_DATATYPE, idx);
    dt->label = g_strdup_printf("derived type 0x%08x", (unsigned)dt->handle);
    return dt->handle;
}

/* Builds the type made of the pieces, repeated nrep times at rep_stride
 * bytes; `pad` applies the struct alignment rule.  The pieces' types are
 * valid; counts are what the caller checked. */
static int build(int rank, const piece *ps, size_t np, size_t nrep, MPI_Aint rep_stride, bool pad,
                 MPI_Datatype *newtype, char **why) {
    /* Size and bounds first: they validate every displacement, so the
     * expansion below cannot overflow. */
    size_t usize = 0, size;
    size_t align = 1;
    bound mlb = {0}, mub = {0}, dlb = {0}, dub = {0}, tlb = {0}, tub = {0};
    const piece *only = NULL; /* the single piece with data, if just one */
    size_t ndata = 0;
    for (size_t i = 0; i < np; i++) {
        const piece *p = &ps[i];
        if (p->copies == 0)
            continue;
        if (!p->t) {
            if (p->marker == MPI_LB)
                bound_min(&mlb, p->disp);
            else
                bound_max(&mub, p->disp);
            continue;
        }
        const sim_datatype *t = p->t;
        size_t bytes;
        MPI_Aint span, lo, hi, tlo, thi;
        if (__builtin_mul_overflow(t->size, p->copies, &bytes) ||
            __builtin_add_overflow(usize, bytes, &usize))
            return fail(why, MPI_ERR_TYPE, "the type is too large: its size overflows");
        if (__builtin_mul_overflow((MPI_Aint)(p->copies - 1), dt_extent(t), &span) ||
            __builtin_add_overflow(p->disp, t->lb + MIN(span, 0), &lo) ||
            __builtin_add_overflow(p->disp, t->ub + MAX(span, 0), &hi) ||
            __builtin_add_overflow(p->disp, t->true_lb + MIN(span, 0), &tlo) ||
            __builtin_add_overflow(p->disp, t->true_ub + MAX(span, 0), &thi))
            return fail(why, MPI_ERR_TYPE, TOO_LARGE);
        if (t->lb_marked)
            bound_min(&mlb, lo);
        else if (t->size > 0)
            bound_min(&dlb, lo);
        if (t->ub_marked)
            bound_max(&mub, hi);
        else if (t->size > 0)
            bound_max(&dub, hi);
        if (t->size > 0) {
            bound_min(&tlb, tlo);
            bound_max(&tub, thi);
            ndata++;
            only = p;
        }
        align = MAX(align, t->align);
    }
    if (nrep == 0)
        usize = 0;
    if (__builtin_mul_overflow(usize, nrep, &size) || size > (size_t)PTRDIFF_MAX)
        return fail(why, MPI_ERR_TYPE, "the type is too large: its size overflows");

    sim_datatype *dt = dt_alloc();
    dt->creator = rank;
    dt->size = size;
    dt->align = align;
    if (nrep > 0) {
        MPI_Aint rspan;
        bound *lows[] = {&mlb, &dlb, &tlb}, *highs[] = {&mub, &dub, &tub};
        if (__builtin_mul_overflow((MPI_Aint)(nrep - 1), rep_stride, &rspan))
            goto too_large;
        for (int k = 0; k < 3; k++) {
            if (lows[k]->set && __builtin_add_overflow(lows[k]->v, MIN(rspan, 0), &lows[k]->v))
                goto too_large;
            if (highs[k]->set && __builtin_add_overflow(highs[k]->v, MAX(rspan, 0), &highs[k]->v))
                goto too_large;
        }
        dt->lb_marked = mlb.set;
        dt->ub_marked = mub.set;
        dt->lb = mlb.set ? mlb.v : dlb.set ? dlb.v : 0;
        dt->ub = mub.set ? mub.v : dub.set ? dub.v : 0;
        dt->true_lb = tlb.set ? tlb.v : 0;
        dt->true_ub = tub.set ? tub.v : 0;
        if (pad && !mub.set && align > 1 && dt->ub > dt->lb) {
            MPI_Aint rem = (dt->ub - dt->lb) % (MPI_Aint)align;
            if (rem != 0 && __builtin_add_overflow(dt->ub, (MPI_Aint)align - rem, &dt->ub))
                goto too_large;
        }
    }

    if (size > 0) {
        /* Data layout. */
        /* size > 0 implies one non-empty block type was found above. */
        const sim_datatype *t = only->t; // NOLINT(clang-analyzer-core.NullDereference)
        MPI_Aint copies_span;
        bool outer_continues = nrep == 1 || (!__builtin_mul_overflow((MPI_Aint)only->copies,
                                                                     dt_extent(t), &copies_span) &&
                                             rep_stride == copies_span);
        if (ndata == 1 && tiles(t) && outer_continues) {
            /* All copies continue t's own repetition: no expansion. */
            for (guint k = 0; k < t->unit->len; k++) {
                const dt_block *b = &g_array_index(t->unit, dt_block, k);
                blocks_append(dt->unit, only->disp + b->off, b->len);
            }
            dt->nrep = nrep * only->copies * t->nrep;
            dt->rep_stride = t->rep_stride;
        } else {
            for (size_t i = 0; i < np; i++)
                if (ps[i].t && !expand_blocks(dt->unit, ps[i].t, ps[i].disp, ps[i].copies))
                    goto too_complex;
            dt->nrep = nrep;
            dt->rep_stride = rep_stride;
        }
        if (dt->unit->len == 1 && dt->nrep > 1 && dt->rep_stride > 0 &&
            (size_t)dt->rep_stride == g_array_index(dt->unit, dt_block, 0).len) {
            g_array_index(dt->unit, dt_block, 0).len *= dt->nrep;
            dt->nrep = 1;
        }

        /* Signature. */
        if (ndata == 1) {
            g_array_append_vals(dt->usig, t->usig->data, t->usig->len);
            dt->sig_rep = t->sig_rep * only->copies * nrep;
        } else {
            for (size_t i = 0; i < np; i++)
                if (ps[i].t && !expand_sig(dt->usig, ps[i].t, ps[i].copies))
                    goto too_complex;
            dt->sig_rep = nrep;
        }
        if (dt->usig->len == 1) {
            g_array_index(dt->usig, sig_run, 0).count *= dt->sig_rep;
            dt->sig_rep = 1;
        }
    }
    if (dt->nrep == 1)
        dt->rep_stride = dt_extent(dt);
    if (dt->usig->len == 0)
        dt->sig_rep = 1;
    dt_set_counts(dt);
    *newtype = table_insert(dt);
    return MPI_SUCCESS;

too_large:
    dt_destroy(dt);
    return fail(why, MPI_ERR_TYPE, TOO_LARGE);
too_complex:
    dt_destroy(dt);
    return fail(why, MPI_ERR_TYPE,
                "the type is too irregular for ordex: it flattens to more than %zu blocks",
                DT_MAX_PIECES);
}

/* ---------------------------------------------------------------------- */
/* Constructors                                                            */

static int check_old(int rank, MPI_Datatype oldtype, const char *arg, const sim_datatype **out,
                     char **why) {
    *out = sim_dt_lookup(oldtype, rank, arg, why);
    return *out ? MPI_SUCCESS : MPI_ERR_TYPE;
}

static int check_count(int count, MPI_Datatype *newtype, char **why) {
    if (count < 0)
        return fail(why, MPI_ERR_COUNT, "count %d is negative", count);
    if (!newtype)
        return fail(why, MPI_ERR_ARG, "newtype is NULL");
    return MPI_SUCCESS;
}

static int check_array(int count, const void *array, const char *arg, char **why) {
    if (count > 0 && !array)
        return fail(why, MPI_ERR_ARG, "%s is NULL", arg);
    return MPI_SUCCESS;
}

static int check_blocklengths(int count, const int bl[], char **why) {
    int rc = check_array(count, bl, "array_of_blocklengths", why);
    for (int i = 0; rc == MPI_SUCCESS && i < count; i++)
        if (bl[i] < 0)
            rc = fail(why, MPI_ERR_ARG, "array_of_blocklengths[%d] = %d is negative", i, bl[i]);
    return rc;
}

/* Element displacements scaled to bytes, failing on overflow. */
static int scale(MPI_Aint n, MPI_Aint extent, MPI_Aint *out, char **why) {
    if (__builtin_mul_overflow(n, extent, out))
        return fail(why, MPI_ERR_TYPE, TOO_LARGE);
    return MPI_SUCCESS;
}

int sim_dt_create_contiguous(int rank, int count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                             char **why) {
    const sim_datatype *old;
    int rc = check_count(count, newtype, why);
    if (rc == MPI_SUCCESS)
        rc = check_old(rank, oldtype, "oldtype", &old, why);
    if (rc != MPI_SUCCESS)
        return rc;
    piece p = {old, 0, 0, 1};
    return build(rank, &p, 1, (size_t)count, dt_extent(old), false, newtype, why);
}

static int make_hvector(int rank, int count, int blocklength, MPI_Aint stride, bool in_elements,
                        MPI_Datatype oldtype, MPI_Datatype *newtype, char **why) {
    const sim_datatype *old;
    int rc = check_count(count, newtype, why);
    if (rc == MPI_SUCCESS && blocklength < 0)
        rc = fail(why, MPI_ERR_ARG, "blocklength %d is negative", blocklength);
    if (rc == MPI_SUCCESS)
        rc = check_old(rank, oldtype, "oldtype", &old, why);
    if (rc == MPI_SUCCESS && in_elements)
        rc = scale(stride, dt_extent(old), &stride, why);
    if (rc != MPI_SUCCESS)
        return rc;
    piece p = {old, 0, 0, (size_t)blocklength};
    return build(rank, &p, 1, (size_t)count, stride, false, newtype, why);
}

int sim_dt_create_vector(int rank, int count, int blocklength, int stride, MPI_Datatype oldtype,
                         MPI_Datatype *newtype, char **why) {
    return make_hvector(rank, count, blocklength, stride, true, oldtype, newtype, why);
}

int sim_dt_create_hvector(int rank, int count, int blocklength, MPI_Aint stride,
                          MPI_Datatype oldtype, MPI_Datatype *newtype, char **why) {
    return make_hvector(rank, count, blocklength, stride, false, oldtype, newtype, why);
}

/* The indexed family: blocklengths from bl[] or, when bl is NULL, the
 * single `blocklength`; displacements from idispl[] (elements) or, when
 * idispl is NULL, adispl[] (bytes).  Both NULL is a missing array. */
static int make_indexed(int rank, int count, const int bl[], int blocklength, const int idispl[],
                        const MPI_Aint adispl[], MPI_Datatype oldtype, MPI_Datatype *newtype,
                        char **why) {
    const sim_datatype *old;
    int rc = check_count(count, newtype, why);
    if (rc == MPI_SUCCESS && bl)
        rc = check_blocklengths(count, bl, why);
    if (rc == MPI_SUCCESS && !bl && blocklength < 0)
        rc = fail(why, MPI_ERR_ARG, "blocklength %d is negative", blocklength);
    if (rc == MPI_SUCCESS)
        rc = check_array(count, idispl ? (const void *)idispl : (const void *)adispl,
                         "array_of_displacements", why);
    if (rc == MPI_SUCCESS)
        rc = check_old(rank, oldtype, "oldtype", &old, why);
    if (rc != MPI_SUCCESS)
        return rc;
    piece *ps = g_new(piece, count > 0 ? count : 1);
    for (int i = 0; rc == MPI_SUCCESS && i < count; i++) {
        ps[i] = (piece){old, 0, 0, (size_t)(bl ? bl[i] : blocklength)};
        if (idispl)
            rc = scale(idispl[i], dt_extent(old), &ps[i].disp, why);
        else
            ps[i].disp = adispl[i];
    }
    if (rc == MPI_SUCCESS)
        rc = build(rank, ps, (size_t)count, 1, 0, false, newtype, why);
    g_free(ps);
    return rc;
}

int sim_dt_create_indexed(int rank, int count, const int array_of_blocklengths[],
                          const int array_of_displacements[], MPI_Datatype oldtype,
                          MPI_Datatype *newtype, char **why) {
    if (count > 0 && !array_of_blocklengths)
        return fail(why, MPI_ERR_ARG, "array_of_blocklengths is NULL");
    return make_indexed(rank, count, array_of_blocklengths, 0, array_of_displacements, NULL,
                        oldtype, newtype, why);
}

int sim_dt_create_hindexed(int rank, int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                           MPI_Datatype *newtype, char **why) {
    if (count > 0 && !array_of_blocklengths)
        return fail(why, MPI_ERR_ARG, "array_of_blocklengths is NULL");
    return make_indexed(rank, count, array_of_blocklengths, 0, NULL, array_of_displacements,
                        oldtype, newtype, why);
}

int sim_dt_create_indexed_block(int rank, int count, int blocklength,
                                const int array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype, char **why) {
    return make_indexed(rank, count, NULL, blocklength, array_of_displacements, NULL, oldtype,
                        newtype, why);
}

int sim_dt_create_hindexed_block(int rank, int count, int blocklength,
                                 const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype, char **why) {
    return make_indexed(rank, count, NULL, blocklength, NULL, array_of_displacements, oldtype,
                        newtype, why);
}

int sim_dt_create_struct(int rank, int count, const int array_of_blocklengths[],
                         const MPI_Aint array_of_displacements[],
                         const MPI_Datatype array_of_types[], MPI_Datatype *newtype, char **why) {
    int rc = check_count(count, newtype, why);
    if (rc == MPI_SUCCESS)
        rc = check_blocklengths(count, array_of_blocklengths, why);
    if (rc == MPI_SUCCESS)
        rc = check_array(count, array_of_displacements, "array_of_displacements", why);
    if (rc == MPI_SUCCESS)
        rc = check_array(count, array_of_types, "array_of_types", why);
    if (rc != MPI_SUCCESS)
        return rc;
    piece *ps = g_new(piece, count > 0 ? count : 1);
    for (int i = 0; rc == MPI_SUCCESS && i < count; i++) {
        MPI_Datatype t = array_of_types[i];
        ps[i] = (piece){NULL, t, array_of_displacements[i], (size_t)array_of_blocklengths[i]};
        if (t != MPI_LB && t != MPI_UB) {
            char arg[48];
            g_snprintf(arg, sizeof arg, "array_of_types[%d]", i);
            rc = check_old(rank, t, arg, &ps[i].t, why);
        }
    }
    if (rc == MPI_SUCCESS)
        rc = build(rank, ps, (size_t)count, 1, 0, true, newtype, why);
    g_free(ps);
    return rc;
}

/* A copy of old's layout under a new handle (resized and dup). */
static sim_datatype *clone_layout(int rank, const sim_datatype *old) {
    sim_datatype *dt = dt_alloc();
    dt->creator = rank;
    dt->size = old->size;
    dt->align = old->align;
    dt->lb = old->lb;
    dt->ub = old->ub;
    dt->lb_marked = old->lb_marked;
    dt->ub_marked = old->ub_marked;
    dt->true_lb = old->true_lb;
    dt->true_ub = old->true_ub;
    g_array_append_vals(dt->unit, old->unit->data, old->unit->len);
    dt->nrep = old->nrep;
    dt->rep_stride = old->rep_stride;
    g_array_append_vals(dt->usig, old->usig->data, old->usig->len);
    dt->sig_rep = old->sig_rep;
    dt_set_counts(dt);
    return dt;
}

int sim_dt_create_resized(int rank, MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                          MPI_Datatype *newtype, char **why) {
    const sim_datatype *old;
    MPI_Aint ub;
    int rc = MPI_SUCCESS;
    if (!newtype)
        rc = fail(why, MPI_ERR_ARG, "newtype is NULL");
    if (rc == MPI_SUCCESS)
        rc = check_old(rank, oldtype, "oldtype", &old, why);
    if (rc == MPI_SUCCESS && __builtin_add_overflow(lb, extent, &ub))
        rc = fail(why, MPI_ERR_ARG, "lb %ld + extent %ld overflows", (long)lb, (long)extent);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_datatype *dt = clone_layout(rank, old);
    dt->lb = lb;
    dt->ub = ub;
    dt->lb_marked = dt->ub_marked = true;
    if (dt->nrep == 1)
        dt->rep_stride = extent;
    *newtype = table_insert(dt); // NOLINT(clang-analyzer-core.NullDereference): callers pass it
    return MPI_SUCCESS;
}

int sim_dt_dup(int rank, MPI_Datatype oldtype, MPI_Datatype *newtype, char **why) {
    const sim_datatype *old;
    if (!newtype)
        return fail(why, MPI_ERR_ARG, "newtype is NULL");
    if (check_old(rank, oldtype, "oldtype", &old, why) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    sim_datatype *dt = clone_layout(rank, old);
    dt->committed = sim_dt_committed(old);
    *newtype = table_insert(dt);
    return MPI_SUCCESS;
}

int sim_dt_commit(int rank, MPI_Datatype type, char **why) {
    const sim_datatype *dt = sim_dt_lookup(type, rank, "datatype", why);
    if (!dt)
        return MPI_ERR_TYPE;
    if (!dt->predefined)
        ((sim_datatype *)dt)->committed = true;
    return MPI_SUCCESS;
}

int sim_dt_free(int rank, MPI_Datatype type, char **why) {
    const sim_datatype *dt = sim_dt_lookup(type, rank, "datatype", why);
    if (!dt)
        return MPI_ERR_TYPE;
    if (dt->predefined)
        return fail(why, MPI_ERR_TYPE, "datatype %s is predefined and cannot be freed",
                    sim_dt_name(type));
    guint idx = SIM_HANDLE_INDEX((unsigned)type);
    g_ptr_array_index(direct_table, idx) = NULL;
    first_free = MIN(first_free, idx);
    sim_dt_unref(dt);
    return MPI_SUCCESS;
}

static gint64 name_key(int rank, MPI_Datatype type) {
    return (gint64)(((guint64)(guint32)rank << 32) | (guint32)type);
}

int sim_dt_set_name(int rank, MPI_Datatype type, const char *name, char **why) {
    const sim_datatype *cdt = sim_dt_lookup(type, rank, "datatype", why);
    if (!cdt)
        return MPI_ERR_TYPE;
    if (!name)
        return fail(why, MPI_ERR_ARG, "type_name is NULL");
    char *copy = g_strndup(name, MPI_MAX_OBJECT_NAME - 1);
    if (cdt->predefined) {
        gint64 *key = g_new(gint64, 1);
        *key = name_key(rank, type);
        g_hash_table_replace(predef_names, key, copy);
        return MPI_SUCCESS;
    }
    sim_datatype *dt = (sim_datatype *)cdt;
    g_free(dt->name);
    dt->name = copy;
    g_free(dt->label);
    dt->label = g_strdup_printf("derived type 0x%08x \"%s\"", (unsigned)type, copy);
    return MPI_SUCCESS;
}

const char *sim_dt_get_name(int rank, MPI_Datatype type) {
    const sim_datatype *dt = sim_dt_lookup(type, rank, "datatype", NULL);
    if (!dt)
        return NULL;
    if (!dt->predefined)
        return dt->name ? dt->name : "";
    gint64 key = name_key(rank, type);
    const char *set = g_hash_table_lookup(predef_names, &key);
    return set ? set : sim_dt_name(type);
}

/* ---------------------------------------------------------------------- */
/* Packing                                                                 */

/* Copies between count elements of dt at `typed` and the packed stream,
 * stopping after max bytes of the stream; returns the bytes copied. */
static size_t copy_elements(const sim_datatype *dt, const void *typed, char *packed, size_t count,
                            size_t max, bool pack) {
    MPI_Aint off;
    if (dt->size == 0 || count == 0 || max == 0)
        return 0;
    if (dense(dt, count, &off)) {
        size_t n = MIN(max, dt->size * count);
        if (pack)
            memcpy(packed, at(typed, off), n);
        else
            memcpy(at(typed, off), packed, n);
        return n;
    }
    MPI_Aint ext = dt_extent(dt);
    size_t done = 0;
    for (size_t i = 0; i < count; i++) {
        MPI_Aint ei = (MPI_Aint)i * ext;
        for (size_t r = 0; r < dt->nrep; r++) {
            MPI_Aint er = ei + (MPI_Aint)r * dt->rep_stride;
            for (guint k = 0; k < dt->unit->len; k++) {
                const dt_block *b = &g_array_index(dt->unit, dt_block, k);
                size_t n = MIN(b->len, max - done);
                if (pack)
                    memcpy(packed + done, at(typed, er + b->off), n);
                else
                    memcpy(at(typed, er + b->off), packed + done, n);
                done += n;
                if (done == max)
                    return done;
            }
        }
    }
    return done;
}

void sim_dt_pack(const sim_datatype *dt, const void *buf, int count, void *out) {
    if (count > 0)
        copy_elements(dt, buf, out, (size_t)count, dt->size * (size_t)count, true);
}

void sim_dt_unpack(const sim_datatype *dt, const void *in, size_t bytes, void *buf, int count) {
    if (count > 0)
        copy_elements(dt, buf, (char *)in, (size_t)count, MIN(bytes, dt->size * (size_t)count),
                      false);
}

/* ---------------------------------------------------------------------- */
/* Signatures                                                              */

sim_typesig *sim_dt_signature(const sim_datatype *dt, int count) {
    sim_typesig *sig = g_new0(sim_typesig, 1);
    GArray *runs = g_array_new(FALSE, FALSE, sizeof(sig_run));
    size_t reps = count > 0 ? dt->sig_rep * (size_t)count : 0;
    if (dt->usig->len == 1 && reps > 0) {
        const sig_run *r = &g_array_index(dt->usig, sig_run, 0);
        sig_append(runs, r->basic, r->count * reps);
    } else {
        for (size_t i = 0; i < reps; i++)
            for (guint k = 0; k < dt->usig->len; k++) {
                const sig_run *r = &g_array_index(dt->usig, sig_run, k);
                sig_append(runs, r->basic, r->count);
            }
    }
    sig->nruns = (int)runs->len;
    sig->bytes = count > 0 ? dt->size * (size_t)count : 0;
    sig->runs = (struct sim_sigrun *)(void *)g_array_free(runs, FALSE);
    return sig;
}

void sim_typesig_free(sim_typesig *sig) {
    if (!sig)
        return;
    g_free(sig->runs);
    g_free(sig);
}

bool sim_typesig_matches(const sim_typesig *msg, const sim_datatype *dt, int count, char **why) {
    size_t cap = count > 0 ? dt->size * (size_t)count : 0;
    size_t limit = MIN(msg->bytes, cap);
    size_t consumed = 0;
    /* Message side: run index, bytes left in it, elements before it. */
    int mi = -1;
    size_t mleft = 0, mbefore = 0;
    /* Receive side: cycles through usig sig_rep*count times. */
    guint ri = 0;
    size_t rleft = 0;
    bool rstarted = false;
    while (consumed < limit) {
        if (mleft == 0) {
            if (mi >= 0)
                mbefore += msg->runs[mi].count;
            if (++mi >= msg->nruns)
                break; /* msg->bytes claims more than its runs: nothing left to compare */
            mleft = msg->runs[mi].count * basic_size(msg->runs[mi].basic);
            continue;
        }
        if (rleft == 0) {
            ri = rstarted ? (ri + 1) % dt->usig->len : 0;
            rstarted = true;
            const sig_run *r = &g_array_index(dt->usig, sig_run, ri);
            /* A receive type of one basic type repeats it to the end: one
             * run covers everything, rather than one element at a time. */
            rleft = dt->usig->len == 1 ? limit - consumed : r->count * basic_size(r->basic);
            continue;
        }
        MPI_Datatype a = msg->runs[mi].basic;
        MPI_Datatype b = g_array_index(dt->usig, sig_run, ri).basic;
        if (a != b && !is_wildcard(a) && !is_wildcard(b)) {
            if (why) {
                size_t run_bytes = msg->runs[mi].count * basic_size(a);
                size_t elem = mbefore + (run_bytes - mleft) / basic_size(a);
                *why =
                    g_strdup_printf("element %zu is %s in the message but %s in the receive type",
                                    elem, sim_dt_name(a), sim_dt_name(b));
            }
            return false;
        }
        size_t step = MIN(MIN(mleft, rleft), limit - consumed);
        mleft -= step;
        rleft -= step;
        consumed += step;
    }
    return true;
}

/* ---------------------------------------------------------------------- */
/* Counting                                                                */

int sim_dt_count_of(const sim_datatype *dt, size_t bytes) {
    if (dt->size == 0)
        return 0;
    if (bytes % dt->size != 0 || bytes / dt->size > INT_MAX)
        return MPI_UNDEFINED;
    return (int)(bytes / dt->size);
}

MPI_Count sim_dt_elements_of_x(const sim_datatype *dt, size_t bytes) {
    if (dt->size == 0 || dt->usig_bytes == 0)
        return 0;
    size_t n = bytes / dt->size * dt->usig_elems * dt->sig_rep;
    size_t rem = bytes % dt->size;
    n += rem / dt->usig_bytes * dt->usig_elems;
    rem %= dt->usig_bytes;
    for (guint k = 0; rem > 0 && k < dt->usig->len; k++) {
        const sig_run *r = &g_array_index(dt->usig, sig_run, k);
        size_t bs = basic_size(r->basic);
        if (rem >= r->count * bs) {
            n += r->count;
            rem -= r->count * bs;
        } else {
            if (rem % bs != 0)
                return MPI_UNDEFINED;
            n += rem / bs;
            rem = 0;
        }
    }
    return (MPI_Count)n;
}

int sim_dt_elements_of(const sim_datatype *dt, size_t bytes) {
    MPI_Count n = sim_dt_elements_of_x(dt, bytes);
    return n > INT_MAX ? MPI_UNDEFINED : (int)n;
}
