/*
 * mpi4_persist.c - MPI 4.0's persistent collectives (section 6.12), every
 * *_init of MPICH 4's header, the neighbourhood ones on a periodic ring,
 * each started three times (MPI_Start, then MPI_Startall with a second one),
 * with the send data changed between starts.  Every received value is
 * checked against what the standard's definition of the collective gives;
 * a rank prints "rank R: KIND ok" per collective, or the first wrong value.
 *
 *   mpi4_persist          all kinds; no finding; output equals real MPICH's
 *   mpi4_persist KIND...  those kinds only (MPICH 4.0.2 gets gather, scatter and
 *                         allgather wrong, and the neighbourhood v and w kinds
 *                         on fewer than 3 ranks, where a rank's two neighbours
 *                         are one process: the MPICH cross-check leaves those out)
 *   mpi4_persist mix      rank 0 starts MPI_Bcast_init (marked P:mix), the
 *                         others call MPI_Bcast (B:mix): a persistent collective
 *                         matches neither a blocking call (ordex: an MPI
 *                         error naming both calls)
 *   mpi4_persist leak     an MPI_Allreduce_init request never freed
 *                         (L:leak): a leak finding at that line
 *   mpi4_persist freed    an MPI_Allreduce_init of a derived type with a user op,
 *                         both freed right after the init, then started twice, and
 *                         an MPI_Alltoallw_init whose types are freed likewise:
 *                         the request keeps them (MPI 3.1 sections 4.1.9 and
 *                         5.9.5); prints "rank R: freed ok"
 *   mpi4_persist restart  MPI_Start of an active persistent collective
 *                         (R:restart): an MPI error
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXN = 8, ROUNDS = 3 };

static int rank, size, round_;
static int sbuf[MAXN * 2], rbuf[MAXN * 2];
static int counts[MAXN], displs[MAXN], bdispls[MAXN];
static MPI_Aint abdispls[MAXN];
static MPI_Datatype types[MAXN];
static int bad;

/* What rank r contributes at element i in the current round. */
static int val(int r, int i) {
    return 1000 * round_ + 100 * r + i;
}

static void fill(void) {
    for (int i = 0; i < MAXN * 2; i++) {
        sbuf[i] = val(rank, i);
        rbuf[i] = -1;
    }
}

static void expect(const char *kind, int i, int want) {
    if (!bad && rbuf[i] != want) {
        printf("rank %d: %s round %d: rbuf[%d] = %d, expected %d\n", rank, kind, round_, i, rbuf[i],
               want);
        bad = 1;
    }
}

/* Makes the persistent request of kind on comm (ring for neighbourhood
 * collectives, whose neighbours are left and right). */
