/*
 * rma.c - windows, their operations, free, reports and the state digest
 * (see rma.h); the synchronisation calls are in rma_sync.c.
 */
#include "simulator/rma.h"
#include "simulator/rma_internal.h"

#include <stdarg.h>
#include <string.h>

#include "scheduler/arena.h"
#include "scheduler/sched.h"
#include "simulator/engine.h"
#include "simulator/info.h"
#include "simulator/report.h"
#include "simulator/sim_internal.h"

rma_state sim_rma_state;

void sim_rma_init(int nranks) {
    memset(&R, 0, sizeof R);
    R.nranks = nranks;
    R.wins = g_ptr_array_new();
    g_queue_init(&R.lockq);
    R.wait = g_new0(rma_wait, nranks);
    R.alloc_mem = g_hash_table_new(g_direct_hash, g_direct_equal);
}

void sim_rma_alloc_mem_note(void *p, int rank) {
    g_hash_table_insert(R.alloc_mem, p, GINT_TO_POINTER(rank + 1));
}

bool sim_rma_alloc_mem_take(void *p, int rank) {
    if (GPOINTER_TO_INT(g_hash_table_lookup(R.alloc_mem, p)) != rank + 1)
        return false;
    g_hash_table_remove(R.alloc_mem, p);
    return true;
}

void rma_op_free(sim_rma_op *op) {
    for (int i = 0; i < 3; i++)
        if (op->dt[i])
            sim_dt_unref(op->dt[i]);
    g_free(op);
}

void rma_win_release(sim_win *w) {
    g_queue_clear_full(&w->pending, (GDestroyNotify)rma_op_free);
    for (int i = 0; i < w->size; i++) {
        sim_win_member *m = &w->m[i];
        if (m->regions)
            g_array_free(m->regions, TRUE);
        m->regions = NULL;
        g_free(m->start_group);
        g_free(m->post_group);
        g_free(m->lock);
        g_free(m->lock_site);
        m->start_group = m->post_group = NULL;
        m->lock = NULL;
        m->lock_site = NULL;
    }
    g_free(w->excl);
    g_free(w->shared);
    g_free(w->posts);
    g_free(w->starts);
    g_free(w->completes);
    w->excl = w->shared = NULL;
    w->posts = w->starts = w->completes = NULL;
}

void sim_rma_fini(void) {
    if (!R.wins)
        return;
    for (guint i = 0; i < R.wins->len; i++) {
        sim_win *w = g_ptr_array_index(R.wins, i);
        rma_win_release(w);
        g_free(w->m);
        g_free(w);
    }
    g_ptr_array_free(R.wins, TRUE);
    g_queue_clear_full(&R.lockq, g_free);
    g_queue_clear(&R.atomq); /* the batches live in their origins' calls */
    g_free(R.wait);
    g_hash_table_destroy(R.alloc_mem);
    memset(&R, 0, sizeof R);
}

void sim_rma_set_observer(const sim_rma_observer *obs) {
    R.has_obs = obs != NULL;
    if (obs)
        R.obs = *obs;
}

void rma_hook_issued(const sim_win *w, const sim_rma_op *op) {
    if (R.has_obs && R.obs.issued)
        R.obs.issued(w, op, R.obs.user);
}

static void hook_applied(const sim_win *w, const sim_rma_op *op) {
    if (R.has_obs && R.obs.applied)
        R.obs.applied(w, op, R.obs.user);
}

void rma_hook_window(const sim_win *w, bool created) {
    if (R.has_obs && R.obs.window)
        R.obs.window(w, created, R.obs.user);
}

void rma_hook_region(const sim_win *w, int me, void *base, MPI_Aint size, bool attached) {
    if (R.has_obs && R.obs.region)
        R.obs.region(w, me, base, size, attached, R.obs.user);
}

void rma_hook_request(const sim_win *w, const sim_rma_op *op, sim_request *req) {
    if (R.has_obs && R.obs.request)
        R.obs.request(w, op, req, R.obs.user);
}

void rma_hook_sync(const sim_win *w, int rank, sim_rma_sync_kind kind, int peer) {
    if (R.has_obs && R.obs.sync)
        R.obs.sync(w, rank, kind, peer, R.obs.user);
}

/* ---------------------------------------------------------------------- */
/* Handles and errors                                                      */

int rma_world_of(const sim_win *w, int r) {
    return w->m[r].world;
}

