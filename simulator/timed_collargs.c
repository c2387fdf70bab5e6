/*
 * timed_collargs.c - what a collective call amounts to for the collective
 * algorithms (perfmodel/collalgo.h): which algorithm it runs and how many
 * bytes each of its transfers moves, from the MPI arguments of the members.
 * Pure: it reads a sim_coll and changes nothing.
 */
#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "perfmodel/collalgo.h"
#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/timed_internal.h"

static uint64_t type_bytes(int count, MPI_Datatype type) {
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    const sim_datatype *dt = sim_dt_get(type);
    return dt ? (uint64_t)sim_dt_size(dt) * (uint64_t)count : 0;
}

static bool neighbor_kind(sim_coll_kind k) {
    return k >= SIM_COLL_NEIGHBOR_ALLGATHER && k <= SIM_COLL_NEIGHBOR_ALLTOALLW;
}

/* The bytes member me sends to each comm rank in a neighbourhood
 * collective (several edges to one rank add up). */
static void neighbor_row(const sim_coll *c, int me, uint64_t *row) {
    const sim_coll_args *x = &c->args[me];
    int *in, *out, nin, nout;
    if (!sim_comm_neighbors(c->comm, me, &in, &nin, &out, &nout))
        return;
    for (int j = 0; j < nout; j++) {
        if (out[j] < 0)
            continue;
        uint64_t b;
        switch (c->kind) {
        case SIM_COLL_NEIGHBOR_ALLGATHER:
        case SIM_COLL_NEIGHBOR_ALLGATHERV:
        case SIM_COLL_NEIGHBOR_ALLTOALL:
            b = type_bytes(x->sendcount, x->sendtype);
            break;
        case SIM_COLL_NEIGHBOR_ALLTOALLV:
            b = x->sendcounts ? type_bytes(x->sendcounts[j], x->sendtype) : 0;
            break;
        default:
            b = x->sendcounts && x->sendtypes ? type_bytes(x->sendcounts[j], x->sendtypes[j]) : 0;
            break;
        }
        row[out[j]] += b;
    }
    g_free(in);
    g_free(out);
}

bool sim_timed_exact_sizes(sim_coll_kind kind) {
    return kind == SIM_COLL_GATHERV || kind == SIM_COLL_SCATTERV || kind == SIM_COLL_ALLTOALLV ||
           kind == SIM_COLL_ALLTOALLW || neighbor_kind(kind);
}

uint64_t *sim_timed_v_sizes(const sim_coll *c, int me) {
    const sim_coll_args *x = &c->args[me];
    int p = c->comm->size;
    uint64_t *row = g_new0(uint64_t, p);
    if (neighbor_kind(c->kind)) {
        neighbor_row(c, me, row);
        return row;
    }
    switch (c->kind) {
    case SIM_COLL_GATHERV:
        if (me != x->root)
            row[x->root] = type_bytes(x->sendcount, x->sendtype);
        break;
    case SIM_COLL_SCATTERV:
        if (me == x->root && x->sendcounts)
            for (int j = 0; j < p; j++)
                row[j] = type_bytes(x->sendcounts[j], x->sendtype);
        break;
    case SIM_COLL_ALLTOALLV:
        for (int j = 0; x->sendcounts && j < p; j++)
            row[j] = type_bytes(x->sendcounts[j], x->sendtype);
        break;
    case SIM_COLL_ALLTOALLW:
        for (int j = 0; x->sendcounts && x->sendtypes && j < p; j++)
            row[j] = type_bytes(x->sendcounts[j], x->sendtypes[j]);
        break;
    default:
        break;
    }
    return row;
}

