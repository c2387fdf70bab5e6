/*
 * op.c - reduction operations (MPI 3.1 section 5.9).
 *
 * Predefined operations are MPICH's builtin op handles; each applies to the
 * type classes of section 5.9.2 (MPI_MAXLOC / MPI_MINLOC to the value-index
 * pair types of section 5.9.4).  A derived datatype may be reduced by a
 * predefined op when all its basic elements are one predefined type that
 * the op accepts: such data is reduced in packed form, element by element.
 * User operations (MPI_Op_create) live in one table shared by all ranks.
 *
 * This file keeps the op table, decides which op applies to which data and
 * applies it; the element-wise arithmetic is op_kernel.c's.
 */
#include "simulator/op.h"

#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "simulator/datatype.h"
#include "simulator/handle.h"
#include "simulator/op_internal.h"

#define OP_HANDLE(kind, index) ((MPI_Op)SIM_HANDLE((kind), SIM_OBJ_OP, (index)))

_Static_assert(sizeof(long) == 8 && sizeof(int) == 4 && sizeof(short) == 2,
               "element kinds below assume LP64");

/* ---------------------------------------------------------------------- */
/* Predefined types: storage kind and type class                           */

/* Type classes of MPI 3.1 section 5.9.2 (plus the pairs of 5.9.4). */
enum {
    CL_CINT = 1 << 0,
    CL_FINT = 1 << 1,
    CL_FLOAT = 1 << 2,
    CL_LOGICAL = 1 << 3,
    CL_COMPLEX = 1 << 4,
    CL_BYTE = 1 << 5,
    CL_MULTI = 1 << 6, /* multi-language types: MPI_AINT, MPI_OFFSET, MPI_COUNT */
    CL_PAIR = 1 << 7,
};

typedef struct predef_type {
    MPI_Datatype type;
    elem_kind ek;
    unsigned cls; /* 0: predefined but not reducible by predefined ops (MPI_CHAR ...) */
} predef_type;

