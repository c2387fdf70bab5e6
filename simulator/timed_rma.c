/*
 * timed_rma.c - what one-sided communication costs in simulated time under
 * `ordex predict` (the model is described in rma.h, "simulated time").
 *
 * The engine (rma.c, rma_sync.c) decides what the program sees: when an
 * operation is applied, which lock request is granted.  This file only
 * makes the calls take time: operations become messages of the network
 * model when they are issued, and the synchronisation calls wait, after
 * the engine let them go on, for the messages the model says they need.
 * It keeps, per window, the operations still on their way and what has
 * arrived of the PSCW and lock handshakes.
 */
#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/datatype.h"
#include "simulator/engine.h"
#include "simulator/rma.h"
#include "simulator/sim_internal.h"
#include "simulator/timed.h"
#include "simulator/timed_internal.h"

typedef struct twin twin;

/* One operation from its issue until it is done. */
typedef struct rop {
    twin *tw;
    int o, t;        /* window ranks */
    int ow, tw_rank; /* world ranks */
    uint64_t out;    /* bytes of the message to the target */
    uint64_t back;   /* bytes of the reply */
    bool reply;      /* a get or a fetching accumulate */
    double work;     /* the target's computation, CPU seconds */
    uint64_t epoch;  /* PSCW: the origin's start (count) it belongs to; 0: none */
    bool started, done;
    bool want_req;    /* MPI_Rput & co.: a request follows */
    sim_request *req; /* that request, completed when the operation is done */
} rop;

/* A window as the time model sees it. */
struct twin {
    const sim_win *w;
    int n;
    GQueue *pending;     /* [n] per origin: its operations not done, in issue order */
    GPtrArray *deferred; /* operations waiting for a post to arrive */
    /* [t * n + o]: posts of target t naming o arrived at o; [o * n + t]:
     * complete messages of origin o arrived at t. */
    uint64_t *posts_in, *completes_in;
    /* [t]: unlock messages on their way to t, of exclusive and shared locks. */
    int *unlock_excl, *unlock_shared;
};

/* A control message (post, complete, unlock) on its way. */
typedef struct note {
    twin *tw;
    int kind;     /* NOTE_* */
    int from, to; /* window ranks */
    int type;     /* NOTE_UNLOCK: the lock's SIM_LK_* */
} note;

enum { NOTE_POST, NOTE_COMPLETE, NOTE_UNLOCK };

/* A lock call between its requests and its grants. */
typedef struct lockwait {
    twin *tw;
    int me, target, type;
    int requests, arrived; /* requests sent, and arrived at their targets */
    int grants;            /* grants sent back, and ... */
    int granted;           /* ... arrived */
    double asked;          /* when the requests left */
} lockwait;

static struct {
    GPtrArray *wins;  /* twin * by window index (NULL where none yet) */
    GHashTable *live; /* note * and lockwait * in flight (freed at reset) */
    rop **last;       /* [world rank]: its last request-based operation */
    int nranks;
} TR;

/* ---------------------------------------------------------------------- */
/* State                                                                   */

static void twin_free(twin *tw) {
    if (!tw)
        return;
    for (int i = 0; i < tw->n; i++)
        g_queue_clear_full(&tw->pending[i], g_free);
    g_free(tw->pending);
    g_ptr_array_free(tw->deferred, TRUE);
    g_free(tw->posts_in);
    g_free(tw->completes_in);
    g_free(tw->unlock_excl);
    g_free(tw->unlock_shared);
    g_free(tw);
}

void sim_timed_rma_reset(void) {
    if (TR.wins) {
        for (int r = 0; r < TR.nranks; r++)
            if (TR.last[r] && TR.last[r]->done)
                g_free(TR.last[r]); /* a done operation is in no queue */
        g_free(TR.last);
        for (guint i = 0; i < TR.wins->len; i++)
            twin_free(g_ptr_array_index(TR.wins, i));
        g_ptr_array_free(TR.wins, TRUE);
        g_hash_table_destroy(TR.live);
    }
    memset(&TR, 0, sizeof TR);
}

