/*
 * rma.c - windows, epochs, pending operations and locks (see rma.h).
 */
#include "simulator/rma.h"

#include <stdarg.h>
#include <string.h>

#include "scheduler/arena.h"
#include "scheduler/sched.h"
#include "simulator/engine.h"
#include "simulator/report.h"
#include "simulator/sim_internal.h"

/* What a blocked rank waits for in an RMA call (reports, digest). */
typedef enum rma_wait_kind {
    RMA_WAIT_NONE,
    RMA_WAIT_COMPLETE, /* MPI_Win_complete: the targets' posts */
    RMA_WAIT_WAIT,     /* MPI_Win_wait: the origins' completes */
    RMA_WAIT_LOCK,     /* MPI_Win_lock(_all): the grant */
} rma_wait_kind;

typedef struct rma_lockreq {
    sim_win *win;
    int origin; /* window rank */
    int target; /* window rank, -1: every member (MPI_Win_lock_all) */
    int type;   /* SIM_LK_SHARED or SIM_LK_EXCLUSIVE */
    uint64_t seq;
    void *call_site;
    bool granted;
} rma_lockreq;

typedef struct rma_wait {
    rma_wait_kind kind;
    sim_win *win;
    rma_lockreq *req;
} rma_wait;

static struct {
    int nranks;
    GPtrArray *wins; /* sim_win * by handle index */
    GQueue lockq;    /* rma_lockreq * waiting, in request order */
    rma_wait *wait;  /* [nranks] */
    uint64_t seq;    /* operations and lock requests, in issue order */
    int nshared;     /* live windows of flavor shared */
    sim_rma_observer obs;
    bool has_obs;
    GHashTable *alloc_mem; /* MPI_Alloc_mem block -> its rank + 1 */
} R;

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

static void op_free(sim_rma_op *op) {
    for (int i = 0; i < 3; i++)
        if (op->dt[i])
            sim_dt_unref(op->dt[i]);
    g_free(op);
}

static void win_release(sim_win *w) {
    g_queue_clear_full(&w->pending, (GDestroyNotify)op_free);
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
        win_release(w);
        g_free(w->m);
        g_free(w);
    }
    g_ptr_array_free(R.wins, TRUE);
    g_queue_clear_full(&R.lockq, g_free);
    g_free(R.wait);
    g_hash_table_destroy(R.alloc_mem);
    memset(&R, 0, sizeof R);
}

void sim_rma_set_observer(const sim_rma_observer *obs) {
    R.has_obs = obs != NULL;
    if (obs)
        R.obs = *obs;
}

static void hook_issued(const sim_win *w, const sim_rma_op *op) {
    if (R.has_obs && R.obs.issued)
        R.obs.issued(w, op, R.obs.user);
}

static void hook_applied(const sim_win *w, const sim_rma_op *op) {
    if (R.has_obs && R.obs.applied)
        R.obs.applied(w, op, R.obs.user);
}

static void hook_sync(const sim_win *w, int rank, sim_rma_sync_kind kind, int peer) {
    if (R.has_obs && R.obs.sync)
        R.obs.sync(w, rank, kind, peer, R.obs.user);
}

/* ---------------------------------------------------------------------- */
/* Handles and errors                                                      */

static int world_of(const sim_win *w, int r) {
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
    return sim_comm_errhandler(w->comm, world_of(w, me));
}

void sim_win_set_errhandler(sim_win *w, int me, MPI_Errhandler errh) {
    sim_comm_set_errhandler(w->comm, world_of(w, me), errh);
}

/* "ranks 1, 3" or "rank 2" for world ranks. */
static char *ranks_text(const int *world, int n) {
    GString *s = g_string_new(n == 1 ? "rank " : "ranks ");
    for (int i = 0; i < n && i < 8; i++)
        g_string_append_printf(s, i ? ", %d" : "%d", world[i]);
    if (n > 8)
        g_string_append(s, ", ...");
    return g_string_free(s, FALSE);
}

/* The same for window ranks. */
static char *win_ranks_text(const sim_win *w, const int *r, int n) {
    int *world = g_new(int, n > 0 ? (gsize)n : 1);
    for (int i = 0; i < n; i++)
        world[i] = world_of(w, r[i]);
    char *s = ranks_text(world, n);
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
    sim_touch_rank(world_of(w, op->target));
    sim_touch_rank(world_of(w, op->origin));
    hook_applied(w, op);
    *why = a.why;
    return a.rc;
}

/* Applies, in issue order, origin's pending operations to target (-1:
 * to every target), up to and including `upto` when it is not NULL.
 * Stops at the first that fails: returns its error class with *failed
 * (to free) and *why set. */
static int apply_pending(sim_win *w, int origin, int target, const sim_rma_op *upto,
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
            op_free(op);
            if (last)
                break;
        }
        l = next;
    }
    return MPI_SUCCESS;
}

