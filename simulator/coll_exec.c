/*
 * coll_exec.c - the data movement of collective operations (MPI 3.1
 * chapter 5), performed for every member at once when the collective fires.
 *
 * Every rank's buffers are in this address space, so a collective copies
 * straight between them.  Each execution runs in two phases: first every
 * contribution is checked against its destination and packed into a
 * temporary, then the temporaries are unpacked into the destinations.
 * Because nothing is written before everything is read, MPI_IN_PLACE (where
 * a rank's receive buffer is also its source) needs no special ordering.
 *
 * Reductions fold the packed contributions left to right in rank order,
 * (r0 op r1) op r2 ..., which MPI requires for non-commutative operations
 * and which makes results independent of the schedule.
 */
#include <glib.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/handle.h"
#include "simulator/op.h"

const char *sim_coll_name(sim_coll_kind kind) {
    static const char *const names[SIM_COLL_KIND_COUNT] = {
        [SIM_COLL_BARRIER] = "MPI_Barrier",
        [SIM_COLL_BCAST] = "MPI_Bcast",
        [SIM_COLL_REDUCE] = "MPI_Reduce",
        [SIM_COLL_ALLREDUCE] = "MPI_Allreduce",
        [SIM_COLL_GATHER] = "MPI_Gather",
        [SIM_COLL_GATHERV] = "MPI_Gatherv",
        [SIM_COLL_SCATTER] = "MPI_Scatter",
        [SIM_COLL_SCATTERV] = "MPI_Scatterv",
        [SIM_COLL_ALLGATHER] = "MPI_Allgather",
        [SIM_COLL_ALLGATHERV] = "MPI_Allgatherv",
        [SIM_COLL_ALLTOALL] = "MPI_Alltoall",
        [SIM_COLL_ALLTOALLV] = "MPI_Alltoallv",
        [SIM_COLL_ALLTOALLW] = "MPI_Alltoallw",
        [SIM_COLL_REDUCE_SCATTER] = "MPI_Reduce_scatter",
        [SIM_COLL_REDUCE_SCATTER_BLOCK] = "MPI_Reduce_scatter_block",
        [SIM_COLL_SCAN] = "MPI_Scan",
        [SIM_COLL_EXSCAN] = "MPI_Exscan",
        [SIM_COLL_NEIGHBOR_ALLGATHER] = "MPI_Neighbor_allgather",
        [SIM_COLL_NEIGHBOR_ALLGATHERV] = "MPI_Neighbor_allgatherv",
        [SIM_COLL_NEIGHBOR_ALLTOALL] = "MPI_Neighbor_alltoall",
        [SIM_COLL_NEIGHBOR_ALLTOALLV] = "MPI_Neighbor_alltoallv",
        [SIM_COLL_NEIGHBOR_ALLTOALLW] = "MPI_Neighbor_alltoallw",
        [SIM_COLL_COMM_DUP] = "MPI_Comm_dup",
        [SIM_COLL_COMM_SPLIT] = "MPI_Comm_split",
        [SIM_COLL_COMM_SPLIT_TYPE] = "MPI_Comm_split_type",
        [SIM_COLL_COMM_CREATE] = "MPI_Comm_create",
        [SIM_COLL_CART_CREATE] = "MPI_Cart_create",
        [SIM_COLL_INTERCOMM_MERGE] = "MPI_Intercomm_merge",
        [SIM_COLL_INTERCOMM_DUP] = "MPI_Comm_dup",
        [SIM_COLL_INTERCOMM_CREATE] = "MPI_Intercomm_create",
        [SIM_COLL_GRAPH_CREATE] = "MPI_Graph_create",
        [SIM_COLL_DIST_GRAPH_CREATE_ADJACENT] = "MPI_Dist_graph_create_adjacent",
        [SIM_COLL_DIST_GRAPH_CREATE] = "MPI_Dist_graph_create",
        [SIM_COLL_WIN_CREATE] = "MPI_Win_create",
        [SIM_COLL_WIN_ALLOCATE] = "MPI_Win_allocate",
        [SIM_COLL_WIN_ALLOCATE_SHARED] = "MPI_Win_allocate_shared",
        [SIM_COLL_WIN_CREATE_DYNAMIC] = "MPI_Win_create_dynamic",
        [SIM_COLL_WIN_FENCE] = "MPI_Win_fence",
        [SIM_COLL_WIN_FREE] = "MPI_Win_free",
        [SIM_COLL_FILE_OPEN] = "MPI_File_open",
        [SIM_COLL_FILE_CLOSE] = "MPI_File_close",
        [SIM_COLL_FILE_SET_VIEW] = "MPI_File_set_view",
        [SIM_COLL_FILE_SET_SIZE] = "MPI_File_set_size",
        [SIM_COLL_FILE_PREALLOCATE] = "MPI_File_preallocate",
        [SIM_COLL_FILE_SET_INFO] = "MPI_File_set_info",
        [SIM_COLL_FILE_SET_ATOMICITY] = "MPI_File_set_atomicity",
        [SIM_COLL_FILE_SYNC] = "MPI_File_sync",
        [SIM_COLL_FILE_SEEK_SHARED] = "MPI_File_seek_shared",
        [SIM_COLL_FILE_READ_AT_ALL] = "MPI_File_read_at_all",
        [SIM_COLL_FILE_WRITE_AT_ALL] = "MPI_File_write_at_all",
        [SIM_COLL_FILE_READ_ALL] = "MPI_File_read_all",
        [SIM_COLL_FILE_WRITE_ALL] = "MPI_File_write_all",
        [SIM_COLL_FILE_READ_ORDERED] = "MPI_File_read_ordered",
        [SIM_COLL_FILE_WRITE_ORDERED] = "MPI_File_write_ordered",
        [SIM_COLL_FILE_READ_AT_ALL_BEGIN] = "MPI_File_read_at_all_begin",
        [SIM_COLL_FILE_WRITE_AT_ALL_BEGIN] = "MPI_File_write_at_all_begin",
        [SIM_COLL_FILE_READ_ALL_BEGIN] = "MPI_File_read_all_begin",
        [SIM_COLL_FILE_WRITE_ALL_BEGIN] = "MPI_File_write_all_begin",
        [SIM_COLL_FILE_READ_ORDERED_BEGIN] = "MPI_File_read_ordered_begin",
        [SIM_COLL_FILE_WRITE_ORDERED_BEGIN] = "MPI_File_write_ordered_begin",
    };
    if ((unsigned)kind < SIM_COLL_KIND_COUNT && names[kind])
        return names[kind];
    return "an unknown collective";
}

