/*
 * held.c - the handles each rank holds, and the leak report at the end of
 * a run (see held.h).
 */
#include "simulator/held.h"

#include <string.h>

#include "simulator/engine.h"
#include "simulator/report.h"
#include "simulator/sim_internal.h"

/* How reports speak of each kind of object. */
static const struct {
    const char *one;   /* "a communicator" */
    const char *many;  /* "communicators" */
    const char *made;  /* "made" */
    const char *freed; /* "freed" */
    const char *free;  /* the call that gives it back */
} names[SIM_HELD_KIND_COUNT] = {
    [SIM_HELD_COMM] = {"a communicator", "communicators", "made", "freed", "MPI_Comm_free"},
    [SIM_HELD_GROUP] = {"a group", "groups", "made", "freed", "MPI_Group_free"},
    [SIM_HELD_DATATYPE] = {"a datatype", "datatypes", "made", "freed", "MPI_Type_free"},
    [SIM_HELD_OP] = {"a user-defined operation", "user-defined operations", "made", "freed",
                     "MPI_Op_free"},
    [SIM_HELD_REQUEST] = {"a persistent request", "persistent requests", "made", "freed",
                          "MPI_Request_free"},
    [SIM_HELD_WIN] = {"a window", "windows", "made", "freed", "MPI_Win_free"},
    [SIM_HELD_INFO] = {"an info object", "info objects", "made", "freed", "MPI_Info_free"},
    [SIM_HELD_ERRHANDLER] = {"an error handler", "error handlers", "made", "freed",
                             "MPI_Errhandler_free"},
    [SIM_HELD_BUFFER] = {"a buffer", "buffers", "attached", "detached", "MPI_Buffer_detach"},
};

/* One copy of a handle: where it was made. */
typedef struct held_copy {
    const char *call;
    void *site;
} held_copy;

/* Per rank: key (kind << 32 | handle) -> GArray of held_copy, the last
 * added last; NULL until the rank holds something. */
static GHashTable **g_held;
static int g_nranks;

static uint64_t key_of(sim_held_kind kind, uint32_t handle) {
    return (uint64_t)kind << 32 | handle;
}

static void copies_free(gpointer p) {
    g_array_free(p, TRUE);
}

void sim_held_init(int nranks) {
    sim_held_fini();
    g_nranks = nranks;
    g_held = g_new0(GHashTable *, nranks);
}

void sim_held_fini(void) {
    for (int r = 0; g_held && r < g_nranks; r++)
        if (g_held[r])
            g_hash_table_destroy(g_held[r]);
    g_free(g_held);
    g_held = NULL;
    g_nranks = 0;
}

void sim_held_add(int rank, sim_held_kind kind, uint32_t handle, const char *call, void *site) {
    if (!g_held || rank < 0 || rank >= g_nranks)
        return;
    if (!g_held[rank])
        g_held[rank] = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, copies_free);
    uint64_t key = key_of(kind, handle);
    GArray *copies = g_hash_table_lookup(g_held[rank], &key);
    if (!copies) {
        copies = g_array_new(FALSE, FALSE, sizeof(held_copy));
        g_hash_table_insert(g_held[rank], g_memdup2(&key, sizeof key), copies);
    }
    held_copy c = {call, site};
    g_array_append_val(copies, c);
}

void sim_held_add_here(sim_held_kind kind, uint32_t handle) {
    int self = sim_self();
    const sim_proc *p = sim_proc_of(self);
    sim_held_add(self, kind, handle, p->call, p->call_site);
}

bool sim_held_drop(int rank, sim_held_kind kind, uint32_t handle) {
    if (!g_held || rank < 0 || rank >= g_nranks || !g_held[rank])
        return false;
    uint64_t key = key_of(kind, handle);
    GArray *copies = g_hash_table_lookup(g_held[rank], &key);
    if (!copies)
        return false;
    g_array_set_size(copies, copies->len - 1);
    if (copies->len == 0)
        g_hash_table_remove(g_held[rank], &key);
    return true;
}

bool sim_held_drop_here(sim_held_kind kind, uint32_t handle) {
    return sim_held_drop(sim_self(), kind, handle);
}

static gint cmp_u64(gconstpointer a, gconstpointer b) {
    uint64_t x = **(const uint64_t *const *)a, y = **(const uint64_t *const *)b;
    return x < y ? -1 : x > y;
}

/* The rank's keys, sorted (g_ptr_array_free; the keys are the table's). */
static GPtrArray *sorted_keys(int rank) {
    GPtrArray *keys = g_ptr_array_new();
    if (g_held && rank >= 0 && rank < g_nranks && g_held[rank]) {
        GHashTableIter it;
        gpointer k;
        g_hash_table_iter_init(&it, g_held[rank]);
        while (g_hash_table_iter_next(&it, &k, NULL))
            g_ptr_array_add(keys, k);
        g_ptr_array_sort(keys, cmp_u64);
    }
    return keys;
}

