/*
 * typebuild.c - derived datatypes: the MPI_Type_* constructors (contiguous,
 * vector, indexed, struct, resized, dup) and the one builder they share,
 * which checks bounds and sizes (MPI 3.1 section 4.1.6) and flattens the
 * new type's layout and signature.
 */
#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "simulator/datatype.h"
#include "simulator/datatype_internal.h"

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
           whole == sim_dt_extent(t);
}

static bool is_dense_unit(const sim_datatype *t) {
    return t->nrep == 1 && t->unit->len == 1 &&
           (MPI_Aint)g_array_index(t->unit, dt_block, 0).len == sim_dt_extent(t) &&
           sim_dt_extent(t) > 0;
}

#define TOO_LARGE "the type is too large: its displacements overflow the address range"

/* Appends `copies` copies of t at disp to blocks, within the piece budget. */
static bool expand_blocks(GArray *blocks, const sim_datatype *t, MPI_Aint disp, size_t copies) {
    MPI_Aint ext = sim_dt_extent(t);
    if (t->size == 0 || copies == 0)
        return true;
    if (is_dense_unit(t)) {
        const dt_block *b = &g_array_index(t->unit, dt_block, 0);
        sim_dt_blocks_append(blocks, disp + b->off, b->len * copies);
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
                sim_dt_blocks_append(blocks, cr + b->off, b->len);
            }
        }
    }
    return true;
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
            return sim_dt_fail(why, MPI_ERR_TYPE, "the type is too large: its size overflows");
        if (__builtin_mul_overflow((MPI_Aint)(p->copies - 1), sim_dt_extent(t), &span) ||
            __builtin_add_overflow(p->disp, t->lb + MIN(span, 0), &lo) ||
            __builtin_add_overflow(p->disp, t->ub + MAX(span, 0), &hi) ||
            __builtin_add_overflow(p->disp, t->true_lb + MIN(span, 0), &tlo) ||
            __builtin_add_overflow(p->disp, t->true_ub + MAX(span, 0), &thi))
            return sim_dt_fail(why, MPI_ERR_TYPE, TOO_LARGE);
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
        return sim_dt_fail(why, MPI_ERR_TYPE, "the type is too large: its size overflows");

    sim_datatype *dt = sim_dt_alloc();
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
        bool outer_continues =
            nrep == 1 ||
            (!__builtin_mul_overflow((MPI_Aint)only->copies, sim_dt_extent(t), &copies_span) &&
             rep_stride == copies_span);
        if (ndata == 1 && tiles(t) && outer_continues) {
            /* All copies continue t's own repetition: no expansion. */
            for (guint k = 0; k < t->unit->len; k++) {
                const dt_block *b = &g_array_index(t->unit, dt_block, k);
                sim_dt_blocks_append(dt->unit, only->disp + b->off, b->len);
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
        sim_sig_builder sb;
        sim_sb_init(&sb);
        for (size_t i = 0; i < np; i++)
            if (ps[i].t)
                sim_sb_sig(&sb, ps[i].t->sig, ps[i].copies);
        const sim_typesig *one = sim_sb_finish(&sb);
        if (one && nrep != 1) {
            sim_sb_init(&sb);
            sim_sb_sig(&sb, one, nrep);
            sim_typesig_unref(one);
            one = sim_sb_finish(&sb);
        }
        if (!one)
            goto too_complex;
        dt->sig = one;
    } else {
        sim_sig_builder sb;
        sim_sb_init(&sb);
        dt->sig = sim_sb_finish(&sb); /* the empty signature */
    }
    if (dt->nrep == 1)
        dt->rep_stride = sim_dt_extent(dt);
    *newtype = sim_dt_table_insert(dt);
    return MPI_SUCCESS;

too_large:
    sim_dt_destroy(dt);
    return sim_dt_fail(why, MPI_ERR_TYPE, TOO_LARGE);
too_complex:
    sim_dt_destroy(dt);
    return sim_dt_fail(why, MPI_ERR_TYPE,
                       "the type is too irregular for ordex: it flattens to more than %zu blocks",
                       DT_MAX_PIECES);
}

/* ---------------------------------------------------------------------- */
/* Constructors                                                            */

/* The integer arguments of a constructor in the order of MPI 3.1 section
 * 4.1.13: leading scalars, then up to two arrays of count entries. */
