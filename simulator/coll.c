/*
 * coll.c - arrival of members at collectives, and firing complete ones.
 */
#include <math.h>
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/access.h"
#include "simulator/coll_inter.h"
#include "simulator/engine.h"
#include "simulator/file.h"
#include "simulator/intercomm.h"
#include "simulator/op.h"
#include "simulator/rma.h"

void sim_coll_init(void) {}
void sim_coll_fini(void) {}

static sim_coll *coll_new(sim_comm *comm, sim_coll_kind kind, uint64_t seq) {
    sim_coll *c = g_new0(sim_coll, 1);
    c->comm = comm;
    c->kind = kind;
    c->seq = seq;
    c->args = g_new0(sim_coll_args, comm->size);
    c->reqs = g_new0(sim_request *, comm->size);
    c->call_sites = g_new0(void *, comm->size);
    c->calls = g_new0(const char *, comm->size);
    c->left_early = g_new0(bool, comm->size);
    c->snapshots = g_new0(void *, comm->size);
    return c;
}

static void coll_free(sim_coll *c) {
    for (int i = 0; i < c->comm->size; i++) {
        g_free(c->snapshots[i]);
        if (c->vcs)
            sim_vc_free(c->vcs[i]);
    }
    g_free(c->vcs);
    for (guint i = 0; c->held_types && i < c->held_types->len; i++)
        sim_dt_unref(g_ptr_array_index(c->held_types, i));
    if (c->held_types)
        g_ptr_array_free(c->held_types, TRUE);
    for (guint i = 0; c->held_ops && i < c->held_ops->len; i++)
        sim_op_unref(g_array_index(c->held_ops, MPI_Op, i));
    if (c->held_ops)
        g_array_free(c->held_ops, TRUE);
    g_free(c->left_early);
    g_free(c->snapshots);
    g_free(c->args);
    g_free(c->reqs);
    g_free(c->call_sites);
    g_free(c->calls);
    g_free(c);
}

static bool rooted(sim_coll_kind k) {
    switch (k) {
    case SIM_COLL_BCAST:
    case SIM_COLL_REDUCE:
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        return true;
    default:
        return false;
    }
}

static const char *ordinal_suffix(uint64_t n) {
    if (n % 100 >= 11 && n % 100 <= 13)
        return "th";
    switch (n % 10) {
    case 1:
        return "st";
    case 2:
        return "nd";
    case 3:
        return "rd";
    default:
        return "th";
    }
}

/* The buffer a member that may leave early contributes: a Bcast root's
 * data, a Reduce or Gather non-root's send buffer, a Scatter root's send
 * buffer.  NULL when this member must wait for the others. */
static const void *early_contribution(const sim_coll *c, int me, int *count, MPI_Datatype *type) {
    const sim_coll_args *a = &c->args[me];
    bool root = me == a->root;
    switch (c->kind) {
    case SIM_COLL_BCAST:
        *count = a->sendcount;
        *type = a->sendtype;
        return root ? a->sendbuf : NULL;
    case SIM_COLL_REDUCE:
    case SIM_COLL_GATHER:
        *count = a->sendcount;
        *type = a->sendtype;
        return root || a->sendbuf == MPI_IN_PLACE ? NULL : a->sendbuf;
    case SIM_COLL_SCATTER:
        *count = a->sendcount * c->comm->size;
        *type = a->sendtype;
        return root ? a->sendbuf : NULL;
    default:
        return NULL;
    }
}

/* Static strings: traces keep the pointer and read it in another process.
 * One word each, as trace files write them as a key's value; reports spell
 * them out (stategraph/trace.c). */
static const char *early_name(sim_coll_kind k) {
    switch (k) {
    case SIM_COLL_BCAST:
        return "MPI_Bcast:leave-early";
    case SIM_COLL_REDUCE:
        return "MPI_Reduce:leave-early";
    case SIM_COLL_GATHER:
        return "MPI_Gather:leave-early";
    default:
        return "MPI_Scatter:leave-early";
    }
}