static const predef_type predef_types[] = {
    {MPI_CHAR, EK_I8, 0},
    {MPI_SIGNED_CHAR, EK_I8, CL_CINT},
    {MPI_UNSIGNED_CHAR, EK_U8, CL_CINT},
    {MPI_BYTE, EK_BYTE, CL_BYTE},
    {MPI_WCHAR, EK_I32, 0},
    {MPI_SHORT, EK_I16, CL_CINT},
    {MPI_UNSIGNED_SHORT, EK_U16, CL_CINT},
    {MPI_INT, EK_I32, CL_CINT},
    {MPI_UNSIGNED, EK_U32, CL_CINT},
    {MPI_LONG, EK_I64, CL_CINT},
    {MPI_UNSIGNED_LONG, EK_U64, CL_CINT},
    {MPI_FLOAT, EK_F32, CL_FLOAT},
    {MPI_DOUBLE, EK_F64, CL_FLOAT},
    {MPI_LONG_DOUBLE, EK_F80, CL_FLOAT},
    {MPI_LONG_LONG_INT, EK_I64, CL_CINT},
    {MPI_UNSIGNED_LONG_LONG, EK_U64, CL_CINT},
    {MPI_PACKED, EK_BYTE, 0},
    {MPI_FLOAT_INT, EK_P_FLOAT_INT, CL_PAIR},
    {MPI_DOUBLE_INT, EK_P_DOUBLE_INT, CL_PAIR},
    {MPI_LONG_INT, EK_P_LONG_INT, CL_PAIR},
    {MPI_SHORT_INT, EK_P_SHORT_INT, CL_PAIR},
    {MPI_2INT, EK_P_2INT, CL_PAIR},
    {MPI_LONG_DOUBLE_INT, EK_P_LONG_DOUBLE_INT, CL_PAIR},
    {MPI_COMPLEX, EK_C32, CL_COMPLEX},
    {MPI_DOUBLE_COMPLEX, EK_C64, CL_COMPLEX},
    {MPI_LOGICAL, EK_LOGICAL, CL_LOGICAL},
    {MPI_REAL, EK_F32, CL_FLOAT},
    {MPI_DOUBLE_PRECISION, EK_F64, CL_FLOAT},
    {MPI_INTEGER, EK_I32, CL_FINT},
    {MPI_2INTEGER, EK_P_2INT, CL_PAIR},
    {MPI_2REAL, EK_P_2REAL, CL_PAIR},
    {MPI_2DOUBLE_PRECISION, EK_P_2DOUBLE, CL_PAIR},
    {MPI_CHARACTER, EK_I8, 0},
    {MPI_REAL4, EK_F32, CL_FLOAT},
    {MPI_REAL8, EK_F64, CL_FLOAT},
#ifdef __FLT128_MAX__
    {MPI_REAL16, EK_F128, CL_FLOAT},
    {MPI_COMPLEX32, EK_C128, CL_COMPLEX},
#endif
    {MPI_COMPLEX8, EK_C32, CL_COMPLEX},
    {MPI_COMPLEX16, EK_C64, CL_COMPLEX},
    {MPI_INTEGER1, EK_I8, CL_FINT},
    {MPI_INTEGER2, EK_I16, CL_FINT},
    {MPI_INTEGER4, EK_I32, CL_FINT},
    {MPI_INTEGER8, EK_I64, CL_FINT},
    {MPI_INT8_T, EK_I8, CL_CINT},
    {MPI_INT16_T, EK_I16, CL_CINT},
    {MPI_INT32_T, EK_I32, CL_CINT},
    {MPI_INT64_T, EK_I64, CL_CINT},
    {MPI_UINT8_T, EK_U8, CL_CINT},
    {MPI_UINT16_T, EK_U16, CL_CINT},
    {MPI_UINT32_T, EK_U32, CL_CINT},
    {MPI_UINT64_T, EK_U64, CL_CINT},
    {MPI_C_BOOL, EK_BOOL, CL_LOGICAL},
    {MPI_C_FLOAT_COMPLEX, EK_C32, CL_COMPLEX},
    {MPI_C_DOUBLE_COMPLEX, EK_C64, CL_COMPLEX},
    {MPI_C_LONG_DOUBLE_COMPLEX, EK_C80, CL_COMPLEX},
    {MPI_AINT, EK_I64, CL_MULTI},
    {MPI_OFFSET, EK_I64, CL_MULTI},
    {MPI_COUNT, EK_I64, CL_MULTI},
    {MPI_CXX_BOOL, EK_BOOL, CL_LOGICAL},
    {MPI_CXX_FLOAT_COMPLEX, EK_C32, CL_COMPLEX},
    {MPI_CXX_DOUBLE_COMPLEX, EK_C64, CL_COMPLEX},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, EK_C80, CL_COMPLEX},
};

static const predef_type *predef_lookup(MPI_Datatype type) {
    for (size_t i = 0; i < G_N_ELEMENTS(predef_types); i++)
        if (predef_types[i].type == type)
            return &predef_types[i];
    return NULL;
}

#define PAIR_GEOM(VK, VT, IK, IT)                                                                  \
    {                                                                                              \
        VK, IK, sizeof(VT), sizeof(IT),                                                            \
            offsetof(                                                                              \
                struct {                                                                           \
                    VT v;                                                                          \
                    IT i;                                                                          \
                },                                                                                 \
                i),                                                                                \
            sizeof(struct {                                                                        \
                VT v;                                                                              \
                IT i;                                                                              \
            })                                                                                     \
    }

static pair_geom pair_geometry(elem_kind ek) {
    switch (ek) {
    case EK_P_FLOAT_INT:
        return (pair_geom)PAIR_GEOM(EK_F32, float, EK_I32, int);
    case EK_P_DOUBLE_INT:
        return (pair_geom)PAIR_GEOM(EK_F64, double, EK_I32, int);
    case EK_P_LONG_INT:
        return (pair_geom)PAIR_GEOM(EK_I64, long, EK_I32, int);
    case EK_P_SHORT_INT:
        return (pair_geom)PAIR_GEOM(EK_I16, short, EK_I32, int);
    case EK_P_LONG_DOUBLE_INT:
        return (pair_geom)PAIR_GEOM(EK_F80, long double, EK_I32, int);
    case EK_P_2REAL:
        return (pair_geom)PAIR_GEOM(EK_F32, float, EK_F32, float);
    case EK_P_2DOUBLE:
        return (pair_geom)PAIR_GEOM(EK_F64, double, EK_F64, double);
    case EK_P_2INT:
    default:
        return (pair_geom)PAIR_GEOM(EK_I32, int, EK_I32, int);
    }
}