const char *sim_coll_call(const sim_coll *c) {
    for (int i = 0; c->calls && i < c->comm->size; i++)
        if (c->calls[i])
            return c->calls[i];
    return sim_coll_name(c->kind);
}

/* ---------------------------------------------------------------------- */
/* Point-to-point pieces of a collective                                   */

/* One piece of data going from one member's buffer to another's (or the
 * same member's: MPI_IN_PLACE never produces those, they are skipped). */
typedef struct xfer {
    int src, dst; /* comm ranks */
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    int blame; /* comm rank reported when the two sides disagree */
    void *packed;
    size_t bytes;
} xfer;

/* Execution context of one collective: its name, root (-1 if none), and the
 * error being reported. */
typedef struct exec {
    sim_coll *c;
    const char *name;
    int root;
    GArray *xfers;
    int *err_rank;
    char **why;
} exec;

/* Buffer address `off` bytes from buf.  Integer arithmetic because buf may
 * be MPI_BOTTOM (NULL) with absolute displacements in the datatype. */
static void *at(const void *buf, MPI_Aint off) {
    return (void *)((uintptr_t)buf + (uintptr_t)off);
}

static int fail(exec *e, int errclass, int rank, char *msg) {
    *e->err_rank = rank;
    *e->why = msg;
    return errclass;
}

/* "root 0" or "rank 3", for messages. */
static const char *who(const exec *e, int r, char *buf, size_t n) {
    g_snprintf(buf, n, "%s %d", r == e->root ? "root" : "rank", r);
    return buf;
}

static const sim_datatype *type_of(MPI_Datatype t) {
    return sim_dt_get(t);
}

static void add_xfer(exec *e, int src, const void *sbuf, int scount, MPI_Datatype stype, int dst,
                     void *rbuf, int rcount, MPI_Datatype rtype, int blame) {
    xfer x = {.src = src,
              .dst = dst,
              .sbuf = sbuf,
              .scount = scount,
              .stype = stype,
              .rbuf = rbuf,
              .rcount = rcount,
              .rtype = rtype,
              .blame = blame};
    g_array_append_val(e->xfers, x);
}

/* An element count as a signature's number of passes (none when negative). */
static size_t ucount(int n) {
    return n > 0 ? (size_t)n : 0;
}

/* Checks one piece (equal amounts, matching type signatures: MPI 3.1
 * section 5.1 requires collectives to receive exactly what is sent) and
 * packs the sender's data. */
