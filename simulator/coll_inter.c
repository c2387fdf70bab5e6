/*
 * coll_inter.c - the calls of collectives on intercommunicators: what each
 * member checks of its own arguments, and posting (see coll_inter.h; the
 * execution is coll_inter_exec.c).
 */
#include "simulator/coll_inter.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "simulator/bufcheck.h"
#include "simulator/datatype.h"
#include "simulator/engine.h"
#include "simulator/op.h"
#include "simulator/request.h"
#include "simulator/sim_internal.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int try_rc_ = (expr);                                                                      \
        if (try_rc_ != MPI_SUCCESS)                                                                \
            return try_rc_;                                                                        \
    } while (0)

/* ---------------------------------------------------------------------- */
/* The caller's checks                                                     */

typedef struct call {
    const char *fn;
    MPI_Comm handle;
    sim_comm *comm;
    int nremote;
} call;

static int check_count(const call *k, int count, const char *arg) {
    return sim_coll_check_count(k->handle, k->fn, count, arg);
}

static int check_type(const call *k, MPI_Datatype type, const char *arg) {
    return sim_coll_check_type(k->handle, k->fn, type, arg);
}

static int check_array(const call *k, const void *array, const char *arg) {
    return sim_coll_check_array(k->handle, k->fn, array, arg);
}

/* n counts, present and non-negative. */
static int check_counts(const call *k, const int *counts, int n, const char *arg) {
    TRY(check_array(k, counts, arg));
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return sim_error(k->handle, MPI_ERR_COUNT, "%s: %s[%d] = %d is negative", k->fn, arg, i,
                             counts[i]);
    return MPI_SUCCESS;
}

/* n datatypes, checked where the count is not zero. */
static int check_types(const call *k, const MPI_Datatype *types, const int *counts, int n,
                       const char *arg) {
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

static int no_in_place(const call *k, const void *buf, const char *arg) {
    if (buf == MPI_IN_PLACE)
        return sim_error(k->handle, MPI_ERR_BUFFER,
                         "%s: MPI_IN_PLACE is not allowed as %s on an intercommunicator (%s); "
                         "the data goes to the other group",
                         k->fn, arg, sim_comm_describe(k->comm));
    return MPI_SUCCESS;
}

static bool rooted(sim_coll_kind kind) {
    return kind == SIM_COLL_BCAST || kind == SIM_COLL_REDUCE || kind == SIM_COLL_GATHER ||
           kind == SIM_COLL_GATHERV || kind == SIM_COLL_SCATTER || kind == SIM_COLL_SCATTERV;
}

/* The role a root argument gives: the root, a bystander of the root's
 * group, or a member of the other group (root names the root there). */
typedef enum role { ROLE_ROOT, ROLE_NONE, ROLE_REMOTE } role;

static role role_of(int root) {
    return root == MPI_ROOT ? ROLE_ROOT : root == MPI_PROC_NULL ? ROLE_NONE : ROLE_REMOTE;
}

static int check_root(const call *k, int root) {
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < k->nremote))
        return MPI_SUCCESS;
    return sim_error(k->handle, MPI_ERR_ROOT,
                     "%s: root %d is not valid on the intercommunicator %s: the root passes "
                     "MPI_ROOT, the other members of its group MPI_PROC_NULL, and the other "
                     "group the root's rank there (0 to %d)",
                     k->fn, root, sim_comm_describe(k->comm), k->nremote - 1);
}

