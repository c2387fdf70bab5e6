/*
 * typearray.c - MPI_Type_create_subarray and MPI_Type_create_darray (MPI
 * 3.1 sections 4.1.3 and 4.1.4): a block of an n-dimensional array, and
 * a process's share of an array distributed over a grid of processes.
 *
 * Both come down to the same thing: in each dimension the process owns
 * some runs of indices (one run for a subarray; for a distribution, its
 * block or its cyclic blocks).  The type is built from the innermost
 * dimension out: the runs of a dimension are an hindexed type of the
 * inner dimensions' type, resized so that one index of the dimension
 * spans one whole row of the inner ones.  The result spans the whole
 * array: lower bound 0, extent prod(sizes) * extent(oldtype).
 */
#include <glib.h>

#include "simulator/datatype.h"
#include "simulator/datatype_internal.h"

/* One dimension's runs: indices [start, start + len). */
typedef struct run {
    int start, len;
} run;

/* Builds the type from per-dimension runs, dims in memory order from
 * the innermost out (`sizes` and `runs` indexed that way). */
static int build(int rank, int ndims, const int sizes[], GArray *const runs[], MPI_Datatype oldtype,
                 MPI_Datatype *newtype, char **why) {
    const sim_datatype *old = sim_dt_get(oldtype);
    MPI_Aint stride = sim_dt_extent(old);
    MPI_Datatype t = oldtype;
    bool own = false; /* t is an intermediate of ours, freed once used */
    int rc = MPI_SUCCESS;
    for (int d = 0; d < ndims && rc == MPI_SUCCESS; d++) {
        GArray *r = runs[d];
        int n = (int)r->len;
        int *lens = g_new(int, n + 1);
        MPI_Aint *displs = g_new(MPI_Aint, n + 1);
        for (int i = 0; i < n; i++) {
            lens[i] = g_array_index(r, run, i).len;
            displs[i] = (MPI_Aint)g_array_index(r, run, i).start * stride;
        }
        MPI_Datatype h = MPI_DATATYPE_NULL, rs = MPI_DATATYPE_NULL;
        rc = sim_dt_create_hindexed(rank, n, lens, displs, t, &h, why);
        if (rc == MPI_SUCCESS) {
            /* Intermediates keep no records: their references would keep
             * each other alive and shift the handles given out. */
            sim_dt_recipe_release((sim_datatype *)sim_dt_get(h));
            rc = sim_dt_create_resized(rank, h, 0, stride * sizes[d], &rs, why);
            if (rc == MPI_SUCCESS)
                sim_dt_recipe_release((sim_datatype *)sim_dt_get(rs));
            sim_dt_free(rank, h, NULL);
        }
        g_free(lens);
        g_free(displs);
        if (own)
            sim_dt_free(rank, t, NULL);
        t = rs;
        own = true;
        stride *= sizes[d];
    }
    if (rc == MPI_SUCCESS)
        *newtype = t;
    return rc;
}

static void runs_free(GArray **runs, int ndims) {
    for (int d = 0; d < ndims; d++)
        if (runs[d])
            g_array_free(runs[d], TRUE);
    g_free(runs);
}