static twin *twin_of(const sim_win *w) {
    if (!TR.wins) {
        TR.wins = g_ptr_array_new();
        TR.live = g_hash_table_new_full(g_direct_hash, g_direct_equal, g_free, NULL);
        TR.nranks = sim_g->nranks;
        TR.last = g_new0(rop *, TR.nranks);
    }
    if ((guint)w->index >= TR.wins->len)
        g_ptr_array_set_size(TR.wins, (guint)w->index + 1);
    twin *tw = g_ptr_array_index(TR.wins, w->index);
    if (tw)
        return tw;
    tw = g_new0(twin, 1);
    tw->w = w;
    tw->n = w->size;
    size_t n = (size_t)w->size;
    tw->pending = g_new0(GQueue, n);
    tw->deferred = g_ptr_array_new();
    tw->posts_in = g_new0(uint64_t, n * n);
    tw->completes_in = g_new0(uint64_t, n * n);
    tw->unlock_excl = g_new0(int, n);
    tw->unlock_shared = g_new0(int, n);
    g_ptr_array_index(TR.wins, w->index) = tw;
    return tw;
}

static int world(const twin *tw, int r) {
    return tw->w->m[r].world;
}

static uint64_t type_bytes(int count, MPI_Datatype type) {
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    const sim_datatype *dt = sim_dt_get(type);
    return dt ? (uint64_t)sim_dt_size(dt) * (uint64_t)count : 0;
}

/* The basic elements an accumulate combines at the target. */
static uint64_t elements(const sim_rma_xfer *x) {
    uint64_t bytes = type_bytes(x->tcount, x->ttype);
    MPI_Datatype e = sim_rma_element_type(x->ttype);
    uint64_t size = e != MPI_DATATYPE_NULL ? type_bytes(1, e) : 0;
    return size ? bytes / size : 0;
}

/* The origin's overhead: the calling rank, now (it may block). */
static void overhead_here(uint64_t bytes) {
    sim_timed_send_overhead(bytes);
}

/* Another rank's overhead (a target answering, a receiver): at its next
 * computation, as a receiver's overhead is charged. */
static void overhead_there(int world_rank, double seconds) {
    sim_timed_charge(world_rank, seconds);
}

static double send_cost(uint64_t bytes) {
    return pm_platform_send_overhead(sim_timed_platform(), bytes);
}

static double recv_cost(uint64_t bytes) {
    return pm_platform_recv_overhead(sim_timed_platform(), bytes);
}

/* ---------------------------------------------------------------------- */
/* Operations                                                              */

static void op_done(rop *r) {
    twin *tw = r->tw;
    g_queue_remove(&tw->pending[r->o], r);
    r->done = true;
    sim_timed_wake(r->ow);
    if (r->req) {
        sim_request *req = r->req;
        req->timed_run = NULL;
        sim_req_complete_now(req);
        sim_events_changed(); /* a rank testing it may go on */
    } else {
        sim_events_changed();
    }
    /* A request-based operation whose request has not come yet stays for
     * sim_timed_rma_request; any other is finished with. */
    if (!r->want_req || r->req)
        g_free(r);
}

static void reply_arrived(void *user) {
    rop *r = user;
    overhead_there(r->ow, recv_cost(r->back));
    op_done(r);
}

/* The target has what it needs (the message, and its computation done). */
static void target_done(void *user) {
    rop *r = user;
    if (!r->reply) {
        op_done(r);
        return;
    }
    overhead_there(r->tw_rank, send_cost(r->back));
    sim_timed_send(r->tw_rank, r->ow, r->back, reply_arrived, r);
}

static void request_arrived(void *user) {
    rop *r = user;
    overhead_there(r->tw_rank, recv_cost(r->out));
    sim_timed_serve(r->tw_rank, r->work, target_done, r);
}

static void op_start(rop *r) {
    r->started = true;
    sim_timed_send(r->ow, r->tw_rank, r->out, request_arrived, r);
}