/* The checks of the arguments significant at this rank. */
static int check_local(const call *k, sim_coll_kind kind, const sim_coll_args *a) {
    int nr = k->nremote, nl = k->comm->size;
    role r = rooted(kind) ? role_of(a->root) : ROLE_REMOTE;
    if (rooted(kind))
        TRY(check_root(k, a->root));
    if (r == ROLE_NONE)
        return MPI_SUCCESS;
    switch (kind) {
    case SIM_COLL_BARRIER:
        return MPI_SUCCESS;
    case SIM_COLL_BCAST:
        TRY(check_count(k, a->sendcount, "count"));
        TRY(check_type(k, a->sendtype, "datatype"));
        return no_in_place(k, a->sendbuf, "buffer");
    case SIM_COLL_REDUCE:
    case SIM_COLL_ALLREDUCE:
        TRY(check_count(k, a->sendcount, "count"));
        TRY(check_type(k, a->sendtype, "datatype"));
        TRY(check_op(k, a->op, a->sendtype));
        if (r == ROLE_ROOT)
            return no_in_place(k, a->recvbuf, "recvbuf");
        TRY(no_in_place(k, a->sendbuf, "sendbuf"));
        return kind == SIM_COLL_ALLREDUCE ? no_in_place(k, a->recvbuf, "recvbuf") : MPI_SUCCESS;
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
        if (r == ROLE_ROOT) {
            if (kind == SIM_COLL_GATHERV) {
                TRY(check_counts(k, a->recvcounts, nr, "recvcounts"));
                TRY(check_array(k, a->rdispls, "displs"));
            } else {
                TRY(check_count(k, a->recvcount, "recvcount"));
            }
            TRY(check_type(k, a->recvtype, "recvtype"));
            return no_in_place(k, a->recvbuf, "recvbuf");
        }
        TRY(check_count(k, a->sendcount, "sendcount"));
        TRY(check_type(k, a->sendtype, "sendtype"));
        return no_in_place(k, a->sendbuf, "sendbuf");
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        if (r == ROLE_ROOT) {
            if (kind == SIM_COLL_SCATTERV) {
                TRY(check_counts(k, a->sendcounts, nr, "sendcounts"));
                TRY(check_array(k, a->sdispls, "displs"));
            } else {
                TRY(check_count(k, a->sendcount, "sendcount"));
            }
            TRY(check_type(k, a->sendtype, "sendtype"));
            return no_in_place(k, a->sendbuf, "sendbuf");
        }
        TRY(check_count(k, a->recvcount, "recvcount"));
        TRY(check_type(k, a->recvtype, "recvtype"));
        return no_in_place(k, a->recvbuf, "recvbuf");
    case SIM_COLL_ALLGATHER:
    case SIM_COLL_ALLGATHERV:
        TRY(no_in_place(k, a->sendbuf, "sendbuf"));
        TRY(check_count(k, a->sendcount, "sendcount"));
        TRY(check_type(k, a->sendtype, "sendtype"));
        if (kind == SIM_COLL_ALLGATHERV) {
            TRY(check_counts(k, a->recvcounts, nr, "recvcounts"));
            TRY(check_array(k, a->rdispls, "displs"));
        } else {
            TRY(check_count(k, a->recvcount, "recvcount"));
        }
        TRY(check_type(k, a->recvtype, "recvtype"));
        return no_in_place(k, a->recvbuf, "recvbuf");
    case SIM_COLL_ALLTOALL:
        TRY(no_in_place(k, a->sendbuf, "sendbuf"));
        TRY(check_count(k, a->sendcount, "sendcount"));
        TRY(check_type(k, a->sendtype, "sendtype"));
        TRY(check_count(k, a->recvcount, "recvcount"));
        TRY(check_type(k, a->recvtype, "recvtype"));
        return no_in_place(k, a->recvbuf, "recvbuf");
    case SIM_COLL_ALLTOALLV:
    case SIM_COLL_ALLTOALLW: {
        bool w = kind == SIM_COLL_ALLTOALLW;
        TRY(no_in_place(k, a->sendbuf, "sendbuf"));
        TRY(check_counts(k, a->sendcounts, nr, "sendcounts"));
        TRY(check_array(k, a->sdispls, "sdispls"));
        TRY(w ? check_types(k, a->sendtypes, a->sendcounts, nr, "sendtypes")
              : check_type(k, a->sendtype, "sendtype"));
        TRY(check_counts(k, a->recvcounts, nr, "recvcounts"));
        TRY(check_array(k, a->rdispls, "rdispls"));
        TRY(w ? check_types(k, a->recvtypes, a->recvcounts, nr, "recvtypes")
              : check_type(k, a->recvtype, "recvtype"));
        return no_in_place(k, a->recvbuf, "recvbuf");
    }
    case SIM_COLL_REDUCE_SCATTER:
    case SIM_COLL_REDUCE_SCATTER_BLOCK:
        /* recvcounts describe the caller's own group: the other group's
         * result is scattered over it. */
        if (kind == SIM_COLL_REDUCE_SCATTER)
            TRY(check_counts(k, a->recvcounts, nl, "recvcounts"));
        else
            TRY(check_count(k, a->recvcount, "recvcount"));
        TRY(check_type(k, a->sendtype, "datatype"));
        TRY(check_op(k, a->op, a->sendtype));
        TRY(no_in_place(k, a->sendbuf, "sendbuf"));
        return no_in_place(k, a->recvbuf, "recvbuf");
    default:
        return sim_error(k->handle, MPI_ERR_COMM, "%s is not a collective on intercommunicators",
                         k->fn);
    }
}

