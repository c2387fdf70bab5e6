/*
 * mpi_errhandler.c - the MPI API of error handling (MPI 3.1 sections
 * 8.3-8.5): user error handlers of communicators, windows and files,
 * calling them, error classes and codes the program adds, and the strings
 * of every code.  The handlers and codes are errhandler.c's; sim_error
 * (core.c) calls a user handler when an MPI call fails under it.
 *
 * The error handlers of files (MPI_File_set_errhandler ...) are
 * mpi_file.c's, with the rest of MPI-IO.
 */
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/comm.h"
#include "simulator/errhandler.h"
#include "simulator/rma.h"
#include "simulator/sim_internal.h"

/* Returns from the MPI function when expr reports an error. */
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int sim_try_rc_ = (expr);                                                                  \
        if (sim_try_rc_ != MPI_SUCCESS)                                                            \
            SIM_RETURN(sim_try_rc_);                                                               \
    } while (0)

/* Reports an error described by errhandler.c; why is consumed. */
static int report(MPI_Comm comm, const char *fn, int errclass, char *why) {
    char buf[512];
    g_strlcpy(buf, why ? why : "failed", sizeof buf);
    g_free(why);
    return sim_error(comm, errclass, "%s: %s", fn, buf);
}

/* ---------------------------------------------------------------------- */
/* Creating and freeing handlers                                           */

static int create(const char *fn, sim_errh_kind kind, void *function, MPI_Errhandler *errhandler) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!function)
        return sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: the handler function is NULL", fn);
    if (!errhandler)
        return sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: errhandler is NULL", fn);
    *errhandler = sim_errh_create(sim_self(), kind, (sim_errh_fn)function);
    sim_call_args("errhandler=0x%08x", (unsigned)*errhandler);
    return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_Comm_create_errhandler");
    SIM_RETURN(create("MPI_Comm_create_errhandler", SIM_ERRH_COMM, (void *)comm_errhandler_fn,
                      errhandler));
}
SIM_ALIAS(MPI_Comm_create_errhandler);

/* The MPI-1 name (deprecated). */
int PMPI_Errhandler_create(MPI_Comm_errhandler_function *comm_errhandler_fn,
                           MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_Errhandler_create");
    SIM_RETURN(
        create("MPI_Errhandler_create", SIM_ERRH_COMM, (void *)comm_errhandler_fn, errhandler));
}
SIM_ALIAS(MPI_Errhandler_create);

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_Win_create_errhandler");
    SIM_RETURN(
        create("MPI_Win_create_errhandler", SIM_ERRH_WIN, (void *)win_errhandler_fn, errhandler));
}
SIM_ALIAS(MPI_Win_create_errhandler);

int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_File_create_errhandler");
    SIM_RETURN(create("MPI_File_create_errhandler", SIM_ERRH_FILE, (void *)file_errhandler_fn,
                      errhandler));
}
SIM_ALIAS(MPI_File_create_errhandler);