static int *cat_ints(int nlead, const int *lead, int count, const int *a, const int *b) {
    int *v = g_new(int, (size_t)nlead + 2 * (size_t)count + 1);
    int n = 0;
    for (int i = 0; i < nlead; i++)
        v[n++] = lead[i];
    for (int i = 0; a && i < count; i++)
        v[n++] = a[i];
    for (int i = 0; b && i < count; i++)
        v[n++] = b[i];
    return v;
}

/* Records the recipe of a constructor that succeeded; passes rc on. */
static int record(int rc, MPI_Datatype *newtype, int combiner, int ni, int *ints, int na,
                  const MPI_Aint *aints, int nd, const MPI_Datatype *types) {
    if (rc == MPI_SUCCESS)
        sim_dt_set_recipe(*newtype, combiner, ni, ints, na, aints, nd, types);
    g_free(ints);
    return rc;
}

static int check_old(int rank, MPI_Datatype oldtype, const char *arg, const sim_datatype **out,
                     char **why) {
    *out = sim_dt_lookup(oldtype, rank, arg, why);
    return *out ? MPI_SUCCESS : MPI_ERR_TYPE;
}

static int check_count(int count, MPI_Datatype *newtype, char **why) {
    if (count < 0)
        return sim_dt_fail(why, MPI_ERR_COUNT, "count %d is negative", count);
    if (!newtype)
        return sim_dt_fail(why, MPI_ERR_ARG, "newtype is NULL");
    return MPI_SUCCESS;
}

static int check_array(int count, const void *array, const char *arg, char **why) {
    if (count > 0 && !array)
        return sim_dt_fail(why, MPI_ERR_ARG, "%s is NULL", arg);
    return MPI_SUCCESS;
}

static int check_blocklengths(int count, const int bl[], char **why) {
    int rc = check_array(count, bl, "array_of_blocklengths", why);
    for (int i = 0; rc == MPI_SUCCESS && i < count; i++)
        if (bl[i] < 0)
            rc = sim_dt_fail(why, MPI_ERR_ARG, "array_of_blocklengths[%d] = %d is negative", i,
                             bl[i]);
    return rc;
}

/* Element displacements scaled to bytes, failing on overflow. */
static int scale(MPI_Aint n, MPI_Aint extent, MPI_Aint *out, char **why) {
    if (__builtin_mul_overflow(n, extent, out))
        return sim_dt_fail(why, MPI_ERR_TYPE, TOO_LARGE);
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
    rc = build(rank, &p, 1, (size_t)count, sim_dt_extent(old), false, newtype, why);
    return record(rc, newtype, MPI_COMBINER_CONTIGUOUS, 1, cat_ints(1, &count, 0, NULL, NULL), 0,
                  NULL, 1, &oldtype);
}

static int make_hvector(int rank, int count, int blocklength, MPI_Aint stride, bool in_elements,
                        MPI_Datatype oldtype, MPI_Datatype *newtype, char **why) {
    const sim_datatype *old;
    int rc = check_count(count, newtype, why);
    if (rc == MPI_SUCCESS && blocklength < 0)
        rc = sim_dt_fail(why, MPI_ERR_ARG, "blocklength %d is negative", blocklength);
    if (rc == MPI_SUCCESS)
        rc = check_old(rank, oldtype, "oldtype", &old, why);
    if (rc == MPI_SUCCESS && in_elements)
        rc = scale(stride, sim_dt_extent(old), &stride, why);
    if (rc != MPI_SUCCESS)
        return rc;
    piece p = {old, 0, 0, (size_t)blocklength};
    return build(rank, &p, 1, (size_t)count, stride, false, newtype, why);
}

int sim_dt_create_vector(int rank, int count, int blocklength, int stride, MPI_Datatype oldtype,
                         MPI_Datatype *newtype, char **why) {
    int rc = make_hvector(rank, count, blocklength, stride, true, oldtype, newtype, why);
    int lead[] = {count, blocklength, stride};
    return record(rc, newtype, MPI_COMBINER_VECTOR, 3, cat_ints(3, lead, 0, NULL, NULL), 0, NULL, 1,
                  &oldtype);
}

