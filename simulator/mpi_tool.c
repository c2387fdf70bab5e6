/*
 * mpi_tool.c - the MPI tool information interface of MPI 3.1 chapter 14
 * (MPI_T_init_thread ... MPI_T_category_*; the MPI 4.0 events and sources
 * are not provided).
 *
 * What ordex exposes: no control variables (nothing of the simulated MPI
 * is tunable at run time), no enumerations, one performance variable and
 * one category holding it:
 *   "ordex_messages_delivered": a counter (MPI_T_PVAR_CLASS_COUNTER) of
 *   the point-to-point messages delivered into receives of the calling
 *   rank, as MPI_UNSIGNED_LONG_LONG, bound to no object, not continuous
 *   (a handle counts while started, from 0 at allocation), writable and
 *   resettable.
 * The state is per rank (sim_proc.tool): MPI_T may be initialised and
 * finalised any number of times, before MPI_Init and after MPI_Finalize;
 * while it is not initialised every call but MPI_T_init_thread returns
 * MPI_T_ERR_NOT_INITIALIZED.  MPI_T functions return their error codes
 * and call no error handler (MPI 3.1 section 14.3.9).  Sessions and
 * handles are checked against those the rank holds, so a stale or foreign
 * one is MPI_T_ERR_INVALID_SESSION / _HANDLE rather than a crash.
 */
#include <string.h>

#include "simulator/sim_internal.h"

#define PVAR_NAME "ordex_messages_delivered"
#define PVAR_DESC "point-to-point messages delivered into receives of this rank"
#define CAT_NAME "ordex"
#define CAT_DESC "ordex's simulated MPI"

struct MPIR_T_pvar_session_s {
    GPtrArray *handles; /* struct MPIR_T_pvar_handle_s * */
};

struct MPIR_T_pvar_handle_s {
    MPI_T_pvar_session session;
    bool started;
    uint64_t acc;  /* counted while started before the last stop, or written */
    uint64_t mark; /* the rank's delivered count at the last start */
};

typedef struct sim_tool {
    int inits; /* MPI_T_init_thread calls not yet finalised */
    GPtrArray *sessions;
    int changes; /* category_changed's stamp (categories never change) */
} sim_tool;

static sim_proc *me(void) {
    return sim_proc_of(sim_self());
}

static sim_tool *tool(void) {
    sim_tool *t = me()->tool;
    return t && t->inits > 0 ? t : NULL;
}

static void session_destroy(MPI_T_pvar_session s) {
    g_ptr_array_free(s->handles, TRUE);
    g_free(s);
}

/* Copies str into buf as MPI 3.1 section 14.3.3 says: at most *len
 * characters with the terminating null; *len becomes the length written
 * (with the null), or the length needed when buf is NULL or *len is 0. */
static void copy_out(const char *str, char *buf, int *len) {
    if (!len)
        return;
    int need = (int)strlen(str) + 1;
    if (!buf || *len <= 0) {
        *len = need;
        return;
    }
    int n = MIN(need, *len);
    memcpy(buf, str, (size_t)n - 1);
    buf[n - 1] = '\0';
    *len = n;
}

#define TOOL_OR_RETURN(t)                                                                          \
    sim_tool *t = tool();                                                                          \
    if (!t)                                                                                        \
    SIM_RETURN(MPI_T_ERR_NOT_INITIALIZED)

int PMPI_T_init_thread(int required, int *provided) {
    SIM_ENTER("MPI_T_init_thread");
    sim_proc *p = me();
    if (!p->tool) {
        p->tool = g_new0(sim_tool, 1);
        p->tool->sessions = g_ptr_array_new_with_free_func((GDestroyNotify)session_destroy);
    }
    p->tool->inits++;
    if (provided) {
        /* As MPI_Init_thread: ranks share one thread of ordex. */
        int level = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
        *provided = level < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : level;
    }
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_init_thread);

int PMPI_T_finalize(void) {
    SIM_ENTER("MPI_T_finalize");
    TOOL_OR_RETURN(t);
    if (--t->inits == 0) {
        /* The last finalize ends every session and handle. */
        g_ptr_array_free(t->sessions, TRUE);
        g_free(t);
        me()->tool = NULL;
    }
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_finalize);

/* ---------------------------------------------------------------------- */
/* Control variables: none                                                 */