void sim_timed_rma_issued(const sim_win *w, const sim_rma_op *op, bool request) {
    if (!sim_timed_active())
        return;
    twin *tw = twin_of(w);
    rop *r = g_new0(rop, 1);
    const sim_rma_xfer *x = &op->x;
    r->tw = tw;
    r->o = op->origin;
    r->t = op->target;
    r->ow = world(tw, r->o);
    r->tw_rank = world(tw, r->t);
    uint64_t target_bytes = type_bytes(x->tcount, x->ttype);
    uint64_t elem = 0;
    switch (x->kind) {
    case SIM_RMA_PUT:
        r->out = type_bytes(x->ocount, x->otype);
        break;
    case SIM_RMA_GET:
        r->reply = true;
        r->back = target_bytes;
        break;
    case SIM_RMA_ACC:
        r->out = type_bytes(x->ocount, x->otype);
        elem = elements(x);
        break;
    case SIM_RMA_GET_ACC:
        r->out = x->op == MPI_NO_OP ? 0 : type_bytes(x->ocount, x->otype);
        r->reply = true;
        r->back = target_bytes;
        elem = elements(x);
        break;
    case SIM_RMA_FOP:
        r->out = x->op == MPI_NO_OP ? 0 : target_bytes;
        r->reply = true;
        r->back = target_bytes;
        elem = 1;
        break;
    case SIM_RMA_CAS:
        r->out = 2 * target_bytes; /* the new value and the comparand */
        r->reply = true;
        r->back = target_bytes;
        elem = 1;
        break;
    }
    r->work = (double)elem * SIM_TIMED_ACC_ELEMENT_WORK;
    r->want_req = request;
    g_queue_push_tail(&tw->pending[r->o], r);
    if (request) {
        /* A request that never came (the call failed): nobody waits for
         * that operation's request any more. */
        rop *old = TR.last[r->ow];
        if (old && old->done)
            g_free(old);
        else if (old)
            old->want_req = false;
        TR.last[r->ow] = r;
    }
    /* In an access epoch of MPI_Win_start, the data can leave only once
     * the target's post has arrived. */
    if (w->m[r->o].started)
        r->epoch = w->starts[(size_t)r->o * (size_t)tw->n + (size_t)r->t];
    overhead_here(r->out);
    if (r->epoch && tw->posts_in[(size_t)r->t * (size_t)tw->n + (size_t)r->o] < r->epoch)
        g_ptr_array_add(tw->deferred, r);
    else
        op_start(r);
}

void sim_timed_rma_request(sim_request *req) {
    if (!sim_timed_active() || !TR.last)
        return;
    int self = sched_current();
    rop *r = self >= 0 ? TR.last[self] : NULL;
    if (!r)
        return;
    TR.last[self] = NULL;
    if (r->done) {
        g_free(r); /* its request completes at once */
        return;
    }
    r->req = req;
    req->timed_run = r;
}

typedef struct quiet_args {
    twin *tw;
    int me, target;
} quiet_args;

static bool quiet(void *user) {
    const quiet_args *q = user;
    for (GList *l = q->tw->pending[q->me].head; l; l = l->next) {
        const rop *r = l->data;
        if (q->target < 0 || r->t == q->target)
            return false;
    }
    return true;
}

void sim_timed_rma_quiesce(const sim_win *w, int me, int target) {
    if (!sim_timed_active())
        return;
    quiet_args q = {twin_of(w), me, target};
    sim_timed_wait_until(quiet, &q, true);
}

/* ---------------------------------------------------------------------- */
/* Control messages                                                        */

static note *note_new(twin *tw, int kind, int from, int to, int type) {
    note *m = g_new(note, 1);
    *m = (note){tw, kind, from, to, type};
    g_hash_table_add(TR.live, m);
    return m;
}

