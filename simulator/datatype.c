/*
 * datatype.c - the datatype table: the predefined types and their
 * handles, lookups and queries of a type, commit, free and names, and
 * packing by a type's flattened layout.  Derived types are built in
 * typebuild.c, signatures in typesig.c (datatype_internal.h has the
 * layout they share).
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

#include "simulator/datatype_internal.h"
#include "simulator/handle.h"

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
sim_dt_builtin_slot sim_dt_builtins[256]; /* the same with their handles, for sim_dt_get */
static GPtrArray *direct_table;           /* direct handles by index; NULL = free */
static guint first_free;                  /* no free derived index below this */
static GHashTable *predef_names;          /* (rank, handle) -> name set on a predefined type */
static GHashTable *invalid_labels;        /* handle -> "invalid datatype 0x..." */

static MPI_Aint dt_extent(const sim_datatype *dt) {
    return dt->ub - dt->lb;
}

/* Address arithmetic through uintptr_t: displacements may be negative and
 * the base may be MPI_BOTTOM (NULL) with absolute displacements. */
static inline char *at(const void *base, MPI_Aint off) {
    return (char *)((uintptr_t)base + (uintptr_t)off);
}

sim_datatype *sim_dt_alloc(void) {
    static uint64_t serials;
    sim_datatype *dt = g_new0(sim_datatype, 1);
    dt->serial = ++serials;
    dt->unit = g_array_new(FALSE, FALSE, sizeof(dt_block));
    dt->nrep = 1;
    dt->refs = 1;
    dt->creator = -1;
    dt->align = 1;
    dt->combiner = MPI_COMBINER_NAMED;
    return dt;
}

void sim_dt_destroy(sim_datatype *dt) {
    g_free(dt->recipe_ints);
    g_free(dt->recipe_aints);
    g_free(dt->recipe_types);
    g_free(dt->recipe_objs);
    g_array_free(dt->unit, TRUE);
    sim_typesig_unref(dt->sig);
    g_free(dt->label);
    g_free(dt->name);
    g_free(dt);
}

