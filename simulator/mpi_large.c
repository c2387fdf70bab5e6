/*
 * mpi_large.c - the large-count `_c` functions of MPI 4.0 (section 2.5.8
 * and every chapter's "_c" bindings), as MPICH 4's header declares them,
 * for every function whose base ordex implements.
 *
 * Each runs its base (MPI_Send_c runs MPI_Send), after converting its
 * MPI_Count and MPI_Aint arguments to the base's int ones.  A value the
 * base's int cannot hold is refused: an "unsupported" finding naming the
 * call, the argument and the value (exit status 2), never a truncated
 * count.  Outputs come back widened.  Findings and requests name the `_c`
 * call (sim_call_alias).
 *
 * Converted arrays are interned (one copy per distinct content, kept for
 * the whole run): a nonblocking or persistent call keeps reading its count
 * and displacement arrays after it returns, as MPI lets it (until
 * completion, or until the request is freed).
 */
#include <limits.h>
#include <string.h>

#include "simulator/comm.h"
#include "simulator/op.h"
#include "simulator/sim_internal.h"

/* A count or displacement of a `_c` call as the base's int. */
static int c2i(const char *fn, const char *arg, MPI_Count v) {
    if (v > INT_MAX || v < INT_MIN)
        sim_unsupported("%s with %s = %lld, beyond the int range (%d) of the call it is built on",
                        fn, arg, (long long)v, INT_MAX);
    return (int)v;
}

/* Interned copies of converted arrays: content -> the copy. */
static GHashTable *g_interned;

static const void *intern(const void *data, size_t bytes) {
    if (!g_interned)
        g_interned = g_hash_table_new(g_bytes_hash, g_bytes_equal);
    GBytes *key = g_bytes_new(data, bytes);
    GBytes *have = NULL;
    if (g_hash_table_lookup_extended(g_interned, key, (gpointer *)&have, NULL)) {
        g_bytes_unref(key);
        return g_bytes_get_data(have, NULL);
    }
    g_hash_table_add(g_interned, key);
    /* A zero-length GBytes may have no data pointer: arrays of no element
     * still need one (NULL means the argument was NULL). */
    const void *p = g_bytes_get_data(key, NULL);
    return p ? p : (const void *)key;
}

/* An array of n MPI_Count as ints (NULL stays NULL for the base to report). */
static const int *c2iv(const char *fn, const char *arg, const MPI_Count *a, int n) {
    if (!a)
        return NULL;
    if (n < 0)
        n = 0;
    int *v = g_new(int, n ? n : 1);
    for (int i = 0; i < n; i++) {
        char name[64];
        g_snprintf(name, sizeof name, "%s[%d]", arg, i);
        v[i] = c2i(fn, name, a[i]);
    }
    const int *out = intern(v, sizeof(int) * (size_t)n);
    g_free(v);
    return out;
}

/* The same for MPI_Aint displacements a base takes as ints. */
static const int *a2iv(const char *fn, const char *arg, const MPI_Aint *a, int n) {
    G_STATIC_ASSERT(sizeof(MPI_Aint) == sizeof(MPI_Count));
    return c2iv(fn, arg, (const MPI_Count *)a, n);
}

/* MPI_Count displacements as the base's MPI_Aint (the same width). */
static const MPI_Aint *c2av(const char *fn, const char *arg, const MPI_Count *a, int n) {
    (void)fn;
    (void)arg;
    (void)n;
    return (const MPI_Aint *)a;
}

enum { PEERS, LOCAL, IN, OUT };

/* How many elements a count array of a collective on comm has: one per
 * rank of the group data goes to or comes from (the remote group of an
 * intercommunicator), of the local group, or per incoming or outgoing
 * neighbour.  0 for a handle the base will refuse. */
static int members(MPI_Comm comm, int which) {
    if (sim_check_initialized() != MPI_SUCCESS || !sim_comm_get(comm, sim_self()))
        return 0;
    if (which == PEERS || which == LOCAL) {
        int n = 0, inter = 0;
        PMPI_Comm_test_inter(comm, &inter);
        if (inter && which == PEERS)
            PMPI_Comm_remote_size(comm, &n);
        else
            PMPI_Comm_size(comm, &n);
        return n;
    }
    int topo = MPI_UNDEFINED, nin = 0, nout = 0;
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_DIST_GRAPH) {
        int weighted;
        PMPI_Dist_graph_neighbors_count(comm, &nin, &nout, &weighted);
    } else if (topo == MPI_GRAPH) {
        int me;
        PMPI_Comm_rank(comm, &me);
        PMPI_Graph_neighbors_count(comm, me, &nin);
        nout = nin;
    } else if (topo == MPI_CART) {
        int ndims = 0;
        PMPI_Cartdim_get(comm, &ndims);
        nin = nout = 2 * ndims;
    }
    return which == IN ? nin : nout;
}

/* Whether the caller is the root of a rooted collective on comm (MPI_ROOT
 * on an intercommunicator): only there are the v arrays significant. */
static bool at_root(MPI_Comm comm, int root) {
    if (root == MPI_ROOT)
        return true;
    if (members(comm, LOCAL) == 0)
        return true; /* let the base report the communicator */
    int inter = 0, me = -1;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        return false;
    PMPI_Comm_rank(comm, &me);
    return me == root;
}

/* ---------------------------------------------------------------------- */
/* Calls with MPI_Count outputs                                            */

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) {
    SIM_ENTER("MPI_Get_count_c");
    int n = 0;
    sim_call_alias("MPI_Get_count", "MPI_Get_count_c");
    int rc = PMPI_Get_count(status, datatype, &n);
    if (rc == MPI_SUCCESS && count)
        *count = n; /* MPI_UNDEFINED stays MPI_UNDEFINED */
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Get_count_c);

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) {
    SIM_ENTER("MPI_Get_elements_c");
    sim_call_alias("MPI_Get_elements_x", "MPI_Get_elements_c");
    SIM_RETURN(PMPI_Get_elements_x(status, datatype, count));
}
SIM_ALIAS(MPI_Get_elements_c);

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size) {
    SIM_ENTER("MPI_Type_size_c");
    sim_call_alias("MPI_Type_size_x", "MPI_Type_size_c");
    SIM_RETURN(PMPI_Type_size_x(datatype, size));
}
SIM_ALIAS(MPI_Type_size_c);

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent) {
    SIM_ENTER("MPI_Type_get_extent_c");
    sim_call_alias("MPI_Type_get_extent_x", "MPI_Type_get_extent_c");
    SIM_RETURN(PMPI_Type_get_extent_x(datatype, lb, extent));
}
SIM_ALIAS(MPI_Type_get_extent_c);

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent) {
    SIM_ENTER("MPI_Type_get_true_extent_c");
    sim_call_alias("MPI_Type_get_true_extent_x", "MPI_Type_get_true_extent_c");
    SIM_RETURN(PMPI_Type_get_true_extent_x(datatype, true_lb, true_extent));
}
SIM_ALIAS(MPI_Type_get_true_extent_c);

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm) {
    SIM_ENTER("MPI_Pack_c");
    static const char F[] = "MPI_Pack_c";
    int pos = position ? c2i(F, "*position", *position) : 0;
    sim_call_alias("MPI_Pack", F);
    int rc = PMPI_Pack(inbuf, c2i(F, "incount", incount), datatype, outbuf,
                       c2i(F, "outsize", outsize), position ? &pos : NULL, comm);
    if (rc == MPI_SUCCESS && position)
        *position = pos;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Pack_c);

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
    SIM_ENTER("MPI_Unpack_c");
    static const char F[] = "MPI_Unpack_c";
    int pos = position ? c2i(F, "*position", *position) : 0;
    sim_call_alias("MPI_Unpack", F);
    int rc = PMPI_Unpack(inbuf, c2i(F, "insize", insize), position ? &pos : NULL, outbuf,
                         c2i(F, "outcount", outcount), datatype, comm);
    if (rc == MPI_SUCCESS && position)
        *position = pos;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Unpack_c);