int sim_win_check(MPI_Win win, const char *call, sim_win **out, int *me) {
    int self = sim_self();
    const char *why = NULL;
    sim_win *w = NULL;
    *out = NULL;
    if (win == MPI_WIN_NULL) {
        why = "is MPI_WIN_NULL";
    } else if (SIM_HANDLE_KIND(win) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(win) != SIM_OBJ_WIN) {
        why = "is not a window handle";
    } else if (SIM_HANDLE_INDEX(win) >= R.wins->len) {
        why = "was never created (an uninitialised or corrupted handle?)";
    } else {
        w = g_ptr_array_index(R.wins, SIM_HANDLE_INDEX(win));
        if (!w->live)
            why = "was freed by MPI_Win_free";
        else if ((*me = sim_comm_rank(w->comm, self)) < 0)
            why = "names a window this rank is not a member of";
    }
    if (why)
        return sim_error(MPI_COMM_NULL, MPI_ERR_WIN, "%s: the window 0x%08x %s", call,
                         (unsigned)win, why);
    *out = w;
    return MPI_SUCCESS;
}

MPI_Win sim_rma_win_of_comm(const sim_comm *c) {
    for (guint i = 0; R.wins && i < R.wins->len; i++) {
        const sim_win *w = g_ptr_array_index(R.wins, i);
        if (w->comm == c)
            return w->handle;
    }
    return MPI_WIN_NULL;
}

int sim_win_error(const sim_win *w, int errclass, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    int rc = sim_error(w->comm->handle, errclass, "%s", msg);
    g_free(msg);
    return rc;
}

