/*
 * coll_blocking_mix.c - every collective of MPI 3.1 chapter 5, once blocking
 * and once nonblocking (MPI_I... + MPI_Wait).
 *
 *   coll_blocking_mix            every collective, blocking then nonblocking, on
 *                                every rank: no error; every rank prints one line
 *                                per call with what it received (stdout equals
 *                                real MPICH's)
 *   coll_blocking_mix KIND mix   KIND only (bcast, reduce, ..., see `kinds`):
 *                                even ranks call the blocking collective, odd ranks
 *                                its nonblocking twin.  MPI 3.1 section 5.12: a
 *                                nonblocking collective never matches a blocking
 *                                one.  ordex: an MPI error naming rank 0's
 *                                blocking call (the line marked [B:KIND], where the
 *                                finding is) and rank 1's nonblocking one (the
 *                                line marked [NB:KIND]).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXN = 16 };

static int rank, size;
static int sbuf[MAXN * 2], rbuf[MAXN * 2], counts[MAXN], displs[MAXN];
static MPI_Datatype types[MAXN];

static void reset(void) {
    for (int i = 0; i < MAXN * 2; i++) {
        sbuf[i] = 100 * rank + i;
        rbuf[i] = -1;
    }
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
        types[i] = MPI_INT;
    }
}

/* The lines of this rank, printed at once at the end: ranks print
 * concurrently under mpiexec, whose output may interleave lines otherwise. */
static char out[8192];
static size_t outlen;

static void show(const char *what, int n) {
    outlen += (size_t)snprintf(out + outlen, sizeof out - outlen, "rank %d: %s", rank, what);
    for (int i = 0; i < n; i++)
        outlen += (size_t)snprintf(out + outlen, sizeof out - outlen, " %d", rbuf[i]);
    outlen += (size_t)snprintf(out + outlen, sizeof out - outlen, "\n");
}