static int order_check(int order, char **why) {
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return sim_dt_fail(why, MPI_ERR_ARG,
                           "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    return MPI_SUCCESS;
}

/* The dimension stored at memory position d (0 = innermost). */
static int dim_at(int ndims, int order, int d) {
    return order == MPI_ORDER_C ? ndims - 1 - d : d;
}

int sim_dt_create_subarray(int rank, int ndims, const int sizes[], const int subsizes[],
                           const int starts[], int order, MPI_Datatype oldtype,
                           MPI_Datatype *newtype, char **why) {
    if (ndims < 1)
        return sim_dt_fail(why, MPI_ERR_ARG, "ndims %d is not positive", ndims);
    if (!sizes || !subsizes || !starts)
        return sim_dt_fail(why, MPI_ERR_ARG, "%s is NULL",
                           !sizes      ? "array_of_sizes"
                           : !subsizes ? "array_of_subsizes"
                                       : "array_of_starts");
    int rc = order_check(order, why);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!sim_dt_lookup(oldtype, rank, "oldtype", why))
        return MPI_ERR_TYPE;
    for (int i = 0; i < ndims; i++) {
        if (sizes[i] < 1)
            return sim_dt_fail(why, MPI_ERR_ARG, "array_of_sizes[%d] = %d is not positive", i,
                               sizes[i]);
        if (subsizes[i] < 0 || subsizes[i] > sizes[i])
            return sim_dt_fail(why, MPI_ERR_ARG,
                               "array_of_subsizes[%d] = %d is outside 0..array_of_sizes[%d] = %d",
                               i, subsizes[i], i, sizes[i]);
        if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
            return sim_dt_fail(why, MPI_ERR_ARG,
                               "array_of_starts[%d] = %d puts the subarray (%d long) outside the "
                               "array's %d elements",
                               i, starts[i], subsizes[i], sizes[i]);
    }
    GArray **runs = g_new0(GArray *, ndims);
    int *mem_sizes = g_new(int, ndims);
    for (int d = 0; d < ndims; d++) {
        int i = dim_at(ndims, order, d);
        runs[d] = g_array_new(FALSE, FALSE, sizeof(run));
        run r = {starts[i], subsizes[i]};
        g_array_append_val(runs[d], r);
        mem_sizes[d] = sizes[i];
    }
    rc = build(rank, ndims, mem_sizes, runs, oldtype, newtype, why);
    runs_free(runs, ndims);
    g_free(mem_sizes);
    if (rc == MPI_SUCCESS) {
        int *ints = g_new(int, 3 * (size_t)ndims + 2);
        ints[0] = ndims;
        for (int i = 0; i < ndims; i++) {
            ints[1 + i] = sizes[i];
            ints[1 + ndims + i] = subsizes[i];
            ints[1 + 2 * ndims + i] = starts[i];
        }
        ints[1 + 3 * ndims] = order;
        sim_dt_set_recipe(*newtype, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1,
                          &oldtype);
        g_free(ints);
    }
    return rc;
}

