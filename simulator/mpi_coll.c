/*
 * mpi_coll.c - the MPI API of the data-movement collectives (MPI 3.1
 * chapter 5), blocking and nonblocking.
 *
 * Each call checks the arguments its own rank can check (the ones the
 * standard says are significant at that rank), fills a sim_coll_args and
 * posts it.  What only all members together can check (matching counts and
 * types, the same op everywhere, MPI_IN_PLACE at all or none) is checked by
 * sim_coll_exec_data when the collective fires.
 *
 * Contract with coll_exec.c about sim_coll_args: fields keep the meaning of
 * the MPI argument of the same name; a Bcast's buffer, count and datatype
 * are stored both as send and receive arguments; the reductions store
 * count in sendcount and recvcount and datatype in sendtype and recvtype
 * (Reduce_scatter's recvcounts and Reduce_scatter_block's recvcount as
 * given); Gatherv's and Allgatherv's displs are rdispls, Scatterv's are
 * sdispls.  Unused fields are zero, types MPI_DATATYPE_NULL, op MPI_OP_NULL
 * and root 0 for collectives without a root.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "simulator/bufcheck.h"
#include "simulator/coll.h"
#include "simulator/coll_inter.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/op.h"
#include "simulator/request.h"
#include "simulator/sim_internal.h"

/* ---------------------------------------------------------------------- */
/* Argument checks shared by the collectives                               */

/* The call being checked. */
typedef struct call {
    const char *fn; /* "MPI_Bcast" */
    MPI_Comm handle;
    sim_comm *comm;
    int me;               /* the caller's rank in comm */
    MPI_Request *request; /* NULL for blocking calls */
    char *overlap;        /* aliased buffers, reported once the buffers' bounds passed (a
                             buffer larger than its object is what makes it alias, often) */
} call;

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int try_rc_ = (expr);                                                                      \
        if (try_rc_ != MPI_SUCCESS)                                                                \
            return try_rc_;                                                                        \
    } while (0)

/* The communicator for argument descriptions, before it is validated. */
static const char *comm_name(MPI_Comm comm) {
    static char buf[32];
    if (comm == MPI_COMM_WORLD)
        return "MPI_COMM_WORLD";
    if (comm == MPI_COMM_SELF)
        return "MPI_COMM_SELF";
    if (comm == MPI_COMM_NULL)
        return "MPI_COMM_NULL";
    g_snprintf(buf, sizeof buf, "0x%08x", (unsigned)comm);
    return buf;
}

/* " sendbuf=MPI_IN_PLACE" when it is, for argument descriptions. */
static const char *in_place_note(const void *buf, const char *arg) {
    if (buf != MPI_IN_PLACE)
        return "";
    return strcmp(arg, "sendbuf") == 0 ? " sendbuf=MPI_IN_PLACE" : " recvbuf=MPI_IN_PLACE";
}

/* Checks what every collective needs: MPI initialised, a valid
 * communicator the caller belongs to, and a request pointer for the
 * nonblocking variants. */
static int begin(call *k, const char *fn, MPI_Comm comm, bool nonblocking, MPI_Request *request) {
    memset(k, 0, sizeof *k);
    k->fn = fn;
    k->handle = comm;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &k->comm));
    k->me = sim_comm_rank(k->comm, sim_self());
    if (nonblocking) {
        if (!request)
            return sim_error(comm, MPI_ERR_REQUEST, "%s: request is NULL", fn);
        k->request = request;
        *request = MPI_REQUEST_NULL;
    }
    return MPI_SUCCESS;
}

static int check_root(const call *k, int root) {
    if (root < 0 || root >= k->comm->size)
        return sim_error(k->handle, MPI_ERR_ROOT, "%s: root %d is out of range for %s of size %d",
                         k->fn, root, sim_comm_describe(k->comm), k->comm->size);
    return MPI_SUCCESS;
}

int sim_coll_check_count(MPI_Comm handle, const char *fn, int count, const char *arg) {
    if (count < 0)
        return sim_error(handle, MPI_ERR_COUNT, "%s: %s %d is negative", fn, arg, count);
    return MPI_SUCCESS;
}

int sim_coll_check_type(MPI_Comm handle, const char *fn, MPI_Datatype type, const char *arg) {
    char *why = NULL;
    const sim_datatype *dt = sim_dt_lookup(type, sim_self(), arg, &why);
    if (!dt) {
        int rc = sim_error(handle, MPI_ERR_TYPE, "%s: %s", fn, why ? why : arg);
        g_free(why);
        return rc;
    }
    if (!sim_dt_committed(dt))
        return sim_error(handle, MPI_ERR_TYPE,
                         "%s: %s %s is not committed; call MPI_Type_commit first", fn, arg,
                         sim_dt_name(type));
    return MPI_SUCCESS;
}

