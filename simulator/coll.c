/*
 * coll.c - arrival of members at collectives, and firing complete ones.
 */
#include <math.h>
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/engine.h"
#include "simulator/intercomm.h"
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
    c->left_early = g_new0(bool, comm->size);
    c->snapshots = g_new0(void *, comm->size);
    return c;
}

static void coll_free(sim_coll *c) {
    for (int i = 0; i < c->comm->size; i++)
        g_free(c->snapshots[i]);
    g_free(c->left_early);
    g_free(c->snapshots);
    g_free(c->args);
    g_free(c->reqs);
    g_free(c->call_sites);
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
    if (!c->reqs[me] || c->left_early[me])
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
    if (c->kind != SIM_COLL_BCAST || !c->reqs[me] || c->left_early[me] || root == me || root < 0 ||
        root >= c->comm->size || (!c->reqs[root] && !c->left_early[root]))
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
    if (sim_choose(2, early_name(c->kind)) == 1)
        sim_coll_leave_early(c, me);
}

sim_request *sim_coll_post(sim_comm *comm, sim_coll_kind kind, const sim_coll_args *args) {
    int self = sim_self();
    int me = sim_comm_rank(comm, self);
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
        if (c->kind != kind || (rooted(kind) && c->args[first].root != args->root)) {
            char *mine = rooted(kind)
                             ? g_strdup_printf("%s(root=%d)", sim_coll_name(kind), args->root)
                             : g_strdup(sim_coll_name(kind));
            char *theirs = rooted(c->kind) ? g_strdup_printf("%s(root=%d)", sim_coll_name(c->kind),
                                                             c->args[first].root)
                                           : g_strdup(sim_coll_name(c->kind));
            int rc = sim_error(comm->handle, MPI_ERR_OTHER,
                               "collective mismatch on %s: as its %" G_GUINT64_FORMAT
                               "%s collective there, rank %d calls %s but rank %d called %s at %s",
                               sim_comm_describe(comm), seq + 1, ordinal_suffix(seq + 1), me, mine,
                               first, theirs, sim_location(c->call_sites[first]));
            g_free(mine);
            g_free(theirs);
            (void)rc;
            return NULL;
        }
    }
    sim_request *req = sim_req_new(SIM_REQ_COLL, sim_coll_name(kind));
    req->comm = comm;
    req->coll = c;
    c->args[me] = *args;
    c->reqs[me] = req;
    c->call_sites[me] = sim_proc_of(self)->call_site;
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
    if (e->c->kind >= SIM_COLL_WIN_CREATE)
        e->rc = sim_rma_exec_coll(e->c, &e->err_rank, &e->why);
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
                                sim_coll_name(c->kind), fault.addr);
    }
    if (c->kind == SIM_COLL_COMM_DUP || c->kind == SIM_COLL_INTERCOMM_DUP)
        for (int i = 0; i < comm->size; i++)
            if (c->args[i].idup)
                sim_comm_idup_done(sim_comm_world(comm, i), &c->args[i], e.rc == MPI_SUCCESS);
    sim_timed_coll_fired(c);
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
