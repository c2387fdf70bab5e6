/*
 * mpi_persist.c - MPI 4.0's persistent collectives (MPI_Bcast_init & co.,
 * the neighbourhood ones included) and MPI_Isendrecv/Isendrecv_replace.
 *
 * A persistent collective is an inactive request that keeps the call's
 * arguments; each MPI_Start runs the nonblocking twin (MPI_Ibcast for
 * MPI_Bcast_init), whose request becomes the persistent one's pair: the
 * persistent request completes when the twin's does (request.c), so that a
 * started persistent collective matches, orders and completes exactly as
 * the nonblocking call would, in run, explore and predict alike.  A fresh
 * twin per start: what a finished run still holds of its request (predict's
 * timing of the collective) never touches the next one.  The
 * twin's argument checks happen at the start; their findings name the
 * persistent call (sim_call_alias) at the MPI_Start's line.
 */
#include <stddef.h>
#include <string.h>

#include "simulator/access.h"
#include "simulator/comm.h"
#include "simulator/engine.h"
#include "simulator/op.h"
#include "simulator/sim_internal.h"

typedef enum pkind {
    P_BARRIER,
    P_BCAST,
    P_REDUCE,
    P_ALLREDUCE,
    P_SCAN,
    P_EXSCAN,
    P_REDUCE_SCATTER,
    P_REDUCE_SCATTER_BLOCK,
    P_GATHER,
    P_GATHERV,
    P_SCATTER,
    P_SCATTERV,
    P_ALLGATHER,
    P_ALLGATHERV,
    P_ALLTOALL,
    P_ALLTOALLV,
    P_ALLTOALLW,
    P_NEIGHBOR_ALLGATHER,
    P_NEIGHBOR_ALLGATHERV,
    P_NEIGHBOR_ALLTOALL,
    P_NEIGHBOR_ALLTOALLV,
    P_NEIGHBOR_ALLTOALLW,
} pkind;

/* The arguments of one *_init call, kept for every start (MPI 4.0 section
 * 6.12: the program must not change them until the request is freed). */
typedef struct pcoll {
    pkind kind;
    const char *twin; /* "MPI_Ibcast": the name its checks report under */
    char *shown;      /* "MPI_Bcast_init (started by MPI_Start)" */
    const void *sendbuf;
    void *recvbuf;
    int sendcount, recvcount;
    MPI_Datatype sendtype, recvtype;
    const int *sendcounts, *sdispls, *recvcounts, *rdispls;
    const MPI_Aint *sbdispls, *rbdispls;
    const MPI_Datatype *sendtypes, *recvtypes;
    MPI_Op op;
    int root;
    MPI_Comm comm;
    int nsendtypes, nrecvtypes; /* entries of sendtypes and recvtypes (w forms) */
} pcoll;

/* The request holds the datatypes and the op it was made with: MPI lets
 * the program free them while the request exists (MPI 3.1 sections 4.1.9
 * and 5.9.5), and each start still uses them. */
static void pcoll_hold(pcoll *pc, bool hold) {
    MPI_Datatype types[2] = {pc->sendtype, pc->recvtype};
    for (int i = 0; i < 2; i++) {
        const sim_datatype *dt = types[i] != MPI_DATATYPE_NULL ? sim_dt_get(types[i]) : NULL;
        if (!dt)
            continue;
        if (hold)
            sim_dt_ref(dt);
        else
            sim_dt_unref(dt);
    }
    for (int side = 0; side < 2; side++) {
        const MPI_Datatype *arr = side ? pc->recvtypes : pc->sendtypes;
        int n = side ? pc->nrecvtypes : pc->nsendtypes;
        for (int i = 0; arr && i < n; i++) {
            const sim_datatype *dt = sim_dt_get(arr[i]);
            if (!dt)
                continue;
            if (hold)
                sim_dt_ref(dt);
            else
                sim_dt_unref(dt);
        }
    }
    if (pc->op != MPI_OP_NULL && sim_op_valid(pc->op)) {
        if (hold)
            sim_op_ref(pc->op);
        else
            sim_op_unref(pc->op);
    }
}

static void pcoll_free(void *p) {
    pcoll *pc = p;
    if (pc) {
        pcoll_hold(pc, false);
        g_free(pc->shown);
    }
    g_free(pc);
}