/* apply_pending from the origin's own call (named `call`), reporting a
 * failure at the operation's call site. */
static int complete_ops(sim_win *w, int origin, int target, const sim_rma_op *upto,
                        const char *call) {
    sim_rma_op *failed;
    char *why;
    int rc = apply_pending(w, origin, target, upto, &failed, &why);
    if (rc != MPI_SUCCESS) {
        rc = op_error(w, rc, failed, "%s (to rank %d, completed by %s at %s): %s", failed->call,
                      world_of(w, failed->target), call,
                      sim_location(sim_proc_of(sim_self())->call_site), why ? why : "failed");
        g_free(why);
        op_free(failed);
    }
    return rc;
}

static int pending_count(const sim_win *w, int origin, const sim_rma_op **first) {
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

static int exec_create(sim_coll *c, int *err_rank, char **why) {
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
        m->attr_model = MPI_WIN_UNIFIED;
        *a->out = w->handle;
    }
    w->shared_block = block;
    if (block)
        R.nshared++;
    return MPI_SUCCESS;
}

/* Fence assertions that all members must give alike (MPI 3.1 11.5.5). */
#define FENCE_UNIFORM (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)

static int exec_fence(sim_coll *c, int *err_rank, char **why) {
    const sim_rma_coll_args *a0 = c->args[0].rma;
    sim_win *w = a0->win;
    for (int r = 1; r < w->size; r++) {
        const sim_rma_coll_args *a = c->args[r].rma;
        if ((a->assert &FENCE_UNIFORM) != (a0->assert &FENCE_UNIFORM)) {
            *err_rank = r;
            *why = g_strdup_printf(
                "MPI_Win_fence: rank %d asserts %s%s%s but rank %d asserts %s%s%s at %s; "
                "MPI_MODE_NOPRECEDE and MPI_MODE_NOSUCCEED must be given by all members or none",
                world_of(w, r), a->assert &FENCE_UNIFORM ? "" : "neither",
                a->assert &MPI_MODE_NOPRECEDE ? "MPI_MODE_NOPRECEDE " : "",
                a->assert &MPI_MODE_NOSUCCEED ? "MPI_MODE_NOSUCCEED" : "", world_of(w, 0),
                a0->assert &FENCE_UNIFORM ? "" : "neither",
                a0->assert &MPI_MODE_NOPRECEDE ? "MPI_MODE_NOPRECEDE " : "",
                a0->assert &MPI_MODE_NOSUCCEED ? "MPI_MODE_NOSUCCEED" : "",
                sim_location(c->call_sites[0]));
            return MPI_ERR_ASSERT;
        }
    }
    /* Every member has issued all of this epoch's operations: apply them,
     * origins in rank order, each origin's in issue order. */
    for (int o = 0; o < w->size; o++) {
        sim_rma_op *failed;
        char *msg;
        int rc = apply_pending(w, o, -1, NULL, &failed, &msg);
        if (rc != MPI_SUCCESS) {
            *err_rank = o;
            *why = g_strdup_printf("MPI_Win_fence: %s at %s (to rank %d): %s", failed->call,
                                   sim_location(failed->call_site), world_of(w, failed->target),
                                   msg ? msg : "failed");
            g_free(msg);
            op_free(failed);
            return rc;
        }
    }
    for (int r = 0; r < w->size; r++) {
        const sim_rma_coll_args *a = c->args[r].rma;
        sim_win_member *m = &w->m[r];
        m->fence = a->assert &MPI_MODE_NOSUCCEED ? SIM_FENCE_NONE : SIM_FENCE_OPEN;
        m->fence_site = c->call_sites[r];
        hook_sync(w, r, SIM_RMA_SYNC_FENCE, -1);
    }
    return MPI_SUCCESS;
}

static int exec_free(sim_coll *c) {
    const sim_rma_coll_args *a0 = c->args[0].rma;
    sim_win *w = a0->win;
    for (int r = 0; r < w->size; r++)
        if (w->m[r].owned)
            sched_arena_free(w->m[r].owned);
    if (w->shared_block) {
        sched_arena_free(w->shared_block);
        R.nshared--;
    }
    w->shared_block = NULL;
    w->live = false;
    win_release(w);
    return MPI_SUCCESS;
}

int sim_rma_exec_coll(sim_coll *c, int *err_rank, char **why) {
    switch (c->kind) {
    case SIM_COLL_WIN_FENCE:
        return exec_fence(c, err_rank, why);
    case SIM_COLL_WIN_FREE:
        return exec_free(c);
    default:
        return exec_create(c, err_rank, why);
    }
}

/* ---------------------------------------------------------------------- */
/* Issuing operations                                                      */

