/*
 * mpi_attr.c - the MPI API of attribute caching (MPI 3.1 section 6.7):
 * keyvals and attributes on communicators, datatypes and windows, the
 * deprecated MPI-1 forms (MPI_Keyval_create, MPI_Attr_put ...), and the
 * predefined attributes.  The keyvals and attributes are attr.c's; the
 * copies on MPI_Comm_dup and MPI_Type_dup and the deletions when an
 * object is freed are made by those calls (mpi_comm.c, mpi_type.c,
 * mpi_rma.c) through sim_attr_copy_all and sim_attr_delete_all.
 */
#include <stdarg.h>

#include "simulator/attr.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/rma.h"
#include "simulator/sim_internal.h"

/* Returns from the MPI function when expr reports an error. */
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int sim_try_rc_ = (expr);                                                                  \
        if (sim_try_rc_ != MPI_SUCCESS)                                                            \
            SIM_RETURN(sim_try_rc_);                                                               \
    } while (0)

/* The object an attribute call names, with where its errors go: the
 * communicator's or window's error handler, MPI_COMM_WORLD's for types. */
typedef struct obj {
    sim_attr_kind kind;
    int handle;
    MPI_Comm comm; /* SIM_ATTR_COMM */
    sim_win *win;  /* SIM_ATTR_WIN */
    int me;        /* window rank */
} obj;

static int obj_error(const obj *o, int errclass, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static int obj_error(const obj *o, int errclass, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (o->kind == SIM_ATTR_WIN && o->win)
        return sim_win_error(o->win, errclass, "%s", buf);
    return sim_error(o->kind == SIM_ATTR_COMM ? o->comm : MPI_COMM_NULL, errclass, "%s", buf);
}

/* Reports an error with a module's description; why is consumed. */
static int obj_report(const obj *o, const char *fn, int errclass, char *why) {
    char buf[512];
    g_strlcpy(buf, why ? why : "failed", sizeof buf);
    g_free(why);
    return obj_error(o, errclass, "%s: %s", fn, buf);
}

/* Resolves the object argument of an attribute call. */
static int obj_check(sim_attr_kind kind, int handle, const char *fn, obj *o) {
    *o = (obj){kind, handle, MPI_COMM_NULL, NULL, 0};
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (kind == SIM_ATTR_COMM) {
        rc = sim_comm_check(handle, NULL);
        if (rc == MPI_SUCCESS)
            o->comm = handle;
        return rc;
    }
    if (kind == SIM_ATTR_WIN)
        return sim_win_check(handle, fn, &o->win, &o->me);
    char *why = NULL;
    if (!sim_dt_lookup(handle, sim_self(), "datatype", &why))
        return obj_report(o, fn, MPI_ERR_TYPE, why);
    return MPI_SUCCESS;
}

static int keyval_check(const obj *o, const char *fn, int keyval, bool in_use_ok) {
    char *why = NULL;
    int rc = sim_keyval_check(sim_self(), o->kind, keyval, in_use_ok, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : obj_report(o, fn, rc, why);
}

/* ---------------------------------------------------------------------- */
/* The shared bodies                                                       */

static int create_keyval(sim_attr_kind kind, const char *fn, void *copy, void *del, int *keyval,
                         void *extra) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!keyval)
        return sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: keyval is NULL", fn);
    *keyval =
        sim_keyval_create(sim_self(), kind, (sim_attr_copy_fn)copy, (sim_attr_delete_fn)del, extra);
    sim_call_args("keyval=0x%08x", (unsigned)*keyval);
    return MPI_SUCCESS;
}