static bool ek_is_pair(elem_kind ek) {
    return ek >= EK_P_FLOAT_INT;
}

/* ---------------------------------------------------------------------- */
/* Operation table                                                         */

_Static_assert(OP_HANDLE(SIM_HKIND_BUILTIN, OPI_MAX) == MPI_MAX &&
                   OP_HANDLE(SIM_HKIND_BUILTIN, OPI_SUM) == MPI_SUM &&
                   OP_HANDLE(SIM_HKIND_BUILTIN, OPI_MAXLOC) == MPI_MAXLOC &&
                   OP_HANDLE(SIM_HKIND_BUILTIN, OPI_NO_OP) == MPI_NO_OP,
               "op indices follow MPICH's handle values");

typedef struct predef_op {
    const char *name;
    unsigned classes; /* type classes the op is defined for */
    const char *class_text;
} predef_op;

#define ARITH_CLASSES (CL_CINT | CL_FINT | CL_FLOAT | CL_MULTI)

static const predef_op predef_ops[OPI_COUNT] = {
    [OPI_MAX] = {"MPI_MAX", ARITH_CLASSES, "integer and floating-point types"},
    [OPI_MIN] = {"MPI_MIN", ARITH_CLASSES, "integer and floating-point types"},
    [OPI_SUM] = {"MPI_SUM", ARITH_CLASSES | CL_COMPLEX,
                 "integer, floating-point and complex types"},
    [OPI_PROD] = {"MPI_PROD", ARITH_CLASSES | CL_COMPLEX,
                  "integer, floating-point and complex types"},
    [OPI_LAND] = {"MPI_LAND", CL_CINT | CL_LOGICAL, "C integer and logical types"},
    [OPI_LOR] = {"MPI_LOR", CL_CINT | CL_LOGICAL, "C integer and logical types"},
    [OPI_LXOR] = {"MPI_LXOR", CL_CINT | CL_LOGICAL, "C integer and logical types"},
    [OPI_BAND] = {"MPI_BAND", CL_CINT | CL_FINT | CL_BYTE | CL_MULTI, "integer types and MPI_BYTE"},
    [OPI_BOR] = {"MPI_BOR", CL_CINT | CL_FINT | CL_BYTE | CL_MULTI, "integer types and MPI_BYTE"},
    [OPI_BXOR] = {"MPI_BXOR", CL_CINT | CL_FINT | CL_BYTE | CL_MULTI, "integer types and MPI_BYTE"},
    [OPI_MINLOC] = {"MPI_MINLOC", CL_PAIR,
                    "value-index pair types (MPI_2INT, MPI_DOUBLE_INT, ...)"},
    [OPI_MAXLOC] = {"MPI_MAXLOC", CL_PAIR,
                    "value-index pair types (MPI_2INT, MPI_DOUBLE_INT, ...)"},
    [OPI_REPLACE] = {"MPI_REPLACE", ~0u, "every type"},
    [OPI_NO_OP] = {"MPI_NO_OP", ~0u, "every type"},
};

typedef struct user_op {
    MPI_User_function *fn;
    MPI_User_function_c *fn_c; /* MPI_Op_create_c's: the count is an MPI_Count */
    bool commute;
    bool live;  /* the slot is taken: the handle is valid, or freed but still held */
    bool freed; /* MPI_Op_free came while pending operations held it */
    int holds;  /* sim_op_ref references of pending operations */
    char name[32];
} user_op;

/* User ops by handle index; freed slots are reused lowest-first so that
 * handle values do not depend on anything but the program's calls (and on
 * when the operations that hold a freed op complete). */
static GArray *user_ops;