void sim_dt_blocks_append(GArray *blocks, MPI_Aint off, size_t len) {
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

int sim_dt_fail(char **why, int errclass, const char *fmt, ...) {
    if (why) {
        va_list ap;
        va_start(ap, fmt);
        *why = g_strdup_vprintf(fmt, ap);
        va_end(ap);
    }
    return errclass;
}

MPI_Datatype sim_dt_table_insert(sim_datatype *dt) {
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

static sim_datatype *make_basic(const basic_info *b) {
    sim_datatype *dt = sim_dt_alloc();
    dt->handle = b->handle;
    dt->predefined = true;
    dt->committed = true;
    dt->size = b->size;
    dt->align = b->align;
    dt->ub = (MPI_Aint)b->size;
    dt->true_ub = dt->ub;
    dt->rep_stride = dt->ub;
    sim_dt_blocks_append(dt->unit, 0, b->size);
    sim_sig_builder sb;
    sim_sb_init(&sb);
    sim_sb_run(&sb, b->handle, 1);
    dt->sig = sim_sb_finish(&sb);
    return dt;
}

static sim_datatype *make_pair(const pair_info *p) {
    sim_datatype *dt = sim_dt_alloc();
    size_t s1 = sim_dt_basic_size(p->first), s2 = sim_dt_basic_size(p->second);
    dt->handle = p->handle;
    dt->predefined = true;
    dt->committed = true;
    dt->size = s1 + s2;
    dt->align = p->align;
    dt->ub = (MPI_Aint)p->extent;
    dt->true_ub = (MPI_Aint)(p->second_off + s2);
    dt->rep_stride = dt->ub;
    sim_dt_blocks_append(dt->unit, 0, s1);
    sim_dt_blocks_append(dt->unit, (MPI_Aint)p->second_off, s2);
    sim_sig_builder sb;
    sim_sb_init(&sb);
    sim_sb_run(&sb, p->first, 1);
    sim_sb_run(&sb, p->second, 1);
    dt->sig = sim_sb_finish(&sb);
    return dt;
}

static void register_predefined(sim_datatype *dt) {
    unsigned h = (unsigned)dt->handle;
    if (SIM_HANDLE_KIND(h) == SIM_HKIND_BUILTIN) {
        g_assert(builtin_by_low[h & 0xffu] == NULL);
        builtin_by_low[h & 0xffu] = dt;
        sim_dt_builtins[h & 0xffu] = (sim_dt_builtin_slot){dt->handle, dt};
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
    sim_typesig_table_init();
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
            sim_dt_destroy(dt);
    }
    g_ptr_array_free(direct_table, TRUE);
    direct_table = NULL;
    sim_dt_f90_reset();
    for (size_t i = 0; i < G_N_ELEMENTS(builtin_by_low); i++) {
        if (builtin_by_low[i])
            sim_dt_destroy(builtin_by_low[i]);
        builtin_by_low[i] = NULL;
        sim_dt_builtins[i] = (sim_dt_builtin_slot){0, NULL};
    }
    g_hash_table_destroy(predef_names);
    g_hash_table_destroy(invalid_labels);
    predef_names = invalid_labels = NULL;
    /* Signatures still referenced (by messages not yet freed) live on
     * outside the set and go with their last reference. */
    sim_typesig_table_fini();
    dt_ready = false;
}

/* ---------------------------------------------------------------------- */
/* Lookup and queries                                                      */

const sim_datatype *sim_dt_get_any(MPI_Datatype type) {
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

static bool accept_freed;

bool sim_dt_accept_freed(bool on) {
    bool was = accept_freed;
    accept_freed = on;
    return was;
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
    else if (dt->freed && !accept_freed)
        msg = g_strdup_printf("%s %s was freed (MPI_Type_free)", argname, dt->label);
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
    const sim_typesig *s = dt->sig;
    return s->n == 1 && !s->items[0].body ? s->items[0].basic : MPI_DATATYPE_NULL;
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

void sim_dt_each_block(const sim_datatype *dt, int count, sim_block_fn fn, void *data) {
    MPI_Aint offset;
    if (count <= 0 || dt->size == 0)
        return;
    if (dense(dt, (size_t)count, &offset)) {
        fn(offset, dt->size * (size_t)count, data);
        return;
    }
    MPI_Aint extent = dt_extent(dt);
    for (int i = 0; i < count; i++)
        for (size_t r = 0; r < dt->nrep; r++)
            for (guint b = 0; b < dt->unit->len; b++) {
                const dt_block *blk = &g_array_index(dt->unit, dt_block, b);
                fn((MPI_Aint)i * extent + (MPI_Aint)r * dt->rep_stride + blk->off, blk->len, data);
            }
}

uint64_t sim_dt_serial(const sim_datatype *dt) {
    return dt->serial;
}

typedef struct byte_span {
    MPI_Aint lo, hi;
} byte_span;

static void collect_span(MPI_Aint off, size_t len, void *p) {
    GArray *a = p;
    if (a->len <= SIM_DT_OVERLAP_MAX_BLOCKS) {
        byte_span s = {off, off + (MPI_Aint)len};
        g_array_append_val(a, s);
    }
}

static gint byte_span_cmp(gconstpointer a, gconstpointer b) {
    const byte_span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

bool sim_dt_overlaps_itself(const sim_datatype *dt, int count, MPI_Aint *at) {
    MPI_Aint offset;
    if (count <= 0 || dt->size == 0 || dense(dt, (size_t)count, &offset))
        return false;
    GArray *a = g_array_new(FALSE, FALSE, sizeof(byte_span));
    sim_dt_each_block(dt, count, collect_span, a);
    bool found = false;
    if (a->len <= SIM_DT_OVERLAP_MAX_BLOCKS) {
        g_array_sort(a, byte_span_cmp);
        MPI_Aint end = 0;
        for (guint i = 0; i < a->len && !found; i++) {
            const byte_span *s = &g_array_index(a, byte_span, i);
            if (i > 0 && s->lo < end) {
                found = true;
                *at = s->lo;
            }
            end = i == 0 ? s->hi : MAX(end, s->hi);
        }
    }
    g_array_free(a, TRUE);
    return found;
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
    if (--m->refs > 0)
        return;
    /* The last holder of a freed type: its handle may be given out again. */
    guint idx = SIM_HANDLE_INDEX((unsigned)m->handle);
    if (direct_table && SIM_HANDLE_KIND((unsigned)m->handle) == SIM_HKIND_DIRECT &&
        idx < direct_table->len && g_ptr_array_index(direct_table, idx) == m) {
        g_ptr_array_index(direct_table, idx) = NULL;
        first_free = MIN(first_free, idx);
    }
    sim_dt_recipe_release(m);
    sim_dt_destroy(m);
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
        return sim_dt_fail(why, MPI_ERR_TYPE, "datatype %s is predefined and cannot be freed",
                           sim_dt_name(type));
    ((sim_datatype *)dt)->freed = true;
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
        return sim_dt_fail(why, MPI_ERR_ARG, "type_name is NULL");
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
/* memcpy for the few bytes of most messages (a count of one or two basic
 * elements) without a call into the C library: fixed-size copies, the
 * first and last 8 or 4 bytes of the range (they overlap when n is not a
 * multiple), which the compiler turns into moves. */
static inline void copy_bytes(void *to, const void *from, size_t n) {
    char *d = to;
    const char *s = from;
    if (n > 16) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

static size_t copy_elements(const sim_datatype *dt, const void *typed, char *packed, size_t count,
                            size_t max, bool pack) {
    MPI_Aint off;
    if (dt->size == 0 || count == 0 || max == 0)
        return 0;
    if (dense(dt, count, &off)) {
        size_t n = MIN(max, dt->size * count);
        if (pack)
            copy_bytes(packed, at(typed, off), n);
        else
            copy_bytes(at(typed, off), packed, n);
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
/* Overlap of buffer arguments                                             */

typedef struct span {
    uintptr_t lo, hi; /* [lo, hi) */
} span;

/* The bounds of a region's bytes; false when it has none. */
static bool region_bounds(const sim_dt_region *r, span *out) {
    if (!r->dt || r->count <= 0 || r->dt->size == 0)
        return false;
    MPI_Aint ext = dt_extent(r->dt), last = (MPI_Aint)(r->count - 1) * ext;
    MPI_Aint lo = r->dt->true_lb + MIN(0, last);
    MPI_Aint hi = r->dt->true_ub + MAX(0, last);
    out->lo = (uintptr_t)r->buf + (uintptr_t)lo;
    out->hi = (uintptr_t)r->buf + (uintptr_t)hi;
    return out->lo < out->hi;
}

/* The hull of a side; false when it has no bytes. */
static bool side_bounds(const sim_dt_region *rs, int n, span *out) {
    bool any = false;
    for (int i = 0; i < n; i++) {
        span s;
        if (!region_bounds(&rs[i], &s))
            continue;
        if (!any)
            *out = s;
        out->lo = MIN(out->lo, s.lo);
        out->hi = MAX(out->hi, s.hi);
        any = true;
    }
    return any;
}

/* Appends the blocks of a side that meet `within`; false when there are more
 * than the limit. */
static bool side_blocks(const sim_dt_region *rs, int n, span within, GArray *out) {
    for (int i = 0; i < n; i++) {
        const sim_dt_region *r = &rs[i];
        span b;
        if (!region_bounds(r, &b) || b.hi <= within.lo || within.hi <= b.lo)
            continue;
        const sim_datatype *dt = r->dt;
        MPI_Aint off;
        if (dense(dt, (size_t)r->count, &off)) {
            span s = {(uintptr_t)at(r->buf, off),
                      (uintptr_t)at(r->buf, off) + dt->size * (size_t)r->count};
            g_array_append_val(out, s);
            continue;
        }
        MPI_Aint ext = dt_extent(dt);
        for (int e = 0; e < r->count; e++)
            for (size_t rep = 0; rep < dt->nrep; rep++) {
                MPI_Aint base = (MPI_Aint)e * ext + (MPI_Aint)rep * dt->rep_stride;
                for (guint k = 0; k < dt->unit->len; k++) {
                    const dt_block *blk = &g_array_index(dt->unit, dt_block, k);
                    span s = {(uintptr_t)at(r->buf, base + blk->off), 0};
                    s.hi = s.lo + blk->len;
                    if (s.hi <= within.lo || within.hi <= s.lo)
                        continue;
                    if (out->len >= SIM_DT_OVERLAP_MAX_BLOCKS)
                        return false;
                    g_array_append_val(out, s);
                }
            }
    }
    return true;
}

static gint span_cmp(gconstpointer a, gconstpointer b) {
    const span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

bool sim_dt_regions_overlap(const sim_dt_region *a, int na, const sim_dt_region *b, int nb,
                            uintptr_t *first) {
    span ha, hb;
    if (!side_bounds(a, na, &ha) || !side_bounds(b, nb, &hb) || ha.hi <= hb.lo || hb.hi <= ha.lo)
        return false;
    span both = {MAX(ha.lo, hb.lo), MIN(ha.hi, hb.hi)};
    GArray *sa = g_array_new(FALSE, FALSE, sizeof(span));
    GArray *sb = g_array_new(FALSE, FALSE, sizeof(span));
    bool found = false;
    if (side_blocks(a, na, both, sa) && side_blocks(b, nb, both, sb)) {
        g_array_sort(sa, span_cmp);
        g_array_sort(sb, span_cmp);
        /* Blocks of one side may overlap each other (a type may touch a
         * byte twice); the sweep keeps, per side, the end of what it has
         * covered so far. */
        guint i = 0, j = 0;
        while (i < sa->len && j < sb->len && !found) {
            const span *x = &g_array_index(sa, span, i), *y = &g_array_index(sb, span, j);
            uintptr_t lo = MAX(x->lo, y->lo), hi = MIN(x->hi, y->hi);
            if (lo < hi) {
                found = true;
                *first = lo;
            } else if (x->hi <= y->hi) {
                i++;
            } else {
                j++;
            }
        }
    }
    g_array_free(sa, TRUE);
    g_array_free(sb, TRUE);
    return found;
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