int PMPI_Pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position) {
    SIM_ENTER("MPI_Pack_external_c");
    static const char F[] = "MPI_Pack_external_c";
    MPI_Aint pos = position ? (MPI_Aint)*position : 0;
    sim_call_alias("MPI_Pack_external", F);
    int rc = PMPI_Pack_external(datarep, inbuf, c2i(F, "incount", incount), datatype, outbuf,
                                (MPI_Aint)outsize, position ? &pos : NULL);
    if (rc == MPI_SUCCESS && position)
        *position = pos;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Pack_external_c);

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype) {
    SIM_ENTER("MPI_Unpack_external_c");
    static const char F[] = "MPI_Unpack_external_c";
    MPI_Aint pos = position ? (MPI_Aint)*position : 0;
    sim_call_alias("MPI_Unpack_external", F);
    int rc = PMPI_Unpack_external(datarep, inbuf, (MPI_Aint)insize, position ? &pos : NULL, outbuf,
                                  c2i(F, "outcount", outcount), datatype);
    if (rc == MPI_SUCCESS && position)
        *position = pos;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Unpack_external_c);

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size) {
    SIM_ENTER("MPI_Pack_size_c");
    static const char F[] = "MPI_Pack_size_c";
    int n = 0;
    sim_call_alias("MPI_Pack_size", F);
    int rc = PMPI_Pack_size(c2i(F, "incount", incount), datatype, comm, size ? &n : NULL);
    if (rc == MPI_SUCCESS && size)
        *size = n;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Pack_size_c);

int PMPI_Pack_external_size_c(const char *datarep, MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size) {
    SIM_ENTER("MPI_Pack_external_size_c");
    static const char F[] = "MPI_Pack_external_size_c";
    MPI_Aint n = 0;
    sim_call_alias("MPI_Pack_external_size", F);
    int rc =
        PMPI_Pack_external_size(datarep, c2i(F, "incount", incount), datatype, size ? &n : NULL);
    if (rc == MPI_SUCCESS && size)
        *size = n;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Pack_external_size_c);

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size) {
    SIM_ENTER("MPI_Buffer_detach_c");
    int n = 0;
    sim_call_alias("MPI_Buffer_detach", "MPI_Buffer_detach_c");
    int rc = PMPI_Buffer_detach(buffer_addr, size ? &n : NULL);
    if (rc == MPI_SUCCESS && size)
        *size = n;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Buffer_detach_c);

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr) {
    SIM_ENTER("MPI_Win_shared_query_c");
    int du = 0;
    sim_call_alias("MPI_Win_shared_query", "MPI_Win_shared_query_c");
    int rc = PMPI_Win_shared_query(win, rank, size, disp_unit ? &du : NULL, baseptr);
    if (rc == MPI_SUCCESS && disp_unit)
        *disp_unit = du;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Win_shared_query_c);

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op) {
    SIM_ENTER("MPI_Op_create_c");
    /* MPI_Op_create's checks and bookkeeping, then the function of the
     * large-count kind in place of the one it was given. */
    sim_call_alias("MPI_Op_create", "MPI_Op_create_c");
    int rc = PMPI_Op_create((MPI_User_function *)(void (*)(void))user_fn, commute, op);
    if (rc == MPI_SUCCESS)
        sim_op_set_large(*op, user_fn);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Op_create_c);

