/*
 * mpi_type.c - the MPI datatype API: constructors, queries, MPI_Pack and
 * MPI_Unpack, MPI_Get_count and MPI_Get_elements.
 *
 * The work and the argument checks live in datatype.c (unit-tested there);
 * these functions add the MPI calling convention: entry/exit bookkeeping,
 * the checks of output pointers, and error reporting with the function's
 * name.  Errors not tied to a communicator go to MPI_COMM_WORLD's handler
 * (MPI 3.1 section 8.3).
 */
#include <limits.h>
#include <string.h>

#include "simulator/attr.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/held.h"
#include "simulator/sim_internal.h"

/* Reports a failure described by the datatype module; takes `why`.  The
 * text is copied before sim_error because a fatal error does not return. */
static int report(MPI_Comm comm, const char *fname, int errclass, char *why) {
    char msg[512];
    g_strlcpy(msg, why ? why : "invalid argument", sizeof msg);
    g_free(why);
    return sim_error(comm, errclass, "%s: %s", fname, msg);
}

/* The calling rank's datatype argument `arg`, or an error reported. */
static int lookup(const char *fname, MPI_Datatype type, const char *arg, const sim_datatype **out) {
    char *why = NULL;
    *out = sim_dt_lookup(type, sim_self(), arg, &why);
    return *out ? MPI_SUCCESS : report(MPI_COMM_WORLD, fname, MPI_ERR_TYPE, why);
}

static int null_arg(const char *fname, const char *arg) {
    return sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: %s is NULL", fname, arg);
}

/* The result of a datatype-module call that may have failed with `why`. */
static int finish(const char *fname, int rc, char *why) {
    return rc == MPI_SUCCESS ? MPI_SUCCESS : report(MPI_COMM_WORLD, fname, rc, why);
}

/* The same for a constructor: the new type is the rank's to free. */
static int made(const char *fname, int rc, char *why, const MPI_Datatype *newtype) {
    if (rc == MPI_SUCCESS)
        sim_held_add_here(SIM_HELD_DATATYPE, (uint32_t)*newtype);
    return finish(fname, rc, why);
}