static int predef_index(MPI_Op op) {
    if (SIM_HANDLE_KIND(op) != SIM_HKIND_BUILTIN || SIM_HANDLE_OBJ(op) != SIM_OBJ_OP)
        return 0;
    unsigned i = SIM_HANDLE_INDEX(op);
    return (i >= OPI_MAX && i < OPI_COUNT) ? (int)i : 0;
}

static user_op *user_lookup(MPI_Op op) {
    if (!user_ops || SIM_HANDLE_KIND(op) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(op) != SIM_OBJ_OP)
        return NULL;
    unsigned i = SIM_HANDLE_INDEX(op);
    if (i >= user_ops->len)
        return NULL;
    user_op *u = &g_array_index(user_ops, user_op, i);
    return u->live ? u : NULL;
}

void sim_op_init(void) {
    if (!user_ops)
        user_ops = g_array_new(FALSE, TRUE, sizeof(user_op));
}

void sim_op_fini(void) {
    if (user_ops)
        g_array_free(user_ops, TRUE);
    user_ops = NULL;
}

static bool accept_freed;

bool sim_op_accept_freed(bool on) {
    bool was = accept_freed;
    accept_freed = on;
    return was;
}

bool sim_op_valid(MPI_Op op) {
    if (predef_index(op) != 0)
        return true;
    user_op *u = user_lookup(op);
    return u && (!u->freed || accept_freed);
}

void sim_op_ref(MPI_Op op) {
    user_op *u = user_lookup(op);
    if (u)
        u->holds++;
}

void sim_op_unref(MPI_Op op) {
    user_op *u = user_lookup(op);
    if (!u || u->holds <= 0)
        return;
    if (--u->holds == 0 && u->freed) {
        u->live = false;
        u->freed = false;
        u->fn = NULL;
    }
}

bool sim_op_commutative(MPI_Op op) {
    user_op *u = user_lookup(op);
    return u ? u->commute : predef_index(op) != 0;
}

bool sim_op_rma_only(MPI_Op op) {
    int i = predef_index(op);
    return i == OPI_REPLACE || i == OPI_NO_OP;
}

MPI_Op sim_op_create(MPI_User_function *fn, bool commute) {
    sim_op_init();
    guint slot = 0;
    while (slot < user_ops->len && g_array_index(user_ops, user_op, slot).live)
        slot++;
    if (slot == user_ops->len)
        g_array_set_size(user_ops, slot + 1);
    MPI_Op h = OP_HANDLE(SIM_HKIND_DIRECT, slot);
    user_op *u = &g_array_index(user_ops, user_op, slot);
    u->fn = fn;
    u->fn_c = NULL;
    u->commute = commute;
    u->live = true;
    u->freed = false;
    u->holds = 0;
    g_snprintf(u->name, sizeof u->name, "user op 0x%08x", (unsigned)h);
    return h;
}

void sim_op_set_large(MPI_Op op, MPI_User_function_c *fn) {
    user_op *u = user_lookup(op);
    if (u)
        u->fn_c = fn;
}

bool sim_op_free(MPI_Op op) {
    user_op *u = user_lookup(op);
    if (!u || u->freed)
        return false;
    if (u->holds > 0) { /* pending operations still apply it (MPI 3.1 section 5.9.5) */
        u->freed = true;
        return true;
    }
    u->live = false;
    u->fn = NULL;
    return true;
}

const char *sim_op_name(MPI_Op op) {
    int i = predef_index(op);
    if (i)
        return predef_ops[i].name;
    user_op *u = user_lookup(op);
    if (u)
        return u->name;
    return op == MPI_OP_NULL ? "MPI_OP_NULL" : "an invalid op";
}

/* ---------------------------------------------------------------------- */
/* Classifying the data an op is applied to                                */

/* What a predefined op works on: n elements of kind ek, with class cls. */
typedef struct elem_view {
    elem_kind ek;
    unsigned cls;
    size_t per_item; /* basic elements (pairs for pair kinds) per item of the type */
} elem_view;

/* The pair type whose value is `value` and whose index is an int, for
 * signatures that list a pair type's two parts separately. */