/* ---------------------------------------------------------------------- */
/* The others: counts in, nothing widened out                              */

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Allgather_c");
    static const char F[] = "MPI_Allgather_c";
    sim_call_alias("MPI_Allgather", F);
    SIM_RETURN(PMPI_Allgather(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                              c2i(F, "recvcount", recvcount), recvtype, comm));
}
SIM_ALIAS(MPI_Allgather_c);

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Allgather_init_c");
    static const char F[] = "MPI_Allgather_init_c";
    sim_call_alias("MPI_Allgather_init", F);
    SIM_RETURN(PMPI_Allgather_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                   c2i(F, "recvcount", recvcount), recvtype, comm, info, request));
}
SIM_ALIAS(MPI_Allgather_init_c);

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Allgatherv_c");
    static const char F[] = "MPI_Allgatherv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Allgatherv", F);
    SIM_RETURN(PMPI_Allgatherv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                               c2iv(F, "recvcounts", recvcounts, npeers),
                               a2iv(F, "displs", displs, npeers), recvtype, comm));
}
SIM_ALIAS(MPI_Allgatherv_c);

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request) {
    SIM_ENTER("MPI_Allgatherv_init_c");
    static const char F[] = "MPI_Allgatherv_init_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Allgatherv_init", F);
    SIM_RETURN(PMPI_Allgatherv_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                    c2iv(F, "recvcounts", recvcounts, npeers),
                                    a2iv(F, "displs", displs, npeers), recvtype, comm, info,
                                    request));
}
SIM_ALIAS(MPI_Allgatherv_init_c);

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm) {
    SIM_ENTER("MPI_Allreduce_c");
    static const char F[] = "MPI_Allreduce_c";
    sim_call_alias("MPI_Allreduce", F);
    SIM_RETURN(PMPI_Allreduce(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm));
}
SIM_ALIAS(MPI_Allreduce_c);

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request) {
    SIM_ENTER("MPI_Allreduce_init_c");
    static const char F[] = "MPI_Allreduce_init_c";
    sim_call_alias("MPI_Allreduce_init", F);
    SIM_RETURN(PMPI_Allreduce_init(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm,
                                   info, request));
}
SIM_ALIAS(MPI_Allreduce_init_c);

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Alltoall_c");
    static const char F[] = "MPI_Alltoall_c";
    sim_call_alias("MPI_Alltoall", F);
    SIM_RETURN(PMPI_Alltoall(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                             c2i(F, "recvcount", recvcount), recvtype, comm));
}
SIM_ALIAS(MPI_Alltoall_c);

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Alltoall_init_c");
    static const char F[] = "MPI_Alltoall_init_c";
    sim_call_alias("MPI_Alltoall_init", F);
    SIM_RETURN(PMPI_Alltoall_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                  c2i(F, "recvcount", recvcount), recvtype, comm, info, request));
}
SIM_ALIAS(MPI_Alltoall_init_c);

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Alltoallv_c");
    static const char F[] = "MPI_Alltoallv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Alltoallv", F);
    SIM_RETURN(PMPI_Alltoallv(sendbuf, c2iv(F, "sendcounts", sendcounts, npeers),
                              a2iv(F, "sdispls", sdispls, npeers), sendtype, recvbuf,
                              c2iv(F, "recvcounts", recvcounts, npeers),
                              a2iv(F, "rdispls", rdispls, npeers), recvtype, comm));
}
SIM_ALIAS(MPI_Alltoallv_c);

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request) {
    SIM_ENTER("MPI_Alltoallv_init_c");
    static const char F[] = "MPI_Alltoallv_init_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Alltoallv_init", F);
    SIM_RETURN(PMPI_Alltoallv_init(
        sendbuf, c2iv(F, "sendcounts", sendcounts, npeers), a2iv(F, "sdispls", sdispls, npeers),
        sendtype, recvbuf, c2iv(F, "recvcounts", recvcounts, npeers),
        a2iv(F, "rdispls", rdispls, npeers), recvtype, comm, info, request));
}
SIM_ALIAS(MPI_Alltoallv_init_c);

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    SIM_ENTER("MPI_Alltoallw_c");
    static const char F[] = "MPI_Alltoallw_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Alltoallw", F);
    SIM_RETURN(PMPI_Alltoallw(sendbuf, c2iv(F, "sendcounts", sendcounts, npeers),
                              a2iv(F, "sdispls", sdispls, npeers), sendtypes, recvbuf,
                              c2iv(F, "recvcounts", recvcounts, npeers),
                              a2iv(F, "rdispls", rdispls, npeers), recvtypes, comm));
}
SIM_ALIAS(MPI_Alltoallw_c);

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request) {
    SIM_ENTER("MPI_Alltoallw_init_c");
    static const char F[] = "MPI_Alltoallw_init_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Alltoallw_init", F);
    SIM_RETURN(PMPI_Alltoallw_init(
        sendbuf, c2iv(F, "sendcounts", sendcounts, npeers), a2iv(F, "sdispls", sdispls, npeers),
        sendtypes, recvbuf, c2iv(F, "recvcounts", recvcounts, npeers),
        a2iv(F, "rdispls", rdispls, npeers), recvtypes, comm, info, request));
}
SIM_ALIAS(MPI_Alltoallw_init_c);

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Bcast_c");
    static const char F[] = "MPI_Bcast_c";
    sim_call_alias("MPI_Bcast", F);
    SIM_RETURN(PMPI_Bcast(buffer, c2i(F, "count", count), datatype, root, comm));
}
SIM_ALIAS(MPI_Bcast_c);

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Bcast_init_c");
    static const char F[] = "MPI_Bcast_init_c";
    sim_call_alias("MPI_Bcast_init", F);
    SIM_RETURN(
        PMPI_Bcast_init(buffer, c2i(F, "count", count), datatype, root, comm, info, request));
}
SIM_ALIAS(MPI_Bcast_init_c);

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm) {
    SIM_ENTER("MPI_Exscan_c");
    static const char F[] = "MPI_Exscan_c";
    sim_call_alias("MPI_Exscan", F);
    SIM_RETURN(PMPI_Exscan(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm));
}
SIM_ALIAS(MPI_Exscan_c);

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Exscan_init_c");
    static const char F[] = "MPI_Exscan_init_c";
    sim_call_alias("MPI_Exscan_init", F);
    SIM_RETURN(PMPI_Exscan_init(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm, info,
                                request));
}
SIM_ALIAS(MPI_Exscan_init_c);

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Gather_c");
    static const char F[] = "MPI_Gather_c";
    sim_call_alias("MPI_Gather", F);
    SIM_RETURN(PMPI_Gather(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                           c2i(F, "recvcount", recvcount), recvtype, root, comm));
}
SIM_ALIAS(MPI_Gather_c);

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Gather_init_c");
    static const char F[] = "MPI_Gather_init_c";
    sim_call_alias("MPI_Gather_init", F);
    SIM_RETURN(PMPI_Gather_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                c2i(F, "recvcount", recvcount), recvtype, root, comm, info,
                                request));
}
SIM_ALIAS(MPI_Gather_init_c);

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Gatherv_c");
    static const char F[] = "MPI_Gatherv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Gatherv", F);
    SIM_RETURN(PMPI_Gatherv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                            at_root(comm, root) ? c2iv(F, "recvcounts", recvcounts, npeers) : NULL,
                            at_root(comm, root) ? a2iv(F, "displs", displs, npeers) : NULL,
                            recvtype, root, comm));
}
SIM_ALIAS(MPI_Gatherv_c);

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request) {
    SIM_ENTER("MPI_Gatherv_init_c");
    static const char F[] = "MPI_Gatherv_init_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Gatherv_init", F);
    SIM_RETURN(
        PMPI_Gatherv_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                          at_root(comm, root) ? c2iv(F, "recvcounts", recvcounts, npeers) : NULL,
                          at_root(comm, root) ? a2iv(F, "displs", displs, npeers) : NULL, recvtype,
                          root, comm, info, request));
}
SIM_ALIAS(MPI_Gatherv_init_c);

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request) {
    SIM_ENTER("MPI_Iallgather_c");
    static const char F[] = "MPI_Iallgather_c";
    sim_call_alias("MPI_Iallgather", F);
    SIM_RETURN(PMPI_Iallgather(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                               c2i(F, "recvcount", recvcount), recvtype, comm, request));
}
SIM_ALIAS(MPI_Iallgather_c);

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iallgatherv_c");
    static const char F[] = "MPI_Iallgatherv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Iallgatherv", F);
    SIM_RETURN(PMPI_Iallgatherv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                c2iv(F, "recvcounts", recvcounts, npeers),
                                a2iv(F, "displs", displs, npeers), recvtype, comm, request));
}
SIM_ALIAS(MPI_Iallgatherv_c);

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iallreduce_c");
    static const char F[] = "MPI_Iallreduce_c";
    sim_call_alias("MPI_Iallreduce", F);
    SIM_RETURN(
        PMPI_Iallreduce(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm, request));
}
SIM_ALIAS(MPI_Iallreduce_c);

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request) {
    SIM_ENTER("MPI_Ialltoall_c");
    static const char F[] = "MPI_Ialltoall_c";
    sim_call_alias("MPI_Ialltoall", F);
    SIM_RETURN(PMPI_Ialltoall(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                              c2i(F, "recvcount", recvcount), recvtype, comm, request));
}
SIM_ALIAS(MPI_Ialltoall_c);

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request) {
    SIM_ENTER("MPI_Ialltoallv_c");
    static const char F[] = "MPI_Ialltoallv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Ialltoallv", F);
    SIM_RETURN(PMPI_Ialltoallv(sendbuf, c2iv(F, "sendcounts", sendcounts, npeers),
                               a2iv(F, "sdispls", sdispls, npeers), sendtype, recvbuf,
                               c2iv(F, "recvcounts", recvcounts, npeers),
                               a2iv(F, "rdispls", rdispls, npeers), recvtype, comm, request));
}
SIM_ALIAS(MPI_Ialltoallv_c);

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request) {
    SIM_ENTER("MPI_Ialltoallw_c");
    static const char F[] = "MPI_Ialltoallw_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Ialltoallw", F);
    SIM_RETURN(PMPI_Ialltoallw(sendbuf, c2iv(F, "sendcounts", sendcounts, npeers),
                               a2iv(F, "sdispls", sdispls, npeers), sendtypes, recvbuf,
                               c2iv(F, "recvcounts", recvcounts, npeers),
                               a2iv(F, "rdispls", rdispls, npeers), recvtypes, comm, request));
}
SIM_ALIAS(MPI_Ialltoallw_c);

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request) {
    SIM_ENTER("MPI_Ibcast_c");
    static const char F[] = "MPI_Ibcast_c";
    sim_call_alias("MPI_Ibcast", F);
    SIM_RETURN(PMPI_Ibcast(buffer, c2i(F, "count", count), datatype, root, comm, request));
}
SIM_ALIAS(MPI_Ibcast_c);

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iexscan_c");
    static const char F[] = "MPI_Iexscan_c";
    sim_call_alias("MPI_Iexscan", F);
    SIM_RETURN(PMPI_Iexscan(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm, request));
}
SIM_ALIAS(MPI_Iexscan_c);

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request) {
    SIM_ENTER("MPI_Igather_c");
    static const char F[] = "MPI_Igather_c";
    sim_call_alias("MPI_Igather", F);
    SIM_RETURN(PMPI_Igather(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                            c2i(F, "recvcount", recvcount), recvtype, root, comm, request));
}
SIM_ALIAS(MPI_Igather_c);

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Igatherv_c");
    static const char F[] = "MPI_Igatherv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Igatherv", F);
    SIM_RETURN(PMPI_Igatherv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                             at_root(comm, root) ? c2iv(F, "recvcounts", recvcounts, npeers) : NULL,
                             at_root(comm, root) ? a2iv(F, "displs", displs, npeers) : NULL,
                             recvtype, root, comm, request));
}
SIM_ALIAS(MPI_Igatherv_c);

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_allgather_c");
    static const char F[] = "MPI_Ineighbor_allgather_c";
    sim_call_alias("MPI_Ineighbor_allgather", F);
    SIM_RETURN(PMPI_Ineighbor_allgather(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                        c2i(F, "recvcount", recvcount), recvtype, comm, request));
}
SIM_ALIAS(MPI_Ineighbor_allgather_c);

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_allgatherv_c");
    static const char F[] = "MPI_Ineighbor_allgatherv_c";
    int nin = members(comm, IN);
    sim_call_alias("MPI_Ineighbor_allgatherv", F);
    SIM_RETURN(PMPI_Ineighbor_allgatherv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                         c2iv(F, "recvcounts", recvcounts, nin),
                                         a2iv(F, "displs", displs, nin), recvtype, comm, request));
}
SIM_ALIAS(MPI_Ineighbor_allgatherv_c);

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_alltoall_c");
    static const char F[] = "MPI_Ineighbor_alltoall_c";
    sim_call_alias("MPI_Ineighbor_alltoall", F);
    SIM_RETURN(PMPI_Ineighbor_alltoall(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                       c2i(F, "recvcount", recvcount), recvtype, comm, request));
}
SIM_ALIAS(MPI_Ineighbor_alltoall_c);

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_alltoallv_c");
    static const char F[] = "MPI_Ineighbor_alltoallv_c";
    int nin = members(comm, IN);
    int nout = members(comm, OUT);
    sim_call_alias("MPI_Ineighbor_alltoallv", F);
    SIM_RETURN(PMPI_Ineighbor_alltoallv(sendbuf, c2iv(F, "sendcounts", sendcounts, nout),
                                        a2iv(F, "sdispls", sdispls, nout), sendtype, recvbuf,
                                        c2iv(F, "recvcounts", recvcounts, nin),
                                        a2iv(F, "rdispls", rdispls, nin), recvtype, comm, request));
}
SIM_ALIAS(MPI_Ineighbor_alltoallv_c);

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ineighbor_alltoallw_c");
    static const char F[] = "MPI_Ineighbor_alltoallw_c";
    int nin = members(comm, IN);
    int nout = members(comm, OUT);
    sim_call_alias("MPI_Ineighbor_alltoallw", F);
    SIM_RETURN(PMPI_Ineighbor_alltoallw(sendbuf, c2iv(F, "sendcounts", sendcounts, nout), sdispls,
                                        sendtypes, recvbuf, c2iv(F, "recvcounts", recvcounts, nin),
                                        rdispls, recvtypes, comm, request));
}
SIM_ALIAS(MPI_Ineighbor_alltoallw_c);

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ireduce_c");
    static const char F[] = "MPI_Ireduce_c";
    sim_call_alias("MPI_Ireduce", F);
    SIM_RETURN(
        PMPI_Ireduce(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, root, comm, request));
}
SIM_ALIAS(MPI_Ireduce_c);

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ireduce_scatter_c");
    static const char F[] = "MPI_Ireduce_scatter_c";
    int nlocal = members(comm, LOCAL);
    sim_call_alias("MPI_Ireduce_scatter", F);
    SIM_RETURN(PMPI_Ireduce_scatter(sendbuf, recvbuf, c2iv(F, "recvcounts", recvcounts, nlocal),
                                    datatype, op, comm, request));
}
SIM_ALIAS(MPI_Ireduce_scatter_c);

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request) {
    SIM_ENTER("MPI_Ireduce_scatter_block_c");
    static const char F[] = "MPI_Ireduce_scatter_block_c";
    sim_call_alias("MPI_Ireduce_scatter_block", F);
    SIM_RETURN(PMPI_Ireduce_scatter_block(sendbuf, recvbuf, c2i(F, "recvcount", recvcount),
                                          datatype, op, comm, request));
}
SIM_ALIAS(MPI_Ireduce_scatter_block_c);

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iscan_c");
    static const char F[] = "MPI_Iscan_c";
    sim_call_alias("MPI_Iscan", F);
    SIM_RETURN(PMPI_Iscan(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm, request));
}
SIM_ALIAS(MPI_Iscan_c);

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request) {
    SIM_ENTER("MPI_Iscatter_c");
    static const char F[] = "MPI_Iscatter_c";
    sim_call_alias("MPI_Iscatter", F);
    SIM_RETURN(PMPI_Iscatter(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                             c2i(F, "recvcount", recvcount), recvtype, root, comm, request));
}
SIM_ALIAS(MPI_Iscatter_c);

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Iscatterv_c");
    static const char F[] = "MPI_Iscatterv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Iscatterv", F);
    SIM_RETURN(PMPI_Iscatterv(
        sendbuf, at_root(comm, root) ? c2iv(F, "sendcounts", sendcounts, npeers) : NULL,
        at_root(comm, root) ? a2iv(F, "displs", displs, npeers) : NULL, sendtype, recvbuf,
        c2i(F, "recvcount", recvcount), recvtype, root, comm, request));
}
SIM_ALIAS(MPI_Iscatterv_c);

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_allgather_c");
    static const char F[] = "MPI_Neighbor_allgather_c";
    sim_call_alias("MPI_Neighbor_allgather", F);
    SIM_RETURN(PMPI_Neighbor_allgather(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                       c2i(F, "recvcount", recvcount), recvtype, comm));
}
SIM_ALIAS(MPI_Neighbor_allgather_c);

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_allgather_init_c");
    static const char F[] = "MPI_Neighbor_allgather_init_c";
    sim_call_alias("MPI_Neighbor_allgather_init", F);
    SIM_RETURN(PMPI_Neighbor_allgather_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype,
                                            recvbuf, c2i(F, "recvcount", recvcount), recvtype, comm,
                                            info, request));
}
SIM_ALIAS(MPI_Neighbor_allgather_init_c);

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_allgatherv_c");
    static const char F[] = "MPI_Neighbor_allgatherv_c";
    int nin = members(comm, IN);
    sim_call_alias("MPI_Neighbor_allgatherv", F);
    SIM_RETURN(PMPI_Neighbor_allgatherv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                        c2iv(F, "recvcounts", recvcounts, nin),
                                        a2iv(F, "displs", displs, nin), recvtype, comm));
}
SIM_ALIAS(MPI_Neighbor_allgatherv_c);

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_allgatherv_init_c");
    static const char F[] = "MPI_Neighbor_allgatherv_init_c";
    int nin = members(comm, IN);
    sim_call_alias("MPI_Neighbor_allgatherv_init", F);
    SIM_RETURN(PMPI_Neighbor_allgatherv_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype,
                                             recvbuf, c2iv(F, "recvcounts", recvcounts, nin),
                                             a2iv(F, "displs", displs, nin), recvtype, comm, info,
                                             request));
}
SIM_ALIAS(MPI_Neighbor_allgatherv_init_c);

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_alltoall_c");
    static const char F[] = "MPI_Neighbor_alltoall_c";
    sim_call_alias("MPI_Neighbor_alltoall", F);
    SIM_RETURN(PMPI_Neighbor_alltoall(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                      c2i(F, "recvcount", recvcount), recvtype, comm));
}
SIM_ALIAS(MPI_Neighbor_alltoall_c);

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_alltoall_init_c");
    static const char F[] = "MPI_Neighbor_alltoall_init_c";
    sim_call_alias("MPI_Neighbor_alltoall_init", F);
    SIM_RETURN(PMPI_Neighbor_alltoall_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype,
                                           recvbuf, c2i(F, "recvcount", recvcount), recvtype, comm,
                                           info, request));
}
SIM_ALIAS(MPI_Neighbor_alltoall_init_c);

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_alltoallv_c");
    static const char F[] = "MPI_Neighbor_alltoallv_c";
    int nin = members(comm, IN);
    int nout = members(comm, OUT);
    sim_call_alias("MPI_Neighbor_alltoallv", F);
    SIM_RETURN(PMPI_Neighbor_alltoallv(sendbuf, c2iv(F, "sendcounts", sendcounts, nout),
                                       a2iv(F, "sdispls", sdispls, nout), sendtype, recvbuf,
                                       c2iv(F, "recvcounts", recvcounts, nin),
                                       a2iv(F, "rdispls", rdispls, nin), recvtype, comm));
}
SIM_ALIAS(MPI_Neighbor_alltoallv_c);

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_alltoallv_init_c");
    static const char F[] = "MPI_Neighbor_alltoallv_init_c";
    int nin = members(comm, IN);
    int nout = members(comm, OUT);
    sim_call_alias("MPI_Neighbor_alltoallv_init", F);
    SIM_RETURN(PMPI_Neighbor_alltoallv_init(
        sendbuf, c2iv(F, "sendcounts", sendcounts, nout), a2iv(F, "sdispls", sdispls, nout),
        sendtype, recvbuf, c2iv(F, "recvcounts", recvcounts, nin), a2iv(F, "rdispls", rdispls, nin),
        recvtype, comm, info, request));
}
SIM_ALIAS(MPI_Neighbor_alltoallv_init_c);

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm) {
    SIM_ENTER("MPI_Neighbor_alltoallw_c");
    static const char F[] = "MPI_Neighbor_alltoallw_c";
    int nin = members(comm, IN);
    int nout = members(comm, OUT);
    sim_call_alias("MPI_Neighbor_alltoallw", F);
    SIM_RETURN(PMPI_Neighbor_alltoallw(sendbuf, c2iv(F, "sendcounts", sendcounts, nout), sdispls,
                                       sendtypes, recvbuf, c2iv(F, "recvcounts", recvcounts, nin),
                                       rdispls, recvtypes, comm));
}
SIM_ALIAS(MPI_Neighbor_alltoallw_c);

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Neighbor_alltoallw_init_c");
    static const char F[] = "MPI_Neighbor_alltoallw_init_c";
    int nin = members(comm, IN);
    int nout = members(comm, OUT);
    sim_call_alias("MPI_Neighbor_alltoallw_init", F);
    SIM_RETURN(PMPI_Neighbor_alltoallw_init(
        sendbuf, c2iv(F, "sendcounts", sendcounts, nout), sdispls, sendtypes, recvbuf,
        c2iv(F, "recvcounts", recvcounts, nin), rdispls, recvtypes, comm, info, request));
}
SIM_ALIAS(MPI_Neighbor_alltoallw_init_c);

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Reduce_c");
    static const char F[] = "MPI_Reduce_c";
    sim_call_alias("MPI_Reduce", F);
    SIM_RETURN(PMPI_Reduce(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, root, comm));
}
SIM_ALIAS(MPI_Reduce_c);

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Reduce_init_c");
    static const char F[] = "MPI_Reduce_init_c";
    sim_call_alias("MPI_Reduce_init", F);
    SIM_RETURN(PMPI_Reduce_init(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, root, comm,
                                info, request));
}
SIM_ALIAS(MPI_Reduce_init_c);

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op) {
    SIM_ENTER("MPI_Reduce_local_c");
    static const char F[] = "MPI_Reduce_local_c";
    sim_call_alias("MPI_Reduce_local", F);
    SIM_RETURN(PMPI_Reduce_local(inbuf, inoutbuf, c2i(F, "count", count), datatype, op));
}
SIM_ALIAS(MPI_Reduce_local_c);

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
    SIM_ENTER("MPI_Reduce_scatter_c");
    static const char F[] = "MPI_Reduce_scatter_c";
    int nlocal = members(comm, LOCAL);
    sim_call_alias("MPI_Reduce_scatter", F);
    SIM_RETURN(PMPI_Reduce_scatter(sendbuf, recvbuf, c2iv(F, "recvcounts", recvcounts, nlocal),
                                   datatype, op, comm));
}
SIM_ALIAS(MPI_Reduce_scatter_c);

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
    SIM_ENTER("MPI_Reduce_scatter_block_c");
    static const char F[] = "MPI_Reduce_scatter_block_c";
    sim_call_alias("MPI_Reduce_scatter_block", F);
    SIM_RETURN(PMPI_Reduce_scatter_block(sendbuf, recvbuf, c2i(F, "recvcount", recvcount), datatype,
                                         op, comm));
}
SIM_ALIAS(MPI_Reduce_scatter_block_c);

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request) {
    SIM_ENTER("MPI_Reduce_scatter_block_init_c");
    static const char F[] = "MPI_Reduce_scatter_block_init_c";
    sim_call_alias("MPI_Reduce_scatter_block_init", F);
    SIM_RETURN(PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, c2i(F, "recvcount", recvcount),
                                              datatype, op, comm, info, request));
}
SIM_ALIAS(MPI_Reduce_scatter_block_init_c);

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request) {
    SIM_ENTER("MPI_Reduce_scatter_init_c");
    static const char F[] = "MPI_Reduce_scatter_init_c";
    int nlocal = members(comm, LOCAL);
    sim_call_alias("MPI_Reduce_scatter_init", F);
    SIM_RETURN(PMPI_Reduce_scatter_init(sendbuf, recvbuf, c2iv(F, "recvcounts", recvcounts, nlocal),
                                        datatype, op, comm, info, request));
}
SIM_ALIAS(MPI_Reduce_scatter_init_c);

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm) {
    SIM_ENTER("MPI_Scan_c");
    static const char F[] = "MPI_Scan_c";
    sim_call_alias("MPI_Scan", F);
    SIM_RETURN(PMPI_Scan(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm));
}
SIM_ALIAS(MPI_Scan_c);

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Scan_init_c");
    static const char F[] = "MPI_Scan_init_c";
    sim_call_alias("MPI_Scan_init", F);
    SIM_RETURN(PMPI_Scan_init(sendbuf, recvbuf, c2i(F, "count", count), datatype, op, comm, info,
                              request));
}
SIM_ALIAS(MPI_Scan_init_c);

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Scatter_c");
    static const char F[] = "MPI_Scatter_c";
    sim_call_alias("MPI_Scatter", F);
    SIM_RETURN(PMPI_Scatter(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                            c2i(F, "recvcount", recvcount), recvtype, root, comm));
}
SIM_ALIAS(MPI_Scatter_c);

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request) {
    SIM_ENTER("MPI_Scatter_init_c");
    static const char F[] = "MPI_Scatter_init_c";
    sim_call_alias("MPI_Scatter_init", F);
    SIM_RETURN(PMPI_Scatter_init(sendbuf, c2i(F, "sendcount", sendcount), sendtype, recvbuf,
                                 c2i(F, "recvcount", recvcount), recvtype, root, comm, info,
                                 request));
}
SIM_ALIAS(MPI_Scatter_init_c);

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm) {
    SIM_ENTER("MPI_Scatterv_c");
    static const char F[] = "MPI_Scatterv_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Scatterv", F);
    SIM_RETURN(PMPI_Scatterv(
        sendbuf, at_root(comm, root) ? c2iv(F, "sendcounts", sendcounts, npeers) : NULL,
        at_root(comm, root) ? a2iv(F, "displs", displs, npeers) : NULL, sendtype, recvbuf,
        c2i(F, "recvcount", recvcount), recvtype, root, comm));
}
SIM_ALIAS(MPI_Scatterv_c);

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request) {
    SIM_ENTER("MPI_Scatterv_init_c");
    static const char F[] = "MPI_Scatterv_init_c";
    int npeers = members(comm, PEERS);
    sim_call_alias("MPI_Scatterv_init", F);
    SIM_RETURN(PMPI_Scatterv_init(
        sendbuf, at_root(comm, root) ? c2iv(F, "sendcounts", sendcounts, npeers) : NULL,
        at_root(comm, root) ? a2iv(F, "displs", displs, npeers) : NULL, sendtype, recvbuf,
        c2i(F, "recvcount", recvcount), recvtype, root, comm, info, request));
}
SIM_ALIAS(MPI_Scatterv_init_c);

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_contiguous_c");
    static const char F[] = "MPI_Type_contiguous_c";
    sim_call_alias("MPI_Type_contiguous", F);
    SIM_RETURN(PMPI_Type_contiguous(c2i(F, "count", count), oldtype, newtype));
}
SIM_ALIAS(MPI_Type_contiguous_c);

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_darray_c");
    static const char F[] = "MPI_Type_create_darray_c";
    sim_call_alias("MPI_Type_create_darray", F);
    SIM_RETURN(PMPI_Type_create_darray(
        size, rank, ndims, c2iv(F, "array_of_gsizes", array_of_gsizes, ndims), array_of_distribs,
        array_of_dargs, array_of_psizes, order, oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_darray_c);

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_hindexed_c");
    static const char F[] = "MPI_Type_create_hindexed_c";
    int n_count = c2i(F, "count", count);
    sim_call_alias("MPI_Type_create_hindexed", F);
    SIM_RETURN(PMPI_Type_create_hindexed(
        c2i(F, "count", count), c2iv(F, "array_of_blocklengths", array_of_blocklengths, n_count),
        c2av(F, "array_of_displacements", array_of_displacements, n_count), oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_hindexed_c);

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_hindexed_block_c");
    static const char F[] = "MPI_Type_create_hindexed_block_c";
    int n_count = c2i(F, "count", count);
    sim_call_alias("MPI_Type_create_hindexed_block", F);
    SIM_RETURN(PMPI_Type_create_hindexed_block(
        c2i(F, "count", count), c2i(F, "blocklength", blocklength),
        c2av(F, "array_of_displacements", array_of_displacements, n_count), oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_hindexed_block_c);

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_hvector_c");
    static const char F[] = "MPI_Type_create_hvector_c";
    sim_call_alias("MPI_Type_create_hvector", F);
    SIM_RETURN(PMPI_Type_create_hvector(c2i(F, "count", count), c2i(F, "blocklength", blocklength),
                                        (MPI_Aint)stride, oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_hvector_c);

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_indexed_block_c");
    static const char F[] = "MPI_Type_create_indexed_block_c";
    int n_count = c2i(F, "count", count);
    sim_call_alias("MPI_Type_create_indexed_block", F);
    SIM_RETURN(PMPI_Type_create_indexed_block(
        c2i(F, "count", count), c2i(F, "blocklength", blocklength),
        c2iv(F, "array_of_displacements", array_of_displacements, n_count), oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_indexed_block_c);

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_resized_c");
    static const char F[] = "MPI_Type_create_resized_c";
    sim_call_alias("MPI_Type_create_resized", F);
    SIM_RETURN(PMPI_Type_create_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype));
}
SIM_ALIAS(MPI_Type_create_resized_c);

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_struct_c");
    static const char F[] = "MPI_Type_create_struct_c";
    int n_count = c2i(F, "count", count);
    sim_call_alias("MPI_Type_create_struct", F);
    SIM_RETURN(PMPI_Type_create_struct(
        c2i(F, "count", count), c2iv(F, "array_of_blocklengths", array_of_blocklengths, n_count),
        c2av(F, "array_of_displacements", array_of_displacements, n_count), array_of_types,
        newtype));
}
SIM_ALIAS(MPI_Type_create_struct_c);

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_create_subarray_c");
    static const char F[] = "MPI_Type_create_subarray_c";
    sim_call_alias("MPI_Type_create_subarray", F);
    SIM_RETURN(PMPI_Type_create_subarray(ndims, c2iv(F, "array_of_sizes", array_of_sizes, ndims),
                                         c2iv(F, "array_of_subsizes", array_of_subsizes, ndims),
                                         c2iv(F, "array_of_starts", array_of_starts, ndims), order,
                                         oldtype, newtype));
}
SIM_ALIAS(MPI_Type_create_subarray_c);

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_indexed_c");
    static const char F[] = "MPI_Type_indexed_c";
    int n_count = c2i(F, "count", count);
    sim_call_alias("MPI_Type_indexed", F);
    SIM_RETURN(PMPI_Type_indexed(
        c2i(F, "count", count), c2iv(F, "array_of_blocklengths", array_of_blocklengths, n_count),
        c2iv(F, "array_of_displacements", array_of_displacements, n_count), oldtype, newtype));
}
SIM_ALIAS(MPI_Type_indexed_c);

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype) {
    SIM_ENTER("MPI_Type_vector_c");
    static const char F[] = "MPI_Type_vector_c";
    sim_call_alias("MPI_Type_vector", F);
    SIM_RETURN(PMPI_Type_vector(c2i(F, "count", count), c2i(F, "blocklength", blocklength),
                                c2i(F, "stride", stride), oldtype, newtype));
}
SIM_ALIAS(MPI_Type_vector_c);

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
    SIM_ENTER("MPI_Bsend_c");
    static const char F[] = "MPI_Bsend_c";
    sim_call_alias("MPI_Bsend", F);
    SIM_RETURN(PMPI_Bsend(buf, c2i(F, "count", count), datatype, dest, tag, comm));
}
SIM_ALIAS(MPI_Bsend_c);

