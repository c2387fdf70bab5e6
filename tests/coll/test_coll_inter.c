/*
 * test_coll_inter.c - unit tests of the collectives on intercommunicators
 * (simulator/coll_inter_exec.c) on a real intercommunicator of the comm
 * module: group A is world ranks {3, 0}, group B {4, 2, 1}, so that in the
 * communicator both groups meet on ("both") ranks 0-1 are A's and 2-4 B's.
 * Exact results, the root roles, the cross-group errors, split and create,
 * and the predict schedules.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/coll_inter.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/op.h"

#define P 5 /* members of both groups */

static sim_comm *side_a; /* group A's side of the intercommunicator */
static sim_coll coll;
static sim_coll_args args[P];
static MPI_Comm out[P];
static int err_rank;
static char *why;

/* A fresh intercommunicator and a collective of `kind` on its `both`. */
static void setup(sim_coll_kind kind) {
    sim_comm_fini();
    sim_comm_init(P);
    sim_comm *w = sim_comm_get(MPI_COMM_WORLD, 0);
    int a[2] = {3, 0}, b[3] = {4, 2, 1};
    side_a = sim_comm_make_inter(w, 2, g_memdup2(a, sizeof a), w, 3, g_memdup2(b, sizeof b));
    memset(&coll, 0, sizeof coll);
    coll.comm = side_a->both;
    coll.kind = kind;
    coll.arrived = P;
    coll.args = args;
    memset(args, 0, sizeof args);
    for (int r = 0; r < P; r++) {
        args[r].sendtype = args[r].recvtype = MPI_DATATYPE_NULL;
        args[r].op = MPI_OP_NULL;
        out[r] = (MPI_Comm)0x12345678;
        args[r].newcomm = &out[r];
    }
    err_rank = -2;
    g_free(why);
    why = NULL;
}

static int run(void) {
    int rc = sim_coll_inter_exec(&coll, &err_rank, &why);
    if (rc != MPI_SUCCESS && why)
        printf("\n      (reported: %s) ", why);
    return rc;
}

/* Sets member r's buffers, counts and types (MPI_INT). */
static void ints(int r, const void *sbuf, int scount, void *rbuf, int rcount, int root) {
    args[r].sendbuf = sbuf;
    args[r].sendcount = scount;
    args[r].sendtype = MPI_INT;
    args[r].recvbuf = rbuf;
    args[r].recvcount = rcount;
    args[r].recvtype = MPI_INT;
    args[r].root = root;
}

static void test_peers_and_owns(void) {
    setup(SIM_COLL_BCAST);
    CU_ASSERT_EQUAL(coll.comm->size, P);
    CU_ASSERT_EQUAL(sim_coll_inter_peers(&coll, 0), 3); /* A's members see B */
    CU_ASSERT_EQUAL(sim_coll_inter_peers(&coll, 4), 2);
    CU_ASSERT_TRUE(sim_coll_inter_owns(&coll));
    coll.kind = SIM_COLL_INTERCOMM_DUP; /* comm.c's */
    CU_ASSERT_FALSE(sim_coll_inter_owns(&coll));
    coll.comm = side_a; /* not a `both` */
    coll.kind = SIM_COLL_BCAST;
    CU_ASSERT_FALSE(sim_coll_inter_owns(&coll));
}

static void test_bcast_roles(void) {
    /* Root: B's rank 1 (both 3); A names it; B's others are bystanders. */
    setup(SIM_COLL_BCAST);
    int data[3] = {7, 8, 9}, got[2][3] = {{0}}, untouched[2] = {-1, -1};
    ints(3, data, 3, data, 3, MPI_ROOT);
    ints(2, untouched, 3, untouched, 3, MPI_PROC_NULL);
    ints(4, untouched + 1, 3, untouched + 1, 3, MPI_PROC_NULL);
    ints(0, got[0], 3, got[0], 3, 1);
    ints(1, got[1], 3, got[1], 3, 1);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 3; i++)
            CU_ASSERT_EQUAL(got[r][i], 7 + i);
    CU_ASSERT_EQUAL(untouched[0], -1);
    CU_ASSERT_EQUAL(untouched[1], -1);
}

