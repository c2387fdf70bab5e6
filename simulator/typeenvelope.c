/*
 * typeenvelope.c - what a datatype remembers of its making: the combiner
 * and constructor arguments behind MPI_Type_get_envelope and
 * MPI_Type_get_contents (MPI 3.1 section 4.1.13), and the types of
 * MPI_Type_create_f90_* and MPI_Type_match_size (section 17.2.5), which
 * are predefined in all but their handle.
 */
#include <glib.h>
#include <string.h>

#include "simulator/datatype.h"
#include "simulator/datatype_internal.h"

/* ---------------------------------------------------------------------- */
/* Records                                                                 */

void sim_dt_recipe_release(sim_datatype *dt) {
    for (int i = 0; i < dt->recipe_nd; i++)
        if (dt->recipe_objs[i])
            sim_dt_unref(dt->recipe_objs[i]);
    g_clear_pointer(&dt->recipe_ints, g_free);
    g_clear_pointer(&dt->recipe_aints, g_free);
    g_clear_pointer(&dt->recipe_types, g_free);
    g_clear_pointer(&dt->recipe_objs, g_free);
    dt->recipe_ni = dt->recipe_na = dt->recipe_nd = 0;
}

static void set_recipe(sim_datatype *dt, int combiner, int ni, const int *ints, int na,
                       const MPI_Aint *aints, int nd, const MPI_Datatype *types,
                       const sim_datatype *const *objs) {
    /* References first: the old record may hold the last ones. */
    const sim_datatype **refs = g_new0(const sim_datatype *, nd > 0 ? nd : 1);
    for (int i = 0; i < nd; i++) {
        const sim_datatype *o = objs ? objs[i] : sim_dt_get(types[i]);
        if (o && !o->predefined)
            refs[i] = sim_dt_ref(o);
    }
    sim_dt_recipe_release(dt);
    dt->combiner = combiner;
    dt->recipe_ni = ni;
    dt->recipe_na = na;
    dt->recipe_nd = nd;
    dt->recipe_ints = ni > 0 ? g_memdup2(ints, sizeof(int) * (size_t)ni) : NULL;
    dt->recipe_aints = na > 0 ? g_memdup2(aints, sizeof(MPI_Aint) * (size_t)na) : NULL;
    dt->recipe_types = nd > 0 ? g_memdup2(types, sizeof(MPI_Datatype) * (size_t)nd) : NULL;
    dt->recipe_objs = refs;
}

void sim_dt_set_recipe(MPI_Datatype h, int combiner, int ni, const int *ints, int na,
                       const MPI_Aint *aints, int nd, const MPI_Datatype *types) {
    sim_datatype *dt = (sim_datatype *)sim_dt_get(h);
    g_assert(dt && !dt->predefined);
    set_recipe(dt, combiner, ni, ints, na, aints, nd, types, NULL);
}

void sim_dt_copy_recipe(sim_datatype *dt, const sim_datatype *old) {
    set_recipe(dt, old->combiner, old->recipe_ni, old->recipe_ints, old->recipe_na,
               old->recipe_aints, old->recipe_nd, old->recipe_types, old->recipe_objs);
}

/* ---------------------------------------------------------------------- */
/* Queries                                                                 */

void sim_dt_envelope(const sim_datatype *dt, int *ni, int *na, int *nd, int *combiner) {
    *ni = dt->recipe_ni;
    *na = dt->recipe_na;
    *nd = dt->recipe_nd;
    *combiner = dt->combiner;
}

/* A new handle of `rank` for a type equivalent to o: the same layout and
 * record, committed when o is (MPI 3.1 section 4.1.13 asks for an
 * equivalent type, which the program frees). */
static MPI_Datatype equivalent(int rank, const sim_datatype *o) {
    sim_datatype *dt = sim_dt_alloc();
    dt->creator = rank;
    dt->committed = o->committed;
    dt->size = o->size;
    dt->align = o->align;
    dt->lb = o->lb;
    dt->ub = o->ub;
    dt->lb_marked = o->lb_marked;
    dt->ub_marked = o->ub_marked;
    dt->true_lb = o->true_lb;
    dt->true_ub = o->true_ub;
    g_array_append_vals(dt->unit, o->unit->data, o->unit->len);
    dt->nrep = o->nrep;
    dt->rep_stride = o->rep_stride;
    dt->sig = sim_typesig_ref(o->sig);
    sim_dt_copy_recipe(dt, o);
    return sim_dt_table_insert(dt);
}