int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Bsend_init_c");
    static const char F[] = "MPI_Bsend_init_c";
    sim_call_alias("MPI_Bsend_init", F);
    SIM_RETURN(PMPI_Bsend_init(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Bsend_init_c);

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size) {
    SIM_ENTER("MPI_Buffer_attach_c");
    static const char F[] = "MPI_Buffer_attach_c";
    sim_call_alias("MPI_Buffer_attach", F);
    SIM_RETURN(PMPI_Buffer_attach(buffer, c2i(F, "size", size)));
}
SIM_ALIAS(MPI_Buffer_attach_c);

int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ibsend_c");
    static const char F[] = "MPI_Ibsend_c";
    sim_call_alias("MPI_Ibsend", F);
    SIM_RETURN(PMPI_Ibsend(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Ibsend_c);

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request) {
    SIM_ENTER("MPI_Imrecv_c");
    static const char F[] = "MPI_Imrecv_c";
    sim_call_alias("MPI_Imrecv", F);
    SIM_RETURN(PMPI_Imrecv(buf, c2i(F, "count", count), datatype, message, request));
}
SIM_ALIAS(MPI_Imrecv_c);

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Irecv_c");
    static const char F[] = "MPI_Irecv_c";
    sim_call_alias("MPI_Irecv", F);
    SIM_RETURN(PMPI_Irecv(buf, c2i(F, "count", count), datatype, source, tag, comm, request));
}
SIM_ALIAS(MPI_Irecv_c);

