/*
 * rma_sync.c - the synchronisation of windows: fence, post/start/complete/
 * wait, lock/unlock (shared, exclusive, all) and the grants of contended
 * locks as events (see rma.h).
 */
#include "simulator/rma.h"

#include <stdarg.h>
#include <string.h>

#include "scheduler/arena.h"
#include "scheduler/sched.h"
#include "simulator/bufcheck.h"
#include "simulator/engine.h"
#include "simulator/report.h"
#include "simulator/rma_internal.h"
#include "simulator/sim_internal.h"

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
                rma_world_of(w, r), a->assert &FENCE_UNIFORM ? "" : "neither",
                a->assert &MPI_MODE_NOPRECEDE ? "MPI_MODE_NOPRECEDE " : "",
                a->assert &MPI_MODE_NOSUCCEED ? "MPI_MODE_NOSUCCEED" : "", rma_world_of(w, 0),
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
        int rc = rma_apply_pending(w, o, -1, NULL, &failed, &msg);
        if (rc != MPI_SUCCESS) {
            *err_rank = o;
            *why = g_strdup_printf("MPI_Win_fence: %s at %s (to rank %d): %s", failed->call,
                                   sim_location(failed->call_site), rma_world_of(w, failed->target),
                                   msg ? msg : "failed");
            g_free(msg);
            rma_op_free(failed);
            return rc;
        }
    }
    for (int r = 0; r < w->size; r++) {
        const sim_rma_coll_args *a = c->args[r].rma;
        sim_win_member *m = &w->m[r];
        m->fence = a->assert &MPI_MODE_NOSUCCEED ? SIM_FENCE_NONE : SIM_FENCE_OPEN;
        m->fence_site = c->call_sites[r];
        rma_hook_sync(w, r, SIM_RMA_SYNC_FENCE, -1);
    }
    return MPI_SUCCESS;
}

static int exec_free(sim_coll *c) {
    const sim_rma_coll_args *a0 = c->args[0].rma;
    sim_win *w = a0->win;
    rma_hook_window(w, false);
    for (int r = 0; r < w->size; r++)
        if (w->m[r].owned)
            sched_arena_free(w->m[r].owned);
    if (w->shared_block) {
        sched_arena_free(w->shared_block);
        R.nshared--;
    }
    w->shared_block = NULL;
    w->live = false;
    rma_win_release(w);
    return MPI_SUCCESS;
}

int sim_rma_exec_coll(sim_coll *c, int *err_rank, char **why) {
    switch (c->kind) {
    case SIM_COLL_WIN_FENCE:
        return exec_fence(c, err_rank, why);
    case SIM_COLL_WIN_FREE:
        return exec_free(c);
    default:
        return rma_exec_create(c, err_rank, why);
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
        char *g = rma_win_ranks_text(w, m->start_group, m->nstart);
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
    int tw = rma_world_of(w, a->target);
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
                               a->call, rma_world_of(w, a->target), (unsigned)w->handle, why);
        g_free(why);
        return rc;
    }
    if (a->request && !passive)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "%s: request-based RMA operations are valid only in a passive-target "
                             "epoch (MPI_Win_lock or MPI_Win_lock_all; MPI 3.1 section 11.3.5), "
                             "but this rank's access to rank %d is by %s",
                             a->call, rma_world_of(w, a->target),
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
    /* The target datatype against the C types of the window memory there. */
    rc = sim_bufcheck_target(a->call, rma_world_of(w, a->target), addr,
                             x.kind == SIM_RMA_FOP || x.kind == SIM_RMA_CAS ? 1 : x.tcount, x.ttype,
                             &why);
    if (rc != MPI_SUCCESS) {
        rc = sim_win_error(w, rc, "%s", why);
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
    rma_hook_issued(w, op);
    sim_timed_rma_issued(w, op, a->request);
    if (!a->request)
        return MPI_SUCCESS;
    sim_rma_op issued = *op; /* applying it frees op */
    /* A request-based operation completes locally when its request does,
     * which ordex makes the call itself: it takes effect now, after this
     * origin's earlier operations to the same target. */
    rc = rma_complete_ops(w, me, a->target, op, a->call);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_request *r = sim_req_new(SIM_REQ_RMA, a->call);
    rma_hook_request(w, &issued, r);
    sim_timed_rma_request(r); /* under predict, complete once the data has moved */
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
                                   rma_world_of(w, t), sim_location(m->lock_site[t]));
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
    int n = rma_pending_count(w, me, &first);
    if ((assert &MPI_MODE_NOPRECEDE) && n)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_fence: MPI_MODE_NOPRECEDE asserts that the fence completes "
                             "no operation of this rank, but it issued %d since the last fence "
                             "(the first: %s at %s)",
                             n, first->call, sim_location(first->call_site));
    /* Accumulates of different origins in one fence epoch apply in an order
     * the program can see (fetched values): each origin's take their turn
     * as it enters the fence (SIM_EV_ATOMIC), so that exploration tries
     * every order.  Applying its puts and gets then too changes nothing a
     * race-free program can see: no other access to their bytes may
     * happen in this epoch. */
    if (n && rma_has_accumulates(w, me)) {
        int rc = rma_complete_ops(w, me, -1, NULL, "MPI_Win_fence");
        if (rc != MPI_SUCCESS)
            return rc;
    }
    sim_timed_rma_quiesce(w, me, -1); /* its operations move before the barrier */
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
    int world = rma_world_of(w, r);
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
    rma_hook_sync(w, me, SIM_RMA_SYNC_POST, -1);
    sim_timed_rma_post(w, me, group, n);
    return MPI_SUCCESS;
}