static int pcoll_start(sim_request *req) {
    pcoll *pc = req->pstate;
    sim_proc *p = sim_proc_of(sim_self());
    MPI_Request twin = MPI_REQUEST_NULL;
    p->coll_call = req->call;
    sim_call_alias(pc->twin, pc->shown);
    bool was = sim_dt_accept_freed(true), was_op = sim_op_accept_freed(true);
    int rc;
    switch (pc->kind) {
    case P_BARRIER:
        rc = PMPI_Ibarrier(pc->comm, &twin);
        break;
    case P_BCAST:
        rc = PMPI_Ibcast(pc->recvbuf, pc->recvcount, pc->recvtype, pc->root, pc->comm, &twin);
        break;
    case P_REDUCE:
        rc = PMPI_Ireduce(pc->sendbuf, pc->recvbuf, pc->sendcount, pc->sendtype, pc->op, pc->root,
                          pc->comm, &twin);
        break;
    case P_ALLREDUCE:
        rc = PMPI_Iallreduce(pc->sendbuf, pc->recvbuf, pc->sendcount, pc->sendtype, pc->op,
                             pc->comm, &twin);
        break;
    case P_SCAN:
        rc = PMPI_Iscan(pc->sendbuf, pc->recvbuf, pc->sendcount, pc->sendtype, pc->op, pc->comm,
                        &twin);
        break;
    case P_EXSCAN:
        rc = PMPI_Iexscan(pc->sendbuf, pc->recvbuf, pc->sendcount, pc->sendtype, pc->op, pc->comm,
                          &twin);
        break;
    case P_REDUCE_SCATTER:
        rc = PMPI_Ireduce_scatter(pc->sendbuf, pc->recvbuf, pc->recvcounts, pc->sendtype, pc->op,
                                  pc->comm, &twin);
        break;
    case P_REDUCE_SCATTER_BLOCK:
        rc = PMPI_Ireduce_scatter_block(pc->sendbuf, pc->recvbuf, pc->recvcount, pc->sendtype,
                                        pc->op, pc->comm, &twin);
        break;
    case P_GATHER:
        rc = PMPI_Igather(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf, pc->recvcount,
                          pc->recvtype, pc->root, pc->comm, &twin);
        break;
    case P_GATHERV:
        rc = PMPI_Igatherv(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf, pc->recvcounts,
                           pc->rdispls, pc->recvtype, pc->root, pc->comm, &twin);
        break;
    case P_SCATTER:
        rc = PMPI_Iscatter(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf, pc->recvcount,
                           pc->recvtype, pc->root, pc->comm, &twin);
        break;
    case P_SCATTERV:
        rc = PMPI_Iscatterv(pc->sendbuf, pc->sendcounts, pc->sdispls, pc->sendtype, pc->recvbuf,
                            pc->recvcount, pc->recvtype, pc->root, pc->comm, &twin);
        break;
    case P_ALLGATHER:
        rc = PMPI_Iallgather(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf, pc->recvcount,
                             pc->recvtype, pc->comm, &twin);
        break;
    case P_ALLGATHERV:
        rc = PMPI_Iallgatherv(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf, pc->recvcounts,
                              pc->rdispls, pc->recvtype, pc->comm, &twin);
        break;
    case P_ALLTOALL:
        rc = PMPI_Ialltoall(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf, pc->recvcount,
                            pc->recvtype, pc->comm, &twin);
        break;
    case P_ALLTOALLV:
        rc = PMPI_Ialltoallv(pc->sendbuf, pc->sendcounts, pc->sdispls, pc->sendtype, pc->recvbuf,
                             pc->recvcounts, pc->rdispls, pc->recvtype, pc->comm, &twin);
        break;
    case P_ALLTOALLW:
        rc = PMPI_Ialltoallw(pc->sendbuf, pc->sendcounts, pc->sdispls, pc->sendtypes, pc->recvbuf,
                             pc->recvcounts, pc->rdispls, pc->recvtypes, pc->comm, &twin);
        break;
    case P_NEIGHBOR_ALLGATHER:
        rc = PMPI_Ineighbor_allgather(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf,
                                      pc->recvcount, pc->recvtype, pc->comm, &twin);
        break;
    case P_NEIGHBOR_ALLGATHERV:
        rc = PMPI_Ineighbor_allgatherv(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf,
                                       pc->recvcounts, pc->rdispls, pc->recvtype, pc->comm, &twin);
        break;
    case P_NEIGHBOR_ALLTOALL:
        rc = PMPI_Ineighbor_alltoall(pc->sendbuf, pc->sendcount, pc->sendtype, pc->recvbuf,
                                     pc->recvcount, pc->recvtype, pc->comm, &twin);
        break;
    case P_NEIGHBOR_ALLTOALLV:
        rc = PMPI_Ineighbor_alltoallv(pc->sendbuf, pc->sendcounts, pc->sdispls, pc->sendtype,
                                      pc->recvbuf, pc->recvcounts, pc->rdispls, pc->recvtype,
                                      pc->comm, &twin);
        break;
    case P_NEIGHBOR_ALLTOALLW:
    default:
        rc = PMPI_Ineighbor_alltoallw(pc->sendbuf, pc->sendcounts, pc->sbdispls, pc->sendtypes,
                                      pc->recvbuf, pc->recvcounts, pc->rbdispls, pc->recvtypes,
                                      pc->comm, &twin);
        break;
    }
    sim_dt_accept_freed(was);
    sim_op_accept_freed(was_op);
    p->coll_call = NULL;
    sim_call_alias(NULL, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    bool invalid;
    sim_request *inner = sim_req_lookup(twin, &invalid);
    sim_req_unpublish(inner); /* the program holds the persistent request only */
    req->pair = inner;
    inner->pair_of = req;
    req->complete = false;
    req->recv_done = true; /* complete once the twin is */
    if (inner->complete) {
        inner->complete = false; /* completes both, as a later completion would */
        sim_req_complete_now(inner);
    }
    return MPI_SUCCESS;
}

/* What every *_init checks itself; the rest is the twin's, at each start. */
static int pcoll_make(const char *name, const char *twin, pkind kind, pcoll *args, MPI_Info info,
                      MPI_Request *request) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    sim_comm *c;
    rc = sim_comm_check(args->comm, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    (void)info; /* hints only (MPI 4.0 section 6.12) */
    if (!request)
        return sim_error(args->comm, MPI_ERR_REQUEST, "%s: request is NULL", name);
    pcoll *pc = g_memdup2(args, sizeof *args);
    pc->kind = kind;
    pc->twin = twin;
    pc->shown = g_strdup_printf("%s (started by MPI_Start)", name);
    if (kind == P_ALLTOALLW) { /* one type per member of the group data goes to */
        int inter = 0, n = 0;
        PMPI_Comm_test_inter(args->comm, &inter);
        if (inter)
            PMPI_Comm_remote_size(args->comm, &n);
        else
            PMPI_Comm_size(args->comm, &n);
        pc->nsendtypes = pc->nrecvtypes = n;
    } else if (kind == P_NEIGHBOR_ALLTOALLW) { /* one per neighbour */
        pc->nsendtypes = pc->nrecvtypes = 0;
        int topo = MPI_UNDEFINED;
        PMPI_Topo_test(args->comm, &topo);
        if (topo == MPI_DIST_GRAPH) {
            int weighted;
            PMPI_Dist_graph_neighbors_count(args->comm, &pc->nrecvtypes, &pc->nsendtypes,
                                            &weighted);
        } else if (topo == MPI_GRAPH) {
            int me = 0;
            PMPI_Comm_rank(args->comm, &me);
            PMPI_Graph_neighbors_count(args->comm, me, &pc->nrecvtypes);
            pc->nsendtypes = pc->nrecvtypes;
        } else if (topo == MPI_CART) {
            int ndims = 0;
            PMPI_Cartdim_get(args->comm, &ndims);
            pc->nsendtypes = pc->nrecvtypes = 2 * ndims;
        }
    }
    if (args->sendbuf == MPI_IN_PLACE)
        pc->nsendtypes = 0; /* ignored then */
    pcoll_hold(pc, true);
    sim_request *req = sim_req_new(SIM_REQ_COLL, name);
    req->persistent = true;
    req->comm = c;
    req->pstart = pcoll_start;
    req->pstate = pc;
    req->pfree = pcoll_free;
    *request = sim_request_publish(req);
    return MPI_SUCCESS;
}

static pcoll pc_init(MPI_Comm comm) {
    pcoll pc;
    memset(&pc, 0, sizeof pc);
    pc.sendtype = pc.recvtype = MPI_DATATYPE_NULL;
    pc.op = MPI_OP_NULL;
    pc.comm = comm;
    return pc;
}

#define PINIT(fname, twin, kind)                                                                   \
    SIM_RETURN(pcoll_make("MPI_" fname, "MPI_" twin, kind, &pc, info, request))

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Barrier_init");
    pcoll pc = pc_init(comm);
    PINIT("Barrier_init", "Ibarrier", P_BARRIER);
}
SIM_ALIAS(MPI_Barrier_init);

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Bcast_init");
    pcoll pc = pc_init(comm);
    pc.recvbuf = buffer;
    pc.recvcount = count;
    pc.recvtype = datatype;
    pc.root = root;
    PINIT("Bcast_init", "Ibcast", P_BCAST);
}
SIM_ALIAS(MPI_Bcast_init);