int sim_dt_contents(int rank, const sim_datatype *dt, int max_integers, int ints[],
                    int max_addresses, MPI_Aint aints[], int max_datatypes, MPI_Datatype types[],
                    bool fresh[], char **why) {
    if (dt->combiner == MPI_COMBINER_NAMED)
        return sim_dt_fail(why, MPI_ERR_TYPE,
                           "datatype %s is a named predefined type, which has no contents",
                           sim_dt_name(dt->handle));
    if (max_integers < dt->recipe_ni || max_addresses < dt->recipe_na ||
        max_datatypes < dt->recipe_nd)
        return sim_dt_fail(why, MPI_ERR_ARG,
                           "the arrays are too small: max_integers %d, max_addresses %d, "
                           "max_datatypes %d, but the type has %d, %d and %d",
                           max_integers, max_addresses, max_datatypes, dt->recipe_ni, dt->recipe_na,
                           dt->recipe_nd);
    if ((dt->recipe_ni > 0 && !ints) || (dt->recipe_na > 0 && !aints) ||
        (dt->recipe_nd > 0 && !types))
        return sim_dt_fail(why, MPI_ERR_ARG, "an output array is NULL");
    if (dt->recipe_ni > 0)
        memcpy(ints, dt->recipe_ints, sizeof(int) * (size_t)dt->recipe_ni);
    if (dt->recipe_na > 0)
        memcpy(aints, dt->recipe_aints, sizeof(MPI_Aint) * (size_t)dt->recipe_na);
    for (int i = 0; i < dt->recipe_nd; i++) {
        const sim_datatype *o = dt->recipe_objs[i];
        types[i] = o ? equivalent(rank, o) : dt->recipe_types[i];
        if (fresh)
            fresh[i] = o != NULL;
    }
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Size- and precision-specific types                                      */

/* The kinds of x86-64 Fortran compilers (gfortran): precision and
 * decimal exponent range of each real kind, range of each integer kind,
 * with the MPI type of that kind. */
typedef struct kind {
    int precision, range;
    MPI_Datatype real, complex;
} kind;
static const kind real_kinds[] = {
    {6, 37, MPI_REAL4, MPI_COMPLEX8},
    {15, 307, MPI_REAL8, MPI_COMPLEX16},
    {33, 4931, MPI_REAL16, MPI_COMPLEX32},
};
typedef struct ikind {
    int range;
    MPI_Datatype type;
} ikind;
static const ikind int_kinds[] = {
    {2, MPI_INTEGER1},
    {4, MPI_INTEGER2},
    {9, MPI_INTEGER4},
    {18, MPI_INTEGER8},
};

static GHashTable *f90_cache; /* "combiner:p:r" -> handle (GUINT) */

void sim_dt_f90_reset(void) {
    g_clear_pointer(&f90_cache, g_hash_table_destroy);
}

static const char *undef_or(int v, char buf[static 16]) {
    if (v == MPI_UNDEFINED)
        return "MPI_UNDEFINED";
    g_snprintf(buf, 16, "%d", v);
    return buf;
}

int sim_dt_f90(int combiner, int p, int r, MPI_Datatype *type, char **why) {
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    char pb[16], rb[16];
    const char *fname = combiner == MPI_COMBINER_F90_INTEGER ? "integer"
                        : combiner == MPI_COMBINER_F90_REAL  ? "real"
                                                             : "complex";
    if (!type)
        return sim_dt_fail(why, MPI_ERR_ARG, "newtype is NULL");
    if (combiner == MPI_COMBINER_F90_INTEGER) {
        p = MPI_UNDEFINED;
        if (r == MPI_UNDEFINED)
            return sim_dt_fail(why, MPI_ERR_ARG, "r is MPI_UNDEFINED");
        for (size_t i = 0; i < G_N_ELEMENTS(int_kinds) && basic == MPI_DATATYPE_NULL; i++)
            if (r <= int_kinds[i].range)
                basic = int_kinds[i].type;
    } else {
        if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
            return sim_dt_fail(why, MPI_ERR_ARG, "p and r are both MPI_UNDEFINED");
        for (size_t i = 0; i < G_N_ELEMENTS(real_kinds) && basic == MPI_DATATYPE_NULL; i++)
            if ((p == MPI_UNDEFINED || p <= real_kinds[i].precision) &&
                (r == MPI_UNDEFINED || r <= real_kinds[i].range))
                basic =
                    combiner == MPI_COMBINER_F90_REAL ? real_kinds[i].real : real_kinds[i].complex;
    }
    if (basic == MPI_DATATYPE_NULL)
        return sim_dt_fail(why, MPI_ERR_ARG,
                           "no %s kind has precision %s and range %s (the largest have "
                           "precision 33, range 4931 for reals and range 18 for integers)",
                           fname, undef_or(p, pb), undef_or(r, rb));
    if (!f90_cache)
        f90_cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    char *key = g_strdup_printf("%d:%d:%d", combiner, p, r);
    gpointer h = g_hash_table_lookup(f90_cache, key);
    if (h) {
        g_free(key);
        *type = (MPI_Datatype)GPOINTER_TO_UINT(h);
        return MPI_SUCCESS;
    }
    const sim_datatype *b = sim_dt_get(basic);
    sim_datatype *dt = sim_dt_alloc();
    dt->predefined = dt->committed = true;
    dt->size = b->size;
    dt->align = b->align;
    dt->lb = b->lb;
    dt->ub = b->ub;
    dt->true_lb = b->true_lb;
    dt->true_ub = b->true_ub;
    g_array_append_vals(dt->unit, b->unit->data, b->unit->len);
    dt->rep_stride = b->rep_stride;
    dt->sig = sim_typesig_ref(b->sig);
    int ints[2] = {p, r};
    if (combiner == MPI_COMBINER_F90_INTEGER)
        set_recipe(dt, combiner, 1, &ints[1], 0, NULL, 0, NULL, NULL);
    else
        set_recipe(dt, combiner, 2, ints, 0, NULL, 0, NULL, NULL);
    MPI_Datatype nh = sim_dt_table_insert(dt);
    g_free(dt->label);
    dt->label = combiner == MPI_COMBINER_F90_INTEGER
                    ? g_strdup_printf("MPI_Type_create_f90_integer(%s)", undef_or(r, rb))
                    : g_strdup_printf("MPI_Type_create_f90_%s(%s, %s)", fname, undef_or(p, pb),
                                      undef_or(r, rb));
    g_hash_table_insert(f90_cache, key, GUINT_TO_POINTER((unsigned)nh));
    *type = nh;
    return MPI_SUCCESS;
}

int sim_dt_match_size(int typeclass, int size, MPI_Datatype *type, char **why) {
    /* First fit among the C types, as MPI 3.1 section 17.2.5 leaves the
     * choice to the implementation. */
    static const MPI_Datatype reals[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
    static const MPI_Datatype integers[] = {MPI_SIGNED_CHAR, MPI_SHORT, MPI_INT, MPI_LONG,
                                            MPI_LONG_LONG};
    static const MPI_Datatype complexes[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                                             MPI_C_LONG_DOUBLE_COMPLEX};
    const MPI_Datatype *list;
    size_t n;
    const char *cls;
    switch (typeclass) {
    case MPI_TYPECLASS_REAL:
        list = reals, n = G_N_ELEMENTS(reals), cls = "MPI_TYPECLASS_REAL";
        break;
    case MPI_TYPECLASS_INTEGER:
        list = integers, n = G_N_ELEMENTS(integers), cls = "MPI_TYPECLASS_INTEGER";
        break;
    case MPI_TYPECLASS_COMPLEX:
        list = complexes, n = G_N_ELEMENTS(complexes), cls = "MPI_TYPECLASS_COMPLEX";
        break;
    default:
        return sim_dt_fail(why, MPI_ERR_ARG,
                           "typeclass %d is not MPI_TYPECLASS_REAL, _INTEGER or _COMPLEX",
                           typeclass);
    }
    if (!type)
        return sim_dt_fail(why, MPI_ERR_ARG, "datatype is NULL");
    for (size_t i = 0; i < n; i++)
        if (size > 0 && sim_dt_basic_size(list[i]) == (size_t)size) {
            *type = list[i];
            return MPI_SUCCESS;
        }
    return sim_dt_fail(why, MPI_ERR_ARG, "no type of %s has size %d", cls, size);
}