/* The same for an error that belongs to an operation issued earlier. */
static int op_error(const sim_win *w, int errclass, const sim_rma_op *op, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
static int op_error(const sim_win *w, int errclass, const sim_rma_op *op, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    int rc = sim_error_at(w->comm->handle, errclass, op->call_site, "%s", msg);
    g_free(msg);
    return rc;
}

MPI_Errhandler sim_win_errhandler(const sim_win *w, int me) {
    return sim_comm_errhandler(w->comm, rma_world_of(w, me));
}

void sim_win_set_errhandler(sim_win *w, int me, MPI_Errhandler errh) {
    sim_comm_set_errhandler(w->comm, rma_world_of(w, me), errh);
}

/* "ranks 1, 3" or "rank 2" for world ranks. */
char *rma_ranks_text(const int *world, int n) {
    GString *s = g_string_new(n == 1 ? "rank " : "ranks ");
    for (int i = 0; i < n && i < 8; i++)
        g_string_append_printf(s, i ? ", %d" : "%d", world[i]);
    if (n > 8)
        g_string_append(s, ", ...");
    return g_string_free(s, FALSE);
}

/* The same for window ranks. */
char *rma_win_ranks_text(const sim_win *w, const int *r, int n) {
    int *world = g_new(int, n > 0 ? (gsize)n : 1);
    for (int i = 0; i < n; i++)
        world[i] = rma_world_of(w, r[i]);
    char *s = rma_ranks_text(world, n);
    g_free(world);
    return s;
}

/* ---------------------------------------------------------------------- */
/* Applying operations                                                     */

typedef struct apply_ctx {
    const sim_rma_op *op;
    int rc;
    char *why;
} apply_ctx;

static void apply_cb(void *p) {
    apply_ctx *a = p;
    a->rc = sim_rma_apply(&a->op->x, &a->why);
}

/* Performs op now.  Returns MPI_SUCCESS, or an error class with *why. */
static int apply_op(sim_win *w, sim_rma_op *op, char **why) {
    apply_ctx a = {op, MPI_SUCCESS, NULL};
    sched_fault fault;
    if (!sched_protected(apply_cb, &a, &fault)) {
        a.rc = MPI_ERR_BUFFER;
        g_free(a.why);
        a.why = g_strdup_printf("a buffer of the operation cannot be accessed (invalid address "
                                "%p)",
                                fault.addr);
    }
    /* The target's memory changed, and the origin's for a fetch. */
    sim_touch_rank(rma_world_of(w, op->target));
    sim_touch_rank(rma_world_of(w, op->origin));
    hook_applied(w, op);
    *why = a.why;
    return a.rc;
}

/* Applies, in issue order, origin's pending operations to target (-1:
 * to every target), up to and including `upto` when it is not NULL.
 * Stops at the first that fails: returns its error class with *failed
 * (to free) and *why set. */
int rma_apply_pending(sim_win *w, int origin, int target, const sim_rma_op *upto,
                      sim_rma_op **failed, char **why) {
    *failed = NULL;
    *why = NULL;
    for (GList *l = w->pending.head; l;) {
        GList *next = l->next;
        sim_rma_op *op = l->data;
        if (op->origin == origin && (target < 0 || op->target == target)) {
            g_queue_delete_link(&w->pending, l);
            int rc = apply_op(w, op, why);
            if (rc != MPI_SUCCESS) {
                *failed = op;
                return rc;
            }
            bool last = op == upto;
            rma_op_free(op);
            if (last)
                break;
        }
        l = next;
    }
    return MPI_SUCCESS;
}

/* Whether origin's operations that rma_apply_pending would apply include
 * an accumulate (whose order among origins the program can see). */
static bool batch_has_atomic(const sim_win *w, int origin, int target, const sim_rma_op *upto) {
    for (GList *l = w->pending.head; l; l = l->next) {
        const sim_rma_op *op = l->data;
        if (op->origin != origin || (target >= 0 && op->target != target))
            continue;
        if (op->x.kind != SIM_RMA_PUT && op->x.kind != SIM_RMA_GET)
            return true;
        if (op == upto)
            break;
    }
    return false;
}

bool rma_has_accumulates(const sim_win *w, int origin) {
    return batch_has_atomic(w, origin, -1, NULL);
}

/* rma_apply_pending from the origin's own call (named `call`), reporting a
 * failure at the operation's call site.  Accumulates wait for their turn:
 * a SIM_EV_ATOMIC event applies them (sim_rma_fire_atomic). */
int rma_complete_ops(sim_win *w, int origin, int target, const sim_rma_op *upto, const char *call) {
    sim_rma_op *failed;
    char *why;
    int rc;
    int self = sim_self();
    if (self >= 0 && batch_has_atomic(w, origin, target, upto)) {
        rma_atomic_batch *b = g_new0(rma_atomic_batch, 1);
        b->win = w;
        b->origin = origin;
        b->target = target;
        b->upto = upto;
        b->seq = R.seq++;
        b->call = call;
        b->call_site = sim_proc_of(self)->call_site;
        g_queue_push_tail(&R.atomq, b);
        sim_events_changed();
        while (!b->done) {
            R.wait[self] = (rma_wait){RMA_WAIT_ATOMIC, w, NULL};
            sched_block();
        }
        R.wait[self] = (rma_wait){RMA_WAIT_NONE, NULL, NULL};
        rc = b->rc;
        failed = b->failed;
        why = b->why;
        g_free(b);
    } else {
        rc = rma_apply_pending(w, origin, target, upto, &failed, &why);
    }
    if (rc != MPI_SUCCESS) {
        rc = op_error(w, rc, failed, "%s (to rank %d, completed by %s at %s): %s", failed->call,
                      rma_world_of(w, failed->target), call,
                      sim_location(sim_proc_of(sim_self())->call_site), why ? why : "failed");
        g_free(why);
        rma_op_free(failed);
    }
    return rc;
}

int rma_pending_count(const sim_win *w, int origin, const sim_rma_op **first) {
    int n = 0;
    *first = NULL;
    for (GList *l = w->pending.head; l; l = l->next) {
        const sim_rma_op *op = l->data;
        if (op->origin == origin && n++ == 0)
            *first = op;
    }
    return n;
}

/* ---------------------------------------------------------------------- */
/* Window collectives                                                      */

static sim_win *win_new(sim_comm *parent, int flavor) {
    sim_win *w = g_new0(sim_win, 1);
    w->index = (int)R.wins->len;
    w->handle = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_WIN, w->index);
    w->flavor = flavor;
    char *how = g_strdup_printf("window 0x%08x", (unsigned)w->handle);
    w->comm = sim_comm_make_private(parent, how);
    g_free(how);
    w->size = parent->size;
    w->m = g_new0(sim_win_member, w->size);
    w->excl = g_new(int, w->size);
    w->shared = g_new0(int, w->size);
    size_t nn = (size_t)w->size * (size_t)w->size;
    w->posts = g_new0(uint64_t, nn);
    w->starts = g_new0(uint64_t, nn);
    w->completes = g_new0(uint64_t, nn);
    g_queue_init(&w->pending);
    for (int i = 0; i < w->size; i++) {
        sim_win_member *m = &w->m[i];
        w->excl[i] = -1;
        m->world = sim_comm_world(parent, i);
        m->lock = g_new0(uint8_t, w->size);
        m->lock_site = g_new0(void *, w->size);
    }
    w->live = true;
    g_ptr_array_add(R.wins, w);
    return w;
}

