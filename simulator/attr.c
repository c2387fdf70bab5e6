/*
 * attr.c - keyvals and cached attributes (see attr.h).
 */
#include "simulator/attr.h"

#include <string.h>

#include "scheduler/sched.h"
#include "simulator/errhandler.h"
#include "simulator/handle.h"

typedef struct keyval {
    sim_attr_kind kind;
    sim_attr_copy_fn copy;
    sim_attr_delete_fn del;
    void *extra;
    bool freed; /* the program's handle is invalid */
    int uses;   /* attributes holding it */
} keyval;

typedef struct attr {
    int kv; /* keyval index */
    void *value;
} attr;

typedef struct rank_attrs {
    GPtrArray *keyvals; /* keyval * by index; NULL where free */
    GHashTable *objs;   /* obj_key() -> GArray of attr, in the order first set */
    /* The predefined communicator attributes' values, which
     * MPI_Comm_get_attr returns pointers to. */
    int tag_ub, host, io, wtime_is_global, universe_size, appnum, lastusedcode;
} rank_attrs;

static rank_attrs *g_ranks;
static int g_nranks;

static gint64 *obj_key(sim_attr_kind kind, int handle) {
    gint64 *k = g_new(gint64, 1);
    *k = ((gint64)kind << 32) | (gint64)(guint32)handle;
    return k;
}

static void attrs_free(gpointer p) {
    g_array_free(p, TRUE);
}

void sim_attr_init(int nranks) {
    sim_attr_fini();
    g_nranks = nranks;
    g_ranks = g_new0(rank_attrs, nranks);
    for (int r = 0; r < nranks; r++) {
        rank_attrs *ra = &g_ranks[r];
        ra->keyvals = g_ptr_array_new_with_free_func(g_free);
        ra->objs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, attrs_free);
        ra->tag_ub = SIM_TAG_UB;
        ra->host = MPI_PROC_NULL;   /* no host process */
        ra->io = MPI_ANY_SOURCE;    /* every rank may do I/O */
        ra->wtime_is_global = 0;    /* each rank has its own clock */
        ra->universe_size = nranks; /* no process can be spawned beyond these */
        ra->appnum = 0;             /* one program */
        ra->lastusedcode = MPI_ERR_LASTCODE;
    }
}

void sim_attr_fini(void) {
    for (int r = 0; r < g_nranks; r++) {
        g_ptr_array_free(g_ranks[r].keyvals, TRUE);
        g_hash_table_destroy(g_ranks[r].objs);
    }
    g_free(g_ranks);
    g_ranks = NULL;
    g_nranks = 0;
}

/* ---------------------------------------------------------------------- */
/* Keyvals                                                                 */

int sim_keyval_create(int rank, sim_attr_kind kind, sim_attr_copy_fn copy, sim_attr_delete_fn del,
                      void *extra) {
    rank_attrs *ra = &g_ranks[rank];
    keyval *k = g_new0(keyval, 1);
    k->kind = kind;
    k->copy = copy;
    k->del = del;
    k->extra = extra;
    guint i = 0;
    while (i < ra->keyvals->len && g_ptr_array_index(ra->keyvals, i))
        i++;
    if (i == ra->keyvals->len)
        g_ptr_array_add(ra->keyvals, k);
    else
        g_ptr_array_index(ra->keyvals, i) = k;
    return SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_KEYVAL, i);
}

bool sim_keyval_predefined(int keyval) {
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
    case MPI_WIN_BASE:
    case MPI_WIN_SIZE:
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
        return true;
    default:
        return false;
    }
}

static const char *kind_creator(sim_attr_kind kind) {
    return kind == SIM_ATTR_COMM   ? "MPI_Comm_create_keyval"
           : kind == SIM_ATTR_TYPE ? "MPI_Type_create_keyval"
                                   : "MPI_Win_create_keyval";
}

static const char *kind_object(sim_attr_kind kind) {
    return kind == SIM_ATTR_COMM ? "communicator" : kind == SIM_ATTR_TYPE ? "datatype" : "window";
}

/* The calling rank's keyval object of a handle, or NULL. */
static keyval *keyval_of(rank_attrs *ra, int handle) {
    if (SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(handle) != SIM_OBJ_KEYVAL)
        return NULL;
    guint i = SIM_HANDLE_INDEX(handle);
    return i < ra->keyvals->len ? g_ptr_array_index(ra->keyvals, i) : NULL;
}

