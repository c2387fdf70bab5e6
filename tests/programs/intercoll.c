/*
 * intercoll.c - every collective on an intercommunicator (MPI 3.1 section
 * 5.2.2), blocking and nonblocking, and MPI_Comm_split, MPI_Comm_create
 * and MPI_Comm_idup of one.
 *
 * Group A is the world ranks r with r % 3 == 0, group B the others, each
 * ordered by decreasing world rank (so that local and world ranks differ);
 * with 5 ranks A = {3, 0} and B = {4, 2, 1}.  Every rank prints what it
 * received; the output is MPICH's (tests/e2e/expected/intercoll.n3.out,
 * .n4.out).  ordex must report nothing.  Roots: the rank passing MPI_ROOT,
 * the rest of its group MPI_PROC_NULL, the other group the root's rank.
 * (With 6 ranks the groups' Reduce_scatter_block vectors differ, 6 and 4
 * elements: an error, MPICH's "Message truncated".)
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wrank, inA, lrank, lsize, rsize;

/* The rank's output, written at once at the end: mpiexec may cut lines
 * that several ranks write at the same time. */
static char output[16384];
static size_t output_len;

static void out(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(output + output_len, sizeof output - output_len, fmt, ap);
    va_end(ap);
    if (n > 0 && output_len + (size_t)n < sizeof output)
        output_len += (size_t)n;
}