static int prepare(exec *e, xfer *x) {
    char a[32], b[32];
    const sim_datatype *sdt = type_of(x->stype), *rdt = type_of(x->rtype);
    /* A side that moves nothing may name no valid type (Alltoallw entries
     * with count 0 are commonly MPI_DATATYPE_NULL). */
    bool bad_send = !sdt && x->scount > 0, bad_recv = !rdt && x->rcount > 0;
    if (bad_send || bad_recv)
        return fail(e, MPI_ERR_TYPE, bad_send ? x->src : x->dst,
                    g_strdup_printf("%s: %s uses an invalid datatype 0x%08x", e->name,
                                    who(e, bad_send ? x->src : x->dst, a, sizeof a),
                                    (unsigned)(bad_send ? x->stype : x->rtype)));
    size_t sbytes = sdt ? sim_dt_size(sdt) * (size_t)x->scount : 0;
    size_t rbytes = rdt ? sim_dt_size(rdt) * (size_t)x->rcount : 0;
    if (sbytes != rbytes)
        return fail(e, MPI_ERR_TRUNCATE, x->blame,
                    g_strdup_printf("%s: %s receives %zu bytes (%d x %s) but %s sends %zu bytes "
                                    "(%d x %s)",
                                    e->name, who(e, x->dst, a, sizeof a), rbytes, x->rcount,
                                    sim_dt_name(x->rtype), who(e, x->src, b, sizeof b), sbytes,
                                    x->scount, sim_dt_name(x->stype)));
    if (sbytes == 0)
        return MPI_SUCCESS;
    char *diff = NULL;
    bool ok = sim_typesig_matches(sim_dt_typesig(sdt), ucount(x->scount), rdt, x->rcount, &diff);
    if (!ok) {
        int rc =
            fail(e, MPI_ERR_TYPE, x->blame,
                 g_strdup_printf("%s: the data %s sends (%d x %s) does not match what %s "
                                 "receives (%d x %s): %s",
                                 e->name, who(e, x->src, b, sizeof b), x->scount,
                                 sim_dt_name(x->stype), who(e, x->dst, a, sizeof a), x->rcount,
                                 sim_dt_name(x->rtype), diff ? diff : "type signatures differ"));
        g_free(diff);
        return rc;
    }
    x->bytes = sbytes;
    x->packed = g_malloc(sbytes);
    sim_dt_pack(sdt, x->sbuf, x->scount, x->packed);
    return MPI_SUCCESS;
}

/* Checks and packs every piece, then delivers them all. */
static int run_xfers(exec *e) {
    int rc = MPI_SUCCESS;
    for (guint i = 0; i < e->xfers->len && rc == MPI_SUCCESS; i++)
        rc = prepare(e, &g_array_index(e->xfers, xfer, i));
    for (guint i = 0; i < e->xfers->len; i++) {
        xfer *x = &g_array_index(e->xfers, xfer, i);
        if (rc == MPI_SUCCESS && x->packed)
            sim_dt_unpack(type_of(x->rtype), x->packed, x->bytes, x->rbuf, x->rcount);
        g_free(x->packed);
        x->packed = NULL;
    }
    return rc;
}

static MPI_Aint extent_of(MPI_Datatype t) {
    const sim_datatype *dt = type_of(t);
    return dt ? sim_dt_extent(dt) : 0;
}

static size_t size_of(MPI_Datatype t) {
    const sim_datatype *dt = type_of(t);
    return dt ? sim_dt_size(dt) : 0;
}

/* MPI_IN_PLACE where the standard does not allow it for this member. */
static int misplaced_in_place(exec *e, int r, const char *arg) {
    char a[32];
    return fail(e, MPI_ERR_BUFFER, r,
                g_strdup_printf("%s: %s passes MPI_IN_PLACE as %s, which only the root may do",
                                e->name, who(e, r, a, sizeof a), arg));
}

/* For the collectives where MPI_IN_PLACE must be given "at all processes"
 * (MPI 3.1: Allgather(v), Alltoall(v,w), Allreduce): all or none. */