int sim_keyval_check(int rank, sim_attr_kind kind, int handle, bool in_use_ok, char **why) {
    if (handle == MPI_KEYVAL_INVALID) {
        *why = g_strdup("keyval is MPI_KEYVAL_INVALID");
        return MPI_ERR_KEYVAL;
    }
    if (sim_keyval_predefined(handle)) {
        *why = g_strdup_printf("keyval 0x%08x is predefined: the program may read its attribute "
                               "but not set or delete it, nor free the keyval",
                               (unsigned)handle);
        return MPI_ERR_KEYVAL;
    }
    if (SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(handle) != SIM_OBJ_KEYVAL) {
        *why = g_strdup_printf("keyval 0x%08x is not a keyval", (unsigned)handle);
        return MPI_ERR_KEYVAL;
    }
    keyval *k = keyval_of(&g_ranks[rank], handle);
    if (!k) {
        *why = g_strdup_printf("keyval 0x%08x was freed, or never created by this rank",
                               (unsigned)handle);
        return MPI_ERR_KEYVAL;
    }
    if (k->freed && !in_use_ok) {
        *why = g_strdup_printf("keyval 0x%08x was freed (MPI_*_free_keyval); it lives on only for "
                               "the attributes set before",
                               (unsigned)handle);
        return MPI_ERR_KEYVAL;
    }
    if (k->kind != kind) {
        *why = g_strdup_printf("keyval 0x%08x was made by %s, for %ss; a %s needs one of %s",
                               (unsigned)handle, kind_creator(k->kind), kind_object(k->kind),
                               kind_object(kind), kind_creator(kind));
        return MPI_ERR_KEYVAL;
    }
    return MPI_SUCCESS;
}

/* Destroys a freed keyval nothing uses any more: its index is free again. */
static void keyval_maybe_destroy(rank_attrs *ra, int index) {
    keyval *k = g_ptr_array_index(ra->keyvals, index);
    if (!k->freed || k->uses > 0)
        return;
    g_free(k);
    g_ptr_array_index(ra->keyvals, index) = NULL;
    /* Trailing free slots go, so the table's length is no history. */
    while (ra->keyvals->len && !g_ptr_array_index(ra->keyvals, ra->keyvals->len - 1))
        g_ptr_array_set_size(ra->keyvals, ra->keyvals->len - 1);
}

void sim_keyval_free(int rank, int handle) {
    rank_attrs *ra = &g_ranks[rank];
    keyval *k = keyval_of(ra, handle);
    k->freed = true;
    keyval_maybe_destroy(ra, (int)SIM_HANDLE_INDEX(handle));
}

/* ---------------------------------------------------------------------- */
/* Attributes                                                              */

static GArray *attrs_of(rank_attrs *ra, sim_attr_kind kind, int handle, bool create) {
    gint64 key = ((gint64)kind << 32) | (gint64)(guint32)handle;
    GArray *a = g_hash_table_lookup(ra->objs, &key);
    if (!a && create) {
        a = g_array_new(FALSE, FALSE, sizeof(attr));
        g_hash_table_insert(ra->objs, obj_key(kind, handle), a);
    }
    return a;
}

static void attrs_drop_if_empty(rank_attrs *ra, sim_attr_kind kind, int handle) {
    gint64 key = ((gint64)kind << 32) | (gint64)(guint32)handle;
    GArray *a = g_hash_table_lookup(ra->objs, &key);
    if (a && a->len == 0)
        g_hash_table_remove(ra->objs, &key);
}

static int find(const GArray *a, int kv) {
    for (guint i = 0; a && i < a->len; i++)
        if (g_array_index(a, attr, i).kv == kv)
            return (int)i;
    return -1;
}

/* Runs the delete callback of keyval index kv for value on the object. */
static int call_delete(rank_attrs *ra, sim_attr_kind kind, int handle, int kv, void *value,
                       char **why) {
    keyval *k = g_ptr_array_index(ra->keyvals, kv);
    if (!k->del)
        return MPI_SUCCESS;
    int h = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_KEYVAL, kv);
    /* Program code: its heap, its MPI calls. */
    sched_leave_sim();
    int rc = k->del(handle, h, value, k->extra);
    sched_enter_sim();
    if (rc != MPI_SUCCESS)
        *why =
            g_strdup_printf("the delete callback of keyval 0x%08x returned error code %d", h, rc);
    return rc;
}

/* Removes the attribute at index i of the object's list (its keyval drops
 * a use). */
static void remove_at(rank_attrs *ra, sim_attr_kind kind, int handle, int i) {
    GArray *a = attrs_of(ra, kind, handle, false);
    int kv = g_array_index(a, attr, i).kv;
    g_array_remove_index(a, (guint)i);
    attrs_drop_if_empty(ra, kind, handle);
    keyval *k = g_ptr_array_index(ra->keyvals, kv);
    k->uses--;
    keyval_maybe_destroy(ra, kv);
}

void sim_attr_get(int rank, sim_attr_kind kind, int handle, int keyval_h, void **value, int *flag) {
    rank_attrs *ra = &g_ranks[rank];
    GArray *a = attrs_of(ra, kind, handle, false);
    int i = find(a, (int)SIM_HANDLE_INDEX(keyval_h));
    *flag = i >= 0;
    if (i >= 0)
        *value = g_array_index(a, attr, i).value;
}

