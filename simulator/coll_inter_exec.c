/*
 * coll_inter_exec.c - what a collective on an intercommunicator does once
 * both groups have arrived, and what it costs under predict (see
 * coll_inter.h).  Pure: it reads and writes the members' buffers and makes
 * communicators, and calls nothing of the simulator's core, so it is
 * unit-tested on its own (tests/coll/test_coll_inter.c).
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "simulator/coll_inter.h"
#include "simulator/datatype.h"
#include "simulator/handle.h"
#include "simulator/op.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int try_rc_ = (expr);                                                                      \
        if (try_rc_ != MPI_SUCCESS)                                                                \
            return try_rc_;                                                                        \
    } while (0)

static bool rooted(sim_coll_kind kind) {
    return kind == SIM_COLL_BCAST || kind == SIM_COLL_REDUCE || kind == SIM_COLL_GATHER ||
           kind == SIM_COLL_GATHERV || kind == SIM_COLL_SCATTER || kind == SIM_COLL_SCATTERV;
}

/* ---------------------------------------------------------------------- */
/* Execution                                                               */

bool sim_coll_inter_owns(const sim_coll *c) {
    return c->comm->inter && c->kind != SIM_COLL_INTERCOMM_MERGE &&
           c->kind != SIM_COLL_INTERCOMM_DUP && c->kind != SIM_COLL_INTERCOMM_CREATE &&
           c->kind < SIM_COLL_WIN_CREATE;
}

/* The two groups in `both`: group 0 is the first side's (ranks 0 .. n0-1),
 * group 1 the other's. */
typedef struct sides {
    sim_coll *c;
    const char *name;
    int n[2];
    int *err_rank;
    char **why;
} sides;

static int group_of(const sides *s, int r) {
    return r >= s->n[0];
}

static int local_of(const sides *s, int r) {
    return r >= s->n[0] ? r - s->n[0] : r;
}

static int both_of(const sides *s, int g, int l) {
    return g ? s->n[0] + l : l;
}

int sim_coll_inter_peers(const sim_coll *c, int me) {
    const sim_comm *first = c->comm->inter;
    return me < first->size ? first->remote->size : first->size;
}

static int fail(sides *s, int errclass, int r, char *msg) {
    *s->err_rank = r;
    *s->why = msg;
    return errclass;
}

/* "world rank 3 (rank 1 of its group)", for messages (g_free). */
static char *who(const sides *s, int r) {
    return g_strdup_printf("world rank %d (rank %d of its group)", sim_comm_world(s->c->comm, r),
                           local_of(s, r));
}

/* Checks the root arguments of a rooted collective: exactly one member
 * passes MPI_ROOT, the others of its group MPI_PROC_NULL, and every member
 * of the other group the root's rank in its group.  Sets *root (rank in
 * `both`). */
static int find_root(sides *s, int *root) {
    const sim_coll_args *A = s->c->args;
    int total = s->n[0] + s->n[1];
    *root = -1;
    for (int r = 0; r < total; r++) {
        if (A[r].root != MPI_ROOT)
            continue;
        if (*root >= 0) {
            char *a = who(s, *root), *b = who(s, r);
            char *msg = g_strdup_printf("%s: %s and %s both pass MPI_ROOT; one process is the "
                                        "root (MPI 3.1 section 5.2.2)",
                                        s->name, a, b);
            g_free(a);
            g_free(b);
            return fail(s, MPI_ERR_ROOT, r, msg);
        }
        *root = r;
    }
    if (*root < 0) {
        /* Name what the other group expects, when it agrees on a root. */
        GString *t = g_string_new(NULL);
        for (int g = 0; g < 2; g++) {
            int named = INT_MIN;
            bool agree = true;
            for (int l = 0; l < s->n[g]; l++) {
                int v = A[both_of(s, g, l)].root;
                if (named == INT_MIN)
                    named = v;
                else if (v != named)
                    agree = false;
            }
            if (agree && named >= 0)
                g_string_append_printf(t,
                                       "; the group of world rank %d names rank %d of the other "
                                       "group as the root, which passes %s",
                                       sim_comm_world(s->c->comm, both_of(s, g, 0)), named,
                                       named < s->n[!g] &&
                                               A[both_of(s, !g, named)].root == MPI_PROC_NULL
                                           ? "MPI_PROC_NULL"
                                           : "no MPI_ROOT");
        }
        char *msg = g_strdup_printf("%s: no member passes root = MPI_ROOT%s (the root passes "
                                    "MPI_ROOT, MPI 3.1 section 5.2.2)",
                                    s->name, t->str);
        g_string_free(t, TRUE);
        return fail(s, MPI_ERR_ROOT, -1, msg);
    }
    int rg = group_of(s, *root), rl = local_of(s, *root);
    for (int r = 0; r < total; r++) {
        if (r == *root)
            continue;
        int v = A[r].root;
        bool same = group_of(s, r) == rg;
        if (same ? v == MPI_PROC_NULL : v == rl)
            continue;
        char *a = who(s, r), *b = who(s, *root);
        char *msg;
        if (same)
            msg = g_strdup_printf("%s: %s passes root = %d, but it is in the root's group (the "
                                  "root, %s, passes MPI_ROOT): the other members of the root's "
                                  "group pass MPI_PROC_NULL",
                                  s->name, a, v, b);
        else
            msg =
                g_strdup_printf("%s: %s passes root = %s%d, but the root is %s: the other group "
                                "passes the root's rank in its group, %d",
                                s->name, a, v == MPI_PROC_NULL ? "MPI_PROC_NULL = " : "", v, b, rl);
        g_free(a);
        g_free(b);
        return fail(s, MPI_ERR_ROOT, r, msg);
    }
    return MPI_SUCCESS;
}

