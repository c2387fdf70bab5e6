/*
 * errhandler.c - user error handlers, added error classes and codes (see
 * errhandler.h).
 */
#include "simulator/errhandler.h"

#include <string.h>

#include <glib.h>

#include "simulator/handle.h"

typedef struct errh {
    sim_errh_kind kind;
    sim_errh_fn fn;
    int refs; /* the program's */
} errh;

typedef struct errcode {
    int code, cls;
    char *string; /* NULL until MPI_Add_error_string */
} errcode;

typedef struct rank_errh {
    GPtrArray *handlers; /* errh * by index */
    GArray *codes;       /* errcode, in the order added (code = SIM_ERRCODE_FIRST + index) */
    MPI_Errhandler file_default; /* of MPI_FILE_NULL */
} rank_errh;

static rank_errh *g_ranks;
static int g_nranks;

static void code_clear(gpointer p) {
    g_free(((errcode *)p)->string);
}

void sim_errh_init(int nranks) {
    sim_errh_fini();
    g_nranks = nranks;
    g_ranks = g_new0(rank_errh, nranks);
    for (int r = 0; r < nranks; r++) {
        g_ranks[r].handlers = g_ptr_array_new_with_free_func(g_free);
        g_ranks[r].codes = g_array_new(FALSE, FALSE, sizeof(errcode));
        g_array_set_clear_func(g_ranks[r].codes, code_clear);
        g_ranks[r].file_default = MPI_ERRORS_RETURN; /* MPI 3.1 section 13.7 */
    }
}

void sim_errh_fini(void) {
    for (int r = 0; r < g_nranks; r++) {
        g_ptr_array_free(g_ranks[r].handlers, TRUE);
        g_array_free(g_ranks[r].codes, TRUE);
    }
    g_free(g_ranks);
    g_ranks = NULL;
    g_nranks = 0;
}

MPI_Errhandler sim_errh_create(int rank, sim_errh_kind kind, sim_errh_fn fn) {
    rank_errh *re = &g_ranks[rank];
    errh *e = g_new0(errh, 1);
    e->kind = kind;
    e->fn = fn;
    e->refs = 1;
    g_ptr_array_add(re->handlers, e);
    return SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_ERRHANDLER, re->handlers->len - 1);
}

bool sim_errh_predefined(MPI_Errhandler h) {
    return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT;
}

static errh *lookup(int world_rank, MPI_Errhandler h) {
    if (SIM_HANDLE_KIND(h) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(h) != SIM_OBJ_ERRHANDLER)
        return NULL;
    rank_errh *re = &g_ranks[world_rank];
    guint i = SIM_HANDLE_INDEX(h);
    return i < re->handlers->len ? g_ptr_array_index(re->handlers, i) : NULL;
}

static const char *kind_name(sim_errh_kind k) {
    return k == SIM_ERRH_COMM  ? "communicators (MPI_Comm_create_errhandler)"
           : k == SIM_ERRH_WIN ? "windows (MPI_Win_create_errhandler)"
                               : "files (MPI_File_create_errhandler)";
}

