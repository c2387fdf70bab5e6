/*
 * mpi_envelope.c - datatype decoding (MPI_Type_get_envelope and
 * MPI_Type_get_contents, MPI 3.1 section 4.1.13, with their MPI 4.0 `_c`
 * forms), size-specific types (MPI_Type_match_size,
 * MPI_Type_create_f90_*, section 17.2.5) and address arithmetic
 * (MPI_Aint_add, MPI_Aint_diff, section 4.1.5).  The records live in the
 * datatype module (typeenvelope.c).
 */
#include <limits.h>
#include <stdint.h>

#include "simulator/datatype.h"
#include "simulator/held.h"
#include "simulator/sim_internal.h"

static int report(const char *fname, int errclass, char *why) {
    char msg[512];
    g_strlcpy(msg, why ? why : "invalid argument", sizeof msg);
    g_free(why);
    return sim_error(MPI_COMM_WORLD, errclass, "%s: %s", fname, msg);
}

static int lookup(const char *fname, MPI_Datatype type, const sim_datatype **out) {
    char *why = NULL;
    *out = sim_dt_lookup(type, sim_self(), "datatype", &why);
    return *out ? MPI_SUCCESS : report(fname, MPI_ERR_TYPE, why);
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner) {
    static const char F[] = "MPI_Type_get_envelope";
    SIM_ENTER(F);
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("datatype=%s", sim_dt_name(datatype));
    const sim_datatype *dt;
    if ((rc = lookup(F, datatype, &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: an output argument is NULL", F));
    sim_dt_envelope(dt, num_integers, num_addresses, num_datatypes, combiner);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Type_get_envelope);

/* The body of both forms of MPI_Type_get_contents. */
static int contents(const char *fname, MPI_Datatype datatype, MPI_Count max_integers,
                    MPI_Count max_addresses, MPI_Count max_datatypes, int ints[], MPI_Aint aints[],
                    MPI_Datatype types[]) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    sim_call_args("datatype=%s max_integers=%lld max_addresses=%lld max_datatypes=%lld",
                  sim_dt_name(datatype), (long long)max_integers, (long long)max_addresses,
                  (long long)max_datatypes);
    const sim_datatype *dt;
    if ((rc = lookup(fname, datatype, &dt)) != MPI_SUCCESS)
        return rc;
    int mi = (int)MIN(MAX(max_integers, -1), INT_MAX);
    int ma = (int)MIN(MAX(max_addresses, -1), INT_MAX);
    int md = (int)MIN(MAX(max_datatypes, -1), INT_MAX);
    bool *fresh = g_new0(bool, md > 0 ? (size_t)md : 1);
    char *why = NULL;
    rc = sim_dt_contents(sim_self(), dt, mi, ints, ma, aints, md, types, fresh, &why);
    if (rc == MPI_SUCCESS) {
        int ni, na, nd, comb;
        sim_dt_envelope(dt, &ni, &na, &nd, &comb);
        /* The new types are the program's to free (MPI 3.1 section 4.1.13). */
        for (int i = 0; i < nd; i++)
            if (fresh[i])
                sim_held_add_here(SIM_HELD_DATATYPE, (uint32_t)types[i]);
    }
    g_free(fresh);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : report(fname, rc, why);
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
    static const char F[] = "MPI_Type_get_contents";
    SIM_ENTER(F);
    SIM_RETURN(contents(F, datatype, max_integers, max_addresses, max_datatypes, array_of_integers,
                        array_of_addresses, array_of_datatypes));
}
SIM_ALIAS(MPI_Type_get_contents);

/* The `_c` forms: ordex's constructors record counts as integers (the
 * `_c` constructors are built on the int ones), so num_large_counts is 0. */
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner) {
    static const char F[] = "MPI_Type_get_envelope_c";
    SIM_ENTER(F);
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("datatype=%s", sim_dt_name(datatype));
    const sim_datatype *dt;
    if ((rc = lookup(F, datatype, &dt)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: an output argument is NULL", F));
    int ni, na, nd;
    sim_dt_envelope(dt, &ni, &na, &nd, combiner);
    *num_integers = ni;
    *num_addresses = na;
    *num_large_counts = 0;
    *num_datatypes = nd;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Type_get_envelope_c);

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes,
                             int array_of_integers[], MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]) {
    static const char F[] = "MPI_Type_get_contents_c";
    SIM_ENTER(F);
    (void)max_large_counts;
    (void)array_of_large_counts;
    SIM_RETURN(contents(F, datatype, max_integers, max_addresses, max_datatypes, array_of_integers,
                        array_of_addresses, array_of_datatypes));
}
SIM_ALIAS(MPI_Type_get_contents_c);

/* ---------------------------------------------------------------------- */
/* Size-specific types                                                     */

static int f90(const char *fname, int combiner, int p, int r, MPI_Datatype *newtype) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (combiner == MPI_COMBINER_F90_INTEGER)
        sim_call_args("r=%d", r);
    else
        sim_call_args("p=%d r=%d", p, r);
    char *why = NULL;
    rc = sim_dt_f90(combiner, p, r, newtype, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : report(fname, rc, why);
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype) {
    static const char F[] = "MPI_Type_create_f90_integer";
    SIM_ENTER(F);
    SIM_RETURN(f90(F, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, newtype));
}
SIM_ALIAS(MPI_Type_create_f90_integer);

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype) {
    static const char F[] = "MPI_Type_create_f90_real";
    SIM_ENTER(F);
    SIM_RETURN(f90(F, MPI_COMBINER_F90_REAL, p, r, newtype));
}
SIM_ALIAS(MPI_Type_create_f90_real);

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype) {
    static const char F[] = "MPI_Type_create_f90_complex";
    SIM_ENTER(F);
    SIM_RETURN(f90(F, MPI_COMBINER_F90_COMPLEX, p, r, newtype));
}
SIM_ALIAS(MPI_Type_create_f90_complex);

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype) {
    static const char F[] = "MPI_Type_match_size";
    SIM_ENTER(F);
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_call_args("typeclass=%d size=%d", typeclass, size);
    char *why = NULL;
    rc = sim_dt_match_size(typeclass, size, datatype, &why);
    SIM_RETURN(rc == MPI_SUCCESS ? MPI_SUCCESS : report(F, rc, why));
}
SIM_ALIAS(MPI_Type_match_size);

/* ---------------------------------------------------------------------- */
/* Address arithmetic                                                      */

/* Addresses are plain byte addresses here, so both are integer arithmetic
 * (wrapping, as address arithmetic on the machine does). */
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
SIM_ALIAS(MPI_Aint_add);

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
SIM_ALIAS(MPI_Aint_diff);