static int free_keyval(sim_attr_kind kind, const char *fn, int *keyval) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!keyval)
        return sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: keyval is NULL", fn);
    sim_call_args("keyval=0x%08x", (unsigned)*keyval);
    char *why = NULL;
    rc = sim_keyval_check(sim_self(), kind, *keyval, false, &why);
    if (rc != MPI_SUCCESS) {
        obj o = {kind, 0, MPI_COMM_NULL, NULL, 0};
        return obj_report(&o, fn, rc, why);
    }
    sim_keyval_free(sim_self(), *keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static int set_attr(sim_attr_kind kind, const char *fn, int handle, int keyval, void *value) {
    obj o;
    int rc = obj_check(kind, handle, fn, &o);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_call_args("keyval=0x%08x value=%p", (unsigned)keyval, value);
    if ((rc = keyval_check(&o, fn, keyval, false)) != MPI_SUCCESS)
        return rc;
    char *why = NULL;
    rc = sim_attr_set(sim_self(), kind, handle, keyval, value, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : obj_report(&o, fn, rc, why);
}

static int delete_attr(sim_attr_kind kind, const char *fn, int handle, int keyval) {
    obj o;
    int rc = obj_check(kind, handle, fn, &o);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_call_args("keyval=0x%08x", (unsigned)keyval);
    if ((rc = keyval_check(&o, fn, keyval, true)) != MPI_SUCCESS)
        return rc;
    char *why = NULL;
    rc = sim_attr_delete(sim_self(), kind, handle, keyval, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : obj_report(&o, fn, rc, why);
}

/* A window's predefined attribute: the base itself, pointers to the
 * others' values (MPI 3.1 section 11.2.6). */
static bool win_predefined(const obj *o, int keyval, void **value) {
    sim_win_member *m = &o->win->m[o->me];
    switch (keyval) {
    case MPI_WIN_BASE:
        *value = m->attr_base;
        return true;
    case MPI_WIN_SIZE:
        *value = &m->attr_size;
        return true;
    case MPI_WIN_DISP_UNIT:
        *value = &m->attr_disp_unit;
        return true;
    case MPI_WIN_CREATE_FLAVOR:
        *value = &m->attr_flavor;
        return true;
    case MPI_WIN_MODEL:
        *value = &m->attr_model;
        return true;
    default:
        return false;
    }
}

static int get_attr(sim_attr_kind kind, const char *fn, int handle, int keyval, void *value,
                    int *flag) {
    obj o;
    int rc = obj_check(kind, handle, fn, &o);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_call_args("keyval=0x%08x", (unsigned)keyval);
    if (!value || !flag)
        return obj_error(&o, MPI_ERR_ARG, "%s: %s is NULL", fn, !flag ? "flag" : "attribute_val");
    void *v = NULL;
    if (kind == SIM_ATTR_COMM && sim_attr_predefined_comm(sim_self(), keyval, &v, flag)) {
        *(void **)value = v;
        return MPI_SUCCESS;
    }
    if (kind == SIM_ATTR_WIN && win_predefined(&o, keyval, &v)) {
        *(void **)value = v;
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (sim_keyval_predefined(keyval)) {
        int dummy;
        bool comm_kv = sim_attr_predefined_comm(sim_self(), keyval, &v, &dummy);
        return obj_error(&o, MPI_ERR_KEYVAL, "%s: keyval 0x%08x is predefined for %s, not for %s",
                         fn, (unsigned)keyval, comm_kv ? "communicators" : "windows",
                         kind == SIM_ATTR_COMM  ? "communicators"
                         : kind == SIM_ATTR_WIN ? "windows"
                                                : "datatypes");
    }
    if ((rc = keyval_check(&o, fn, keyval, true)) != MPI_SUCCESS)
        return rc;
    sim_attr_get(sim_self(), kind, handle, keyval, &v, flag);
    if (*flag)
        *(void **)value = v;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Communicators                                                           */

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state) {
    SIM_ENTER("MPI_Comm_create_keyval");
    SIM_RETURN(create_keyval(SIM_ATTR_COMM, "MPI_Comm_create_keyval", (void *)comm_copy_attr_fn,
                             (void *)comm_delete_attr_fn, comm_keyval, extra_state));
}
SIM_ALIAS(MPI_Comm_create_keyval);

int PMPI_Comm_free_keyval(int *comm_keyval) {
    SIM_ENTER("MPI_Comm_free_keyval");
    SIM_RETURN(free_keyval(SIM_ATTR_COMM, "MPI_Comm_free_keyval", comm_keyval));
}
SIM_ALIAS(MPI_Comm_free_keyval);

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val) {
    SIM_ENTER("MPI_Comm_set_attr");
    SIM_RETURN(set_attr(SIM_ATTR_COMM, "MPI_Comm_set_attr", comm, comm_keyval, attribute_val));
}
SIM_ALIAS(MPI_Comm_set_attr);

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag) {
    SIM_ENTER("MPI_Comm_get_attr");
    SIM_RETURN(
        get_attr(SIM_ATTR_COMM, "MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag));
}
SIM_ALIAS(MPI_Comm_get_attr);

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
    SIM_ENTER("MPI_Comm_delete_attr");
    SIM_RETURN(delete_attr(SIM_ATTR_COMM, "MPI_Comm_delete_attr", comm, comm_keyval));
}
SIM_ALIAS(MPI_Comm_delete_attr);

/* The MPI-1 forms (deprecated, still in MPI 3.1 section 15.2): the same
 * communicator keyvals and attributes. */

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state) {
    SIM_ENTER("MPI_Keyval_create");
    SIM_RETURN(create_keyval(SIM_ATTR_COMM, "MPI_Keyval_create", (void *)copy_fn, (void *)delete_fn,
                             keyval, extra_state));
}
SIM_ALIAS(MPI_Keyval_create);

int PMPI_Keyval_free(int *keyval) {
    SIM_ENTER("MPI_Keyval_free");
    SIM_RETURN(free_keyval(SIM_ATTR_COMM, "MPI_Keyval_free", keyval));
}
SIM_ALIAS(MPI_Keyval_free);

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val) {
    SIM_ENTER("MPI_Attr_put");
    SIM_RETURN(set_attr(SIM_ATTR_COMM, "MPI_Attr_put", comm, keyval, attribute_val));
}
SIM_ALIAS(MPI_Attr_put);

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag) {
    SIM_ENTER("MPI_Attr_get");
    SIM_RETURN(get_attr(SIM_ATTR_COMM, "MPI_Attr_get", comm, keyval, attribute_val, flag));
}
SIM_ALIAS(MPI_Attr_get);

