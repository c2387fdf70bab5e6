/*
 * engine.c - point-to-point messages, posted receives, and their matching.
 */
#include "simulator/engine.h"
#include "simulator/access.h"

#include <stddef.h>
#include <string.h>

#include "scheduler/loader.h"
#include "scheduler/sched.h"
#include "simulator/timed.h"

typedef struct probe_rec {
    bool active;
    int source, tag;
    sim_comm *comm;
    sim_message *seen; /* set by the event that satisfies the probe */
} probe_rec;

/* "Not yet" answers of the rank's Test/Iprobe calls (sim_test_later). */
typedef struct later_rec {
    bool said;    /* the rank's last Test/Iprobe that could succeed said "not yet" */
    bool pending; /* sim_probe said "not yet": the caller's poll is a later poll */
    bool polling; /* blocked in a later poll */
} later_rec;

typedef struct dst_queue {
    GQueue msgs;  /* sim_message *, unmatched, in send order */
    GQueue recvs; /* sim_request *, posted, in post order */
    probe_rec probe;
    later_rec later;
} dst_queue;

static dst_queue *g_q;
static int g_n;
/* Deliveries made at once (see direct_mode), counted as the scheduler's
 * events would have been. */
static uint64_t g_direct;

void sim_engine_init(int nranks) {
    g_n = nranks;
    g_direct = 0;
    g_q = g_new0(dst_queue, nranks);
    for (int i = 0; i < nranks; i++) {
        g_queue_init(&g_q[i].msgs);
        g_queue_init(&g_q[i].recvs);
    }
}

/* Freed messages, linked through link.next: a run in its steady state
 * reuses them instead of allocating one per send. */
static GList *g_free_msgs;

static sim_message *message_new(size_t bytes) {
    sim_message *m;
    if (g_free_msgs) {
        m = g_free_msgs->data;
        g_free_msgs = g_free_msgs->next;
        sim_zero(m, offsetof(sim_message, inline_data));
    } else {
        m = g_new0(sim_message, 1);
    }
    m->link.data = m;
    m->data = bytes <= SIM_MSG_INLINE ? m->inline_data : g_malloc(bytes);
    return m;
}

static void message_free(sim_message *m) {
    if (m->xfer || m->held)
        sim_timed_message_freed(m);
    if (m->data != m->inline_data)
        g_free(m->data);
    sim_typesig_unref(m->sig);
    if (m->vc)
        sim_vc_free(m->vc);
    m->link.next = g_free_msgs;
    g_free_msgs = &m->link;
}

void sim_engine_fini(void) {
    for (int i = 0; i < g_n; i++) {
        while (g_q[i].msgs.head) {
            sim_message *m = g_q[i].msgs.head->data;
            sim_queue_unlink(&g_q[i].msgs, &m->link);
            message_free(m);
        }
        while (g_q[i].recvs.head)
            sim_queue_unlink(&g_q[i].recvs, g_q[i].recvs.head);
    }
    while (g_free_msgs) {
        sim_message *m = g_free_msgs->data;
        g_free_msgs = g_free_msgs->next;
        g_free(m);
    }
    g_free(g_q);
    g_q = NULL;
}

static bool msg_matches(const sim_message *m, const sim_comm *comm, int source, int tag) {
    return m->comm == comm && !m->probed_by_mprobe &&
           (source == MPI_ANY_SOURCE || source == m->src_crank) &&
           (tag == MPI_ANY_TAG || tag == m->tag);
}

static bool recv_matches(const sim_request *r, const sim_message *m) {
    return msg_matches(m, r->comm, r->peer, r->tag);
}

/* ---------------------------------------------------------------------- */
/* Sends                                                                   */

/* Should a standard-mode send of `bytes` be buffered? */
static bool standard_buffered(size_t bytes) {
    switch (sim_g->cfg.send_mode) {
    case SIM_SEND_EAGER:
        return true;
    case SIM_SEND_RENDEZVOUS:
        return false;
    case SIM_SEND_EAGER_BELOW_LIMIT:
    default:
        return bytes < sim_g->cfg.eager_limit;
    }
}

static bool ready_receive_posted(const sim_message *m) {
    for (GList *l = g_q[m->dst].recvs.head; l; l = l->next)
        if (recv_matches(l->data, m))
            return true;
    return false;
}

