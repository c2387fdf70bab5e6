/*
 * bufcheck_coll.c - the buffers a collective reads and writes at one
 * member, as the standard defines them (MPI 3.1 chapter 5 and section 7.6),
 * handed to sim_bufcheck.
 */
#include <limits.h>
#include <stdlib.h>

#include "simulator/bufcheck.h"
#include "simulator/datatype.h"
#include "simulator/sim_internal.h"

/* The parts of one buffer argument. */
typedef struct side {
    sim_buf_part *parts;
    int *peer; /* the block index (peer) each part is for */
    int n;
    int cur;   /* the peer the parts added now are for */
    bool ok;   /* false: a count too large to describe; the argument is not checked */
    bool once; /* its blocks must not share a byte (a v or w receive side) */
} side;

static void side_init(side *s, int max) {
    s->parts = g_new0(sim_buf_part, max > 0 ? max : 1);
    s->peer = g_new0(int, max > 0 ? max : 1);
    s->n = 0;
    s->cur = 0;
    s->ok = true;
    s->once = false;
}

static void side_free(side *s) {
    g_free(s->parts);
    g_free(s->peer);
    s->parts = NULL;
    s->peer = NULL;
}

static void add(side *s, MPI_Aint off, int count, MPI_Datatype type) {
    if (count > 0) {
        s->peer[s->n] = s->cur;
        s->parts[s->n++] = (sim_buf_part){.off = off, .count = count, .type = type};
    }
}

/* count * n elements of type in a row. */
static void add_times(side *s, int count, int n, MPI_Datatype type) {
    long long total = (long long)count * n;
    if (total > INT_MAX)
        s->ok = false;
    else
        add(s, 0, (int)total, type);
}

/* count elements of type `disp` extents of type into the buffer. */
static void add_at(side *s, int disp, int count, MPI_Datatype type) {
    const sim_datatype *dt = count > 0 ? sim_dt_get(type) : NULL;
    if (dt)
        add(s, (MPI_Aint)disp * sim_dt_extent(dt), count, type);
}

/* A block of a receive side, by its bounds. */
typedef struct block {
    __int128 lo, hi; /* bytes [lo, hi) from the buffer, of its true extent */
    int part;
} block;

static int by_lo(const void *a, const void *b) {
    const block *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Whether two blocks of s share a byte: MPI 3.1 chapter 5 (Gatherv,
 * Allgatherv, Alltoallv, Alltoallw and the neighbourhood forms) makes a
 * call erroneous whose counts, types and displacements write a location
 * more than once.  Blocks are sorted by their lower bound and only those
 * whose bounds meet are compared byte by byte (the gaps of strided types
 * belong to no block), so the usual disjoint layout costs a sort.  *a, *b:
 * the two parts (a's peer the lower); *at: a byte of both, from buf. */
static bool blocks_overlap(const void *buf, const side *s, int *a, int *b, MPI_Aint *at) {
    block *bl = g_new(block, s->n > 0 ? s->n : 1);
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        const sim_datatype *dt = sim_dt_get(s->parts[i].type);
        if (!dt || sim_dt_size(dt) == 0)
            continue;
        __int128 ext = sim_dt_extent(dt), last = (__int128)(s->parts[i].count - 1) * ext;
        __int128 tlb = sim_dt_true_lb(dt), tub = tlb + sim_dt_true_extent(dt);
        bl[n].lo = s->parts[i].off + tlb + (last < 0 ? last : 0);
        bl[n].hi = s->parts[i].off + tub + (last > 0 ? last : 0);
        bl[n++].part = i;
    }
    qsort(bl, (size_t)n, sizeof *bl, by_lo);
    bool found = false;
    uintptr_t best = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && bl[j].lo < bl[i].hi; j++) {
            const sim_buf_part *p = &s->parts[bl[i].part], *q = &s->parts[bl[j].part];
            sim_dt_region x = {(const char *)buf + p->off, p->count, sim_dt_get(p->type)};
            sim_dt_region y = {(const char *)buf + q->off, q->count, sim_dt_get(q->type)};
            uintptr_t first;
            if (!sim_dt_regions_overlap(&x, 1, &y, 1, &first))
                continue;
            int lo = MIN(bl[i].part, bl[j].part), hi = MAX(bl[i].part, bl[j].part);
            /* The pair of the lowest peers, for a report that does not
             * depend on the sort. */
            if (!found || s->peer[lo] < s->peer[*a] ||
                (s->peer[lo] == s->peer[*a] && s->peer[hi] < s->peer[*b])) {
                *a = lo;
                *b = hi;
                best = first;
            }
            found = true;
        }
    g_free(bl);
    if (found)
        *at = (MPI_Aint)(best - (uintptr_t)buf);
    return found;
}

