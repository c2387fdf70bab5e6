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
 *   signature:  a shared, interned tree of runs of basic types and
 *               repeats (see "Signatures: representation").
 *
 * The two are kept apart so that a dense unit can collapse into one block
 * (one memcpy) while its signature keeps several basic types.
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

/* One item of a signature: a run of `count` elements of one basic type, or
 * `count` passes over another signature (a repeat). */
typedef struct sig_item {
    MPI_Datatype basic;      /* a run's basic type; MPI_DATATYPE_NULL in a repeat */
    const sim_typesig *body; /* a repeat's body (a counted reference); NULL in a run */
    size_t count;
} sig_item;

/* Immutable and interned (see "Signatures: representation"). */
struct sim_typesig {
    int refs;
    guint n;             /* items */
    guint depth;         /* repeats nested inside: 0 when every item is a run */
    guint hash;          /* of the items, for interning */
    size_t bytes, elems; /* packed bytes and basic elements of one pass */
    sig_item items[];
};

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
    MPI_Aint rep_stride;    /* equals the extent when nrep == 1 (see tiles()) */
    const sim_typesig *sig; /* of one element; a reference */
    char *label;            /* sim_dt_name of a derived type */
    char *name;             /* MPI_Type_set_name of a derived type; NULL = unnamed */
};

/* Limits what a single type may flatten to (its blocks; its signature's
 * items, which only a type of as many pieces of different types reaches),
 * so a program building an absurd type gets an error instead of exhausting
 * the machine: 2^22 blocks are 64 MiB. */
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
    dt->nrep = 1;
    dt->refs = 1;
    dt->creator = -1;
    dt->align = 1;
    return dt;
}