/* Why member me has no access epoch to target (NULL when it has one). */
static char *no_epoch(const sim_win *w, int me, int target, bool *passive) {
    const sim_win_member *m = &w->m[me];
    *passive = m->lock_all || m->lock[target];
    if (*passive)
        return NULL;
    if (m->started) {
        for (int i = 0; i < m->nstart; i++)
            if (m->start_group[i] == target)
                return NULL;
        char *g = win_ranks_text(w, m->start_group, m->nstart);
        char *s = g_strdup_printf("the access epoch of MPI_Win_start at %s covers %s only",
                                  sim_location(m->start_site), g);
        g_free(g);
        return s;
    }
    if (m->fence != SIM_FENCE_NONE)
        return NULL;
    if (m->nlocks)
        return g_strdup_printf("this rank holds locks on other ranks only (MPI_Win_lock)");
    return g_strdup("no access epoch is open (call MPI_Win_fence, MPI_Win_start, "
                    "MPI_Win_lock or MPI_Win_lock_all first)");
}

/* The target address and the range check: *addr is where the operation's
 * target data starts. */
static int resolve_target(const sim_win *w, const sim_rma_issue_args *a, const sim_datatype *tdt,
                          void **addr) {
    const sim_win_member *t = &w->m[a->target];
    int tw = world_of(w, a->target);
    MPI_Aint lo = 0, hi = 0;
    bool touches = sim_rma_span(tdt, a->x.tcount, &lo, &hi);
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        /* target_disp is an address at the target (relative to MPI_BOTTOM). */
        *addr = (void *)(uintptr_t)a->disp;
        if (!touches)
            return MPI_SUCCESS;
        uintptr_t from = (uintptr_t)a->disp + (uintptr_t)lo,
                  to = (uintptr_t)a->disp + (uintptr_t)hi;
        for (guint i = 0; i < t->regions->len; i++) {
            const sim_win_region *r = &g_array_index(t->regions, sim_win_region, i);
            if (from >= (uintptr_t)r->base && to <= (uintptr_t)r->base + (uintptr_t)r->size)
                return MPI_SUCCESS;
        }
        return sim_win_error(w, MPI_ERR_RMA_RANGE,
                             "%s: the target bytes [0x%lx, 0x%lx) are not inside memory that rank "
                             "%d attached to the dynamic window 0x%08x (MPI_Win_attach)",
                             a->call, (unsigned long)from, (unsigned long)to, tw,
                             (unsigned)w->handle);
    }
    if (a->disp < 0)
        return sim_win_error(w, MPI_ERR_DISP, "%s: target_disp %ld is negative", a->call,
                             (long)a->disp);
    MPI_Aint off;
    if (__builtin_mul_overflow(a->disp, (MPI_Aint)t->disp_unit, &off))
        off = G_MAXSSIZE;
    *addr = t->base + off;
    if (!touches)
        return MPI_SUCCESS;
    if (off > G_MAXSSIZE / 2 || off + lo < 0 || off + hi > t->size)
        return sim_win_error(
            w, MPI_ERR_RMA_RANGE,
            "%s: the target bytes [%ld, %ld) (target_disp %ld x disp_unit %d, %d x %s) lie "
            "outside rank %d's window of %ld bytes",
            a->call, (long)(off + lo), (long)(off + hi), (long)a->disp, t->disp_unit, a->x.tcount,
            sim_dt_name(a->x.ttype), tw, (long)t->size);
    return MPI_SUCCESS;
}

static const sim_datatype *ref_type(MPI_Datatype type) {
    const sim_datatype *dt = type != MPI_DATATYPE_NULL ? sim_dt_get(type) : NULL;
    return dt ? sim_dt_ref(dt) : NULL;
}