/* Under exploration, a member that MPI allows to return before the others
 * arrive is a choice: wait (synchronise) or leave now with a copy of its
 * contribution.  Both are correct MPI; a program may only work with one. */
bool sim_coll_may_leave_early(const sim_coll *c, int me) {
    /* On an intercommunicator the roles differ by group (coll_inter.c);
     * its members wait for the collective. */
    if (!c->reqs[me] || c->left_early[me] || c->comm->inter)
        return false;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    const void *buf = early_contribution(c, me, &count, &type);
    return buf && sim_dt_get(type) && count > 0;
}

void sim_coll_leave_early(sim_coll *c, int me) {
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    const void *buf = early_contribution(c, me, &count, &type);
    const sim_datatype *dt = sim_dt_get(type);
    sim_request *req = c->reqs[me];
    /* Copy the bytes the contribution spans, keeping its layout. */
    MPI_Aint lb = sim_dt_true_lb(dt), extent = sim_dt_extent(dt);
    size_t span = (size_t)((MPI_Aint)(count - 1) * extent + sim_dt_true_extent(dt));
    char *copy = g_malloc(span ? span : 1);
    memcpy(copy, (const char *)buf + lb, span);
    c->snapshots[me] = copy;
    const void *moved = (const void *)((uintptr_t)copy - (uintptr_t)lb);
    sim_coll_args *a = &c->args[me];
    if (c->kind == SIM_COLL_SCATTER && a->recvbuf != MPI_IN_PLACE) {
        /* The root's own block is its to receive before it returns; the
         * collective then leaves its receive buffer alone (in place). */
        const sim_datatype *rdt = sim_dt_get(a->recvtype);
        size_t bytes = sim_dt_size(dt) * (size_t)a->sendcount;
        if (rdt && bytes <= sim_dt_size(rdt) * (size_t)(a->recvcount > 0 ? a->recvcount : 0)) {
            char *packed = g_malloc(bytes ? bytes : 1);
            sim_dt_pack(dt, (const char *)buf + (MPI_Aint)me * a->sendcount * extent, a->sendcount,
                        packed);
            sim_dt_unpack(rdt, packed, bytes, a->recvbuf, a->recvcount);
            g_free(packed);
            a->recvbuf = MPI_IN_PLACE;
        }
    }
    if (c->kind == SIM_COLL_BCAST)
        c->args[me].sendbuf = c->args[me].recvbuf = (void *)moved;
    else
        c->args[me].sendbuf = moved;
    c->left_early[me] = true;
    c->reqs[me] = NULL;
    req->coll = NULL;
    sim_req_complete(req);
}

/* A copy of `count` elements of dt at buf, keeping its layout; returns the
 * address that stands for buf in the copy (the copy itself goes to *block). */
static void *copy_span(const void *buf, int count, const sim_datatype *dt, void **block) {
    MPI_Aint lb = sim_dt_true_lb(dt), extent = sim_dt_extent(dt);
    size_t span = count > 0 ? (size_t)((MPI_Aint)(count - 1) * extent + sim_dt_true_extent(dt)) : 0;
    char *copy = g_malloc(span ? span : 1);
    if (span)
        memcpy(copy, (const char *)buf + lb, span);
    *block = copy;
    return (void *)((uintptr_t)copy - (uintptr_t)lb);
}

typedef struct bcast_copy {
    const sim_datatype *from, *to;
    const void *src;
    void *dst;
    int from_count, to_count;
    size_t bytes;
} bcast_copy;

static void bcast_copy_cb(void *p) {
    bcast_copy *b = p;
    char *packed = g_malloc(b->bytes ? b->bytes : 1);
    sim_dt_pack(b->from, b->src, b->from_count, packed);
    sim_dt_unpack(b->to, packed, b->bytes, b->dst, b->to_count);
    g_free(packed);
}