int rma_exec_create(sim_coll *c, int *err_rank, char **why) {
    sim_comm *parent = c->comm;
    int n = parent->size;
    int flavor = c->kind == SIM_COLL_WIN_ALLOCATE          ? MPI_WIN_FLAVOR_ALLOCATE
                 : c->kind == SIM_COLL_WIN_ALLOCATE_SHARED ? MPI_WIN_FLAVOR_SHARED
                 : c->kind == SIM_COLL_WIN_CREATE_DYNAMIC  ? MPI_WIN_FLAVOR_DYNAMIC
                                                           : MPI_WIN_FLAVOR_CREATE;
    char *block = NULL;
    if (flavor == MPI_WIN_FLAVOR_SHARED) {
        int node0 = sim_node_of(sim_comm_world(parent, 0));
        size_t total = 0;
        for (int r = 0; r < n; r++) {
            const sim_rma_coll_args *a = c->args[r].rma;
            int node = sim_node_of(sim_comm_world(parent, r));
            if (node != node0) {
                *err_rank = r;
                *why = g_strdup_printf("MPI_Win_allocate_shared: rank %d is on node %d but rank %d "
                                       "on node %d; a shared-memory window needs a communicator of "
                                       "one node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED)",
                                       sim_comm_world(parent, r), node, sim_comm_world(parent, 0),
                                       node0);
                return MPI_ERR_RMA_SHARED;
            }
            total += (size_t)a->size;
        }
        int owner = sim_comm_world(parent, 0);
        block = sched_arena_memalign(sched_arena_of(owner), 64, total ? total : 1);
        if (!block) {
            *err_rank = -1;
            *why = g_strdup_printf("MPI_Win_allocate_shared: the window's %zu bytes do not fit "
                                   "into the heap of rank %d, which holds them (raise "
                                   "--heap-size)",
                                   total, owner);
            return MPI_ERR_NO_MEM;
        }
        memset(block, 0, total ? total : 1);
    }
    sim_win *w = win_new(parent, flavor);
    size_t offset = 0;
    for (int r = 0; r < n; r++) {
        const sim_rma_coll_args *a = c->args[r].rma;
        sim_win_member *m = &w->m[r];
        m->size = a->size;
        m->disp_unit = a->disp_unit;
        m->owned = a->owned;
        if (block) {
            m->base = block + offset;
            offset += (size_t)a->size;
            *(void **)a->baseptr = m->base;
        } else {
            m->base = a->base;
        }
        if (flavor == MPI_WIN_FLAVOR_DYNAMIC)
            m->regions = g_array_new(FALSE, FALSE, sizeof(sim_win_region));
        m->attr_base = m->base;
        m->attr_size = m->size;
        m->attr_disp_unit = m->disp_unit;
        m->attr_flavor = flavor;
        m->attr_model = sim_g->cfg.rma_separate ? MPI_WIN_SEPARATE : MPI_WIN_UNIFIED;
        *a->out = w->handle;
        /* Every member's hints at once: another member may act on them
         * (lock it) before this one returns. */
        sim_hints_set(m->world, SIM_HINT_WIN, w->handle, a->hints);
    }
    w->shared_block = block;
    if (block)
        R.nshared++;
    rma_hook_window(w, true);
    return MPI_SUCCESS;
}
/* ---------------------------------------------------------------------- */
/* Reports                                                                 */

static void add_rank(GArray *to, int world) {
    for (guint i = 0; i < to->len; i++)
        if (g_array_index(to, int, i) == world)
            return;
    g_array_append_val(to, world);
}

