/*
 * test_examples.c - `ordex run` on every program of examples/, with the verdict
 * and output that its header comment documents for `ordex run`.
 *
 * Source lines are found through the marker comments of the examples ("[SEND]",
 * "[RECV]", ...), so editing an example does not break these tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define S(rel) e2e_src(rel)

/* "rank R: CALL(...) at FILE:LINE-of-marker" as ordex lists a blocked rank. */
static char *blocked_line(int rank, const char *call, const char *src, const char *marker) {
    char *base = g_path_get_basename(src);
    char *s =
        g_strdup_printf("  rank %d: %s at %s:%d\n", rank, call, base, e2e_marker_line(src, marker));
    g_free(base);
    return s;
}

/* ---------------------------------------------------------------------- */
/* ring.c                                                                  */

static void test_ring_n4(void) {
    e2e_result *r = RUN("run", "-n", "4", S("examples/ring.c"), "3");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: final token 12 after 3 rounds\n");
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    EXPECT_ERR_HAS(r, "ordex: 4 ranks, 12 messages delivered");
    e2e_free(r);
}

static void test_ring_n1(void) {
    e2e_result *r = RUN("run", "-n", "1", S("examples/ring.c"), "5");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "ring.n1.k5");
    EXPECT_ERR_HAS(r, "ordex: 1 rank, 0 messages delivered");
    e2e_free(r);
}

static void test_ring_n1000(void) {
    e2e_result *r = RUN("run", "-n", "1000", S("examples/ring.c"), "2");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: final token 2000 after 2 rounds\n");
    EXPECT_OUT_HAS(r, "rank 1: last token received 1000\n");
    EXPECT_OUT_HAS(r, "rank 999: last token received 1998\n");
    EXPECT(r, e2e_lines(r->out) == 1000);
    EXPECT_ERR_HAS(r, "ordex: 1000 ranks, 2000 messages delivered");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* deadlock_else.c                                                         */

static void test_deadlock_else_n3(void) {
    const char *src = "examples/deadlock_else.c";
    e2e_result *r = RUN("run", "-n", "3", S(src));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "1 rank blocked", src, "[RECV]");
    char *b = blocked_line(2, "MPI_Recv(source=0, tag=0, count=1, MPI_INT, MPI_COMM_WORLD)", src,
                           "[RECV]");
    EXPECT_BLOCK_HAS(r, f, b);
    EXPECT_BLOCK_HAS(r, f, "rank 2 waits for rank 0, which ended");
    EXPECT_ERR_HAS(r, "rank 2: MPI_Recv(source=0");
    EXPECT_ERR_HAS(r, "deadlock_else.c:");
    EXPECT_ERR_HAS(r, "; 1 error found\n");
    /* Ranks 0 and 1 finished their exchange. */
    EXPECT_OUT_HAS(r, "rank 1: got 42 from rank 0, answering 43\n");
    EXPECT_OUT_HAS(r, "rank 0: got answer 43\n");
    EXPECT(r, e2e_lines(r->out) == 2);
    g_free(b);
    g_free(f);
    e2e_free(r);
}

static void test_deadlock_else_n4(void) {
    const char *src = "examples/deadlock_else.c";
    e2e_result *r = RUN("run", "-n", "4", S(src));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "2 ranks blocked", src, "[RECV]");
    for (int k = 2; k <= 3; k++) {
        char *b = blocked_line(k, "MPI_Recv(source=0, tag=0, count=1, MPI_INT, MPI_COMM_WORLD)",
                               src, "[RECV]");
        EXPECT_BLOCK_HAS(r, f, b);
        g_free(b);
    }
    EXPECT_BLOCK_HAS(r, f, "rank 3 waits for rank 0, which ended");
    g_free(f);
    e2e_free(r);
}