bool sim_coll_deliver_early(sim_coll *c, int me) {
    const sim_coll_args *mine = &c->args[me];
    int root = mine->root;
    if (c->kind != SIM_COLL_BCAST || c->comm->inter || !c->reqs[me] || c->left_early[me] ||
        root == me || root < 0 || root >= c->comm->size || (!c->reqs[root] && !c->left_early[root]))
        return false;
    const sim_coll_args *from = &c->args[root];
    const sim_datatype *fdt = sim_dt_get(from->sendtype), *tdt = sim_dt_get(mine->recvtype);
    if (!fdt || !tdt || from->sendcount < 0 || mine->recvcount < 0)
        return false;
    size_t bytes = sim_dt_size(fdt) * (size_t)from->sendcount;
    if (bytes != sim_dt_size(tdt) * (size_t)mine->recvcount)
        return false; /* a mismatch: the collective reports it when it fires */
    if (!sim_typesig_matches(sim_dt_typesig(fdt), (size_t)from->sendcount, tdt, mine->recvcount,
                             NULL))
        return false;
    bcast_copy b = {fdt,  tdt, from->sendbuf, mine->recvbuf, from->sendcount, mine->recvcount,
                    bytes};
    sched_fault fault;
    if (!sched_protected(bcast_copy_cb, &b, &fault))
        return false; /* a bad buffer: reported when the collective fires */
    /* The collective still moves the data when every member has arrived; this
     * member's buffer is its own again, so that copy goes to a scratch copy. */
    void *moved = copy_span(mine->recvbuf, mine->recvcount, tdt, &c->snapshots[me]);
    c->args[me].sendbuf = c->args[me].recvbuf = moved;
    sim_request *req = c->reqs[me];
    c->left_early[me] = true;
    c->reqs[me] = NULL;
    req->coll = NULL;
    sim_req_complete(req);
    return true;
}

static void maybe_leave_early(sim_coll *c, int me) {
    if (!sim_g->cfg.early_collectives || !sim_coll_may_leave_early(c, me))
        return;
    /* Asked again after the choice, which may wait (sim_set_choice_events);
     * other members arriving meanwhile change nothing of this member's. */
    if (sim_choose(2, early_name(c->kind)) == 1 && sim_coll_may_leave_early(c, me))
        sim_coll_leave_early(c, me);
}

static void hold_type(sim_coll *c, MPI_Datatype type) {
    const sim_datatype *dt = type != MPI_DATATYPE_NULL ? sim_dt_get(type) : NULL;
    if (!dt || sim_dt_is_predefined(type))
        return;
    if (!c->held_types)
        c->held_types = g_ptr_array_new();
    g_ptr_array_add(c->held_types, (gpointer)sim_dt_ref(dt));
}

/* Holds what a member's arguments name that the program may free before
 * the collective completes: its derived datatypes and its user op. */
static void hold_objects(sim_coll *c, int me, const sim_coll_args *a) {
    hold_type(c, a->sendtype);
    hold_type(c, a->recvtype);
    /* Per-peer arrays: one entry per member, or per member of the other
     * group on an intercommunicator. */
    int peers =
        c->comm->inter && sim_coll_inter_owns(c) ? sim_coll_inter_peers(c, me) : c->comm->size;
    for (int i = 0; i < peers; i++) {
        if (a->sendtypes && a->sendbuf != MPI_IN_PLACE)
            hold_type(c, a->sendtypes[i]);
        if (a->recvtypes)
            hold_type(c, a->recvtypes[i]);
    }
    if (a->op != MPI_OP_NULL && a->op != 0 && sim_op_valid(a->op) &&
        SIM_HANDLE_KIND(a->op) == SIM_HKIND_DIRECT) {
        if (!c->held_ops)
            c->held_ops = g_array_new(FALSE, FALSE, sizeof(MPI_Op));
        sim_op_ref(a->op);
        g_array_append_val(c->held_ops, a->op);
    }
}

/* "MPI_Ibcast(root=0)": a member's call for mismatch reports (g_free). */
static char *call_text(const char *call, sim_coll_kind kind, int root) {
    if (!rooted(kind))
        return g_strdup(call);
    /* An intercommunicator's root group passes these. */
    if (root == MPI_ROOT || root == MPI_PROC_NULL)
        return g_strdup_printf("%s(root=%s)", call,
                               root == MPI_ROOT ? "MPI_ROOT" : "MPI_PROC_NULL");
    return g_strdup_printf("%s(root=%d)", call, root);
}