/* Has target t made the post that matches origin o's current start? */
bool rma_posted_for(const sim_win *w, int o, int t) {
    size_t n = (size_t)w->size;
    return w->posts[(size_t)t * n + (size_t)o] >= w->starts[(size_t)o * n + (size_t)t];
}

/* Has origin o made the complete that matches target t's current post? */
bool rma_completed_for(const sim_win *w, int t, int o) {
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
            if (!rma_posted_for(w, me, group[i])) {
                for (int k = 0; k < n; k++) /* undo: the call fails */
                    w->starts[(size_t)me * (size_t)w->size + (size_t)group[k]]--;
                return sim_win_error(w, MPI_ERR_RMA_SYNC,
                                     "MPI_Win_start: MPI_MODE_NOCHECK asserts that the matching "
                                     "MPI_Win_post calls were made, but rank %d has not made its "
                                     "post yet",
                                     rma_world_of(w, group[i]));
            }
    m->fence = SIM_FENCE_NONE;
    m->started = true;
    g_free(m->start_group);
    m->start_group = g_memdup2(group, sizeof(int) * (size_t)(n ? n : 1));
    m->nstart = n;
    m->start_site = sim_proc_of(sim_self())->call_site;
    rma_hook_sync(w, me, SIM_RMA_SYNC_START, -1);
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
        if (!rma_posted_for(w, me, m->start_group[i]))
            return false;
    return true;
}

static bool all_completed(const sim_win *w, int me, const rma_lockreq *unused) {
    const sim_win_member *m = &w->m[me];
    for (int i = 0; i < m->npost; i++)
        if (!rma_completed_for(w, me, m->post_group[i]))
            return false;
    return true;
}

