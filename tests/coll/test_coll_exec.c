/*
 * test_coll_exec.c - unit tests of the data movement of collectives
 * (simulator/coll_exec.c) on a fake communicator whose members' buffers
 * are local arrays: exact results, MPI_IN_PLACE, displacements, reduction
 * order, and the cross-rank consistency errors.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/op.h"

#define N 4 /* members of the fake communicator */

static sim_comm fake_comm;
static sim_coll coll;
static sim_coll_args args[N];
static int err_rank;
static char *why;

/* Starts a collective of `kind` on a communicator of n members. */
static void setup(sim_coll_kind kind, int n) {
    memset(&fake_comm, 0, sizeof fake_comm);
    fake_comm.size = n;
    memset(&coll, 0, sizeof coll);
    coll.comm = &fake_comm;
    coll.kind = kind;
    coll.arrived = n;
    coll.args = args;
    memset(args, 0, sizeof args);
    for (int r = 0; r < N; r++) {
        args[r].sendtype = args[r].recvtype = MPI_DATATYPE_NULL;
        args[r].op = MPI_OP_NULL;
    }
    err_rank = -1;
    g_free(why);
    why = NULL;
}

static int run(void) {
    int rc = sim_coll_exec_data(&coll, &err_rank, &why);
    if (rc != MPI_SUCCESS && why)
        printf("\n      (reported: %s) ", why);
    return rc;
}

/* Fills the reduction arguments of rank r. */
static void reduction(int r, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                      MPI_Op op, int root) {
    args[r].sendbuf = sendbuf;
    args[r].recvbuf = recvbuf;
    args[r].sendcount = args[r].recvcount = count;
    args[r].sendtype = args[r].recvtype = type;
    args[r].op = op;
    args[r].root = root;
}

static void typed(int r, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root) {
    args[r].sendbuf = sendbuf;
    args[r].sendcount = sendcount;
    args[r].sendtype = sendtype;
    args[r].recvbuf = recvbuf;
    args[r].recvcount = recvcount;
    args[r].recvtype = recvtype;
    args[r].root = root;
}

static MPI_Datatype commit(MPI_Datatype t) {
    char *w = NULL;
    CU_ASSERT_EQUAL(sim_dt_commit(0, t, &w), MPI_SUCCESS);
    g_free(w);
    return t;
}

/* ---------------------------------------------------------------------- */

static void test_names(void) {
    CU_ASSERT_STRING_EQUAL(sim_coll_name(SIM_COLL_BCAST), "MPI_Bcast");
    CU_ASSERT_STRING_EQUAL(sim_coll_name(SIM_COLL_REDUCE_SCATTER_BLOCK),
                           "MPI_Reduce_scatter_block");
    CU_ASSERT_STRING_EQUAL(sim_coll_name(SIM_COLL_CART_CREATE), "MPI_Cart_create");
    CU_ASSERT_STRING_EQUAL(sim_coll_name(SIM_COLL_KIND_COUNT), "an unknown collective");
}

static void test_barrier_and_non_data(void) {
    setup(SIM_COLL_BARRIER, N);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    setup(SIM_COLL_COMM_DUP, N);
    CU_ASSERT_EQUAL(run(), MPI_ERR_INTERN);
}

static void test_bcast(void) {
    int buf[N][3] = {{0}};
    for (int i = 0; i < 3; i++)
        buf[2][i] = 100 + i;
    /* Rank 3 receives the same three ints as one contiguous element. */
    MPI_Datatype c3;
    char *w = NULL;
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_contiguous(0, 3, MPI_INT, &c3, &w), MPI_SUCCESS);
    commit(c3);
    setup(SIM_COLL_BCAST, N);
    for (int r = 0; r < N; r++)
        typed(r, buf[r], 3, MPI_INT, buf[r], 3, MPI_INT, 2);
    args[3].sendcount = args[3].recvcount = 1;
    args[3].sendtype = args[3].recvtype = c3;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++)
        for (int i = 0; i < 3; i++)
            CU_ASSERT_EQUAL(buf[r][i], 100 + i);
    g_free(w);
}