int sim_attr_set(int rank, sim_attr_kind kind, int handle, int keyval_h, void *value, char **why) {
    rank_attrs *ra = &g_ranks[rank];
    int kv = (int)SIM_HANDLE_INDEX(keyval_h);
    int i = find(attrs_of(ra, kind, handle, false), kv);
    if (i >= 0) {
        int rc = call_delete(ra, kind, handle, kv,
                             g_array_index(attrs_of(ra, kind, handle, false), attr, i).value, why);
        if (rc != MPI_SUCCESS)
            return rc;
        /* The callback may have changed the list (deleted this very key). */
        GArray *a = attrs_of(ra, kind, handle, false);
        i = find(a, kv);
        if (i >= 0) {
            g_array_index(a, attr, i).value = value;
            return MPI_SUCCESS;
        }
    }
    attr n = {kv, value};
    g_array_append_val(attrs_of(ra, kind, handle, true), n);
    ((keyval *)g_ptr_array_index(ra->keyvals, kv))->uses++;
    return MPI_SUCCESS;
}

int sim_attr_delete(int rank, sim_attr_kind kind, int handle, int keyval_h, char **why) {
    rank_attrs *ra = &g_ranks[rank];
    int kv = (int)SIM_HANDLE_INDEX(keyval_h);
    GArray *a = attrs_of(ra, kind, handle, false);
    int i = find(a, kv);
    if (i < 0)
        return MPI_SUCCESS;
    int rc = call_delete(ra, kind, handle, kv, g_array_index(a, attr, i).value, why);
    if (rc != MPI_SUCCESS)
        return rc;
    i = find(attrs_of(ra, kind, handle, false), kv);
    if (i >= 0)
        remove_at(ra, kind, handle, i);
    return MPI_SUCCESS;
}

struct sim_attr_list {
    GArray *attrs; /* attr */
};

/* Runs the delete callbacks of a list's attributes, the last first, as if
 * they were set on `handle`; errors are ignored (a rollback). */
static void delete_list(rank_attrs *ra, sim_attr_kind kind, int handle, GArray *a) {
    for (guint i = a->len; i-- > 0;) {
        attr at = g_array_index(a, attr, i);
        char *ignored = NULL;
        call_delete(ra, kind, handle, at.kv, at.value, &ignored);
        g_free(ignored);
        keyval *k = g_ptr_array_index(ra->keyvals, at.kv);
        k->uses--;
        keyval_maybe_destroy(ra, at.kv);
    }
}

int sim_attr_copy_out(int rank, sim_attr_kind kind, int from, int to, sim_attr_list **out,
                      char **why) {
    rank_attrs *ra = &g_ranks[rank];
    *out = NULL;
    GArray *src = attrs_of(ra, kind, from, false);
    GArray *copies = g_array_new(FALSE, FALSE, sizeof(attr));
    /* A snapshot: callbacks may change the source's list. */
    GArray *todo = src ? g_array_copy(src) : g_array_new(FALSE, FALSE, sizeof(attr));
    int rc = MPI_SUCCESS;
    for (guint i = 0; i < todo->len && rc == MPI_SUCCESS; i++) {
        attr at = g_array_index(todo, attr, i);
        keyval *k = g_ptr_array_index(ra->keyvals, at.kv);
        if (!k || !k->copy)
            continue;
        int h = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_KEYVAL, at.kv);
        void *value = NULL;
        int flag = 0;
        sched_leave_sim();
        rc = k->copy(from, h, k->extra, at.value, &value, &flag);
        sched_enter_sim();
        if (rc != MPI_SUCCESS) {
            *why =
                g_strdup_printf("the copy callback of keyval 0x%08x returned error code %d", h, rc);
            break;
        }
        if (!flag)
            continue;
        attr n = {at.kv, value};
        g_array_append_val(copies, n);
        k->uses++;
    }
    g_array_free(todo, TRUE);
    if (rc != MPI_SUCCESS) {
        delete_list(ra, kind, to, copies);
        g_array_free(copies, TRUE);
        return rc;
    }
    *out = g_new(sim_attr_list, 1);
    (*out)->attrs = copies;
    return MPI_SUCCESS;
}

void sim_attr_attach(int rank, sim_attr_kind kind, int handle, sim_attr_list *list) {
    rank_attrs *ra = &g_ranks[rank];
    if (list->attrs->len)
        g_array_append_vals(attrs_of(ra, kind, handle, true), list->attrs->data, list->attrs->len);
    g_array_free(list->attrs, TRUE);
    g_free(list);
}