static void dt_destroy(sim_datatype *dt) {
    g_array_free(dt->unit, TRUE);
    sim_typesig_unref(dt->sig);
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

/* ---------------------------------------------------------------------- */
/* Signatures: representation                                              */
/*
 * A type's signature is built once, with the type, and shared: messages
 * and collectives hold a reference and a count, never a copy spelled out
 * per element.  It is a list of items, each a run of one basic type or a
 * repeat (`count` passes over another signature), so that count copies of
 * a struct cost one item however large count is.
 *
 * Signatures are interned: building one equal to a live one (same items,
 * repeats compared by the identity of their bodies) gives the live one.
 * The builder also brings equivalent constructions to the same items where
 * it can (runs merge; k copies of a signature become one repeat however
 * they were written; a list that is one part several times becomes a
 * repeat of that part), so that contiguous(2, S), a struct of S and S and a
 * struct of S's basic types twice over are one object, and matching the
 * same structure on both sides is a pointer comparison.  Equal streams
 * built in ways the builder does not bring together stay distinct objects:
 * that costs a walk when matching, never a wrong answer.
 */

static GHashTable *sig_table; /* the interned signatures, as a set */

/* A signature of up to this many items is copied into one that contains it
 * once; a larger one becomes a repeat of one pass, which costs one item. */
#define SIG_INLINE_MAX 8

static size_t item_bytes(const sig_item *it) {
    return it->count * (it->body ? it->body->bytes : basic_size(it->basic));
}

static size_t item_elems(const sig_item *it) {
    return it->body ? it->count * it->body->elems : it->count;
}

static bool item_eq(const sig_item *a, const sig_item *b) {
    return a->basic == b->basic && a->body == b->body && a->count == b->count;
}

static guint sig_hash(gconstpointer p) {
    return ((const sim_typesig *)p)->hash;
}

static gboolean sig_eq(gconstpointer pa, gconstpointer pb) {
    const sim_typesig *a = pa, *b = pb;
    if (a->n != b->n || a->hash != b->hash)
        return FALSE;
    for (guint i = 0; i < a->n; i++)
        if (!item_eq(&a->items[i], &b->items[i]))
            return FALSE;
    return TRUE;
}

const sim_typesig *sim_typesig_ref(const sim_typesig *sig) {
    ((sim_typesig *)sig)->refs++;
    return sig;
}

void sim_typesig_unref(const sim_typesig *csig) {
    sim_typesig *sig = (sim_typesig *)csig;
    if (!sig || --sig->refs > 0)
        return;
    /* Only this very object leaves the set: after sim_dt_fini and a new
     * sim_dt_init an equal one may be interned while this one was held. */
    if (sig_table && g_hash_table_lookup(sig_table, sig) == sig)
        g_hash_table_remove(sig_table, sig);
    for (guint i = 0; i < sig->n; i++)
        sim_typesig_unref(sig->items[i].body);
    g_free(sig);
}

size_t sim_typesig_bytes(const sim_typesig *sig) {
    return sig->bytes;
}

/* The signature of the n items (whose body references it takes over): the
 * interned one equal to them, or a new one. */
static const sim_typesig *sig_intern(const sig_item *items, guint n) {
    sim_typesig *sig = g_malloc(sizeof *sig + (size_t)n * sizeof(sig_item));
    guint64 h = 14695981039346656037u;
    sig->refs = 1;
    sig->n = n;
    sig->depth = 0;
    sig->bytes = sig->elems = 0;
    for (guint i = 0; i < n; i++) {
        const sig_item *it = &items[i];
        sig->items[i] = *it;
        sig->bytes += item_bytes(it);
        sig->elems += item_elems(it);
        if (it->body)
            sig->depth = MAX(sig->depth, it->body->depth + 1);
        guint64 parts[3] = {(guint64)(unsigned)it->basic, (guint64)(uintptr_t)it->body,
                            (guint64)it->count};
        for (int k = 0; k < 3; k++)
            h = (h ^ parts[k]) * 1099511628211u;
    }
    sig->hash = (guint)(h ^ (h >> 32));
    sim_typesig *old = g_hash_table_lookup(sig_table, sig);
    if (old) {
        sim_typesig_unref(sig);
        return sim_typesig_ref(old);
    }
    g_hash_table_add(sig_table, sig);
    return sig;
}

/* A signature under construction: items with their body references. */
typedef struct sig_builder {
    GArray *items; /* sig_item */
    bool too_big;  /* more than DT_MAX_PIECES items were asked for */
} sig_builder;

static void sb_init(sig_builder *b) {
    b->items = g_array_new(FALSE, FALSE, sizeof(sig_item));
    b->too_big = false;
}

static sig_item *sb_last(sig_builder *b) {
    return b->items->len ? &g_array_index(b->items, sig_item, b->items->len - 1) : NULL;
}

static void sb_push(sig_builder *b, sig_item it) {
    if (b->items->len >= DT_MAX_PIECES) {
        b->too_big = true;
        sim_typesig_unref(it.body);
        return;
    }
    g_array_append_val(b->items, it);
}

static void sb_run(sig_builder *b, MPI_Datatype basic, size_t count) {
    sig_item *last = sb_last(b);
    if (count == 0)
        return;
    if (last && !last->body && last->basic == basic)
        last->count += count;
    else
        sb_push(b, (sig_item){basic, NULL, count});
}

/* True when the builder ends with exactly s's items (one pass over s). */
static bool sb_ends_with(sig_builder *b, const sim_typesig *s) {
    guint len = b->items->len;
    if (len < s->n)
        return false;
    const sig_item *tail = &g_array_index(b->items, sig_item, len - s->n);
    for (guint i = 0; i < s->n; i++)
        if (!item_eq(&tail[i], &s->items[i]))
            return false;
    return true;
}

/* Appends k passes over s as a repeat, joining the pass or repeat of s that
 * the builder may end with. */
static void sb_repeat(sig_builder *b, const sim_typesig *s, size_t k) {
    sig_item *last = sb_last(b);
    if (last && last->body == s) {
        last->count += k;
        return;
    }
    if (sb_ends_with(b, s)) {
        guint keep = b->items->len - s->n;
        for (guint i = keep; i < b->items->len; i++)
            sim_typesig_unref(g_array_index(b->items, sig_item, i).body);
        g_array_set_size(b->items, keep);
        sb_repeat(b, s, k + 1);
        return;
    }
    sb_push(b, (sig_item){MPI_DATATYPE_NULL, sim_typesig_ref(s), k});
}

/* Appends k passes over signature s. */
static void sb_sig(sig_builder *b, const sim_typesig *s, size_t k) {
    if (k == 0 || s->bytes == 0)
        return;
    if (s->n == 1) {
        const sig_item *it = &s->items[0];
        if (it->body)
            sb_sig(b, it->body, it->count * k);
        else
            sb_run(b, it->basic, it->count * k);
        return;
    }
    sig_item *last = sb_last(b);
    if (k == 1 && s->n <= SIG_INLINE_MAX && !(last && last->body == s) && !sb_ends_with(b, s)) {
        for (guint i = 0; i < s->n; i++) {
            const sig_item *it = &s->items[i];
            if (it->body)
                sb_repeat(b, it->body, it->count);
            else
                sb_run(b, it->basic, it->count);
        }
        return;
    }
    sb_repeat(b, s, k);
}

/* The shortest p such that the n items are items[0..p) n/p times (n when
 * there is none), by the prefix function of the item sequence. */
static guint sb_period(const sig_item *items, guint n) {
    if (n < 2)
        return n;
    guint *pf = g_new(guint, n);
    pf[0] = 0;
    for (guint i = 1; i < n; i++) {
        guint k = pf[i - 1];
        while (k > 0 && !item_eq(&items[i], &items[k]))
            k = pf[k - 1];
        pf[i] = item_eq(&items[i], &items[k]) ? k + 1 : k;
    }
    guint p = n - pf[n - 1];
    g_free(pf);
    return n % p == 0 ? p : n;
}

/* The built signature (NULL when it grew too large); frees the builder. */
static const sim_typesig *sb_finish(sig_builder *b) {
    guint n = b->items->len;
    sig_item *items = (sig_item *)(void *)b->items->data;
    const sim_typesig *sig = NULL;
    if (b->too_big) {
        for (guint i = 0; i < n; i++)
            sim_typesig_unref(items[i].body);
    } else if (n == 1 && items[0].body && items[0].count == 1) {
        sig = items[0].body; /* one pass over a signature is that signature */
    } else {
        guint p = sb_period(items, n);
        if (p >= 2 && p < n) {
            /* Runs merge and repeats of one body join, so a period is at
             * least two items long. */
            for (guint i = p; i < n; i++)
                sim_typesig_unref(items[i].body);
            sig_item rep = {MPI_DATATYPE_NULL, sig_intern(items, p), n / p};
            sig = sig_intern(&rep, 1);
        } else {
            sig = sig_intern(items, n);
        }
    }
    g_array_free(b->items, TRUE);
    return sig;
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
    sig_item run = {b->handle, NULL, 1};
    dt->sig = sig_intern(&run, 1);
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
    sig_builder sb;
    sb_init(&sb);
    sb_run(&sb, p->first, 1);
    sb_run(&sb, p->second, 1);
    dt->sig = sb_finish(&sb);
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
    sig_table = g_hash_table_new(sig_hash, sig_eq);
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
    /* Signatures still referenced (by messages not yet freed) live on
     * outside the set and go with their last reference. */
    g_hash_table_destroy(sig_table);
    sig_table = NULL;
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

        /* Signature: the pieces in order, then nrep times that. */
        sig_builder sb;
        sb_init(&sb);
        for (size_t i = 0; i < np; i++)
            if (ps[i].t)
                sb_sig(&sb, ps[i].t->sig, ps[i].copies);
        const sim_typesig *one = sb_finish(&sb);
        if (one && nrep != 1) {
            sb_init(&sb);
            sb_sig(&sb, one, nrep);
            sim_typesig_unref(one);
            one = sb_finish(&sb);
        }
        if (!one)
            goto too_complex;
        dt->sig = one;
    } else {
        sig_builder sb;
        sb_init(&sb);
        dt->sig = sb_finish(&sb); /* the empty signature */
    }
    if (dt->nrep == 1)
        dt->rep_stride = dt_extent(dt);
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
    dt->sig = sim_typesig_ref(old->sig);
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
/* Signatures: walking and matching                                        */

/* A position in `count` passes over a signature: a stack of frames, one per
 * repeat entered, the top one at a run. */
typedef struct sig_frame {
    const sim_typesig *sig;
    guint i;     /* the current item */
    size_t left; /* passes over sig still to make, the current one included */
} sig_frame;

typedef struct sig_cursor {
    sig_frame *fr; /* fr[0] is the outermost; sig->depth + 1 frames */
    guint depth;   /* frames in use; 0 once everything is consumed */
    size_t off;    /* bytes consumed of the current item (always a run) */
    size_t elems;  /* basic elements before the current item */
    sig_frame local[8];
} sig_cursor;

static void cur_init(sig_cursor *c, const sim_typesig *sig, size_t count) {
    guint need = sig->depth + 1;
    c->fr = need <= G_N_ELEMENTS(c->local) ? c->local : g_new(sig_frame, need);
    c->fr[0] = (sig_frame){sig, 0, count};
    c->depth = count > 0 && sig->n > 0 ? 1 : 0;
    c->off = 0;
    c->elems = 0;
}

static void cur_fini(sig_cursor *c) {
    if (c->fr != c->local)
        g_free(c->fr);
}

/* Steps past the top frame's current item, leaving finished passes and
 * repeats. */
static void cur_next(sig_cursor *c) {
    c->off = 0;
    c->fr[c->depth - 1].i++;
    while (c->depth > 0) {
        sig_frame *f = &c->fr[c->depth - 1];
        if (f->i < f->sig->n)
            return;
        if (--f->left > 0) {
            f->i = 0;
            return;
        }
        if (--c->depth > 0)
            c->fr[c->depth - 1].i++;
    }
}

/* The run at the cursor and the bytes left in it; false at the end. */
static bool cur_run(sig_cursor *c, MPI_Datatype *basic, size_t *left) {
    if (c->depth == 0)
        return false;
    for (;;) {
        const sig_frame *f = &c->fr[c->depth - 1];
        const sig_item *it = &f->sig->items[f->i];
        if (!it->body) {
            *basic = it->basic;
            *left = item_bytes(it) - c->off;
            /* count elements of a basic type: one run of count passes. */
            if (f->sig->n == 1)
                *left += (f->left - 1) * item_bytes(it);
            return true;
        }
        c->fr[c->depth++] = (sig_frame){it->body, 0, it->count};
    }
}

/* Consumes n bytes (at most what is left), whole passes and items at a
 * time where they fit, so that skipping a long stretch costs its structure,
 * not its elements. */
static void cur_skip(sig_cursor *c, size_t n) {
    while (n > 0 && c->depth > 0) {
        sig_frame *f = &c->fr[c->depth - 1];
        if (c->off == 0 && f->i == 0 && f->left > 1 && n >= f->sig->bytes) {
            size_t q = MIN(n / f->sig->bytes, f->left - 1);
            f->left -= q;
            n -= q * f->sig->bytes;
            c->elems += q * f->sig->elems;
            continue;
        }
        const sig_item *it = &f->sig->items[f->i];
        size_t rest = item_bytes(it) - c->off;
        if (n >= rest) {
            n -= rest;
            c->elems += item_elems(it);
            cur_next(c);
        } else if (it->body) {
            size_t q = n / it->body->bytes;
            n -= q * it->body->bytes;
            c->elems += q * it->body->elems;
            c->fr[c->depth++] = (sig_frame){it->body, 0, it->count - q};
        } else {
            c->off += n;
            n = 0;
        }
    }
}

/* Bytes from the cursor on that both cursors are sure to agree on because
 * they are at the same structure: the rest of a pass over one signature
 * (and further passes), or passes over one repeat body.  Both must be at
 * the start of an item. */
static size_t cur_common(const sig_cursor *a, const sig_cursor *b) {
    if (a->depth == 0 || b->depth == 0 || a->off != 0 || b->off != 0)
        return 0;
    const sig_frame *fa = &a->fr[a->depth - 1], *fb = &b->fr[b->depth - 1];
    if (fa->sig == fb->sig && fa->i == fb->i) {
        size_t rest = 0;
        for (guint k = fa->i; k < fa->sig->n; k++)
            rest += item_bytes(&fa->sig->items[k]);
        return rest + (MIN(fa->left, fb->left) - 1) * fa->sig->bytes;
    }
    /* Passes over a body ahead of each: those of the frame when at its
     * start, those of the current item when it is a repeat. */
    const sig_item *ia = &fa->sig->items[fa->i], *ib = &fb->sig->items[fb->i];
    const sim_typesig *ba[2] = {fa->i == 0 ? fa->sig : NULL, ia->body};
    const sim_typesig *bb[2] = {fb->i == 0 ? fb->sig : NULL, ib->body};
    size_t ka[2] = {fa->left, ia->count}, kb[2] = {fb->left, ib->count}, common = 0;
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++)
            if (ba[x] && ba[x] == bb[y])
                common = MAX(common, MIN(ka[x], kb[y]) * ba[x]->bytes);
    return common;
}