static void deliver(sim_message *m, sim_request *r);

/* `ordex run` with its default schedule: no exploration or replay (where each
 * delivery is a choice the scheduler makes and records), no prediction (whose
 * timed engine orders deliveries by simulated time), no random schedule. */
static bool direct_mode(void) {
    return !sim_g->cfg.exploring && !sim_g->rng && !sim_timed_active();
}

/* Is rank blocked in a wait on req alone, so that nothing it can see and no
 * clock of its own moves until req completes?  Then completing req now or at
 * the scheduler's turn gives the same statuses, data and clocks (a delivery
 * raises clocks with a maximum, which does not depend on the order). */
static bool frozen_on(int rank, const sim_request *req) {
    const sim_proc *p = sim_proc_of(rank);
    return p->nwaits == 1 && p->waits[0] == req && !p->wait_any && !p->polling && !p->at_progress &&
           p->choice_n == 0;
}

/* Is the first message of dst's queue that receive r matches m itself, and
 * is no receive posted before r matching m?  Then MPI fixes that r gets m
 * (for a named source: the first matching message of that source on that
 * communicator, section 3.5's non-overtaking rule). */
static bool fixed_pair(int dst, const sim_message *m, const sim_request *r) {
    if (r->peer == MPI_ANY_SOURCE || !recv_matches(r, m))
        return false;
    for (GList *l = g_q[dst].msgs.head; l; l = l->next) {
        if (l->data == m)
            break;
        if (recv_matches(r, l->data))
            return false;
    }
    for (GList *l = g_q[dst].recvs.head; l && l->data != r; l = l->next)
        if (recv_matches(l->data, m))
            return false;
    return true;
}

/* Delivers buffered message m (not queued yet) at once when the receive it
 * goes to is fixed and its owner waits on it alone.  Returns whether it did. */
static bool send_now(sim_message *m) {
    if (!direct_mode() || m->sreq || g_q[m->dst].probe.active)
        return false;
    sim_request *r = NULL;
    for (GList *l = g_q[m->dst].recvs.head; l && !r; l = l->next)
        if (recv_matches(l->data, m))
            r = l->data;
    /* The queue holds no message of m's source that r matches either: m
     * would be the first (it is not linked in yet). */
    if (!r || r->peer == MPI_ANY_SOURCE || !frozen_on(m->dst, r))
        return false;
    for (GList *l = g_q[m->dst].msgs.head; l; l = l->next)
        if (recv_matches(r, l->data))
            return false;
    sim_queue_unlink(&g_q[m->dst].recvs, &r->recv_link);
    sim_events_changed();
    g_direct++;
    deliver(m, r);
    return true;
}

bool sim_engine_recv_now(sim_request *r) {
    if (!direct_mode() || r->kind != SIM_REQ_RECV || !r->posted || r->peer == MPI_ANY_SOURCE)
        return false;
    dst_queue *q = &g_q[r->owner];
    if (q->probe.active)
        return false;
    sim_message *m = NULL;
    for (GList *l = q->msgs.head; l && !m; l = l->next)
        if (recv_matches(r, l->data))
            m = l->data;
    if (!m || !fixed_pair(r->owner, m, r) || (m->sreq && !frozen_on(m->src, m->sreq)))
        return false;
    sim_queue_unlink(&q->msgs, &m->link);
    sim_queue_unlink(&q->recvs, &r->recv_link);
    sim_events_changed();
    g_direct++;
    deliver(m, r);
    return true;
}

uint64_t sim_deliveries_at_once(void) {
    return g_direct;
}

/* Posts the message of send request req (fields filled).  Returns an MPI
 * error class, reporting misuse through sim_error. */