/* Starts the operations that waited for the post of target t to origin o. */
static void start_deferred(twin *tw, int t, int o) {
    uint64_t arrived = tw->posts_in[(size_t)t * (size_t)tw->n + (size_t)o];
    for (guint i = 0; i < tw->deferred->len;) {
        rop *r = g_ptr_array_index(tw->deferred, i);
        if (r->o == o && r->t == t && r->epoch <= arrived) {
            g_ptr_array_remove_index(tw->deferred, i); /* keeps issue order */
            op_start(r);
        } else {
            i++;
        }
    }
}

static void note_arrived(void *user) {
    note *m = user;
    twin *tw = m->tw;
    size_t n = (size_t)tw->n;
    overhead_there(world(tw, m->to), recv_cost(0));
    switch (m->kind) {
    case NOTE_POST:
        tw->posts_in[(size_t)m->from * n + (size_t)m->to]++;
        start_deferred(tw, m->from, m->to);
        sim_timed_wake(world(tw, m->to));
        break;
    case NOTE_COMPLETE:
        tw->completes_in[(size_t)m->from * n + (size_t)m->to]++;
        sim_timed_wake(world(tw, m->to));
        break;
    case NOTE_UNLOCK:
        if (m->type == SIM_LK_EXCLUSIVE)
            tw->unlock_excl[m->to]--;
        else
            tw->unlock_shared[m->to]--;
        /* Whoever waits for a lock on this window may have it now. */
        for (int r = 0; r < tw->n; r++)
            sim_timed_wake(world(tw, r));
        break;
    }
    sim_events_changed(); /* MPI_Win_test pollers ask again */
    g_hash_table_remove(TR.live, m);
}

static void note_send(twin *tw, int kind, int from, int to, int type) {
    note *m = note_new(tw, kind, from, to, type);
    sim_timed_send(world(tw, from), world(tw, to), 0, note_arrived, m);
}

void sim_timed_rma_post(const sim_win *w, int me, const int *group, int n) {
    if (!sim_timed_active())
        return;
    twin *tw = twin_of(w);
    for (int i = 0; i < n; i++) {
        overhead_here(0);
        note_send(tw, NOTE_POST, me, group[i], 0);
    }
}

typedef struct pscw_args {
    twin *tw;
    int me;
} pscw_args;

/* The origin's posts have arrived and its operations are done. */
static bool access_done(void *user) {
    const pscw_args *a = user;
    const sim_win_member *m = &a->tw->w->m[a->me];
    size_t n = (size_t)a->tw->n;
    for (int i = 0; i < m->nstart; i++) {
        size_t t = (size_t)m->start_group[i];
        if (a->tw->posts_in[t * n + (size_t)a->me] < a->tw->w->starts[(size_t)a->me * n + t])
            return false;
    }
    return a->tw->pending[a->me].length == 0;
}

void sim_timed_rma_complete_begin(const sim_win *w, int me) {
    if (!sim_timed_active())
        return;
    pscw_args a = {twin_of(w), me};
    sim_timed_wait_until(access_done, &a, true);
}

void sim_timed_rma_complete_sent(const sim_win *w, int me, int target) {
    if (!sim_timed_active())
        return;
    overhead_here(0);
    note_send(twin_of(w), NOTE_COMPLETE, me, target, 0);
}

/* The target's complete messages have arrived for its current post. */
static bool exposure_done(void *user) {
    const pscw_args *a = user;
    const sim_win_member *m = &a->tw->w->m[a->me];
    size_t n = (size_t)a->tw->n;
    for (int i = 0; i < m->npost; i++) {
        size_t o = (size_t)m->post_group[i];
        if (a->tw->completes_in[o * n + (size_t)a->me] < a->tw->w->posts[(size_t)a->me * n + o])
            return false;
    }
    return true;
}

bool sim_timed_rma_exposure_arrived(const sim_win *w, int me) {
    if (!sim_timed_active())
        return true;
    pscw_args a = {twin_of(w), me};
    return exposure_done(&a);
}

void sim_timed_rma_wait(const sim_win *w, int me) {
    if (!sim_timed_active())
        return;
    pscw_args a = {twin_of(w), me};
    sim_timed_wait_until(exposure_done, &a, false);
}