static void make(const char *kind, MPI_Comm world, MPI_Comm ring, MPI_Request *rq) {
    MPI_Info in = MPI_INFO_NULL;
    if (!strcmp(kind, "barrier"))
        MPI_Barrier_init(world, in, rq);
    else if (!strcmp(kind, "bcast"))
        MPI_Bcast_init(sbuf, 2, MPI_INT, size - 1, world, in, rq);
    else if (!strcmp(kind, "reduce"))
        MPI_Reduce_init(sbuf, rbuf, 2, MPI_INT, MPI_SUM, 0, world, in, rq);
    else if (!strcmp(kind, "allreduce"))
        MPI_Allreduce_init(sbuf, rbuf, 2, MPI_INT, MPI_MAX, world, in, rq);
    else if (!strcmp(kind, "scan"))
        MPI_Scan_init(sbuf, rbuf, 2, MPI_INT, MPI_SUM, world, in, rq);
    else if (!strcmp(kind, "exscan"))
        MPI_Exscan_init(sbuf, rbuf, 2, MPI_INT, MPI_SUM, world, in, rq);
    else if (!strcmp(kind, "reduce_scatter"))
        MPI_Reduce_scatter_init(sbuf, rbuf, counts, MPI_INT, MPI_SUM, world, in, rq);
    else if (!strcmp(kind, "reduce_scatter_block"))
        MPI_Reduce_scatter_block_init(sbuf, rbuf, 1, MPI_INT, MPI_SUM, world, in, rq);
    else if (!strcmp(kind, "gather"))
        MPI_Gather_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, world, in, rq);
    else if (!strcmp(kind, "gatherv"))
        MPI_Gatherv_init(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, 0, world, in, rq);
    else if (!strcmp(kind, "scatter"))
        MPI_Scatter_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, world, in, rq);
    else if (!strcmp(kind, "scatterv"))
        MPI_Scatterv_init(sbuf, counts, displs, MPI_INT, rbuf, 1, MPI_INT, 0, world, in, rq);
    else if (!strcmp(kind, "allgather"))
        MPI_Allgather_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, world, in, rq);
    else if (!strcmp(kind, "allgatherv"))
        MPI_Allgatherv_init(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, world, in, rq);
    else if (!strcmp(kind, "alltoall"))
        MPI_Alltoall_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, world, in, rq);
    else if (!strcmp(kind, "alltoallv"))
        MPI_Alltoallv_init(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, world, in,
                           rq);
    else if (!strcmp(kind, "alltoallw"))
        MPI_Alltoallw_init(sbuf, counts, bdispls, types, rbuf, counts, bdispls, types, world, in,
                           rq);
    else if (!strcmp(kind, "neighbor_allgather"))
        MPI_Neighbor_allgather_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, ring, in, rq);
    else if (!strcmp(kind, "neighbor_allgatherv"))
        MPI_Neighbor_allgatherv_init(sbuf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, ring, in, rq);
    else if (!strcmp(kind, "neighbor_alltoall"))
        MPI_Neighbor_alltoall_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, ring, in, rq);
    else if (!strcmp(kind, "neighbor_alltoallv"))
        MPI_Neighbor_alltoallv_init(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT,
                                    ring, in, rq);
    else if (!strcmp(kind, "neighbor_alltoallw"))
        MPI_Neighbor_alltoallw_init(sbuf, counts, abdispls, types, rbuf, counts, abdispls, types,
                                    ring, in, rq);
    else {
        fprintf(stderr, "unknown collective %s\n", kind);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* The values MPI's definitions give for this round's data. */
static void check(const char *kind) {
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    if (!strcmp(kind, "bcast")) {
        for (int i = 0; i < 2; i++)
            if (!bad && sbuf[i] != val(size - 1, i)) {
                printf("rank %d: bcast round %d: buffer[%d] = %d, expected %d\n", rank, round_, i,
                       sbuf[i], val(size - 1, i));
                bad = 1;
            }
    } else if (!strcmp(kind, "reduce") && rank == 0) {
        for (int i = 0; i < 2; i++) {
            int s = 0;
            for (int r = 0; r < size; r++)
                s += val(r, i);
            expect(kind, i, s);
        }
    } else if (!strcmp(kind, "allreduce")) {
        for (int i = 0; i < 2; i++)
            expect(kind, i, val(size - 1, i));
    } else if (!strcmp(kind, "scan") || (!strcmp(kind, "exscan") && rank > 0)) {
        int upto = !strcmp(kind, "scan") ? rank : rank - 1;
        for (int i = 0; i < 2; i++) {
            int s = 0;
            for (int r = 0; r <= upto; r++)
                s += val(r, i);
            expect(kind, i, s);
        }
    } else if (!strcmp(kind, "reduce_scatter") || !strcmp(kind, "reduce_scatter_block")) {
        int s = 0;
        for (int r = 0; r < size; r++)
            s += val(r, rank);
        expect(kind, 0, s);
    } else if ((!strcmp(kind, "gather") || !strcmp(kind, "gatherv")) && rank == 0) {
        for (int r = 0; r < size; r++)
            expect(kind, r, val(r, 0));
    } else if (!strcmp(kind, "scatter") || !strcmp(kind, "scatterv")) {
        expect(kind, 0, val(0, rank));
    } else if (!strcmp(kind, "allgather") || !strcmp(kind, "allgatherv")) {
        for (int r = 0; r < size; r++)
            expect(kind, r, val(r, 0));
    } else if (!strncmp(kind, "alltoall", 8)) {
        for (int r = 0; r < size; r++)
            expect(kind, r, val(r, rank));
    } else if (!strcmp(kind, "neighbor_allgather") || !strcmp(kind, "neighbor_allgatherv")) {
        expect(kind, 0, val(left, 0));
        expect(kind, 1, val(right, 0));
    } else if (!strncmp(kind, "neighbor_alltoall", 17)) {
        /* Block 0 goes to the left neighbour, block 1 to the right one. */
        expect(kind, 0, val(left, 1));
        expect(kind, 1, val(right, 0));
    }
}

static const char *const kinds[] = {
    "barrier",
    "bcast",
    "reduce",
    "allreduce",
    "scan",
    "exscan",
    "reduce_scatter",
    "reduce_scatter_block",
    "gather",
    "gatherv",
    "scatter",
    "scatterv",
    "allgather",
    "allgatherv",
    "alltoall",
    "alltoallv",
    "alltoallw",
    "neighbor_allgather",
    "neighbor_allgatherv",
    "neighbor_alltoall",
    "neighbor_alltoallv",
    "neighbor_alltoallw",
};

/* inout = in + inout on pairs of ints. */
static void add_pairs(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    for (int i = 0; i < 2 * *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void freed_after_init(void) {
    MPI_Datatype pair;
    MPI_Op op;
    MPI_Request rq;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(add_pairs, 1, &op);
    int in[2], out[2];
    MPI_Allreduce_init(in, out, 1, pair, op, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    MPI_Type_free(&pair);
    MPI_Op_free(&op);
    int ok = 1;
    for (round_ = 0; round_ < 2; round_++) {
        in[0] = val(rank, 0);
        in[1] = val(rank, 1);
        MPI_Start(&rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        for (int i = 0; i < 2; i++) {
            int s = 0;
            for (int r = 0; r < size; r++)
                s += val(r, i);
            ok &= out[i] == s;
        }
    }
    MPI_Request_free(&rq);
    /* An Alltoallw_init whose types (one per rank) are a derived type freed
     * at once. */
    MPI_Datatype one_int, ts[MAXN];
    MPI_Type_contiguous(1, MPI_INT, &one_int);
    MPI_Type_commit(&one_int);
    for (int r = 0; r < size; r++)
        ts[r] = one_int;
    MPI_Alltoallw_init(sbuf, counts, bdispls, ts, rbuf, counts, bdispls, ts, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &rq);
    MPI_Type_free(&one_int);
    round_ = 5;
    fill();
    MPI_Start(&rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Request_free(&rq);
    for (int r = 0; r < size; r++)
        ok &= rbuf[r] == val(r, rank);
    printf("rank %d: freed %s\n", rank, ok ? "ok" : "WRONG");
}

static void one(const char *kind, MPI_Comm ring) {
    MPI_Request rq[2];
    MPI_Status st[2];
    bad = 0;
    round_ = 0;
    fill();
    make(kind, MPI_COMM_WORLD, ring, &rq[0]);
    for (round_ = 0; round_ < ROUNDS; round_++) {
        fill(); /* the data may change between starts, the arguments not */
        if (round_ == 0) {
            MPI_Start(&rq[0]);
            MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        } else {
            /* With a barrier started second: both complete in Waitall. */
            MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]);
            MPI_Startall(2, rq);
            MPI_Waitall(2, rq, st);
            MPI_Request_free(&rq[1]);
        }
        check(kind);
    }
    MPI_Request_free(&rq[0]);
    if (rq[0] != MPI_REQUEST_NULL)
        printf("rank %d: %s: MPI_Request_free left the handle set\n", rank, kind);
    else if (!bad)
        printf("rank %d: %s ok\n", rank, kind);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAXN) {
        if (rank == 0)
            fprintf(stderr, "at most %d ranks\n", MAXN);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < MAXN; i++) {
        counts[i] = 1;
        displs[i] = i;
        bdispls[i] = i * (int)sizeof(int);
        abdispls[i] = i * (MPI_Aint)sizeof(int);
        types[i] = MPI_INT;
    }
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    const char *what = argc > 1 ? argv[1] : "all";
    if (!strcmp(what, "mix")) {
        MPI_Request rq;
        sbuf[0] = 7;
        if (rank == 0) {
            MPI_Bcast_init(sbuf, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
            MPI_Start(&rq); // [P:mix]
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            MPI_Request_free(&rq);
        } else {
            MPI_Bcast(sbuf, 1, MPI_INT, 0, MPI_COMM_WORLD); // [B:mix]
        }
    } else if (!strcmp(what, "leak")) {
        MPI_Request rq;
        MPI_Info in = MPI_INFO_NULL;
        MPI_Allreduce_init(sbuf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, in, &rq); // [L:leak]
        MPI_Start(&rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (!strcmp(what, "freed")) {
        freed_after_init();
    } else if (!strcmp(what, "restart")) {
        MPI_Request rq;
        MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
        MPI_Start(&rq);
        MPI_Start(&rq); // [R:restart]
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Request_free(&rq);
    } else {
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            int chosen = argc < 2;
            for (int a = 1; a < argc; a++)
                chosen |= !strcmp(argv[a], kinds[k]);
            if (chosen)
                one(kinds[k], ring);
        }
    }
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