void sim_rma_waits_of(int rank, GArray *to) {
    const rma_wait *wt = &R.wait[rank];
    const sim_win *w = wt->win;
    if (wt->kind == RMA_WAIT_NONE || !w)
        return;
    int me = sim_comm_rank(w->comm, rank);
    const sim_win_member *m = &w->m[me];
    if (wt->kind == RMA_WAIT_COMPLETE) {
        for (int i = 0; i < m->nstart; i++)
            if (!rma_posted_for(w, me, m->start_group[i]))
                add_rank(to, rma_world_of(w, m->start_group[i]));
    } else if (wt->kind == RMA_WAIT_WAIT) {
        for (int i = 0; i < m->npost; i++)
            if (!rma_completed_for(w, me, m->post_group[i]))
                add_rank(to, rma_world_of(w, m->post_group[i]));
    } else if (wt->kind == RMA_WAIT_LOCK && wt->req) {
        const rma_lockreq *q = wt->req;
        int from = q->target < 0 ? 0 : q->target, upto = q->target < 0 ? w->size : q->target + 1;
        for (int t = from; t < upto; t++) {
            if (w->excl[t] >= 0)
                add_rank(to, rma_world_of(w, w->excl[t]));
            if (q->type == SIM_LK_EXCLUSIVE && w->shared[t] > 0)
                for (int o = 0; o < w->size; o++)
                    if (w->m[o].lock_all || w->m[o].lock[t] == SIM_LK_SHARED)
                        add_rank(to, rma_world_of(w, o));
        }
    }
}

void sim_rma_report_leftovers(void) {
    for (guint i = 0; R.wins && i < R.wins->len; i++) {
        sim_win *w = g_ptr_array_index(R.wins, i);
        if (!w->live)
            continue;
        for (int o = 0; o < w->size; o++) {
            const sim_win_member *m = &w->m[o];
            int ranks[1] = {m->world};
            const sim_rma_op *first;
            int n = rma_pending_count(w, o, &first);
            if (n)
                sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(first->call_site),
                                g_strdup_printf("rank %d: %d RMA operation%s on window 0x%08x "
                                                "never took effect (the first: %s to rank %d): "
                                                "no synchronisation completed %s",
                                                m->world, n, n == 1 ? "" : "s", (unsigned)w->handle,
                                                first->call, rma_world_of(w, first->target),
                                                n == 1 ? "it" : "them"),
                                NULL);
            for (int t = 0; t < w->size; t++)
                if (m->lock[t])
                    sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(m->lock_site[t]),
                                    g_strdup_printf("rank %d ended holding its lock on rank %d of "
                                                    "window 0x%08x (no MPI_Win_unlock)",
                                                    m->world, rma_world_of(w, t),
                                                    (unsigned)w->handle),
                                    NULL);
            if (m->lock_all)
                sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(m->lock_all_site),
                                g_strdup_printf("rank %d ended holding the locks of "
                                                "MPI_Win_lock_all on window 0x%08x (no "
                                                "MPI_Win_unlock_all)",
                                                m->world, (unsigned)w->handle),
                                NULL);
            if (m->started)
                sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(m->start_site),
                                g_strdup_printf("rank %d ended with the access epoch of "
                                                "MPI_Win_start open on window 0x%08x (no "
                                                "MPI_Win_complete)",
                                                m->world, (unsigned)w->handle),
                                NULL);
            if (m->exposing)
                sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(m->post_site),
                                g_strdup_printf("rank %d ended with the exposure epoch of "
                                                "MPI_Win_post open on window 0x%08x (no "
                                                "MPI_Win_wait)",
                                                m->world, (unsigned)w->handle),
                                NULL);
        }
    }
}

/* ---------------------------------------------------------------------- */
/* State                                                                   */

void sim_rma_rank_entered(int rank) {
    if (!R.nshared)
        return;
    for (guint i = 0; i < R.wins->len; i++) {
        const sim_win *w = g_ptr_array_index(R.wins, i);
        if (!w->live || !w->shared_block || w->m[0].world == rank)
            continue;
        if (sim_comm_rank(w->comm, rank) >= 0)
            sim_touch_rank(w->m[0].world);
    }
}

static void feed_i64(sim_digest_feed feed, void *user, const int64_t *v, size_t n) {
    feed(user, v, sizeof(int64_t) * n);
}

static gint op_by_origin(gconstpointer a, gconstpointer b) {
    const sim_rma_op *x = *(sim_rma_op *const *)a, *y = *(sim_rma_op *const *)b;
    return x->origin < y->origin ? -1 : x->origin > y->origin;
}

static gint req_by_origin(gconstpointer a, gconstpointer b) {
    const rma_lockreq *x = *(rma_lockreq *const *)a, *y = *(rma_lockreq *const *)b;
    if (x->win->index != y->win->index)
        return x->win->index < y->win->index ? -1 : 1;
    if (x->origin != y->origin)
        return x->origin < y->origin ? -1 : 1;
    return x->target < y->target ? -1 : x->target > y->target;
}