int sim_dt_create_hvector(int rank, int count, int blocklength, MPI_Aint stride,
                          MPI_Datatype oldtype, MPI_Datatype *newtype, char **why) {
    int rc = make_hvector(rank, count, blocklength, stride, false, oldtype, newtype, why);
    int lead[] = {count, blocklength};
    return record(rc, newtype, MPI_COMBINER_HVECTOR, 2, cat_ints(2, lead, 0, NULL, NULL), 1,
                  &stride, 1, &oldtype);
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
        rc = sim_dt_fail(why, MPI_ERR_ARG, "blocklength %d is negative", blocklength);
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
            rc = scale(idispl[i], sim_dt_extent(old), &ps[i].disp, why);
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
        return sim_dt_fail(why, MPI_ERR_ARG, "array_of_blocklengths is NULL");
    int rc = make_indexed(rank, count, array_of_blocklengths, 0, array_of_displacements, NULL,
                          oldtype, newtype, why);
    if (rc != MPI_SUCCESS)
        return rc;
    return record(rc, newtype, MPI_COMBINER_INDEXED, 1 + 2 * count,
                  cat_ints(1, &count, count, array_of_blocklengths, array_of_displacements), 0,
                  NULL, 1, &oldtype);
}

int sim_dt_create_hindexed(int rank, int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                           MPI_Datatype *newtype, char **why) {
    if (count > 0 && !array_of_blocklengths)
        return sim_dt_fail(why, MPI_ERR_ARG, "array_of_blocklengths is NULL");
    int rc = make_indexed(rank, count, array_of_blocklengths, 0, NULL, array_of_displacements,
                          oldtype, newtype, why);
    if (rc != MPI_SUCCESS)
        return rc;
    return record(rc, newtype, MPI_COMBINER_HINDEXED, 1 + count,
                  cat_ints(1, &count, count, array_of_blocklengths, NULL), count,
                  array_of_displacements, 1, &oldtype);
}

int sim_dt_create_indexed_block(int rank, int count, int blocklength,
                                const int array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype, char **why) {
    int rc = make_indexed(rank, count, NULL, blocklength, array_of_displacements, NULL, oldtype,
                          newtype, why);
    if (rc != MPI_SUCCESS)
        return rc;
    int lead[] = {count, blocklength};
    return record(rc, newtype, MPI_COMBINER_INDEXED_BLOCK, 2 + count,
                  cat_ints(2, lead, count, array_of_displacements, NULL), 0, NULL, 1, &oldtype);
}

int sim_dt_create_hindexed_block(int rank, int count, int blocklength,
                                 const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype, char **why) {
    int rc = make_indexed(rank, count, NULL, blocklength, NULL, array_of_displacements, oldtype,
                          newtype, why);
    if (rc != MPI_SUCCESS)
        return rc;
    int lead[] = {count, blocklength};
    return record(rc, newtype, MPI_COMBINER_HINDEXED_BLOCK, 2, cat_ints(2, lead, 0, NULL, NULL),
                  count, array_of_displacements, 1, &oldtype);
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
    if (rc != MPI_SUCCESS)
        return rc;
    return record(rc, newtype, MPI_COMBINER_STRUCT, 1 + count,
                  cat_ints(1, &count, count, array_of_blocklengths, NULL), count,
                  array_of_displacements, count, array_of_types);
}

/* A copy of old's layout under a new handle (resized and dup). */
static sim_datatype *clone_layout(int rank, const sim_datatype *old) {
    sim_datatype *dt = sim_dt_alloc();
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
        rc = sim_dt_fail(why, MPI_ERR_ARG, "newtype is NULL");
    if (rc == MPI_SUCCESS)
        rc = check_old(rank, oldtype, "oldtype", &old, why);
    if (rc == MPI_SUCCESS && __builtin_add_overflow(lb, extent, &ub))
        rc = sim_dt_fail(why, MPI_ERR_ARG, "lb %ld + extent %ld overflows", (long)lb, (long)extent);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_datatype *dt = clone_layout(rank, old);
    dt->lb = lb;
    dt->ub = ub;
    dt->lb_marked = dt->ub_marked = true;
    if (dt->nrep == 1)
        dt->rep_stride = extent;
    // NOLINTNEXTLINE(clang-analyzer-core.NullDereference): callers pass it
    *newtype = sim_dt_table_insert(dt);
    MPI_Aint bounds[] = {lb, extent};
    return record(MPI_SUCCESS, newtype, MPI_COMBINER_RESIZED, 0, NULL, 2, bounds, 1, &oldtype);
}

int sim_dt_dup(int rank, MPI_Datatype oldtype, MPI_Datatype *newtype, char **why) {
    const sim_datatype *old;
    if (!newtype)
        return sim_dt_fail(why, MPI_ERR_ARG, "newtype is NULL");
    if (check_old(rank, oldtype, "oldtype", &old, why) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    sim_datatype *dt = clone_layout(rank, old);
    dt->committed = sim_dt_committed(old);
    *newtype = sim_dt_table_insert(dt);
    return record(MPI_SUCCESS, newtype, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &oldtype);
}