int PMPI_T_cvar_get_num(int *num_cvar) {
    SIM_ENTER("MPI_T_cvar_get_num");
    TOOL_OR_RETURN(t);
    if (!num_cvar)
        SIM_RETURN(MPI_T_ERR_INVALID);
    *num_cvar = 0;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_cvar_get_num);

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope) {
    SIM_ENTER("MPI_T_cvar_get_info");
    TOOL_OR_RETURN(t);
    (void)cvar_index, (void)name, (void)name_len, (void)verbosity, (void)datatype, (void)enumtype,
        (void)desc, (void)desc_len, (void)bind, (void)scope;
    SIM_RETURN(MPI_T_ERR_INVALID_INDEX);
}
SIM_ALIAS(MPI_T_cvar_get_info);

int PMPI_T_cvar_get_index(const char *name, int *cvar_index) {
    SIM_ENTER("MPI_T_cvar_get_index");
    TOOL_OR_RETURN(t);
    (void)cvar_index;
    SIM_RETURN(name ? MPI_T_ERR_INVALID_NAME : MPI_T_ERR_INVALID);
}
SIM_ALIAS(MPI_T_cvar_get_index);

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count) {
    SIM_ENTER("MPI_T_cvar_handle_alloc");
    TOOL_OR_RETURN(t);
    (void)cvar_index, (void)obj_handle, (void)handle, (void)count;
    SIM_RETURN(MPI_T_ERR_INVALID_INDEX);
}
SIM_ALIAS(MPI_T_cvar_handle_alloc);

/* No control variable exists, so no handle of one can be valid. */
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle) {
    SIM_ENTER("MPI_T_cvar_handle_free");
    TOOL_OR_RETURN(t);
    (void)handle;
    SIM_RETURN(MPI_T_ERR_INVALID_HANDLE);
}
SIM_ALIAS(MPI_T_cvar_handle_free);

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf) {
    SIM_ENTER("MPI_T_cvar_read");
    TOOL_OR_RETURN(t);
    (void)handle, (void)buf;
    SIM_RETURN(MPI_T_ERR_INVALID_HANDLE);
}
SIM_ALIAS(MPI_T_cvar_read);

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf) {
    SIM_ENTER("MPI_T_cvar_write");
    TOOL_OR_RETURN(t);
    (void)handle, (void)buf;
    SIM_RETURN(MPI_T_ERR_INVALID_HANDLE);
}
SIM_ALIAS(MPI_T_cvar_write);

/* ---------------------------------------------------------------------- */
/* Enumerations: none                                                      */

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len) {
    SIM_ENTER("MPI_T_enum_get_info");
    TOOL_OR_RETURN(t);
    (void)enumtype, (void)num, (void)name, (void)name_len;
    SIM_RETURN(MPI_T_ERR_INVALID_HANDLE);
}
SIM_ALIAS(MPI_T_enum_get_info);

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len) {
    SIM_ENTER("MPI_T_enum_get_item");
    TOOL_OR_RETURN(t);
    (void)enumtype, (void)indx, (void)value, (void)name, (void)name_len;
    SIM_RETURN(MPI_T_ERR_INVALID_HANDLE);
}
SIM_ALIAS(MPI_T_enum_get_item);

/* ---------------------------------------------------------------------- */
/* Performance variables                                                   */

int PMPI_T_pvar_get_num(int *num_pvar) {
    SIM_ENTER("MPI_T_pvar_get_num");
    TOOL_OR_RETURN(t);
    if (!num_pvar)
        SIM_RETURN(MPI_T_ERR_INVALID);
    *num_pvar = 1;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_get_num);

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *readonly, int *continuous, int *atomic) {
    SIM_ENTER("MPI_T_pvar_get_info");
    TOOL_OR_RETURN(t);
    if (pvar_index != 0)
        SIM_RETURN(MPI_T_ERR_INVALID_INDEX);
    /* Every output argument may be NULL: the caller wants some only. */
    copy_out(PVAR_NAME, name, name_len);
    copy_out(PVAR_DESC, desc, desc_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (var_class)
        *var_class = MPI_T_PVAR_CLASS_COUNTER;
    if (datatype)
        *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly)
        *readonly = 0;
    if (continuous)
        *continuous = 0;
    if (atomic)
        *atomic = 0;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_get_info);

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index) {
    SIM_ENTER("MPI_T_pvar_get_index");
    TOOL_OR_RETURN(t);
    if (!name || !pvar_index)
        SIM_RETURN(MPI_T_ERR_INVALID);
    if (strcmp(name, PVAR_NAME) != 0 || var_class != MPI_T_PVAR_CLASS_COUNTER)
        SIM_RETURN(MPI_T_ERR_INVALID_NAME);
    *pvar_index = 0;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_get_index);

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session) {
    SIM_ENTER("MPI_T_pvar_session_create");
    TOOL_OR_RETURN(t);
    if (!session)
        SIM_RETURN(MPI_T_ERR_INVALID);
    MPI_T_pvar_session s = g_new0(struct MPIR_T_pvar_session_s, 1);
    s->handles = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(t->sessions, s);
    *session = s;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_session_create);