/* ---------------------------------------------------------------------- */
/* Constructors                                                            */

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_contiguous");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("count=%d oldtype=%s", count, sim_dt_name(oldtype));
    char *why = NULL;
    rc = sim_dt_create_contiguous(sim_self(), count, oldtype, newtype, &why);
    SIM_RETURN(made("MPI_Type_contiguous", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_contiguous);

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_vector");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("count=%d blocklength=%d stride=%d oldtype=%s", count, blocklength, stride,
                  sim_dt_name(oldtype));
    char *why = NULL;
    rc = sim_dt_create_vector(sim_self(), count, blocklength, stride, oldtype, newtype, &why);
    SIM_RETURN(made("MPI_Type_vector", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_vector);

static int hvector(const char *fname, int count, int blocklength, MPI_Aint stride,
                   MPI_Datatype oldtype, MPI_Datatype *newtype) {
    sim_call_args("count=%d blocklength=%d stride=%ld oldtype=%s", count, blocklength, (long)stride,
                  sim_dt_name(oldtype));
    char *why = NULL;
    int rc = sim_dt_create_hvector(sim_self(), count, blocklength, stride, oldtype, newtype, &why);
    return made(fname, rc, why, newtype);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_hvector");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(hvector("MPI_Type_create_hvector", count, blocklength, stride, oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_hvector);

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_hvector");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(hvector("MPI_Type_hvector", count, blocklength, stride, oldtype, newtype));
}
SIM_ALIAS(MPI_Type_hvector);

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_indexed");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("count=%d oldtype=%s", count, sim_dt_name(oldtype));
    char *why = NULL;
    rc = sim_dt_create_indexed(sim_self(), count, array_of_blocklengths, array_of_displacements,
                               oldtype, newtype, &why);
    SIM_RETURN(made("MPI_Type_indexed", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_indexed);

static int hindexed(const char *fname, int count, const int array_of_blocklengths[],
                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                    MPI_Datatype *newtype) {
    sim_call_args("count=%d oldtype=%s", count, sim_dt_name(oldtype));
    char *why = NULL;
    int rc = sim_dt_create_hindexed(sim_self(), count, array_of_blocklengths,
                                    array_of_displacements, oldtype, newtype, &why);
    return made(fname, rc, why, newtype);
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_hindexed");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(hindexed("MPI_Type_create_hindexed", count, array_of_blocklengths,
                        array_of_displacements, oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_hindexed);

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_hindexed");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(hindexed("MPI_Type_hindexed", count, array_of_blocklengths, array_of_displacements,
                        oldtype, newtype));
}
SIM_ALIAS(MPI_Type_hindexed);

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_indexed_block");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("count=%d blocklength=%d oldtype=%s", count, blocklength, sim_dt_name(oldtype));
    char *why = NULL;
    rc = sim_dt_create_indexed_block(sim_self(), count, blocklength, array_of_displacements,
                                     oldtype, newtype, &why);
    SIM_RETURN(made("MPI_Type_create_indexed_block", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_create_indexed_block);

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_hindexed_block");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("count=%d blocklength=%d oldtype=%s", count, blocklength, sim_dt_name(oldtype));
    char *why = NULL;
    rc = sim_dt_create_hindexed_block(sim_self(), count, blocklength, array_of_displacements,
                                      oldtype, newtype, &why);
    SIM_RETURN(made("MPI_Type_create_hindexed_block", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_create_hindexed_block);

static int type_struct(const char *fname, int count, const int array_of_blocklengths[],
                       const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                       MPI_Datatype *newtype) {
    sim_call_args("count=%d", count);
    char *why = NULL;
    int rc = sim_dt_create_struct(sim_self(), count, array_of_blocklengths, array_of_displacements,
                                  array_of_types, newtype, &why);
    return made(fname, rc, why, newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_struct");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(type_struct("MPI_Type_create_struct", count, array_of_blocklengths,
                           array_of_displacements, array_of_types, newtype));
}
SIM_ALIAS(MPI_Type_create_struct);

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_struct");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(type_struct("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements,
                           array_of_types, newtype));
}
SIM_ALIAS(MPI_Type_struct);

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_resized");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("oldtype=%s lb=%ld extent=%ld", sim_dt_name(oldtype), (long)lb, (long)extent);
    char *why = NULL;
    rc = sim_dt_create_resized(sim_self(), oldtype, lb, extent, newtype, &why);
    SIM_RETURN(made("MPI_Type_create_resized", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_create_resized);

static char *ints_text(int n, const int *v) {
    GString *s = g_string_new("(");
    for (int i = 0; v && i < n && i < 8; i++)
        g_string_append_printf(s, i ? ", %d" : "%d", v[i]);
    if (v && n > 8)
        g_string_append(s, ", ...");
    g_string_append_c(s, ')');
    return g_string_free(s, FALSE);
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_subarray");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!newtype)
        SIM_RETURN(null_arg("MPI_Type_create_subarray", "newtype"));
    char *sz = ints_text(ndims, array_of_sizes), *sub = ints_text(ndims, array_of_subsizes),
         *st = ints_text(ndims, array_of_starts);
    sim_call_args("ndims=%d sizes=%s subsizes=%s starts=%s order=%s oldtype=%s", ndims, sz, sub, st,
                  order == MPI_ORDER_FORTRAN ? "MPI_ORDER_FORTRAN" : "MPI_ORDER_C",
                  sim_dt_name(oldtype));
    g_free(sz);
    g_free(sub);
    g_free(st);
    char *why = NULL;
    rc = sim_dt_create_subarray(sim_self(), ndims, array_of_sizes, array_of_subsizes,
                                array_of_starts, order, oldtype, newtype, &why);
    SIM_RETURN(made("MPI_Type_create_subarray", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_create_subarray);

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_darray");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!newtype)
        SIM_RETURN(null_arg("MPI_Type_create_darray", "newtype"));
    char *gs = ints_text(ndims, array_of_gsizes), *ps = ints_text(ndims, array_of_psizes);
    sim_call_args("size=%d rank=%d ndims=%d gsizes=%s psizes=%s oldtype=%s", size, rank, ndims, gs,
                  ps, sim_dt_name(oldtype));
    g_free(gs);
    g_free(ps);
    char *why = NULL;
    rc = sim_dt_create_darray(sim_self(), size, rank, ndims, array_of_gsizes, array_of_distribs,
                              array_of_dargs, array_of_psizes, order, oldtype, newtype, &why);
    SIM_RETURN(made("MPI_Type_create_darray", rc, why, newtype));
}
SIM_ALIAS(MPI_Type_create_darray);

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_dup");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("oldtype=%s", sim_dt_name(oldtype));
    char *why = NULL;
    rc = sim_dt_dup(sim_self(), oldtype, newtype, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(made("MPI_Type_dup", rc, why, newtype));
    /* The attributes follow their copy callbacks; a failing one fails the
     * call and takes the copy back. */
    rc = sim_attr_copy_all(sim_self(), SIM_ATTR_TYPE, oldtype, *newtype, &why);
    if (rc != MPI_SUCCESS) {
        char *ignored = NULL;
        sim_dt_free(sim_self(), *newtype, &ignored);
        g_free(ignored);
        *newtype = MPI_DATATYPE_NULL;
        SIM_RETURN(report(MPI_COMM_WORLD, "MPI_Type_dup", rc, why));
    }
    SIM_RETURN(made("MPI_Type_dup", MPI_SUCCESS, NULL, newtype));
}
SIM_ALIAS(MPI_Type_dup);

/* ---------------------------------------------------------------------- */
/* Life cycle and names                                                    */

int PMPI_Type_commit(MPI_Datatype *datatype) {
    SIM_ENTER("MPI_Type_commit");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!datatype)
        SIM_RETURN(null_arg("MPI_Type_commit", "datatype"));
    sim_call_args("datatype=%s", sim_dt_name(*datatype));
    char *why = NULL;
    rc = sim_dt_commit(sim_self(), *datatype, &why);
    SIM_RETURN(finish("MPI_Type_commit", rc, why));
}
SIM_ALIAS(MPI_Type_commit);

int PMPI_Type_free(MPI_Datatype *datatype) {
    SIM_ENTER("MPI_Type_free");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!datatype)
        SIM_RETURN(null_arg("MPI_Type_free", "datatype"));
    sim_call_args("datatype=%s", sim_dt_name(*datatype));
    char *why = NULL;
    /* The attributes go first, once the handle is known to be freeable: a
     * delete callback that fails leaves the type as it was. */
    const sim_datatype *dt = sim_dt_lookup(*datatype, sim_self(), "datatype", &why);
    g_free(why);
    why = NULL;
    if (dt && !sim_dt_is_predefined(*datatype) &&
        (rc = sim_attr_delete_all(sim_self(), SIM_ATTR_TYPE, *datatype, &why)) != MPI_SUCCESS)
        SIM_RETURN(report(MPI_COMM_WORLD, "MPI_Type_free", rc, why));
    rc = sim_dt_free(sim_self(), *datatype, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(MPI_COMM_WORLD, "MPI_Type_free", rc, why));
    sim_held_drop_here(SIM_HELD_DATATYPE, (uint32_t)*datatype);
    *datatype = MPI_DATATYPE_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Type_free);

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name) {
    SIM_ENTER("MPI_Type_set_name");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    char *why = NULL;
    rc = sim_dt_set_name(sim_self(), datatype, type_name, &why);
    SIM_RETURN(finish("MPI_Type_set_name", rc, why));
}
SIM_ALIAS(MPI_Type_set_name);

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen) {
    SIM_ENTER("MPI_Type_get_name");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    const sim_datatype *dt;
    if ((rc = lookup("MPI_Type_get_name", datatype, "datatype", &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!type_name)
        SIM_RETURN(null_arg("MPI_Type_get_name", "type_name"));
    if (!resultlen)
        SIM_RETURN(null_arg("MPI_Type_get_name", "resultlen"));
    /* The caller's buffer holds MPI_MAX_OBJECT_NAME chars; names are kept
     * shorter than that. */
    size_t n = g_strlcpy(type_name, sim_dt_get_name(sim_self(), datatype), MPI_MAX_OBJECT_NAME);
    *resultlen = (int)MIN(n, (size_t)MPI_MAX_OBJECT_NAME - 1);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Type_get_name);

/* ---------------------------------------------------------------------- */
/* Size and bounds                                                         */

int PMPI_Type_size(MPI_Datatype datatype, int *size) {
    SIM_ENTER("MPI_Type_size");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    const sim_datatype *dt;
    if ((rc = lookup("MPI_Type_size", datatype, "datatype", &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!size)
        SIM_RETURN(null_arg("MPI_Type_size", "size"));
    size_t s = sim_dt_size(dt);
    *size = s > INT_MAX ? MPI_UNDEFINED : (int)s;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Type_size);

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size) {
    SIM_ENTER("MPI_Type_size_x");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    const sim_datatype *dt;
    if ((rc = lookup("MPI_Type_size_x", datatype, "datatype", &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!size)
        SIM_RETURN(null_arg("MPI_Type_size_x", "size"));
    *size = (MPI_Count)sim_dt_size(dt);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Type_size_x);

/* The shared body of the extent queries: lb and extent, or the true ones. */
static int bounds(const char *fname, MPI_Datatype datatype, bool true_bounds, MPI_Aint *lb,
                  MPI_Aint *extent) {
    const sim_datatype *dt;
    int rc = lookup(fname, datatype, "datatype", &dt);
    if (rc != MPI_SUCCESS)
        return rc;
    *lb = true_bounds ? sim_dt_true_lb(dt) : sim_dt_lb(dt);
    *extent = true_bounds ? sim_dt_true_extent(dt) : sim_dt_extent(dt);
    return MPI_SUCCESS;
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent) {
    SIM_ENTER("MPI_Type_get_extent");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!lb || !extent)
        SIM_RETURN(null_arg("MPI_Type_get_extent", lb ? "extent" : "lb"));
    SIM_RETURN(bounds("MPI_Type_get_extent", datatype, false, lb, extent));
}
SIM_ALIAS(MPI_Type_get_extent);

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent) {
    SIM_ENTER("MPI_Type_get_extent_x");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!lb || !extent)
        SIM_RETURN(null_arg("MPI_Type_get_extent_x", lb ? "extent" : "lb"));
    MPI_Aint l, e;
    rc = bounds("MPI_Type_get_extent_x", datatype, false, &l, &e);
    if (rc == MPI_SUCCESS) {
        *lb = l;
        *extent = e;
    }
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Type_get_extent_x);

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent) {
    SIM_ENTER("MPI_Type_get_true_extent");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!true_lb || !true_extent)
        SIM_RETURN(null_arg("MPI_Type_get_true_extent", true_lb ? "true_extent" : "true_lb"));
    SIM_RETURN(bounds("MPI_Type_get_true_extent", datatype, true, true_lb, true_extent));
}
SIM_ALIAS(MPI_Type_get_true_extent);

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent) {
    SIM_ENTER("MPI_Type_get_true_extent_x");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!true_lb || !true_extent)
        SIM_RETURN(null_arg("MPI_Type_get_true_extent_x", true_lb ? "true_extent" : "true_lb"));
    MPI_Aint l, e;
    rc = bounds("MPI_Type_get_true_extent_x", datatype, true, &l, &e);
    if (rc == MPI_SUCCESS) {
        *true_lb = l;
        *true_extent = e;
    }
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Type_get_true_extent_x);