static void test_deadlock_else_n2(void) {
    e2e_result *r = RUN("run", "-n", "2", S("examples/deadlock_else.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "deadlock_else.n2");
    e2e_free(r);
}

static void test_deadlock_else_n1(void) {
    const char *src = "examples/deadlock_else.c";
    e2e_result *r = RUN("run", "-n", "1", S(src));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error", "dest 1", src, "[SEND]"));
    EXPECT_ERR_HAS(r, "rank 0: MPI_Send");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* deadlock_cycle.c                                                        */

static void test_deadlock_cycle_default(void) {
    e2e_result *r = RUN("run", "-n", "4", S("examples/deadlock_cycle.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "deadlock_cycle.n4");
    e2e_free(r);
}

static void check_cycle_deadlock(e2e_result *r) {
    const char *src = "examples/deadlock_cycle.c";
    EXPECT_STATUS(r, 1);
    char *f =
        EXPECT_FINDING(r, 1, "deadlock", "deadlocks when MPI_Send is not buffered", src, "[SEND]");
    EXPECT_BLOCK_HAS(r, f, "4 ranks blocked");
    EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 1 -> rank 2 -> rank 3 -> rank 0\n");
    for (int k = 0; k < 4; k++) {
        char *call = g_strdup_printf("MPI_Send(dest=%d, tag=0, count=1, MPI_INT, MPI_COMM_WORLD)",
                                     (k + 1) % 4);
        char *b = blocked_line(k, call, src, "[SEND]");
        EXPECT_BLOCK_HAS(r, f, b);
        g_free(b);
        g_free(call);
    }
    EXPECT(r, r->out[0] == '\0'); /* nobody got past its send */
    g_free(f);
}

static void test_deadlock_cycle_rendezvous(void) {
    e2e_result *r = RUN("run", "--send-mode=rendezvous", "-n", "4", S("examples/deadlock_cycle.c"));
    check_cycle_deadlock(r);
    e2e_free(r);
    r = RUN("run", "--send-mode", "rendezvous", "-n", "4", S("examples/deadlock_cycle.c"));
    check_cycle_deadlock(r);
    e2e_free(r);
}

/* In auto mode a send of 4 bytes is not buffered when the eager limit is
 * smaller. */
static void test_deadlock_cycle_eager_limit(void) {
    const char *src = S("examples/deadlock_cycle.c");
    e2e_result *r = RUN("run", "--eager-limit", "2", "-n", "4", src);
    check_cycle_deadlock(r);
    e2e_free(r);
    r = RUN("run", "--eager-limit", "1KiB", "-n", "4", src);
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "deadlock_cycle.n4");
    e2e_free(r);
    /* Eager mode buffers every standard send, whatever the limit. */
    r = RUN("run", "--send-mode", "eager", "--eager-limit", "2", "-n", "4", src);
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "deadlock_cycle.n4");
    e2e_free(r);
}

/* "--eager-limit 0" buffers no standard send, as the help text says
 * ("Largest buffered standard send in auto mode"; "eager below --eager-limit"). */
static void test_deadlock_cycle_eager_limit_0(void) {
    e2e_result *r = RUN("run", "--eager-limit", "0", "-n", "4", S("examples/deadlock_cycle.c"));
    check_cycle_deadlock(r);
    e2e_free(r);
}

static void test_deadlock_cycle_n1(void) {
    const char *src = "examples/deadlock_cycle.c";
    e2e_result *r = RUN("run", "-n", "1", S(src));
    EXPECT_CLEAN(r);
    EXPECT(r, strcmp(r->out, "rank 0: received 0 from rank 0\n") == 0);
    e2e_free(r);
    r = RUN("run", "--send-mode", "rendezvous", "-n", "1", S(src));
    EXPECT_STATUS(r, 1);
    char *f =
        EXPECT_FINDING(r, 1, "deadlock", "deadlocks when MPI_Send is not buffered", src, "[SEND]");
    EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 0\n");
    g_free(f);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* barrier_comm.c                                                          */

static void test_barrier_comm_n4(void) {
    const char *src = "examples/barrier_comm.c";
    e2e_result *r = RUN("run", "-n", "4", S(src));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "2 ranks blocked", src, "[WORLD]");
    char *b0 = blocked_line(0, "MPI_Barrier(comm=MPI_COMM_WORLD)", src, "[WORLD]");
    EXPECT_BLOCK_HAS(r, f, b0);
    char *b2 = g_strdup_printf("at barrier_comm.c:%d\n", e2e_marker_line(src, "[HALF]"));
    EXPECT_BLOCK_HAS(r, f, "  rank 2: MPI_Barrier(");
    EXPECT_BLOCK_HAS(r, f, b2);
    EXPECT_BLOCK_LACKS(r, f, "  rank 1: MPI_"); /* the odd ranks finished */
    EXPECT_BLOCK_LACKS(r, f, "  rank 3: MPI_");
    for (int k = 0; k < 4; k++) {
        char *l = g_strdup_printf("rank %d: half %d has 2 ranks, my work %d\n", k, k % 2, k * k);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
    }
    EXPECT_OUT_HAS(r, "rank 1: half 1 synchronised\n");
    EXPECT_OUT_HAS(r, "rank 3: half 1 synchronised\n");
    EXPECT_OUT_LACKS(r, "rank 0: everybody");
    EXPECT_OUT_LACKS(r, "half 0 synchronised");
    g_free(b0);
    g_free(b2);
    g_free(f);
    e2e_free(r);
}

static void test_barrier_comm_n2(void) {
    const char *src = "examples/barrier_comm.c";
    e2e_result *r = RUN("run", "-n", "2", S(src));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "1 rank blocked", src, "[WORLD]");
    char *b0 = blocked_line(0, "MPI_Barrier(comm=MPI_COMM_WORLD)", src, "[WORLD]");
    EXPECT_BLOCK_HAS(r, f, b0);
    EXPECT_OUT_HAS(r, "rank 1: half 1 synchronised\n");
    EXPECT_OUT_LACKS(r, "rank 0: everybody");
    g_free(b0);
    g_free(f);
    e2e_free(r);
}

static void test_barrier_comm_n1(void) {
    e2e_result *r = RUN("run", "-n", "1", S("examples/barrier_comm.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "barrier_comm.n1");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* heat.c, mergesort.c, neighbor_exchange.c, pingpong.c                    */

static void test_heat(void) {
    e2e_result *r = RUN("run", "-n", "4", S("examples/heat.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "heat.n4");
    EXPECT_ERR_HAS(r, "ordex: 4 ranks, 600 messages delivered");
    e2e_free(r);
    r = RUN("run", "-n", "3", S("examples/heat.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "heat.n3");
    e2e_free(r);
    /* Arguments after the program are the program's. */
    r = RUN("run", "-n", "4", S("examples/heat.c"), "64", "10");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "heat: N=64 steps=10 ");
    EXPECT_MPICH_OUTPUT(r, "heat.n4.64.10");
    e2e_free(r);
}

static void test_mergesort(void) {
    e2e_result *r = RUN("run", "-n", "4", S("examples/mergesort.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "mergesort: n=64 sorted=yes ");
    EXPECT_MPICH_OUTPUT(r, "mergesort.n4");
    e2e_free(r);
    r = RUN("run", "-n", "2", S("examples/mergesort.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "mergesort.n2");
    e2e_free(r);
}

static void test_neighbor_exchange_fixed(void) {
    e2e_result *r = RUN("run", "-n", "4", S("examples/neighbor_exchange.c"), "--fixed");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "neighbor_exchange: total 2740677\n");
    EXPECT_MPICH_OUTPUT(r, "neighbor_exchange.n4.fixed");
    e2e_free(r);
    r = RUN("run", "-n", "3", S("examples/neighbor_exchange.c"), "--fixed");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "neighbor_exchange.n3.fixed");
    e2e_free(r);
}

/* The buggy version: with two ranks no rank has two neighbours (no error);
 * with three, the middle rank reads the buffer of a pending receive in the
 * one ordering `run` follows: a data race, the output is still complete. */
static void test_neighbor_exchange_buggy(void) {
    e2e_result *r = RUN("run", "-n", "2", S("examples/neighbor_exchange.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "neighbor_exchange: total 434099\n");
    EXPECT_MPICH_OUTPUT(r, "neighbor_exchange.n2");
    e2e_free(r);
    r = RUN("run", "-n", "3", S("examples/neighbor_exchange.c"));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [data_race] data race on the receive buffer of MPI_Irecv at "
                      "neighbor_exchange.c:");
    EXPECT_OUT_HAS(r, "rank 0: checksum 277612\n"); /* rank 0 has one neighbour */
    EXPECT_OUT_HAS(r, "neighbor_exchange: total ");
    EXPECT(r, e2e_lines(r->out) == 4);
    e2e_free(r);
}

static void test_pingpong(void) {
    e2e_result *r = RUN("run", "-n", "2", S("examples/pingpong.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "pingpong.n2");
    EXPECT_OUT_HAS(r, "rank 1: echoed 63 messages, 6291453 bytes\n");
    EXPECT_OUT_LACKS(r, "round trip");                  /* the program's stderr ... */
    EXPECT(r, e2e_count(r->err, " round trip ") == 21); /* ... goes to stderr */
    EXPECT_ERR_HAS(r, "ordex: 2 ranks, 126 messages delivered");
    e2e_free(r);
    /* Rank 0 sends first and rank 1 receives first: no buffering needed. */
    r = RUN("run", "--send-mode", "rendezvous", "-n", "2", S("examples/pingpong.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "pingpong.n2");
    e2e_free(r);
    r = RUN("run", "-n", "3", S("examples/pingpong.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 2: idle\n");
    EXPECT_MPICH_OUTPUT(r, "pingpong.n3");
    e2e_free(r);
    r = RUN("run", "-n", "1", S("examples/pingpong.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, strcmp(r->out, "pingpong: needs at least 2 ranks, nothing to do\n") == 0);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Examples whose bug shows only in some orderings: `run` takes the natural */
/* order (ranks in rank order, messages matched in the order sent).        */

/* waitany_race.c: rank r sends r*r + 7; rank 0 folds result*31 + value in
 * completion order. */
static unsigned waitany_fold(const int *order, int n) {
    unsigned result = 0;
    for (int k = 0; k < n; k++)
        result = result * 31u + (unsigned)(order[k] * order[k] + 7);
    return result;
}

static void test_waitany_race(void) {
    e2e_result *r = RUN("run", "-n", "4", S("examples/waitany_race.c"));
    EXPECT_CLEAN(r);
    int order[3] = {1, 2, 3};
    char *want = g_strdup_printf("waitany_race: order 1 2 3 result %u\n", waitany_fold(order, 3));
    EXPECT_OUT_HAS(r, want);
    EXPECT_OUT_HAS(r, "rank 1: sent 8\n");
    EXPECT_OUT_HAS(r, "rank 2: sent 11\n");
    EXPECT_OUT_HAS(r, "rank 3: sent 16\n");
    g_free(want);
    e2e_free(r);
    r = RUN("run", "-n", "2", S("examples/waitany_race.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "waitany_race: order 1 result 8\n");
    EXPECT_MPICH_OUTPUT(r, "waitany_race.n2");
    e2e_free(r);
}

static void test_wildcard_deadlock(void) {
    e2e_result *r = RUN("run", "-n", "3", S("examples/wildcard_deadlock.c"));
    EXPECT_CLEAN(r);
    char *got = e2e_sorted_lines(r->out);
    EXPECT(r, strcmp(got, "rank 0: sent 100 to rank 1\n"
                          "rank 1: first result 100, result of rank 2 300\n"
                          "rank 2: sent 300 to rank 1\n") == 0);
    g_free(got);
    e2e_free(r);
    r = RUN("run", "-n", "2", S("examples/wildcard_deadlock.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "wildcard_deadlock.n2");
    e2e_free(r);
}

/* iprobe_once.c: in the natural order MPI_Iprobe sees the message. */
static void test_iprobe_once(void) {
    e2e_result *r = RUN("run", "-n", "2", S("examples/iprobe_once.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, strcmp(r->out, "rank 0: settings 42\n") == 0);
    e2e_free(r);
    r = RUN("run", "--send-mode", "rendezvous", "-n", "4", S("examples/iprobe_once.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, strcmp(r->out, "rank 0: settings 42\n") == 0);
    e2e_free(r);
}

static void test_probe_race(void) {
    e2e_result *r = RUN("run", "-n", "4", S("examples/probe_race.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "probe_race: received 3 messages, 24 ints, sum 40100\n");
    EXPECT_OUT_HAS(r, "rank 1: sent 12 ints\n");
    EXPECT_OUT_HAS(r, "rank 3: sent 4 ints\n");
    e2e_free(r);
    r = RUN("run", "-n", "3", S("examples/probe_race.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "probe_race: received 2 messages, 12 ints, sum 16034\n");
    e2e_free(r);
    r = RUN("run", "-n", "2", S("examples/probe_race.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "probe_race: received 1 messages, 4 ints, sum 4006\n");
    EXPECT_MPICH_OUTPUT(r, "probe_race.n2");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Correct examples: no error in any send mode, MPICH's output              */

/* Runs `ordex run [--send-mode MODE] -n N examples/NAME.c` and expects no
 * finding and the output of expected/NAME.nN.out. */
static void clean_example(const char *name, const char *n, const char *mode) {
    char *rel = g_strdup_printf("examples/%s.c", name);
    char *expected = g_strdup_printf("%s.n%s", name, n);
    e2e_result *r =
        mode ? RUN("run", "--send-mode", mode, "-n", n, S(rel)) : RUN("run", "-n", n, S(rel));
    EXPECT_CLEAN(r);
    e2e_expect_mpich_output(r, expected, NULL, __FILE__, __LINE__);
    e2e_free(r);
    g_free(expected);
    g_free(rel);
}

static void test_benign_any_source(void) {
    clean_example("benign_any_source", "4", NULL);
    clean_example("benign_any_source", "2", NULL);
    clean_example("benign_any_source", "4", "rendezvous");
}

static void test_benign_waitall(void) {
    clean_example("benign_waitall", "4", NULL);
    clean_example("benign_waitall", "2", NULL);
    clean_example("benign_waitall", "4", "rendezvous");
}

static void test_floyd_steinberg(void) {
    clean_example("floyd_steinberg", "4", NULL);
    clean_example("floyd_steinberg", "3", NULL);
    clean_example("floyd_steinberg", "1", NULL);
    clean_example("floyd_steinberg", "4", "rendezvous");
}

static void test_lu(void) {
    clean_example("lu", "4", NULL);
    clean_example("lu", "3", NULL);
    clean_example("lu", "1", NULL);
    clean_example("lu", "4", "rendezvous");
}

static void test_nbexchange(void) {
    clean_example("nbexchange", "4", NULL);
    clean_example("nbexchange", "2", NULL);
    clean_example("nbexchange", "5", NULL);
    clean_example("nbexchange", "4", "rendezvous");
}

/* bcast_sync.c documents two acceptable verdicts for `run`: no error when the
 * root may leave MPI_Bcast early (as MPICH), or this deadlock when ordex models
 * MPI_Bcast as synchronising. */
static void test_bcast_sync(void) {
    const char *src = "examples/bcast_sync.c";
    static const char *const ns[] = {"2", "4"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        int n = atoi(ns[i]);
        e2e_result *r = RUN("run", "-n", ns[i], S(src));
        if (r->status == 0) {
            char *expected = g_strdup_printf("bcast_sync.n%d", n);
            EXPECT_CLEAN(r);
            e2e_expect_mpich_output(r, expected, NULL, __FILE__, __LINE__);
            g_free(expected);
        } else {
            EXPECT_STATUS(r, 1);
            char *text = g_strdup_printf("%d ranks blocked", n);
            char *f = EXPECT_FINDING(r, 1, "deadlock", text, src, "[BCAST0]");
            char *b0 = blocked_line(0, "MPI_Bcast(", src, "[BCAST0]");
            char *b1 = blocked_line(1,
                                    "MPI_Recv(source=0, tag=0, count=1, MPI_INT, "
                                    "MPI_COMM_WORLD)",
                                    src, "[RECV]");
            /* "rank 0: MPI_Bcast(...) at bcast_sync.c:L": check both ends. */
            EXPECT_BLOCK_HAS(r, f, "  rank 0: MPI_Bcast(");
            char *at0 = strstr(b0, " at ");
            EXPECT_BLOCK_HAS(r, f, at0 ? at0 : b0);
            EXPECT_BLOCK_HAS(r, f, b1);
            EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 1 -> rank 0\n");
            for (int k = 2; k < n; k++) {
                char *bk = g_strdup_printf("  rank %d: MPI_Bcast(", k);
                EXPECT_BLOCK_HAS(r, f, bk);
                g_free(bk);
            }
            EXPECT(r, r->out[0] == '\0');
            g_free(b0);
            g_free(b1);
            g_free(text);
            g_free(f);
        }
        e2e_free(r);
    }
    clean_example("bcast_sync", "1", NULL);
}

/* ---------------------------------------------------------------------- */

/* The examples this suite knows; a new example needs its tests here (the
 * one-sided ones, rma_*.c, have theirs in test_rma.c, the OpenSHMEM ones,
 * shmem_*.c, in test_shmem.c). */
static const char *const covered[] = {
    "barrier_comm.c",
    "bcast_sync.c",
    "benign_any_source.c",
    "benign_waitall.c",
    "deadlock_cycle.c",
    "deadlock_else.c",
    "floyd_steinberg.c",
    "heat.c",
    "iprobe_once.c", /* MPI_Iprobe may say "not yet" */
    "lu.c",
    "mergesort.c",
    "mpiio_checkpoint.c", /* tested in test_mpiio.c */
    "nbexchange.c",
    "neighbor_exchange.c",
    "pingpong.c",
    "probe_race.c",
    "ring.c",
    "rma_counter.c",
    "rma_halo.c",
    "rma_halo_racy.c",
    "rma_lockq.c",
    "rma_pscw.c",
    "rma_pscw_racy.c",
    "rma_shared.c",
    "rma_shared_racy.c",
    "shmem_counter.c",
    "shmem_flag.c",
    "shmem_flag_nofence.c",
    "shmem_lockq.c",
    "shmem_lockq_racy.c",
    "shmem_reduce.c",
    "shmem_reduce_racy.c",
    "shmem_stencil.c",
    "waitany_race.c",
    "wildcard_deadlock.c",
};

static void test_every_example_covered(void) {
    const char *dir = S("examples");
    GDir *d = g_dir_open(dir, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int seen = 0;
    for (const char *name; (name = g_dir_read_name(d));) {
        if (!g_str_has_suffix(name, ".c"))
            continue;
        seen++;
        bool known = false;
        for (size_t i = 0; i < G_N_ELEMENTS(covered); i++)
            known |= strcmp(covered[i], name) == 0;
        char *what = g_strdup_printf("examples/%s has end-to-end tests", name);
        e2e_check(known, NULL, what, __FILE__, __LINE__);
        g_free(what);
    }
    g_dir_close(d);
    CU_ASSERT(seen >= (int)G_N_ELEMENTS(covered));
}

static void e2e_add_example_tests(CU_pSuite s) {
    CU_add_test(s, "ring -n 4 3", test_ring_n4);
    CU_add_test(s, "ring -n 1 5", test_ring_n1);
    CU_add_test(s, "ring -n 1000 2", test_ring_n1000);
    CU_add_test(s, "deadlock_else -n 3: deadlock", test_deadlock_else_n3);
    CU_add_test(s, "deadlock_else -n 4: deadlock", test_deadlock_else_n4);
    CU_add_test(s, "deadlock_else -n 2: no error", test_deadlock_else_n2);
    CU_add_test(s, "deadlock_else -n 1: invalid rank", test_deadlock_else_n1);
    CU_add_test(s, "deadlock_cycle -n 4: no error by default", test_deadlock_cycle_default);
    CU_add_test(s, "deadlock_cycle --send-mode=rendezvous: deadlock",
                test_deadlock_cycle_rendezvous);
    CU_add_test(s, "deadlock_cycle --eager-limit", test_deadlock_cycle_eager_limit);
    CU_add_test(s, "deadlock_cycle --eager-limit 0: nothing buffered",
                test_deadlock_cycle_eager_limit_0);
    CU_add_test(s, "deadlock_cycle -n 1", test_deadlock_cycle_n1);
    CU_add_test(s, "barrier_comm -n 4: deadlock", test_barrier_comm_n4);
    CU_add_test(s, "barrier_comm -n 2: deadlock", test_barrier_comm_n2);
    CU_add_test(s, "barrier_comm -n 1: no error", test_barrier_comm_n1);
    CU_add_test(s, "heat", test_heat);
    CU_add_test(s, "mergesort", test_mergesort);
    CU_add_test(s, "neighbor_exchange --fixed", test_neighbor_exchange_fixed);
    CU_add_test(s, "neighbor_exchange (buggy), one ordering", test_neighbor_exchange_buggy);
    CU_add_test(s, "pingpong", test_pingpong);
    CU_add_test(s, "waitany_race: natural order", test_waitany_race);
    CU_add_test(s, "wildcard_deadlock: natural order", test_wildcard_deadlock);
    CU_add_test(s, "probe_race: natural order", test_probe_race);
    CU_add_test(s, "iprobe_once: natural order", test_iprobe_once);
    CU_add_test(s, "bcast_sync: documented verdict", test_bcast_sync);
    CU_add_test(s, "benign_any_source", test_benign_any_source);
    CU_add_test(s, "benign_waitall", test_benign_waitall);
    CU_add_test(s, "floyd_steinberg", test_floyd_steinberg);
    CU_add_test(s, "lu", test_lu);
    CU_add_test(s, "nbexchange", test_nbexchange);
    CU_add_test(s, "every example is covered", test_every_example_covered);
}

E2E_MAIN("examples", e2e_add_example_tests)