int PMPI_Errhandler_free(MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_Errhandler_free");
    TRY(sim_check_initialized());
    if (!errhandler)
        SIM_RETURN(
            sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Errhandler_free: errhandler is NULL"));
    sim_call_args("errhandler=0x%08x", (unsigned)*errhandler);
    char *why = NULL;
    int rc = sim_errh_check_any(sim_self(), *errhandler, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(MPI_COMM_NULL, "MPI_Errhandler_free", rc, why));
    /* The predefined handlers are never deallocated; freeing a handle to
     * one (as MPI_Comm_get_errhandler returns them) only clears it. */
    sim_errh_unref(sim_self(), *errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Errhandler_free);

/* ---------------------------------------------------------------------- */
/* Calling handlers                                                        */

/* "MPI_ERR_TAG (invalid tag argument)", "added code 0x40000002 (\"text\")"
 * or "error code 12345": static storage. */
static const char *code_text(int code);

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
    SIM_ENTER("MPI_Comm_call_errhandler");
    TRY(sim_check_initialized());
    sim_comm *c;
    TRY(sim_comm_check(comm, &c));
    sim_call_args("comm=%s errorcode=%d", sim_comm_describe(c), errorcode);
    /* As if a call on comm failed with errorcode: sim_error returns unless
     * the handler is fatal. */
    sim_error(comm, errorcode,
              "MPI_Comm_call_errhandler: the program raised %s on %s, whose error "
              "handler is fatal",
              code_text(errorcode), sim_comm_describe(c));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_call_errhandler);

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
    SIM_ENTER("MPI_Win_call_errhandler");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_call_errhandler", &w, &me));
    sim_call_args("win=0x%08x errorcode=%d", (unsigned)win, errorcode);
    sim_win_error(w, errorcode,
                  "MPI_Win_call_errhandler: the program raised %s on window 0x%08x, whose error "
                  "handler is fatal",
                  code_text(errorcode), (unsigned)win);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_call_errhandler);

/* ---------------------------------------------------------------------- */
/* Error classes, codes and strings                                        */