int sim_rma_issue(sim_win *w, int me, const sim_rma_issue_args *a, sim_request **req) {
    int self = sim_self();
    if (req)
        *req = NULL;
    if (a->target == MPI_PROC_NULL)
        return MPI_SUCCESS; /* no data moves; the epoch rules are the caller's */
    if (a->target < 0 || a->target >= w->size)
        return sim_win_error(w, MPI_ERR_RANK,
                             "%s: target_rank %d is not a rank of the window's group of %d",
                             a->call, a->target, w->size);
    bool passive;
    char *why = no_epoch(w, me, a->target, &passive);
    if (why) {
        int rc = sim_win_error(w, MPI_ERR_RMA_SYNC,
                               "%s: rank %d is not in an access epoch of this rank on window "
                               "0x%08x: %s",
                               a->call, world_of(w, a->target), (unsigned)w->handle, why);
        g_free(why);
        return rc;
    }
    if (a->request && !passive)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "%s: request-based RMA operations are valid only in a passive-target "
                             "epoch (MPI_Win_lock or MPI_Win_lock_all; MPI 3.1 section 11.3.5), "
                             "but this rank's access to rank %d is by %s",
                             a->call, world_of(w, a->target),
                             w->m[me].started ? "MPI_Win_start" : "MPI_Win_fence");
    sim_rma_xfer x = a->x;
    void *addr = NULL;
    int rc = resolve_target(w, a, sim_dt_get(x.ttype), &addr);
    if (rc != MPI_SUCCESS)
        return rc;
    x.target = addr;
    rc = sim_rma_check(&x, &why);
    if (rc != MPI_SUCCESS) {
        rc = sim_win_error(w, rc, "%s: %s", a->call, why);
        g_free(why);
        return rc;
    }
    sim_rma_op *op = g_new0(sim_rma_op, 1);
    op->x = x;
    op->origin = me;
    op->target = a->target;
    op->disp = a->disp;
    op->call = a->call;
    op->call_site = sim_proc_of(self)->call_site;
    op->seq = R.seq++;
    bool uses_origin = !((x.kind == SIM_RMA_GET_ACC || x.kind == SIM_RMA_FOP) && x.op == MPI_NO_OP);
    if (x.kind != SIM_RMA_FOP && x.kind != SIM_RMA_CAS && uses_origin)
        op->dt[0] = ref_type(x.otype);
    if (x.kind == SIM_RMA_GET_ACC)
        op->dt[1] = ref_type(x.rtype);
    op->dt[2] = ref_type(x.ttype);
    g_queue_push_tail(&w->pending, op);
    if (w->m[me].fence == SIM_FENCE_OPEN)
        w->m[me].fence = SIM_FENCE_ACTIVE;
    hook_issued(w, op);
    if (!a->request)
        return MPI_SUCCESS;
    /* A request-based operation completes locally when its request does,
     * which ordex makes the call itself: it takes effect now, after this
     * origin's earlier operations to the same target. */
    rc = complete_ops(w, me, a->target, op, a->call);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_request *r = sim_req_new(SIM_REQ_RMA, a->call);
    sim_req_complete(r);
    *req = r;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Fence                                                                   */

/* Why member me may not start an active-target synchronisation (NULL if
 * it may): it holds passive-target locks. */
static char *holds_locks(const sim_win *w, int me) {
    const sim_win_member *m = &w->m[me];
    if (m->lock_all)
        return g_strdup_printf("this rank holds the locks of MPI_Win_lock_all at %s",
                               sim_location(m->lock_all_site));
    for (int t = 0; t < w->size; t++)
        if (m->lock[t])
            return g_strdup_printf("this rank holds a lock on rank %d (MPI_Win_lock at %s)",
                                   world_of(w, t), sim_location(m->lock_site[t]));
    return NULL;
}

static int mixing(const sim_win *w, const char *call, char *why) {
    int rc = sim_win_error(w, MPI_ERR_RMA_SYNC,
                           "%s: %s; active-target (fence, post/start/complete/wait) and "
                           "passive-target (lock/unlock) synchronisation may not be mixed on one "
                           "window",
                           call, why);
    g_free(why);
    return rc;
}

int sim_rma_fence(sim_win *w, int me, int assert) {
    sim_win_member *m = &w->m[me];
    char *why = holds_locks(w, me);
    if (why)
        return mixing(w, "MPI_Win_fence", why);
    if (m->started)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_fence: the access epoch of MPI_Win_start at %s is still "
                             "open (MPI_Win_complete closes it)",
                             sim_location(m->start_site));
    if (m->exposing)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_fence: the exposure epoch of MPI_Win_post at %s is still "
                             "open (MPI_Win_wait or MPI_Win_test closes it)",
                             sim_location(m->post_site));
    const sim_rma_op *first;
    int n = pending_count(w, me, &first);
    if ((assert &MPI_MODE_NOPRECEDE) && n)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_fence: MPI_MODE_NOPRECEDE asserts that the fence completes "
                             "no operation of this rank, but it issued %d since the last fence "
                             "(the first: %s at %s)",
                             n, first->call, sim_location(first->call_site));
    sim_rma_coll_args a = {0};
    a.win = w;
    a.assert = assert;
    sim_coll_args ca = {0};
    ca.rma = &a;
    sim_request *req = sim_coll_post(w->comm, SIM_COLL_WIN_FENCE, &ca);
    if (!req)
        return MPI_ERR_OTHER; /* a mismatch, reported already */
    return sim_request_wait(req, MPI_STATUS_IGNORE);
}

/* ---------------------------------------------------------------------- */
/* Post, start, complete, wait                                             */

static void wake_waiting(const sim_win *w, int r, rma_wait_kind kind) {
    int world = world_of(w, r);
    if (R.wait[world].kind == kind && R.wait[world].win == w)
        sched_wake(world);
}