/* A member's call does not match the collective that the first member
 * fixed: reports it naming both calls, the same whichever of the two
 * arrived last (so that orderings in which they arrive the other way round
 * find the same error). */
static void report_mismatch(sim_coll *c, int first, int me, sim_coll_kind kind,
                            const sim_coll_args *args, const char *call) {
    sim_comm *comm = c->comm;
    int a = first < me ? first : me, b = first < me ? me : first;
    char *text[2];
    void *site[2];
    int world[2];
    for (int i = 0; i < 2; i++) {
        int r = i == 0 ? a : b;
        bool mine = r == me;
        text[i] = call_text(mine ? call : c->calls[r], mine ? kind : c->kind,
                            mine ? args->root : c->args[r].root);
        site[i] = mine ? sim_proc_of(sim_self())->call_site : c->call_sites[r];
        world[i] = sim_comm_world(comm, r);
    }
    bool nb_differs = c->kind == kind && c->args[first].nonblocking != args->nonblocking;
    const char *blocking_call = args->nonblocking ? c->calls[first] : call;
    const char *nonblocking_call = args->nonblocking ? call : c->calls[first];
    char *why = nb_differs ? g_strdup_printf("; %s is nonblocking and %s blocking: a nonblocking "
                                             "collective never matches a blocking one (MPI 3.1 "
                                             "section 5.12), and a real MPI may hang or mix up "
                                             "their data",
                                             nonblocking_call, blocking_call)
                           : g_strdup("; all members must call the same collective, with the "
                                      "same root, in the same order (MPI 3.1 section 5.12)");
    char *loc0 = g_strdup(sim_location(site[0]));
    char *where = world[0] == a && world[1] == b ? g_strdup("")
                                                 : g_strdup_printf(" (comm ranks %d and %d)", a, b);
    sim_error_ranks(comm->handle, MPI_ERR_OTHER, site[0], world, 2,
                    "collective mismatch on %s: as their %" G_GUINT64_FORMAT
                    "%s collective there, rank %d calls %s at %s and rank %d calls %s at %s%s%s",
                    sim_comm_describe(comm), c->seq + 1, ordinal_suffix(c->seq + 1), world[0],
                    text[0], loc0, world[1], text[1], sim_location(site[1]), where, why);
    g_free(where);
    g_free(loc0);
    g_free(why);
    g_free(text[0]);
    g_free(text[1]);
}

sim_request *sim_coll_post(sim_comm *comm, sim_coll_kind kind, const sim_coll_args *args) {
    int self = sim_self();
    int me = sim_comm_rank(comm, self);
    sim_proc *p = sim_proc_of(self);
    const char *call = p->call ? p->call : sim_coll_name(kind);
    if (p->coll_call) /* MPI_Start of a persistent collective: the call that made it */
        call = p->coll_call;
    uint64_t seq = comm->coll_posted[me]++;
    sim_coll *c = g_hash_table_lookup(comm->colls, &seq);
    if (!c) {
        c = coll_new(comm, kind, seq);
        uint64_t *key = g_new(uint64_t, 1);
        *key = seq;
        g_hash_table_insert(comm->colls, key, c);
    } else {
        /* The first member fixed what this collective is; all must agree. */
        int first = -1;
        for (int i = 0; i < comm->size && first < 0; i++)
            if (c->reqs[i] || c->left_early[i])
                first = i;
        /* Intercommunicator roots differ by role (MPI_ROOT, MPI_PROC_NULL, a
         * rank): coll_inter.c checks them when the collective fires. */
        if (c->kind != kind ||
            (rooted(kind) && !comm->inter && c->args[first].root != args->root) ||
            c->args[first].nonblocking != args->nonblocking) {
            report_mismatch(c, first, me, kind, args, call);
            return NULL;
        }
    }
    sim_request *req = sim_req_new(SIM_REQ_COLL, call);
    req->comm = comm;
    req->coll = c;
    c->args[me] = *args;
    c->reqs[me] = req;
    c->call_sites[me] = p->call_site;
    c->calls[me] = call;
    hold_objects(c, me, args);
    if (sim_access_enabled()) {
        if (!c->vcs)
            c->vcs = g_new0(struct sim_vc *, comm->size);
        c->vcs[me] = sim_access_release(self);
    }
    c->arrived++;
    sim_events_changed();
    if (c->arrived == comm->size)
        sim_events_coll_ready(c);
    else
        maybe_leave_early(c, me);
    /* Predict: its part of the algorithm starts now (it may even finish and
     * leave early; keep req valid for the caller all the same). */
    sim_timed_coll_arrive(c, me, req);
    return req;
}