int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
    SIM_ENTER("MPI_Attr_delete");
    SIM_RETURN(delete_attr(SIM_ATTR_COMM, "MPI_Attr_delete", comm, keyval));
}
SIM_ALIAS(MPI_Attr_delete);

/* ---------------------------------------------------------------------- */
/* Datatypes                                                               */

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state) {
    SIM_ENTER("MPI_Type_create_keyval");
    SIM_RETURN(create_keyval(SIM_ATTR_TYPE, "MPI_Type_create_keyval", (void *)type_copy_attr_fn,
                             (void *)type_delete_attr_fn, type_keyval, extra_state));
}
SIM_ALIAS(MPI_Type_create_keyval);

int PMPI_Type_free_keyval(int *type_keyval) {
    SIM_ENTER("MPI_Type_free_keyval");
    SIM_RETURN(free_keyval(SIM_ATTR_TYPE, "MPI_Type_free_keyval", type_keyval));
}
SIM_ALIAS(MPI_Type_free_keyval);

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val) {
    SIM_ENTER("MPI_Type_set_attr");
    SIM_RETURN(set_attr(SIM_ATTR_TYPE, "MPI_Type_set_attr", datatype, type_keyval, attribute_val));
}
SIM_ALIAS(MPI_Type_set_attr);

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag) {
    SIM_ENTER("MPI_Type_get_attr");
    SIM_RETURN(
        get_attr(SIM_ATTR_TYPE, "MPI_Type_get_attr", datatype, type_keyval, attribute_val, flag));
}
SIM_ALIAS(MPI_Type_get_attr);

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
    SIM_ENTER("MPI_Type_delete_attr");
    SIM_RETURN(delete_attr(SIM_ATTR_TYPE, "MPI_Type_delete_attr", datatype, type_keyval));
}
SIM_ALIAS(MPI_Type_delete_attr);

/* ---------------------------------------------------------------------- */
/* Windows                                                                 */

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state) {
    SIM_ENTER("MPI_Win_create_keyval");
    SIM_RETURN(create_keyval(SIM_ATTR_WIN, "MPI_Win_create_keyval", (void *)win_copy_attr_fn,
                             (void *)win_delete_attr_fn, win_keyval, extra_state));
}
SIM_ALIAS(MPI_Win_create_keyval);

int PMPI_Win_free_keyval(int *win_keyval) {
    SIM_ENTER("MPI_Win_free_keyval");
    SIM_RETURN(free_keyval(SIM_ATTR_WIN, "MPI_Win_free_keyval", win_keyval));
}
SIM_ALIAS(MPI_Win_free_keyval);

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val) {
    SIM_ENTER("MPI_Win_set_attr");
    SIM_RETURN(set_attr(SIM_ATTR_WIN, "MPI_Win_set_attr", win, win_keyval, attribute_val));
}
SIM_ALIAS(MPI_Win_set_attr);

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag) {
    SIM_ENTER("MPI_Win_get_attr");
    SIM_RETURN(get_attr(SIM_ATTR_WIN, "MPI_Win_get_attr", win, win_keyval, attribute_val, flag));
}
SIM_ALIAS(MPI_Win_get_attr);

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) {
    SIM_ENTER("MPI_Win_delete_attr");
    SIM_RETURN(delete_attr(SIM_ATTR_WIN, "MPI_Win_delete_attr", win, win_keyval));
}
SIM_ALIAS(MPI_Win_delete_attr);