/* One piece of data from one member to a member of the other group. */
typedef struct piece {
    int src, dst; /* ranks in `both` */
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    int blame;
    void *packed;
    size_t bytes;
} piece;

static void *at(const void *buf, MPI_Aint off) {
    return (void *)((uintptr_t)buf + (uintptr_t)off);
}

static MPI_Aint extent_of(MPI_Datatype t) {
    const sim_datatype *dt = sim_dt_get(t);
    return dt ? sim_dt_extent(dt) : 0;
}

static void add(GArray *pieces, int src, const void *sbuf, int scount, MPI_Datatype stype, int dst,
                void *rbuf, int rcount, MPI_Datatype rtype, int blame) {
    piece p = {src, dst, sbuf, scount, stype, rbuf, rcount, rtype, blame, NULL, 0};
    g_array_append_val(pieces, p);
}

/* Checks one piece (the same amount and a matching type signature on both
 * sides: MPI 3.1 section 5.1) and packs the sender's data. */
static int prepare(sides *s, piece *p) {
    const sim_datatype *sdt = sim_dt_get(p->stype), *rdt = sim_dt_get(p->rtype);
    if ((!sdt && p->scount > 0) || (!rdt && p->rcount > 0)) {
        bool bad_send = !sdt && p->scount > 0;
        char *w = who(s, bad_send ? p->src : p->dst);
        char *msg = g_strdup_printf("%s: %s uses an invalid datatype 0x%08x", s->name, w,
                                    (unsigned)(bad_send ? p->stype : p->rtype));
        g_free(w);
        return fail(s, MPI_ERR_TYPE, bad_send ? p->src : p->dst, msg);
    }
    size_t sbytes = sdt && p->scount > 0 ? sim_dt_size(sdt) * (size_t)p->scount : 0;
    size_t rbytes = rdt && p->rcount > 0 ? sim_dt_size(rdt) * (size_t)p->rcount : 0;
    char *diff = NULL;
    if (sbytes != rbytes ||
        (sbytes > 0 &&
         !sim_typesig_matches(sim_dt_typesig(sdt), (size_t)p->scount, rdt, p->rcount, &diff))) {
        char *a = who(s, p->dst), *b = who(s, p->src);
        char *msg =
            sbytes != rbytes
                ? g_strdup_printf("%s: %s receives %zu bytes (%d x %s) but %s sends %zu bytes "
                                  "(%d x %s)",
                                  s->name, a, rbytes, p->rcount, sim_dt_name(p->rtype), b, sbytes,
                                  p->scount, sim_dt_name(p->stype))
                : g_strdup_printf("%s: the data %s sends (%d x %s) does not match what %s "
                                  "receives (%d x %s): %s",
                                  s->name, b, p->scount, sim_dt_name(p->stype), a, p->rcount,
                                  sim_dt_name(p->rtype), diff ? diff : "type signatures differ");
        g_free(a);
        g_free(b);
        g_free(diff);
        return fail(s, sbytes != rbytes ? MPI_ERR_TRUNCATE : MPI_ERR_TYPE, p->blame, msg);
    }
    p->bytes = sbytes;
    if (sbytes) {
        p->packed = g_malloc(sbytes);
        sim_dt_pack(sdt, p->sbuf, p->scount, p->packed);
    }
    return MPI_SUCCESS;
}

/* Checks and packs every piece, then delivers them all: nothing is written
 * before everything is read. */
static int move(sides *s, GArray *pieces) {
    int rc = MPI_SUCCESS;
    for (guint i = 0; i < pieces->len && rc == MPI_SUCCESS; i++)
        rc = prepare(s, &g_array_index(pieces, piece, i));
    for (guint i = 0; i < pieces->len; i++) {
        piece *p = &g_array_index(pieces, piece, i);
        if (rc == MPI_SUCCESS && p->packed)
            sim_dt_unpack(sim_dt_get(p->rtype), p->packed, p->bytes, p->rbuf, p->rcount);
        g_free(p->packed);
    }
    g_array_free(pieces, TRUE);
    return rc;
}

static int exec_rooted(sides *s) {
    int root;
    TRY(find_root(s, &root));
    const sim_coll_args *A = s->c->args, *R = &A[root];
    int other = !group_of(s, root);
    bool v = s->c->kind == SIM_COLL_GATHERV || s->c->kind == SIM_COLL_SCATTERV;
    GArray *pieces = g_array_new(FALSE, TRUE, sizeof(piece));
    for (int l = 0; l < s->n[other]; l++) {
        int d = both_of(s, other, l);
        const sim_coll_args *D = &A[d];
        switch (s->c->kind) {
        case SIM_COLL_BCAST:
            add(pieces, root, R->sendbuf, R->sendcount, R->sendtype, d, D->recvbuf, D->recvcount,
                D->recvtype, d);
            break;
        case SIM_COLL_GATHER:
        case SIM_COLL_GATHERV: {
            int cnt = v ? R->recvcounts[l] : R->recvcount;
            MPI_Aint blk = v ? R->rdispls[l] : (MPI_Aint)l * R->recvcount;
            add(pieces, d, D->sendbuf, D->sendcount, D->sendtype, root,
                at(R->recvbuf, blk * extent_of(R->recvtype)), cnt, R->recvtype, d);
            break;
        }
        default: { /* scatter(v) */
            int cnt = v ? R->sendcounts[l] : R->sendcount;
            MPI_Aint blk = v ? R->sdispls[l] : (MPI_Aint)l * R->sendcount;
            add(pieces, root, at(R->sendbuf, blk * extent_of(R->sendtype)), cnt, R->sendtype, d,
                D->recvbuf, D->recvcount, D->recvtype, d);
            break;
        }
        }
    }
    return move(s, pieces);
}