/* Prints "rank W: what v0 v1 ..." */
static void show(const char *what, const int *v, int n) {
    char line[1024];
    int at = snprintf(line, sizeof line, "rank %d: %s", wrank, what);
    for (int i = 0; i < n && at < (int)sizeof line - 16; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %d", v[i]);
    out("%s\n", line);
}

/* The root argument for a root that is local rank r of group A (rootA) or
 * of group B. */
static int root_arg(int rootA, int r) {
    if (inA == rootA)
        return lrank == r ? MPI_ROOT : MPI_PROC_NULL;
    return r;
}

/* Six elements split over a group of size s: 1, 2, ..., the rest last. */
static void six_counts(int s, int *counts) {
    int sum = 0;
    for (int i = 0; i < s - 1; i++) {
        counts[i] = i + 1;
        sum += i + 1;
    }
    counts[s - 1] = 6 - sum;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 3 || n > 6) {
        if (wrank == 0)
            fprintf(stderr, "run with 3 to 6 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    inA = wrank % 3 == 0;
    /* The leaders: each group's highest world rank. */
    int leadA = -1, leadB = -1;
    for (int r = 0; r < n; r++) {
        if (r % 3 == 0)
            leadA = r;
        else
            leadB = r;
    }
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, inA, -wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? leadB : leadA, 7, &ic);
    MPI_Comm_set_name(ic, "A-B");
    MPI_Comm_rank(ic, &lrank);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    int *buf = calloc(64, sizeof(int)), *res = calloc(64, sizeof(int));
    int counts[8], displs[8], rcounts[8], rdispls[8];
    MPI_Datatype types[8], rtypes[8];

    MPI_Barrier(ic);

    /* Bcast from A's rank 1 (0 when alone), then from B's rank 0. */
    int ra = lsize > 1 && inA ? 1 : 0;
    if (!inA)
        ra = rsize > 1 ? 1 : 0;
    for (int i = 0; i < 3; i++)
        buf[i] = 100 * wrank + i;
    MPI_Bcast(buf, 3, MPI_INT, root_arg(1, ra), ic);
    if (!inA)
        show("bcast from A", buf, 3);
    for (int i = 0; i < 3; i++)
        buf[i] = 100 * wrank + i;
    MPI_Bcast(buf, 3, MPI_INT, root_arg(0, 0), ic);
    if (inA)
        show("bcast from B", buf, 3);

    /* Reduce of A's data at B's rank 0. */
    int v[2] = {wrank + 1, 2 * wrank}, r2[2] = {-1, -1};
    MPI_Reduce(v, r2, 2, MPI_INT, MPI_SUM, root_arg(0, 0), ic);
    if (!inA && lrank == 0)
        show("reduce sum of A", r2, 2);
    MPI_Reduce(v, r2, 2, MPI_INT, MPI_MAX, root_arg(1, 0), ic);
    if (inA && lrank == 0)
        show("reduce max of B", r2, 2);

    /* Gather of B's pairs at A's rank 0. */
    int pair[2] = {wrank, -wrank};
    memset(res, 0, 64 * sizeof(int));
    MPI_Gather(pair, 2, MPI_INT, res, 2, MPI_INT, root_arg(1, 0), ic);
    if (inA && lrank == 0)
        show("gather of B", res, 2 * rsize);

    /* Gatherv of A's rank r: r + 1 values, at B's rank 0, reversed blocks. */
    for (int i = 0; i <= lrank; i++)
        buf[i] = 10 * wrank + i;
    int total = 0;
    for (int i = 0; i < rsize; i++)
        total += i + 1;
    for (int i = 0, at = total; i < rsize; i++) {
        counts[i] = i + 1;
        at -= i + 1;
        displs[i] = at;
    }
    memset(res, 0, 64 * sizeof(int));
    MPI_Gatherv(buf, lrank + 1, MPI_INT, res, counts, displs, MPI_INT, root_arg(0, 0), ic);
    if (!inA && lrank == 0)
        show("gatherv of A", res, total);

    /* Scatter from A's rank 0 to B, two values each. */
    for (int i = 0; i < 2 * rsize; i++)
        buf[i] = 1000 + 10 * wrank + i;
    memset(res, 0, 64 * sizeof(int));
    MPI_Scatter(buf, 2, MPI_INT, res, 2, MPI_INT, root_arg(1, 0), ic);
    if (!inA)
        show("scatter from A", res, 2);

    /* Scatterv from B's rank 0: A's rank r gets r + 1 values. */
    for (int i = 0; i < 32; i++)
        buf[i] = 2000 + 10 * wrank + i;
    for (int i = 0, at = 0; i < rsize; i++) {
        counts[i] = i + 1;
        displs[i] = at;
        at += i + 2; /* a gap of one between blocks */
    }
    memset(res, 0, 64 * sizeof(int));
    MPI_Scatterv(buf, counts, displs, MPI_INT, res, lrank + 1, MPI_INT, root_arg(0, 0), ic);
    if (inA)
        show("scatterv from B", res, lrank + 1);

    /* Allgather: one value each, from the other group. */
    int mine = 10 * wrank;
    memset(res, 0, 64 * sizeof(int));
    MPI_Allgather(&mine, 1, MPI_INT, res, 1, MPI_INT, ic);
    show("allgather", res, rsize);

    /* Allgatherv: local rank r sends r + 1 values. */
    for (int i = 0; i <= lrank; i++)
        buf[i] = 100 * wrank + i;
    for (int i = 0, at = 0; i < rsize; i++) {
        counts[i] = i + 1;
        displs[i] = at;
        at += i + 1;
    }
    memset(res, 0, 64 * sizeof(int));
    MPI_Allgatherv(buf, lrank + 1, MPI_INT, res, counts, displs, MPI_INT, ic);
    show("allgatherv", res, rsize * (rsize + 1) / 2);

    /* Alltoall: block j goes to remote rank j. */
    for (int j = 0; j < rsize; j++)
        buf[j] = 100 * wrank + j;
    memset(res, 0, 64 * sizeof(int));
    MPI_Alltoall(buf, 1, MPI_INT, res, 1, MPI_INT, ic);
    show("alltoall", res, rsize);

    /* Alltoallv: j + 1 values to remote rank j; lrank + 1 from each. */
    int at = 0;
    for (int j = 0; j < rsize; j++) {
        counts[j] = j + 1;
        displs[j] = at;
        for (int k = 0; k <= j; k++)
            buf[at + k] = 1000 * wrank + 10 * j + k;
        at += j + 1;
    }
    for (int i = 0; i < rsize; i++) {
        rcounts[i] = lrank + 1;
        rdispls[i] = i * (lrank + 1);
    }
    memset(res, 0, 64 * sizeof(int));
    MPI_Alltoallv(buf, counts, displs, MPI_INT, res, rcounts, rdispls, MPI_INT, ic);
    show("alltoallv", res, rsize * (lrank + 1));

    /* Alltoallw: the same with byte displacements and a type per peer. */
    for (int j = 0; j < rsize; j++) {
        displs[j] *= (int)sizeof(int);
        types[j] = MPI_INT;
        rdispls[j] *= (int)sizeof(int);
        rtypes[j] = MPI_INT;
    }
    memset(res, 0, 64 * sizeof(int));
    MPI_Alltoallw(buf, counts, displs, types, res, rcounts, rdispls, rtypes, ic);
    show("alltoallw", res, rsize * (lrank + 1));

    /* Allreduce: each group gets the other's sum and product. */
    int a2[2] = {wrank, wrank + 1}, s2[2] = {0, 0};
    MPI_Allreduce(a2, s2, 1, MPI_INT, MPI_SUM, ic);
    MPI_Allreduce(a2 + 1, s2 + 1, 1, MPI_INT, MPI_PROD, ic);
    show("allreduce sum prod", s2, 2);

    /* Reduce_scatter: six values in each group, scattered by the
     * receiving group's counts. */
    six_counts(lsize, counts);
    for (int k = 0; k < 6; k++)
        buf[k] = 10 * wrank + k;
    memset(res, 0, 64 * sizeof(int));
    MPI_Reduce_scatter(buf, res, counts, MPI_INT, MPI_SUM, ic);
    show("reduce_scatter", res, counts[lrank]);
    memset(res, 0, 64 * sizeof(int));
    MPI_Reduce_scatter_block(buf, res, 6 / lsize, MPI_INT, MPI_SUM, ic);
    show("reduce_scatter_block", res, 6 / lsize);

    /* Nonblocking variants, completed together. */
    MPI_Request req[5];
    int nb1[3] = {0, 0, 0}, nb2 = 0, nb3[8], nb4[8];
    for (int i = 0; i < 3; i++)
        nb1[i] = 7 * wrank + i;
    MPI_Ibcast(nb1, 3, MPI_INT, root_arg(0, 0), ic, &req[0]);
    MPI_Iallreduce(&wrank, &nb2, 1, MPI_INT, MPI_MAX, ic, &req[1]);
    for (int j = 0; j < rsize; j++)
        nb3[j] = 50 * wrank + j;
    MPI_Ialltoall(nb3, 1, MPI_INT, nb4, 1, MPI_INT, ic, &req[2]);
    MPI_Ibarrier(ic, &req[3]);
    int g[8] = {0};
    MPI_Igather(&wrank, 1, MPI_INT, g, 1, MPI_INT, root_arg(0, 0), ic, &req[4]);
    MPI_Status sts[5];
    MPI_Waitall(5, req, sts);
    if (inA)
        show("ibcast from B", nb1, 3);
    show("iallreduce max", &nb2, 1);
    show("ialltoall", nb4, rsize);
    if (!inA && lrank == 0)
        show("igather of A", g, rsize);

    /* MPI_Comm_split: by local rank parity, reversed; a colour only one
     * group has gives MPI_COMM_NULL. */
    MPI_Comm sub;
    MPI_Comm_split(ic, lrank % 2, -lrank, &sub);
    if (sub == MPI_COMM_NULL) {
        out("rank %d: split null\n", wrank);
    } else {
        int si, ss, sr, srank, sum = -1;
        MPI_Comm_test_inter(sub, &si);
        MPI_Comm_size(sub, &ss);
        MPI_Comm_remote_size(sub, &sr);
        MPI_Comm_rank(sub, &srank);
        MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, sub);
        out("rank %d: split inter %d size %d rank %d remote %d other sum %d\n", wrank, si, ss,
            srank, sr, sum);
        MPI_Comm_free(&sub);
    }

    /* MPI_Comm_create: each group keeps its local rank 0. */
    MPI_Group lg, one;
    MPI_Comm_group(ic, &lg);
    int zero = 0;
    MPI_Group_incl(lg, 1, &zero, &one);
    MPI_Comm cr;
    MPI_Comm_create(ic, one, &cr);
    if (cr == MPI_COMM_NULL) {
        out("rank %d: create null\n", wrank);
    } else {
        int cs, crs, got = -1;
        MPI_Comm_size(cr, &cs);
        MPI_Comm_remote_size(cr, &crs);
        MPI_Sendrecv(&wrank, 1, MPI_INT, 0, 0, &got, 1, MPI_INT, 0, 0, cr, MPI_STATUS_IGNORE);
        out("rank %d: create size %d remote %d peer %d\n", wrank, cs, crs, got);
        MPI_Comm_free(&cr);
    }
    MPI_Group_free(&one);
    MPI_Group_free(&lg);

    /* MPI_Comm_idup, then a collective on the duplicate. */
    MPI_Comm dup;
    MPI_Request dr;
    MPI_Comm_idup(ic, &dup, &dr);
    MPI_Wait(&dr, MPI_STATUS_IGNORE);
    int dv = wrank, dsum = 0;
    MPI_Allreduce(&dv, &dsum, 1, MPI_INT, MPI_SUM, dup);
    show("idup allreduce", &dsum, 1);
    MPI_Comm_free(&dup);

    free(buf);
    free(res);
    fputs(output, stdout);
    fflush(stdout);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