/* What the stream of any number of passes over sig repeats, as far as the
 * structure shows: a repeat's body, the one basic type of a single run (as
 * that type's own signature), or sig itself.  Two streams with the same
 * period are equal over their common length. */
static const sim_typesig *sig_period(const sim_typesig *sig) {
    if (sig->n == 1 && sig->items[0].body)
        return sig->items[0].body;
    if (sig->n == 1)
        return sim_dt_get(sig->items[0].basic)->sig;
    return sig;
}

static size_t gcd(size_t a, size_t b) {
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Compares the first `limit` bytes of a (acount passes) and b (bcount
 * passes), both at least that long, byte by byte: each byte belongs to one
 * basic element on each side and the two basic types must be equal, or,
 * when wild, either may be MPI_BYTE or MPI_PACKED.  On the first byte that
 * differs returns false with the element of a it belongs to (counted from
 * 0) and the two basic types there. */
static bool sig_compare(const sim_typesig *a, size_t acount, const sim_typesig *b, size_t bcount,
                        size_t limit, bool wild, size_t *elem, MPI_Datatype *ta, MPI_Datatype *tb) {
    if (limit == 0)
        return true;
    const sim_typesig *pa = sig_period(a), *pb = sig_period(b);
    if (pa == pb)
        return true;
    /* Both streams repeat from their start: with no difference in the first
     * lcm of their periods, there is none anywhere. */
    size_t g = gcd(pa->bytes, pb->bytes), span;
    if (!__builtin_mul_overflow(pa->bytes / g, pb->bytes, &span))
        limit = MIN(limit, span);
    sig_cursor ca, cb;
    cur_init(&ca, a, acount);
    cur_init(&cb, b, bcount);
    bool same = true;
    size_t done = 0;
    MPI_Datatype x, y;
    size_t xl, yl;
    while (done < limit) {
        size_t step = MIN(cur_common(&ca, &cb), limit - done);
        if (step > 0) {
            cur_skip(&ca, step);
            cur_skip(&cb, step);
            done += step;
            continue;
        }
        if (!cur_run(&ca, &x, &xl) || !cur_run(&cb, &y, &yl))
            break;
        if (wild && is_wildcard(x))
            step = xl;
        else if (wild && is_wildcard(y))
            step = yl;
        else if (x == y)
            step = MIN(xl, yl);
        else {
            *elem = ca.elems + ca.off / basic_size(x);
            *ta = x;
            *tb = y;
            same = false;
            break;
        }
        step = MIN(step, limit - done);
        cur_skip(&ca, step);
        cur_skip(&cb, step);
        done += step;
    }
    cur_fini(&ca);
    cur_fini(&cb);
    return same;
}

const sim_typesig *sim_dt_typesig(const sim_datatype *dt) {
    return dt->sig;
}

bool sim_typesig_matches(const sim_typesig *msg, size_t msg_count, const sim_datatype *dt,
                         int count, char **why) {
    size_t cap = count > 0 ? dt->size * (size_t)count : 0;
    size_t limit = MIN(msg->bytes * msg_count, cap);
    size_t elem;
    MPI_Datatype a, b;
    if (sig_compare(msg, msg_count, dt->sig, count > 0 ? (size_t)count : 0, limit, true, &elem, &a,
                    &b))
        return true;
    if (why)
        *why = g_strdup_printf("element %zu is %s in the message but %s in the receive type", elem,
                               sim_dt_name(a), sim_dt_name(b));
    return false;
}

bool sim_typesig_same(const sim_typesig *a, size_t acount, const sim_typesig *b, size_t bcount) {
    size_t bytes = a->bytes * acount, elem;
    MPI_Datatype ta, tb;
    return bytes == b->bytes * bcount &&
           sig_compare(a, acount, b, bcount, bytes, false, &elem, &ta, &tb);
}

bool sim_typesig_each_run(const sim_typesig *sig, size_t count, sim_sigrun_fn fn, void *data) {
    sig_cursor c;
    cur_init(&c, sig, count);
    MPI_Datatype basic, pending = MPI_DATATYPE_NULL;
    size_t left, n = 0;
    bool go = true;
    while (go && cur_run(&c, &basic, &left)) {
        /* Runs split by the structure (the end of one pass and the start of
         * the next, say) are reported joined. */
        if (n > 0 && basic != pending) {
            go = fn(pending, n, data);
            n = 0;
        }
        pending = basic;
        n += left / basic_size(basic);
        cur_skip(&c, left);
    }
    if (go && n > 0)
        go = fn(pending, n, data);
    cur_fini(&c);
    return go;
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
    const sim_typesig *s = dt->sig;
    if (s->bytes == 0)
        return 0;
    size_t n = bytes / s->bytes * s->elems, rem = bytes % s->bytes;
    /* The partial pass: whole items, then into the item the bytes end in. */
    for (guint i = 0; rem > 0; i++) {
        const sig_item *it = &s->items[i];
        size_t ib = item_bytes(it);
        if (rem >= ib) {
            n += item_elems(it);
            rem -= ib;
        } else if (it->body) {
            n += rem / it->body->bytes * it->body->elems;
            rem %= it->body->bytes;
            s = it->body;
            i = (guint)-1; /* from the body's first item */
        } else {
            size_t bs = basic_size(it->basic);
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