/* ---------------------------------------------------------------------- */
/* Locks                                                                   */

/* One lock request on its way to one target. */
typedef struct lockmsg {
    lockwait *l;
    int target;
} lockmsg;

static void lock_request_arrived(void *user) {
    lockmsg *q = user;
    lockwait *l = q->l;
    overhead_there(world(l->tw, q->target), recv_cost(0));
    l->arrived++;
    sim_timed_wake(world(l->tw, l->me));
    g_hash_table_remove(TR.live, q);
}

static void lock_grant_arrived(void *user) {
    lockwait *l = user;
    l->granted++;
    overhead_there(world(l->tw, l->me), recv_cost(0));
    sim_timed_wake(world(l->tw, l->me));
}

void *sim_timed_rma_lock_request(const sim_win *w, int me, int target, int type) {
    if (!sim_timed_active())
        return NULL;
    twin *tw = twin_of(w);
    lockwait *l = g_new0(lockwait, 1);
    g_hash_table_add(TR.live, l);
    *l = (lockwait){tw, me, target, type, 0, 0, 0, 0, 0};
    int from = target < 0 ? 0 : target, to = target < 0 ? tw->n : target + 1;
    l->requests = to - from;
    for (int t = from; t < to; t++) {
        overhead_here(0);
        lockmsg *q = g_new(lockmsg, 1);
        *q = (lockmsg){l, t};
        g_hash_table_add(TR.live, q);
        sim_timed_send(world(tw, me), world(tw, t), 0, lock_request_arrived, q);
    }
    l->asked = sim_timed_now();
    return l;
}

/* No unlock message that a target must see before it can grant this lock
 * is still on its way. */
static bool unlocks_in(const lockwait *l) {
    int from = l->target < 0 ? 0 : l->target, to = l->target < 0 ? l->tw->n : l->target + 1;
    for (int t = from; t < to; t++)
        if (l->tw->unlock_excl[t] > 0 ||
            (l->type == SIM_LK_EXCLUSIVE && l->tw->unlock_shared[t] > 0))
            return false;
    return true;
}

/* Every request has arrived, and every target can grant it. */
static bool grantable_there(void *user) {
    const lockwait *l = user;
    return l->arrived == l->requests && unlocks_in(l);
}

static bool grants_in(void *user) {
    const lockwait *l = user;
    return l->granted == l->grants;
}

void sim_timed_rma_lock_granted(void *h) {
    lockwait *l = h;
    if (!l || !sim_timed_active())
        return;
    /* Uncontended (granted as asked, nothing to wait for but its own
     * messages), the whole call is moving messages; otherwise it waited for
     * the holders. */
    bool contended = sim_timed_now() > l->asked || !unlocks_in(l);
    sim_timed_wait_until(grantable_there, l, !contended);
    int from = l->target < 0 ? 0 : l->target, to = l->target < 0 ? l->tw->n : l->target + 1;
    l->grants = to - from;
    for (int t = from; t < to; t++) {
        overhead_there(world(l->tw, t), send_cost(0));
        sim_timed_send(world(l->tw, t), world(l->tw, l->me), 0, lock_grant_arrived, l);
    }
    sim_timed_wait_until(grants_in, l, true);
    g_hash_table_remove(TR.live, l);
}

void sim_timed_rma_unlock(const sim_win *w, int me, int target, int type) {
    if (!sim_timed_active())
        return;
    twin *tw = twin_of(w);
    int from = target < 0 ? 0 : target, to = target < 0 ? tw->n : target + 1;
    /* Counted from now: a request granted by the engine once the lock is
     * released waits for these to arrive. */
    for (int t = from; t < to; t++) {
        if (type == SIM_LK_EXCLUSIVE)
            tw->unlock_excl[t]++;
        else
            tw->unlock_shared[t]++;
    }
    for (int t = from; t < to; t++) {
        overhead_here(0);
        note_send(tw, NOTE_UNLOCK, me, t, type);
    }
}