/* The buffers against their memory objects (bufcheck.h), as far as they
 * are significant here: per member of the other group, or of the caller's
 * own for the reduce_scatter vectors; a root's send side of a gather or
 * reduce and receive side of a scatter are not, nor anything of a
 * bystander's (MPI 3.1 section 5.2.2). */
static int check_buffers(const call *k, sim_coll_kind kind, const sim_coll_args *a) {
    sim_coll_args view = *a;
    int me = INT_MIN, size = k->nremote; /* INT_MIN: never the root */
    if (rooted(kind)) {
        role r = role_of(a->root);
        if (r == ROLE_NONE)
            return MPI_SUCCESS;
        if (r == ROLE_ROOT) {
            me = a->root;
            if (kind == SIM_COLL_REDUCE || kind == SIM_COLL_GATHER || kind == SIM_COLL_GATHERV)
                view.sendcount = 0;
            if (kind == SIM_COLL_SCATTER || kind == SIM_COLL_SCATTERV)
                view.recvcount = 0;
        }
    } else if (kind == SIM_COLL_REDUCE_SCATTER || kind == SIM_COLL_REDUCE_SCATTER_BLOCK) {
        me = sim_comm_rank(k->comm, sim_self());
        size = k->comm->size;
    }
    return sim_bufcheck_coll(k->handle, k->fn, kind, me, size, 0, 0, &view);
}

int sim_coll_inter_call(const char *fn, MPI_Comm handle, sim_comm *comm, sim_coll_kind kind,
                        const sim_coll_args *a, MPI_Request *request) {
    call k = {fn, handle, comm, comm->remote->size};
    if (kind == SIM_COLL_SCAN || kind == SIM_COLL_EXSCAN)
        return sim_error(handle, MPI_ERR_COMM,
                         "%s: %s is an intercommunicator; %s is defined on intracommunicators "
                         "only (MPI 3.1 section 5.11)",
                         fn, sim_comm_describe(comm), fn);
    if (kind >= SIM_COLL_NEIGHBOR_ALLGATHER)
        return sim_error(handle, MPI_ERR_TOPOLOGY,
                         "%s: %s is an intercommunicator, which has no topology; a neighbourhood "
                         "collective needs one",
                         fn, sim_comm_describe(comm));
    TRY(check_local(&k, kind, a));
    TRY(check_buffers(&k, kind, a));
    sim_coll_args mine = *a;
    mine.nonblocking = request != NULL;
    sim_request *req = sim_coll_post(comm->both, kind, &mine);
    if (!req)
        return MPI_ERR_OTHER; /* a mismatch already reported (non-fatally) */
    /* Errors found when it fires are the intercommunicator's, under its
     * error handler, not those of the communicator both groups meet on. */
    req->comm = comm;
    if (request) {
        *request = sim_request_publish(req);
        return MPI_SUCCESS;
    }
    return sim_request_wait(req, MPI_STATUS_IGNORE);
}