int sim_coll_check_array(MPI_Comm handle, const char *fn, const void *array, const char *arg) {
    if (!array)
        return sim_error(handle, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
    return MPI_SUCCESS;
}

static int check_count(const call *k, int count, const char *arg) {
    return sim_coll_check_count(k->handle, k->fn, count, arg);
}

static int check_type(const call *k, MPI_Datatype type, const char *arg) {
    return sim_coll_check_type(k->handle, k->fn, type, arg);
}

static int check_array(const call *k, const void *array, const char *arg) {
    return sim_coll_check_array(k->handle, k->fn, array, arg);
}

/* An array of comm->size counts: present and non-negative. */
static int check_counts(const call *k, const int *counts, const char *arg) {
    TRY(check_array(k, counts, arg));
    for (int i = 0; i < k->comm->size; i++)
        if (counts[i] < 0)
            return sim_error(k->handle, MPI_ERR_COUNT, "%s: %s[%d] = %d is negative", k->fn, arg, i,
                             counts[i]);
    return MPI_SUCCESS;
}

/* An array of comm->size datatypes; entries with a zero count are not
 * used and not checked. */
static int check_types(const call *k, const MPI_Datatype *types, const int *counts,
                       const char *arg) {
    TRY(check_array(k, types, arg));
    for (int i = 0; i < k->comm->size; i++) {
        if (counts[i] == 0)
            continue;
        char name[40];
        g_snprintf(name, sizeof name, "%s[%d]", arg, i);
        TRY(check_type(k, types[i], name));
    }
    return MPI_SUCCESS;
}

/* A valid op that MPI allows in collectives and that applies to type. */
static int check_op(const call *k, MPI_Op op, MPI_Datatype type) {
    if (!sim_op_valid(op))
        return sim_error(k->handle, MPI_ERR_OP, "%s: op is %s", k->fn, sim_op_name(op));
    if (sim_op_rma_only(op))
        return sim_error(k->handle, MPI_ERR_OP,
                         "%s: %s may only be used in RMA accumulate operations", k->fn,
                         sim_op_name(op));
    char *why = NULL;
    if (!sim_op_defined_for(op, type, &why)) {
        int rc = sim_error(k->handle, MPI_ERR_OP, "%s: %s", k->fn, why ? why : "invalid op");
        g_free(why);
        return rc;
    }
    return MPI_SUCCESS;
}

/* MPI_IN_PLACE where this call (or this rank: `where` says why, "" when
 * the call never allows it there) cannot take it. */
static int no_in_place(const call *k, const void *buf, const char *arg, const char *where) {
    if (buf == MPI_IN_PLACE)
        return sim_error(k->handle, MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed as %s%s",
                         k->fn, arg, where);
    return MPI_SUCCESS;
}

static const char ONLY_ROOT[] = " except at the root";

/* The bytes a buffer argument covers, as regions of its type map (the
 * blocks of a v or w collective, a contiguous run of elements otherwise). */
typedef struct buffer {
    const void *buf;
    GArray *regions; /* sim_dt_region */
} buffer;

static void buffer_init(buffer *b, const void *buf) {
    b->buf = buf;
    b->regions = g_array_new(FALSE, FALSE, sizeof(sim_dt_region));
}

/* count elements of type starting `byte_off` bytes into the buffer. */
static void buffer_add(buffer *b, MPI_Aint byte_off, int count, MPI_Datatype type) {
    sim_dt_region r = {(const void *)((uintptr_t)b->buf + (uintptr_t)byte_off), count,
                       count > 0 ? sim_dt_get(type) : NULL};
    g_array_append_val(b->regions, r);
}

/* The same in displacements of type's extent. */
static void buffer_add_at(buffer *b, MPI_Aint disp, int count, MPI_Datatype type) {
    const sim_datatype *dt = sim_dt_get(type);
    buffer_add(b, dt ? disp * sim_dt_extent(dt) : 0, count, type);
}

/* MPI forbids a buffer a call writes to alias another argument (MPI 3.1
 * section 2.3), and offers MPI_IN_PLACE to reuse one buffer: the send and
 * receive buffers must not share a byte (the gaps of strided types do not
 * count).  Frees both buffers. */
static int disjoint(call *k, buffer *send, buffer *recv) {
    uintptr_t at = 0;
    bool overlap = send->buf != MPI_IN_PLACE && recv->buf != MPI_IN_PLACE &&
                   sim_dt_regions_overlap((const sim_dt_region *)(void *)send->regions->data,
                                          (int)send->regions->len,
                                          (const sim_dt_region *)(void *)recv->regions->data,
                                          (int)recv->regions->len, &at);
    g_array_free(send->regions, TRUE);
    g_array_free(recv->regions, TRUE);
    if (overlap && !k->overlap)
        k->overlap = g_strdup_printf(
            "%s: sendbuf and recvbuf overlap (recvbuf + %td is also sendbuf + %td); a buffer "
            "that a call writes must not alias another argument (MPI 3.1 section 2.3): pass "
            "MPI_IN_PLACE to use one buffer",
            k->fn, (ptrdiff_t)(at - (uintptr_t)recv->buf), (ptrdiff_t)(at - (uintptr_t)send->buf));
    return MPI_SUCCESS;
}

/* The common case: count elements of sendtype and of recvtype. */
static int disjoint_plain(call *k, const void *sendbuf, int scount, MPI_Datatype stype,
                          const void *recvbuf, int rcount, MPI_Datatype rtype) {
    buffer s, r;
    buffer_init(&s, sendbuf);
    buffer_init(&r, recvbuf);
    buffer_add(&s, 0, scount, stype);
    buffer_add(&r, 0, rcount, rtype);
    return disjoint(k, &s, &r);
}

/* count * n elements, without overflowing an int: the elements of a
 * block-per-member buffer. */
static int times(int count, int n) {
    long v = (long)count * n;
    return v > INT_MAX ? INT_MAX : (int)v;
}

static sim_coll_args args_init(void) {
    sim_coll_args a;
    memset(&a, 0, sizeof a);
    a.sendtype = MPI_DATATYPE_NULL;
    a.recvtype = MPI_DATATYPE_NULL;
    a.op = MPI_OP_NULL;
    a.group = MPI_GROUP_NULL;
    return a;
}

static int neighbors_of(const call *k, int *nin, int *nout);

/* Posts the contribution, once its buffers passed the checks against their
 * memory objects and each other (disjoint); blocking calls wait for the
 * collective to complete, nonblocking ones hand out the request. */
static int post(call *k, sim_coll_kind kind, const sim_coll_args *a) {
    int nin = 0, nout = 0, rc = MPI_SUCCESS;
    if (kind >= SIM_COLL_NEIGHBOR_ALLGATHER && kind <= SIM_COLL_NEIGHBOR_ALLTOALLW)
        rc = neighbors_of(k, &nin, &nout);
    if (rc == MPI_SUCCESS)
        rc = sim_bufcheck_coll(k->handle, k->fn, kind, k->me, k->comm->size, nin, nout, a);
    if (rc == MPI_SUCCESS && k->overlap)
        rc = sim_error(k->handle, MPI_ERR_BUFFER, "%s", k->overlap);
    g_free(k->overlap);
    k->overlap = NULL;
    if (rc != MPI_SUCCESS)
        return rc;
    sim_coll_args mine = *a;
    mine.nonblocking = k->request != NULL;
    sim_request *req = sim_coll_post(k->comm, kind, &mine);
    if (!req)
        return MPI_ERR_OTHER; /* a mismatch already reported (non-fatally) */
    if (k->request) {
        *k->request = sim_request_publish(req);
        return MPI_SUCCESS;
    }
    return sim_request_wait(req, MPI_STATUS_IGNORE);
}

/* ---------------------------------------------------------------------- */
/* Bodies shared by the blocking and nonblocking variants                  */

static int do_barrier(const char *fn, MPI_Comm comm, bool nb, MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, SIM_COLL_BARRIER, &(sim_coll_args){0},
                                   request);
    sim_coll_args a = args_init();
    return post(&k, SIM_COLL_BARRIER, &a);
}

