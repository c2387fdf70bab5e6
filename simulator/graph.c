/*
 * graph.c - graph and distributed graph topologies (MPI 3.1 sections
 * 7.5.3 and 7.5.4) and the neighbourhoods of every topology that the
 * neighbourhood collectives use (section 7.6).  The communicators that
 * carry a topology are comm.c's.
 */
#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <string.h>

#include "simulator/comm.h"

int sim_graph_check(int nnodes, const int index[], const int edges[], int size, char **why) {
    if (nnodes < 0) {
        *why = g_strdup_printf("nnodes = %d is negative", nnodes);
        return MPI_ERR_ARG;
    }
    if (nnodes > size) {
        *why =
            g_strdup_printf("nnodes = %d is more than the communicator's %d ranks", nnodes, size);
        return MPI_ERR_TOPOLOGY;
    }
    if (nnodes > 0 && !index) {
        *why = g_strdup("index is NULL");
        return MPI_ERR_ARG;
    }
    int prev = 0;
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < prev) {
            *why = g_strdup_printf("index[%d] = %d is less than %s %d (index holds running "
                                   "totals of the nodes' degrees)",
                                   i, index[i], i ? "the entry before," : "zero,", prev);
            return MPI_ERR_ARG;
        }
        prev = index[i];
    }
    int nedges = nnodes ? index[nnodes - 1] : 0;
    if (nedges > 0 && !edges) {
        *why = g_strdup("edges is NULL");
        return MPI_ERR_ARG;
    }
    for (int e = 0; e < nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes) {
            *why = g_strdup_printf("edges[%d] = %d is not a node (0..%d)", e, edges[e], nnodes - 1);
            return MPI_ERR_TOPOLOGY;
        }
    return MPI_SUCCESS;
}

/* A Cartesian grid's neighbours of r: per dimension, negative then
 * positive direction. */
static void cart_neighbors(const sim_comm *c, int r, int *list) {
    for (int d = 0; d < c->ndims; d++) {
        int src, dst;
        sim_cart_shift(c->ndims, c->dims, c->periods, r, d, 1, &src, &dst);
        list[2 * d] = src;
        list[2 * d + 1] = dst;
    }
}

bool sim_comm_neighbors(const sim_comm *c, int r, int **in, int *nin, int **out, int *nout) {
    if (c->cart) {
        *nin = *nout = 2 * c->ndims;
        *in = g_new(int, *nin + 1);
        *out = g_new(int, *nout + 1);
        cart_neighbors(c, r, *in);
        memcpy(*out, *in, sizeof(int) * (size_t)*nin);
        return true;
    }
    if (c->nnodes > 0) {
        int from = r ? c->index[r - 1] : 0, to = c->index[r];
        *nin = *nout = to - from;
        *in = g_memdup2(c->edges + from, sizeof(int) * (size_t)(to - from + 1));
        *out = g_memdup2(c->edges + from, sizeof(int) * (size_t)(to - from + 1));
        return true;
    }
    if (c->adj) {
        const sim_dist_adj *a = &c->adj[r];
        *nin = a->indegree;
        *nout = a->outdegree;
        *in = g_new(int, a->indegree + 1);
        *out = g_new(int, a->outdegree + 1);
        memcpy(*in, a->sources, sizeof(int) * (size_t)a->indegree);
        memcpy(*out, a->destinations, sizeof(int) * (size_t)a->outdegree);
        return true;
    }
    return false;
}

bool sim_comm_neighbor_slot(const sim_comm *c, int src, int j, int *dst, int *slot, char **why) {
    int *in, *out, nin, nout;
    if (!sim_comm_neighbors(c, src, &in, &nin, &out, &nout) || j < 0 || j >= nout) {
        *why = g_strdup_printf("rank %d has no out-neighbour number %d", src, j);
        return false;
    }
    *dst = out[j];
    if (c->cart) {
        /* Sent towards the negative direction (even j), it arrives from the
         * receiver's positive side (odd slot), and the other way round. */
        *slot = *dst < 0 ? -1 : j ^ 1;
        if (*dst < 0)
            *dst = -1;
        g_free(in);
        g_free(out);
        return true;
    }
    int k = 0; /* earlier edges from src to the same destination */
    for (int i = 0; i < j; i++)
        k += out[i] == *dst;
    g_free(in);
    g_free(out);
    int *din, *dout, ndin, ndout;
    sim_comm_neighbors(c, *dst, &din, &ndin, &dout, &ndout);
    *slot = -1;
    for (int i = 0; i < ndin && *slot < 0; i++)
        if (din[i] == src && k-- == 0)
            *slot = i;
    g_free(din);
    g_free(dout);
    if (*slot < 0) {
        *why = g_strdup_printf("rank %d has rank %d among its neighbours, but rank %d does not "
                               "have rank %d among its (as often): its data has nowhere to go",
                               src, *dst, *dst, src);
        return false;
    }
    return true;
}