static void describe_missing(const sim_win *w, int me, bool posts) {
    const sim_win_member *m = &w->m[me];
    int n = posts ? m->nstart : m->npost;
    const int *g = posts ? m->start_group : m->post_group;
    int *missing = g_new(int, n > 0 ? (gsize)n : 1), k = 0;
    for (int i = 0; i < n; i++)
        if (posts ? !rma_posted_for(w, me, g[i]) : !rma_completed_for(w, me, g[i]))
            missing[k++] = rma_world_of(w, g[i]);
    char *who = rma_ranks_text(missing, k);
    /* A peer whose open epoch leaves this rank out is the usual cause: the
     * start and post groups do not match (MPI 3.1 11.5.2). */
    GString *why = g_string_new(NULL);
    for (int i = 0; i < n; i++) {
        int p = g[i];
        const sim_win_member *o = &w->m[p];
        bool open = posts ? o->exposing : o->started;
        if (!open || (posts ? rma_posted_for(w, me, p) : rma_completed_for(w, me, p)))
            continue;
        const int *og = posts ? o->post_group : o->start_group;
        int on = posts ? o->npost : o->nstart;
        bool named = false;
        for (int j = 0; j < on && !named; j++)
            named = og[j] == me;
        if (!named)
            g_string_append_printf(why,
                                   "; rank %d's %s at %s leaves this rank out of its group: the "
                                   "start and post groups do not match",
                                   rma_world_of(w, p), posts ? "MPI_Win_post" : "MPI_Win_start",
                                   sim_location(posts ? o->post_site : o->start_site));
    }
    sim_call_args("win=0x%08x; waits for the %s of %s%s", (unsigned)w->handle,
                  posts ? "MPI_Win_post" : "MPI_Win_complete", who, why->str);
    g_string_free(why, TRUE);
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
    sim_timed_rma_complete_begin(w, me);
    for (int i = 0; i < m->nstart; i++) {
        int t = m->start_group[i];
        int rc = rma_complete_ops(w, me, t, NULL, "MPI_Win_complete");
        if (rc != MPI_SUCCESS)
            return rc;
        w->completes[(size_t)me * (size_t)w->size + (size_t)t]++;
        wake_waiting(w, t, RMA_WAIT_WAIT);
        sim_timed_rma_complete_sent(w, me, t);
        rma_hook_sync(w, me, SIM_RMA_SYNC_COMPLETE, t);
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
    rma_hook_sync(w, me, SIM_RMA_SYNC_WAIT, -1); /* it reads the post group */
    m->npost = 0;
    sim_events_changed();
}

int sim_rma_wait(sim_win *w, int me) {
    if (!w->m[me].exposing)
        return no_exposure(w, "MPI_Win_wait");
    block_until(w, me, RMA_WAIT_WAIT, NULL, all_completed, describe_wait);
    sim_timed_rma_wait(w, me);
    end_exposure(w, me);
    return MPI_SUCCESS;
}

int sim_rma_test(sim_win *w, int me, int *flag) {
    if (!w->m[me].exposing)
        return no_exposure(w, "MPI_Win_test");
    bool polled = false;
    /* Under predict the completes must also have arrived. */
    if (!all_completed(w, me, NULL) || !sim_timed_rma_exposure_arrived(w, me)) {
        sim_poll_block(); /* others progress before the program asks again */
        polled = true;
    }
    *flag = all_completed(w, me, NULL) && sim_timed_rma_exposure_arrived(w, me);
    /* Like MPI_Test, it may say "not yet" when it could say yes (exploring
     * with --test-later): MPI does not promise immediate progress. */
    if (*flag && sim_test_later("MPI_Win_test:now-or-later")) {
        *flag = 0;
        if (!polled)
            sim_poll_later();
    }
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

void rma_grant(rma_lockreq *q) {
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
    rma_hook_sync(w, q->origin, SIM_RMA_SYNC_LOCK, q->target);
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
                             rma_world_of(w, target), (unsigned)w->handle,
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
         * requested: no need to wait for a rma_grant. */
        if (!grantable(q)) {
            g_free(q);
            return sim_win_error(w, MPI_ERR_RMA_SYNC,
                                 "%s: MPI_MODE_NOCHECK asserts that no other rank holds a "
                                 "conflicting lock, but one is held on the target",
                                 call);
        }
        rma_grant(q);
        g_free(q);
        return MPI_SUCCESS;
    }
    void *timed = sim_timed_rma_lock_request(w, me, target, type);
    g_queue_push_tail(&R.lockq, q);
    sim_events_changed();
    block_until(w, me, RMA_WAIT_LOCK, q, lock_granted, NULL);
    sim_timed_rma_lock_granted(timed);
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
                             rma_world_of(w, target), (unsigned)w->handle,
                             m->lock_all ? "; its locks of MPI_Win_lock_all end with "
                                           "MPI_Win_unlock_all"
                                         : "");
    }
    int rc = rma_complete_ops(w, me, target, NULL, call);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Under predict: the operations move, then the unlock messages leave,
     * before anyone else can be granted the lock. */
    sim_timed_rma_quiesce(w, me, target);
    sim_timed_rma_unlock(w, me, target, target < 0 ? SIM_LK_SHARED : m->lock[target]);
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
    rma_hook_sync(w, me, SIM_RMA_SYNC_UNLOCK, target);
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
                             call, rma_world_of(w, target), (unsigned)w->handle);
    /* Local completion is completion here (the operation has taken effect
     * once its origin buffer may be reused). */
    int rc = rma_complete_ops(w, me, target, NULL, call);
    if (rc == MPI_SUCCESS) {
        sim_timed_rma_quiesce(w, me, target);
        rma_hook_sync(w, me, local ? SIM_RMA_SYNC_FLUSH_LOCAL : SIM_RMA_SYNC_FLUSH, target);
    }
    return rc;
}