/* MPI-1 queries (removed in MPI 3.0, still declared by MPICH). */

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent) {
    SIM_ENTER("MPI_Type_extent");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!extent)
        SIM_RETURN(null_arg("MPI_Type_extent", "extent"));
    MPI_Aint lb;
    SIM_RETURN(bounds("MPI_Type_extent", datatype, false, &lb, extent));
}
SIM_ALIAS(MPI_Type_extent);

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement) {
    SIM_ENTER("MPI_Type_lb");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!displacement)
        SIM_RETURN(null_arg("MPI_Type_lb", "displacement"));
    MPI_Aint extent;
    SIM_RETURN(bounds("MPI_Type_lb", datatype, false, displacement, &extent));
}
SIM_ALIAS(MPI_Type_lb);

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement) {
    SIM_ENTER("MPI_Type_ub");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!displacement)
        SIM_RETURN(null_arg("MPI_Type_ub", "displacement"));
    MPI_Aint lb, extent;
    rc = bounds("MPI_Type_ub", datatype, false, &lb, &extent);
    if (rc == MPI_SUCCESS)
        *displacement = lb + extent;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Type_ub);

/* ---------------------------------------------------------------------- */
/* Addresses                                                               */

int PMPI_Get_address(const void *location, MPI_Aint *address) {
    SIM_ENTER("MPI_Get_address");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!address)
        SIM_RETURN(null_arg("MPI_Get_address", "address"));
    /* Absolute addresses, so that they work as displacements from
     * MPI_BOTTOM (which is NULL in MPICH). */
    *address = (MPI_Aint)(uintptr_t)location;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Get_address);