static int check(MPI_Comm comm, const char *call, const char *arg, const void *buf, side *s,
                 bool writes) {
    int rc = MPI_SUCCESS;
    if (s->ok && s->n > 0 && buf != MPI_IN_PLACE) {
        char *why = NULL;
        rc = sim_bufcheck(call, arg, buf, s->parts, s->n, writes, &why);
        if (rc != MPI_SUCCESS)
            rc = sim_error(comm, rc, "%s", why);
        g_free(why);
        int a = 0, b = 0;
        MPI_Aint at;
        if (rc == MPI_SUCCESS && s->once && s->n > 1 && blocks_overlap(buf, s, &a, &b, &at)) {
            const sim_buf_part *p = &s->parts[a], *q = &s->parts[b];
            rc = sim_error(comm, MPI_ERR_BUFFER,
                           "%s: %s: blocks %d and %d (%d x %s from byte %td, %d x %s "
                           "from byte %td) overlap: byte %td of it belongs to two of them (no "
                           "location of a receive buffer may be written twice, MPI 3.1 chapter 5)",
                           call, arg, s->peer[a], s->peer[b], p->count, sim_dt_name(p->type),
                           (ptrdiff_t)p->off, q->count, sim_dt_name(q->type), (ptrdiff_t)q->off,
                           (ptrdiff_t)at);
        }
    }
    side_free(s);
    return rc;
}