static void test_bcast_errors(void) {
    int buf[N][2] = {{1, 2}};
    setup(SIM_COLL_BCAST, N);
    for (int r = 0; r < N; r++)
        typed(r, buf[r], 2, MPI_INT, buf[r], 2, MPI_INT, 0);
    args[2].recvcount = args[2].sendcount = 1;
    CU_ASSERT_EQUAL(run(), MPI_ERR_TRUNCATE);
    CU_ASSERT_EQUAL(err_rank, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "MPI_Bcast: rank 2 receives 4 bytes"));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "root 0 sends 8 bytes"));
    CU_ASSERT_EQUAL(buf[1][0], 0); /* nothing delivered on error */

    /* Same size, different basic type. */
    setup(SIM_COLL_BCAST, N);
    for (int r = 0; r < N; r++)
        typed(r, buf[r], 2, MPI_INT, buf[r], 2, MPI_INT, 0);
    args[1].recvtype = args[1].sendtype = MPI_FLOAT;
    CU_ASSERT_EQUAL(run(), MPI_ERR_TYPE);
    CU_ASSERT_EQUAL(err_rank, 1);
    CU_ASSERT_PTR_NOT_NULL(why ? strstr(why, "MPI_FLOAT") : NULL);
}

struct dint {
    double v;
    int i;
};

static void test_reduce(void) {
    int in[N][2], out[N][2];
    for (int r = 0; r < N; r++) {
        in[r][0] = r + 1;
        in[r][1] = 10 * (r + 1);
        out[r][0] = out[r][1] = -1;
    }
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, in[r], out[r], 2, MPI_INT, MPI_SUM, 1);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(out[1][0] == 10 && out[1][1] == 100);
    CU_ASSERT(out[0][0] == -1 && out[2][0] == -1 && out[3][1] == -1); /* only the root */

    /* In place at the root. */
    out[3][0] = in[3][0];
    out[3][1] = in[3][1];
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, in[r], out[r], 2, MPI_INT, MPI_SUM, 3);
    args[3].sendbuf = MPI_IN_PLACE;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(out[3][0] == 10 && out[3][1] == 100);

    /* Rank 2 describes its two ints as one contiguous element: same signature. */
    MPI_Datatype c2;
    char *w = NULL;
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_contiguous(0, 2, MPI_INT, &c2, &w), MPI_SUCCESS);
    commit(c2);
    setup(SIM_COLL_ALLREDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, in[r], out[r], r == 2 ? 1 : 2, r == 2 ? c2 : MPI_INT, MPI_PROD, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++)
        CU_ASSERT(out[r][0] == 24 && out[r][1] == 240000);
    g_free(w);

    double d[N] = {1.5, -3.0, 7.25, 7.0}, dmax = 0;
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, &d[r], &dmax, 1, MPI_DOUBLE, MPI_MAX, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(dmax, 7.25);

    /* MAXLOC on MPI_DOUBLE_INT: ties go to the lower index. */
    struct dint p[N] = {{2.0, 0}, {9.0, 1}, {9.0, 2}, {-1.0, 3}}, best = {0, -1};
    struct dint low = {0, -1};
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, &p[r], &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 2);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(best.v == 9.0 && best.i == 1);
    p[0].v = -1.0;
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, &p[r], &low, 1, MPI_DOUBLE_INT, MPI_MINLOC, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(low.v == -1.0 && low.i == 0);
}

/* Decimal concatenation: associative, not commutative, so the result
 * spells the order of the operands. */
static int op_calls;
static void concat_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
    op_calls++;
    const long *a = in;
    long *b = inout;
    for (int i = 0; i < *len; i++) {
        long scale = 1;
        for (long x = b[i]; x > 0; x /= 10)
            scale *= 10;
        b[i] = a[i] * scale + b[i];
    }
}

static void test_allreduce_noncommutative(void) {
    MPI_Op op = sim_op_create(concat_fn, false);
    long in[N][2], out[N][2];
    for (int r = 0; r < N; r++) {
        in[r][0] = r + 1;
        in[r][1] = 9 - r;
    }
    setup(SIM_COLL_ALLREDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, in[r], out[r], 2, MPI_LONG, op, 0);
    op_calls = 0;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(op_calls, N - 1);
    for (int r = 0; r < N; r++) {
        CU_ASSERT_EQUAL(out[r][0], 1234);
        CU_ASSERT_EQUAL(out[r][1], 9876);
    }

    /* In place everywhere. */
    setup(SIM_COLL_ALLREDUCE, N);
    for (int r = 0; r < N; r++) {
        out[r][0] = 4 - r;
        out[r][1] = 5 + r;
        reduction(r, MPI_IN_PLACE, out[r], 2, MPI_LONG, op, 0);
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++) {
        CU_ASSERT_EQUAL(out[r][0], 4321);
        CU_ASSERT_EQUAL(out[r][1], 5678);
    }
    CU_ASSERT_TRUE(sim_op_free(op));
}