void sim_attr_discard(int rank, sim_attr_list *list) {
    rank_attrs *ra = &g_ranks[rank];
    for (guint i = 0; i < list->attrs->len; i++) {
        int kv = g_array_index(list->attrs, attr, i).kv;
        ((keyval *)g_ptr_array_index(ra->keyvals, kv))->uses--;
        keyval_maybe_destroy(ra, kv);
    }
    g_array_free(list->attrs, TRUE);
    g_free(list);
}

int sim_attr_copy_all(int rank, sim_attr_kind kind, int from, int to, char **why) {
    sim_attr_list *l;
    int rc = sim_attr_copy_out(rank, kind, from, to, &l, why);
    if (rc == MPI_SUCCESS)
        sim_attr_attach(rank, kind, to, l);
    return rc;
}

int sim_attr_delete_all(int rank, sim_attr_kind kind, int handle, char **why) {
    rank_attrs *ra = &g_ranks[rank];
    for (;;) {
        GArray *a = attrs_of(ra, kind, handle, false);
        if (!a || a->len == 0)
            return MPI_SUCCESS;
        attr last = g_array_index(a, attr, a->len - 1);
        int rc = call_delete(ra, kind, handle, last.kv, last.value, why);
        if (rc != MPI_SUCCESS)
            return rc;
        int i = find(attrs_of(ra, kind, handle, false), last.kv);
        if (i >= 0)
            remove_at(ra, kind, handle, i);
    }
}

void sim_attr_forget(int rank, sim_attr_kind kind, int handle) {
    rank_attrs *ra = &g_ranks[rank];
    gint64 key = ((gint64)kind << 32) | (gint64)(guint32)handle;
    GArray *a = g_hash_table_lookup(ra->objs, &key);
    if (!a)
        return;
    for (guint i = 0; i < a->len; i++) {
        keyval *k = g_ptr_array_index(ra->keyvals, g_array_index(a, attr, i).kv);
        k->uses--;
    }
    g_hash_table_remove(ra->objs, &key);
}

bool sim_attr_predefined_comm(int rank, int keyval_h, void **value, int *flag) {
    rank_attrs *ra = &g_ranks[rank];
    int *v;
    switch (keyval_h) {
    case MPI_TAG_UB:
        v = &ra->tag_ub;
        break;
    case MPI_HOST:
        v = &ra->host;
        break;
    case MPI_IO:
        v = &ra->io;
        break;
    case MPI_WTIME_IS_GLOBAL:
        v = &ra->wtime_is_global;
        break;
    case MPI_UNIVERSE_SIZE:
        v = &ra->universe_size;
        break;
    case MPI_APPNUM:
        v = &ra->appnum;
        break;
    case MPI_LASTUSEDCODE:
        ra->lastusedcode = sim_errcode_last_used(rank);
        v = &ra->lastusedcode;
        break;
    default:
        return false;
    }
    *value = v;
    *flag = 1;
    return true;
}

/* ---------------------------------------------------------------------- */
/* State                                                                   */

static gint cmp_key(gconstpointer a, gconstpointer b) {
    gint64 x = **(const gint64 *const *)a, y = **(const gint64 *const *)b;
    return (x > y) - (x < y);
}

/* The table's keys in increasing order (its own order is no state). */
static GPtrArray *sorted_keys(GHashTable *t) {
    GPtrArray *keys = g_ptr_array_sized_new(g_hash_table_size(t));
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, t);
    while (g_hash_table_iter_next(&it, &k, NULL))
        g_ptr_array_add(keys, k);
    g_ptr_array_sort(keys, cmp_key);
    return keys;
}

void sim_attr_digest_rank(int rank, sim_digest_feed feed, void *user) {
    rank_attrs *ra = &g_ranks[rank];
    if (ra->keyvals->len == 0 && g_hash_table_size(ra->objs) == 0)
        return;
    for (guint i = 0; i < ra->keyvals->len; i++) {
        const keyval *k = g_ptr_array_index(ra->keyvals, i);
        if (!k)
            continue;
        int64_t f[7] = {i,
                        k->kind,
                        (int64_t)(intptr_t)k->copy,
                        (int64_t)(intptr_t)k->del,
                        (int64_t)(intptr_t)k->extra,
                        k->freed,
                        k->uses};
        feed(user, f, sizeof f);
    }
    /* Objects in handle order: the table's own order is no state. */
    GPtrArray *keys = sorted_keys(ra->objs);
    for (guint i = 0; i < keys->len; i++) {
        const gint64 *key = g_ptr_array_index(keys, i);
        const GArray *a = g_hash_table_lookup(ra->objs, key);
        int64_t h[2] = {*key, a->len};
        feed(user, h, sizeof h);
        for (guint j = 0; j < a->len; j++) {
            const attr *at = &g_array_index(a, attr, j);
            int64_t f[2] = {at->kv, (int64_t)(intptr_t)at->value};
            feed(user, f, sizeof f);
        }
    }
    g_ptr_array_free(keys, TRUE);
}
