/*
 * shmem_psync.c - the pSync rules of OpenSHMEM's collectives (see
 * shmem_psync.h).  Only the last two uses of each array are kept: the one
 * in progress and the one before it, which every PE entering the current
 * one must be done with.
 */
#include "simulator/shmem_psync.h"

#include <glib.h>

#include "simulator/access.h"
#include "simulator/report.h"
#include "simulator/sim_internal.h"

typedef struct psync_use {
    uint64_t seq;
    const char *call;
    bool barrier;
    shm_set set;
    bool *left;   /* [n] */
    sim_vc **vc;  /* [n]: each PE's clock at its return */
    void **sites; /* [n]: each PE's call */
} psync_use;

typedef struct psync_rec {
    uint64_t id;
    psync_use *cur, *prev;
} psync_rec;

static GHashTable *g_recs; /* id -> psync_rec * */
static int g_n;

static void use_free(psync_use *u) {
    if (!u)
        return;
    for (int i = 0; i < g_n; i++)
        sim_vc_free(u->vc[i]);
    g_free(u->vc);
    g_free(u->left);
    g_free(u->sites);
    g_free(u);
}

static void rec_free(gpointer p) {
    psync_rec *r = p;
    use_free(r->cur);
    use_free(r->prev);
    g_free(r);
}

void sim_shmem_psync_init(int npes) {
    g_n = npes;
    g_recs = NULL; /* made by the first collective */
}

void sim_shmem_psync_fini(void) {
    if (g_recs)
        g_hash_table_destroy(g_recs);
    g_recs = NULL;
}

static bool same_set(shm_set a, shm_set b) {
    return a.start == b.start && a.size == b.size && (a.size == 1 || a.logstride == b.logstride);
}

char *sim_shmem_psync_enter(int self, const char *arg, uint64_t id, uint64_t seq, bool barrier,
                            shm_set set, const char *call, void *site) {
    if (!g_recs)
        g_recs = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, rec_free);
    psync_rec *r = g_hash_table_lookup(g_recs, &id);
    if (!r) {
        r = g_new0(psync_rec, 1);
        r->id = id;
        g_hash_table_insert(g_recs, &r->id, r);
    }
    if (!r->cur || r->cur->seq != seq) { /* the first PE of a new use */
        use_free(r->prev);
        r->prev = r->cur;
        psync_use *u = g_new0(psync_use, 1);
        u->seq = seq;
        u->call = call;
        u->barrier = barrier;
        u->set = set;
        u->left = g_new0(bool, (size_t)g_n);
        u->vc = g_new0(sim_vc *, (size_t)g_n);
        u->sites = g_new0(void *, (size_t)g_n);
        r->cur = u;
    }
    r->cur->sites[self] = site;
    const psync_use *p = r->prev;
    if (!p || (p->barrier && barrier && same_set(p->set, set)))
        return NULL;
    for (int k = 0; k < p->set.size; k++) {
        int q = p->set.start + (k << p->set.logstride);
        if (q == self || q < 0 || q >= g_n)
            continue;
        char *where = g_strdup(p->sites[q] ? sim_location(p->sites[q]) : "?");
        char *why = NULL;
        if (!p->left[q])
            why = g_strdup_printf(
                "%s is still in use: PE %d has not returned from %s%s%s, which used the same "
                "%s array; every PE of the active set must be done with a collective before "
                "its %s serves another (OpenSHMEM 1.4 section 9.9: a barrier or "
                "shmem_sync_all between them)",
                arg, q, p->call, p->sites[q] ? " at " : " (it has not called it yet)",
                p->sites[q] ? where : "", arg, arg);
        else if (!sim_vc_before(p->vc[q], q, self))
            why = g_strdup_printf(
                "%s is reused too early: nothing orders PE %d's return from %s at %s, which "
                "used the same %s array, before this call, so PE %d may still be using it; "
                "OpenSHMEM 1.4 section 9.9 asks for a barrier or shmem_sync_all between them "
                "(or another %s array)",
                arg, q, p->call, where, arg, q, arg);
        g_free(where);
        if (why)
            return why;
    }
    return NULL;
}

void sim_shmem_psync_leave(int self, uint64_t id, uint64_t seq) {
    psync_rec *r = g_recs ? g_hash_table_lookup(g_recs, &id) : NULL;
    if (!r || !r->cur || r->cur->seq != seq)
        return;
    r->cur->left[self] = true;
    sim_vc_free(r->cur->vc[self]);
    r->cur->vc[self] = sim_access_release(self);
}

static void use_digest(const psync_use *u, sim_digest_feed feed, void *user) {
    if (!u) {
        int64_t none = -1;
        feed(user, &none, sizeof none);
        return;
    }
    int64_t f[4] = {u->barrier, u->set.start, u->set.logstride, u->set.size};
    feed(user, f, sizeof f);
    feed(user, u->left, sizeof(bool) * (size_t)g_n);
}

void sim_shmem_psync_digest(sim_digest_feed feed, void *user) {
    if (!g_recs)
        return;
    /* In the order of the arrays' names: the table's order is not stable. */
    GArray *ids = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, g_recs);
    while (g_hash_table_iter_next(&it, &k, &v))
        g_array_append_val(ids, ((psync_rec *)v)->id);
    for (guint i = 1; i < ids->len; i++) /* insertion sort: few arrays */
        for (guint j = i;
             j > 0 && g_array_index(ids, uint64_t, j - 1) > g_array_index(ids, uint64_t, j); j--) {
            uint64_t t = g_array_index(ids, uint64_t, j);
            g_array_index(ids, uint64_t, j) = g_array_index(ids, uint64_t, j - 1);
            g_array_index(ids, uint64_t, j - 1) = t;
        }
    for (guint i = 0; i < ids->len; i++) {
        const psync_rec *r = g_hash_table_lookup(g_recs, &g_array_index(ids, uint64_t, i));
        feed(user, &r->id, sizeof r->id);
        use_digest(r->cur, feed, user);
        use_digest(r->prev, feed, user);
    }
    g_array_free(ids, TRUE);
}