/* Allgather(v) and Alltoall(v,w): every member to every member of the
 * other group, blocks indexed by rank in the remote group. */
static int exec_all(sides *s) {
    const sim_coll_args *A = s->c->args;
    sim_coll_kind kind = s->c->kind;
    GArray *pieces = g_array_new(FALSE, TRUE, sizeof(piece));
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < s->n[g]; i++) {
            int src = both_of(s, g, i);
            const sim_coll_args *S = &A[src];
            for (int j = 0; j < s->n[!g]; j++) {
                int dst = both_of(s, !g, j);
                const sim_coll_args *D = &A[dst];
                const void *sbuf = S->sendbuf;
                int scount = S->sendcount;
                MPI_Datatype stype = S->sendtype, rtype = D->recvtype;
                void *rbuf;
                int rcount;
                switch (kind) {
                case SIM_COLL_ALLGATHER:
                    rcount = D->recvcount;
                    rbuf = at(D->recvbuf, (MPI_Aint)i * rcount * extent_of(rtype));
                    break;
                case SIM_COLL_ALLGATHERV:
                    rcount = D->recvcounts[i];
                    rbuf = at(D->recvbuf, (MPI_Aint)D->rdispls[i] * extent_of(rtype));
                    break;
                case SIM_COLL_ALLTOALL:
                    sbuf = at(S->sendbuf, (MPI_Aint)j * scount * extent_of(stype));
                    rcount = D->recvcount;
                    rbuf = at(D->recvbuf, (MPI_Aint)i * rcount * extent_of(rtype));
                    break;
                case SIM_COLL_ALLTOALLV:
                    scount = S->sendcounts[j];
                    sbuf = at(S->sendbuf, (MPI_Aint)S->sdispls[j] * extent_of(stype));
                    rcount = D->recvcounts[i];
                    rbuf = at(D->recvbuf, (MPI_Aint)D->rdispls[i] * extent_of(rtype));
                    break;
                default: /* alltoallw: displacements in bytes, a type per peer */
                    scount = S->sendcounts[j];
                    stype = S->sendtypes[j];
                    sbuf = at(S->sendbuf, S->sdispls[j]);
                    rcount = D->recvcounts[i];
                    rtype = D->recvtypes[i];
                    rbuf = at(D->recvbuf, D->rdispls[i]);
                    break;
                }
                add(pieces, src, sbuf, scount, stype, dst, rbuf, rcount, rtype, dst);
            }
        }
    return move(s, pieces);
}

/* Elements member r contributes to a reduction. */
static long contribution(const sides *s, int r) {
    const sim_coll_args *a = &s->c->args[r];
    int n = s->n[group_of(s, r)];
    switch (s->c->kind) {
    case SIM_COLL_REDUCE_SCATTER: {
        long sum = 0;
        for (int i = 0; i < n; i++)
            sum += a->recvcounts[i];
        return sum;
    }
    case SIM_COLL_REDUCE_SCATTER_BLOCK:
        return (long)a->recvcount * n;
    default:
        return a->sendcount;
    }
}

static bool builtin_op(MPI_Op op) {
    return SIM_HANDLE_KIND(op) == SIM_HKIND_BUILTIN;
}

/* Checks that member r reduces what the reference member ref does: the
 * same number of elements of the same type signature, the same predefined
 * op (MPI 3.1 section 5.9.1).  User ops cannot be compared: each rank makes
 * its own handle for the same function. */
static int same_reduction(sides *s, int ref, int r) {
    const sim_coll_args *A = s->c->args;
    const sim_datatype *rdt = sim_dt_get(A[ref].sendtype), *xdt = sim_dt_get(A[r].sendtype);
    char *a = who(s, r), *b = who(s, ref), *msg = NULL;
    int rc = MPI_SUCCESS;
    long rn = contribution(s, ref), xn = contribution(s, r);
    if (!rdt || !xdt) {
        rc = MPI_ERR_TYPE;
        msg = g_strdup_printf("%s: %s uses an invalid datatype", s->name, rdt ? a : b);
    } else if (A[r].op != A[ref].op && (builtin_op(A[r].op) || builtin_op(A[ref].op))) {
        rc = MPI_ERR_OP;
        msg = g_strdup_printf("%s: %s passes %s but %s passes %s; the operation must be the same "
                              "on all processes",
                              s->name, a, sim_op_name(A[r].op), b, sim_op_name(A[ref].op));
    } else if (sim_dt_size(xdt) * (size_t)xn != sim_dt_size(rdt) * (size_t)rn) {
        rc = MPI_ERR_TRUNCATE;
        msg = g_strdup_printf("%s: %s contributes %ld x %s but %s contributes %ld x %s", s->name, a,
                              xn, sim_dt_name(A[r].sendtype), b, rn, sim_dt_name(A[ref].sendtype));
    } else if (xn > 0 && !sim_typesig_same(sim_dt_typesig(xdt), (size_t)xn, sim_dt_typesig(rdt),
                                           (size_t)rn)) {
        rc = MPI_ERR_TYPE;
        msg = g_strdup_printf("%s: %s reduces %ld x %s but %s reduces %ld x %s: reductions need "
                              "the same basic types on all processes",
                              s->name, a, xn, sim_dt_name(A[r].sendtype), b, rn,
                              sim_dt_name(A[ref].sendtype));
    }
    g_free(a);
    g_free(b);
    if (rc != MPI_SUCCESS)
        return fail(s, rc, r, msg);
    return MPI_SUCCESS;
}