static int post_send_into(sim_request *req) {
    sim_proc *me = sim_proc_of(sim_self());
    req->complete = false;
    req->error = MPI_SUCCESS;
    req->cancelled = false;
    if (req->peer == MPI_PROC_NULL) {
        sim_req_complete(req);
        return MPI_SUCCESS;
    }
    const sim_datatype *dt = req->dt;
    /* Predict: the sender's CPU overhead comes before the message leaves. */
    if (sim_timed_active())
        sim_timed_send_overhead((uint64_t)sim_dt_size(dt) * (uint64_t)req->count);
    size_t bytes = sim_dt_size(dt) * (size_t)req->count;
    sim_message *m = message_new(bytes ? bytes : 1);
    m->seq = sim_g->send_seq++;
    m->src = me->rank;
    /* On an intercommunicator the peer is a rank of the other group, which
     * receives on its own side of it: the message belongs to that side,
     * its source is the sender's rank in its own group. */
    sim_comm *to = req->comm->remote ? req->comm->remote : req->comm;
    m->dst = sim_comm_world(to, req->peer);
    m->src_crank = sim_comm_rank(req->comm, me->rank);
    m->tag = req->tag;
    m->comm = to;
    m->bytes = bytes;
    /* A bad buffer faults here, on the sender's stack: a crash of the sender. */
    sim_dt_pack(dt, req->buf, req->count, m->data);
    m->sig = sim_typesig_ref(sim_dt_typesig(dt));
    m->sig_count = (size_t)req->count;
    m->call_site = me->call_site;
    m->call = req->call;
    m->arrival = me->clock + sim_transfer_time(m->bytes);
    m->vc = sim_access_release(me->rank);
    req->msg = m;

    bool buffered = false;
    switch (req->send_kind) {
    case SIM_SEND_STANDARD:
        buffered = standard_buffered(m->bytes);
        break;
    case SIM_SEND_SYNC:
        buffered = false;
        break;
    case SIM_SEND_READY:
        if (!ready_receive_posted(m)) {
            message_free(m);
            req->msg = NULL;
            return sim_error(req->comm->handle, MPI_ERR_OTHER,
                             "%s: no matching receive is posted at rank %d (tag %d) when the "
                             "ready-mode send starts; MPI requires the receive to be posted first",
                             req->call, req->peer, req->tag);
        }
        buffered = standard_buffered(m->bytes);
        break;
    case SIM_SEND_BUFFERED: {
        size_t need = m->bytes + MPI_BSEND_OVERHEAD;
        if (!me->bsend_buf || me->bsend_used + need > (size_t)me->bsend_size) {
            size_t have = me->bsend_buf ? (size_t)me->bsend_size - me->bsend_used : 0;
            message_free(m);
            req->msg = NULL;
            return sim_error(req->comm->handle, MPI_ERR_BUFFER,
                             "%s: the attached buffer has %zu bytes free but this message needs "
                             "%zu (size + MPI_BSEND_OVERHEAD); attach a larger buffer with "
                             "MPI_Buffer_attach",
                             req->call, have, need);
        }
        me->bsend_used += need;
        m->bsend_bytes = need;
        buffered = true;
        break;
    }
    }
    if (buffered) {
        m->sreq = NULL;
        req->msg = NULL;
        if (send_now(m)) {
            sim_req_complete(req);
            return MPI_SUCCESS;
        }
    }
    sim_queue_push_tail_link(&g_q[m->dst].msgs, &m->link);
    sim_events_touch(m->dst);
    if (buffered) {
        m->sreq = NULL;
        req->msg = NULL;
    } else {
        m->sreq = req;
    }
    if (sim_timed_active())
        sim_timed_message_posted(m);
    if (buffered)
        sim_req_complete(req);
    return MPI_SUCCESS;
}

sim_request *sim_post_send(sim_send_kind kind, const void *buf, int count, MPI_Datatype type,
                           int dest, int tag, sim_comm *comm, const char *call, int *err) {
    sim_request *req = sim_req_new(SIM_REQ_SEND, call);
    req->send_kind = kind;
    req->buf = (void *)buf;
    req->count = count;
    sim_req_set_type(req, type);
    req->peer = dest;
    req->tag = tag;
    req->comm = comm;
    *err = post_send_into(req);
    if (*err != MPI_SUCCESS) {
        sim_req_release(req);
        return NULL;
    }
    return req;
}

/* ---------------------------------------------------------------------- */
/* Receives                                                                */

static void post_recv_into(sim_request *req) {
    req->complete = false;
    req->error = MPI_SUCCESS;
    req->cancelled = false;
    req->msg = NULL;
    if (req->peer == MPI_PROC_NULL) {
        req->status.MPI_SOURCE = MPI_PROC_NULL;
        req->status.MPI_TAG = MPI_ANY_TAG;
        sim_status_set_bytes(&req->status, 0);
        sim_req_complete(req);
        return;
    }
    req->seq = sim_g->recv_seq++;
    req->posted = true;
    req->early_offered = false;
    req->recv_link.data = req;
    sim_queue_push_tail_link(&g_q[req->owner].recvs, &req->recv_link);
    sim_events_touch(req->owner);
}