static int do_bcast(const char *fn, void *buffer, int count, MPI_Datatype datatype, int root,
                    MPI_Comm comm, bool nb, MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, SIM_COLL_BCAST,
                                   &(sim_coll_args){.sendbuf = buffer,
                                                    .recvbuf = buffer,
                                                    .sendcount = count,
                                                    .recvcount = count,
                                                    .sendtype = datatype,
                                                    .recvtype = datatype,
                                                    .root = root},
                                   request);
    TRY(check_root(&k, root));
    TRY(check_count(&k, count, "count"));
    TRY(check_type(&k, datatype, "datatype"));
    TRY(no_in_place(&k, buffer, "buffer", ""));
    sim_coll_args a = args_init();
    a.sendbuf = a.recvbuf = buffer;
    a.sendcount = a.recvcount = count;
    a.sendtype = a.recvtype = datatype;
    a.root = root;
    return post(&k, SIM_COLL_BCAST, &a);
}

/* Reduce, Allreduce, Scan, Exscan: (sendbuf, recvbuf, count, datatype, op).
 * root is -1 for all but Reduce. */
static int do_reduce(const char *fn, sim_coll_kind kind, const void *sendbuf, void *recvbuf,
                     int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, bool nb,
                     MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, kind,
                                   &(sim_coll_args){.sendbuf = sendbuf,
                                                    .recvbuf = recvbuf,
                                                    .sendcount = count,
                                                    .recvcount = count,
                                                    .sendtype = datatype,
                                                    .recvtype = datatype,
                                                    .op = op,
                                                    .root = kind == SIM_COLL_REDUCE ? root : 0},
                                   request);
    if (kind == SIM_COLL_REDUCE)
        TRY(check_root(&k, root));
    TRY(check_count(&k, count, "count"));
    TRY(check_type(&k, datatype, "datatype"));
    TRY(check_op(&k, op, datatype));
    bool has_result = kind != SIM_COLL_REDUCE || k.me == root;
    if (kind == SIM_COLL_REDUCE && k.me != root)
        TRY(no_in_place(&k, sendbuf, "sendbuf", ONLY_ROOT));
    if (has_result) {
        TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
        TRY(disjoint_plain(&k, sendbuf, count, datatype, recvbuf, count, datatype));
    }
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.recvbuf = recvbuf;
    a.sendcount = a.recvcount = count;
    a.sendtype = a.recvtype = datatype;
    a.op = op;
    a.root = kind == SIM_COLL_REDUCE ? root : 0;
    return post(&k, kind, &a);
}

static int do_reduce_scatter(const char *fn, sim_coll_kind kind, const void *sendbuf, void *recvbuf,
                             const int *recvcounts, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, bool nb, MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, kind,
                                   &(sim_coll_args){.sendbuf = sendbuf,
                                                    .recvbuf = recvbuf,
                                                    .recvcounts = recvcounts,
                                                    .recvcount = recvcount,
                                                    .sendtype = datatype,
                                                    .recvtype = datatype,
                                                    .op = op},
                                   request);
    int mine;
    if (kind == SIM_COLL_REDUCE_SCATTER) {
        TRY(check_counts(&k, recvcounts, "recvcounts"));
        mine = recvcounts[k.me];
    } else {
        TRY(check_count(&k, recvcount, "recvcount"));
        mine = recvcount;
    }
    TRY(check_type(&k, datatype, "datatype"));
    TRY(check_op(&k, op, datatype));
    TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
    long sum = 0; /* what each rank contributes */
    if (kind == SIM_COLL_REDUCE_SCATTER)
        for (int i = 0; i < k.comm->size; i++)
            sum += recvcounts[i];
    else
        sum = (long)recvcount * k.comm->size;
    int total = sum > INT_MAX ? INT_MAX : (int)sum;
    TRY(disjoint_plain(&k, sendbuf, total, datatype, recvbuf, mine, datatype));
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.recvbuf = recvbuf;
    a.recvcounts = recvcounts;
    a.recvcount = recvcount;
    a.sendtype = a.recvtype = datatype;
    a.op = op;
    return post(&k, kind, &a);
}

/* Gather and Gatherv (recvcounts/displs NULL for Gather). */
static int do_gather(const char *fn, sim_coll_kind kind, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, const int *recvcounts,
                     const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm, bool nb,
                     MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, kind,
                                   &(sim_coll_args){.sendbuf = sendbuf,
                                                    .sendcount = sendcount,
                                                    .sendtype = sendtype,
                                                    .recvbuf = recvbuf,
                                                    .recvcount = recvcount,
                                                    .recvcounts = recvcounts,
                                                    .rdispls = displs,
                                                    .recvtype = recvtype,
                                                    .root = root},
                                   request);
    TRY(check_root(&k, root));
    bool at_root = k.me == root;
    if (sendbuf == MPI_IN_PLACE) {
        if (!at_root)
            TRY(no_in_place(&k, sendbuf, "sendbuf", ONLY_ROOT));
    } else {
        TRY(check_count(&k, sendcount, "sendcount"));
        TRY(check_type(&k, sendtype, "sendtype"));
    }
    if (at_root) {
        if (kind == SIM_COLL_GATHERV) {
            TRY(check_counts(&k, recvcounts, "recvcounts"));
            TRY(check_array(&k, displs, "displs"));
        } else {
            TRY(check_count(&k, recvcount, "recvcount"));
        }
        TRY(check_type(&k, recvtype, "recvtype"));
        TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
        buffer s, r;
        buffer_init(&s, sendbuf);
        buffer_init(&r, recvbuf);
        buffer_add(&s, 0, sendcount, sendtype);
        if (kind == SIM_COLL_GATHERV)
            for (int i = 0; i < k.comm->size; i++)
                buffer_add_at(&r, displs[i], recvcounts[i], recvtype);
        else
            buffer_add(&r, 0, times(recvcount, k.comm->size), recvtype);
        TRY(disjoint(&k, &s, &r));
    }
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.sendcount = sendcount;
    a.sendtype = sendtype;
    a.recvbuf = recvbuf;
    a.recvcount = recvcount;
    a.recvcounts = recvcounts;
    a.rdispls = displs;
    a.recvtype = recvtype;
    a.root = root;
    return post(&k, kind, &a);
}