int sim_rma_post(sim_win *w, int me, const int *group, int n, int assert) {
    sim_win_member *m = &w->m[me];
    char *why = holds_locks(w, me);
    if (why)
        return mixing(w, "MPI_Win_post", why);
    if (m->exposing)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_post: the exposure epoch of MPI_Win_post at %s is still "
                             "open (MPI_Win_wait or MPI_Win_test closes it first)",
                             sim_location(m->post_site));
    if (m->fence == SIM_FENCE_ACTIVE)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_post: this rank issued operations in the fence epoch of "
                             "MPI_Win_fence at %s, which no fence has closed",
                             sim_location(m->fence_site));
    (void)assert;
    m->fence = SIM_FENCE_NONE;
    m->exposing = true;
    g_free(m->post_group);
    m->post_group = g_memdup2(group, sizeof(int) * (size_t)(n ? n : 1));
    m->npost = n;
    m->post_site = sim_proc_of(sim_self())->call_site;
    for (int i = 0; i < n; i++) {
        w->posts[(size_t)me * (size_t)w->size + (size_t)group[i]]++;
        wake_waiting(w, group[i], RMA_WAIT_COMPLETE);
    }
    sim_events_changed();
    hook_sync(w, me, SIM_RMA_SYNC_POST, -1);
    return MPI_SUCCESS;
}

/* Has target t made the post that matches origin o's current start? */
static bool posted_for(const sim_win *w, int o, int t) {
    size_t n = (size_t)w->size;
    return w->posts[(size_t)t * n + (size_t)o] >= w->starts[(size_t)o * n + (size_t)t];
}

/* Has origin o made the complete that matches target t's current post? */
static bool completed_for(const sim_win *w, int t, int o) {
    size_t n = (size_t)w->size;
    return w->completes[(size_t)o * n + (size_t)t] >= w->posts[(size_t)t * n + (size_t)o];
}

int sim_rma_start(sim_win *w, int me, const int *group, int n, int assert) {
    sim_win_member *m = &w->m[me];
    char *why = holds_locks(w, me);
    if (why)
        return mixing(w, "MPI_Win_start", why);
    if (m->started)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_start: the access epoch of MPI_Win_start at %s is still "
                             "open (MPI_Win_complete closes it first)",
                             sim_location(m->start_site));
    if (m->fence == SIM_FENCE_ACTIVE)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_start: this rank issued operations in the fence epoch of "
                             "MPI_Win_fence at %s, which no fence has closed",
                             sim_location(m->fence_site));
    for (int i = 0; i < n; i++)
        w->starts[(size_t)me * (size_t)w->size + (size_t)group[i]]++;
    if (assert & MPI_MODE_NOCHECK)
        for (int i = 0; i < n; i++)
            if (!posted_for(w, me, group[i])) {
                for (int k = 0; k < n; k++) /* undo: the call fails */
                    w->starts[(size_t)me * (size_t)w->size + (size_t)group[k]]--;
                return sim_win_error(w, MPI_ERR_RMA_SYNC,
                                     "MPI_Win_start: MPI_MODE_NOCHECK asserts that the matching "
                                     "MPI_Win_post calls were made, but rank %d has not made its "
                                     "post yet",
                                     world_of(w, group[i]));
            }
    m->fence = SIM_FENCE_NONE;
    m->started = true;
    g_free(m->start_group);
    m->start_group = g_memdup2(group, sizeof(int) * (size_t)(n ? n : 1));
    m->nstart = n;
    m->start_site = sim_proc_of(sim_self())->call_site;
    hook_sync(w, me, SIM_RMA_SYNC_START, -1);
    return MPI_SUCCESS;
}

/* Blocks the calling rank until done(w, me) holds; `kind` says what it
 * waits for, `describe` (if any) re-describes the call each time it blocks:
 * whatever changes what it waits for wakes it. */
static void block_until(sim_win *w, int me, rma_wait_kind kind, rma_lockreq *req,
                        bool (*done)(const sim_win *, int, const rma_lockreq *),
                        void (*describe)(const sim_win *, int)) {
    int self = sim_self();
    while (!done(w, me, req)) {
        R.wait[self] = (rma_wait){kind, w, req};
        if (describe)
            describe(w, me);
        sched_block();
    }
    R.wait[self] = (rma_wait){RMA_WAIT_NONE, NULL, NULL};
}

static bool all_posted(const sim_win *w, int me, const rma_lockreq *unused) {
    const sim_win_member *m = &w->m[me];
    for (int i = 0; i < m->nstart; i++)
        if (!posted_for(w, me, m->start_group[i]))
            return false;
    return true;
}

static bool all_completed(const sim_win *w, int me, const rma_lockreq *unused) {
    const sim_win_member *m = &w->m[me];
    for (int i = 0; i < m->npost; i++)
        if (!completed_for(w, me, m->post_group[i]))
            return false;
    return true;
}

static void describe_missing(const sim_win *w, int me, bool posts) {
    const sim_win_member *m = &w->m[me];
    int n = posts ? m->nstart : m->npost;
    const int *g = posts ? m->start_group : m->post_group;
    int *missing = g_new(int, n > 0 ? (gsize)n : 1), k = 0;
    for (int i = 0; i < n; i++)
        if (posts ? !posted_for(w, me, g[i]) : !completed_for(w, me, g[i]))
            missing[k++] = world_of(w, g[i]);
    char *who = ranks_text(missing, k);
    sim_call_args("win=0x%08x; waits for the %s of %s", (unsigned)w->handle,
                  posts ? "MPI_Win_post" : "MPI_Win_complete", who);
    g_free(who);
    g_free(missing);
}