sim_request *sim_post_recv(void *buf, int count, MPI_Datatype type, int source, int tag,
                           sim_comm *comm, const char *call) {
    sim_request *req = sim_req_new(SIM_REQ_RECV, call);
    req->buf = buf;
    req->count = count;
    sim_req_set_type(req, type);
    req->peer = source;
    req->tag = tag;
    req->comm = comm;
    post_recv_into(req);
    return req;
}

int sim_start(sim_request *req) {
    req->active = true;
    if (req->kind == SIM_REQ_SEND)
        return post_send_into(req);
    post_recv_into(req);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Delivery                                                                */

typedef struct deliver_ctx {
    const sim_datatype *dt;
    sim_message *m;
    size_t bytes;
    sim_request *r;
} deliver_ctx;

static void unpack_cb(void *p) {
    deliver_ctx *d = p;
    sim_dt_unpack(d->dt, d->m->data, d->bytes, d->r->buf, d->r->count);
}

/* Copies message m into receive request r and completes both sides. */
static void deliver(sim_message *m, sim_request *r) {
    const sim_datatype *dt = r->dt;
    size_t cap = sim_dt_size(dt) * (size_t)r->count;
    size_t bytes = m->bytes <= cap ? m->bytes : cap;
    char *why = NULL;
    r->status.MPI_SOURCE = m->src_crank;
    r->status.MPI_TAG = m->tag;
    sim_status_set_bytes(&r->status, bytes);
    if (m->bytes > cap) {
        sim_req_fail(r, MPI_ERR_TRUNCATE,
                     g_strdup_printf("message truncated: rank %d sent %zu bytes (tag %d, %s at "
                                     "%s) but the receive buffer holds only %zu (count %d of %s)",
                                     m->src_crank, m->bytes, m->tag, m->call,
                                     sim_location(m->call_site), cap, r->count,
                                     sim_dt_name(r->type)));
    } else if (!sim_typesig_matches(m->sig, m->sig_count, dt, r->count, &why)) {
        sim_req_fail(r, MPI_ERR_TYPE,
                     g_strdup_printf("type signatures differ: rank %d sent with %s at %s; %s",
                                     m->src_crank, m->call, sim_location(m->call_site),
                                     why ? why : "types do not match"));
        g_free(why);
    }
    deliver_ctx d = {dt, m, bytes, r};
    sched_fault fault;
    if (!sched_protected(unpack_cb, &d, &fault))
        sim_req_fail(r, MPI_ERR_BUFFER,
                     g_strdup_printf("the receive buffer %p cannot be written (count %d of %s): "
                                     "invalid buffer",
                                     r->buf, r->count, sim_dt_name(r->type)));
    if (sim_timed_active())
        sim_timed_delivered(m, r);
    r->vc_acq = sim_vc_join(r->vc_acq, m->vc);
    if (m->sreq && m->vc) { /* the sender learns that the receive began */
        sim_vc *back = sim_access_release(r->owner);
        m->sreq->vc_acq = sim_vc_join(m->sreq->vc_acq, back);
        sim_vc_free(back);
    }
    sim_proc *rp = sim_proc_of(r->owner);
    rp->delivered_here++;
    if (rp->clock < m->arrival)
        rp->clock = m->arrival;
    if (m->sreq) {
        sim_proc *sp = sim_proc_of(m->src);
        if (sp->clock < m->arrival)
            sp->clock = m->arrival;
        m->sreq->msg = NULL;
        sim_req_complete(m->sreq);
    }
    if (m->bsend_bytes)
        sim_proc_of(m->src)->bsend_used -= m->bsend_bytes;
    r->posted = false;
    message_free(m);
    sim_count_delivery();
    sim_req_complete(r);
}

void sim_mrecv_deliver(sim_request *req, sim_message *msg) {
    req->msg = NULL;
    deliver(msg, req);
}

/* ---------------------------------------------------------------------- */
/* Enabled events                                                          */

/* Is there an earlier message than m from the same source and communicator
 * that the receive (comm, source, tag) also matches? */
static bool overtaken(GList *m_link, const sim_comm *comm, int source, int tag) {
    const sim_message *m = m_link->data;
    for (GList *l = m_link->prev; l; l = l->prev) {
        const sim_message *e = l->data;
        if (e->src == m->src && e->comm == m->comm && msg_matches(e, comm, source, tag))
            return true;
    }
    return false;
}

int sim_engine_events(int dst, sim_event *out, int max) {
    dst_queue *q = &g_q[dst];
    int n = 0;
    /* Deliveries, receive-major: the first posted receive comes first. */
    for (GList *rl = q->recvs.head; rl && n < max; rl = rl->next) {
        sim_request *r = rl->data;
        for (GList *ml = q->msgs.head; ml && n < max; ml = ml->next) {
            sim_message *m = ml->data;
            if (!recv_matches(r, m) || overtaken(ml, r->comm, r->peer, r->tag))
                continue;
            bool earlier_recv = false;
            for (GList *e = rl->prev; e && !earlier_recv; e = e->prev)
                earlier_recv = recv_matches(e->data, m);
            if (earlier_recv)
                continue;
            out[n++] = (sim_event){SIM_EV_DELIVER, dst, m->src, m->seq, m, r};
            if (r->peer != MPI_ANY_SOURCE)
                break; /* one source: only its first matching message */
        }
    }
    if (q->probe.active && !q->probe.seen) {
        for (GList *ml = q->msgs.head; ml && n < max; ml = ml->next) {
            sim_message *m = ml->data;
            if (!msg_matches(m, q->probe.comm, q->probe.source, q->probe.tag) ||
                overtaken(ml, q->probe.comm, q->probe.source, q->probe.tag))
                continue;
            out[n++] = (sim_event){SIM_EV_PROBE, dst, m->src, m->seq, m, NULL};
        }
    }
    return n;
}

bool sim_engine_recv_is_specific(const void *recv_request) {
    const sim_request *r = recv_request;
    /* The message a named-source receive gets is fixed, but when its owner
     * waits in MPI_Waitany/Waitsome or polls with MPI_Test, the order in which
     * its requests complete is something the program sees. */
    const sim_proc *p = sim_proc_of(r->owner);
    return r->peer != MPI_ANY_SOURCE && !p->wait_any && !p->polling && !p->at_progress;
}

bool sim_engine_probe_is_safe(int dst, const void *message) {
    const probe_rec *p = &g_q[dst].probe;
    if (p->source == MPI_ANY_SOURCE)
        return false;
    /* A receive the rank posted earlier could take the message first. */
    for (GList *l = g_q[dst].recvs.head; l; l = l->next)
        if (recv_matches(l->data, message))
            return false;
    return true;
}

void sim_engine_describe(const sim_event *ev, sim_event_info *out) {
    const sim_message *m = ev->a;
    out->tag = m->tag;
    out->comm = m->comm ? m->comm->id : -1;
    out->site_b = m->call_site;
    if (ev->kind == SIM_EV_DELIVER) {
        const sim_request *r = ev->b;
        out->site_a = r->call_site;
    } else {
        out->site_a = sim_proc_of(ev->rank)->call_site;
    }
}

void sim_engine_event_key(const sim_event *ev, uint64_t *msg, uint64_t *recv) {
    const sim_message *m = ev->a;
    *msg = m->seq;
    *recv = ev->kind == SIM_EV_DELIVER ? ((const sim_request *)ev->b)->seq + 1 : 0;
}

/* Does message m stay in its queue until its destination takes it?  A send
 * request the program holds could be cancelled (sim_cancel) once its owner
 * runs again, unless the program cannot call MPI_Cancel at all; a buffered
 * message has no request, and a sender blocked until all the requests it
 * waits on complete cannot run before m is received. */
static bool message_stays(const sim_message *m) {
    if (!m->sreq || !sched_program_may_cancel())
        return true;
    const sim_proc *p = sim_proc_of(m->src);
    if (p->wait_any || p->polling || p->at_progress || p->choice_n)
        return false;
    for (int i = 0; i < p->nwaits; i++)
        if (p->waits[i] == m->sreq)
            return true;
    return false;
}

/* Can `rank` still send a message? */
static bool may_send(int rank) {
    sched_state st = sched_rank_state(rank);
    return st != SCHED_DONE && st != SCHED_FAILED && !sim_proc_of(rank)->finalized;
}

/* Can no message sent from now on be matched by d's wildcard receive r
 * before d moves?  True when every other rank that may still send on r's
 * communicator already has, in d's queue, a message that r matches and
 * that will stay there: MPI's non-overtaking rule (section 3.5) keeps any
 * later message of that sender that r matches behind it. */
static bool wildcard_covered(int d, const sim_request *r) {
    const sim_comm *senders = r->comm->remote ? r->comm->remote : r->comm;
    for (int i = 0; i < senders->size; i++) {
        int c = senders->members[i];
        if (c == d || !may_send(c))
            continue;
        bool covered = false;
        for (GList *ml = g_q[d].msgs.head; ml && !covered; ml = ml->next) {
            const sim_message *m = ml->data;
            covered = m->src == c && recv_matches(r, m) && !m->hidden &&
                      !overtaken(ml, r->comm, r->peer, r->tag) && message_stays(m);
        }
        if (!covered)
            return false;
    }
    return true;
}

/* Does rank d stay blocked until one of its own events fires?  It waits
 * until all of its requests complete, one of them a receive (or it probes):
 * a send of its completing at another rank's turn does not wake it, so
 * nothing it runs can change what its receives may match meanwhile. */
static bool woken_only_by_own(int d) {
    const sim_proc *p = sim_proc_of(d);
    if (p->wait_any || p->choice_n)
        return false;
    if (g_q[d].probe.active)
        return true;
    for (int i = 0; i < p->nwaits; i++) {
        const sim_request *r = p->waits[i];
        if (r && r->kind == SIM_REQ_RECV && !r->complete)
            return true;
    }
    return false;
}

bool sim_engine_rank_persistent(int d, const sim_event *evs, int n) {
    const sim_proc *p = sim_proc_of(d);
    if (p->polling || p->at_progress)
        return false;
    /* Every receive d has posted names its source and has its message here,
     * or takes any source and every sender that may still send has a
     * message for it here (wildcard_covered): then no message sent later
     * can be matched at d before d itself moves, so ordering d's deliveries
     * among themselves covers everything. */
    for (GList *l = g_q[d].recvs.head; l; l = l->next) {
        const sim_request *r = l->data;
        if (r->peer == MPI_ANY_SOURCE) {
            if (!woken_only_by_own(d) || !wildcard_covered(d, r))
                return false;
            continue;
        }
        bool has = false;
        for (int i = 0; i < n && !has; i++)
            has = evs[i].kind == SIM_EV_DELIVER && evs[i].b == r;
        if (!has)
            return false;
    }
    if (g_q[d].probe.active && g_q[d].probe.source == MPI_ANY_SOURCE)
        return false;
    /* A nonblocking collective of d may complete through the others alone. */
    for (guint i = 0; i < p->requests->len; i++) {
        const sim_request *r = g_ptr_array_index(p->requests, i);
        if (r && r->kind == SIM_REQ_COLL && !r->complete)
            return false;
    }
    return true;
}

bool sim_engine_offer_early(void *recv_request) {
    sim_request *r = recv_request;
    if (r->early_offered)
        return false;
    r->early_offered = true;
    return true;
}

bool sim_engine_has_work(int dst) {
    return g_q[dst].msgs.length > 0 && (g_q[dst].recvs.length > 0 || g_q[dst].probe.active);
}

void sim_engine_fire(const sim_event *ev) {
    dst_queue *q = &g_q[ev->rank];
    sim_message *m = ev->a;
    if (ev->kind == SIM_EV_PROBE) {
        q->probe.seen = m;
        sched_wake(ev->rank);
        return;
    }
    sim_request *r = ev->b;
    sim_queue_unlink(&q->msgs, &m->link);
    sim_queue_unlink(&q->recvs, &r->recv_link);
    deliver(m, r);
}

/* ---------------------------------------------------------------------- */
/* Probes                                                                  */

/* The message a probe sees.  With several sources' messages there, which one
 * is a choice (MPI does not order messages of different senders): the
 * earliest sent by default, every one of them under exploration, a random
 * one with --seed. */
static GList *find_probe_match(int self, int source, int tag, sim_comm *comm, const char *call,
                               const char *later_what) {
    GPtrArray *cands = g_ptr_array_new();
    for (GList *ml = g_q[self].msgs.head; ml; ml = ml->next) {
        if (!msg_matches(ml->data, comm, source, tag) || overtaken(ml, comm, source, tag))
            continue;
        if (((const sim_message *)ml->data)->hidden) { /* predict: still in transit */
            if (source != MPI_ANY_SOURCE)
                break;
            continue;
        }
        g_ptr_array_add(cands, ml);
        if (source != MPI_ANY_SOURCE)
            break; /* one source: only its first message */
    }
    GList *hit = NULL;
    if (cands->len && later_what && sim_test_later(later_what)) {
        g_q[self].later.pending = true; /* not yet: as if nothing were there */
    } else if (cands->len && sim_timed_active()) {
        /* Predict: the message that arrived first (MPI matches in arrival order). */
        hit = g_ptr_array_index(cands, 0);
        for (guint i = 1; i < cands->len; i++) {
            GList *c = g_ptr_array_index(cands, i);
            if (((sim_message *)c->data)->ready_at < ((sim_message *)hit->data)->ready_at)
                hit = c;
        }
    } else if (cands->len) {
        /* The choice may wait (sim_set_choice_events): hold the message,
         * not its link, and find it again. */
        sim_message *m = ((GList *)g_ptr_array_index(cands, 0))->data;
        if (cands->len > 1) {
            /* One candidate per sender, in queue order, which the state
             * does not record (sim_engine_digest): name each by its sender. */
            GPtrArray *msgs = g_ptr_array_new();
            int64_t *srcs = g_new(int64_t, cands->len);
            for (guint i = 0; i < cands->len; i++) {
                sim_message *c = ((GList *)g_ptr_array_index(cands, i))->data;
                g_ptr_array_add(msgs, c);
                srcs[i] = c->src;
            }
            m = g_ptr_array_index(msgs, sim_choose_among((int)cands->len, call, srcs));
            g_free(srcs);
            g_ptr_array_free(msgs, TRUE);
        }
        hit = g_queue_find(&g_q[self].msgs, m);
    }
    g_ptr_array_free(cands, TRUE);
    return hit;
}

sim_message *sim_probe(int source, int tag, sim_comm *comm, bool block, bool take, bool *found,
                       MPI_Status *status) {
    int self = sim_self();
    *found = false;
    if (source == MPI_PROC_NULL) {
        *found = true;
        if (status != MPI_STATUS_IGNORE) {
            status->MPI_SOURCE = MPI_PROC_NULL;
            status->MPI_TAG = MPI_ANY_TAG;
            status->count_hi_and_cancelled = 0; /* not cancelled */
            sim_status_set_bytes(status, 0);
        }
        return NULL;
    }
    GList *hit = find_probe_match(
        self, source, tag, comm,
        block ? (take ? "MPI_Mprobe" : "MPI_Probe") : (take ? "MPI_Improbe" : "MPI_Iprobe"),
        block ? NULL : (take ? "MPI_Improbe:now-or-later" : "MPI_Iprobe:now-or-later"));
    if (!hit && block) {
        probe_rec *p = &g_q[self].probe;
        *p = (probe_rec){true, source, tag, comm, NULL};
        sim_events_touch(self);
        while (!p->seen)
            sched_block();
        hit = g_queue_find(&g_q[self].msgs, p->seen);
        p->active = false;
        p->seen = NULL;
    }
    if (!hit)
        return NULL;
    sim_message *m = hit->data;
    *found = true;
    if (status != MPI_STATUS_IGNORE) { /* every field but MPI_ERROR (sim_call_status_output) */
        status->MPI_SOURCE = m->src_crank;
        status->MPI_TAG = m->tag;
        status->count_hi_and_cancelled = 0; /* a message probed is not cancelled */
        sim_status_set_bytes(status, m->bytes);
    }
    if (!take)
        return m;
    sim_queue_unlink(&g_q[self].msgs, hit);
    return m;
}

/* ---------------------------------------------------------------------- */
/* "Not yet" answers of MPI_Test and nonblocking probes                     */

bool sim_test_later(const char *what) {
    if (!sim_g->cfg.test_later || sim_timed_active())
        return false;
    later_rec *l = &g_q[sim_self()].later;
    if (l->said) { /* at most once in a row: a polling loop ends */
        l->said = false;
        return false;
    }
    l->said = sim_choose(2, what) == 1;
    return l->said;
}

void sim_poll_later(void) {
    later_rec *l = &g_q[sim_self()].later;
    l->polling = true;
    sim_poll_block();
    l->polling = false;
}

void sim_probe_poll(void) {
    later_rec *l = &g_q[sim_self()].later;
    bool later = l->pending;
    l->pending = false;
    if (later)
        sim_poll_later();
    else
        sim_poll_block();
}

bool sim_engine_wake_later(void) {
    if (!sim_g->cfg.test_later)
        return false;
    bool any = false;
    for (int d = 0; d < g_n; d++)
        if (g_q[d].later.polling && sim_proc_of(d)->polling) {
            sched_wake(d);
            any = true;
        }
    return any;
}

/* Describes the probe a rank is blocked in, for reports; false if none. */
bool sim_engine_probe_of(int rank, int *source, int *tag, sim_comm **comm) {
    probe_rec *p = &g_q[rank].probe;
    if (!p->active)
        return false;
    *source = p->source;
    *tag = p->tag;
    *comm = p->comm;
    return true;
}

/* ---------------------------------------------------------------------- */
/* Cancellation and leftovers                                              */

void sim_cancel(sim_request *req) {
    if (req->complete)
        return;
    if (req->kind == SIM_REQ_RECV && req->posted) {
        sim_queue_unlink(&g_q[req->owner].recvs, &req->recv_link);
        req->posted = false;
    } else if (req->kind == SIM_REQ_SEND && req->msg) {
        sim_message *m = req->msg;
        sim_queue_unlink(&g_q[m->dst].msgs, &m->link);
        if (m->bsend_bytes)
            sim_proc_of(m->src)->bsend_used -= m->bsend_bytes;
        message_free(m);
        req->msg = NULL;
    } else {
        return;
    }
    req->cancelled = true;
    sim_req_complete(req);
}

void sim_unmatched_messages(GPtrArray *out) {
    for (int i = 0; i < g_n; i++)
        for (GList *l = g_q[i].msgs.head; l; l = l->next)
            g_ptr_array_add(out, l->data);
}

/* ---------------------------------------------------------------------- */
/* State digest                                                            */

static gint by_source(gconstpointer a, gconstpointer b) {
    const sim_message *x = *(sim_message *const *)a, *y = *(sim_message *const *)b;
    return x->src < y->src ? -1 : x->src > y->src;
}

void sim_engine_digest(sim_digest_feed feed, void *user) {
    GPtrArray *msgs = g_ptr_array_new();
    for (int d = 0; d < g_n; d++) {
        dst_queue *q = &g_q[d];
        if (q->later.said || q->later.polling) { /* what the rank's next Test may answer */
            int64_t l[4] = {-2, d, q->later.said, q->later.polling};
            feed(user, l, sizeof l);
        }
        if (!q->msgs.length && !q->recvs.length && !q->probe.active)
            continue;
        int64_t head[4] = {d, q->msgs.length, q->recvs.length, q->probe.active};
        feed(user, head, sizeof head);
        /* Messages from one source stay in send order; how sends of
         * different sources interleave in the queue is not state. */
        g_ptr_array_set_size(msgs, 0);
        for (GList *l = q->msgs.head; l; l = l->next)
            g_ptr_array_add(msgs, l->data);
        g_ptr_array_sort(msgs, by_source); /* stable: a merge sort */
        for (guint i = 0; i < msgs->len; i++) {
            const sim_message *m = g_ptr_array_index(msgs, i);
            int64_t f[6] = {m->src,
                            m->tag,
                            sim_comm_digest_id(m->comm),
                            (int64_t)m->bytes,
                            m->sreq != NULL,
                            (int64_t)m->bsend_bytes};
            feed(user, f, sizeof f);
            feed(user, m->data, m->bytes);
        }
        for (GList *l = q->recvs.head; l; l = l->next)
            sim_req_digest(l->data, feed, user);
        if (q->probe.active) {
            int64_t p[3] = {q->probe.source, q->probe.tag, sim_comm_digest_id(q->probe.comm)};
            feed(user, p, sizeof p);
        }
    }
    g_ptr_array_free(msgs, TRUE);
}