int PMPI_Address(void *location, MPI_Aint *address) {
    SIM_ENTER("MPI_Address");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!address)
        SIM_RETURN(null_arg("MPI_Address", "address"));
    *address = (MPI_Aint)(uintptr_t)location;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Address);

/* ---------------------------------------------------------------------- */
/* Pack and unpack                                                         */
/*
 * The packed format is the raw bytes in typemap order with no header, the
 * same as messages carry; so MPI_Pack_size is exactly incount * size and a
 * buffer packed here can be sent as MPI_PACKED and received as the types.
 */

/* A committed datatype argument for communication-like use. */
static int usable(MPI_Comm comm, const char *fname, MPI_Datatype type, const sim_datatype **out) {
    char *why = NULL;
    *out = sim_dt_lookup(type, sim_self(), "datatype", &why);
    if (!*out)
        return report(comm, fname, MPI_ERR_TYPE, why);
    if (!sim_dt_committed(*out))
        return sim_error(comm, MPI_ERR_TYPE,
                         "%s: %s is not committed; call MPI_Type_commit on it first", fname,
                         sim_dt_name(type));
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm) {
    SIM_ENTER("MPI_Pack");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("incount=%d datatype=%s outsize=%d", incount, sim_dt_name(datatype), outsize);
    sim_comm *c;
    const sim_datatype *dt;
    if ((rc = sim_comm_check(comm, &c)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (incount < 0)
        SIM_RETURN(sim_error(comm, MPI_ERR_COUNT, "MPI_Pack: incount %d is negative", incount));
    if (outsize < 0)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Pack: outsize %d is negative", outsize));
    if (!position)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Pack: position is NULL"));
    if (*position < 0 || *position > outsize)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Pack: *position %d is outside 0..outsize %d",
                             *position, outsize));
    if ((rc = usable(comm, "MPI_Pack", datatype, &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    size_t need = sim_dt_size(dt) * (size_t)incount;
    if (need > (size_t)(outsize - *position))
        SIM_RETURN(sim_error(comm, MPI_ERR_TRUNCATE,
                             "MPI_Pack: incount %d of %s needs %zu bytes but only %d of outsize "
                             "%d are left after position %d",
                             incount, sim_dt_name(datatype), need, outsize - *position, outsize,
                             *position));
    if (need > 0) {
        if (!outbuf)
            SIM_RETURN(null_arg("MPI_Pack", "outbuf"));
        sim_dt_pack(dt, inbuf, incount, (char *)outbuf + *position);
    }
    *position += (int)need;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Pack);

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm) {
    SIM_ENTER("MPI_Unpack");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("insize=%d outcount=%d datatype=%s", insize, outcount, sim_dt_name(datatype));
    sim_comm *c;
    const sim_datatype *dt;
    if ((rc = sim_comm_check(comm, &c)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (outcount < 0)
        SIM_RETURN(sim_error(comm, MPI_ERR_COUNT, "MPI_Unpack: outcount %d is negative", outcount));
    if (insize < 0)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Unpack: insize %d is negative", insize));
    if (!position)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Unpack: position is NULL"));
    if (*position < 0 || *position > insize)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Unpack: *position %d is outside 0..insize %d",
                             *position, insize));
    if ((rc = usable(comm, "MPI_Unpack", datatype, &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    /* Unlike a receive, outcount is exactly what is unpacked (MPI 3.1
     * section 4.2), so reading past insize is an error, not a short read. */
    size_t need = sim_dt_size(dt) * (size_t)outcount;
    if (need > (size_t)(insize - *position))
        SIM_RETURN(sim_error(comm, MPI_ERR_TRUNCATE,
                             "MPI_Unpack: outcount %d of %s needs %zu bytes but only %d of "
                             "insize %d are left after position %d",
                             outcount, sim_dt_name(datatype), need, insize - *position, insize,
                             *position));
    if (need > 0) {
        if (!inbuf)
            SIM_RETURN(null_arg("MPI_Unpack", "inbuf"));
        sim_dt_unpack(dt, (const char *)inbuf + *position, need, outbuf, outcount);
    }
    *position += (int)need;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Unpack);

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size) {
    SIM_ENTER("MPI_Pack_size");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_comm *c;
    const sim_datatype *dt;
    if ((rc = sim_comm_check(comm, &c)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (incount < 0)
        SIM_RETURN(
            sim_error(comm, MPI_ERR_COUNT, "MPI_Pack_size: incount %d is negative", incount));
    if (!size)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Pack_size: size is NULL"));
    if ((rc = usable(comm, "MPI_Pack_size", datatype, &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    size_t need = sim_dt_size(dt) * (size_t)incount;
    if (need > INT_MAX)
        SIM_RETURN(sim_error(comm, MPI_ERR_COUNT,
                             "MPI_Pack_size: incount %d of %s takes %zu bytes, more than an "
                             "int can count; pack fewer elements per call",
                             incount, sim_dt_name(datatype), need));
    *size = (int)need;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Pack_size);

/* ---------------------------------------------------------------------- */
/* Counts of a received message                                            */

/* The received byte count of a status argument, or an error reported. */
static int status_bytes(const char *fname, const MPI_Status *status, MPI_Datatype datatype,
                        const void *count, const sim_datatype **dt, size_t *bytes) {
    if (!status || status == MPI_STATUS_IGNORE)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: status is %s", fname,
                         status ? "MPI_STATUS_IGNORE" : "NULL");
    if (!count)
        return null_arg(fname, "count");
    int rc = lookup(fname, datatype, "datatype", dt);
    if (rc != MPI_SUCCESS)
        return rc;
    *bytes = sim_status_bytes(status);
    return MPI_SUCCESS;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count) {
    SIM_ENTER("MPI_Get_count");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    const sim_datatype *dt = NULL;
    size_t bytes = 0;
    if ((rc = status_bytes("MPI_Get_count", status, datatype, count, &dt, &bytes)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    *count = sim_dt_count_of(dt, bytes);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Get_count);

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count) {
    SIM_ENTER("MPI_Get_elements");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    const sim_datatype *dt = NULL;
    size_t bytes = 0;
    if ((rc = status_bytes("MPI_Get_elements", status, datatype, count, &dt, &bytes)) !=
        MPI_SUCCESS)
        SIM_RETURN(rc);
    *count = sim_dt_elements_of(dt, bytes);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Get_elements);

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) {
    SIM_ENTER("MPI_Get_elements_x");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    const sim_datatype *dt = NULL;
    size_t bytes = 0;
    if ((rc = status_bytes("MPI_Get_elements_x", status, datatype, count, &dt, &bytes)) !=
        MPI_SUCCESS)
        SIM_RETURN(rc);
    *count = sim_dt_elements_of_x(dt, bytes);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Get_elements_x);

/* MPI_Status_set_elements(_x) (MPI 3.1 section 12.3, for generalized
 * requests): the byte count that makes MPI_Get_elements give count. */
static int set_elements(const char *fname, MPI_Status *status, MPI_Datatype datatype,
                        MPI_Count count) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!status || status == MPI_STATUS_IGNORE)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: status is %s", fname,
                         status ? "MPI_STATUS_IGNORE" : "NULL");
    if (count < 0)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, "%s: count %lld is negative", fname,
                         (long long)count);
    const sim_datatype *dt;
    if ((rc = lookup(fname, datatype, "datatype", &dt)) != MPI_SUCCESS)
        return rc;
    if (count > 0 && sim_dt_size(dt) == 0)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                         "%s: datatype %s has no basic elements, so %lld of them cannot be set",
                         fname, sim_dt_name(datatype), (long long)count);
    sim_status_set_bytes(status, sim_dt_bytes_of_elements(dt, count));
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count) {
    SIM_ENTER("MPI_Status_set_elements");
    SIM_RETURN(set_elements("MPI_Status_set_elements", status, datatype, count));
}
SIM_ALIAS(MPI_Status_set_elements);

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count) {
    SIM_ENTER("MPI_Status_set_elements_x");
    SIM_RETURN(set_elements("MPI_Status_set_elements_x", status, datatype, count));
}
SIM_ALIAS(MPI_Status_set_elements_x);

/* ---------------------------------------------------------------------- */
/* Portable packing (MPI 3.1 section 4.3)                                  */

static int datarep_check(const char *fname, const char *datarep) {
    if (!datarep)
        return null_arg(fname, "datarep");
    if (strcmp(datarep, "external32") != 0)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_DATAREP,
                         "%s: datarep \"%s\" is not \"external32\", the only representation MPI "
                         "defines for these calls",
                         fname, datarep);
    return MPI_SUCCESS;
}

/* The datatype and count of a portable packing call, and its external
 * size. */
static int external_args(const char *fname, const char *datarep, MPI_Datatype datatype,
                         MPI_Count count, bool need_commit, const sim_datatype **dt,
                         size_t *bytes) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS || (rc = datarep_check(fname, datarep)) != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, "%s: count %lld is negative", fname,
                         (long long)count);
    if ((rc = need_commit ? usable(MPI_COMM_WORLD, fname, datatype, dt)
                          : lookup(fname, datatype, "datatype", dt)) != MPI_SUCCESS)
        return rc;
    char *why = NULL;
    rc = sim_dt_external32_size(*dt, (size_t)count, bytes, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : report(MPI_COMM_WORLD, fname, rc, why);
}