static void test_root_errors(void) {
    int x[3] = {0};
    /* Nobody passes MPI_ROOT: every member fails. */
    setup(SIM_COLL_BCAST);
    for (int r = 0; r < P; r++)
        ints(r, x, 1, x, 1, r < 2 ? 0 : MPI_PROC_NULL);
    CU_ASSERT_EQUAL(run(), MPI_ERR_ROOT);
    CU_ASSERT_EQUAL(err_rank, -1);
    CU_ASSERT_PTR_NOT_NULL(why && strstr(why, "no member passes root = MPI_ROOT"));
    CU_ASSERT_PTR_NOT_NULL(why && strstr(why, "which passes MPI_PROC_NULL"));
    /* Two roots: the second is blamed. */
    setup(SIM_COLL_BCAST);
    for (int r = 0; r < P; r++)
        ints(r, x, 1, x, 1, r < 2 ? 0 : MPI_ROOT);
    CU_ASSERT_EQUAL(run(), MPI_ERR_ROOT);
    CU_ASSERT_EQUAL(err_rank, 3);
    CU_ASSERT_PTR_NOT_NULL(why && strstr(why, "both pass MPI_ROOT"));
    /* A names B's rank 0 but B's rank 1 is the root. */
    setup(SIM_COLL_BCAST);
    for (int r = 0; r < P; r++)
        ints(r, x, 1, x, 1, r < 2 ? 1 : MPI_PROC_NULL);
    args[0].root = 0;
    args[3].root = MPI_ROOT;
    CU_ASSERT_EQUAL(run(), MPI_ERR_ROOT);
    CU_ASSERT_EQUAL(err_rank, 0);
    CU_ASSERT_PTR_NOT_NULL(why &&
                           strstr(why, "world rank 3 (rank 0 of its group) passes root = 0"));
    /* A bystander of the root's group names a rank instead. */
    setup(SIM_COLL_BCAST);
    for (int r = 0; r < P; r++)
        ints(r, x, 1, x, 1, r < 2 ? 1 : MPI_PROC_NULL);
    args[3].root = MPI_ROOT;
    args[4].root = 0;
    CU_ASSERT_EQUAL(run(), MPI_ERR_ROOT);
    CU_ASSERT_EQUAL(err_rank, 4);
    CU_ASSERT_PTR_NOT_NULL(why && strstr(why, "it is in the root's group"));
}

static void test_gatherv(void) {
    /* B's member l sends l + 1 values to A's rank 0, blocks reversed. */
    setup(SIM_COLL_GATHERV);
    int send[3][3] = {{10}, {20, 21}, {30, 31, 32}}, recv[6] = {0};
    int counts[3] = {1, 2, 3}, displs[3] = {5, 3, 0};
    ints(0, NULL, 0, recv, 0, MPI_ROOT);
    args[0].recvcounts = counts;
    args[0].rdispls = displs;
    ints(1, NULL, 0, NULL, 0, MPI_PROC_NULL);
    for (int l = 0; l < 3; l++)
        ints(2 + l, send[l], l + 1, NULL, 0, 0);
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    int want[6] = {30, 31, 32, 20, 21, 10};
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(recv[i], want[i]);
    /* One sends a value less than the root expects. */
    setup(SIM_COLL_GATHERV);
    ints(0, NULL, 0, recv, 0, MPI_ROOT);
    args[0].recvcounts = counts;
    args[0].rdispls = displs;
    ints(1, NULL, 0, NULL, 0, MPI_PROC_NULL);
    for (int l = 0; l < 3; l++)
        ints(2 + l, send[l], l == 2 ? 2 : l + 1, NULL, 0, 0);
    CU_ASSERT_EQUAL(run(), MPI_ERR_TRUNCATE);
    CU_ASSERT_EQUAL(err_rank, 4);
}