static elem_kind pair_of_value_int(MPI_Datatype value) {
    if (value == MPI_FLOAT)
        return EK_P_FLOAT_INT;
    if (value == MPI_DOUBLE)
        return EK_P_DOUBLE_INT;
    if (value == MPI_LONG)
        return EK_P_LONG_INT;
    if (value == MPI_SHORT)
        return EK_P_SHORT_INT;
    if (value == MPI_LONG_DOUBLE)
        return EK_P_LONG_DOUBLE_INT;
    return EK_NONE;
}

/* The pair type made of two equal halves, for signatures that merged a
 * pair's two parts into one run (MPI_2INT as two MPI_INT ...). */
static elem_kind pair_of_twins(MPI_Datatype basic) {
    if (basic == MPI_INT || basic == MPI_INTEGER)
        return EK_P_2INT;
    if (basic == MPI_REAL)
        return EK_P_2REAL;
    if (basic == MPI_DOUBLE_PRECISION)
        return EK_P_2DOUBLE;
    return EK_NONE;
}

/* What classify needs to know of a signature's runs. */
typedef struct run_scan {
    size_t nruns, total; /* runs and basic elements */
    MPI_Datatype b0;     /* the first run's basic type */
    MPI_Datatype other;  /* the last basic type other than b0 (b0 if none) */
    bool same;           /* every run is of b0 */
    bool pairs;          /* runs alternate one b0, one MPI_INT */
} run_scan;

static bool scan_run(MPI_Datatype basic, size_t n, void *p) {
    run_scan *s = p;
    if (s->nruns == 0)
        s->b0 = s->other = basic;
    s->same = s->same && basic == s->b0;
    if (basic != s->b0)
        s->other = basic;
    s->pairs = s->pairs && n == 1 && basic == (s->nruns % 2 == 0 ? s->b0 : MPI_INT);
    s->nruns++;
    s->total += n;
    return true;
}

/* Classifies type for predefined op opi.  Predefined types stand for
 * themselves; a derived type qualifies when one item's signature is a single
 * basic type (or, for the LOC ops, a sequence of value-index pairs).  Returns
 * false with *why when the type is none of these. */
static bool classify(int opi, MPI_Datatype type, elem_view *v, char **why) {
    const predef_type *p = predef_lookup(type);
    if (p) {
        *v = (elem_view){p->ek, p->cls, 1};
        return true;
    }
    const sim_datatype *dt = sim_dt_get(type);
    if (!dt) {
        if (why)
            *why = g_strdup_printf("0x%08x is not a valid datatype", (unsigned)type);
        return false;
    }
    run_scan s = {.same = true, .pairs = true};
    sim_typesig_each_run(sim_dt_typesig(dt), 1, scan_run, &s);
    bool ok = false;
    bool loc = opi == OPI_MAXLOC || opi == OPI_MINLOC;
    if (s.nruns == 0) {
        /* Nothing to reduce: any op is harmless on an empty type. */
        *v = (elem_view){EK_NONE, ~0u, 0};
        ok = true;
    } else {
        MPI_Datatype b0 = s.b0;
        bool same = s.same;
        size_t total = s.total;
        const predef_type *bp = predef_lookup(b0);
        if (same && bp) {
            if (loc && !ek_is_pair(bp->ek) && pair_of_twins(b0) != EK_NONE && total % 2 == 0) {
                *v = (elem_view){pair_of_twins(b0), CL_PAIR, total / 2};
            } else {
                *v = (elem_view){bp->ek, bp->cls, total};
            }
            ok = true;
        } else if (loc && s.nruns % 2 == 0) {
            /* value, int, value, int ...: pairs whose parts the signature lists. */
            elem_kind ek = pair_of_value_int(b0);
            ok = ek != EK_NONE && s.pairs;
            if (ok)
                *v = (elem_view){ek, CL_PAIR, s.nruns / 2};
        }
        if (!ok && why) {
            MPI_Datatype other = s.other;
            if (other != b0)
                *why = g_strdup_printf("%s cannot be applied to %s: its elements mix %s and %s, "
                                       "and predefined operations need one basic type",
                                       predef_ops[opi].name, sim_dt_name(type), sim_dt_name(b0),
                                       sim_dt_name(other));
            else
                *why = g_strdup_printf("%s cannot be applied to %s: its elements are %s",
                                       predef_ops[opi].name, sim_dt_name(type), sim_dt_name(b0));
        }
    }
    return ok;
}