/* The reduction of group g's contributions, in rank order (r0 op r1) op
 * r2 ..., packed into *out (bytes of count elements of the first member's
 * type).  Every member of g must agree with its first. */
static int reduce_group(sides *s, int g, void **out, size_t *bytes, int *count,
                        MPI_Datatype *type) {
    const sim_coll_args *A = s->c->args;
    int first = both_of(s, g, 0);
    for (int l = 1; l < s->n[g]; l++)
        TRY(same_reduction(s, first, both_of(s, g, l)));
    *type = A[first].sendtype;
    long n = contribution(s, first);
    if (n > INT_MAX)
        return fail(s, MPI_ERR_COUNT, first,
                    g_strdup_printf("%s: %ld elements are more than an int counts", s->name, n));
    *count = (int)n;
    const sim_datatype *dt = sim_dt_get(*type);
    *bytes = sim_dt_size(dt) * (size_t)n;
    void *acc = g_malloc0(*bytes ? *bytes : 1), *next = g_malloc0(*bytes ? *bytes : 1);
    int rc = MPI_SUCCESS;
    for (int l = 0; l < s->n[g] && rc == MPI_SUCCESS; l++) {
        int r = both_of(s, g, l);
        if (!*bytes)
            break;
        if (l == 0) {
            sim_dt_pack(dt, A[r].sendbuf, *count, acc);
            continue;
        }
        sim_dt_pack(sim_dt_get(A[r].sendtype), A[r].sendbuf, *count, next);
        char *msg = NULL;
        rc = sim_op_apply_packed(A[r].op, acc, next, *count, *type, &msg);
        if (rc != MPI_SUCCESS) {
            rc = fail(s, rc, r, g_strdup_printf("%s: %s", s->name, msg ? msg : "reduction failed"));
            g_free(msg);
        } else {
            void *t = acc;
            acc = next;
            next = t;
        }
    }
    g_free(next);
    if (rc != MPI_SUCCESS) {
        g_free(acc);
        return rc;
    }
    *out = acc;
    return MPI_SUCCESS;
}

/* Delivers count elements of a packed result to member d's receive buffer,
 * which takes rcount elements of rtype: the amounts must agree. */
static int deliver(sides *s, int d, const void *packed, size_t bytes, int rcount,
                   MPI_Datatype rtype, void *rbuf) {
    const sim_datatype *dt = sim_dt_get(rtype);
    size_t rbytes = dt && rcount > 0 ? sim_dt_size(dt) * (size_t)rcount : 0;
    if (rbytes != bytes) {
        char *w = who(s, d);
        char *msg = g_strdup_printf("%s: %s receives %zu bytes (%d x %s) of a result of %zu bytes",
                                    s->name, w, rbytes, rcount, sim_dt_name(rtype), bytes);
        g_free(w);
        return fail(s, MPI_ERR_TRUNCATE, d, msg);
    }
    if (bytes)
        sim_dt_unpack(dt, packed, bytes, rbuf, rcount);
    return MPI_SUCCESS;
}

static int exec_reduce(sides *s) {
    int root;
    TRY(find_root(s, &root));
    const sim_coll_args *R = &s->c->args[root];
    void *res;
    size_t bytes;
    int count;
    MPI_Datatype type;
    int other = !group_of(s, root);
    /* The root names the same count, type and op as the contributors. */
    TRY(same_reduction(s, both_of(s, other, 0), root));
    TRY(reduce_group(s, other, &res, &bytes, &count, &type));
    int rc = deliver(s, root, res, bytes, R->recvcount, R->recvtype, R->recvbuf);
    g_free(res);
    return rc;
}

/* Allreduce and Reduce_scatter(_block): each group's reduction goes to the
 * other group, whole or scattered by the other group's counts. */
static int exec_allreduce(sides *s) {
    const sim_coll_args *A = s->c->args;
    sim_coll_kind kind = s->c->kind;
    void *res[2] = {NULL, NULL};
    size_t bytes[2];
    int count[2];
    MPI_Datatype type[2];
    int rc = MPI_SUCCESS;
    for (int g = 0; g < 2 && rc == MPI_SUCCESS; g++)
        rc = reduce_group(s, g, &res[g], &bytes[g], &count[g], &type[g]);
    /* Both groups reduce the same amount: what one group reduces, the
     * other receives. */
    if (rc == MPI_SUCCESS)
        rc = same_reduction(s, 0, both_of(s, 1, 0));
    for (int g = 0; g < 2 && rc == MPI_SUCCESS; g++) {
        int o = !g;
        size_t esize = count[g] ? bytes[g] / (size_t)count[g] : 0, off = 0;
        for (int l = 0; l < s->n[o] && rc == MPI_SUCCESS; l++) {
            int d = both_of(s, o, l);
            const sim_coll_args *D = &A[d];
            if (kind == SIM_COLL_ALLREDUCE) {
                rc = deliver(s, d, res[g], bytes[g], D->recvcount, D->recvtype, D->recvbuf);
                continue;
            }
            int cnt = kind == SIM_COLL_REDUCE_SCATTER ? D->recvcounts[l] : D->recvcount;
            size_t b = esize * (size_t)(cnt > 0 ? cnt : 0);
            rc = deliver(s, d, (char *)res[g] + off, b, cnt, D->recvtype, D->recvbuf);
            off += b;
        }
    }
    g_free(res[0]);
    g_free(res[1]);
    return rc;
}

