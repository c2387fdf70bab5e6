/*
 * mpi_interop.c - language interoperability (MPI 3.1 section 17.2): the
 * handle conversions that MPICH's header does not already define as macros
 * (MPI_File_c2f/f2c; MPI_Info_c2f/f2c are macros there, defined here as
 * functions too for programs that take their address or #undef them),
 * status conversions between C, Fortran (an array of MPI_STATUS_SIZE
 * integers) and Fortran 2008, and MPI_DUP_FN, the MPI-1 name of the
 * predefined copy callback.
 *
 * A Fortran handle is the C handle's 32 bits: ordex's handles, files
 * included (simulator/file.h), are 32-bit SIM_HANDLE values, so c2f then
 * f2c gives the same handle back and the null handles map to each other.
 * The Fortran status is MPICH's: the C status's five integers in order,
 * with MPI_SOURCE, MPI_TAG and MPI_ERROR at MPI_F_SOURCE, MPI_F_TAG and
 * MPI_F_ERROR.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "simulator/sim_internal.h"

#undef MPI_Info_c2f
#undef PMPI_Info_c2f
#undef PMPI_Info_f2c
#undef MPI_Info_f2c
#undef MPI_DUP_FN

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "MPI_Status is MPI_F_STATUS_SIZE integers");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
               "the Fortran status indices match the C status");
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "MPI_F08_status is MPI_Status");

MPI_Fint PMPI_File_c2f(MPI_File file) {
    return (MPI_Fint)(uint32_t)(uintptr_t)file;
}
SIM_ALIAS(MPI_File_c2f);

MPI_File PMPI_File_f2c(MPI_Fint file) {
    return (MPI_File)(uintptr_t)(uint32_t)file;
}
SIM_ALIAS(MPI_File_f2c);

MPI_Fint PMPI_Info_c2f(MPI_Info info);
MPI_Fint PMPI_Info_c2f(MPI_Info info) {
    return (MPI_Fint)info;
}
MPI_Fint MPI_Info_c2f(MPI_Info info) __attribute__((alias("PMPI_Info_c2f")));

MPI_Info PMPI_Info_f2c(MPI_Fint info);
MPI_Info PMPI_Info_f2c(MPI_Fint info) {
    return (MPI_Info)info;
}
MPI_Info MPI_Info_f2c(MPI_Fint info) __attribute__((alias("PMPI_Info_f2c")));

/* Copies a status between its forms; src and dst are checked against the
 * "ignore" markers first, which the standard makes erroneous here. */
static int copy_status(const char *fname, const void *src, const void *dst, bool src_is_c,
                       bool dst_is_c) {
    const void *ignore_src = src_is_c ? (const void *)MPI_STATUS_IGNORE : NULL;
    const void *ignore_dst = dst_is_c ? (const void *)MPI_STATUS_IGNORE : NULL;
    if (!src || src == ignore_src || src == (const void *)MPI_STATUSES_IGNORE ||
        src == (const void *)MPI_F_STATUS_IGNORE || src == (const void *)MPI_F08_STATUS_IGNORE)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_ARG,
                         "%s: the status to convert is NULL or an ignore marker", fname);
    if (!dst || dst == ignore_dst || dst == (const void *)MPI_STATUSES_IGNORE ||
        dst == (const void *)MPI_F08_STATUS_IGNORE)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_ARG,
                         "%s: the status to fill in is NULL or an ignore marker", fname);
    memmove((void *)dst, src, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status) {
    SIM_ENTER("MPI_Status_c2f");
    SIM_RETURN(copy_status("MPI_Status_c2f", c_status, f_status, true, false));
}
SIM_ALIAS(MPI_Status_c2f);

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status) {
    SIM_ENTER("MPI_Status_f2c");
    SIM_RETURN(copy_status("MPI_Status_f2c", f_status, c_status, false, true));
}
SIM_ALIAS(MPI_Status_f2c);

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status) {
    SIM_ENTER("MPI_Status_c2f08");
    SIM_RETURN(copy_status("MPI_Status_c2f08", c_status, f08_status, true, false));
}
SIM_ALIAS(MPI_Status_c2f08);

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status) {
    SIM_ENTER("MPI_Status_f082c");
    SIM_RETURN(copy_status("MPI_Status_f082c", f08_status, c_status, false, true));
}
SIM_ALIAS(MPI_Status_f082c);

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status) {
    SIM_ENTER("MPI_Status_f2f08");
    SIM_RETURN(copy_status("MPI_Status_f2f08", f_status, f08_status, false, false));
}
SIM_ALIAS(MPI_Status_f2f08);

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status) {
    SIM_ENTER("MPI_Status_f082f");
    SIM_RETURN(copy_status("MPI_Status_f082f", f08_status, f_status, false, false));
}
SIM_ALIAS(MPI_Status_f082f);

/* MPI_DUP_FN: mpi.h maps the name to MPIR_Dup_fn (mpi_env.c), whose work
 * this repeats for programs that reach the symbol itself. */
int PMPI_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                void *attribute_val_out, int *flag);
int PMPI_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                void *attribute_val_out, int *flag) {
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}
SIM_ALIAS(MPI_DUP_FN);