int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Irsend_c");
    static const char F[] = "MPI_Irsend_c";
    sim_call_alias("MPI_Irsend", F);
    SIM_RETURN(PMPI_Irsend(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Irsend_c);

int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Isend_c");
    static const char F[] = "MPI_Isend_c";
    sim_call_alias("MPI_Isend", F);
    SIM_RETURN(PMPI_Isend(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Isend_c);

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Isendrecv_c");
    static const char F[] = "MPI_Isendrecv_c";
    sim_call_alias("MPI_Isendrecv", F);
    SIM_RETURN(PMPI_Isendrecv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, dest, sendtag,
                              recvbuf, c2i(F, "recvcount", recvcount), recvtype, source, recvtag,
                              comm, request));
}
SIM_ALIAS(MPI_Isendrecv_c);

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request) {
    SIM_ENTER("MPI_Isendrecv_replace_c");
    static const char F[] = "MPI_Isendrecv_replace_c";
    sim_call_alias("MPI_Isendrecv_replace", F);
    SIM_RETURN(PMPI_Isendrecv_replace(buf, c2i(F, "count", count), datatype, dest, sendtag, source,
                                      recvtag, comm, request));
}
SIM_ALIAS(MPI_Isendrecv_replace_c);

int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Issend_c");
    static const char F[] = "MPI_Issend_c";
    sim_call_alias("MPI_Issend", F);
    SIM_RETURN(PMPI_Issend(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Issend_c);

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status) {
    SIM_ENTER("MPI_Mrecv_c");
    static const char F[] = "MPI_Mrecv_c";
    sim_call_alias("MPI_Mrecv", F);
    SIM_RETURN(PMPI_Mrecv(buf, c2i(F, "count", count), datatype, message, status));
}
SIM_ALIAS(MPI_Mrecv_c);

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status) {
    SIM_ENTER("MPI_Recv_c");
    static const char F[] = "MPI_Recv_c";
    sim_call_alias("MPI_Recv", F);
    SIM_RETURN(PMPI_Recv(buf, c2i(F, "count", count), datatype, source, tag, comm, status));
}
SIM_ALIAS(MPI_Recv_c);

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Recv_init_c");
    static const char F[] = "MPI_Recv_init_c";
    sim_call_alias("MPI_Recv_init", F);
    SIM_RETURN(PMPI_Recv_init(buf, c2i(F, "count", count), datatype, source, tag, comm, request));
}
SIM_ALIAS(MPI_Recv_init_c);

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
    SIM_ENTER("MPI_Rsend_c");
    static const char F[] = "MPI_Rsend_c";
    sim_call_alias("MPI_Rsend", F);
    SIM_RETURN(PMPI_Rsend(buf, c2i(F, "count", count), datatype, dest, tag, comm));
}
SIM_ALIAS(MPI_Rsend_c);