static void test_gather_scatter(void) {
    int send[N][2], recv[2 * N];
    for (int r = 0; r < N; r++) {
        send[r][0] = 10 * r;
        send[r][1] = 10 * r + 1;
    }
    memset(recv, 0, sizeof recv);
    recv[2] = 77; /* the root's own block, in place */
    recv[3] = 78;
    setup(SIM_COLL_GATHER, N);
    for (int r = 0; r < N; r++)
        typed(r, send[r], 2, MPI_INT, r == 1 ? recv : NULL, 2, MPI_INT, 1);
    args[1].sendbuf = MPI_IN_PLACE;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    int expect[2 * N] = {0, 1, 77, 78, 20, 21, 30, 31};
    CU_ASSERT_EQUAL(memcmp(recv, expect, sizeof expect), 0);

    /* Scatter from root 0, in place at the root. */
    int src[2 * N] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[N][2];
    memset(dst, 0, sizeof dst);
    setup(SIM_COLL_SCATTER, N);
    for (int r = 0; r < N; r++)
        typed(r, r == 0 ? src : NULL, 2, MPI_INT, dst[r], 2, MPI_INT, 0);
    args[0].recvbuf = MPI_IN_PLACE;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(dst[0][0] == 0 && dst[0][1] == 0);
    for (int r = 1; r < N; r++)
        CU_ASSERT(dst[r][0] == 2 * r + 1 && dst[r][1] == 2 * r + 2);

    /* A mismatched sender is blamed. */
    setup(SIM_COLL_GATHER, N);
    for (int r = 0; r < N; r++)
        typed(r, send[r], 2, MPI_INT, r == 0 ? recv : NULL, 2, MPI_INT, 0);
    args[3].sendcount = 3;
    CU_ASSERT_EQUAL(run(), MPI_ERR_TRUNCATE);
    CU_ASSERT_EQUAL(err_rank, 3);
    CU_ASSERT_PTR_NOT_NULL(why ? strstr(why, "root 0 receives 8 bytes") : NULL);

    /* MPI_IN_PLACE is the root's privilege. */
    setup(SIM_COLL_GATHER, N);
    for (int r = 0; r < N; r++)
        typed(r, send[r], 2, MPI_INT, r == 0 ? recv : NULL, 2, MPI_INT, 0);
    args[2].sendbuf = MPI_IN_PLACE;
    CU_ASSERT_EQUAL(run(), MPI_ERR_BUFFER);
    CU_ASSERT_EQUAL(err_rank, 2);
}