int sim_rma_sync(sim_win *w, int me) {
    rma_hook_sync(w, me, SIM_RMA_SYNC_WIN_SYNC, -1);
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
    int n = rma_pending_count(w, me, &first);
    if (n)
        return sim_win_error(w, MPI_ERR_RMA_SYNC,
                             "MPI_Win_free: %d operation%s of this rank %s not completed (the "
                             "first: %s at %s); close the fence epoch with MPI_Win_fence first",
                             n, n == 1 ? "" : "s", n == 1 ? "is" : "are", first->call,
                             sim_location(first->call_site));
    sim_timed_rma_quiesce(w, me, -1); /* request-based operations not waited for */
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
                       rma_world_of(q->win, q->origin),
                       q->target < 0 ? -1 : rma_world_of(q->win, q->target),
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
    rma_grant(q);
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
/* Accumulates applied in turn, as events                                  */

static sim_event atomic_event(rma_atomic_batch *b) {
    return (sim_event){SIM_EV_ATOMIC,
                       rma_world_of(b->win, b->origin),
                       b->target < 0 ? -1 : rma_world_of(b->win, b->target),
                       b->seq,
                       b,
                       b->win};
}

void sim_rma_atomic_events(GArray *out) {
    for (GList *l = R.atomq.head; l; l = l->next) {
        sim_event ev = atomic_event(l->data);
        g_array_append_val(out, ev);
    }
}

bool sim_rma_first_atomic_event(sim_event *out) {
    if (!R.atomq.head)
        return false;
    *out = atomic_event(R.atomq.head->data);
    return true;
}

void sim_rma_fire_atomic(const sim_event *ev) {
    rma_atomic_batch *b = ev->a;
    g_queue_remove(&R.atomq, b);
    b->rc = rma_apply_pending(b->win, b->origin, b->target, b->upto, &b->failed, &b->why);
    b->done = true;
    sched_wake(ev->rank);
}

void sim_rma_describe_atomic(const sim_event *ev, sim_event_info *out) {
    const rma_atomic_batch *b = ev->a;
    out->tag = 0;
    out->comm = b->win->comm->id;
    out->site_a = b->call_site;
    out->what = b->call;
}

/* Whether the batch's order relative to other accumulates can show: it
 * fetches, or it applies an op that does not commute with itself. */
static bool batch_observes(const rma_atomic_batch *b) {
    for (GList *l = b->win->pending.head; l; l = l->next) {
        const sim_rma_op *op = l->data;
        if (op->origin != b->origin || (b->target >= 0 && op->target != b->target))
            continue;
        if (op->x.kind != SIM_RMA_PUT && op->x.kind != SIM_RMA_GET &&
            (op->x.kind != SIM_RMA_ACC || op->x.op == MPI_REPLACE))
            return true;
        if (op == b->upto)
            break;
    }
    return false;
}

void sim_rma_atomic_key(const sim_event *ev, sim_event_key *k) {
    const rma_atomic_batch *b = ev->a;
    k->msg = ((uint64_t)b->win->index << 33) | ((uint64_t)(uint32_t)(b->target + 1) << 1) |
             batch_observes(b);
    k->recv = b->seq + 1;
}