/* Checks that predefined op opi is defined for the classified data. */
/* Pairs the standard forbids (MPI 3.1 section 5.9.2) that MPICH 4.0 takes
 * all the same, as checked with MPI_Reduce_local under mpiexec.mpich: a
 * program that works with MPICH is still not portable, and the report says
 * why it is an error here.  MPICH stops with an internal assertion on
 * MPI_LAND and MPI_LOR of floating-point types. */
static const char *mpich_note(int opi, MPI_Datatype type) {
    static const char accepts[] = "; the standard forbids it (MPI 3.1 section 5.9.2), though "
                                  "MPICH accepts it: the program is not portable";
    static const char asserts[] = "; the standard forbids it (MPI 3.1 section 5.9.2), and "
                                  "MPICH 4.0 stops on it with an internal assertion";
    bool logical = opi == OPI_LAND || opi == OPI_LOR || opi == OPI_LXOR;
    bool floating = type == MPI_FLOAT || type == MPI_DOUBLE || type == MPI_LONG_DOUBLE;
    if (type == MPI_CHAR && opi >= OPI_MAX && opi <= OPI_BXOR)
        return accepts;
    if (logical && (type == MPI_AINT || type == MPI_OFFSET || type == MPI_COUNT))
        return accepts;
    if (opi == OPI_LXOR && floating)
        return accepts;
    if ((opi == OPI_LAND || opi == OPI_LOR) && floating)
        return asserts;
    return "";
}

static bool class_allows(int opi, MPI_Datatype type, const elem_view *v, char **why) {
    if (v->cls & predef_ops[opi].classes)
        return true;
    if (why) {
        char *what = v->per_item == 1 || predef_lookup(type)
                         ? g_strdup(sim_dt_name(type))
                         : g_strdup_printf("%s (a derived type)", sim_dt_name(type));
        *why = g_strdup_printf("%s is not defined for %s; it applies to %s%s", predef_ops[opi].name,
                               what, predef_ops[opi].class_text, mpich_note(opi, type));
        g_free(what);
    }
    return false;
}

bool sim_op_defined_for(MPI_Op op, MPI_Datatype type, char **why) {
    if (user_lookup(op))
        return true;
    int opi = predef_index(op);
    if (!opi) {
        if (why)
            *why = g_strdup_printf("%s is not a valid operation", sim_op_name(op));
        return false;
    }
    if (opi == OPI_REPLACE || opi == OPI_NO_OP)
        return true;
    elem_view v;
    return classify(opi, type, &v, why) && class_allows(opi, type, &v, why);
}

/* ---------------------------------------------------------------------- */
/* Applying                                                                */

/* Runs the kernel for classified data.  `packed` says whether pairs are
 * laid out packed (value then index, no padding) or as the C struct. */
static void run_kernel(int opi, const elem_view *v, const void *in, void *io, size_t n,
                       bool packed) {
    if (v->ek == EK_NONE || n == 0)
        return;
    if (ek_is_pair(v->ek)) {
        pair_geom g = pair_geometry(v->ek);
        size_t stride = packed ? g.vsize + g.isize : g.struct_size;
        size_t ioff = packed ? g.vsize : g.struct_ioff;
        sim_op_pair_kernel(opi == OPI_MAXLOC, &g, in, io, n, stride, ioff);
    } else {
        sim_op_kernel(opi, v->ek, in, io, n);
    }
}

/* A zeroed buffer able to hold count items of dt in dt's layout; *base is
 * where the items start (the buffer begins at the lowest byte touched). */
static void *layout_alloc(const sim_datatype *dt, int count, char **base) {
    MPI_Aint tlb = sim_dt_true_lb(dt), text = sim_dt_true_extent(dt), ext = sim_dt_extent(dt);
    MPI_Aint reach = count > 0 ? (MPI_Aint)(count - 1) * ext : 0;
    MPI_Aint lo = tlb + (reach < 0 ? reach : 0);
    MPI_Aint hi = tlb + text + (reach > 0 ? reach : 0);
    char *mem = g_malloc0((gsize)(hi > lo ? hi - lo : 1));
    *base = mem - lo;
    return mem;
}