static void describe_complete(const sim_win *w, int me) {
    describe_missing(w, me, true);
}

static void describe_wait(const sim_win *w, int me) {
    describe_missing(w, me, false);
}

int sim_rma_complete(sim_win *w, int me) {
    sim_win_member *m = &w->m[me];
    if (!m->started)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_complete: no access epoch of MPI_Win_start is open on "
                             "window 0x%08x (MPI_Win_complete without MPI_Win_start)",
                             (unsigned)w->handle);
    /* The operations can reach the targets only once they expose their
     * windows. */
    block_until(w, me, RMA_WAIT_COMPLETE, NULL, all_posted, describe_complete);
    for (int i = 0; i < m->nstart; i++) {
        int t = m->start_group[i];
        int rc = complete_ops(w, me, t, NULL, "MPI_Win_complete");
        if (rc != MPI_SUCCESS)
            return rc;
        w->completes[(size_t)me * (size_t)w->size + (size_t)t]++;
        wake_waiting(w, t, RMA_WAIT_WAIT);
        hook_sync(w, me, SIM_RMA_SYNC_COMPLETE, t);
    }
    m->started = false;
    m->nstart = 0;
    sim_events_changed();
    return MPI_SUCCESS;
}

static int no_exposure(const sim_win *w, const char *call) {
    return sim_win_error(w, MPI_ERR_RMA_SYNC,
                         "%s: no exposure epoch of MPI_Win_post is open on window 0x%08x (%s "
                         "without MPI_Win_post)",
                         call, (unsigned)w->handle, call);
}

static void end_exposure(sim_win *w, int me) {
    sim_win_member *m = &w->m[me];
    m->exposing = false;
    m->npost = 0;
    hook_sync(w, me, SIM_RMA_SYNC_WAIT, -1);
    sim_events_changed();
}

int sim_rma_wait(sim_win *w, int me) {
    if (!w->m[me].exposing)
        return no_exposure(w, "MPI_Win_wait");
    block_until(w, me, RMA_WAIT_WAIT, NULL, all_completed, describe_wait);
    end_exposure(w, me);
    return MPI_SUCCESS;
}

int sim_rma_test(sim_win *w, int me, int *flag) {
    if (!w->m[me].exposing)
        return no_exposure(w, "MPI_Win_test");
    if (!all_completed(w, me, NULL))
        sim_poll_block(); /* others progress before the program asks again */
    *flag = all_completed(w, me, NULL);
    if (*flag)
        end_exposure(w, me);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Locks                                                                   */

static bool grantable(const rma_lockreq *q) {
    const sim_win *w = q->win;
    int from = q->target < 0 ? 0 : q->target, to = q->target < 0 ? w->size : q->target + 1;
    for (int t = from; t < to; t++)
        if (w->excl[t] >= 0 || (q->type == SIM_LK_EXCLUSIVE && w->shared[t] > 0))
            return false;
    return true;
}

static void grant(rma_lockreq *q) {
    sim_win *w = q->win;
    sim_win_member *m = &w->m[q->origin];
    if (q->target < 0) {
        for (int t = 0; t < w->size; t++)
            w->shared[t]++;
        m->lock_all = true;
        m->lock_all_site = q->call_site;
    } else {
        if (q->type == SIM_LK_EXCLUSIVE)
            w->excl[q->target] = q->origin;
        else
            w->shared[q->target]++;
        m->lock[q->target] = (uint8_t)q->type;
        m->lock_site[q->target] = q->call_site;
        m->nlocks++;
    }
    q->granted = true;
    hook_sync(w, q->origin, SIM_RMA_SYNC_LOCK, q->target);
}

static bool lock_granted(const sim_win *w, int me, const rma_lockreq *q) {
    return q->granted;
}

int sim_rma_lock(sim_win *w, int me, int type, int target, int assert) {
    sim_win_member *m = &w->m[me];
    const char *call = target < 0 ? "MPI_Win_lock_all" : "MPI_Win_lock";
    if (m->started)
        return mixing(w, call,
                      g_strdup_printf("the access epoch of MPI_Win_start at %s is open",
                                      sim_location(m->start_site)));
    if (m->exposing)
        return mixing(w, call,
                      g_strdup_printf("the exposure epoch of MPI_Win_post at %s is open",
                                      sim_location(m->post_site)));
    if (m->fence == SIM_FENCE_ACTIVE)
        return mixing(w, call,
                      g_strdup_printf("this rank issued operations in the fence epoch of "
                                      "MPI_Win_fence at %s, which no fence has closed",
                                      sim_location(m->fence_site)));
    if (m->lock_all)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "%s: this rank already holds the locks of MPI_Win_lock_all at %s on "
                             "every rank of window 0x%08x",
                             call, sim_location(m->lock_all_site), (unsigned)w->handle);
    if (target < 0 && m->nlocks) {
        char *why = holds_locks(w, me);
        int rc = sim_win_error(w, MPI_ERR_RMA_SYNC, "MPI_Win_lock_all: %s (unlock it first)", why);
        g_free(why);
        return rc;
    }
    if (target >= 0 && m->lock[target])
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_lock: this rank already holds a lock on rank %d of window "
                             "0x%08x (MPI_Win_lock at %s)",
                             world_of(w, target), (unsigned)w->handle,
                             sim_location(m->lock_site[target]));
    m->fence = SIM_FENCE_NONE;
    rma_lockreq *q = g_new0(rma_lockreq, 1);
    q->win = w;
    q->origin = me;
    q->target = target;
    q->type = type;
    q->seq = R.seq++;
    q->call_site = sim_proc_of(sim_self())->call_site;
    if (assert & MPI_MODE_NOCHECK) {
        /* The program promises that no conflicting lock is held or
         * requested: no need to wait for a grant. */
        if (!grantable(q)) {
            g_free(q);
            return sim_win_error(w, MPI_ERR_RMA_SYNC,
                                 "%s: MPI_MODE_NOCHECK asserts that no other rank holds a "
                                 "conflicting lock, but one is held on the target",
                                 call);
        }
        grant(q);
        g_free(q);
        return MPI_SUCCESS;
    }
    g_queue_push_tail(&R.lockq, q);
    sim_events_changed();
    block_until(w, me, RMA_WAIT_LOCK, q, lock_granted, NULL);
    g_free(q);
    return MPI_SUCCESS;
}