/* Scatter and Scatterv (sendcounts/displs NULL for Scatter). */
static int do_scatter(const char *fn, sim_coll_kind kind, const void *sendbuf, int sendcount,
                      const int *sendcounts, const int *displs, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      bool nb, MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, kind,
                                   &(sim_coll_args){.sendbuf = sendbuf,
                                                    .sendcount = sendcount,
                                                    .sendcounts = sendcounts,
                                                    .sdispls = displs,
                                                    .sendtype = sendtype,
                                                    .recvbuf = recvbuf,
                                                    .recvcount = recvcount,
                                                    .recvtype = recvtype,
                                                    .root = root},
                                   request);
    TRY(check_root(&k, root));
    bool at_root = k.me == root;
    if (at_root) {
        if (kind == SIM_COLL_SCATTERV) {
            TRY(check_counts(&k, sendcounts, "sendcounts"));
            TRY(check_array(&k, displs, "displs"));
        } else {
            TRY(check_count(&k, sendcount, "sendcount"));
        }
        TRY(check_type(&k, sendtype, "sendtype"));
        TRY(no_in_place(&k, sendbuf, "sendbuf", ""));
    }
    if (recvbuf == MPI_IN_PLACE) {
        if (!at_root)
            TRY(no_in_place(&k, recvbuf, "recvbuf", ONLY_ROOT));
    } else {
        TRY(check_count(&k, recvcount, "recvcount"));
        TRY(check_type(&k, recvtype, "recvtype"));
        if (at_root) {
            buffer sb, rb;
            buffer_init(&sb, sendbuf);
            buffer_init(&rb, recvbuf);
            if (kind == SIM_COLL_SCATTERV)
                for (int i = 0; i < k.comm->size; i++)
                    buffer_add_at(&sb, displs[i], sendcounts[i], sendtype);
            else
                buffer_add(&sb, 0, times(sendcount, k.comm->size), sendtype);
            buffer_add(&rb, 0, recvcount, recvtype);
            TRY(disjoint(&k, &sb, &rb));
        }
    }
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.sendcount = sendcount;
    a.sendcounts = sendcounts;
    a.sdispls = displs;
    a.sendtype = sendtype;
    a.recvbuf = recvbuf;
    a.recvcount = recvcount;
    a.recvtype = recvtype;
    a.root = root;
    return post(&k, kind, &a);
}

/* Allgather and Allgatherv (recvcounts/displs NULL for Allgather). */
static int do_allgather(const char *fn, sim_coll_kind kind, const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount, const int *recvcounts,
                        const int *displs, MPI_Datatype recvtype, MPI_Comm comm, bool nb,
                        MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, kind,
                                   &(sim_coll_args){.sendbuf = sendbuf,
                                                    .sendcount = sendcount,
                                                    .sendtype = sendtype,
                                                    .recvbuf = recvbuf,
                                                    .recvcount = recvcount,
                                                    .recvcounts = recvcounts,
                                                    .rdispls = displs,
                                                    .recvtype = recvtype},
                                   request);
    if (sendbuf != MPI_IN_PLACE) {
        TRY(check_count(&k, sendcount, "sendcount"));
        TRY(check_type(&k, sendtype, "sendtype"));
    }
    if (kind == SIM_COLL_ALLGATHERV) {
        TRY(check_counts(&k, recvcounts, "recvcounts"));
        TRY(check_array(&k, displs, "displs"));
    } else {
        TRY(check_count(&k, recvcount, "recvcount"));
    }
    TRY(check_type(&k, recvtype, "recvtype"));
    TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
    buffer sb, rb;
    buffer_init(&sb, sendbuf);
    buffer_init(&rb, recvbuf);
    buffer_add(&sb, 0, sendcount, sendtype);
    if (kind == SIM_COLL_ALLGATHERV)
        for (int i = 0; i < k.comm->size; i++)
            buffer_add_at(&rb, displs[i], recvcounts[i], recvtype);
    else
        buffer_add(&rb, 0, times(recvcount, k.comm->size), recvtype);
    TRY(disjoint(&k, &sb, &rb));
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.sendcount = sendcount;
    a.sendtype = sendtype;
    a.recvbuf = recvbuf;
    a.recvcount = recvcount;
    a.recvcounts = recvcounts;
    a.rdispls = displs;
    a.recvtype = recvtype;
    return post(&k, kind, &a);
}

static int do_alltoall(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, bool nb,
                       MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, SIM_COLL_ALLTOALL,
                                   &(sim_coll_args){.sendbuf = sendbuf,
                                                    .sendcount = sendcount,
                                                    .sendtype = sendtype,
                                                    .recvbuf = recvbuf,
                                                    .recvcount = recvcount,
                                                    .recvtype = recvtype},
                                   request);
    if (sendbuf != MPI_IN_PLACE) {
        TRY(check_count(&k, sendcount, "sendcount"));
        TRY(check_type(&k, sendtype, "sendtype"));
    }
    TRY(check_count(&k, recvcount, "recvcount"));
    TRY(check_type(&k, recvtype, "recvtype"));
    TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
    TRY(disjoint_plain(&k, sendbuf, times(sendcount, k.comm->size), sendtype, recvbuf,
                       times(recvcount, k.comm->size), recvtype));
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.sendcount = sendcount;
    a.sendtype = sendtype;
    a.recvbuf = recvbuf;
    a.recvcount = recvcount;
    a.recvtype = recvtype;
    return post(&k, SIM_COLL_ALLTOALL, &a);
}