bool sim_timed_coll_args(const sim_coll *c, int me, pm_ca_args *a, GArray *block) {
    const sim_coll_args *x = &c->args[me];
    int p = c->comm->size;
    bool root = me == x->root;
    memset(a, 0, sizeof *a);
    a->p = p;
    a->root = x->root;
    switch (c->kind) {
    case SIM_COLL_BARRIER:
        a->kind = PM_CA_BARRIER;
        return true;
    case SIM_COLL_BCAST:
        a->kind = PM_CA_BCAST;
        a->bytes = type_bytes(x->sendcount, x->sendtype);
        return true;
    case SIM_COLL_REDUCE:
        a->kind = PM_CA_REDUCE;
        a->bytes = type_bytes(x->sendcount, x->sendtype);
        return true;
    case SIM_COLL_ALLREDUCE:
        a->kind = PM_CA_ALLREDUCE;
        a->bytes = type_bytes(x->sendcount, x->sendtype);
        return true;
    case SIM_COLL_SCAN:
    case SIM_COLL_EXSCAN:
        a->kind = c->kind == SIM_COLL_SCAN ? PM_CA_SCAN : PM_CA_EXSCAN;
        a->bytes = type_bytes(x->sendcount, x->sendtype);
        return true;
    case SIM_COLL_GATHER:
        a->kind = PM_CA_GATHER;
        a->bytes =
            root ? type_bytes(x->recvcount, x->recvtype) : type_bytes(x->sendcount, x->sendtype);
        return true;
    case SIM_COLL_SCATTER:
        a->kind = PM_CA_SCATTER;
        a->bytes =
            root ? type_bytes(x->sendcount, x->sendtype) : type_bytes(x->recvcount, x->recvtype);
        return true;
    case SIM_COLL_ALLGATHER:
        a->kind = PM_CA_ALLGATHER;
        a->bytes = x->sendbuf == MPI_IN_PLACE ? type_bytes(x->recvcount, x->recvtype)
                                              : type_bytes(x->sendcount, x->sendtype);
        return true;
    case SIM_COLL_ALLTOALL:
        a->kind = PM_CA_ALLTOALL;
        a->bytes = x->sendbuf == MPI_IN_PLACE ? type_bytes(x->recvcount, x->recvtype)
                                              : type_bytes(x->sendcount, x->sendtype);
        return true;
    case SIM_COLL_GATHERV:
    case SIM_COLL_SCATTERV:
    case SIM_COLL_ALLTOALLV:
    case SIM_COLL_ALLTOALLW: {
        /* Each transfer takes its size from its sender's own arguments
         * (coll_start); the schedule holds what the first member to arrive
         * knows (exact at the root of gatherv and scatterv, its own row and
         * column of alltoallv), which decides eager or rendezvous and which
         * empty blocks are skipped. */
        a->kind = c->kind == SIM_COLL_GATHERV    ? PM_CA_GATHERV
                  : c->kind == SIM_COLL_SCATTERV ? PM_CA_SCATTERV
                                                 : PM_CA_ALLTOALLV;
        uint64_t *mine = sim_timed_v_sizes(c, me);
        if (a->kind == PM_CA_ALLTOALLV) {
            g_array_set_size(block, (guint)p * (guint)p);
            uint64_t *m = (uint64_t *)block->data;
            for (int i = 0; i < p; i++)
                for (int j = 0; j < p; j++) {
                    uint64_t v = mine[j];
                    if (j == me && x->recvcounts)
                        v = c->kind == SIM_COLL_ALLTOALLW
                                ? (x->recvtypes ? type_bytes(x->recvcounts[i], x->recvtypes[i]) : 0)
                                : type_bytes(x->recvcounts[i], x->recvtype);
                    m[(size_t)i * (size_t)p + (size_t)j] = v;
                }
            a->matrix = m;
        } else {
            g_array_set_size(block, (guint)p);
            uint64_t *b = (uint64_t *)block->data;
            uint64_t own = root                          ? 0
                           : c->kind == SIM_COLL_GATHERV ? type_bytes(x->sendcount, x->sendtype)
                                                         : type_bytes(x->recvcount, x->recvtype);
            for (int i = 0; i < p; i++) {
                if (!root)
                    b[i] = own;
                else if (c->kind == SIM_COLL_GATHERV)
                    b[i] = x->recvcounts ? type_bytes(x->recvcounts[i], x->recvtype) : 0;
                else
                    b[i] = mine[i];
            }
            a->block = b;
        }
        g_free(mine);
        return true;
    }
    case SIM_COLL_ALLGATHERV:
    case SIM_COLL_REDUCE_SCATTER:
    case SIM_COLL_REDUCE_SCATTER_BLOCK: {
        a->kind = c->kind == SIM_COLL_ALLGATHERV ? PM_CA_ALLGATHERV : PM_CA_REDUCE_SCATTER;
        MPI_Datatype type = c->kind == SIM_COLL_ALLGATHERV ? x->recvtype : x->sendtype;
        g_array_set_size(block, (guint)p);
        for (int i = 0; i < p; i++) {
            int n = c->kind == SIM_COLL_REDUCE_SCATTER_BLOCK ? x->recvcount
                    : x->recvcounts                          ? x->recvcounts[i]
                                                             : 0;
            g_array_index(block, uint64_t, i) = type_bytes(n, type);
        }
        a->block = (const uint64_t *)block->data;
        return true;
    }
    case SIM_COLL_NEIGHBOR_ALLGATHER:
    case SIM_COLL_NEIGHBOR_ALLGATHERV:
    case SIM_COLL_NEIGHBOR_ALLTOALL:
    case SIM_COLL_NEIGHBOR_ALLTOALLV:
    case SIM_COLL_NEIGHBOR_ALLTOALLW: {
        /* Point-to-point along the edges: an alltoallv whose pairs are the
         * topology's.  Each transfer takes its size from its sender's
         * arguments (coll_start); the schedule estimates the others'
         * edges with this member's largest block. */
        a->kind = PM_CA_ALLTOALLV;
        uint64_t *mine = sim_timed_v_sizes(c, me), est = 1;
        for (int j = 0; j < p; j++)
            est = mine[j] > est ? mine[j] : est;
        g_array_set_size(block, (guint)p * (guint)p);
        uint64_t *m = (uint64_t *)block->data;
        memset(m, 0, sizeof(uint64_t) * (size_t)p * (size_t)p);
        for (int i = 0; i < p; i++) {
            int *in, *out, nin, nout;
            if (!sim_comm_neighbors(c->comm, i, &in, &nin, &out, &nout))
                continue;
            for (int j = 0; j < nout; j++)
                if (out[j] >= 0)
                    m[(size_t)i * (size_t)p + (size_t)out[j]] = i == me ? mine[out[j]] : est;
            g_free(in);
            g_free(out);
        }
        a->matrix = m;
        g_free(mine);
        return true;
    }
    case SIM_COLL_WIN_FENCE:
    case SIM_COLL_WIN_FREE:
        /* MPICH synchronises a fence, and a window before freeing it, with
         * its barrier (a fence only after the member's operations are done:
         * timed_rma.c). */
        a->kind = PM_CA_BARRIER;
        return true;
    case SIM_COLL_FILE_OPEN:
    case SIM_COLL_FILE_CLOSE:
    case SIM_COLL_FILE_SET_VIEW:
    case SIM_COLL_FILE_SET_SIZE:
    case SIM_COLL_FILE_PREALLOCATE:
    case SIM_COLL_FILE_SET_INFO:
    case SIM_COLL_FILE_SET_ATOMICITY:
    case SIM_COLL_FILE_SYNC:
    case SIM_COLL_FILE_SEEK_SHARED:
    case SIM_COLL_FILE_READ_AT_ALL:
    case SIM_COLL_FILE_WRITE_AT_ALL:
    case SIM_COLL_FILE_READ_ALL:
    case SIM_COLL_FILE_WRITE_ALL:
    case SIM_COLL_FILE_READ_ORDERED:
    case SIM_COLL_FILE_WRITE_ORDERED:
    case SIM_COLL_FILE_READ_AT_ALL_BEGIN:
    case SIM_COLL_FILE_WRITE_AT_ALL_BEGIN:
    case SIM_COLL_FILE_READ_ALL_BEGIN:
    case SIM_COLL_FILE_WRITE_ALL_BEGIN:
    case SIM_COLL_FILE_READ_ORDERED_BEGIN:
    case SIM_COLL_FILE_WRITE_ORDERED_BEGIN:
        /* MPI-IO collectives synchronise their members as MPICH's barrier
         * does; each member's data access is charged at its call
         * (file.c, docs/mpiio.md). */
        a->kind = PM_CA_BARRIER;
        return true;
    case SIM_COLL_WIN_CREATE:
    case SIM_COLL_WIN_ALLOCATE:
    case SIM_COLL_WIN_ALLOCATE_SHARED:
    case SIM_COLL_WIN_CREATE_DYNAMIC:
        /* MPICH gathers every member's base address, size, displacement
         * unit and window handle (4 MPI_Aint) with an allgather; the
         * duplication of the communicator before it is not charged. */
        a->kind = PM_CA_ALLGATHER;
        a->bytes = 4 * sizeof(MPI_Aint);
        return true;
    default:
        /* Communicator constructors: MPICH agrees on a context id with an
         * allreduce of a small mask, and Comm_split gathers (color, key). */
        a->kind = c->kind == SIM_COLL_COMM_SPLIT || c->kind == SIM_COLL_COMM_SPLIT_TYPE
                      ? PM_CA_ALLGATHER
                      : PM_CA_ALLREDUCE;
        a->bytes = 8;
        return true;
    }
}