static void test_allreduce(void) {
    /* Each group gets the sum of the other's world ranks. */
    setup(SIM_COLL_ALLREDUCE);
    const int world[P] = {3, 0, 4, 2, 1};
    int res[P];
    for (int r = 0; r < P; r++) {
        res[r] = -1;
        ints(r, &world[r], 1, &res[r], 1, 0);
        args[r].op = MPI_SUM;
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(res[0], 7);
    CU_ASSERT_EQUAL(res[1], 7);
    for (int r = 2; r < P; r++)
        CU_ASSERT_EQUAL(res[r], 3);
    /* Another op in one group. */
    args[4].op = MPI_MAX;
    CU_ASSERT_EQUAL(run(), MPI_ERR_OP);
    CU_ASSERT_EQUAL(err_rank, 4);
}

static void test_reduce_scatter(void) {
    /* Six values each; A's reduction is scattered over B by B's counts
     * (1, 2, 3), B's over A by A's (2, 4). */
    setup(SIM_COLL_REDUCE_SCATTER);
    const int world[P] = {3, 0, 4, 2, 1};
    int send[P][6], recv[P][6];
    int ca[2] = {2, 4}, cb[3] = {1, 2, 3};
    for (int r = 0; r < P; r++) {
        for (int k = 0; k < 6; k++) {
            send[r][k] = 10 * world[r] + k;
            recv[r][k] = -1;
        }
        ints(r, send[r], 0, recv[r], 0, 0);
        args[r].recvcounts = r < 2 ? ca : cb;
        args[r].op = MPI_SUM;
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    /* A's sum: 30 + 2k; B's: 70 + 3k. */
    CU_ASSERT_EQUAL(recv[0][0], 70);
    CU_ASSERT_EQUAL(recv[0][1], 73);
    CU_ASSERT_EQUAL(recv[0][2], -1);
    CU_ASSERT_EQUAL(recv[1][0], 76);
    CU_ASSERT_EQUAL(recv[1][3], 85);
    CU_ASSERT_EQUAL(recv[2][0], 30);
    CU_ASSERT_EQUAL(recv[2][1], -1);
    CU_ASSERT_EQUAL(recv[3][0], 32);
    CU_ASSERT_EQUAL(recv[3][1], 34);
    CU_ASSERT_EQUAL(recv[4][0], 36);
    CU_ASSERT_EQUAL(recv[4][2], 40);
    /* A group whose vectors are shorter: the groups must agree on n. */
    int short_b[3] = {1, 1, 2};
    for (int r = 2; r < P; r++)
        args[r].recvcounts = short_b;
    CU_ASSERT_EQUAL(run(), MPI_ERR_TRUNCATE);
    /* Two members of a group with other counts. */
    int other_a[2] = {3, 3};
    for (int r = 2; r < P; r++)
        args[r].recvcounts = cb;
    args[1].recvcounts = other_a;
    CU_ASSERT_EQUAL(run(), MPI_ERR_COUNT);
    CU_ASSERT_EQUAL(err_rank, 1);
}

static void test_alltoallv(void) {
    /* Member s sends (j + 1) values 100 * s + j to remote rank j and takes
     * (own local rank + 1) from each. */
    setup(SIM_COLL_ALLTOALLV);
    int send[P][8], recv[P][8];
    int scounts[P][3], sdispls[P][3], rcounts[P][3], rdispls[P][3];
    for (int s = 0; s < P; s++) {
        int local = s < 2 ? s : s - 2, nremote = s < 2 ? 3 : 2, at = 0;
        for (int j = 0; j < nremote; j++) {
            scounts[s][j] = j + 1;
            sdispls[s][j] = at;
            for (int k = 0; k <= j; k++)
                send[s][at + k] = 100 * s + j;
            at += j + 1;
            rcounts[s][j] = local + 1;
            rdispls[s][j] = j * (local + 1);
        }
        memset(recv[s], 0xff, sizeof recv[s]);
        ints(s, send[s], 0, recv[s], 0, 0);
        args[s].sendcounts = scounts[s];
        args[s].sdispls = sdispls[s];
        args[s].recvcounts = rcounts[s];
        args[s].rdispls = rdispls[s];
    }
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    /* B's rank 2 (both 4) gets 3 values from each of A's two. */
    CU_ASSERT_EQUAL(recv[4][0], 2);
    CU_ASSERT_EQUAL(recv[4][2], 2);
    CU_ASSERT_EQUAL(recv[4][3], 102);
    CU_ASSERT_EQUAL(recv[4][5], 102);
    /* A's rank 1 (both 1) gets 2 values from each of B's three. */
    CU_ASSERT_EQUAL(recv[1][0], 201);
    CU_ASSERT_EQUAL(recv[1][2], 301);
    CU_ASSERT_EQUAL(recv[1][5], 401);
}

static void test_scan_is_not_inter(void) {
    setup(SIM_COLL_SCAN);
    CU_ASSERT_EQUAL(run(), MPI_ERR_COMM);
    CU_ASSERT_EQUAL(err_rank, -1);
}

static void test_split(void) {
    /* Colours: A {0, 1}, B {1, undefined, 0}; keys reverse B's colour 1. */
    setup(SIM_COLL_COMM_SPLIT);
    int colors[P] = {0, 1, 1, MPI_UNDEFINED, 0};
    for (int r = 0; r < P; r++)
        args[r].color = colors[r];
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(out[3], MPI_COMM_NULL);
    /* Colour 0: A's world 3 with B's world 1. */
    sim_comm *c0 = sim_comm_get(out[0], 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c0->remote);
    CU_ASSERT_EQUAL(c0->size, 1);
    CU_ASSERT_EQUAL(c0->remote->size, 1);
    CU_ASSERT_EQUAL(c0->remote->members[0], 1);
    CU_ASSERT_EQUAL(out[4], c0->remote->handle);
    /* Colour 1: A's world 0 with B's world 4. */
    sim_comm *c1 = sim_comm_get(out[1], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
    CU_ASSERT_EQUAL(c1->remote->members[0], 4);
    CU_ASSERT_EQUAL(out[2], c1->remote->handle);
    /* A colour only one group has: MPI_COMM_NULL for its members. */
    setup(SIM_COLL_COMM_SPLIT);
    int lonely[P] = {5, 0, 0, 0, 0};
    for (int r = 0; r < P; r++)
        args[r].color = lonely[r];
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(out[0], MPI_COMM_NULL);
    sim_comm *c = sim_comm_get(out[1], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(c->remote->size, 3);
}

static void test_create(void) {
    /* A keeps world 0, B keeps worlds 2 and 4 (in that order). */
    setup(SIM_COLL_COMM_CREATE);
    int ga[1] = {0}, gb[2] = {2, 4};
    MPI_Group a = sim_group_new(1, ga), b = sim_group_new(2, gb);
    for (int r = 0; r < P; r++)
        args[r].group = r < 2 ? a : b;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    CU_ASSERT_EQUAL(out[0], MPI_COMM_NULL); /* world 3: not in A's group */
    CU_ASSERT_EQUAL(out[4], MPI_COMM_NULL); /* world 1 */
    sim_comm *c = sim_comm_get(out[1], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(c->remote->size, 2);
    CU_ASSERT_EQUAL(c->remote->members[0], 2);
    CU_ASSERT_EQUAL(c->remote->members[1], 4);
    CU_ASSERT_EQUAL(out[3], c->remote->handle);
    /* An empty side: nobody gets a communicator. */
    setup(SIM_COLL_COMM_CREATE);
    a = sim_group_new(1, ga);
    for (int r = 0; r < P; r++)
        args[r].group = r < 2 ? a : MPI_GROUP_EMPTY;
    CU_ASSERT_EQUAL(run(), MPI_SUCCESS);
    for (int r = 0; r < P; r++)
        CU_ASSERT_EQUAL(out[r], MPI_COMM_NULL);
    /* A group that is not the member's own side's. */
    setup(SIM_COLL_COMM_CREATE);
    b = sim_group_new(2, gb);
    for (int r = 0; r < P; r++)
        args[r].group = b;
    CU_ASSERT_EQUAL(run(), MPI_ERR_GROUP);
    CU_ASSERT_EQUAL(err_rank, 0);
    CU_ASSERT_PTR_NOT_NULL(why && strstr(why, "not a subgroup of its local group"));
}

static bool has_step(const pm_ca_schedule *s, int m, bool send, int peer, uint64_t bytes) {
    for (int k = 0; k < pm_ca_nsteps(s, m); k++) {
        const pm_ca_step *st = &pm_ca_steps(s, m)[k];
        if (st->send == send && st->peer == peer && st->bytes == bytes)
            return true;
    }
    return false;
}

static void test_schedules(void) {
    /* Bcast of 1000 bytes from B's rank 1 (both 3): to A's leader (both 0),
     * which forwards it to both 1. */
    setup(SIM_COLL_BCAST);
    char buf[1000];
    args[3] =
        (sim_coll_args){.sendbuf = buf, .sendcount = 1000, .sendtype = MPI_BYTE, .root = MPI_ROOT};
    args[2].root = args[4].root = MPI_PROC_NULL;
    args[0] = (sim_coll_args){.recvbuf = buf, .recvcount = 1000, .recvtype = MPI_BYTE, .root = 1};
    GError *e = NULL;
    CU_ASSERT_PTR_NULL(sim_coll_inter_schedule(&coll, 2, &e)); /* a bystander cannot tell */
    CU_ASSERT_PTR_NULL(e);
    const int from[2] = {3, 0};
    for (int i = 0; i < 2; i++) {
        pm_ca_schedule *s = sim_coll_inter_schedule(&coll, from[i], &e);
        CU_ASSERT_PTR_NULL(e);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(pm_ca_members(s), P);
        CU_ASSERT_EQUAL(pm_ca_nsteps(s, 3), 1);
        CU_ASSERT_TRUE(has_step(s, 3, true, 0, 1000));
        CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 2);
        CU_ASSERT_TRUE(has_step(s, 0, false, 3, 1000));
        CU_ASSERT_TRUE(has_step(s, 0, true, 1, 1000));
        CU_ASSERT_EQUAL(pm_ca_nrounds(s, 0), 2);
        CU_ASSERT_EQUAL(pm_ca_nsteps(s, 2), 0);
        CU_ASSERT_EQUAL(pm_ca_nsteps(s, 4), 0);
        pm_ca_free(s);
    }
    /* Alltoall: messages only between the groups, 2 x 3 pairs each way. */
    setup(SIM_COLL_ALLTOALL);
    int x[3];
    ints(0, x, 1, x, 1, 0);
    pm_ca_schedule *s = sim_coll_inter_schedule(&coll, 0, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    int sends = 0;
    for (int m = 0; m < P; m++)
        for (int k = 0; k < pm_ca_nsteps(s, m); k++) {
            const pm_ca_step *st = &pm_ca_steps(s, m)[k];
            CU_ASSERT_NOT_EQUAL(m < 2, st->peer < 2);
            sends += st->send;
        }
    CU_ASSERT_EQUAL(sends, 12);
    pm_ca_free(s);
    /* Allreduce: each group reduces to its leader, the leaders exchange,
     * each leader broadcasts: both 0 and 2 trade 4 bytes. */
    setup(SIM_COLL_ALLREDUCE);
    ints(4, x, 1, x, 1, 0);
    s = sim_coll_inter_schedule(&coll, 4, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_TRUE(has_step(s, 0, true, 2, 4));
    CU_ASSERT_TRUE(has_step(s, 2, true, 0, 4));
    CU_ASSERT_TRUE(has_step(s, 1, true, 0, 4)); /* A's reduce */
    CU_ASSERT_TRUE(has_step(s, 0, true, 1, 4)); /* A's bcast */
    pm_ca_free(s);
}

int main(void) {
    sim_dt_init();
    sim_op_init();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("coll_inter", NULL, NULL);
    CU_add_test(s, "peers and which collectives are its", test_peers_and_owns);
    CU_add_test(s, "bcast: MPI_ROOT, MPI_PROC_NULL, the remote rank", test_bcast_roles);
    CU_add_test(s, "root errors: none, two, a wrong rank, a bystander naming one",
                test_root_errors);
    CU_add_test(s, "gatherv from the other group, a short block", test_gatherv);
    CU_add_test(s, "allreduce: each group the other's, op mismatch", test_allreduce);
    CU_add_test(s, "reduce_scatter by the receiving group's counts, errors", test_reduce_scatter);
    CU_add_test(s, "alltoallv between the groups", test_alltoallv);
    CU_add_test(s, "scan is not a collective on intercommunicators", test_scan_is_not_inter);
    CU_add_test(s, "split: one intercommunicator per colour both groups have", test_split);
    CU_add_test(s, "create: the groups' subgroups, an empty side, a foreign group", test_create);
    CU_add_test(s, "predict schedules: bcast, alltoall, allreduce", test_schedules);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    sim_comm_fini();
    g_free(why);
    return failed ? 1 : 0;
}