int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Rsend_init_c");
    static const char F[] = "MPI_Rsend_init_c";
    sim_call_alias("MPI_Rsend_init", F);
    SIM_RETURN(PMPI_Rsend_init(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Rsend_init_c);

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
    SIM_ENTER("MPI_Send_c");
    static const char F[] = "MPI_Send_c";
    sim_call_alias("MPI_Send", F);
    SIM_RETURN(PMPI_Send(buf, c2i(F, "count", count), datatype, dest, tag, comm));
}
SIM_ALIAS(MPI_Send_c);

int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Send_init_c");
    static const char F[] = "MPI_Send_init_c";
    sim_call_alias("MPI_Send_init", F);
    SIM_RETURN(PMPI_Send_init(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Send_init_c);

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
    SIM_ENTER("MPI_Sendrecv_c");
    static const char F[] = "MPI_Sendrecv_c";
    sim_call_alias("MPI_Sendrecv", F);
    SIM_RETURN(PMPI_Sendrecv(sendbuf, c2i(F, "sendcount", sendcount), sendtype, dest, sendtag,
                             recvbuf, c2i(F, "recvcount", recvcount), recvtype, source, recvtag,
                             comm, status));
}
SIM_ALIAS(MPI_Sendrecv_c);

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status) {
    SIM_ENTER("MPI_Sendrecv_replace_c");
    static const char F[] = "MPI_Sendrecv_replace_c";
    sim_call_alias("MPI_Sendrecv_replace", F);
    SIM_RETURN(PMPI_Sendrecv_replace(buf, c2i(F, "count", count), datatype, dest, sendtag, source,
                                     recvtag, comm, status));
}
SIM_ALIAS(MPI_Sendrecv_replace_c);

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
    SIM_ENTER("MPI_Ssend_c");
    static const char F[] = "MPI_Ssend_c";
    sim_call_alias("MPI_Ssend", F);
    SIM_RETURN(PMPI_Ssend(buf, c2i(F, "count", count), datatype, dest, tag, comm));
}
SIM_ALIAS(MPI_Ssend_c);