int sim_bufcheck_coll(MPI_Comm comm, const char *call, sim_coll_kind kind, int me, int size,
                      int nin, int nout, const sim_coll_args *a) {
    if (sim_g->cfg.no_buffer_checks)
        return MPI_SUCCESS;
    int max = MAX(size, MAX(nin, nout)) + 1;
    side in, out; /* what the call reads, what it writes */
    side_init(&in, max);
    side_init(&out, max);
    const void *inbuf = a->sendbuf;
    const char *inarg = "sendbuf";
    bool root = me == a->root;
    bool in_place = a->sendbuf == MPI_IN_PLACE;
    switch (kind) {
    case SIM_COLL_BCAST:
        inarg = "buffer";
        add(root ? &in : &out, 0, a->sendcount, a->sendtype);
        break;
    case SIM_COLL_REDUCE:
        if (in_place && root) {
            inbuf = a->recvbuf;
            inarg = "recvbuf";
        }
        add(&in, 0, a->sendcount, a->sendtype);
        if (root)
            add(&out, 0, a->recvcount, a->recvtype);
        break;
    case SIM_COLL_ALLREDUCE:
    case SIM_COLL_SCAN:
    case SIM_COLL_EXSCAN:
        if (in_place) {
            inbuf = a->recvbuf;
            inarg = "recvbuf";
        }
        add(&in, 0, a->sendcount, a->sendtype);
        add(&out, 0, a->recvcount, a->recvtype);
        break;
    case SIM_COLL_REDUCE_SCATTER: {
        long long total = 0;
        for (int i = 0; i < size; i++)
            total += a->recvcounts[i];
        if (in_place) {
            inbuf = a->recvbuf;
            inarg = "recvbuf";
        }
        add_times(&in, total > INT_MAX ? INT_MAX : (int)total, 1, a->sendtype);
        in.ok = in.ok && total <= INT_MAX;
        if (!in_place)
            add(&out, 0, a->recvcounts[me], a->recvtype);
        break;
    }
    case SIM_COLL_REDUCE_SCATTER_BLOCK:
        if (in_place) {
            inbuf = a->recvbuf;
            inarg = "recvbuf";
        }
        add_times(&in, a->recvcount, size, a->sendtype);
        if (!in_place)
            add(&out, 0, a->recvcount, a->recvtype);
        break;
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
        if (!in_place)
            add(&in, 0, a->sendcount, a->sendtype);
        if (root) {
            if (kind == SIM_COLL_GATHER)
                add_times(&out, a->recvcount, size, a->recvtype);
            else
                for (int i = 0; i < size; i++) {
                    out.cur = i;
                    add_at(&out, a->rdispls[i], a->recvcounts[i], a->recvtype);
                }
            out.once = true;
        }
        break;
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        if (root) {
            if (kind == SIM_COLL_SCATTER)
                add_times(&in, a->sendcount, size, a->sendtype);
            else
                for (int i = 0; i < size; i++)
                    add_at(&in, a->sdispls[i], a->sendcounts[i], a->sendtype);
        }
        if (a->recvbuf != MPI_IN_PLACE)
            add(&out, 0, a->recvcount, a->recvtype);
        break;
    case SIM_COLL_ALLGATHER:
    case SIM_COLL_ALLGATHERV:
        if (!in_place)
            add(&in, 0, a->sendcount, a->sendtype);
        if (kind == SIM_COLL_ALLGATHER)
            add_times(&out, a->recvcount, size, a->recvtype);
        else
            for (int i = 0; i < size; i++) {
                out.cur = i;
                add_at(&out, a->rdispls[i], a->recvcounts[i], a->recvtype);
            }
        out.once = kind == SIM_COLL_ALLGATHERV;
        break;
    case SIM_COLL_ALLTOALL:
        if (!in_place)
            add_times(&in, a->sendcount, size, a->sendtype);
        add_times(&out, a->recvcount, size, a->recvtype);
        break;
    case SIM_COLL_ALLTOALLV:
    case SIM_COLL_ALLTOALLW:
        out.once = true;
        for (int i = 0; i < size; i++) {
            out.cur = i;
            if (kind == SIM_COLL_ALLTOALLV) {
                if (!in_place)
                    add_at(&in, a->sdispls[i], a->sendcounts[i], a->sendtype);
                add_at(&out, a->rdispls[i], a->recvcounts[i], a->recvtype);
            } else { /* displacements in bytes, a type per peer */
                if (!in_place)
                    add(&in, a->sdispls[i], a->sendcounts[i],
                        a->sendcounts[i] > 0 ? a->sendtypes[i] : MPI_DATATYPE_NULL);
                add(&out, a->rdispls[i], a->recvcounts[i],
                    a->recvcounts[i] > 0 ? a->recvtypes[i] : MPI_DATATYPE_NULL);
            }
        }
        break;
    case SIM_COLL_NEIGHBOR_ALLGATHER:
        add(&in, 0, a->sendcount, a->sendtype);
        add_times(&out, a->recvcount, nin, a->recvtype);
        break;
    case SIM_COLL_NEIGHBOR_ALLTOALL:
        add_times(&in, a->sendcount, nout, a->sendtype);
        add_times(&out, a->recvcount, nin, a->recvtype);
        break;
    case SIM_COLL_NEIGHBOR_ALLGATHERV:
        add(&in, 0, a->sendcount, a->sendtype);
        out.once = true;
        for (int i = 0; i < nin; i++) {
            out.cur = i;
            add_at(&out, a->rdispls[i], a->recvcounts[i], a->recvtype);
        }
        break;
    case SIM_COLL_NEIGHBOR_ALLTOALLV:
        for (int i = 0; i < nout; i++)
            add_at(&in, a->sdispls[i], a->sendcounts[i], a->sendtype);
        out.once = true;
        for (int i = 0; i < nin; i++) {
            out.cur = i;
            add_at(&out, a->rdispls[i], a->recvcounts[i], a->recvtype);
        }
        break;
    case SIM_COLL_NEIGHBOR_ALLTOALLW:
        for (int i = 0; i < nout; i++)
            add(&in, a->sbdispls[i], a->sendcounts[i],
                a->sendcounts[i] > 0 ? a->sendtypes[i] : MPI_DATATYPE_NULL);
        out.once = true;
        for (int i = 0; i < nin; i++) {
            out.cur = i;
            add(&out, a->rbdispls[i], a->recvcounts[i],
                a->recvcounts[i] > 0 ? a->recvtypes[i] : MPI_DATATYPE_NULL);
        }
        break;
    default:
        break;
    }
    int rc = check(comm, call, inarg, inbuf, &in, false);
    if (rc == MPI_SUCCESS)
        rc = check(comm, call, kind == SIM_COLL_BCAST ? "buffer" : "recvbuf",
                   kind == SIM_COLL_BCAST ? a->sendbuf : a->recvbuf, &out, true);
    else
        side_free(&out);
    return rc;
}