int sim_dt_create_darray(int rank, int size, int darray_rank, int ndims, const int gsizes[],
                         const int distribs[], const int dargs[], const int psizes[], int order,
                         MPI_Datatype oldtype, MPI_Datatype *newtype, char **why) {
    if (size < 1)
        return sim_dt_fail(why, MPI_ERR_ARG, "size %d is not positive", size);
    if (darray_rank < 0 || darray_rank >= size)
        return sim_dt_fail(why, MPI_ERR_RANK, "rank %d is outside 0..size-1 = %d", darray_rank,
                           size - 1);
    if (ndims < 1)
        return sim_dt_fail(why, MPI_ERR_ARG, "ndims %d is not positive", ndims);
    if (!gsizes || !distribs || !dargs || !psizes)
        return sim_dt_fail(why, MPI_ERR_ARG, "%s is NULL",
                           !gsizes     ? "array_of_gsizes"
                           : !distribs ? "array_of_distribs"
                           : !dargs    ? "array_of_dargs"
                                       : "array_of_psizes");
    int rc = order_check(order, why);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!sim_dt_lookup(oldtype, rank, "oldtype", why))
        return MPI_ERR_TYPE;
    long procs = 1;
    for (int i = 0; i < ndims; i++) {
        if (gsizes[i] < 1)
            return sim_dt_fail(why, MPI_ERR_ARG, "array_of_gsizes[%d] = %d is not positive", i,
                               gsizes[i]);
        if (psizes[i] < 1)
            return sim_dt_fail(why, MPI_ERR_ARG, "array_of_psizes[%d] = %d is not positive", i,
                               psizes[i]);
        if (distribs[i] != MPI_DISTRIBUTE_BLOCK && distribs[i] != MPI_DISTRIBUTE_CYCLIC &&
            distribs[i] != MPI_DISTRIBUTE_NONE)
            return sim_dt_fail(why, MPI_ERR_ARG,
                               "array_of_distribs[%d] = %d is not MPI_DISTRIBUTE_BLOCK, _CYCLIC "
                               "or _NONE",
                               i, distribs[i]);
        if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1)
            return sim_dt_fail(why, MPI_ERR_ARG,
                               "array_of_psizes[%d] = %d, but a dimension distributed "
                               "MPI_DISTRIBUTE_NONE needs 1 process",
                               i, psizes[i]);
        if (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && dargs[i] < 1)
            return sim_dt_fail(why, MPI_ERR_ARG,
                               "array_of_dargs[%d] = %d is neither positive nor "
                               "MPI_DISTRIBUTE_DFLT_DARG",
                               i, dargs[i]);
        if (distribs[i] == MPI_DISTRIBUTE_BLOCK && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG &&
            (long)dargs[i] * psizes[i] < gsizes[i])
            return sim_dt_fail(why, MPI_ERR_ARG,
                               "array_of_dargs[%d] = %d: blocks of %d on %d processes do not "
                               "cover the %d elements",
                               i, dargs[i], dargs[i], psizes[i], gsizes[i]);
        procs *= psizes[i];
    }
    if (procs != size)
        return sim_dt_fail(why, MPI_ERR_ARG,
                           "the process grid array_of_psizes has %ld processes, not size = %d",
                           procs, size);

    /* The process grid is row-major whatever the order (MPI 3.1 section
     * 4.1.4): the last dimension's coordinate varies fastest. */
    int *coords = g_new(int, ndims);
    for (int i = ndims - 1, r = darray_rank; i >= 0; i--) {
        coords[i] = r % psizes[i];
        r /= psizes[i];
    }
    GArray **runs = g_new0(GArray *, ndims);
    int *mem_sizes = g_new(int, ndims);
    for (int d = 0; d < ndims; d++) {
        int i = dim_at(ndims, order, d);
        int g = gsizes[i], p = psizes[i], c = coords[i];
        runs[d] = g_array_new(FALSE, FALSE, sizeof(run));
        mem_sizes[d] = g;
        if (distribs[i] == MPI_DISTRIBUTE_NONE) {
            run r = {0, g};
            g_array_append_val(runs[d], r);
        } else if (distribs[i] == MPI_DISTRIBUTE_BLOCK) {
            int b = dargs[i] == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : dargs[i];
            long start = (long)c * b;
            if (start < g) {
                run r = {(int)start, (int)MIN((long)b, g - start)};
                g_array_append_val(runs[d], r);
            }
        } else {
            int b = dargs[i] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : dargs[i];
            for (long start = (long)c * b; start < g; start += (long)p * b) {
                run r = {(int)start, (int)MIN((long)b, g - start)};
                g_array_append_val(runs[d], r);
            }
        }
    }
    rc = build(rank, ndims, mem_sizes, runs, oldtype, newtype, why);
    runs_free(runs, ndims);
    g_free(mem_sizes);
    g_free(coords);
    if (rc == MPI_SUCCESS) {
        int *ints = g_new(int, 4 * (size_t)ndims + 4);
        ints[0] = size;
        ints[1] = darray_rank;
        ints[2] = ndims;
        for (int i = 0; i < ndims; i++) {
            ints[3 + i] = gsizes[i];
            ints[3 + ndims + i] = distribs[i];
            ints[3 + 2 * ndims + i] = dargs[i];
            ints[3 + 3 * ndims + i] = psizes[i];
        }
        ints[3 + 4 * ndims] = order;
        sim_dt_set_recipe(*newtype, MPI_COMBINER_DARRAY, 4 * ndims + 4, ints, 0, NULL, 1, &oldtype);
        g_free(ints);
    }
    return rc;
}