int PMPI_Add_error_class(int *errorclass) {
    SIM_ENTER("MPI_Add_error_class");
    TRY(sim_check_initialized());
    if (!errorclass)
        SIM_RETURN(
            sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_class: errorclass is NULL"));
    *errorclass = sim_errcode_add_class(sim_self());
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Add_error_class);

int PMPI_Add_error_code(int errorclass, int *errorcode) {
    SIM_ENTER("MPI_Add_error_code");
    TRY(sim_check_initialized());
    if (!errorcode)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_code: errorcode is NULL"));
    char *why = NULL;
    int rc = sim_errcode_add_code(sim_self(), errorclass, errorcode, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(MPI_COMM_NULL, "MPI_Add_error_code", rc, why));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Add_error_code);

int PMPI_Add_error_string(int errorcode, const char *string) {
    SIM_ENTER("MPI_Add_error_string");
    TRY(sim_check_initialized());
    if (!string)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string: string is NULL"));
    char *why = NULL;
    int rc = sim_errcode_set_string(sim_self(), errorcode, string, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(MPI_COMM_NULL, "MPI_Add_error_string", rc, why));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Add_error_string);

static const struct {
    int code;
    const char *name, *text;
} g_errors[] = {
    {MPI_SUCCESS, "MPI_SUCCESS", "No MPI error"},
    {MPI_ERR_BUFFER, "MPI_ERR_BUFFER", "Invalid buffer pointer"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT", "Invalid count argument"},
    {MPI_ERR_TYPE, "MPI_ERR_TYPE", "Invalid datatype argument"},
    {MPI_ERR_TAG, "MPI_ERR_TAG", "Invalid tag argument"},
    {MPI_ERR_COMM, "MPI_ERR_COMM", "Invalid communicator"},
    {MPI_ERR_RANK, "MPI_ERR_RANK", "Invalid rank"},
    {MPI_ERR_REQUEST, "MPI_ERR_REQUEST", "Invalid request (handle)"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT", "Invalid root"},
    {MPI_ERR_GROUP, "MPI_ERR_GROUP", "Invalid group"},
    {MPI_ERR_OP, "MPI_ERR_OP", "Invalid operation"},
    {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "Invalid topology"},
    {MPI_ERR_DIMS, "MPI_ERR_DIMS", "Invalid dimension argument"},
    {MPI_ERR_ARG, "MPI_ERR_ARG", "Invalid argument of some other kind"},
    {MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "Unknown error"},
    {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "Message truncated on receive"},
    {MPI_ERR_OTHER, "MPI_ERR_OTHER", "Known error not in this list"},
    {MPI_ERR_INTERN, "MPI_ERR_INTERN", "Internal MPI (implementation) error"},
    {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS", "Error code is in status"},
    {MPI_ERR_PENDING, "MPI_ERR_PENDING", "Pending request"},
    {MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL", "Invalid keyval"},
    {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM", "Out of memory"},
    {MPI_ERR_INFO, "MPI_ERR_INFO", "Invalid info object"},
    {MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "Info key too long"},
    {MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE", "Info value too long"},
    {MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY", "Info key not defined"},
    {MPI_ERR_WIN, "MPI_ERR_WIN", "Invalid window"},
    {MPI_ERR_FILE, "MPI_ERR_FILE", "Invalid file handle"},
    {MPI_ERR_CONVERSION, "MPI_ERR_CONVERSION", "Data conversion failed"},
    {MPI_ERR_UNSUPPORTED_DATAREP, "MPI_ERR_UNSUPPORTED_DATAREP", "Unsupported data representation"},
    {MPI_ERR_AMODE, "MPI_ERR_AMODE", "Invalid amode value in MPI_File_open"},
    {MPI_ERR_ACCESS, "MPI_ERR_ACCESS", "Permission denied"},
    {MPI_ERR_BAD_FILE, "MPI_ERR_BAD_FILE", "Invalid file name"},
    {MPI_ERR_DUP_DATAREP, "MPI_ERR_DUP_DATAREP", "Data representation already defined"},
    {MPI_ERR_FILE_EXISTS, "MPI_ERR_FILE_EXISTS", "File exists"},
    {MPI_ERR_FILE_IN_USE, "MPI_ERR_FILE_IN_USE", "File in use"},
    {MPI_ERR_IO, "MPI_ERR_IO", "Other I/O error"},
    {MPI_ERR_NO_SPACE, "MPI_ERR_NO_SPACE", "Not enough space"},
    {MPI_ERR_NO_SUCH_FILE, "MPI_ERR_NO_SUCH_FILE", "File does not exist"},
    {MPI_ERR_NOT_SAME, "MPI_ERR_NOT_SAME", "Collective argument differs between processes"},
    {MPI_ERR_QUOTA, "MPI_ERR_QUOTA", "Quota exceeded"},
    {MPI_ERR_READ_ONLY, "MPI_ERR_READ_ONLY", "Read-only file or file system"},
    {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "Unsupported operation"},
};

static const char *code_text(int code) {
    static char buf[MPI_MAX_ERROR_STRING + 64];
    for (size_t i = 0; i < G_N_ELEMENTS(g_errors); i++)
        if (g_errors[i].code == code) {
            g_snprintf(buf, sizeof buf, "%s (%s)", g_errors[i].name, g_errors[i].text);
            return buf;
        }
    const char *s = sim_errcode_string(sim_self(), code);
    if (s)
        g_snprintf(buf, sizeof buf, "error code 0x%08x (\"%s\")", (unsigned)code, s);
    else
        g_snprintf(buf, sizeof buf, "error code %d", code);
    return buf;
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen) {
    SIM_ENTER("MPI_Error_string");
    if (!string || !resultlen)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_string: %s is NULL",
                             !string ? "string" : "resultlen"));
    const char *text = sim_errcode_string(sim_self(), errorcode);
    for (size_t i = 0; !text && i < G_N_ELEMENTS(g_errors); i++)
        if (g_errors[i].code == errorcode)
            text = g_errors[i].text;
    int n = text ? g_snprintf(string, MPI_MAX_ERROR_STRING, "%s", text)
                 : g_snprintf(string, MPI_MAX_ERROR_STRING, "Error code %d", errorcode);
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Error_string);

int PMPI_Error_class(int errorcode, int *errorclass) {
    SIM_ENTER("MPI_Error_class");
    if (!errorclass)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_class: errorclass is NULL"));
    /* ordex returns classes as the codes of its own errors. */
    if (!sim_errcode_class_of(sim_self(), errorcode, errorclass))
        *errorclass = errorcode;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Error_class);