int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request) {
    SIM_ENTER("MPI_Ssend_init_c");
    static const char F[] = "MPI_Ssend_init_c";
    sim_call_alias("MPI_Ssend_init", F);
    SIM_RETURN(PMPI_Ssend_init(buf, c2i(F, "count", count), datatype, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Ssend_init_c);

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
    SIM_ENTER("MPI_Accumulate_c");
    static const char F[] = "MPI_Accumulate_c";
    sim_call_alias("MPI_Accumulate", F);
    SIM_RETURN(PMPI_Accumulate(origin_addr, c2i(F, "origin_count", origin_count), origin_datatype,
                               target_rank, target_disp, c2i(F, "target_count", target_count),
                               target_datatype, op, win));
}
SIM_ALIAS(MPI_Accumulate_c);

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win) {
    SIM_ENTER("MPI_Get_c");
    static const char F[] = "MPI_Get_c";
    sim_call_alias("MPI_Get", F);
    SIM_RETURN(PMPI_Get(origin_addr, c2i(F, "origin_count", origin_count), origin_datatype,
                        target_rank, target_disp, c2i(F, "target_count", target_count),
                        target_datatype, win));
}
SIM_ALIAS(MPI_Get_c);

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                          MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win) {
    SIM_ENTER("MPI_Get_accumulate_c");
    static const char F[] = "MPI_Get_accumulate_c";
    sim_call_alias("MPI_Get_accumulate", F);
    SIM_RETURN(PMPI_Get_accumulate(
        origin_addr, c2i(F, "origin_count", origin_count), origin_datatype, result_addr,
        c2i(F, "result_count", result_count), result_datatype, target_rank, target_disp,
        c2i(F, "target_count", target_count), target_datatype, op, win));
}
SIM_ALIAS(MPI_Get_accumulate_c);

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win) {
    SIM_ENTER("MPI_Put_c");
    static const char F[] = "MPI_Put_c";
    sim_call_alias("MPI_Put", F);
    SIM_RETURN(PMPI_Put(origin_addr, c2i(F, "origin_count", origin_count), origin_datatype,
                        target_rank, target_disp, c2i(F, "target_count", target_count),
                        target_datatype, win));
}
SIM_ALIAS(MPI_Put_c);

