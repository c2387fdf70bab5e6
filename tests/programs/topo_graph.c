/*
 * topo_graph.c - graph and distributed graph topologies and the
 * neighbourhood collectives (MPI 3.1 sections 7.5.3-7.6), checked against
 * what the standard says.
 *
 * Run with 4 ranks; every rank prints its own lines, the output is MPICH's
 * (tests/e2e/expected/topo_graph.n4.out).  ordex must report nothing:
 *   - MPI_Graph_create of a ring: MPI_Topo_test, _Graphdims_get,
 *     _Graph_get, _Graph_neighbors(_count), MPI_Neighbor_allgather;
 *   - MPI_Dist_graph_create_adjacent (each rank sends to the next two and
 *     receives from the two before, weighted): the neighbours and weights,
 *     MPI_Neighbor_alltoall, _alltoallv (counts by neighbour), _alltoallw
 *     (a type by neighbour), the nonblocking MPI_Ineighbor_allgather;
 *   - MPI_Dist_graph_create where rank 0 gives every edge of a star
 *     (unweighted): neighbours, and an allgather over it (the order of a
 *     process's neighbours is the implementation's: printed sorted);
 *   - a periodic ring and a 2x2 grid as Cartesian topologies: the
 *     neighbours' data in their direction's slot, MPI_PROC_NULL slots
 *     untouched.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank;

static void line(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("rank %d: %s\n", rank, buf);
    fflush(stdout);
}

static char *ints(const int *v, int n) {
    static char buf[4][256];
    static int k;
    char *b = buf[k++ % 4];
    b[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(b + strlen(b), 256 - strlen(b), "%s%d", i ? " " : "", v[i]);
    return b;
}

static int cmp_int(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = 4, status;

    /* A ring as a graph. */
    int index[4] = {2, 4, 6, 8}, edges[8] = {3, 1, 0, 2, 1, 3, 2, 0};
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, 4, index, edges, 0, &g);
    MPI_Topo_test(g, &status);
    int nn, ne, gi[4], ge[8], cnt, nb[2];
    MPI_Graphdims_get(g, &nn, &ne);
    MPI_Graph_get(g, 4, 8, gi, ge);
    MPI_Graph_neighbors_count(g, rank, &cnt);
    MPI_Graph_neighbors(g, rank, 2, nb);
    line("graph topo %d nnodes %d nedges %d index %s edges %s neighbours(%d) %s",
         status == MPI_GRAPH, nn, ne, ints(gi, 4), ints(ge, 8), cnt, ints(nb, 2));
    int got[8];
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, g);
    line("graph allgather %s", ints(got, 2));

    /* Each rank sends to the next two, receives from the two before. */
    int src[2] = {(rank + 3) % n, (rank + 2) % n}, dst[2] = {(rank + 1) % n, (rank + 2) % n};
    int sw[2] = {10 + rank, 20 + rank}, dw[2] = {30 + rank, 40 + rank};
    MPI_Comm d;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, sw, 2, dst, dw, MPI_INFO_NULL, 0, &d);
    MPI_Topo_test(d, &status);
    int indeg, outdeg, weighted, s2[2], sw2[2], d2[2], dw2[2];
    MPI_Dist_graph_neighbors_count(d, &indeg, &outdeg, &weighted);
    MPI_Dist_graph_neighbors(d, 2, s2, sw2, 2, d2, dw2);
    line("dist topo %d in %d out %d weighted %d sources %s (%s) destinations %s (%s)",
         status == MPI_DIST_GRAPH, indeg, outdeg, weighted, ints(s2, 2), ints(sw2, 2), ints(d2, 2),
         ints(dw2, 2));
    int sendv[2] = {100 * rank, 100 * rank + 1}, recvv[2] = {-1, -1};
    MPI_Neighbor_alltoall(sendv, 1, MPI_INT, recvv, 1, MPI_INT, d);
    line("dist alltoall %s", ints(recvv, 2));
    /* Neighbour j gets j + 1 ints; in-neighbour i sends i + 1. */
    int big[3] = {rank, rank + 10, rank + 20}, sc[2] = {1, 2}, sd[2] = {0, 1};
    int rb[3] = {-1, -1, -1}, rc[2] = {2, 1}, rd[2] = {0, 2};
    /* What each receives: its in-neighbour 0 (r-1) sent to its out-neighbour
     * 0, one int; in-neighbour 1 (r-2) to its out-neighbour 1, two. */
    rc[0] = 1;
    rc[1] = 2;
    rd[0] = 0;
    rd[1] = 1;
    MPI_Neighbor_alltoallv(big, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, d);
    line("dist alltoallv %s", ints(rb, 3));
    double dval = rank + 0.5, drecv = -1;
    int ival = rank * 7, irecv = -1;
    MPI_Aint sdb[2] = {0, 0}, rdb[2] = {0, 0};
    int wsc[2] = {1, 1}, wrc[2] = {1, 1};
    MPI_Datatype stypes[2] = {MPI_DOUBLE, MPI_INT}, rtypes[2] = {MPI_DOUBLE, MPI_INT};
    /* Out-neighbour 0 gets a double, 1 an int: the two sends start at
     * different buffers, so the displacements are from MPI_BOTTOM. */
    MPI_Get_address(&dval, &sdb[0]);
    MPI_Get_address(&ival, &sdb[1]);
    MPI_Get_address(&drecv, &rdb[0]);
    MPI_Get_address(&irecv, &rdb[1]);
    MPI_Neighbor_alltoallw(MPI_BOTTOM, wsc, sdb, stypes, MPI_BOTTOM, wrc, rdb, rtypes, d);
    line("dist alltoallw %.1f %d", drecv, irecv);
    MPI_Request req;
    int ig[2] = {-1, -1}, me = rank + 1000;
    MPI_Ineighbor_allgather(&me, 1, MPI_INT, ig, 1, MPI_INT, d, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    line("dist ineighbor_allgather %s", ints(ig, 2));

    /* A star given by rank 0 alone: 0 -> 1, 2, 3 and back. */
    int ssrc[4] = {0, 1, 2, 3}, sdeg[4] = {3, 1, 1, 1}, sdst[6] = {1, 2, 3, 0, 0, 0};
    MPI_Comm star;
    MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? 4 : 0, ssrc, sdeg, sdst, MPI_UNWEIGHTED,
                          MPI_INFO_NULL, 0, &star);
    MPI_Dist_graph_neighbors_count(star, &indeg, &outdeg, &weighted);
    int ss[3], sd3[3];
    MPI_Dist_graph_neighbors(star, 3, ss, MPI_UNWEIGHTED, 3, sd3, MPI_UNWEIGHTED);
    qsort(ss, (size_t)indeg, sizeof(int), cmp_int);
    qsort(sd3, (size_t)outdeg, sizeof(int), cmp_int);
    MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, star);
    qsort(got, (size_t)indeg, sizeof(int), cmp_int);
    line("star in %d out %d weighted %d sources %s destinations %s allgather %s", indeg, outdeg,
         weighted, ints(ss, indeg), ints(sd3, outdeg), ints(got, indeg));

    /* Cartesian: a periodic ring of 4, then a 2x2 grid without wrap. */
    int dims1[1] = {4}, per1[1] = {1}, dims2[2] = {2, 2}, per2[2] = {0, 0};
    MPI_Comm ring, grid;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims1, per1, 0, &ring);
    int two[2] = {-1, -1};
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, two, 1, MPI_INT, ring);
    line("cart ring allgather (left, right) %s", ints(two, 2));
    int out2[2] = {rank * 10, rank * 10 + 1};
    MPI_Neighbor_alltoall(out2, 1, MPI_INT, two, 1, MPI_INT, ring);
    line("cart ring alltoall %s", ints(two, 2));
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims2, per2, 0, &grid);
    int four[4] = {-1, -1, -1, -1};
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, four, 1, MPI_INT, grid);
    line("cart grid allgather %s", ints(four, 4));

    MPI_Comm_free(&g);
    MPI_Comm_free(&d);
    MPI_Comm_free(&star);
    MPI_Comm_free(&ring);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
