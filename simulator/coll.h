/*
 * coll.h - collective operations: arrival, matching across ranks, firing.
 *
 * Each member's call posts a contribution (sim_coll_args) and gets a request.
 * Contributions are matched by order: the k-th collective call a rank makes
 * on a communicator belongs to that communicator's k-th collective
 * (MPI 3.1 section 5.12: all members must call collectives in the same
 * order).  When every member has arrived the collective is an enabled event;
 * firing it executes the data movement for all members at once and completes
 * every member's request.  A member arriving with a different operation or
 * root than the first arrival, or with the nonblocking variant of a blocking
 * one (or the reverse: MPI 3.1 section 5.12 says they never match), is an
 * MPI usage error.  Requests and reports name the MPI call each member made
 * (MPI_Igather, MPI_Cart_sub), not only the kind.
 */
#ifndef ORDEX_SIM_COLL_H
#define ORDEX_SIM_COLL_H

#include <mpi.h>
#include <stdint.h>

#include "simulator/comm.h"

typedef struct sim_request sim_request;

typedef enum sim_coll_kind {
    SIM_COLL_BARRIER,
    SIM_COLL_BCAST,
    SIM_COLL_REDUCE,
    SIM_COLL_ALLREDUCE,
    SIM_COLL_GATHER,
    SIM_COLL_GATHERV,
    SIM_COLL_SCATTER,
    SIM_COLL_SCATTERV,
    SIM_COLL_ALLGATHER,
    SIM_COLL_ALLGATHERV,
    SIM_COLL_ALLTOALL,
    SIM_COLL_ALLTOALLV,
    SIM_COLL_ALLTOALLW,
    SIM_COLL_REDUCE_SCATTER,
    SIM_COLL_REDUCE_SCATTER_BLOCK,
    SIM_COLL_SCAN,
    SIM_COLL_EXSCAN,
    SIM_COLL_NEIGHBOR_ALLGATHER, /* neighbourhood collectives (MPI 3.1 section 7.6) */
    SIM_COLL_NEIGHBOR_ALLGATHERV,
    SIM_COLL_NEIGHBOR_ALLTOALL,
    SIM_COLL_NEIGHBOR_ALLTOALLV,
    SIM_COLL_NEIGHBOR_ALLTOALLW,
    SIM_COLL_COMM_DUP,
    SIM_COLL_COMM_SPLIT,
    SIM_COLL_COMM_SPLIT_TYPE,
    SIM_COLL_COMM_CREATE,
    SIM_COLL_CART_CREATE,
    SIM_COLL_INTERCOMM_MERGE,  /* on an intercommunicator's `both` */
    SIM_COLL_INTERCOMM_DUP,    /* on an intercommunicator's `both` */
    SIM_COLL_INTERCOMM_CREATE, /* one group's side of MPI_Intercomm_create (intercomm.c) */
    SIM_COLL_GRAPH_CREATE,
    SIM_COLL_DIST_GRAPH_CREATE_ADJACENT,
    SIM_COLL_DIST_GRAPH_CREATE,
    /* one-sided communication (rma.c): window creation, fence and free */
    SIM_COLL_WIN_CREATE,
    SIM_COLL_WIN_ALLOCATE,
    SIM_COLL_WIN_ALLOCATE_SHARED,
    SIM_COLL_WIN_CREATE_DYNAMIC,
    SIM_COLL_WIN_FENCE,
    SIM_COLL_WIN_FREE,
    /* MPI-IO (file.c): collectives of files; split collectives (the
     * _begin calls) match only each other (MPI 3.1 13.4.5) */
    SIM_COLL_FILE_OPEN,
    SIM_COLL_FILE_CLOSE,
    SIM_COLL_FILE_SET_VIEW,
    SIM_COLL_FILE_SET_SIZE,
    SIM_COLL_FILE_PREALLOCATE,
    SIM_COLL_FILE_SET_INFO,
    SIM_COLL_FILE_SET_ATOMICITY,
    SIM_COLL_FILE_SYNC,
    SIM_COLL_FILE_SEEK_SHARED,
    SIM_COLL_FILE_READ_AT_ALL,
    SIM_COLL_FILE_WRITE_AT_ALL,
    SIM_COLL_FILE_READ_ALL,
    SIM_COLL_FILE_WRITE_ALL,
    SIM_COLL_FILE_READ_ORDERED,
    SIM_COLL_FILE_WRITE_ORDERED,
    SIM_COLL_FILE_READ_AT_ALL_BEGIN,
    SIM_COLL_FILE_WRITE_AT_ALL_BEGIN,
    SIM_COLL_FILE_READ_ALL_BEGIN,
    SIM_COLL_FILE_WRITE_ALL_BEGIN,
    SIM_COLL_FILE_READ_ORDERED_BEGIN,
    SIM_COLL_FILE_WRITE_ORDERED_BEGIN,
    SIM_COLL_KIND_COUNT
} sim_coll_kind;