int sim_rma_unlock(sim_win *w, int me, int target) {
    sim_win_member *m = &w->m[me];
    const char *call = target < 0 ? "MPI_Win_unlock_all" : "MPI_Win_unlock";
    if (target < 0 ? !m->lock_all : !m->lock[target]) {
        if (target < 0)
            return sim_win_error(w, MPI_ERR_RMA_SYNC,
                                 "MPI_Win_unlock_all: this rank did not call MPI_Win_lock_all on "
                                 "window 0x%08x (MPI_Win_unlock_all without MPI_Win_lock_all)",
                                 (unsigned)w->handle);
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_unlock: this rank holds no lock on rank %d of window "
                             "0x%08x (MPI_Win_unlock without MPI_Win_lock)%s",
                             world_of(w, target), (unsigned)w->handle,
                             m->lock_all ? "; its locks of MPI_Win_lock_all end with "
                                           "MPI_Win_unlock_all"
                                         : "");
    }
    int rc = complete_ops(w, me, target, NULL, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (target < 0) {
        for (int t = 0; t < w->size; t++)
            w->shared[t]--;
        m->lock_all = false;
    } else {
        if (m->lock[target] == SIM_LK_EXCLUSIVE)
            w->excl[target] = -1;
        else
            w->shared[target]--;
        m->lock[target] = SIM_LK_NONE;
        m->nlocks--;
    }
    sim_events_changed(); /* waiting requests may be granted now */
    hook_sync(w, me, SIM_RMA_SYNC_UNLOCK, target);
    return MPI_SUCCESS;
}

int sim_rma_flush(sim_win *w, int me, int target, bool local) {
    sim_win_member *m = &w->m[me];
    const char *call = target < 0 ? (local ? "MPI_Win_flush_local_all" : "MPI_Win_flush_all")
                                  : (local ? "MPI_Win_flush_local" : "MPI_Win_flush");
    if (target < 0 && !m->lock_all && !m->nlocks)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "%s: this rank has no passive-target epoch on window 0x%08x "
                             "(MPI_Win_lock or MPI_Win_lock_all opens one)",
                             call, (unsigned)w->handle);
    if (target >= 0 && !m->lock_all && !m->lock[target])
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "%s: this rank holds no lock on rank %d of window 0x%08x; flushes "
                             "work in passive-target epochs only",
                             call, world_of(w, target), (unsigned)w->handle);
    /* Local completion is completion here (the operation has taken effect
     * once its origin buffer may be reused). */
    int rc = complete_ops(w, me, target, NULL, call);
    if (rc == MPI_SUCCESS)
        hook_sync(w, me, SIM_RMA_SYNC_FLUSH, target);
    return rc;
}