/* Reduce, Allreduce, Scan, Exscan keep count and datatype as the send's. */
static pcoll pc_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm) {
    pcoll pc = pc_init(comm);
    pc.sendbuf = sendbuf;
    pc.recvbuf = recvbuf;
    pc.sendcount = count;
    pc.sendtype = datatype;
    pc.op = op;
    pc.root = root;
    return pc;
}

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Reduce_init");
    pcoll pc = pc_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    PINIT("Reduce_init", "Ireduce", P_REDUCE);
}
SIM_ALIAS(MPI_Reduce_init);

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Allreduce_init");
    pcoll pc = pc_reduce(sendbuf, recvbuf, count, datatype, op, 0, comm);
    PINIT("Allreduce_init", "Iallreduce", P_ALLREDUCE);
}
SIM_ALIAS(MPI_Allreduce_init);

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Scan_init");
    pcoll pc = pc_reduce(sendbuf, recvbuf, count, datatype, op, 0, comm);
    PINIT("Scan_init", "Iscan", P_SCAN);
}
SIM_ALIAS(MPI_Scan_init);

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Exscan_init");
    pcoll pc = pc_reduce(sendbuf, recvbuf, count, datatype, op, 0, comm);
    PINIT("Exscan_init", "Iexscan", P_EXSCAN);
}
SIM_ALIAS(MPI_Exscan_init);

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request) {
    SIM_ENTER("MPI_Reduce_scatter_init");
    pcoll pc = pc_reduce(sendbuf, recvbuf, 0, datatype, op, 0, comm);
    pc.recvcounts = recvcounts;
    PINIT("Reduce_scatter_init", "Ireduce_scatter", P_REDUCE_SCATTER);
}
SIM_ALIAS(MPI_Reduce_scatter_init);

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
    SIM_ENTER("MPI_Reduce_scatter_block_init");
    pcoll pc = pc_reduce(sendbuf, recvbuf, 0, datatype, op, 0, comm);
    pc.recvcount = recvcount;
    PINIT("Reduce_scatter_block_init", "Ireduce_scatter_block", P_REDUCE_SCATTER_BLOCK);
}
SIM_ALIAS(MPI_Reduce_scatter_block_init);