int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request *request) {
    SIM_ENTER("MPI_Raccumulate_c");
    static const char F[] = "MPI_Raccumulate_c";
    sim_call_alias("MPI_Raccumulate", F);
    SIM_RETURN(PMPI_Raccumulate(origin_addr, c2i(F, "origin_count", origin_count), origin_datatype,
                                target_rank, target_disp, c2i(F, "target_count", target_count),
                                target_datatype, op, win, request));
}
SIM_ALIAS(MPI_Raccumulate_c);

int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
    SIM_ENTER("MPI_Rget_c");
    static const char F[] = "MPI_Rget_c";
    sim_call_alias("MPI_Rget", F);
    SIM_RETURN(PMPI_Rget(origin_addr, c2i(F, "origin_count", origin_count), origin_datatype,
                         target_rank, target_disp, c2i(F, "target_count", target_count),
                         target_datatype, win, request));
}
SIM_ALIAS(MPI_Rget_c);

int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request) {
    SIM_ENTER("MPI_Rget_accumulate_c");
    static const char F[] = "MPI_Rget_accumulate_c";
    sim_call_alias("MPI_Rget_accumulate", F);
    SIM_RETURN(PMPI_Rget_accumulate(
        origin_addr, c2i(F, "origin_count", origin_count), origin_datatype, result_addr,
        c2i(F, "result_count", result_count), result_datatype, target_rank, target_disp,
        c2i(F, "target_count", target_count), target_datatype, op, win, request));
}
SIM_ALIAS(MPI_Rget_accumulate_c);

int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
    SIM_ENTER("MPI_Rput_c");
    static const char F[] = "MPI_Rput_c";
    sim_call_alias("MPI_Rput", F);
    SIM_RETURN(PMPI_Rput(origin_addr, c2i(F, "origin_count", origin_count), origin_datatype,
                         target_rank, target_disp, c2i(F, "target_count", target_count),
                         target_datatype, win, request));
}
SIM_ALIAS(MPI_Rput_c);

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win) {
    SIM_ENTER("MPI_Win_allocate_c");
    static const char F[] = "MPI_Win_allocate_c";
    sim_call_alias("MPI_Win_allocate", F);
    SIM_RETURN(PMPI_Win_allocate(size, c2i(F, "disp_unit", disp_unit), info, comm, baseptr, win));
}
SIM_ALIAS(MPI_Win_allocate_c);

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win) {
    SIM_ENTER("MPI_Win_allocate_shared_c");
    static const char F[] = "MPI_Win_allocate_shared_c";
    sim_call_alias("MPI_Win_allocate_shared", F);
    SIM_RETURN(
        PMPI_Win_allocate_shared(size, c2i(F, "disp_unit", disp_unit), info, comm, baseptr, win));
}
SIM_ALIAS(MPI_Win_allocate_shared_c);

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win *win) {
    SIM_ENTER("MPI_Win_create_c");
    static const char F[] = "MPI_Win_create_c";
    sim_call_alias("MPI_Win_create", F);
    SIM_RETURN(PMPI_Win_create(base, size, c2i(F, "disp_unit", disp_unit), info, comm, win));
}
SIM_ALIAS(MPI_Win_create_c);