/* Alltoallv (one type per side) and Alltoallw (types per peer: sendtypes /
 * recvtypes non-NULL; displacements in bytes). */
static int do_alltoallv(const char *fn, sim_coll_kind kind, const void *sendbuf,
                        const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                        const MPI_Datatype *sendtypes, void *recvbuf, const int *recvcounts,
                        const int *rdispls, MPI_Datatype recvtype, const MPI_Datatype *recvtypes,
                        MPI_Comm comm, bool nb, MPI_Request *request) {
    call k;
    TRY(begin(&k, fn, comm, nb, request));
    if (k.comm->remote) /* coll_inter.c: the data goes between the groups */
        return sim_coll_inter_call(fn, comm, k.comm, kind,
                                   &(sim_coll_args){.sendbuf = sendbuf,
                                                    .sendcounts = sendcounts,
                                                    .sdispls = sdispls,
                                                    .sendtype = sendtype,
                                                    .sendtypes = sendtypes,
                                                    .recvbuf = recvbuf,
                                                    .recvcounts = recvcounts,
                                                    .rdispls = rdispls,
                                                    .recvtype = recvtype,
                                                    .recvtypes = recvtypes},
                                   request);
    bool w = kind == SIM_COLL_ALLTOALLW;
    if (sendbuf != MPI_IN_PLACE) {
        TRY(check_counts(&k, sendcounts, "sendcounts"));
        TRY(check_array(&k, sdispls, "sdispls"));
        if (w)
            TRY(check_types(&k, sendtypes, sendcounts, "sendtypes"));
        else
            TRY(check_type(&k, sendtype, "sendtype"));
    }
    TRY(check_counts(&k, recvcounts, "recvcounts"));
    TRY(check_array(&k, rdispls, "rdispls"));
    if (w)
        TRY(check_types(&k, recvtypes, recvcounts, "recvtypes"));
    else
        TRY(check_type(&k, recvtype, "recvtype"));
    TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
    if (sendbuf != MPI_IN_PLACE) {
        buffer sb, rb;
        buffer_init(&sb, sendbuf);
        buffer_init(&rb, recvbuf);
        for (int i = 0; i < k.comm->size; i++) {
            if (w) { /* displacements in bytes */
                buffer_add(&sb, sdispls[i], sendcounts[i], sendtypes[i]);
                buffer_add(&rb, rdispls[i], recvcounts[i], recvtypes[i]);
            } else {
                buffer_add_at(&sb, sdispls[i], sendcounts[i], sendtype);
                buffer_add_at(&rb, rdispls[i], recvcounts[i], recvtype);
            }
        }
        TRY(disjoint(&k, &sb, &rb));
    }
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.sendcounts = sendcounts;
    a.sdispls = sdispls;
    a.sendtype = w ? MPI_DATATYPE_NULL : sendtype;
    a.sendtypes = sendtypes;
    a.recvbuf = recvbuf;
    a.recvcounts = recvcounts;
    a.rdispls = rdispls;
    a.recvtype = w ? MPI_DATATYPE_NULL : recvtype;
    a.recvtypes = recvtypes;
    return post(&k, kind, &a);
}

/* ---------------------------------------------------------------------- */
/* The API                                                                 */