/* One member's arguments, exactly as passed (buffers are the rank's own;
 * they stay valid until the request completes, as MPI requires). */
typedef struct sim_coll_args {
    const void *sendbuf; /* may be MPI_IN_PLACE */
    int sendcount;
    MPI_Datatype sendtype;
    const int *sendcounts, *sdispls; /* v variants */
    const MPI_Datatype *sendtypes;   /* alltoallw; sdispls are bytes there */
    void *recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    const int *recvcounts, *rdispls;
    const MPI_Datatype *recvtypes;
    const MPI_Aint *sbdispls, *rbdispls; /* MPI_Neighbor_alltoallw: displacements in bytes */
    MPI_Op op;
    int root; /* comm rank */
    /* communicator constructors */
    int color, key;  /* split; split_type uses color as the type */
    MPI_Group group; /* create */
    int ndims;       /* cart_create */
    const int *dims, *periods;
    int reorder;
    MPI_Comm *newcomm; /* where the new handle is written */
    void *idup;        /* MPI_Comm_idup: what the member's new communicator gets on completion
                          (mpi_comm.c's sim_comm_idup_done); NULL otherwise */
    void *rma;         /* window collectives: the call's own arguments (rma.h) */
    bool nonblocking;  /* posted by a nonblocking call (MPI_Ibcast, MPI_Comm_idup...): its
                          request goes to the program; never matches a blocking call */
    void *inter;       /* MPI_Intercomm_create: the call's own arguments (intercomm.c) */
    const struct sim_topo_args *topo; /* graph topology constructors (comm.h) */
    void *file; /* MPI-IO collectives: the member's sim_file_coll_args (file.h), NULL for a
                   nonblocking access */
} sim_coll_args;

struct sim_coll {
    sim_comm *comm;
    sim_coll_kind kind;
    uint64_t seq; /* index among the communicator's collectives */
    int arrived;
    sim_coll_args *args; /* [comm->size], indexed by comm rank */
    sim_request **reqs;  /* [comm->size] */
    void **call_sites;   /* [comm->size] call site of each member, for reports */
    const char **calls;  /* [comm->size] the MPI call each member made ("MPI_Igather"):
                            static strings, NULL until the member arrives */
    /* Members that left before the others arrived (MPI lets a root that only
     * sends, or a member that only contributes, return early); their
     * contribution was copied to `snapshots` and their request completed. */
    bool *left_early; /* [comm->size] */
    void **snapshots; /* [comm->size] copies to free, or NULL */
    /* The members' derived datatypes and user ops, held until the
     * collective is freed: MPI_Type_free and MPI_Op_free may come while it is
     * pending, and it completes with them all the same (MPI 3.1 sections
     * 4.1.9 and 5.9.5). */
    GPtrArray *held_types; /* const sim_datatype * (sim_dt_ref) */
    GArray *held_ops;      /* MPI_Op (sim_op_ref) */
    void *timed;           /* predict: its run of the point-to-point algorithm */
    struct sim_vc **vcs;   /* race checks: each member's clock at its arrival, or NULL */
};

const char *sim_coll_name(sim_coll_kind kind); /* "MPI_Bcast" */

/* The MPI call that made collective c, as its members called it
 * ("MPI_Igather"; all members made the same call, or the mismatch stopped
 * them): the first arrived member's, or sim_coll_name of its kind. */
const char *sim_coll_call(const sim_coll *c);

/* Posts the calling rank's contribution to the next collective on comm and
 * returns its request (blocking collectives then wait on it), named after
 * the rank's MPI call in progress.  Returns NULL after reporting a mismatch
 * through sim_error when it was not fatal. */
sim_request *sim_coll_post(sim_comm *comm, sim_coll_kind kind, const sim_coll_args *args);

/* Executes a data-movement collective (all kinds before SIM_COLL_COMM_DUP)
 * once every member has arrived.  Returns MPI_SUCCESS, or an error class with
 * *err_rank (comm rank at fault) and *why (g_free) set, e.g. a count that
 * does not match the root's, or an op undefined for the type. */
int sim_coll_exec_data(sim_coll *c, int *err_rank, char **why);

/* Argument checks shared by the collectives on intra- and
 * intercommunicators (mpi_coll.c): each returns MPI_SUCCESS, or the error
 * that sim_error raised on handle, the message led by fn and naming arg.
 * A count must not be negative; a datatype must be this rank's and
 * committed; an array argument must not be NULL. */
int sim_coll_check_count(MPI_Comm handle, const char *fn, int count, const char *arg);
int sim_coll_check_type(MPI_Comm handle, const char *fn, MPI_Datatype type, const char *arg);
int sim_coll_check_array(MPI_Comm handle, const char *fn, const void *array, const char *arg);

#endif