int PMPI_Pack_external_size(const char *datarep, int incount, MPI_Datatype datatype,
                            MPI_Aint *size) {
    SIM_ENTER("MPI_Pack_external_size");
    const sim_datatype *dt;
    size_t bytes;
    int rc =
        external_args("MPI_Pack_external_size", datarep, datatype, incount, false, &dt, &bytes);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!size)
        SIM_RETURN(null_arg("MPI_Pack_external_size", "size"));
    *size = (MPI_Aint)bytes;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Pack_external_size);

int PMPI_Pack_external(const char *datarep, const void *inbuf, int incount, MPI_Datatype datatype,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position) {
    SIM_ENTER("MPI_Pack_external");
    sim_call_args("incount=%d datatype=%s outsize=%ld", incount, sim_dt_name(datatype),
                  (long)outsize);
    const sim_datatype *dt;
    size_t need;
    int rc = external_args("MPI_Pack_external", datarep, datatype, incount, true, &dt, &need);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!position)
        SIM_RETURN(null_arg("MPI_Pack_external", "position"));
    if (outsize < 0 || *position < 0 || *position > outsize)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "MPI_Pack_external: *position %ld is outside 0..outsize %ld",
                             (long)*position, (long)outsize));
    if (need > (size_t)(outsize - *position))
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_TRUNCATE,
                             "MPI_Pack_external: incount %d of %s needs %zu bytes in external32 "
                             "but only %ld of outsize %ld are left after position %ld",
                             incount, sim_dt_name(datatype), need, (long)(outsize - *position),
                             (long)outsize, (long)*position));
    if (need > 0) {
        if (!outbuf)
            SIM_RETURN(null_arg("MPI_Pack_external", "outbuf"));
        char *why = NULL;
        rc = sim_dt_pack_external32(dt, inbuf, incount, (char *)outbuf + *position, &why);
        if (rc != MPI_SUCCESS)
            SIM_RETURN(report(MPI_COMM_WORLD, "MPI_Pack_external", rc, why));
    }
    *position += (MPI_Aint)need;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Pack_external);

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype) {
    SIM_ENTER("MPI_Unpack_external");
    sim_call_args("insize=%ld outcount=%d datatype=%s", (long)insize, outcount,
                  sim_dt_name(datatype));
    const sim_datatype *dt;
    size_t need;
    int rc = external_args("MPI_Unpack_external", datarep, datatype, outcount, true, &dt, &need);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!position)
        SIM_RETURN(null_arg("MPI_Unpack_external", "position"));
    if (insize < 0 || *position < 0 || *position > insize)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "MPI_Unpack_external: *position %ld is outside 0..insize %ld",
                             (long)*position, (long)insize));
    if (need > (size_t)(insize - *position))
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_TRUNCATE,
                             "MPI_Unpack_external: outcount %d of %s needs %zu bytes in "
                             "external32 but only %ld of insize %ld are left after position %ld",
                             outcount, sim_dt_name(datatype), need, (long)(insize - *position),
                             (long)insize, (long)*position));
    if (need > 0) {
        if (!inbuf)
            SIM_RETURN(null_arg("MPI_Unpack_external", "inbuf"));
        sim_dt_unpack_external32(dt, (const char *)inbuf + *position, outbuf, outcount);
    }
    *position += (MPI_Aint)need;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Unpack_external);