int PMPI_Barrier(MPI_Comm comm) {
    SIM_ENTER("MPI_Barrier");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_barrier("MPI_Barrier", comm, false, NULL));
}
SIM_ALIAS(MPI_Barrier);

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ibarrier");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_barrier("MPI_Ibarrier", comm, true, request));
}
SIM_ALIAS(MPI_Ibarrier);

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Bcast");
    sim_call_args("root=%d count=%d datatype=%s comm=%s", root, count, sim_dt_name(datatype),
                  comm_name(comm));
    SIM_RETURN(do_bcast("MPI_Bcast", buffer, count, datatype, root, comm, false, NULL));
}
SIM_ALIAS(MPI_Bcast);

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request) {
    SIM_ENTER("MPI_Ibcast");
    sim_call_args("root=%d count=%d datatype=%s comm=%s", root, count, sim_dt_name(datatype),
                  comm_name(comm));
    SIM_RETURN(do_bcast("MPI_Ibcast", buffer, count, datatype, root, comm, true, request));
}
SIM_ALIAS(MPI_Ibcast);

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Reduce");
    sim_call_args("root=%d count=%d datatype=%s op=%s comm=%s%s", root, count,
                  sim_dt_name(datatype), sim_op_name(op), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Reduce", SIM_COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root,
                         comm, false, NULL));
}
SIM_ALIAS(MPI_Reduce);

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ireduce");
    sim_call_args("root=%d count=%d datatype=%s op=%s comm=%s%s", root, count,
                  sim_dt_name(datatype), sim_op_name(op), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Ireduce", SIM_COLL_REDUCE, sendbuf, recvbuf, count, datatype, op,
                         root, comm, true, request));
}
SIM_ALIAS(MPI_Ireduce);

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
    SIM_ENTER("MPI_Allreduce");
    sim_call_args("count=%d datatype=%s op=%s comm=%s%s", count, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Allreduce", SIM_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op,
                         -1, comm, false, NULL));
}
SIM_ALIAS(MPI_Allreduce);

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iallreduce");
    sim_call_args("count=%d datatype=%s op=%s comm=%s%s", count, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Iallreduce", SIM_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype,
                         op, -1, comm, true, request));
}
SIM_ALIAS(MPI_Iallreduce);

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm) {
    SIM_ENTER("MPI_Scan");
    sim_call_args("count=%d datatype=%s op=%s comm=%s%s", count, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Scan", SIM_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm,
                         false, NULL));
}
SIM_ALIAS(MPI_Scan);

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iscan");
    sim_call_args("count=%d datatype=%s op=%s comm=%s%s", count, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Iscan", SIM_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1,
                         comm, true, request));
}
SIM_ALIAS(MPI_Iscan);

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm) {
    SIM_ENTER("MPI_Exscan");
    sim_call_args("count=%d datatype=%s op=%s comm=%s%s", count, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Exscan", SIM_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1,
                         comm, false, NULL));
}
SIM_ALIAS(MPI_Exscan);

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iexscan");
    sim_call_args("count=%d datatype=%s op=%s comm=%s%s", count, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce("MPI_Iexscan", SIM_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1,
                         comm, true, request));
}
SIM_ALIAS(MPI_Iexscan);

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
    SIM_ENTER("MPI_Reduce_scatter");
    sim_call_args("datatype=%s op=%s comm=%s%s", sim_dt_name(datatype), sim_op_name(op),
                  comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce_scatter("MPI_Reduce_scatter", SIM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                                 recvcounts, 0, datatype, op, comm, false, NULL));
}
SIM_ALIAS(MPI_Reduce_scatter);

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ireduce_scatter");
    sim_call_args("datatype=%s op=%s comm=%s%s", sim_dt_name(datatype), sim_op_name(op),
                  comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce_scatter("MPI_Ireduce_scatter", SIM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                                 recvcounts, 0, datatype, op, comm, true, request));
}
SIM_ALIAS(MPI_Ireduce_scatter);

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
    SIM_ENTER("MPI_Reduce_scatter_block");
    sim_call_args("recvcount=%d datatype=%s op=%s comm=%s%s", recvcount, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce_scatter("MPI_Reduce_scatter_block", SIM_COLL_REDUCE_SCATTER_BLOCK, sendbuf,
                                 recvbuf, NULL, recvcount, datatype, op, comm, false, NULL));
}
SIM_ALIAS(MPI_Reduce_scatter_block);

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request) {
    SIM_ENTER("MPI_Ireduce_scatter_block");
    sim_call_args("recvcount=%d datatype=%s op=%s comm=%s%s", recvcount, sim_dt_name(datatype),
                  sim_op_name(op), comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_reduce_scatter("MPI_Ireduce_scatter_block", SIM_COLL_REDUCE_SCATTER_BLOCK,
                                 sendbuf, recvbuf, NULL, recvcount, datatype, op, comm, true,
                                 request));
}
SIM_ALIAS(MPI_Ireduce_scatter_block);

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Gather");
    sim_call_args("root=%d sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", root,
                  sendcount, sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype),
                  comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_gather("MPI_Gather", SIM_COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf,
                         recvcount, NULL, NULL, recvtype, root, comm, false, NULL));
}
SIM_ALIAS(MPI_Gather);

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request) {
    SIM_ENTER("MPI_Igather");
    sim_call_args("root=%d sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", root,
                  sendcount, sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype),
                  comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_gather("MPI_Igather", SIM_COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf,
                         recvcount, NULL, NULL, recvtype, root, comm, true, request));
}
SIM_ALIAS(MPI_Igather);

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
    SIM_ENTER("MPI_Gatherv");
    sim_call_args("root=%d sendcount=%d sendtype=%s recvtype=%s comm=%s%s", root, sendcount,
                  sim_dt_name(sendtype), sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_gather("MPI_Gatherv", SIM_COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                         recvcounts, displs, recvtype, root, comm, false, NULL));
}
SIM_ALIAS(MPI_Gatherv);

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Igatherv");
    sim_call_args("root=%d sendcount=%d sendtype=%s recvtype=%s comm=%s%s", root, sendcount,
                  sim_dt_name(sendtype), sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_gather("MPI_Igatherv", SIM_COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                         recvcounts, displs, recvtype, root, comm, true, request));
}
SIM_ALIAS(MPI_Igatherv);

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Scatter");
    sim_call_args("root=%d sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", root,
                  sendcount, sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype),
                  comm_name(comm), in_place_note(recvbuf, "recvbuf"));
    SIM_RETURN(do_scatter("MPI_Scatter", SIM_COLL_SCATTER, sendbuf, sendcount, NULL, NULL, sendtype,
                          recvbuf, recvcount, recvtype, root, comm, false, NULL));
}
SIM_ALIAS(MPI_Scatter);

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request) {
    SIM_ENTER("MPI_Iscatter");
    sim_call_args("root=%d sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", root,
                  sendcount, sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype),
                  comm_name(comm), in_place_note(recvbuf, "recvbuf"));
    SIM_RETURN(do_scatter("MPI_Iscatter", SIM_COLL_SCATTER, sendbuf, sendcount, NULL, NULL,
                          sendtype, recvbuf, recvcount, recvtype, root, comm, true, request));
}
SIM_ALIAS(MPI_Iscatter);

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Scatterv");
    sim_call_args("root=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", root,
                  sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(recvbuf, "recvbuf"));
    SIM_RETURN(do_scatter("MPI_Scatterv", SIM_COLL_SCATTERV, sendbuf, 0, sendcounts, displs,
                          sendtype, recvbuf, recvcount, recvtype, root, comm, false, NULL));
}
SIM_ALIAS(MPI_Scatterv);

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iscatterv");
    sim_call_args("root=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", root,
                  sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(recvbuf, "recvbuf"));
    SIM_RETURN(do_scatter("MPI_Iscatterv", SIM_COLL_SCATTERV, sendbuf, 0, sendcounts, displs,
                          sendtype, recvbuf, recvcount, recvtype, root, comm, true, request));
}
SIM_ALIAS(MPI_Iscatterv);

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Allgather");
    sim_call_args("sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", sendcount,
                  sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_allgather("MPI_Allgather", SIM_COLL_ALLGATHER, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, NULL, NULL, recvtype, comm, false, NULL));
}
SIM_ALIAS(MPI_Allgather);

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iallgather");
    sim_call_args("sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", sendcount,
                  sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_allgather("MPI_Iallgather", SIM_COLL_ALLGATHER, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, NULL, NULL, recvtype, comm, true, request));
}
SIM_ALIAS(MPI_Iallgather);

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm) {
    SIM_ENTER("MPI_Allgatherv");
    sim_call_args("sendcount=%d sendtype=%s recvtype=%s comm=%s%s", sendcount,
                  sim_dt_name(sendtype), sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_allgather("MPI_Allgatherv", SIM_COLL_ALLGATHERV, sendbuf, sendcount, sendtype,
                            recvbuf, 0, recvcounts, displs, recvtype, comm, false, NULL));
}
SIM_ALIAS(MPI_Allgatherv);

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iallgatherv");
    sim_call_args("sendcount=%d sendtype=%s recvtype=%s comm=%s%s", sendcount,
                  sim_dt_name(sendtype), sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_allgather("MPI_Iallgatherv", SIM_COLL_ALLGATHERV, sendbuf, sendcount, sendtype,
                            recvbuf, 0, recvcounts, displs, recvtype, comm, true, request));
}
SIM_ALIAS(MPI_Iallgatherv);

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Alltoall");
    sim_call_args("sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", sendcount,
                  sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_alltoall("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, false, NULL));
}
SIM_ALIAS(MPI_Alltoall);

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ialltoall");
    sim_call_args("sendcount=%d sendtype=%s recvcount=%d recvtype=%s comm=%s%s", sendcount,
                  sim_dt_name(sendtype), recvcount, sim_dt_name(recvtype), comm_name(comm),
                  in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_alltoall("MPI_Ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, true, request));
}
SIM_ALIAS(MPI_Ialltoall);

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Alltoallv");
    sim_call_args("sendtype=%s recvtype=%s comm=%s%s", sim_dt_name(sendtype), sim_dt_name(recvtype),
                  comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_alltoallv("MPI_Alltoallv", SIM_COLL_ALLTOALLV, sendbuf, sendcounts, sdispls,
                            sendtype, NULL, recvbuf, recvcounts, rdispls, recvtype, NULL, comm,
                            false, NULL));
}
SIM_ALIAS(MPI_Alltoallv);

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request) {
    SIM_ENTER("MPI_Ialltoallv");
    sim_call_args("sendtype=%s recvtype=%s comm=%s%s", sim_dt_name(sendtype), sim_dt_name(recvtype),
                  comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_alltoallv("MPI_Ialltoallv", SIM_COLL_ALLTOALLV, sendbuf, sendcounts, sdispls,
                            sendtype, NULL, recvbuf, recvcounts, rdispls, recvtype, NULL, comm,
                            true, request));
}
SIM_ALIAS(MPI_Ialltoallv);

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    SIM_ENTER("MPI_Alltoallw");
    sim_call_args("comm=%s%s", comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_alltoallv("MPI_Alltoallw", SIM_COLL_ALLTOALLW, sendbuf, sendcounts, sdispls,
                            MPI_DATATYPE_NULL, sendtypes, recvbuf, recvcounts, rdispls,
                            MPI_DATATYPE_NULL, recvtypes, comm, false, NULL));
}
SIM_ALIAS(MPI_Alltoallw);

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request) {
    SIM_ENTER("MPI_Ialltoallw");
    sim_call_args("comm=%s%s", comm_name(comm), in_place_note(sendbuf, "sendbuf"));
    SIM_RETURN(do_alltoallv("MPI_Ialltoallw", SIM_COLL_ALLTOALLW, sendbuf, sendcounts, sdispls,
                            MPI_DATATYPE_NULL, sendtypes, recvbuf, recvcounts, rdispls,
                            MPI_DATATYPE_NULL, recvtypes, comm, true, request));
}
SIM_ALIAS(MPI_Ialltoallw);