static int predef_error(char **why, char *msg) {
    if (why)
        *why = msg;
    else
        g_free(msg);
    return MPI_ERR_OP;
}

static int bad_op(MPI_Op op, char **why) {
    return predef_error(why, g_strdup_printf("%s is not a valid operation", sim_op_name(op)));
}

/* Calls u's function, of MPI_Op_create or MPI_Op_create_c. */
static void call_user(const user_op *u, void *in, void *inout, int count, MPI_Datatype type) {
    MPI_Datatype t = type;
    if (u->fn_c) {
        MPI_Count n = count;
        u->fn_c(in, inout, &n, &t);
    } else {
        int n = count;
        u->fn(in, inout, &n, &t);
    }
}

/* Calls a user function on packed data by way of buffers in type's layout. */
static void user_apply_packed(user_op *u, const void *in, void *io, int count, MPI_Datatype type) {
    const sim_datatype *dt = sim_dt_get(type);
    size_t bytes = sim_dt_size(dt) * (size_t)count;
    char *lin, *lio;
    void *min = layout_alloc(dt, count, &lin);
    void *mio = layout_alloc(dt, count, &lio);
    sim_dt_unpack(dt, in, bytes, lin, count);
    sim_dt_unpack(dt, io, bytes, lio, count);
    call_user(u, lin, lio, count, type);
    sim_dt_pack(dt, lio, count, io);
    g_free(min);
    g_free(mio);
}

int sim_op_apply_packed(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type,
                        char **why) {
    if (count <= 0)
        return MPI_SUCCESS;
    user_op *u = user_lookup(op);
    if (u) {
        user_apply_packed(u, in, inout, count, type);
        return MPI_SUCCESS;
    }
    int opi = predef_index(op);
    if (!opi)
        return bad_op(op, why);
    if (opi == OPI_NO_OP)
        return MPI_SUCCESS;
    if (opi == OPI_REPLACE) {
        memcpy(inout, in, sim_dt_size(sim_dt_get(type)) * (size_t)count);
        return MPI_SUCCESS;
    }
    elem_view v;
    if (!classify(opi, type, &v, why) || !class_allows(opi, type, &v, why))
        return MPI_ERR_OP;
    run_kernel(opi, &v, in, inout, v.per_item * (size_t)count, true);
    return MPI_SUCCESS;
}

int sim_op_apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type, char **why) {
    if (count <= 0)
        return MPI_SUCCESS;
    user_op *u = user_lookup(op);
    if (u) {
        /* MPI_User_function takes a non-const first argument, but user
         * functions only read it (MPI 3.1 section 5.9.5). */
        call_user(u, (void *)in, inout, count, type);
        return MPI_SUCCESS;
    }
    int opi = predef_index(op);
    if (!opi)
        return bad_op(op, why);
    if (opi == OPI_NO_OP)
        return MPI_SUCCESS;
    const predef_type *p = predef_lookup(type);
    if (p && opi != OPI_REPLACE) {
        elem_view v = {p->ek, p->cls, 1};
        if (!class_allows(opi, type, &v, why))
            return MPI_ERR_OP;
        run_kernel(opi, &v, in, inout, (size_t)count, false);
        return MPI_SUCCESS;
    }
    /* Derived types (and MPI_REPLACE): reduce packed copies, write back. */
    const sim_datatype *dt = sim_dt_get(type);
    if (!dt)
        return predef_error(why, g_strdup_printf("0x%08x is not a valid datatype", (unsigned)type));
    size_t bytes = sim_dt_size(dt) * (size_t)count;
    void *pin = g_malloc(bytes ? bytes : 1);
    void *pio = g_malloc(bytes ? bytes : 1);
    sim_dt_pack(dt, in, count, pin);
    sim_dt_pack(dt, inout, count, pio);
    int rc = sim_op_apply_packed(op, pin, pio, count, type, why);
    if (rc == MPI_SUCCESS)
        sim_dt_unpack(dt, pio, bytes, inout, count);
    g_free(pin);
    g_free(pio);
    return rc;
}