static void digest_window(const sim_win *w, sim_digest_feed feed, void *user) {
    int64_t head[3] = {-3, w->index, w->flavor};
    feed_i64(feed, user, head, 3);
    size_t n = (size_t)w->size;
    for (int r = 0; r < w->size; r++) {
        const sim_win_member *m = &w->m[r];
        int64_t f[7] = {m->fence, m->started, m->nstart,  m->exposing,
                        m->npost, m->nlocks,  m->lock_all};
        feed_i64(feed, user, f, 7);
        if (m->started)
            feed(user, m->start_group, sizeof(int) * (size_t)m->nstart);
        if (m->exposing)
            feed(user, m->post_group, sizeof(int) * (size_t)m->npost);
        if (m->nlocks)
            feed(user, m->lock, n);
        if (m->regions) { /* what may be accessed next */
            int64_t k = m->regions->len;
            feed_i64(feed, user, &k, 1);
            feed(user, m->regions->data, sizeof(sim_win_region) * m->regions->len);
        }
    }
    /* PSCW matching: only how far posts and starts, completes and posts
     * are apart decides what comes next, not how many came before. */
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            int64_t d1 = (int64_t)w->posts[a * n + b] - (int64_t)w->starts[b * n + a];
            int64_t d2 = (int64_t)w->completes[b * n + a] - (int64_t)w->posts[a * n + b];
            if (d1 || d2) {
                int64_t f[4] = {(int64_t)a, (int64_t)b, d1, d2};
                feed_i64(feed, user, f, 4);
            }
        }
    /* Operations not applied yet: one origin's stay in issue order; how
     * origins interleave in the queue is not state. */
    GPtrArray *ops = g_ptr_array_new();
    for (GList *l = w->pending.head; l; l = l->next)
        g_ptr_array_add(ops, l->data);
    g_ptr_array_sort(ops, op_by_origin);
    for (guint i = 0; i < ops->len; i++) {
        const sim_rma_op *op = g_ptr_array_index(ops, i);
        const sim_rma_xfer *x = &op->x;
        int64_t f[15] = {op->origin,
                         op->target,
                         x->kind,
                         (int64_t)(intptr_t)x->origin,
                         x->ocount,
                         x->otype,
                         (int64_t)(intptr_t)x->result,
                         x->rcount,
                         x->rtype,
                         (int64_t)(intptr_t)x->compare,
                         (int64_t)(intptr_t)x->target,
                         x->tcount,
                         x->ttype,
                         x->op,
                         (int64_t)(intptr_t)op->call_site};
        feed_i64(feed, user, f, 15);
    }
    g_ptr_array_free(ops, TRUE);
}

void sim_rma_digest(sim_digest_feed feed, void *user) {
    if (!R.wins || !R.wins->len)
        return;
    for (guint i = 0; i < R.wins->len; i++) {
        const sim_win *w = g_ptr_array_index(R.wins, i);
        if (w->live)
            digest_window(w, feed, user);
    }
    if (R.lockq.length) {
        GPtrArray *reqs = g_ptr_array_new();
        for (GList *l = R.lockq.head; l; l = l->next)
            g_ptr_array_add(reqs, l->data);
        g_ptr_array_sort(reqs, req_by_origin);
        for (guint i = 0; i < reqs->len; i++) {
            const rma_lockreq *q = g_ptr_array_index(reqs, i);
            int64_t f[5] = {-4, q->win->index, q->origin, q->target, q->type};
            feed_i64(feed, user, f, 5);
        }
        g_ptr_array_free(reqs, TRUE);
    }
    for (int r = 0; r < R.nranks; r++)
        if (R.wait[r].kind != RMA_WAIT_NONE) {
            int64_t f[4] = {-5, r, R.wait[r].kind, R.wait[r].win ? R.wait[r].win->index : -1};
            feed_i64(feed, user, f, 4);
        }
    /* Accumulates waiting for their turn: each origin has one batch at most,
     * so origin order is canonical. */
    for (int o = 0; o < R.nranks; o++)
        for (GList *l = R.atomq.head; l; l = l->next) {
            const rma_atomic_batch *b = l->data;
            if (rma_world_of(b->win, b->origin) == o) {
                int64_t f[4] = {-6, b->win->index, b->origin, b->target};
                feed_i64(feed, user, f, 4);
            }
        }
}