/* One collective, blocking (nb == 0) or nonblocking (nb == 1). */
static void run(const char *kind, int nb) {
    MPI_Request rq = MPI_REQUEST_NULL;
    int bdispls[MAXN]; /* Alltoallw's displacements are in bytes */
    reset();
    for (int i = 0; i < size; i++)
        bdispls[i] = i * (int)sizeof(int);
    if (strcmp(kind, "barrier") == 0) {
        if (!nb)
            MPI_Barrier(MPI_COMM_WORLD); // [B:barrier]
        else
            MPI_Ibarrier(MPI_COMM_WORLD, &rq); // [NB:barrier]
    } else if (strcmp(kind, "bcast") == 0) {
        if (!nb)
            MPI_Bcast(sbuf, 2, MPI_INT, 0, MPI_COMM_WORLD); // [B:bcast]
        else
            MPI_Ibcast(sbuf, 2, MPI_INT, 0, MPI_COMM_WORLD, &rq); // [NB:bcast]
    } else if (strcmp(kind, "reduce") == 0) {
        if (!nb)
            MPI_Reduce(sbuf, rbuf, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD); // [B:reduce]
        else
            MPI_Ireduce(sbuf, rbuf, 2, MPI_INT, MPI_SUM, 0, // [NB:reduce]
                        MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "allreduce") == 0) {
        if (!nb)
            MPI_Allreduce(sbuf, rbuf, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD); // [B:allreduce]
        else
            MPI_Iallreduce(sbuf, rbuf, 2, MPI_INT, MPI_MAX, // [NB:allreduce]
                           MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "gather") == 0) {
        if (!nb)
            MPI_Gather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, MPI_COMM_WORLD); // [B:gather]
        else
            MPI_Igather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, // [NB:gather]
                        MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "gatherv") == 0) {
        if (!nb)
            MPI_Gatherv(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, 0, // [B:gatherv]
                        MPI_COMM_WORLD);
        else
            MPI_Igatherv(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, 0, // [NB:gatherv]
                         MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "scatter") == 0) {
        if (!nb)
            MPI_Scatter(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, MPI_COMM_WORLD); // [B:scatter]
        else
            MPI_Iscatter(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, // [NB:scatter]
                         MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "scatterv") == 0) {
        if (!nb)
            MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, 1, MPI_INT, 0, // [B:scatterv]
                         MPI_COMM_WORLD);
        else
            MPI_Iscatterv(sbuf, counts, displs, MPI_INT, rbuf, 1, MPI_INT, 0, // [NB:scatterv]
                          MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "allgather") == 0) {
        if (!nb)
            MPI_Allgather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD); // [B:allgather]
        else
            MPI_Iallgather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, // [NB:allgather]
                           MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "allgatherv") == 0) {
        if (!nb)
            MPI_Allgatherv(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, // [B:allgatherv]
                           MPI_COMM_WORLD);
        else
            MPI_Iallgatherv(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, // [NB:allgatherv]
                            MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "alltoall") == 0) {
        if (!nb)
            MPI_Alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD); // [B:alltoall]
        else
            MPI_Ialltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, // [NB:alltoall]
                          MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "alltoallv") == 0) {
        if (!nb)
            MPI_Alltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, // [B:alltoallv]
                          displs, MPI_INT, MPI_COMM_WORLD);
        else
            MPI_Ialltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, // [NB:alltoallv]
                           displs, MPI_INT, MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "alltoallw") == 0) {
        if (!nb)
            MPI_Alltoallw(sbuf, counts, bdispls, types, rbuf, counts, // [B:alltoallw]
                          bdispls, types, MPI_COMM_WORLD);
        else
            MPI_Ialltoallw(sbuf, counts, bdispls, types, rbuf, counts, // [NB:alltoallw]
                           bdispls, types, MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "reduce_scatter") == 0) {
        if (!nb)
            MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, // [B:reduce_scatter]
                               MPI_COMM_WORLD);
        else
            MPI_Ireduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, // [NB:reduce_scatter]
                                MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "reduce_scatter_block") == 0) {
        if (!nb)
            MPI_Reduce_scatter_block(sbuf, rbuf, 1, MPI_INT, // [B:reduce_scatter_block]
                                     MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Ireduce_scatter_block(sbuf, rbuf, 1, MPI_INT, // [NB:reduce_scatter_block]
                                      MPI_SUM, MPI_COMM_WORLD, &rq);
    } else if (strcmp(kind, "scan") == 0) {
        if (!nb)
            MPI_Scan(sbuf, rbuf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // [B:scan]
        else
            MPI_Iscan(sbuf, rbuf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq); // [NB:scan]
    } else if (strcmp(kind, "exscan") == 0) {
        if (!nb)
            MPI_Exscan(sbuf, rbuf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // [B:exscan]
        else
            MPI_Iexscan(sbuf, rbuf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq); // [NB:exscan]
    } else {
        fprintf(stderr, "unknown collective %s\n", kind);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (nb)
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    /* The buffers are the program's again only now. */
    if (strcmp(kind, "bcast") == 0)
        memcpy(rbuf, sbuf, sizeof(int) * 2);
    if (strcmp(kind, "exscan") == 0 && rank == 0)
        rbuf[0] = rbuf[1] = -1; /* undefined at rank 0 */
    char what[64];
    snprintf(what, sizeof what, "%s %s", nb ? "nonblocking" : "blocking", kind);
    show(what, size < MAXN ? size : MAXN);
}

static const char *const kinds[] = {
    "barrier",  "bcast",     "reduce",    "allreduce",      "gather",
    "gatherv",  "scatter",   "scatterv",  "allgather",      "allgatherv",
    "alltoall", "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block",
    "scan",     "exscan",
};

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAXN) {
        if (rank == 0)
            fprintf(stderr, "at most %d ranks\n", MAXN);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 2 && strcmp(argv[2], "mix") == 0) {
        run(argv[1], rank % 2);
    } else {
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            run(kinds[k], 0);
            run(kinds[k], 1);
        }
    }
    fwrite(out, 1, outlen, stdout);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