static void test_v_variants(void) {
    /* Gatherv at root 2 into reversed, gapped blocks; a strided receive
     * type for good measure is not needed: displacements are the point. */
    int send[N][3];
    for (int r = 0; r < N; r++)
        for (int i = 0; i < 3; i++)
            send[r][i] = 100 * r + i;
    int counts[N] = {1, 2, 0, 3}, displs[N] = {10, 6, 0, 1};
    int recv[12];
    for (int i = 0; i < 12; i++)
        recv[i] = -1;
    setup(SIM_COLL_GATHERV, N);
    for (int r = 0; r < N; r++)
        typed(r, send[r], counts[r], MPI_INT, r == 2 ? recv : NULL, 0, MPI_INT, 2);
    args[2].recvcounts = counts;
    args[2].rdispls = displs;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    int expect[12] = {-1, 300, 301, 302, -1, -1, 100, 101, -1, -1, 0, -1};
    CU_ASSERT_EQUAL(memcmp(recv, expect, sizeof expect), 0);

    /* Scatterv back out of `expect`. */
    int got[N][3];
    memset(got, 0, sizeof got);
    setup(SIM_COLL_SCATTERV, N);
    for (int r = 0; r < N; r++)
        typed(r, r == 0 ? expect : NULL, 0, MPI_INT, got[r], counts[r], MPI_INT, 0);
    args[0].sendcounts = counts;
    args[0].sdispls = displs;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(got[0][0], 0);
    CU_ASSERT(got[1][0] == 100 && got[1][1] == 101);
    CU_ASSERT(got[3][0] == 300 && got[3][1] == 301 && got[3][2] == 302);
    CU_ASSERT_EQUAL(got[2][0], 0);

    /* Allgatherv with each rank's own displacements, in place. */
    int all[N][8];
    int ac[N] = {2, 1, 1, 2}, ad[N] = {6, 0, 4, 1};
    for (int r = 0; r < N; r++) {
        for (int i = 0; i < 8; i++)
            all[r][i] = -1;
        for (int i = 0; i < ac[r]; i++)
            all[r][ad[r] + i] = 10 * r + i;
    }
    setup(SIM_COLL_ALLGATHERV, N);
    for (int r = 0; r < N; r++) {
        typed(r, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all[r], 0, MPI_INT, 0);
        args[r].recvcounts = ac;
        args[r].rdispls = ad;
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    int ag[8] = {10, 30, 31, -1, 20, -1, 0, 1};
    for (int r = 0; r < N; r++)
        CU_ASSERT_EQUAL(memcmp(all[r], ag, sizeof ag), 0);
}

static void test_allgather(void) {
    int send[N], recv[N][N];
    for (int r = 0; r < N; r++) {
        send[r] = r * r;
        for (int i = 0; i < N; i++)
            recv[r][i] = -1;
    }
    setup(SIM_COLL_ALLGATHER, N);
    for (int r = 0; r < N; r++)
        typed(r, &send[r], 1, MPI_INT, recv[r], 1, MPI_INT, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++)
        for (int i = 0; i < N; i++)
            CU_ASSERT_EQUAL(recv[r][i], i * i);

    /* Mixing MPI_IN_PLACE is an error (all or none). */
    setup(SIM_COLL_ALLGATHER, N);
    for (int r = 0; r < N; r++)
        typed(r, &send[r], 1, MPI_INT, recv[r], 1, MPI_INT, 0);
    args[2].sendbuf = MPI_IN_PLACE;
    CU_ASSERT_EQUAL(run(), MPI_ERR_BUFFER);
    CU_ASSERT_EQUAL(err_rank, 2);

    /* Rank 1 sends two ints where everyone expects one: rank 1 is blamed. */
    int two[2] = {5, 6};
    setup(SIM_COLL_ALLGATHER, N);
    for (int r = 0; r < N; r++)
        typed(r, &send[r], 1, MPI_INT, recv[r], 1, MPI_INT, 0);
    args[1].sendbuf = two;
    args[1].sendcount = 2;
    CU_ASSERT_EQUAL(run(), MPI_ERR_TRUNCATE);
    CU_ASSERT_EQUAL(err_rank, 1);
}

static void test_alltoall(void) {
    int send[N][N], recv[N][N];
    for (int r = 0; r < N; r++)
        for (int i = 0; i < N; i++) {
            send[r][i] = 10 * r + i;
            recv[r][i] = -1;
        }
    setup(SIM_COLL_ALLTOALL, N);
    for (int r = 0; r < N; r++)
        typed(r, send[r], 1, MPI_INT, recv[r], 1, MPI_INT, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++)
        for (int i = 0; i < N; i++)
            CU_ASSERT_EQUAL(recv[r][i], 10 * i + r);

    /* In place: the same transpose inside recv. */
    setup(SIM_COLL_ALLTOALL, N);
    for (int r = 0; r < N; r++)
        typed(r, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv[r], 1, MPI_INT, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++)
        for (int i = 0; i < N; i++)
            CU_ASSERT_EQUAL(recv[r][i], 10 * r + i);

    /* Alltoallv: rank s sends s+1 ints to everyone, from displacement d*(s+1). */
    int vs[N][16], vr[N][16], sc[N][N], sd[N][N], rc[N][N], rd[N][N];
    for (int s = 0; s < N; s++)
        for (int d = 0; d < N; d++) {
            sc[s][d] = s + 1;
            sd[s][d] = d * (s + 1);
            rc[d][s] = s + 1;
            rd[d][s] = s * (s + 1) / 2; /* packed in source order */
        }
    for (int s = 0; s < N; s++)
        for (int i = 0; i < 16; i++) {
            vs[s][i] = 100 * s + i;
            vr[s][i] = -1;
        }
    setup(SIM_COLL_ALLTOALLV, N);
    for (int r = 0; r < N; r++) {
        typed(r, vs[r], 0, MPI_INT, vr[r], 0, MPI_INT, 0);
        args[r].sendcounts = sc[r];
        args[r].sdispls = sd[r];
        args[r].recvcounts = rc[r];
        args[r].rdispls = rd[r];
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int d = 0; d < N; d++)
        for (int s = 0; s < N; s++)
            for (int k = 0; k <= s; k++)
                CU_ASSERT_EQUAL(vr[d][rd[d][s] + k], 100 * s + d * (s + 1) + k);
    CU_ASSERT_EQUAL(vr[0][10], -1); /* 1+2+3+4 = 10 ints written */
}

/* Alltoallw with two members and byte displacements: each sends its
 * double to rank 0 and its int to rank 1, out of a struct. */
struct id {
    int i;
    double d;
};

static void alltoallw_setup(struct id *sbuf, double *r0, int *r1, const MPI_Datatype rtype[2][2]) {
    static int cnt[2] = {1, 1};
    static int sdis[2] = {offsetof(struct id, d), offsetof(struct id, i)};
    static MPI_Datatype stype[2] = {MPI_DOUBLE, MPI_INT};
    static int rdis[2][2] = {{0, sizeof(double)}, {0, sizeof(int)}};
    setup(SIM_COLL_ALLTOALLW, 2);
    for (int r = 0; r < 2; r++) {
        args[r].sendbuf = &sbuf[r];
        args[r].sendcounts = cnt;
        args[r].sdispls = sdis;
        args[r].sendtypes = stype;
        args[r].recvbuf = r == 0 ? (void *)r0 : (void *)r1;
        args[r].recvcounts = cnt;
        args[r].rdispls = rdis[r];
        args[r].recvtypes = rtype[r];
    }
}

static void test_alltoallw(void) {
    struct id sbuf[2] = {{7, 0.5}, {8, 1.5}};
    double r0[2] = {0, 0};
    int r1[2] = {0, 0};
    MPI_Datatype rtype[2][2] = {{MPI_DOUBLE, MPI_DOUBLE}, {MPI_INT, MPI_INT}};
    alltoallw_setup(sbuf, r0, r1, rtype);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(r0[0], 0.5); /* rank 0's double, to itself */
    CU_ASSERT_EQUAL(r0[1], 1.5); /* rank 1's double */
    CU_ASSERT_EQUAL(r1[0], 7);   /* rank 0's int */
    CU_ASSERT_EQUAL(r1[1], 8);   /* rank 1's int, to itself */

    /* Rank 1 expects a float from rank 0, which sends an int. */
    rtype[1][0] = MPI_FLOAT;
    alltoallw_setup(sbuf, r0, r1, rtype);
    CU_ASSERT_EQUAL(run(), MPI_ERR_TYPE);
    CU_ASSERT_EQUAL(err_rank, 1);
}

static void test_scan_exscan(void) {
    int in[N] = {1, 2, 3, 4}, out[N];
    for (int r = 0; r < N; r++)
        out[r] = -7;
    setup(SIM_COLL_SCAN, N);
    for (int r = 0; r < N; r++)
        reduction(r, &in[r], &out[r], 1, MPI_INT, MPI_SUM, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(out[0] == 1 && out[1] == 3 && out[2] == 6 && out[3] == 10);

    for (int r = 0; r < N; r++)
        out[r] = -7;
    setup(SIM_COLL_EXSCAN, N);
    for (int r = 0; r < N; r++)
        reduction(r, &in[r], &out[r], 1, MPI_INT, MPI_SUM, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(out[0] == -7 && out[1] == 1 && out[2] == 3 && out[3] == 6);

    /* In place, with a non-commutative op: prefixes in rank order. */
    MPI_Op op = sim_op_create(concat_fn, false);
    long l[N] = {1, 2, 3, 4};
    setup(SIM_COLL_SCAN, N);
    for (int r = 0; r < N; r++)
        reduction(r, MPI_IN_PLACE, &l[r], 1, MPI_LONG, op, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(l[0] == 1 && l[1] == 12 && l[2] == 123 && l[3] == 1234);

    long e[N] = {5, 6, 7, 8};
    setup(SIM_COLL_EXSCAN, N);
    for (int r = 0; r < N; r++)
        reduction(r, MPI_IN_PLACE, &e[r], 1, MPI_LONG, op, 0);
    op_calls = 0;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT(e[0] == 5 && e[1] == 5 && e[2] == 56 && e[3] == 567);
    CU_ASSERT_EQUAL(op_calls, N - 2); /* the full reduction is never needed */
    CU_ASSERT_TRUE(sim_op_free(op));
}

static void test_reduce_scatter(void) {
    int counts[N] = {1, 2, 0, 3};
    int in[N][6], out[N][3];
    for (int r = 0; r < N; r++) {
        for (int i = 0; i < 6; i++)
            in[r][i] = (r + 1) * (i + 1);
        out[r][0] = out[r][1] = out[r][2] = -1;
    }
    setup(SIM_COLL_REDUCE_SCATTER, N);
    for (int r = 0; r < N; r++) {
        reduction(r, in[r], out[r], 0, MPI_INT, MPI_SUM, 0);
        args[r].recvcounts = counts;
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    /* sum over ranks of (r+1)*(i+1) = 10*(i+1) */
    CU_ASSERT_EQUAL(out[0][0], 10);
    CU_ASSERT(out[1][0] == 20 && out[1][1] == 30);
    CU_ASSERT_EQUAL(out[2][0], -1);
    CU_ASSERT(out[3][0] == 40 && out[3][1] == 50 && out[3][2] == 60);

    /* Block variant, in place on every rank. */
    int blk[N][2 * N];
    for (int r = 0; r < N; r++)
        for (int i = 0; i < 2 * N; i++)
            blk[r][i] = r == 0 ? i : 0;
    setup(SIM_COLL_REDUCE_SCATTER_BLOCK, N);
    for (int r = 0; r < N; r++) {
        reduction(r, MPI_IN_PLACE, blk[r], 0, MPI_INT, MPI_MAX, 0);
        args[r].recvcount = 2;
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++)
        CU_ASSERT(blk[r][0] == 2 * r && blk[r][1] == 2 * r + 1);

    /* recvcounts must agree. */
    int other[N] = {1, 2, 1, 2};
    setup(SIM_COLL_REDUCE_SCATTER, N);
    for (int r = 0; r < N; r++) {
        reduction(r, in[r], out[r], 0, MPI_INT, MPI_SUM, 0);
        args[r].recvcounts = r == 3 ? other : counts;
    }
    CU_ASSERT_EQUAL(run(), MPI_ERR_COUNT);
    CU_ASSERT_EQUAL(err_rank, 3);
}

static void test_reduction_errors(void) {
    double d[N] = {1, 2, 3, 4}, out = 0;
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, &d[r], &out, 1, MPI_DOUBLE, MPI_BAND, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_OP);
    CU_ASSERT_PTR_NOT_NULL(why ? strstr(why, "MPI_BAND") : NULL);
    CU_ASSERT_PTR_NOT_NULL(why ? strstr(why, "MPI_DOUBLE") : NULL);
    CU_ASSERT_EQUAL(out, 0);

    /* Different ops. */
    setup(SIM_COLL_ALLREDUCE, N);
    double outs[N];
    for (int r = 0; r < N; r++)
        reduction(r, &d[r], &outs[r], 1, MPI_DOUBLE, r == 2 ? MPI_MAX : MPI_SUM, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_OP);
    CU_ASSERT_EQUAL(err_rank, 2);

    /* Different counts. */
    double two[2] = {1, 2}, outs2[N][2];
    setup(SIM_COLL_ALLREDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, r == 1 ? two : &d[r], outs2[r], r == 1 ? 2 : 1, MPI_DOUBLE, MPI_SUM, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_TRUNCATE);
    CU_ASSERT_EQUAL(err_rank, 1);

    /* Same size, different type. */
    long l = 3;
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, r == 3 ? (void *)&l : (void *)&d[r], &out, 1, r == 3 ? MPI_LONG : MPI_DOUBLE,
                  MPI_SUM, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_TYPE);
    CU_ASSERT_EQUAL(err_rank, 3);

    /* MPI_BYTE does not stand in for another type in a reduction. */
    setup(SIM_COLL_REDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, &d[r], &out, r == 2 ? 8 : 1, r == 2 ? MPI_BYTE : MPI_DOUBLE, MPI_SUM, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_TYPE);
    CU_ASSERT_EQUAL(err_rank, 2);

    /* MPI_IN_PLACE at all or none in Allreduce. */
    setup(SIM_COLL_ALLREDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, r == 0 ? MPI_IN_PLACE : (void *)&d[r], &outs[r], 1, MPI_DOUBLE, MPI_SUM, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_BUFFER);
    CU_ASSERT_EQUAL(err_rank, 1);

    /* MPI_REPLACE belongs to RMA. */
    setup(SIM_COLL_ALLREDUCE, N);
    for (int r = 0; r < N; r++)
        reduction(r, &d[r], &outs[r], 1, MPI_DOUBLE, MPI_REPLACE, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_OP);
}

/* A root receiving with a strided type: gather into every other int. */
static void test_derived_gather(void) {
    MPI_Datatype vec, res;
    char *w = NULL;
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_vector(0, 2, 1, 2, MPI_INT, &vec, &w), MPI_SUCCESS);
    /* Resize to 4 ints so that blocks of consecutive ranks interleave cleanly. */
    CU_ASSERT_EQUAL_FATAL(sim_dt_create_resized(0, vec, 0, 4 * sizeof(int), &res, &w), MPI_SUCCESS);
    commit(res);
    int send[N][2], recv[4 * N];
    for (int r = 0; r < N; r++) {
        send[r][0] = r;
        send[r][1] = -r;
    }
    for (int i = 0; i < 4 * N; i++)
        recv[i] = 99;
    setup(SIM_COLL_GATHER, N);
    for (int r = 0; r < N; r++)
        typed(r, send[r], 2, MPI_INT, r == 0 ? recv : NULL, 1, res, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < N; r++) {
        CU_ASSERT_EQUAL(recv[4 * r], r);
        CU_ASSERT_EQUAL(recv[4 * r + 1], 99);
        CU_ASSERT_EQUAL(recv[4 * r + 2], -r);
        CU_ASSERT_EQUAL(recv[4 * r + 3], 99);
    }
    g_free(w);
}

/* ---------------------------------------------------------------------- */
/* Neighbourhood collectives                                               */

/* Gives the fake communicator a distributed graph: out[r] and in[r] with
 * n[r] and m[r] entries (static storage). */
static sim_dist_adj adj[N];
static void dist_graph(const int *nout, int out[][4], const int *nin, int in[][4]) {
    for (int r = 0; r < fake_comm.size; r++) {
        adj[r] = (sim_dist_adj){nin[r], nout[r], in[r], NULL, out[r], NULL};
    }
    fake_comm.adj = adj;
}

static void test_neighbor_dist_graph(void) {
    /* Rank 0 sends twice to rank 1 and once to itself; rank 1 receives
     * twice from rank 0, rank 0 once from itself: edges match in order. */
    setup(SIM_COLL_NEIGHBOR_ALLTOALL, 2);
    int nout[2] = {3, 0}, nin[2] = {1, 2};
    int out[2][4] = {{1, 0, 1}, {0}}, in[2][4] = {{0}, {0, 0}};
    dist_graph(nout, out, nin, in);
    int s0[3] = {5, 6, 7}, r0[1] = {-1}, r1[2] = {-1, -1};
    typed(0, s0, 1, MPI_INT, r0, 1, MPI_INT, -1);
    typed(1, NULL, 1, MPI_INT, r1, 1, MPI_INT, -1);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(r0[0], 6);
    CU_ASSERT_EQUAL(r1[0], 5);
    CU_ASSERT_EQUAL(r1[1], 7);

    /* Allgatherv: the in-neighbours' data at their displacements. */
    setup(SIM_COLL_NEIGHBOR_ALLGATHERV, 2);
    dist_graph(nout, out, nin, in);
    int v0[2] = {40, 41}, got1[6] = {0, 0, 0, 0, 0, 0}, got0[2] = {0, 0};
    int rc1[2] = {2, 2}, rd1[2] = {3, 0}, rc0[1] = {2}, rd0[1] = {0};
    typed(0, v0, 2, MPI_INT, got0, 0, MPI_INT, -1);
    args[0].recvcounts = rc0;
    args[0].rdispls = rd0;
    typed(1, NULL, 0, MPI_INT, got1, 0, MPI_INT, -1);
    args[1].recvcounts = rc1;
    args[1].rdispls = rd1;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(got1[0], 40);
    CU_ASSERT_EQUAL(got1[1], 41);
    CU_ASSERT_EQUAL(got1[3], 40);
    CU_ASSERT_EQUAL(got1[4], 41);
    CU_ASSERT_EQUAL(got1[2], 0);
    CU_ASSERT_EQUAL(got0[1], 41);

    /* An edge its destination does not list: an error at its source. */
    setup(SIM_COLL_NEIGHBOR_ALLGATHER, 2);
    int bout[2] = {1, 0}, bin[2] = {0, 0};
    int bo[2][4] = {{1}, {0}}, bi[2][4] = {{0}, {0}};
    dist_graph(bout, bo, bin, bi);
    int x = 1, y = 0;
    typed(0, &x, 1, MPI_INT, &y, 1, MPI_INT, -1);
    typed(1, &x, 1, MPI_INT, &y, 1, MPI_INT, -1);
    CU_ASSERT_EQUAL(run(), MPI_ERR_TOPOLOGY);
    CU_ASSERT_EQUAL(err_rank, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "rank 1 does not have rank 0 among its"));
    /* Mismatched sizes, as in any collective. */
    setup(SIM_COLL_NEIGHBOR_ALLTOALL, 2);
    dist_graph(nout, out, nin, in);
    typed(0, s0, 1, MPI_INT, r0, 1, MPI_INT, -1);
    typed(1, NULL, 1, MPI_INT, r1, 2, MPI_INT, -1);
    CU_ASSERT_EQUAL(run(), MPI_ERR_TRUNCATE);
    CU_ASSERT_EQUAL(err_rank, 1);
    fake_comm.adj = NULL;
}

static void test_neighbor_cart(void) {
    /* A periodic ring of two: each is the other's neighbour both ways.
     * What goes in the negative direction arrives in the positive slot. */
    setup(SIM_COLL_NEIGHBOR_ALLTOALL, 2);
    int dims[1] = {2}, periods[1] = {1};
    fake_comm.cart = true;
    fake_comm.ndims = 1;
    fake_comm.dims = dims;
    fake_comm.periods = periods;
    int s0[2] = {0, 1}, s1[2] = {10, 11}, r0[2] = {-1, -1}, r1[2] = {-1, -1};
    typed(0, s0, 1, MPI_INT, r0, 1, MPI_INT, -1);
    typed(1, s1, 1, MPI_INT, r1, 1, MPI_INT, -1);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(r0[0], 11);
    CU_ASSERT_EQUAL(r0[1], 10);
    CU_ASSERT_EQUAL(r1[0], 1);
    CU_ASSERT_EQUAL(r1[1], 0);
    /* Without wrap-around: the border slots stay as they were. */
    setup(SIM_COLL_NEIGHBOR_ALLGATHER, 2);
    periods[0] = 0;
    fake_comm.cart = true;
    fake_comm.ndims = 1;
    fake_comm.dims = dims;
    fake_comm.periods = periods;
    int a = 7, b = 8;
    r0[0] = r0[1] = r1[0] = r1[1] = -1;
    typed(0, &a, 1, MPI_INT, r0, 1, MPI_INT, -1);
    typed(1, &b, 1, MPI_INT, r1, 1, MPI_INT, -1);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(r0[0], -1);
    CU_ASSERT_EQUAL(r0[1], 8);
    CU_ASSERT_EQUAL(r1[0], 7);
    CU_ASSERT_EQUAL(r1[1], -1);
    fake_comm.cart = false;
}

int main(void) {
    sim_dt_init();
    sim_op_init();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("coll_exec", NULL, NULL);
    CU_add_test(s, "names", test_names);
    CU_add_test(s, "barrier and non-data kinds", test_barrier_and_non_data);
    CU_add_test(s, "bcast", test_bcast);
    CU_add_test(s, "bcast errors", test_bcast_errors);
    CU_add_test(s, "reduce SUM/MAX/MAXLOC, in place", test_reduce);
    CU_add_test(s, "allreduce, non-commutative user op", test_allreduce_noncommutative);
    CU_add_test(s, "gather/scatter, in place, errors", test_gather_scatter);
    CU_add_test(s, "gatherv/scatterv/allgatherv", test_v_variants);
    CU_add_test(s, "allgather", test_allgather);
    CU_add_test(s, "alltoall/alltoallv", test_alltoall);
    CU_add_test(s, "alltoallw", test_alltoallw);
    CU_add_test(s, "scan/exscan", test_scan_exscan);
    CU_add_test(s, "reduce_scatter(_block)", test_reduce_scatter);
    CU_add_test(s, "reduction errors", test_reduction_errors);
    CU_add_test(s, "derived receive type", test_derived_gather);
    CU_add_test(s, "neighbourhood collectives on a distributed graph", test_neighbor_dist_graph);
    CU_add_test(s, "neighbourhood collectives on a grid", test_neighbor_cart);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    g_free(why);
    sim_op_fini();
    sim_dt_fini();
    return failed ? 1 : 0;
}