/* ---------------------------------------------------------------------- */
/* Neighbourhood collectives (MPI 3.1 section 7.6)                         */

/* The caller's in- and out-degree on a communicator with a topology. */
static int neighbors_of(const call *k, int *nin, int *nout) {
    int *in, *out;
    if (!sim_comm_neighbors(k->comm, k->me, &in, nin, &out, nout))
        return sim_error(k->handle, MPI_ERR_TOPOLOGY,
                         "%s: %s has no topology (Cartesian, graph or distributed graph); a "
                         "neighbourhood collective needs one",
                         k->fn, sim_comm_describe(k->comm));
    g_free(in);
    g_free(out);
    return MPI_SUCCESS;
}

/* n counts, present when n > 0 and non-negative. */
static int check_n_counts(const call *k, const int *counts, int n, const char *arg) {
    if (n > 0)
        TRY(check_array(k, counts, arg));
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return sim_error(k->handle, MPI_ERR_COUNT, "%s: %s[%d] = %d is negative", k->fn, arg, i,
                             counts[i]);
    return MPI_SUCCESS;
}

/* n datatypes for the entries with a nonzero count. */
static int check_n_types(const call *k, const MPI_Datatype *types, const int *counts, int n,
                         const char *arg) {
    if (n > 0)
        TRY(check_array(k, types, arg));
    for (int i = 0; i < n; i++) {
        if (counts[i] == 0)
            continue;
        char name[40];
        g_snprintf(name, sizeof name, "%s[%d]", arg, i);
        TRY(check_type(k, types[i], name));
    }
    return MPI_SUCCESS;
}

/* Allgather and alltoall: one count and type per side. */
static int do_neighbor(const char *fn, sim_coll_kind kind, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       MPI_Comm comm, bool nb, MPI_Request *request) {
    call k;
    int nin, nout;
    TRY(begin(&k, fn, comm, nb, request));
    TRY(neighbors_of(&k, &nin, &nout));
    TRY(no_in_place(&k, sendbuf, "sendbuf", ""));
    TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
    TRY(check_count(&k, sendcount, "sendcount"));
    TRY(check_type(&k, sendtype, "sendtype"));
    TRY(check_count(&k, recvcount, "recvcount"));
    TRY(check_type(&k, recvtype, "recvtype"));
    sim_coll_args a = args_init();
    a.sendbuf = sendbuf;
    a.sendcount = sendcount;
    a.sendtype = sendtype;
    a.recvbuf = recvbuf;
    a.recvcount = recvcount;
    a.recvtype = recvtype;
    return post(&k, kind, &a);
}