int sim_errh_check_any(int rank, MPI_Errhandler h, char **why) {
    if (sim_errh_predefined(h))
        return MPI_SUCCESS;
    if (h == MPI_ERRHANDLER_NULL) {
        *why = g_strdup("the error handler is MPI_ERRHANDLER_NULL");
        return MPI_ERR_ARG;
    }
    errh *e = lookup(rank, h);
    if (!e) {
        *why = g_strdup_printf("0x%08x is not an error handler of this rank", (unsigned)h);
        return MPI_ERR_ARG;
    }
    if (e->refs <= 0) {
        *why = g_strdup_printf("error handler 0x%08x was freed (MPI_Errhandler_free)", (unsigned)h);
        return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

int sim_errh_check(int rank, MPI_Errhandler h, sim_errh_kind kind, char **why) {
    int rc = sim_errh_check_any(rank, h, why);
    if (rc != MPI_SUCCESS || sim_errh_predefined(h))
        return rc;
    errh *e = lookup(rank, h);
    if (e->kind != kind) {
        *why = g_strdup_printf("error handler 0x%08x was made for %s, not for %s", (unsigned)h,
                               kind_name(e->kind), kind_name(kind));
        return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

void sim_errh_ref(int rank, MPI_Errhandler h) {
    errh *e = lookup(rank, h);
    if (e)
        e->refs++;
}

void sim_errh_unref(int rank, MPI_Errhandler h) {
    errh *e = lookup(rank, h);
    if (e && e->refs > 0)
        e->refs--;
}

sim_errh_fn sim_errh_function(int world_rank, MPI_Errhandler h) {
    errh *e = lookup(world_rank, h);
    return e ? e->fn : NULL;
}

MPI_Errhandler sim_errh_file_default(int rank) {
    return g_ranks[rank].file_default;
}

void sim_errh_set_file_default(int rank, MPI_Errhandler h) {
    g_ranks[rank].file_default = h;
}

/* ---------------------------------------------------------------------- */
/* Error classes, codes and strings                                        */

static errcode *added(int rank, int code) {
    rank_errh *re = &g_ranks[rank];
    if (code < SIM_ERRCODE_FIRST || code - SIM_ERRCODE_FIRST >= (int)re->codes->len)
        return NULL;
    return &g_array_index(re->codes, errcode, code - SIM_ERRCODE_FIRST);
}

static int add(int rank, int cls) {
    rank_errh *re = &g_ranks[rank];
    int code = SIM_ERRCODE_FIRST + (int)re->codes->len;
    errcode e = {code, cls < 0 ? code : cls, NULL};
    g_array_append_val(re->codes, e);
    return code;
}

int sim_errcode_add_class(int rank) {
    return add(rank, -1);
}

int sim_errcode_add_code(int rank, int cls, int *code, char **why) {
    errcode *c = added(rank, cls);
    /* MPICH's classes run from MPI_SUCCESS to MPI_T_ERR_NOT_SUPPORTED. */
    bool predefined = cls >= MPI_SUCCESS && cls <= MPI_T_ERR_NOT_SUPPORTED;
    if (!predefined && !(c && c->cls == c->code)) {
        *why = g_strdup_printf("errorclass %d is neither a predefined error class nor one this "
                               "rank added with MPI_Add_error_class",
                               cls);
        return MPI_ERR_ARG;
    }
    *code = add(rank, cls);
    return MPI_SUCCESS;
}

int sim_errcode_set_string(int rank, int code, const char *string, char **why) {
    errcode *c = added(rank, code);
    if (!c) {
        *why = g_strdup_printf("errorcode %d was not added by this rank (MPI_Add_error_class or "
                               "MPI_Add_error_code); the strings of predefined codes are fixed",
                               code);
        return MPI_ERR_ARG;
    }
    if (strlen(string) >= MPI_MAX_ERROR_STRING) {
        *why = g_strdup_printf("the string has %zu characters; at most %d are allowed "
                               "(MPI_MAX_ERROR_STRING - 1)",
                               strlen(string), MPI_MAX_ERROR_STRING - 1);
        return MPI_ERR_ARG;
    }
    g_free(c->string);
    c->string = g_strdup(string);
    return MPI_SUCCESS;
}

bool sim_errcode_class_of(int rank, int code, int *cls) {
    errcode *c = added(rank, code);
    if (c)
        *cls = c->cls;
    return c != NULL;
}

const char *sim_errcode_string(int rank, int code) {
    errcode *c = added(rank, code);
    return c ? (c->string ? c->string : "") : NULL;
}

int sim_errcode_last_used(int rank) {
    rank_errh *re = &g_ranks[rank];
    return re->codes->len ? SIM_ERRCODE_FIRST + (int)re->codes->len - 1 : MPI_ERR_LASTCODE;
}

void sim_errh_digest_rank(int rank, sim_digest_feed feed, void *user) {
    rank_errh *re = &g_ranks[rank];
    int64_t head[3] = {re->handlers->len, re->codes->len, re->file_default};
    feed(user, head, sizeof head);
    for (guint i = 0; i < re->handlers->len; i++) {
        const errh *e = g_ptr_array_index(re->handlers, i);
        int64_t f[4] = {i, e->kind, (int64_t)(intptr_t)e->fn, e->refs};
        feed(user, f, sizeof f);
    }
    for (guint i = 0; i < re->codes->len; i++) {
        const errcode *c = &g_array_index(re->codes, errcode, i);
        int64_t f[2] = {c->code, c->cls};
        feed(user, f, sizeof f);
        if (c->string)
            feed(user, c->string, strlen(c->string) + 1);
    }
}