static int check_in_place_all(exec *e) {
    const sim_coll_args *args = e->c->args;
    bool first = args[0].sendbuf == MPI_IN_PLACE;
    for (int r = 1; r < e->c->comm->size; r++)
        if ((args[r].sendbuf == MPI_IN_PLACE) != first)
            return fail(e, MPI_ERR_BUFFER, r,
                        g_strdup_printf("%s: rank %d %s MPI_IN_PLACE but rank 0 %s; either all "
                                        "ranks or none must pass it",
                                        e->name, r, first ? "does not pass" : "passes",
                                        first ? "does" : "does not"));
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Data-movement collectives                                               */

static int exec_bcast(exec *e) {
    const sim_coll_args *A = e->c->args;
    int root = e->root;
    for (int r = 0; r < e->c->comm->size; r++)
        if (r != root)
            add_xfer(e, root, A[root].recvbuf, A[root].recvcount, A[root].recvtype, r, A[r].recvbuf,
                     A[r].recvcount, A[r].recvtype, r);
    return run_xfers(e);
}

/* Gather and Gatherv: block r of the root's receive buffer gets rank r's
 * send buffer; the root's own block stays as is under MPI_IN_PLACE. */
static int exec_gather(exec *e, bool v) {
    const sim_coll_args *A = e->c->args;
    const sim_coll_args *R = &A[e->root];
    MPI_Aint ext = extent_of(R->recvtype);
    for (int r = 0; r < e->c->comm->size; r++) {
        if (A[r].sendbuf == MPI_IN_PLACE) {
            if (r != e->root)
                return misplaced_in_place(e, r, "sendbuf");
            continue;
        }
        int cnt = v ? R->recvcounts[r] : R->recvcount;
        MPI_Aint off = (MPI_Aint)(v ? R->rdispls[r] : (MPI_Aint)r * R->recvcount) * ext;
        add_xfer(e, r, A[r].sendbuf, A[r].sendcount, A[r].sendtype, e->root, at(R->recvbuf, off),
                 cnt, R->recvtype, r);
    }
    return run_xfers(e);
}

/* Scatter and Scatterv: the mirror of gather; MPI_IN_PLACE is the root's
 * recvbuf. */
static int exec_scatter(exec *e, bool v) {
    const sim_coll_args *A = e->c->args;
    const sim_coll_args *S = &A[e->root];
    MPI_Aint ext = extent_of(S->sendtype);
    for (int r = 0; r < e->c->comm->size; r++) {
        if (A[r].recvbuf == MPI_IN_PLACE) {
            if (r != e->root)
                return misplaced_in_place(e, r, "recvbuf");
            continue;
        }
        int cnt = v ? S->sendcounts[r] : S->sendcount;
        MPI_Aint off = (MPI_Aint)(v ? S->sdispls[r] : (MPI_Aint)r * S->sendcount) * ext;
        add_xfer(e, e->root, at(S->sendbuf, off), cnt, S->sendtype, r, A[r].recvbuf, A[r].recvcount,
                 A[r].recvtype, r);
    }
    return run_xfers(e);
}

/* Where rank s's contribution to an allgather(v) starts and what it is. */
static void allgather_source(const sim_coll_args *a, int s, bool v, const void **buf, int *count,
                             MPI_Datatype *type) {
    if (a->sendbuf != MPI_IN_PLACE) {
        *buf = a->sendbuf;
        *count = a->sendcount;
        *type = a->sendtype;
        return;
    }
    /* In place: the contribution already sits in its own block. */
    MPI_Aint blk = v ? a->rdispls[s] : (MPI_Aint)s * a->recvcount;
    *buf = at(a->recvbuf, blk * extent_of(a->recvtype));
    *count = v ? a->recvcounts[s] : a->recvcount;
    *type = a->recvtype;
}

/* Blames the sender when its own send and receive blocks disagree (it is
 * then the odd one out), the receiver otherwise. */
static int allgather_blame(const sim_coll_args *a, int s, int d, bool v) {
    if (a[s].sendbuf == MPI_IN_PLACE)
        return d;
    size_t own = size_of(a[s].recvtype) * (size_t)(v ? a[s].recvcounts[s] : a[s].recvcount);
    return size_of(a[s].sendtype) * (size_t)a[s].sendcount != own ? s : d;
}

static int exec_allgather(exec *e, bool v) {
    int rc = check_in_place_all(e);
    if (rc != MPI_SUCCESS)
        return rc;
    const sim_coll_args *A = e->c->args;
    int n = e->c->comm->size;
    for (int s = 0; s < n; s++) {
        const void *sbuf;
        int scount;
        MPI_Datatype stype;
        allgather_source(&A[s], s, v, &sbuf, &scount, &stype);
        for (int d = 0; d < n; d++) {
            if (d == s && A[s].sendbuf == MPI_IN_PLACE)
                continue;
            MPI_Aint blk = v ? A[d].rdispls[s] : (MPI_Aint)s * A[d].recvcount;
            add_xfer(e, s, sbuf, scount, stype, d, at(A[d].recvbuf, blk * extent_of(A[d].recvtype)),
                     v ? A[d].recvcounts[s] : A[d].recvcount, A[d].recvtype,
                     allgather_blame(A, s, d, v));
        }
    }
    return run_xfers(e);
}

/* Alltoall, Alltoallv and Alltoallw: block d of rank s's send buffer goes
 * to block s of rank d's receive buffer.  Under MPI_IN_PLACE the send block
 * is the receive block of the same index. */
static int exec_alltoall(exec *e, sim_coll_kind kind) {
    int rc = check_in_place_all(e);
    if (rc != MPI_SUCCESS)
        return rc;
    const sim_coll_args *A = e->c->args;
    int n = e->c->comm->size;
    for (int s = 0; s < n; s++) {
        const sim_coll_args *S = &A[s];
        bool in_place = S->sendbuf == MPI_IN_PLACE;
        for (int d = 0; d < n; d++) {
            if (in_place && d == s)
                continue;
            const sim_coll_args *D = &A[d];
            const void *sbuf;
            int scount;
            MPI_Datatype stype;
            void *rbuf;
            int rcount;
            MPI_Datatype rtype;
            switch (kind) {
            case SIM_COLL_ALLTOALL:
                stype = in_place ? S->recvtype : S->sendtype;
                scount = in_place ? S->recvcount : S->sendcount;
                sbuf =
                    at(in_place ? S->recvbuf : S->sendbuf, (MPI_Aint)d * scount * extent_of(stype));
                rtype = D->recvtype;
                rcount = D->recvcount;
                rbuf = at(D->recvbuf, (MPI_Aint)s * rcount * extent_of(rtype));
                break;
            case SIM_COLL_ALLTOALLV:
                stype = in_place ? S->recvtype : S->sendtype;
                scount = in_place ? S->recvcounts[d] : S->sendcounts[d];
                sbuf = at(in_place ? S->recvbuf : S->sendbuf,
                          (MPI_Aint)(in_place ? S->rdispls[d] : S->sdispls[d]) * extent_of(stype));
                rtype = D->recvtype;
                rcount = D->recvcounts[s];
                rbuf = at(D->recvbuf, (MPI_Aint)D->rdispls[s] * extent_of(rtype));
                break;
            default: /* SIM_COLL_ALLTOALLW: displacements in bytes */
                stype = in_place ? S->recvtypes[d] : S->sendtypes[d];
                scount = in_place ? S->recvcounts[d] : S->sendcounts[d];
                sbuf = at(in_place ? S->recvbuf : S->sendbuf,
                          in_place ? S->rdispls[d] : S->sdispls[d]);
                rtype = D->recvtypes[s];
                rcount = D->recvcounts[s];
                rbuf = at(D->recvbuf, D->rdispls[s]);
                break;
            }
            add_xfer(e, s, sbuf, scount, stype, d, rbuf, rcount, rtype, d);
        }
    }
    return run_xfers(e);
}

/* ---------------------------------------------------------------------- */
/* Reductions                                                              */

/* What rank r contributes to a reduction: count elements of its datatype
 * (args.sendtype) from its send buffer, or from its receive buffer under
 * MPI_IN_PLACE. */
static const void *contribution(const sim_coll_args *a) {
    return a->sendbuf == MPI_IN_PLACE ? a->recvbuf : a->sendbuf;
}

static int sum_counts(const int *counts, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += counts[i];
    return s;
}

static bool builtin_op(MPI_Op op) {
    return SIM_HANDLE_KIND(op) == SIM_HKIND_BUILTIN;
}

/* Elements each rank contributes to this reduction. */
static int reduce_count(const exec *e, const sim_coll_args *a) {
    switch (e->c->kind) {
    case SIM_COLL_REDUCE_SCATTER:
        return sum_counts(a->recvcounts, e->c->comm->size);
    case SIM_COLL_REDUCE_SCATTER_BLOCK:
        return a->recvcount * e->c->comm->size;
    default:
        return a->sendcount;
    }
}

/* Checks that every member reduces the same amount of data of the same
 * type signature with the same predefined op as the reference member ref
 * (MPI 3.1 section 5.9.1: count, datatype and op are the same on all). */
static int check_reduction(exec *e, int ref) {
    const sim_coll_args *A = e->c->args;
    int n = e->c->comm->size;
    const sim_coll_args *R = &A[ref];
    int rcount = reduce_count(e, R);
    const sim_datatype *rdt = type_of(R->sendtype);
    char a[32], b[32];
    if (!rdt)
        return fail(e, MPI_ERR_TYPE, ref,
                    g_strdup_printf("%s: %s uses an invalid datatype 0x%08x", e->name,
                                    who(e, ref, a, sizeof a), (unsigned)R->sendtype));
    size_t rbytes = sim_dt_size(rdt) * (size_t)rcount;
    for (int r = 0; r < n; r++) {
        const sim_coll_args *X = &A[r];
        if (r == ref)
            continue;
        if (e->c->kind == SIM_COLL_REDUCE_SCATTER)
            for (int i = 0; i < n; i++)
                if (X->recvcounts[i] != R->recvcounts[i])
                    return fail(e, MPI_ERR_COUNT, r,
                                g_strdup_printf("%s: rank %d passes recvcounts[%d] = %d but %s "
                                                "passes %d; recvcounts must be the same on all "
                                                "ranks",
                                                e->name, r, i, X->recvcounts[i],
                                                who(e, ref, a, sizeof a), R->recvcounts[i]));
        if (e->c->kind == SIM_COLL_REDUCE_SCATTER_BLOCK && X->recvcount != R->recvcount)
            return fail(e, MPI_ERR_COUNT, r,
                        g_strdup_printf("%s: rank %d passes recvcount %d but %s passes %d; "
                                        "recvcount must be the same on all ranks",
                                        e->name, r, X->recvcount, who(e, ref, a, sizeof a),
                                        R->recvcount));
        /* User ops cannot be compared: each rank creates its own handle for
         * what is the same function in its own copy of the program. */
        if (X->op != R->op && (builtin_op(X->op) || builtin_op(R->op)))
            return fail(e, MPI_ERR_OP, r,
                        g_strdup_printf("%s: rank %d passes %s but %s passes %s; the operation "
                                        "must be the same on all ranks",
                                        e->name, r, sim_op_name(X->op), who(e, ref, a, sizeof a),
                                        sim_op_name(R->op)));
        const sim_datatype *xdt = type_of(X->sendtype);
        if (!xdt)
            return fail(e, MPI_ERR_TYPE, r,
                        g_strdup_printf("%s: rank %d uses an invalid datatype 0x%08x", e->name, r,
                                        (unsigned)X->sendtype));
        int xcount = reduce_count(e, X);
        size_t xbytes = sim_dt_size(xdt) * (size_t)xcount;
        if (xbytes != rbytes)
            return fail(e, MPI_ERR_TRUNCATE, r,
                        g_strdup_printf("%s: rank %d contributes %zu bytes (%d x %s) but %s "
                                        "contributes %zu bytes (%d x %s)",
                                        e->name, r, xbytes, xcount, sim_dt_name(X->sendtype),
                                        who(e, ref, b, sizeof b), rbytes, rcount,
                                        sim_dt_name(R->sendtype)));
        if (xbytes == 0)
            continue;
        /* Strict equality: MPI_BYTE matching anything is a rule for
         * messages; a reduction interprets the data by its type. */
        const sim_typesig *sig = sim_dt_typesig(xdt);
        char *diff = NULL;
        bool ok = sim_typesig_same(sig, ucount(xcount), sim_dt_typesig(rdt), ucount(rcount));
        if (!ok && sim_typesig_matches(sig, ucount(xcount), rdt, rcount, &diff))
            diff = g_strdup("reductions need the same basic types on all ranks, and MPI_BYTE "
                            "does not stand in for others there");
        if (!ok) {
            int rc = fail(e, MPI_ERR_TYPE, r,
                          g_strdup_printf(
                              "%s: rank %d reduces %d x %s but %s reduces %d x %s: %s", e->name, r,
                              xcount, sim_dt_name(X->sendtype), who(e, ref, a, sizeof a), rcount,
                              sim_dt_name(R->sendtype), diff ? diff : "type signatures differ"));
            g_free(diff);
            return rc;
        }
    }
    return MPI_SUCCESS;
}

/* Packed snapshots of every member's contribution, all in the same packed
 * form since check_reduction found their signatures equal. */
static void **snapshot(exec *e, size_t bytes) {
    const sim_coll_args *A = e->c->args;
    int n = e->c->comm->size;
    void **p = g_new0(void *, n);
    for (int r = 0; r < n; r++) {
        p[r] = g_malloc0(bytes ? bytes : 1);
        if (bytes)
            sim_dt_pack(type_of(A[r].sendtype), contribution(&A[r]), reduce_count(e, &A[r]), p[r]);
    }
    return p;
}

static void free_snapshot(void **p, int n) {
    for (int r = 0; r < n; r++)
        g_free(p[r]);
    g_free(p);
}

/* Reports a failed op application; takes msg. */
static int op_failed(exec *e, int rc, int rank, char *msg) {
    rc = fail(e, rc, rank, g_strdup_printf("%s: %s", e->name, msg ? msg : "reduction failed"));
    g_free(msg);
    return rc;
}

/* p[i] := p[i-1] op p[i] for i in [1, upto]: afterwards p[i] holds the
 * prefix r0 op ... op ri.  Step i uses the op of member op_from, or of
 * member i when op_from is -1 (Scan: each rank's own function makes its
 * result). */
static int fold(exec *e, void **p, int upto, int count, MPI_Datatype type, int op_from) {
    const sim_coll_args *A = e->c->args;
    for (int i = 1; i <= upto; i++) {
        int who_op = op_from >= 0 ? op_from : i;
        char *msg = NULL;
        int rc = sim_op_apply_packed(A[who_op].op, p[i - 1], p[i], count, type, &msg);
        if (rc != MPI_SUCCESS)
            return op_failed(e, rc, who_op, msg);
    }
    return MPI_SUCCESS;
}

static void deliver(const void *packed, size_t bytes, void *buf, int count, MPI_Datatype type) {
    if (bytes)
        sim_dt_unpack(type_of(type), packed, bytes, buf, count);
}

static int exec_reduction(exec *e) {
    const sim_coll_args *A = e->c->args;
    int n = e->c->comm->size;
    sim_coll_kind kind = e->c->kind;
    int ref = kind == SIM_COLL_REDUCE ? e->root : 0;
    char a[32];

    if (kind == SIM_COLL_REDUCE) {
        for (int r = 0; r < n; r++)
            if (r != e->root && A[r].sendbuf == MPI_IN_PLACE)
                return misplaced_in_place(e, r, "sendbuf");
    } else if (kind == SIM_COLL_ALLREDUCE) {
        int rc = check_in_place_all(e);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    int rc = check_reduction(e, ref);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int r = 0; r < n; r++)
        if (sim_op_rma_only(A[r].op))
            return fail(e, MPI_ERR_OP, r,
                        g_strdup_printf("%s: %s passes %s, which MPI allows only in RMA "
                                        "accumulate operations",
                                        e->name, who(e, r, a, sizeof a), sim_op_name(A[r].op)));

    const sim_coll_args *R = &A[ref];
    MPI_Datatype type = R->sendtype;
    int count = reduce_count(e, R);
    size_t esize = size_of(type);
    size_t bytes = esize * (size_t)count;
    void **p = snapshot(e, bytes);

    switch (kind) {
    case SIM_COLL_REDUCE:
        rc = fold(e, p, n - 1, count, type, e->root);
        if (rc == MPI_SUCCESS)
            deliver(p[n - 1], bytes, R->recvbuf, R->sendcount, R->recvtype);
        break;
    case SIM_COLL_ALLREDUCE:
        rc = fold(e, p, n - 1, count, type, 0);
        for (int r = 0; rc == MPI_SUCCESS && r < n; r++)
            deliver(p[n - 1], bytes, A[r].recvbuf, A[r].sendcount, A[r].recvtype);
        break;
    case SIM_COLL_SCAN:
        rc = fold(e, p, n - 1, count, type, -1);
        for (int r = 0; rc == MPI_SUCCESS && r < n; r++)
            deliver(p[r], bytes, A[r].recvbuf, A[r].sendcount, A[r].recvtype);
        break;
    case SIM_COLL_EXSCAN:
        /* Rank r receives r0 op ... op r(r-1); the full reduction is never
         * needed, so user functions are not called for it.  Step i is done
         * for rank i+1 and uses that rank's op. */
        for (int i = 1; rc == MPI_SUCCESS && i <= n - 2; i++) {
            char *msg = NULL;
            rc = sim_op_apply_packed(A[i + 1].op, p[i - 1], p[i], count, type, &msg);
            if (rc != MPI_SUCCESS)
                rc = op_failed(e, rc, i + 1, msg);
        }
        for (int r = 1; rc == MPI_SUCCESS && r < n; r++)
            deliver(p[r - 1], bytes, A[r].recvbuf, A[r].sendcount, A[r].recvtype);
        break;
    default: { /* reduce_scatter(_block): rank r gets its block of the result */
        rc = fold(e, p, n - 1, count, type, 0);
        size_t off = 0;
        for (int r = 0; rc == MPI_SUCCESS && r < n; r++) {
            int cnt = kind == SIM_COLL_REDUCE_SCATTER ? A[r].recvcounts[r] : A[r].recvcount;
            deliver((char *)p[n - 1] + off, esize * (size_t)cnt, A[r].recvbuf, cnt, A[r].recvtype);
            off += esize * (size_t)cnt;
        }
        break;
    }
    }
    free_snapshot(p, n);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Neighbourhood collectives (MPI 3.1 section 7.6)                         */

/* Every member sends to each of its out-neighbours and receives from each
 * of its in-neighbours; sim_comm_neighbor_slot says which of the
 * receiver's slots an edge fills.  Slots of MPI_PROC_NULL neighbours are
 * left alone. */
static int exec_neighbor(exec *e, sim_coll_kind kind) {
    const sim_coll_args *A = e->c->args;
    const sim_comm *comm = e->c->comm;
    for (int r = 0; r < comm->size; r++) {
        int *in, *out, nin, nout;
        if (!sim_comm_neighbors(comm, r, &in, &nin, &out, &nout))
            return fail(
                e, MPI_ERR_TOPOLOGY, r,
                g_strdup_printf("%s: %s has no topology", e->name, sim_comm_describe(comm)));
        g_free(in);
        g_free(out);
        const sim_coll_args *S = &A[r];
        for (int j = 0; j < nout; j++) {
            int d, slot;
            char *msg = NULL;
            if (!sim_comm_neighbor_slot(comm, r, j, &d, &slot, &msg)) {
                int rc = fail(e, MPI_ERR_TOPOLOGY, r, g_strdup_printf("%s: %s", e->name, msg));
                g_free(msg);
                return rc;
            }
            if (d < 0)
                continue;
            const sim_coll_args *R = &A[d];
            const void *sbuf;
            int scount;
            MPI_Datatype stype;
            void *rbuf;
            int rcount;
            MPI_Datatype rtype;
            switch (kind) {
            case SIM_COLL_NEIGHBOR_ALLGATHER:
            case SIM_COLL_NEIGHBOR_ALLGATHERV:
                sbuf = S->sendbuf;
                scount = S->sendcount;
                stype = S->sendtype;
                break;
            case SIM_COLL_NEIGHBOR_ALLTOALL:
                sbuf = at(S->sendbuf, (MPI_Aint)j * S->sendcount * extent_of(S->sendtype));
                scount = S->sendcount;
                stype = S->sendtype;
                break;
            case SIM_COLL_NEIGHBOR_ALLTOALLV:
                sbuf = at(S->sendbuf, (MPI_Aint)S->sdispls[j] * extent_of(S->sendtype));
                scount = S->sendcounts[j];
                stype = S->sendtype;
                break;
            default: /* alltoallw: displacements in bytes, a type per neighbour */
                sbuf = at(S->sendbuf, S->sbdispls[j]);
                scount = S->sendcounts[j];
                stype = S->sendtypes[j];
                break;
            }
            switch (kind) {
            case SIM_COLL_NEIGHBOR_ALLGATHER:
            case SIM_COLL_NEIGHBOR_ALLTOALL:
                rbuf = at(R->recvbuf, (MPI_Aint)slot * R->recvcount * extent_of(R->recvtype));
                rcount = R->recvcount;
                rtype = R->recvtype;
                break;
            case SIM_COLL_NEIGHBOR_ALLGATHERV:
            case SIM_COLL_NEIGHBOR_ALLTOALLV:
                rbuf = at(R->recvbuf, (MPI_Aint)R->rdispls[slot] * extent_of(R->recvtype));
                rcount = R->recvcounts[slot];
                rtype = R->recvtype;
                break;
            default:
                rbuf = at(R->recvbuf, R->rbdispls[slot]);
                rcount = R->recvcounts[slot];
                rtype = R->recvtypes[slot];
                break;
            }
            add_xfer(e, r, sbuf, scount, stype, d, rbuf, rcount, rtype, d);
        }
    }
    return run_xfers(e);
}

/* ---------------------------------------------------------------------- */

int sim_coll_exec_data(sim_coll *c, int *err_rank, char **why) {
    exec e = {.c = c,
              .name = sim_coll_call(c),
              .root = -1,
              .xfers = g_array_new(FALSE, TRUE, sizeof(xfer)),
              .err_rank = err_rank,
              .why = why};
    switch (c->kind) {
    case SIM_COLL_BCAST:
    case SIM_COLL_REDUCE:
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        e.root = c->args[0].root;
        break;
    default:
        break;
    }
    int rc;
    switch (c->kind) {
    case SIM_COLL_BARRIER:
        rc = MPI_SUCCESS;
        break;
    case SIM_COLL_BCAST:
        rc = exec_bcast(&e);
        break;
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
        rc = exec_gather(&e, c->kind == SIM_COLL_GATHERV);
        break;
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        rc = exec_scatter(&e, c->kind == SIM_COLL_SCATTERV);
        break;
    case SIM_COLL_ALLGATHER:
    case SIM_COLL_ALLGATHERV:
        rc = exec_allgather(&e, c->kind == SIM_COLL_ALLGATHERV);
        break;
    case SIM_COLL_ALLTOALL:
    case SIM_COLL_ALLTOALLV:
    case SIM_COLL_ALLTOALLW:
        rc = exec_alltoall(&e, c->kind);
        break;
    case SIM_COLL_REDUCE:
    case SIM_COLL_ALLREDUCE:
    case SIM_COLL_REDUCE_SCATTER:
    case SIM_COLL_REDUCE_SCATTER_BLOCK:
    case SIM_COLL_SCAN:
    case SIM_COLL_EXSCAN:
        rc = exec_reduction(&e);
        break;
    case SIM_COLL_NEIGHBOR_ALLGATHER:
    case SIM_COLL_NEIGHBOR_ALLGATHERV:
    case SIM_COLL_NEIGHBOR_ALLTOALL:
    case SIM_COLL_NEIGHBOR_ALLTOALLV:
    case SIM_COLL_NEIGHBOR_ALLTOALLW:
        rc = exec_neighbor(&e, c->kind);
        break;
    default:
        rc = fail(&e, MPI_ERR_INTERN, 0,
                  g_strdup_printf("%s is not a data-movement collective", e.name));
        break;
    }
    g_array_free(e.xfers, TRUE);
    return rc;
}