/* Allgatherv, alltoallv and alltoallw: counts per neighbour. */
static int do_neighbor_v(const char *fn, sim_coll_kind kind, const void *sendbuf, int sendcount,
                         const int *sendcounts, const int *sdispls, const MPI_Aint *sbdispls,
                         MPI_Datatype sendtype, const MPI_Datatype *sendtypes, void *recvbuf,
                         const int *recvcounts, const int *rdispls, const MPI_Aint *rbdispls,
                         MPI_Datatype recvtype, const MPI_Datatype *recvtypes, MPI_Comm comm,
                         bool nb, MPI_Request *request) {
    call k;
    int nin, nout;
    TRY(begin(&k, fn, comm, nb, request));
    TRY(neighbors_of(&k, &nin, &nout));
    TRY(no_in_place(&k, sendbuf, "sendbuf", ""));
    TRY(no_in_place(&k, recvbuf, "recvbuf", ""));
    sim_coll_args a = args_init();
    if (kind == SIM_COLL_NEIGHBOR_ALLGATHERV) {
        TRY(check_count(&k, sendcount, "sendcount"));
        TRY(check_type(&k, sendtype, "sendtype"));
    } else {
        TRY(check_n_counts(&k, sendcounts, nout, "sendcounts"));
        if (nout > 0)
            TRY(check_array(&k,
                            kind == SIM_COLL_NEIGHBOR_ALLTOALLW ? (const void *)sbdispls
                                                                : (const void *)sdispls,
                            "sdispls"));
        if (kind == SIM_COLL_NEIGHBOR_ALLTOALLW)
            TRY(check_n_types(&k, sendtypes, sendcounts, nout, "sendtypes"));
        else
            TRY(check_type(&k, sendtype, "sendtype"));
    }
    TRY(check_n_counts(&k, recvcounts, nin, "recvcounts"));
    if (nin > 0)
        TRY(check_array(&k,
                        kind == SIM_COLL_NEIGHBOR_ALLTOALLW ? (const void *)rbdispls
                                                            : (const void *)rdispls,
                        "rdispls"));
    if (kind == SIM_COLL_NEIGHBOR_ALLTOALLW)
        TRY(check_n_types(&k, recvtypes, recvcounts, nin, "recvtypes"));
    else
        TRY(check_type(&k, recvtype, "recvtype"));
    a.sendbuf = sendbuf;
    a.sendcount = sendcount;
    a.sendcounts = sendcounts;
    a.sdispls = sdispls;
    a.sbdispls = sbdispls;
    a.sendtype = sendtype;
    a.sendtypes = sendtypes;
    a.recvbuf = recvbuf;
    a.recvcounts = recvcounts;
    a.rdispls = rdispls;
    a.rbdispls = rbdispls;
    a.recvtype = recvtype;
    a.recvtypes = recvtypes;
    return post(&k, kind, &a);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_allgather");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor("MPI_Neighbor_allgather", SIM_COLL_NEIGHBOR_ALLGATHER, sendbuf,
                           sendcount, sendtype, recvbuf, recvcount, recvtype, comm, false, NULL));
}
SIM_ALIAS(MPI_Neighbor_allgather);

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_allgather");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor("MPI_Ineighbor_allgather", SIM_COLL_NEIGHBOR_ALLGATHER, sendbuf,
                           sendcount, sendtype, recvbuf, recvcount, recvtype, comm, true, request));
}
SIM_ALIAS(MPI_Ineighbor_allgather);

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_alltoall");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor("MPI_Neighbor_alltoall", SIM_COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount,
                           sendtype, recvbuf, recvcount, recvtype, comm, false, NULL));
}
SIM_ALIAS(MPI_Neighbor_alltoall);

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_alltoall");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor("MPI_Ineighbor_alltoall", SIM_COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount,
                           sendtype, recvbuf, recvcount, recvtype, comm, true, request));
}
SIM_ALIAS(MPI_Ineighbor_alltoall);

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_allgatherv");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor_v("MPI_Neighbor_allgatherv", SIM_COLL_NEIGHBOR_ALLGATHERV, sendbuf,
                             sendcount, NULL, NULL, NULL, sendtype, NULL, recvbuf, recvcounts,
                             displs, NULL, recvtype, NULL, comm, false, NULL));
}
SIM_ALIAS(MPI_Neighbor_allgatherv);

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_allgatherv");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor_v("MPI_Ineighbor_allgatherv", SIM_COLL_NEIGHBOR_ALLGATHERV, sendbuf,
                             sendcount, NULL, NULL, NULL, sendtype, NULL, recvbuf, recvcounts,
                             displs, NULL, recvtype, NULL, comm, true, request));
}
SIM_ALIAS(MPI_Ineighbor_allgatherv);

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_alltoallv");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor_v("MPI_Neighbor_alltoallv", SIM_COLL_NEIGHBOR_ALLTOALLV, sendbuf, 0,
                             sendcounts, sdispls, NULL, sendtype, NULL, recvbuf, recvcounts,
                             rdispls, NULL, recvtype, NULL, comm, false, NULL));
}
SIM_ALIAS(MPI_Neighbor_alltoallv);

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_alltoallv");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor_v("MPI_Ineighbor_alltoallv", SIM_COLL_NEIGHBOR_ALLTOALLV, sendbuf, 0,
                             sendcounts, sdispls, NULL, sendtype, NULL, recvbuf, recvcounts,
                             rdispls, NULL, recvtype, NULL, comm, true, request));
}
SIM_ALIAS(MPI_Ineighbor_alltoallv);

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_alltoallw");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor_v("MPI_Neighbor_alltoallw", SIM_COLL_NEIGHBOR_ALLTOALLW, sendbuf, 0,
                             sendcounts, NULL, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf,
                             recvcounts, NULL, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, false,
                             NULL));
}
SIM_ALIAS(MPI_Neighbor_alltoallw);

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_alltoallw");
    sim_call_args("comm=%s", comm_name(comm));
    SIM_RETURN(do_neighbor_v("MPI_Ineighbor_alltoallw", SIM_COLL_NEIGHBOR_ALLTOALLW, sendbuf, 0,
                             sendcounts, NULL, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf,
                             recvcounts, NULL, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, true,
                             request));
}
SIM_ALIAS(MPI_Ineighbor_alltoallw);