/* The reduce_scatter members of one group must pass the same counts. */
static int same_counts(sides *s) {
    const sim_coll_args *A = s->c->args;
    for (int g = 0; g < 2; g++) {
        int first = both_of(s, g, 0);
        for (int l = 1; l < s->n[g]; l++) {
            int r = both_of(s, g, l);
            for (int i = 0; i < s->n[g]; i++) {
                int x = s->c->kind == SIM_COLL_REDUCE_SCATTER ? A[r].recvcounts[i] : A[r].recvcount;
                int y = s->c->kind == SIM_COLL_REDUCE_SCATTER ? A[first].recvcounts[i]
                                                              : A[first].recvcount;
                if (x == y)
                    continue;
                char *a = who(s, r), *b = who(s, first);
                char *msg = g_strdup_printf(
                    "%s: %s passes %s%s = %d but %s passes %d; the members of a "
                    "group pass the same counts",
                    s->name, a, s->c->kind == SIM_COLL_REDUCE_SCATTER ? "recvcounts" : "recvcount",
                    s->c->kind == SIM_COLL_REDUCE_SCATTER ? "[i]" : "", x, b, y);
                g_free(a);
                g_free(b);
                return fail(s, MPI_ERR_COUNT, r, msg);
            }
        }
    }
    return MPI_SUCCESS;
}

/* ---- MPI_Comm_split and MPI_Comm_create of an intercommunicator ---- */

typedef struct entry {
    int color, key, rank;
} entry;