void sim_held_digest(int rank, sim_digest_feed feed, void *user) {
    if (!g_held || rank < 0 || rank >= g_nranks || !g_held[rank])
        return; /* most ranks hold nothing: no allocation */
    GPtrArray *keys = sorted_keys(rank);
    for (guint i = 0; i < keys->len; i++) {
        const uint64_t *key = g_ptr_array_index(keys, i);
        const GArray *copies = g_hash_table_lookup(g_held[rank], key);
        feed(user, key, sizeof *key);
        uint64_t n = copies->len;
        feed(user, &n, sizeof n);
        for (guint c = 0; c < copies->len; c++) {
            const held_copy *hc = &g_array_index(copies, held_copy, c);
            uintptr_t v[2] = {(uintptr_t)hc->call, (uintptr_t)hc->site};
            feed(user, v, sizeof v);
        }
    }
    g_ptr_array_free(keys, TRUE);
}

/* ---------------------------------------------------------------------- */
/* The leak report                                                         */

/* What one creating call site of one kind of object left behind. */
typedef struct leak {
    sim_held_kind kind;
    const char *call;
    void *site;
    int count;
    GArray *ranks; /* int, ascending, distinct */
} leak;

typedef struct leaks {
    GPtrArray *list;   /* leak *, in the order found */
    GHashTable *index; /* "kind|call|file:line" -> leak * */
} leaks;

/* Grouped by source line, not by address: every rank runs its own copy of
 * the program. */
static void note(leaks *ls, int rank, sim_held_kind kind, const char *call, void *site) {
    char *k = g_strdup_printf("%d|%s|%s", (int)kind, call, sim_location(site));
    leak *l = g_hash_table_lookup(ls->index, k);
    if (!l) {
        l = g_new0(leak, 1);
        l->kind = kind;
        l->call = call;
        l->site = site;
        l->ranks = g_array_new(FALSE, FALSE, sizeof(int));
        g_hash_table_insert(ls->index, k, l);
        g_ptr_array_add(ls->list, l);
    } else {
        g_free(k);
    }
    l->count++;
    if (!l->ranks->len || g_array_index(l->ranks, int, l->ranks->len - 1) != rank)
        g_array_append_val(l->ranks, rank);
}

static gint req_order(gconstpointer a, gconstpointer b) {
    const sim_request *x = *(sim_request *const *)a, *y = *(sim_request *const *)b;
    if (x->owner != y->owner)
        return x->owner < y->owner ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static char *leak_message(const leak *l) {
    char *who = sim_ranks_text((const int *)(void *)l->ranks->data, (int)l->ranks->len);
    const char *verb = names[l->kind].freed;
    char *what = l->count == 1 ? g_strdup_printf("%s %s by %s was", names[l->kind].one,
                                                 names[l->kind].made, l->call)
                               : g_strdup_printf("%d %s %s by %s were", l->count,
                                                 names[l->kind].many, names[l->kind].made, l->call);
    char *msg = g_strdup_printf("%s never %s (%s) before MPI_Finalize (on %s)", what, verb,
                                names[l->kind].free, who);
    g_free(what);
    g_free(who);
    return msg;
}

void sim_held_report(void) {
    leaks ls = {g_ptr_array_new(), g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL)};
    /* Persistent requests first found per rank, so that the report lists a
     * rank's leaks together. */
    GPtrArray *reqs = sim_req_all();
    g_ptr_array_sort(reqs, req_order);
    guint next_req = 0;
    for (int r = 0; r < g_nranks; r++) {
        bool finalized = sim_proc_of(r)->finalized;
        GPtrArray *keys = finalized && g_held[r] ? sorted_keys(r) : g_ptr_array_new();
        for (guint i = 0; i < keys->len; i++) {
            const uint64_t *key = g_ptr_array_index(keys, i);
            const GArray *copies = g_hash_table_lookup(g_held[r], key);
            for (guint c = 0; c < copies->len; c++) {
                const held_copy *hc = &g_array_index(copies, held_copy, c);
                note(&ls, r, (sim_held_kind)(*key >> 32), hc->call, hc->site);
            }
        }
        g_ptr_array_free(keys, TRUE);
        for (; next_req < reqs->len; next_req++) {
            const sim_request *q = g_ptr_array_index(reqs, next_req);
            if (q->owner != r)
                break;
            /* An active one is a pending request, reported as such. */
            if (finalized && q->persistent && !q->active && q->index >= 0)
                note(&ls, r, SIM_HELD_REQUEST, q->call, q->made_site);
        }
    }
    g_ptr_array_free(reqs, TRUE);
    for (guint i = 0; i < ls.list->len; i++) {
        leak *l = g_ptr_array_index(ls.list, i);
        sim_add_finding(SIM_F_LEAK, (const int *)(void *)l->ranks->data, (int)l->ranks->len,
                        sim_location(l->site), leak_message(l), NULL);
        g_array_free(l->ranks, TRUE);
        g_free(l);
    }
    g_ptr_array_free(ls.list, TRUE);
    g_hash_table_destroy(ls.index);
}