static bool session_ok(const sim_tool *t, MPI_T_pvar_session s) {
    guint i;
    return s && g_ptr_array_find(t->sessions, s, &i);
}

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session) {
    SIM_ENTER("MPI_T_pvar_session_free");
    TOOL_OR_RETURN(t);
    if (!session || !session_ok(t, *session))
        SIM_RETURN(MPI_T_ERR_INVALID_SESSION);
    g_ptr_array_remove(t->sessions, *session); /* frees its handles too */
    *session = MPI_T_PVAR_SESSION_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_session_free);

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count) {
    SIM_ENTER("MPI_T_pvar_handle_alloc");
    TOOL_OR_RETURN(t);
    (void)obj_handle; /* bound to no object: ignored (MPI 3.1 section 14.3.7) */
    if (!session_ok(t, session))
        SIM_RETURN(MPI_T_ERR_INVALID_SESSION);
    if (pvar_index != 0)
        SIM_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (!handle || !count)
        SIM_RETURN(MPI_T_ERR_INVALID);
    MPI_T_pvar_handle h = g_new0(struct MPIR_T_pvar_handle_s, 1);
    h->session = session;
    g_ptr_array_add(session->handles, h);
    *handle = h;
    *count = 1;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_handle_alloc);

/* Checks session and handle (MPI_T_PVAR_ALL_HANDLES only when `all_ok`). */
static int check(const sim_tool *t, MPI_T_pvar_session s, MPI_T_pvar_handle h, bool all_ok) {
    guint i;
    if (!session_ok(t, s))
        return MPI_T_ERR_INVALID_SESSION;
    if (h == MPI_T_PVAR_ALL_HANDLES)
        return all_ok ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
    return h && g_ptr_array_find(s->handles, h, &i) ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle) {
    SIM_ENTER("MPI_T_pvar_handle_free");
    TOOL_OR_RETURN(t);
    if (!handle)
        SIM_RETURN(MPI_T_ERR_INVALID_HANDLE);
    int rc = check(t, session, *handle, false);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    g_ptr_array_remove(session->handles, *handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_handle_free);

static uint64_t value(const struct MPIR_T_pvar_handle_s *h) {
    return h->acc + (h->started ? me()->delivered_here - h->mark : 0);
}

static void start(struct MPIR_T_pvar_handle_s *h) {
    if (!h->started) {
        h->started = true;
        h->mark = me()->delivered_here;
    }
}

static void stop(struct MPIR_T_pvar_handle_s *h) {
    h->acc = value(h);
    h->started = false;
}

static void set(struct MPIR_T_pvar_handle_s *h, uint64_t v) {
    h->acc = v;
    h->mark = me()->delivered_here;
}

/* Applies fn to handle h, or to every handle of the session. */
static void each(MPI_T_pvar_session s, MPI_T_pvar_handle h,
                 void (*fn)(struct MPIR_T_pvar_handle_s *)) {
    if (h != MPI_T_PVAR_ALL_HANDLES) {
        fn(h);
        return;
    }
    for (guint i = 0; i < s->handles->len; i++)
        fn(g_ptr_array_index(s->handles, i));
}

static void reset(struct MPIR_T_pvar_handle_s *h) {
    set(h, 0);
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    SIM_ENTER("MPI_T_pvar_start");
    TOOL_OR_RETURN(t);
    int rc = check(t, session, handle, true);
    if (rc == MPI_SUCCESS)
        each(session, handle, start);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_T_pvar_start);

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    SIM_ENTER("MPI_T_pvar_stop");
    TOOL_OR_RETURN(t);
    int rc = check(t, session, handle, true);
    if (rc == MPI_SUCCESS)
        each(session, handle, stop);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_T_pvar_stop);

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf) {
    SIM_ENTER("MPI_T_pvar_read");
    TOOL_OR_RETURN(t);
    int rc = check(t, session, handle, false);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!buf)
        SIM_RETURN(MPI_T_ERR_INVALID);
    unsigned long long v = value(handle);
    memcpy(buf, &v, sizeof v);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_read);

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf) {
    SIM_ENTER("MPI_T_pvar_write");
    TOOL_OR_RETURN(t);
    int rc = check(t, session, handle, false);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!buf)
        SIM_RETURN(MPI_T_ERR_INVALID);
    unsigned long long v;
    memcpy(&v, buf, sizeof v);
    set(handle, v);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_write);

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    SIM_ENTER("MPI_T_pvar_reset");
    TOOL_OR_RETURN(t);
    int rc = check(t, session, handle, true);
    if (rc == MPI_SUCCESS)
        each(session, handle, reset);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_T_pvar_reset);

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf) {
    SIM_ENTER("MPI_T_pvar_readreset");
    TOOL_OR_RETURN(t);
    int rc = check(t, session, handle, false);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!buf)
        SIM_RETURN(MPI_T_ERR_INVALID);
    unsigned long long v = value(handle);
    memcpy(buf, &v, sizeof v);
    reset(handle);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_pvar_readreset);