int sim_rma_sync(sim_win *w, int me) {
    hook_sync(w, me, SIM_RMA_SYNC_WIN_SYNC, -1);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Free                                                                    */

int sim_rma_free(sim_win *w, int me, MPI_Win *win) {
    sim_win_member *m = &w->m[me];
    char *why = holds_locks(w, me);
    if (why) {
        int rc =
            sim_win_error(w, MPI_ERR_RMA_SYNC, "MPI_Win_free: %s (an epoch is still open)", why);
        g_free(why);
        return rc;
    }
    if (m->started)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_free: the access epoch of MPI_Win_start at %s is still open "
                             "(MPI_Win_complete closes it)",
                             sim_location(m->start_site));
    if (m->exposing)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_free: the exposure epoch of MPI_Win_post at %s is still open "
                             "(MPI_Win_wait closes it)",
                             sim_location(m->post_site));
    const sim_rma_op *first;
    int n = pending_count(w, me, &first);
    if (n)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_free: %d operation%s of this rank %s not completed (the "
                             "first: %s at %s); close the fence epoch with MPI_Win_fence first",
                             n, n == 1 ? "" : "s", n == 1 ? "is" : "are", first->call,
                             sim_location(first->call_site));
    sim_rma_coll_args a = {0};
    a.win = w;
    sim_coll_args ca = {0};
    ca.rma = &a;
    sim_request *req = sim_coll_post(w->comm, SIM_COLL_WIN_FREE, &ca);
    if (!req)
        return MPI_ERR_OTHER;
    int rc = sim_request_wait(req, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        *win = MPI_WIN_NULL;
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Lock grants as events                                                   */

static sim_event lock_event(rma_lockreq *q) {
    return (sim_event){SIM_EV_LOCK,
                       world_of(q->win, q->origin),
                       q->target < 0 ? -1 : world_of(q->win, q->target),
                       q->seq,
                       q,
                       q->win};
}

void sim_rma_lock_events(GArray *out) {
    for (GList *l = R.lockq.head; l; l = l->next)
        if (grantable(l->data)) {
            sim_event ev = lock_event(l->data);
            g_array_append_val(out, ev);
        }
}

bool sim_rma_first_lock_event(sim_event *out) {
    for (GList *l = R.lockq.head; l; l = l->next)
        if (grantable(l->data)) {
            *out = lock_event(l->data);
            return true;
        }
    return false;
}

void sim_rma_fire_lock(const sim_event *ev) {
    rma_lockreq *q = ev->a;
    g_queue_remove(&R.lockq, q);
    grant(q);
    sched_wake(ev->rank);
}

void sim_rma_describe_lock(const sim_event *ev, sim_event_info *out) {
    const rma_lockreq *q = ev->a;
    out->tag = q->type == SIM_LK_EXCLUSIVE ? SIM_LOCK_EXCLUSIVE : SIM_LOCK_SHARED;
    out->comm = q->win->comm->id;
    out->site_a = q->call_site;
    out->what = q->target < 0 ? "MPI_Win_lock_all" : "MPI_Win_lock";
}

void sim_rma_lock_key(const sim_event *ev, sim_event_key *k) {
    const rma_lockreq *q = ev->a;
    k->msg = ((uint64_t)q->win->index << 33) | ((uint64_t)(uint32_t)(q->target + 1) << 1) |
             (q->type == SIM_LK_EXCLUSIVE);
    k->recv = q->seq + 1;
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
            if (!posted_for(w, me, m->start_group[i]))
                add_rank(to, world_of(w, m->start_group[i]));
    } else if (wt->kind == RMA_WAIT_WAIT) {
        for (int i = 0; i < m->npost; i++)
            if (!completed_for(w, me, m->post_group[i]))
                add_rank(to, world_of(w, m->post_group[i]));
    } else if (wt->kind == RMA_WAIT_LOCK && wt->req) {
        const rma_lockreq *q = wt->req;
        int from = q->target < 0 ? 0 : q->target, upto = q->target < 0 ? w->size : q->target + 1;
        for (int t = from; t < upto; t++) {
            if (w->excl[t] >= 0)
                add_rank(to, world_of(w, w->excl[t]));
            if (q->type == SIM_LK_EXCLUSIVE && w->shared[t] > 0)
                for (int o = 0; o < w->size; o++)
                    if (w->m[o].lock_all || w->m[o].lock[t] == SIM_LK_SHARED)
                        add_rank(to, world_of(w, o));
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
            int n = pending_count(w, o, &first);
            if (n)
                sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(first->call_site),
                                g_strdup_printf("rank %d: %d RMA operation%s on window 0x%08x "
                                                "never took effect (the first: %s to rank %d): "
                                                "no synchronisation completed %s",
                                                m->world, n, n == 1 ? "" : "s", (unsigned)w->handle,
                                                first->call, world_of(w, first->target),
                                                n == 1 ? "it" : "them"),
                                NULL);
            for (int t = 0; t < w->size; t++)
                if (m->lock[t])
                    sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(m->lock_site[t]),
                                    g_strdup_printf("rank %d ended holding its lock on rank %d of "
                                                    "window 0x%08x (no MPI_Win_unlock)",
                                                    m->world, world_of(w, t), (unsigned)w->handle),
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
}