static int cmp_entry(const void *pa, const void *pb) {
    const entry *a = pa, *b = pb;
    if (a->color != b->color)
        return a->color < b->color ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

static void give(sim_coll *c, int r, MPI_Comm h) {
    if (c->args[r].newcomm)
        *c->args[r].newcomm = h;
}

/* A new intercommunicator of group 0's members m0 and group 1's m1 (both
 * rank lists in `both`, taken). */
static void make_pair(sides *s, int n0, int *m0, int n1, int *m1) {
    sim_comm *first = s->c->comm->inter;
    int *w0 = g_new(int, n0), *w1 = g_new(int, n1);
    for (int i = 0; i < n0; i++)
        w0[i] = sim_comm_world(s->c->comm, m0[i]);
    for (int i = 0; i < n1; i++)
        w1[i] = sim_comm_world(s->c->comm, m1[i]);
    sim_comm *na = sim_comm_make_inter(first, n0, w0, first->remote, n1, w1);
    for (int i = 0; i < n0; i++)
        give(s->c, m0[i], na->handle);
    for (int i = 0; i < n1; i++)
        give(s->c, m1[i], na->remote->handle);
    g_free(m0);
    g_free(m1);
}

/* MPI 3.1 section 6.4.2: each group splits by colour; the members of one
 * colour in each group form a new intercommunicator, ordered by key then
 * old rank; a colour only one group has gives MPI_COMM_NULL. */
static int exec_split(sides *s) {
    sim_coll *c = s->c;
    int total = s->n[0] + s->n[1];
    entry *e[2] = {g_new(entry, s->n[0]), g_new(entry, s->n[1] ? s->n[1] : 1)};
    int cnt[2] = {0, 0};
    for (int r = 0; r < total; r++) {
        give(c, r, MPI_COMM_NULL);
        if (c->args[r].color == MPI_UNDEFINED)
            continue;
        int g = group_of(s, r);
        e[g][cnt[g]++] = (entry){c->args[r].color, c->args[r].key, r};
    }
    qsort(e[0], (size_t)cnt[0], sizeof(entry), cmp_entry);
    qsort(e[1], (size_t)cnt[1], sizeof(entry), cmp_entry);
    int i = 0, j = 0;
    while (i < cnt[0] && j < cnt[1]) {
        int ci = e[0][i].color, cj = e[1][j].color;
        int ie = i, je = j;
        while (ie < cnt[0] && e[0][ie].color == ci)
            ie++;
        while (je < cnt[1] && e[1][je].color == cj)
            je++;
        if (ci == cj) {
            int *m0 = g_new(int, ie - i), *m1 = g_new(int, je - j);
            for (int t = i; t < ie; t++)
                m0[t - i] = e[0][t].rank;
            for (int t = j; t < je; t++)
                m1[t - j] = e[1][t].rank;
            make_pair(s, ie - i, m0, je - j, m1);
        }
        if (ci <= cj)
            i = ie;
        if (cj <= ci)
            j = je;
    }
    g_free(e[0]);
    g_free(e[1]);
    return MPI_SUCCESS;
}

/* MPI 3.1 section 6.4.2: each group passes a subgroup of its own group,
 * the same at all its members; the new intercommunicator joins the two
 * subgroups, and is MPI_COMM_NULL everywhere when either is empty. */
static int exec_create(sides *s) {
    sim_coll *c = s->c;
    sim_comm *side[2] = {c->comm->inter, c->comm->inter->remote};
    sim_group *grp[2] = {NULL, NULL};
    int total = s->n[0] + s->n[1];
    for (int r = 0; r < total; r++)
        give(c, r, MPI_COMM_NULL);
    for (int r = 0; r < total; r++) {
        int g = group_of(s, r);
        sim_group *x = sim_group_get(c->args[r].group);
        char *w = who(s, r);
        char *msg = NULL;
        if (!x)
            msg = g_strdup_printf("%s: %s passes 0x%x, which is not a valid group", s->name, w,
                                  (unsigned)c->args[r].group);
        for (int i = 0; x && !msg && i < x->size; i++)
            if (sim_comm_rank(side[g], x->members[i]) < 0)
                msg = g_strdup_printf("%s: the group %s passes is not a subgroup of its local "
                                      "group: its rank %d is world rank %d (on an "
                                      "intercommunicator each group passes a subgroup of "
                                      "its own)",
                                      s->name, w, i, x->members[i]);
        if (x && !msg && grp[g] && grp[g] != x && sim_group_compare(grp[g], x) != MPI_IDENT) {
            char *f = who(s, both_of(s, g, 0));
            msg = g_strdup_printf("%s: %s passes another group than %s; on an intercommunicator "
                                  "the members of a group pass the same group",
                                  s->name, w, f);
            g_free(f);
        }
        g_free(w);
        if (msg) {
            for (int q = 0; q < total; q++)
                give(c, q, MPI_COMM_NULL);
            return fail(s, MPI_ERR_GROUP, r, msg);
        }
        if (!grp[g])
            grp[g] = x;
    }
    if (!grp[0]->size || !grp[1]->size)
        return MPI_SUCCESS;
    int *m[2];
    for (int g = 0; g < 2; g++) {
        m[g] = g_new(int, grp[g]->size);
        for (int i = 0; i < grp[g]->size; i++)
            m[g][i] = both_of(s, g, sim_comm_rank(side[g], grp[g]->members[i]));
    }
    make_pair(s, grp[0]->size, m[0], grp[1]->size, m[1]);
    return MPI_SUCCESS;
}

static int exec_kind(sides *sp) {
    sim_coll *c = sp->c;
    switch (c->kind) {
    case SIM_COLL_BARRIER:
        return MPI_SUCCESS;
    case SIM_COLL_BCAST:
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        return exec_rooted(sp);
    case SIM_COLL_ALLGATHER:
    case SIM_COLL_ALLGATHERV:
    case SIM_COLL_ALLTOALL:
    case SIM_COLL_ALLTOALLV:
    case SIM_COLL_ALLTOALLW:
        return exec_all(sp);
    case SIM_COLL_REDUCE:
        return exec_reduce(sp);
    case SIM_COLL_REDUCE_SCATTER:
    case SIM_COLL_REDUCE_SCATTER_BLOCK:
        TRY(same_counts(sp));
        return exec_allreduce(sp);
    case SIM_COLL_ALLREDUCE:
        return exec_allreduce(sp);
    case SIM_COLL_COMM_SPLIT:
        return exec_split(sp);
    case SIM_COLL_COMM_CREATE:
        return exec_create(sp);
    default:
        return fail(sp, MPI_ERR_COMM, -1,
                    g_strdup_printf("%s is not a collective on intercommunicators", sp->name));
    }
}

int sim_coll_inter_exec(sim_coll *c, int *err_rank, char **why) {
    /* Messages name the intercommunicator, as the program named it. */
    char *name = g_strdup_printf("%s on %s", sim_coll_call(c), sim_comm_describe(c->comm->inter));
    sides s = {c, name, {c->comm->inter->size, c->comm->inter->remote->size}, err_rank, why};
    int rc = exec_kind(&s);
    g_free(name);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Predict: MPICH's intercommunicator algorithms as schedules               */

static uint64_t type_bytes(long count, MPI_Datatype type) {
    const sim_datatype *dt = count > 0 ? sim_dt_get(type) : NULL;
    return dt ? (uint64_t)sim_dt_size(dt) * (uint64_t)count : 0;
}

/* The parts of a composed schedule, with what they own. */
typedef struct plan {
    int n[2];
    GPtrArray *scheds; /* pm_ca_schedule * */
    GArray *parts;     /* pm_ca_part */
    GPtrArray *maps;   /* int *, g_free */
    GError **error;
    bool failed;
} plan;

/* The members of group g, as ranks in `both`. */
static int *group_map(const plan *pl, int g) {
    int *m = g_new(int, pl->n[g]);
    for (int l = 0; l < pl->n[g]; l++)
        m[l] = g ? pl->n[0] + l : l;
    return m;
}

static int *pair_map(int a, int b) {
    int *m = g_new(int, 2);
    m[0] = a;
    m[1] = b;
    return m;
}

/* Adds a schedule of kind on the members map (taken); p is its size. */
static void part(plan *pl, pm_ca_kind kind, int p, int root, uint64_t bytes, const uint64_t *block,
                 const uint64_t *matrix, int *map) {
    g_ptr_array_add(pl->maps, map);
    if (pl->failed)
        return;
    pm_ca_args a = {
        .kind = kind, .p = p, .root = root, .bytes = bytes, .block = block, .matrix = matrix};
    pm_ca_schedule *s = pm_ca_build(&a, pl->error);
    if (!s) {
        pl->failed = true;
        return;
    }
    g_ptr_array_add(pl->scheds, s);
    pm_ca_part pt = {s, map};
    g_array_append_val(pl->parts, pt);
}

/* The two leaders exchange up and down bytes (a Sendrecv). */
static void leaders_exchange(plan *pl, uint64_t from0, uint64_t from1) {
    uint64_t *m = g_new0(uint64_t, 4);
    m[1] = from0;
    m[2] = from1;
    part(pl, PM_CA_ALLTOALLV, 2, 0, 0, NULL, m, pair_map(0, pl->n[0]));
    g_free(m);
}

/* A linear scatterv or gatherv between `root` and the members of group g,
 * with block[l] bytes for its member l. */
static void linear(plan *pl, pm_ca_kind kind, int root, int g, const uint64_t *block) {
    int n = pl->n[g];
    uint64_t *b = g_new0(uint64_t, n + 1);
    int *map = g_new(int, n + 1);
    map[0] = root;
    for (int l = 0; l < n; l++) {
        b[l + 1] = block[l];
        map[l + 1] = g ? pl->n[0] + l : l;
    }
    part(pl, kind, n + 1, 0, 0, b, NULL, map);
    g_free(b);
}

static pm_ca_schedule *plan_finish(plan *pl, pm_ca_kind kind) {
    pm_ca_schedule *s = NULL;
    if (!pl->failed)
        s = pm_ca_compose(kind, pl->n[0] + pl->n[1], (const pm_ca_part *)(void *)pl->parts->data,
                          (int)pl->parts->len, pl->error);
    for (guint i = 0; i < pl->scheds->len; i++)
        pm_ca_free(g_ptr_array_index(pl->scheds, i));
    g_ptr_array_free(pl->scheds, TRUE);
    g_ptr_array_free(pl->maps, TRUE);
    g_array_free(pl->parts, TRUE);
    return s;
}

pm_ca_schedule *sim_coll_inter_schedule(const sim_coll *c, int me, GError **error) {
    const sim_comm *first = c->comm->inter;
    plan pl = {{first->size, first->remote->size},
               g_ptr_array_new(),
               g_array_new(FALSE, FALSE, sizeof(pm_ca_part)),
               g_ptr_array_new_with_free_func(g_free),
               error,
               false};
    const sim_coll_args *x = &c->args[me];
    int mg = me >= pl.n[0], lead[2] = {0, pl.n[0]};
    pm_ca_kind kind = PM_CA_BARRIER;
    /* Rooted kinds: where the root is and what one block weighs, as this
     * member knows it. */
    int root = -1, og = 0; /* the root (in `both`) and the other group */
    uint64_t b = 0;
    if (rooted(c->kind)) {
        if (x->root == MPI_PROC_NULL) {
            plan_finish(&pl, kind);
            return NULL; /* a bystander: it does not know the sizes */
        }
        root = x->root == MPI_ROOT ? me : (mg ? 0 : pl.n[0]) + x->root;
        og = !(root >= pl.n[0]);
        bool at_root = x->root == MPI_ROOT;
        switch (c->kind) {
        case SIM_COLL_BCAST:
            b = at_root ? type_bytes(x->sendcount, x->sendtype)
                        : type_bytes(x->recvcount, x->recvtype);
            break;
        case SIM_COLL_REDUCE:
            b = type_bytes(x->sendcount, x->sendtype);
            break;
        case SIM_COLL_GATHER:
        case SIM_COLL_GATHERV:
            b = at_root ? type_bytes(x->recvcount, x->recvtype)
                        : type_bytes(x->sendcount, x->sendtype);
            break;
        default:
            b = at_root ? type_bytes(x->sendcount, x->sendtype)
                        : type_bytes(x->recvcount, x->recvtype);
            break;
        }
    }
    switch (c->kind) {
    case SIM_COLL_BARRIER:
        /* MPICH: a barrier in each group, the leaders exchange a byte, and
         * each leader tells its group. */
        kind = PM_CA_BARRIER;
        part(&pl, PM_CA_BARRIER, pl.n[0], 0, 0, NULL, NULL, group_map(&pl, 0));
        part(&pl, PM_CA_BARRIER, pl.n[1], 0, 0, NULL, NULL, group_map(&pl, 1));
        leaders_exchange(&pl, 1, 1);
        part(&pl, PM_CA_BCAST, pl.n[0], 0, 1, NULL, NULL, group_map(&pl, 0));
        part(&pl, PM_CA_BCAST, pl.n[1], 0, 1, NULL, NULL, group_map(&pl, 1));
        break;
    case SIM_COLL_BCAST:
        /* The root sends to the other group's leader, which broadcasts. */
        kind = PM_CA_BCAST;
        part(&pl, PM_CA_BCAST, 2, 0, b, NULL, NULL, pair_map(root, lead[og]));
        part(&pl, PM_CA_BCAST, pl.n[og], 0, b, NULL, NULL, group_map(&pl, og));
        break;
    case SIM_COLL_REDUCE:
        /* The other group reduces to its leader, which sends to the root. */
        kind = PM_CA_REDUCE;
        part(&pl, PM_CA_REDUCE, pl.n[og], 0, b, NULL, NULL, group_map(&pl, og));
        part(&pl, PM_CA_BCAST, 2, 0, b, NULL, NULL, pair_map(lead[og], root));
        break;
    case SIM_COLL_GATHER:
        kind = PM_CA_GATHER;
        part(&pl, PM_CA_GATHER, pl.n[og], 0, b, NULL, NULL, group_map(&pl, og));
        part(&pl, PM_CA_BCAST, 2, 0, b * (uint64_t)pl.n[og], NULL, NULL, pair_map(lead[og], root));
        break;
    case SIM_COLL_SCATTER:
        kind = PM_CA_SCATTER;
        part(&pl, PM_CA_BCAST, 2, 0, b * (uint64_t)pl.n[og], NULL, NULL, pair_map(root, lead[og]));
        part(&pl, PM_CA_SCATTER, pl.n[og], 0, b, NULL, NULL, group_map(&pl, og));
        break;
    case SIM_COLL_GATHERV:
    case SIM_COLL_SCATTERV: {
        /* Linear between the root and each member of the other group; the
         * root knows every block, the others their own. */
        bool g = c->kind == SIM_COLL_GATHERV;
        kind = g ? PM_CA_GATHERV : PM_CA_SCATTERV;
        uint64_t *blk = g_new(uint64_t, pl.n[og]);
        for (int l = 0; l < pl.n[og]; l++)
            blk[l] = x->root != MPI_ROOT ? b
                     : g                 ? type_bytes(x->recvcounts[l], x->recvtype)
                                         : type_bytes(x->sendcounts[l], x->sendtype);
        linear(&pl, kind, root, og, blk);
        g_free(blk);
        break;
    }
    case SIM_COLL_ALLGATHER:
    case SIM_COLL_ALLGATHERV: {
        /* MPICH: a gather to each leader, the leaders exchange their
         * groups' data, each leader broadcasts the other group's. */
        kind = c->kind == SIM_COLL_ALLGATHER ? PM_CA_ALLGATHER : PM_CA_ALLGATHERV;
        b = type_bytes(x->sendcount, x->sendtype);
        for (int g = 0; g < 2; g++)
            part(&pl, PM_CA_GATHER, pl.n[g], 0, b, NULL, NULL, group_map(&pl, g));
        leaders_exchange(&pl, b * (uint64_t)pl.n[0], b * (uint64_t)pl.n[1]);
        for (int g = 0; g < 2; g++)
            part(&pl, PM_CA_BCAST, pl.n[g], 0, b * (uint64_t)pl.n[!g], NULL, NULL,
                 group_map(&pl, g));
        break;
    }
    case SIM_COLL_ALLTOALL:
    case SIM_COLL_ALLTOALLV:
    case SIM_COLL_ALLTOALLW: {
        /* Pairwise exchanges between the groups: this member's row and
         * column are its own, the others' blocks its average. */
        kind = c->kind == SIM_COLL_ALLTOALL ? PM_CA_ALLTOALL : PM_CA_ALLTOALLV;
        int p = pl.n[0] + pl.n[1], nr = pl.n[!mg];
        uint64_t *row = g_new0(uint64_t, nr), *col = g_new0(uint64_t, nr), sum = 0;
        for (int j = 0; j < nr; j++) {
            switch (c->kind) {
            case SIM_COLL_ALLTOALL:
                row[j] = type_bytes(x->sendcount, x->sendtype);
                col[j] = type_bytes(x->recvcount, x->recvtype);
                break;
            case SIM_COLL_ALLTOALLV:
                row[j] = type_bytes(x->sendcounts[j], x->sendtype);
                col[j] = type_bytes(x->recvcounts[j], x->recvtype);
                break;
            default:
                row[j] = type_bytes(x->sendcounts[j], x->sendtypes[j]);
                col[j] = type_bytes(x->recvcounts[j], x->recvtypes[j]);
                break;
            }
            sum += row[j];
        }
        uint64_t avg = nr ? sum / (uint64_t)nr : 0;
        uint64_t *m = g_new0(uint64_t, (size_t)p * (size_t)p);
        for (int i = 0; i < p; i++)
            for (int j = 0; j < p; j++) {
                if ((i >= pl.n[0]) == (j >= pl.n[0]))
                    continue; /* within a group: nothing */
                uint64_t v = avg;
                if (i == me)
                    v = row[j >= pl.n[0] ? j - pl.n[0] : j];
                else if (j == me)
                    v = col[i >= pl.n[0] ? i - pl.n[0] : i];
                m[(size_t)i * (size_t)p + (size_t)j] = v;
            }
        int *map = g_new(int, p);
        for (int i = 0; i < p; i++)
            map[i] = i;
        part(&pl, PM_CA_ALLTOALLV, p, 0, 0, NULL, m, map);
        g_free(m);
        g_free(row);
        g_free(col);
        break;
    }
    case SIM_COLL_ALLREDUCE:
    case SIM_COLL_REDUCE_SCATTER:
    case SIM_COLL_REDUCE_SCATTER_BLOCK: {
        /* MPICH: a reduce to each leader, the leaders exchange, then each
         * leader broadcasts (allreduce) or scatters (reduce_scatter) the
         * other group's result in its group. */
        bool all = c->kind == SIM_COLL_ALLREDUCE;
        kind = all ? PM_CA_ALLREDUCE : PM_CA_REDUCE_SCATTER;
        long n = 0;
        if (all)
            n = x->sendcount;
        else if (c->kind == SIM_COLL_REDUCE_SCATTER_BLOCK)
            n = (long)x->recvcount * pl.n[mg];
        else
            for (int l = 0; l < pl.n[mg]; l++)
                n += x->recvcounts[l];
        b = type_bytes(n, x->sendtype);
        for (int g = 0; g < 2; g++)
            part(&pl, PM_CA_REDUCE, pl.n[g], 0, b, NULL, NULL, group_map(&pl, g));
        leaders_exchange(&pl, b, b);
        for (int g = 0; g < 2; g++) {
            if (all) {
                part(&pl, PM_CA_BCAST, pl.n[g], 0, b, NULL, NULL, group_map(&pl, g));
                continue;
            }
            uint64_t *blk = g_new0(uint64_t, pl.n[g]);
            for (int l = 0; l < pl.n[g]; l++)
                blk[l] = g != mg ? b / (uint64_t)pl.n[g]
                         : c->kind == SIM_COLL_REDUCE_SCATTER_BLOCK
                             ? type_bytes(x->recvcount, x->sendtype)
                             : type_bytes(x->recvcounts[l], x->sendtype);
            blk[0] = 0; /* the leader keeps its own block */
            int *map = group_map(&pl, g);
            part(&pl, PM_CA_SCATTERV, pl.n[g], 0, 0, blk, NULL, map);
            g_free(blk);
        }
        break;
    }
    default:
        break;
    }
    return plan_finish(&pl, kind);
}