/* ---------------------------------------------------------------------- */
/* Categories: one, holding the performance variable                      */

int PMPI_T_category_get_num(int *num_cat) {
    SIM_ENTER("MPI_T_category_get_num");
    TOOL_OR_RETURN(t);
    if (!num_cat)
        SIM_RETURN(MPI_T_ERR_INVALID);
    *num_cat = 1;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_category_get_num);

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                             int *num_cvars, int *num_pvars, int *num_categories) {
    SIM_ENTER("MPI_T_category_get_info");
    TOOL_OR_RETURN(t);
    if (cat_index != 0)
        SIM_RETURN(MPI_T_ERR_INVALID_INDEX);
    copy_out(CAT_NAME, name, name_len);
    copy_out(CAT_DESC, desc, desc_len);
    if (num_cvars)
        *num_cvars = 0;
    if (num_pvars)
        *num_pvars = 1;
    if (num_categories)
        *num_categories = 0;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_category_get_info);

int PMPI_T_category_get_index(const char *name, int *cat_index) {
    SIM_ENTER("MPI_T_category_get_index");
    TOOL_OR_RETURN(t);
    if (!name || !cat_index)
        SIM_RETURN(MPI_T_ERR_INVALID);
    if (strcmp(name, CAT_NAME) != 0)
        SIM_RETURN(MPI_T_ERR_INVALID_NAME);
    *cat_index = 0;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_category_get_index);

/* The members of category cat_index of one kind: `n` of them, all from
 * index 0 (the category holds indices 0..n-1 of that kind). */
static int members(int cat_index, int len, int indices[], int n) {
    if (cat_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (len > 0 && !indices)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < MIN(len, n); i++)
        indices[i] = i;
    return MPI_SUCCESS;
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
    SIM_ENTER("MPI_T_category_get_cvars");
    TOOL_OR_RETURN(t);
    SIM_RETURN(members(cat_index, len, indices, 0));
}
SIM_ALIAS(MPI_T_category_get_cvars);

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
    SIM_ENTER("MPI_T_category_get_pvars");
    TOOL_OR_RETURN(t);
    SIM_RETURN(members(cat_index, len, indices, 1));
}
SIM_ALIAS(MPI_T_category_get_pvars);

int PMPI_T_category_get_categories(int cat_index, int len, int indices[]) {
    SIM_ENTER("MPI_T_category_get_categories");
    TOOL_OR_RETURN(t);
    SIM_RETURN(members(cat_index, len, indices, 0));
}
SIM_ALIAS(MPI_T_category_get_categories);

int PMPI_T_category_changed(int *update_number) {
    SIM_ENTER("MPI_T_category_changed");
    TOOL_OR_RETURN(t);
    if (!update_number)
        SIM_RETURN(MPI_T_ERR_INVALID);
    *update_number = t->changes;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_T_category_changed);