/* The calls with a (sendbuf, sendcount, sendtype, recvbuf, recvcount,
 * recvtype) block, v and w variants adding their arrays. */
static pcoll pc_move(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    pcoll pc = pc_init(comm);
    pc.sendbuf = sendbuf;
    pc.sendcount = sendcount;
    pc.sendtype = sendtype;
    pc.recvbuf = recvbuf;
    pc.recvcount = recvcount;
    pc.recvtype = recvtype;
    pc.root = root;
    return pc;
}

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request) {
    SIM_ENTER("MPI_Gather_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    PINIT("Gather_init", "Igather", P_GATHER);
}
SIM_ALIAS(MPI_Gather_init);

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Gatherv_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, root, comm);
    pc.recvcounts = recvcounts;
    pc.rdispls = displs;
    PINIT("Gatherv_init", "Igatherv", P_GATHERV);
}
SIM_ALIAS(MPI_Gatherv_init);

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request) {
    SIM_ENTER("MPI_Scatter_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    PINIT("Scatter_init", "Iscatter", P_SCATTER);
}
SIM_ALIAS(MPI_Scatter_init);

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Scatterv_init");
    pcoll pc = pc_move(sendbuf, 0, sendtype, recvbuf, recvcount, recvtype, root, comm);
    pc.sendcounts = sendcounts;
    pc.sdispls = displs;
    PINIT("Scatterv_init", "Iscatterv", P_SCATTERV);
}
SIM_ALIAS(MPI_Scatterv_init);

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request) {
    SIM_ENTER("MPI_Allgather_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm);
    PINIT("Allgather_init", "Iallgather", P_ALLGATHER);
}
SIM_ALIAS(MPI_Allgather_init);

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Allgatherv_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, 0, comm);
    pc.recvcounts = recvcounts;
    pc.rdispls = displs;
    PINIT("Allgatherv_init", "Iallgatherv", P_ALLGATHERV);
}
SIM_ALIAS(MPI_Allgatherv_init);

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request) {
    SIM_ENTER("MPI_Alltoall_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm);
    PINIT("Alltoall_init", "Ialltoall", P_ALLTOALL);
}
SIM_ALIAS(MPI_Alltoall_init);

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request) {
    SIM_ENTER("MPI_Alltoallv_init");
    pcoll pc = pc_move(sendbuf, 0, sendtype, recvbuf, 0, recvtype, 0, comm);
    pc.sendcounts = sendcounts;
    pc.sdispls = sdispls;
    pc.recvcounts = recvcounts;
    pc.rdispls = rdispls;
    PINIT("Alltoallv_init", "Ialltoallv", P_ALLTOALLV);
}
SIM_ALIAS(MPI_Alltoallv_init);

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Alltoallw_init");
    pcoll pc = pc_move(sendbuf, 0, MPI_DATATYPE_NULL, recvbuf, 0, MPI_DATATYPE_NULL, 0, comm);
    pc.sendcounts = sendcounts;
    pc.sdispls = sdispls;
    pc.sendtypes = sendtypes;
    pc.recvcounts = recvcounts;
    pc.rdispls = rdispls;
    pc.recvtypes = recvtypes;
    PINIT("Alltoallw_init", "Ialltoallw", P_ALLTOALLW);
}
SIM_ALIAS(MPI_Alltoallw_init);

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_allgather_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm);
    PINIT("Neighbor_allgather_init", "Ineighbor_allgather", P_NEIGHBOR_ALLGATHER);
}
SIM_ALIAS(MPI_Neighbor_allgather_init);

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_allgatherv_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, 0, comm);
    pc.recvcounts = recvcounts;
    pc.rdispls = displs;
    PINIT("Neighbor_allgatherv_init", "Ineighbor_allgatherv", P_NEIGHBOR_ALLGATHERV);
}
SIM_ALIAS(MPI_Neighbor_allgatherv_init);

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_alltoall_init");
    pcoll pc = pc_move(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm);
    PINIT("Neighbor_alltoall_init", "Ineighbor_alltoall", P_NEIGHBOR_ALLTOALL);
}
SIM_ALIAS(MPI_Neighbor_alltoall_init);

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_alltoallv_init");
    pcoll pc = pc_move(sendbuf, 0, sendtype, recvbuf, 0, recvtype, 0, comm);
    pc.sendcounts = sendcounts;
    pc.sdispls = sdispls;
    pc.recvcounts = recvcounts;
    pc.rdispls = rdispls;
    PINIT("Neighbor_alltoallv_init", "Ineighbor_alltoallv", P_NEIGHBOR_ALLTOALLV);
}
SIM_ALIAS(MPI_Neighbor_alltoallv_init);

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_alltoallw_init");
    pcoll pc = pc_move(sendbuf, 0, MPI_DATATYPE_NULL, recvbuf, 0, MPI_DATATYPE_NULL, 0, comm);
    pc.sendcounts = sendcounts;
    pc.sbdispls = sdispls;
    pc.sendtypes = sendtypes;
    pc.recvcounts = recvcounts;
    pc.rbdispls = rdispls;
    pc.recvtypes = recvtypes;
    PINIT("Neighbor_alltoallw_init", "Ineighbor_alltoallw", P_NEIGHBOR_ALLTOALLW);
}
SIM_ALIAS(MPI_Neighbor_alltoallw_init);

/* ---------------------------------------------------------------------- */
/* MPI_Isendrecv, MPI_Isendrecv_replace (MPI 4.0 section 3.10)             */

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Isendrecv");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(sim_isendrecv("MPI_Isendrecv", false, sendbuf, sendcount, sendtype, dest, sendtag,
                             recvbuf, recvcount, recvtype, source, recvtag, comm, request));
}
SIM_ALIAS(MPI_Isendrecv);

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Isendrecv_replace");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    SIM_RETURN(sim_isendrecv("MPI_Isendrecv_replace", true, buf, count, datatype, dest, sendtag,
                             buf, count, datatype, source, recvtag, comm, request));
}
SIM_ALIAS(MPI_Isendrecv_replace);