typedef struct exec_ctx {
    sim_coll *c;
    int rc;
    int err_rank;
    char *why;
} exec_ctx;

static void exec_cb(void *p) {
    exec_ctx *e = p;
    if (e->c->kind >= SIM_COLL_FILE_OPEN)
        e->rc = sim_file_exec_coll(e->c, &e->err_rank, &e->why);
    else if (e->c->kind >= SIM_COLL_WIN_CREATE)
        e->rc = sim_rma_exec_coll(e->c, &e->err_rank, &e->why);
    else if (sim_coll_inter_owns(e->c))
        e->rc = sim_coll_inter_exec(e->c, &e->err_rank, &e->why);
    else if (e->c->kind == SIM_COLL_INTERCOMM_CREATE)
        e->rc = sim_intercomm_exec_create(e->c, &e->err_rank, &e->why);
    else if (e->c->kind >= SIM_COLL_COMM_DUP)
        e->rc = sim_comm_exec_create(e->c, &e->err_rank, &e->why);
    else
        e->rc = sim_coll_exec_data(e->c, &e->err_rank, &e->why);
}

/* log2 rounded up: the depth of the tree algorithms the time model assumes. */
static int tree_depth(int n) {
    int d = 0;
    while ((1 << d) < n)
        d++;
    return d;
}

void sim_coll_fire(sim_coll *c) {
    sim_comm *comm = c->comm;
    g_hash_table_remove(comm->colls, &c->seq);
    exec_ctx e = {c, MPI_SUCCESS, -1, NULL};
    sched_fault fault;
    if (!sched_protected(exec_cb, &e, &fault)) {
        e.rc = MPI_ERR_BUFFER;
        e.err_rank = -1;
        e.why = g_strdup_printf("a buffer passed to %s cannot be accessed (invalid address %p)",
                                sim_coll_call(c), fault.addr);
    }
    if (c->kind == SIM_COLL_COMM_DUP || c->kind == SIM_COLL_INTERCOMM_DUP)
        for (int i = 0; i < comm->size; i++)
            if (c->args[i].idup)
                sim_comm_idup_done(sim_comm_world(comm, i), &c->args[i], e.rc == MPI_SUCCESS);
    sim_timed_coll_fired(c);
    sim_access_coll_fired(c);
    /* Everyone leaves after the last arrival, plus a tree's worth of latency. */
    double t = 0;
    for (int i = 0; i < comm->size; i++) {
        double ci = sim_proc_of(sim_comm_world(comm, i))->clock;
        if (ci > t)
            t = ci;
    }
    t += tree_depth(comm->size) * sim_transfer_time(0);
    for (int i = 0; i < comm->size; i++) {
        sim_proc_of(sim_comm_world(comm, i))->clock = t;
        sim_request *r = c->reqs[i];
        if (!r) /* it left early; its request is complete already */
            continue;
        if (e.rc != MPI_SUCCESS && (e.err_rank == i || e.err_rank < 0))
            sim_req_fail(r, e.rc, g_strdup(e.why ? e.why : "failed"));
        r->coll = NULL;
        sim_req_complete(r);
    }
    g_free(e.why);
    coll_free(c);
}
