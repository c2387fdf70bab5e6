/*
 * test_predict.c - end-to-end tests of `ordex predict` against times worked
 * out by hand from the platform tests/programs/predict.ini (10 us latency,
 * 1 GB/s, 64 KiB eager limit, 20 us rendezvous handshake, 8 nodes of one
 * core), with --ignore-compute so that only the model decides the times.
 * The expected values and their derivations are in the header comments of
 * tests/programs/predict_p2p.c and predict_coll.c.
 */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define S(rel) e2e_src(rel)
#define PLATFORM S("tests/programs/predict.ini")
#define P2P S("tests/programs/predict_p2p.c")
#define COLL S("tests/programs/predict_coll.c")

/* `ordex predict -n N --ignore-compute --no-timeline --platform predict.ini
 * EXTRA... PROGRAM MODE` (EXTRA: options, NULL-terminated, at most 16). */
static e2e_result *predict_argv(const char *n, const char *prog, const char *mode,
                                const char *const *extra) {
    const char *args[32];
    int k = 0;
    args[k++] = "predict";
    args[k++] = "-n";
    args[k++] = n;
    args[k++] = "--ignore-compute";
    args[k++] = "--no-timeline";
    args[k++] = "--platform";
    args[k++] = PLATFORM;
    for (int i = 0; extra && extra[i] && i < 16; i++)
        args[k++] = extra[i];
    args[k++] = prog;
    if (mode)
        args[k++] = mode;
    args[k] = NULL;
    return e2e_ordex_runv(args);
}

/* The same with up to four options (the first NULL ends them). */
static e2e_result *predict(const char *n, const char *prog, const char *mode, const char *a,
                           const char *b, const char *c, const char *d) {
    const char *extra[] = {a, b, c, d, NULL};
    return predict_argv(n, prog, mode, extra);
}

/* The same with every wait for a core charged the median delay. */
static e2e_result *predict_avg(const char *n, const char *prog, const char *mode, const char *a,
                               const char *b, const char *c, const char *d) {
    const char *extra[] = {"--placements", "0", a, b, c, d, NULL};
    return predict_argv(n, prog, mode, extra);
}

static bool near(double got, double want) {
    return fabs(got - want) <= 1e-9 + fabs(want) * 1e-6;
}

/* ---------------------------------------------------------------------- */
/* Point to point                                                          */

static void test_pingpong(void) {
    const char *json = e2e_tmp("pingpong.json");
    e2e_result *r = predict("2", P2P, "pingpong", "--json", json, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "pingpong 220.000 us\n");
    EXPECT_ERR_HAS(r, "predicted time: 220 µs");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "ok"));
    EXPECT(r, near(e2e_json_num(doc, "predicted_time_s"), 220e-6));
    /* Each direction carried 10 kB; a link of 1 GB/s is busy 10 us of 220. */
    EXPECT(r, near(e2e_json_num(doc, "links[0].bytes"), 10000));
    EXPECT(r, near(e2e_json_num(doc, "links[0].busy_s"), 10e-6));
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_link_sharing(void) {
    /* Two 1 MB messages leaving one node share its link: twice as long. */
    e2e_result *r = predict("4", P2P, "share", "--set", "cluster.cores_per_node=2", "--set",
                            "network.eager_limit=16MiB");
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, "recv at 2010.000 us\n") == 2);
    e2e_free(r);
    r = predict("4", P2P, "alone", "--set", "cluster.cores_per_node=2", "--set",
                "network.eager_limit=16MiB");
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, "recv at 1010.000 us\n") == 1);
    /* The table's mean row is the mean of the ranks' ends (only rank 2 waits,
     * 1010 us: 252.5 us), not the latest end. */
    EXPECT_ERR_HAS(r, "\n  2               1.01 ms ");
    EXPECT_ERR_HAS(r, "\n  mean          252.5 µs ");
    e2e_free(r);
}

static void test_rendezvous(void) {
    e2e_result *r = predict("2", P2P, "rendezvous", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "send done at 1030.000 us\n");
    EXPECT_OUT_HAS(r, "recv done at 1030.000 us\n");
    e2e_free(r);
}

static void test_progress(void) {
    /* No asynchronous progress: the data waits for the receiver's MPI_Wait. */
    e2e_result *r = predict("2", P2P, "progress", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "computed at 2000.000 us\n");
    EXPECT_OUT_HAS(r, "recv done at 3030.000 us\n");
    EXPECT_OUT_HAS(r, "send done at 3030.000 us\n");
    e2e_free(r);
    r = predict("2", P2P, "progress", "--set", "network.async_progress=true", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "send done at 1030.000 us\n");
    EXPECT_OUT_HAS(r, "recv done at 2000.000 us\n");
    e2e_free(r);
    /* Any other call progresses (here an MPI_Isend): the data moves from there. */
    r = predict("2", P2P, "call", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "computed at 3000.000 us\n");
    EXPECT_OUT_HAS(r, "send done at 2030.000 us\n");
    EXPECT_OUT_HAS(r, "recv done at 3000.000 us\n");
    e2e_free(r);
}

static void test_cpu_sharing(void) {
    /* Two ranks computing 1 s each on one core take 2 s; on two cores 1 s. */
    e2e_result *r =
        predict("2", P2P, "cpu", "--set", "cluster.nodes=1", "--set", "cluster.oversubscribe=true");
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, "compute done at 2.000000 s\n") == 2);
    e2e_free(r);
    r = predict("2", P2P, "cpu", "--set", "cluster.nodes=1", "--set", "cluster.cores_per_node=2");
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, "compute done at 1.000000 s\n") == 2);
    e2e_free(r);
}

static void test_busy_wait(void) {
    /* Derivation in predict_p2p.c ("poll"). */
    e2e_result *r = predict_avg("2", P2P, "poll", "--set", "cluster.nodes=1", "--set",
                                "cluster.oversubscribe=true");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "recv at 2002010.004 us\n");
    EXPECT_OUT_HAS(r, "reply at 2002020.008 us\n");
    e2e_free(r);
    /* A rendezvous message waits for its polling receiver to pull it. */
    r = predict_avg("2", P2P, "pull", "--set", "cluster.nodes=1", "--set",
                    "cluster.oversubscribe=true");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "recv at 2002130.000 us\n");
    EXPECT_OUT_HAS(r, "send done at 2004130.000 us\n");
    e2e_free(r);
    const char *args[] = {"predict",
                          "-n",
                          "2",
                          "--ignore-compute",
                          "--no-timeline",
                          "--platform",
                          PLATFORM,
                          "--set",
                          "cluster.nodes=1",
                          "--set",
                          "cluster.oversubscribe=true",
                          "--set",
                          "cluster.busy_wait=false",
                          P2P,
                          "poll",
                          NULL};
    r = e2e_ordex_runv(args);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "recv at 1000010.004 us\n");
    EXPECT_OUT_HAS(r, "reply at 1000020.008 us\n");
    e2e_free(r);
    /* A core each: nobody waits for a slice, and polling costs nothing. */
    r = predict("2", P2P, "poll", "--set", "cluster.nodes=1", "--set", "cluster.cores_per_node=2");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "recv at 1000010.004 us\n");
    EXPECT_OUT_HAS(r, "reply at 1000020.008 us\n");
    e2e_free(r);
}

/* Derivation in predict_p2p.c ("token"): 4 polling ranks on 2 cores, every
 * wait for a core charged the median delay. */
static void test_core_wait(void) {
    const char *json = e2e_tmp("token.json");
    const char *token[] = {"--placements",
                           "0",
                           "--set",
                           "cluster.nodes=1",
                           "--set",
                           "cluster.cores_per_node=2",
                           "--set",
                           "cluster.oversubscribe=true",
                           "--json",
                           json,
                           NULL};
    e2e_result *r = predict_argv("4", P2P, "token", token);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "token back at 75400.160 us\n");
    EXPECT_ERR_HAS(r, "(waiting for a core 25.0%)\n");
    EXPECT_ERR_HAS(r, "critical resource: cores: the ranks' waits for a core add up to 99% of "
                      "the predicted time (node0 runs 4 ranks on 2 cores");
    EXPECT_ERR_HAS(r, "note: the waits for a core depend on where the OS puts each polling rank");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    if (doc) {
        EXPECT(r, near(e2e_json_num(doc, "totals.core_wait_s"), 75e-3));
        EXPECT(r, near(e2e_json_num(doc, "ranks[rank=0].core_wait_s"), 18e-3));
        EXPECT(r, near(e2e_json_num(doc, "ranks[rank=1].core_wait_s"), 20e-3));
        EXPECT(r, near(e2e_json_num(doc, "ranks[rank=2].core_wait_s"), 19e-3));
        EXPECT(r, near(e2e_json_num(doc, "ranks[rank=3].core_wait_s"), 18e-3));
    }
    e2e_json_free(doc);
    e2e_free(r);

    /* A core each: the int only travels, 40 x 10.004 us, and the waits are
     * for the token. */
    token[5] = "cluster.cores_per_node=4";
    r = predict_argv("4", P2P, "token", token);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "token back at 400.160 us\n");
    EXPECT_ERR_LACKS(r, "waiting for a core");
    EXPECT_ERR_HAS(r, "critical resource: waiting: ");
    EXPECT_ERR_LACKS(r, "note: the waits for a core");
    doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, near(e2e_json_num(doc, "totals.core_wait_s"), 0));
    e2e_json_free(doc);
    e2e_free(r);

    /* "pull": rank 1 waits 2 ms for its core to pull the data, rank 0 2 ms
     * to notice that its send is done; 4 ms of a 2 s run is no bottleneck. */
    json = e2e_tmp("pull.json");
    const char *pull[] = {"--placements",    "0",     "--set",
                          "cluster.nodes=1", "--set", "cluster.oversubscribe=true",
                          "--json",          json,    NULL};
    r = predict_argv("2", P2P, "pull", pull);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "(waiting for a core 0.1%)\n");
    EXPECT_ERR_LACKS(r, "critical resource: cores");
    EXPECT_ERR_LACKS(r, "note: the waits for a core");
    doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, near(e2e_json_num(doc, "ranks[rank=0].core_wait_s"), 2e-3));
    EXPECT(r, near(e2e_json_num(doc, "ranks[rank=1].core_wait_s"), 2e-3));
    e2e_json_free(doc);
    e2e_free(r);
}

/* Placed turns; derivation in predict_p2p.c ("poll"). */
static void test_placements(void) {
    const char *json = e2e_tmp("placements.json");
    const char *placed[] = {"--placements",    "16",    "--set",
                            "cluster.nodes=1", "--set", "cluster.oversubscribe=true",
                            "--json",          json,    NULL};
    e2e_result *r = predict_argv("2", P2P, "poll", placed);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "the mean of 16 placements of the polling ranks on the cores\n"
                      "  placements from 2 s to 2.004 s, standard error of the mean ");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    const double on_turn = 2.000020008, next_turn = 2.004010004;
    int ons = 0, nexts = 0;
    double sum = 0, shown_time = NAN;
    int ntimes = e2e_json_len(doc, "placements.times_s");
    EXPECT(r, ntimes == 16);
    double shown_num = e2e_json_num(doc, "placements.shown");
    int shown = isnan(shown_num) ? 0 : (int)shown_num;
    for (int i = 0; i < 16 && i < ntimes; i++) {
        char *at = g_strdup_printf("placements.times_s[%d]", i);
        double t = e2e_json_num(doc, at);
        g_free(at);
        ons += near(t, on_turn);
        nexts += near(t, next_turn);
        sum += t;
        if (i + 1 == shown)
            shown_time = t;
    }
    EXPECT(r, ons + nexts == 16); /* every placement is one of the two */
    EXPECT(r, ons > 0 && nexts > 0);
    EXPECT(r, near(e2e_json_num(doc, "predicted_time_s"), sum / 16));
    /* Two values, ons of one and nexts of the other: the sample's standard
     * deviation over the square root of 16. */
    double mean = sum / 16, squares = ons * (on_turn - mean) * (on_turn - mean) +
                                      nexts * (next_turn - mean) * (next_turn - mean);
    EXPECT(r,
           fabs(e2e_json_num(doc, "placements.standard_error_s") - sqrt(squares / 15 / 16)) < 1e-8);
    /* The report's run is the placement shown, whichever it is. */
    EXPECT(r, shown >= 1 && shown <= 16);
    if (near(shown_time, on_turn))
        EXPECT_OUT_HAS(r, "recv at 2000010.004 us\n");
    else
        EXPECT_OUT_HAS(r, "recv at 2004000.000 us\n");
    e2e_json_free(doc);
    e2e_free(r);

    /* A core each: where the ranks are makes no difference, one run. */
    placed[5] = "cluster.cores_per_node=2";
    r = predict_argv("2", P2P, "poll", placed);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "recv at 1000010.004 us\n");
    EXPECT_ERR_LACKS(r, "placements of the polling ranks");
    doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_is_null(doc, "placements"));
    e2e_json_free(doc);
    e2e_free(r);
}

/* examples/mergesort.c's wildcard receive takes a later round's message when
 * it arrives first: with the median delay it does not, in some placements
 * it does.  The error is reported from such a placement, not averaged away. */
static void test_placement_finding(void) {
    const char *json = e2e_tmp("placed_error.json");
    const char *placed[] = {"--set",  "cluster.nodes=1",
                            "--set",  "cluster.cores_per_node=4",
                            "--set",  "cluster.oversubscribe=true",
                            "--json", json,
                            NULL};
    e2e_result *r = predict_argv("6", S("examples/mergesort.c"), NULL, placed);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [mpi_error] rank 0: MPI_Recv: message truncated");
    EXPECT_ERR_HAS(r, "no prediction: the program did not finish (see the error above)\n"
                      "  that is placement ");
    EXPECT_ERR_HAS(r, " of 8 placements (the others took ");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    EXPECT(r, e2e_json_is_null(doc, "predicted_time_s"));
    EXPECT(r, e2e_json_is_null(doc, "placements.shown_time_s"));
    e2e_json_free(doc);
    e2e_free(r);
    const char *average[] = {"--placements",
                             "0",
                             "--set",
                             "cluster.nodes=1",
                             "--set",
                             "cluster.cores_per_node=4",
                             "--set",
                             "cluster.oversubscribe=true",
                             NULL};
    r = predict_argv("6", S("examples/mergesort.c"), NULL, average);
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    /* A sweep point is such a run too. */
    const char *sweep[] = {"--set",   "cluster.nodes=1",
                           "--set",   "cluster.cores_per_node=4",
                           "--set",   "cluster.oversubscribe=true",
                           "--sweep", "cluster.timeslice=4ms",
                           NULL};
    r = predict_argv("6", S("examples/mergesort.c"), NULL, sweep);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "did not finish\n");
    e2e_free(r);
}

static void test_wildcard_arrival_order(void) {
    /* Rank 1 sends first in real execution order but 1 ms later in simulated
     * time: the wildcard receive gets rank 2's message, which arrives first. */
    e2e_result *r = predict("3", P2P, "wildcard", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "first from 2\n");
    EXPECT_OUT_HAS(r, "then from 1\n");
    e2e_free(r);
}

static void test_blocked_versus_comm(void) {
    /* Rank 1 waits 1 ms for rank 0 to send (blocked), then 11 us for the
     * data to move (communication). */
    const char *json = e2e_tmp("late.json");
    e2e_result *r = predict("2", P2P, "late", "--json", json, NULL, NULL);
    EXPECT_STATUS(r, 0);
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    if (doc) {
        const char *critical = e2e_json_str(doc, "critical_resource");
        EXPECT(r, near(e2e_json_num(doc, "ranks[rank=1].blocked_s"), 1e-3));
        EXPECT(r, near(e2e_json_num(doc, "ranks[rank=1].comm_s"), 11e-6));
        EXPECT(r, near(e2e_json_num(doc, "ranks[rank=0].compute_s"), 1e-3));
        EXPECT(r, near(e2e_json_num(doc, "predicted_time_s"), 1.011e-3));
        EXPECT(r, critical && (g_str_has_prefix(critical, "computation") ||
                               g_str_has_prefix(critical, "waiting")));
    }
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_overheads(void) {
    e2e_result *r = predict("2", P2P, "overhead", "--set", "network.send_overhead=1us", "--set",
                            "network.recv_overhead=2us");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "oneway 14.000 us\n");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Collectives                                                             */

static void test_barrier(void) {
    e2e_result *r = predict("4", COLL, "barrier", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, " at 20.000 us\n") == 4);
    e2e_free(r);
    /* Rank 3 arrives at 1 ms: the dissemination rounds after its arrival. */
    r = predict("4", COLL, "late_barrier", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 at 1010.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 at 1010.000 us\n");
    EXPECT_OUT_HAS(r, "rank 2 at 1020.000 us\n");
    EXPECT_OUT_HAS(r, "rank 3 at 1000.000 us\n");
    e2e_free(r);
}

static void test_bcast_tree(void) {
    e2e_result *r = predict("8", COLL, "bcast", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    const char *want[] = {"rank 0 at 0.000 us\n",  "rank 1 at 13.000 us\n", "rank 2 at 13.000 us\n",
                          "rank 3 at 24.000 us\n", "rank 4 at 13.000 us\n", "rank 5 at 25.000 us\n",
                          "rank 6 at 25.000 us\n", "rank 7 at 36.000 us\n"};
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
        EXPECT(r, strstr(r->out, want[i]) != NULL);
    e2e_free(r);
}

static void test_bcast_late_member(void) {
    /* Members whose data came down the tree leave without waiting for a
     * late member that is not their ancestor. */
    e2e_result *r = predict("4", COLL, "late_bcast", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 at 0.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 at 12.000 us\n");
    EXPECT_OUT_HAS(r, "rank 2 at 12.000 us\n");
    EXPECT_OUT_HAS(r, "rank 3 at 1000.000 us\n");
    EXPECT_OUT_LACKS(r, "wrong data");
    e2e_free(r);
}

static void test_inter_bcast(void) {
    /* MPICH's intercommunicator bcast: root to the other group's leader,
     * then a bcast within that group; the root's bystander takes no part. */
    e2e_result *r = predict("4", COLL, "inter_bcast", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 after 0.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 after 11.000 us\n");
    EXPECT_OUT_HAS(r, "rank 2 after 0.000 us\n");
    EXPECT_OUT_HAS(r, "rank 3 after 22.000 us\n");
    e2e_free(r);
}

static void test_allreduce(void) {
    e2e_result *r = predict("4", COLL, "allreduce", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, " at 20.016 us\n") == 4);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* One-sided communication                                                 */

/* The derivations of every time below are in the header comment of
 * tests/programs/predict_rma.c (platform predict_rma.ini: 1 ms latency,
 * 1 MB/s, a rank per node).  The model is exact event arithmetic on
 * doubles, far below a nanosecond at these times, and the program prints
 * times to the nanosecond: the printed value must match to the last digit. */
#define RMA S("tests/programs/predict_rma.c")
#define RMA_PLATFORM S("tests/programs/predict_rma.ini")

/* `ordex predict -n N --ignore-compute --no-timeline --platform
 * predict_rma.ini [--set A] [--set B] predict_rma.c MODE`. */
static e2e_result *predict_rma(const char *n, const char *mode, const char *set_a,
                               const char *set_b) {
    const char *args[16];
    int k = 0;
    args[k++] = "predict";
    args[k++] = "-n";
    args[k++] = n;
    args[k++] = "--ignore-compute";
    args[k++] = "--no-timeline";
    args[k++] = "--platform";
    args[k++] = RMA_PLATFORM;
    if (set_a) {
        args[k++] = "--set";
        args[k++] = set_a;
    }
    if (set_b) {
        args[k++] = "--set";
        args[k++] = set_b;
    }
    args[k++] = RMA;
    args[k++] = mode;
    args[k] = NULL;
    return e2e_ordex_runv(args);
}

/* The time rank `rank` printed after `what` ("closed", ...), in us; NAN if
 * it printed none. */
static double printed_us(const e2e_result *r, int rank, const char *what) {
    char *key = g_strdup_printf("rank %d %s at ", rank, what);
    const char *at = r->out ? strstr(r->out, key) : NULL;
    double v = at ? g_ascii_strtod(at + strlen(key), NULL) : NAN;
    g_free(key);
    return v;
}

static void test_rma_fence_put(void) {
    /* Window creation is MPICH's allgather of 32 bytes, a fence or a free
     * its barrier: one round each on 2 ranks. */
    e2e_result *empty = predict_rma("2", "empty", NULL, NULL);
    EXPECT_STATUS(empty, 0);
    EXPECT(empty, e2e_count(empty->out, " created at 1032.000 us\n") == 2);
    EXPECT(empty, e2e_count(empty->out, " opened at 2032.000 us\n") == 2);
    EXPECT(empty, e2e_count(empty->out, " closed at 3032.000 us\n") == 2);
    EXPECT(empty, e2e_count(empty->out, " freed at 4032.000 us\n") == 2);
    /* A put of 1 MB: the closing fence waits for it (1 ms + 1 s), then the
     * barrier's message to the target. */
    e2e_result *put = predict_rma("2", "put", NULL, NULL);
    EXPECT_STATUS(put, 0);
    EXPECT_OUT_HAS(put, "rank 0 closed at 1003032.000 us\n");
    EXPECT_OUT_HAS(put, "rank 1 closed at 1004032.000 us\n");
    /* 1 s more than the empty fence, and the put's latency: to the printed
     * nanosecond (two roundings of half a nanosecond). */
    double more = printed_us(put, 1, "closed") - printed_us(empty, 1, "closed");
    EXPECT(put, fabs(more - 1001000.0) <= 0.001);
    e2e_free(put);
    e2e_free(empty);
    /* The platform's overheads: the origin's before the put leaves, the
     * target's at its next call. */
    e2e_result *r =
        predict_rma("2", "put", "network.send_overhead=1ms", "network.recv_overhead=2ms");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 closed at 1004032.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 closed at 1007032.000 us\n");
    e2e_free(r);
}

/* OpenSHMEM's puts, gets and atomics on the same platform: derivations in
 * the header comment of tests/programs/predict_shmem.c. */
static void test_shmem_ops(void) {
    static const char *const cases[][2] = {
        {"put", "rank 0 done at 1002000.000 us\n"},
        {"get", "rank 0 done at 1003000.000 us\n"},
        {"fadd", "rank 0 done at 3008.001 us\n"},
        {"wait", "rank 1 done at 2004.000 us\n"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        e2e_result *r =
            e2e_ordex_run("predict", "-n", "2", "--ignore-compute", "--no-timeline", "--platform",
                          RMA_PLATFORM, S("tests/programs/predict_shmem.c"), cases[i][0], NULL);
        EXPECT_STATUS(r, 0);
        EXPECT_OUT_HAS(r, cases[i][1]);
        e2e_free(r);
    }
}

static void test_rma_get(void) {
    /* A request (1 ms) and the reply (1 ms + 1 s): one latency more than the put. */
    e2e_result *r = predict_rma("2", "get", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 closed at 1004032.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 closed at 1005032.000 us\n");
    e2e_free(r);
}

static void test_rma_accumulate(void) {
    /* The message, then 250000 elements x 1 ns at the target, at the
     * platform's speed. */
    e2e_result *r = predict_rma("2", "acc", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 closed at 1003282.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 closed at 1004282.000 us\n");
    e2e_free(r);
    r = predict_rma("2", "acc", "cluster.speed=2", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 closed at 1003157.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 closed at 1004157.000 us\n");
    e2e_free(r);
    /* Fetch_and_op and compare_and_swap: a round trip of a few bytes. */
    r = predict_rma("2", "fop", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 closed at 4040.001 us\n");
    EXPECT_OUT_HAS(r, "rank 1 closed at 5040.001 us\n");
    e2e_free(r);
    r = predict_rma("2", "cas", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 closed at 4044.001 us\n");
    EXPECT_OUT_HAS(r, "rank 1 closed at 5044.001 us\n");
    e2e_free(r);
}

static void test_rma_lock(void) {
    /* A round trip to the target; flush and unlock wait for the put. */
    e2e_result *r = predict_rma("2", "lock", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 locked at 3032.000 us\n");
    EXPECT_OUT_HAS(r, "rank 0 flushed at 1004032.000 us\n");
    EXPECT_OUT_HAS(r, "rank 0 unlocked at 1004032.000 us\n");
    e2e_free(r);
    /* The second locker is granted when the holder's unlock message arrives. */
    r = predict_rma("3", "contended", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 locked at 4064.000 us\n");
    EXPECT_OUT_HAS(r, "rank 0 unlocked at 14064.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 locked at 16064.000 us\n");
    e2e_free(r);
    /* Lock_all asks every member; a request operation completes when its data has moved. */
    r = predict_rma("2", "rput", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 locked all at 3032.000 us\n");
    EXPECT_OUT_HAS(r, "rank 0 rput done at 1004032.000 us\n");
    e2e_free(r);
}

static void test_rma_pscw(void) {
    /* The put leaves when the post has arrived; the wait ends when the
     * complete message has. */
    e2e_result *r = predict_rma("2", "pscw", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0 completed at 1008032.000 us\n");
    EXPECT_OUT_HAS(r, "rank 1 waited at 1009032.000 us\n");
    e2e_free(r);
}

static void test_rma_instrumented_build(void) {
    /* ordexcc's default build has the instrumentation of loads and stores:
     * `ordex run` sees rank 1's store race with the put, `ordex predict`
     * keeps the instrumentation off (it measures the computation) and says
     * that the build still slows it. */
    const char *so = e2e_tmp("predict_rma_cc.so");
    e2e_result *r = e2e_ordex_run("cc", "-O2", "-o", so, RMA, NULL);
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "2", so, "plain", NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ordex: ERROR [data_race]");
    e2e_free(r);
    const char *json = e2e_tmp("plain.json");
    const char *args[] = {"predict",
                          "-n",
                          "2",
                          "--ignore-compute",
                          "--no-timeline",
                          "--platform",
                          RMA_PLATFORM,
                          "--json",
                          json,
                          so,
                          "plain",
                          NULL};
    r = e2e_ordex_runv(args);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_LACKS(r, "data_race");
    EXPECT_ERR_HAS(r, "note: the program was built with the instrumentation of loads and stores");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_bool(doc, "measurement.instrumented") == 1);
    e2e_json_free(doc);
    e2e_free(r);
    /* Built by predict itself, without it: no note. */
    r = predict_rma("2", "plain", NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_LACKS(r, "instrumentation");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Outputs                                                                 */

static void test_timeline_files(void) {
    const char *trace = e2e_tmp("pp.trace.json"), *svg = e2e_tmp("pp.svg");
    const char *args[] = {
        "predict", "-n", "2", "--ignore-compute", "--platform", PLATFORM, "--trace", trace,
        "--svg",   svg,  P2P, "pingpong",         NULL};
    e2e_result *r = e2e_ordex_runv(args);
    EXPECT_STATUS(r, 0);
    JsonObject *t = EXPECT_JSON_FILE(r, trace);
    char *s = e2e_read_file(svg);
    EXPECT(r, e2e_json_is_array(t, "traceEvents"));
    /* 10 receives on each rank (the eager sends take no time, so they are
     * no spans), and the 20 messages as flows. */
    EXPECT(r, e2e_json_count(t, "traceEvents", "name", "MPI_Recv") == 20);
    EXPECT(r, e2e_json_count(t, "traceEvents", "name", "MPI_Send") == 0);
    EXPECT(r, e2e_json_count(t, "traceEvents", "ph", "s") == 20);
    EXPECT(r, s && strstr(s, "<svg") && strstr(s, "rank 1 (node1)"));
    EXPECT_ERR_HAS(r, "timeline: ");
    e2e_json_free(t);
    g_free(s);
    e2e_free(r);
}

static void test_sweep(void) {
    const char *json = e2e_tmp("sweep.json"), *svg = e2e_tmp("sweep.svg");
    e2e_result *r =
        predict("2", P2P, "rendezvous", "--sweep", "bandwidth=1GBps,2GBps", "--json", json);
    (void)svg;
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "network.bandwidth");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    /* latency + handshake + 1 MB at each bandwidth */
    EXPECT(r, near(e2e_json_num(doc, "sweeps[0].points[value=1GBps].predicted_time_s"), 1030e-6));
    EXPECT(r, near(e2e_json_num(doc, "sweeps[0].points[value=2GBps].predicted_time_s"), 530e-6));
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_optimised_build(void) {
    e2e_result *r = predict("2", P2P, "build", NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "optimised build\n");
    EXPECT_OUT_LACKS(r, "unoptimised");
    EXPECT_OUT_HAS(r, "loads and stores not instrumented\n");
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "2", P2P, "build", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "unoptimised build\n");
    EXPECT_OUT_HAS(r, "loads and stores instrumented\n");
    e2e_free(r);
}

static void test_sampling_and_fake_memory(void) {
    const char *args[] = {"predict",
                          "-n",
                          "2",
                          "--no-timeline",
                          "--platform",
                          PLATFORM,
                          S("tests/programs/predict_sample.c"),
                          NULL};
    e2e_result *r = e2e_ordex_runv(args);
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, "body ran 3 times\n") == 2);
    EXPECT(r, e2e_count(r->out, "fake memory ok\n") == 2);
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "2", S("tests/programs/predict_sample.c"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->out, "body ran 100 times\n") == 2);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Bad input and failing programs                                          */

static void test_bad_input(void) {
    e2e_result *r = predict("2", P2P, NULL, "--set", "network.latencyy=1us", NULL, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "--set network.latencyy=1us: [network] latencyy: unknown key");
    e2e_free(r);
    r = predict("20", P2P, NULL, NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "predict.ini:3: [cluster] oversubscribe: 20 ranks do not fit");
    e2e_free(r);
    r = e2e_ordex_run("predict", "-n", "2", "--platform", e2e_tmp("missing.ini"), P2P, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "missing.ini: cannot read the platform file");
    e2e_free(r);
    r = predict("2", P2P, NULL, "--sweep", "bandwidth=fast", NULL, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "--sweep bandwidth=fast:");
    e2e_free(r);
    r = predict("2", P2P, NULL, "--sweep", "colour=1,2", NULL, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "unknown key 'colour'");
    e2e_free(r);
    r = predict("2", P2P, NULL, "--eager-limit", "1KiB", NULL, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "network.eager_limit");
    e2e_free(r);
}

/* Platform values that parse but describe no machine are refused like inf
 * and nan; each was accepted and ended in a false deadlock (exit 1 on a
 * correct ring), a hang, a flood of GLib criticals or a 280-digit time. */
static void test_values_past_any_machine(void) {
    static const struct {
        const char *set, *text;
    } cases[] = {
        {"network.latency=1e308s", "[network] latency: must be at most 1000s"},
        {"network.bandwidth=5e-324Bps", "[network] bandwidth: must be from 1Bps to 1000TBps"},
        {"network.bandwidth=1e300TBps", "[network] bandwidth: too large"},
        {"network.rendezvous_handshake=1e308s", "[network] rendezvous_handshake: must be at most"},
        {"network.send_overhead=1e308s", "[network] send_overhead: must be at most 1000s"},
        {"cluster.speed=5e-324", "[cluster] speed: must be from 0.000001 to 1000000"},
        {"cluster.speed=1e-300", "[cluster] speed: must be from 0.000001 to 1000000"},
        {"cluster.timeslice=1e308s", "[cluster] timeslice: must be at most 1000s"},
        {"network.eager_limit=18446744073709551615", "[network] eager_limit: must be at most 1TiB"},
    };
    const char *ring = S("examples/ring.c");
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        e2e_result *r = predict("4", ring, "3", "--set", cases[i].set, NULL, NULL);
        EXPECT_STATUS(r, 2);
        EXPECT_ONE_LINE_ERROR(r, cases[i].text);
        EXPECT_ERR_LACKS(r, "CRITICAL");
        e2e_free(r);
    }
}

/* Declared computation that takes simulated time past the largest double
 * stops the simulation with one line; GLib criticals flooded stderr and
 * the simulation never ended. */
static void test_time_overflow(void) {
    e2e_result *r =
        predict("2", S("tests/programs/compute_overflow.c"), NULL, NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "simulated time overflowed");
    EXPECT_ERR_HAS(r, "ordex_compute");
    e2e_free(r);
}

/* Without --platform: the built-in platform (docs/platform.md), this machine
 * as one node with a core per online CPU and messages through shared memory
 * at 0.5 us + size / 10 GB/s.  A 1000 B ping-pong (two cores, so that no rank
 * waits for one) takes 0.5 + 0.1 us one way: 20 x 0.6 us. */
static void test_builtin_platform(void) {
    const char *json = e2e_tmp("builtin.json");
    e2e_result *r =
        e2e_ordex_run("predict", "-n", "2", "--ignore-compute", "--no-timeline", "--set",
                      "cluster.cores_per_node=2", "--json", json, P2P, "pingpong", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "pingpong 12.000 us\n");
    EXPECT_ERR_HAS(r, "2 ranks on the built-in platform (this machine: 1 node x 2 cores");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(doc, "platform", "built-in"));
    EXPECT(r, near(e2e_json_num(doc, "predicted_time_s"), 12e-6));
    e2e_json_free(doc);
    e2e_free(r);
    /* Unchanged, its cores are this machine's. */
    r = e2e_ordex_run("predict", "-n", "1", "--ignore-compute", "--no-timeline", "--json", json,
                      P2P, "cpu", NULL);
    EXPECT_STATUS(r, 0);
    doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, near(e2e_json_num(doc, "nodes"), 1));
    EXPECT(r, near(e2e_json_num(doc, "cores_per_node"), (double)sysconf(_SC_NPROCESSORS_ONLN)));
    e2e_json_free(doc);
    e2e_free(r);
    /* An override that does not parse names the key, as with a file. */
    r = e2e_ordex_run("predict", "-n", "2", "--set", "network.latency=soon", P2P, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "--set network.latency=soon: [network] latency");
    e2e_free(r);
}

/* Computation is the CPU time a rank uses between MPI calls: a rank that
 * sleeps 300 ms computes (almost) nothing, though 300 ms of wall-clock time
 * passed (and are seen in the measurement). */
static void test_compute_is_cpu_time(void) {
    const char *json = e2e_tmp("sleep.json");
    e2e_result *r = e2e_ordex_run("predict", "-n", "2", "--no-timeline", "--json", json,
                                  S("tests/programs/predict_measure.c"), "sleep", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "done\n");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_num(doc, "ranks[rank=0].compute_s") < 0.1);
    EXPECT(r, e2e_json_num(doc, "measurement.compute_wall_s") >= 0.3);
    EXPECT(r, e2e_json_num(doc, "measurement.compute_cpu_s") < 0.1);
    /* Whether the measurement was disturbed depends on what else the machine
     * runs (involuntary context switches), so it is not asserted here. */
    e2e_json_free(doc);
    e2e_free(r);
}

/* The lowest CPU this process may run on. */
static int first_cpu(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            return c;
    return 0;
}

/* With another process busy on the same CPU, the OS takes the CPU from the
 * computing rank again and again: its computation is still charged as the
 * CPU time it used, and the report says the measurement was disturbed. */
static void test_disturbed_measurement(void) {
    char *cpu = g_strdup_printf("%d", first_cpu());
    const char *busy[] = {"taskset", "-c", cpu, "sh", "-c", "while :; do :; done", NULL};
    GPid pid = 0;
    GError *err = NULL;
    bool spawned = g_spawn_async(NULL, (char **)busy, NULL,
                                 G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL, &pid, &err);
    CU_ASSERT_FATAL(spawned);
    const char *json = e2e_tmp("spin.json");
    const char *argv[] = {"taskset",
                          "-c",
                          cpu,
                          e2e_ordex(),
                          "predict",
                          "-n",
                          "2",
                          "--no-timeline",
                          "--set",
                          "cluster.cores_per_node=2",
                          "--json",
                          json,
                          S("tests/programs/predict_measure.c"),
                          "spin",
                          NULL};
    e2e_result *r = e2e_exec(argv);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    g_spawn_close_pid(pid);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "note: the machine was busy while the computation was measured: the OS "
                      "gave the CPU to other work ");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_bool(doc, "measurement.disturbed") == 1);
    EXPECT(r, e2e_json_num(doc, "measurement.involuntary_context_switches") > 0);
    double cpu_s = e2e_json_num(doc, "measurement.compute_cpu_s");
    double wall_s = e2e_json_num(doc, "measurement.compute_wall_s");
    EXPECT(r, cpu_s >= 0.3 && wall_s > cpu_s);
    /* Charged: the CPU time (within ordex's own path per call), not the
     * wall-clock time the interruptions lengthened. */
    double charged = e2e_json_num(doc, "totals.compute_s");
    EXPECT(r, charged <= cpu_s + 1e-3 && charged >= cpu_s - 1e-3);
    e2e_json_free(doc);
    e2e_free(r);
    g_free(cpu);
}

static void test_deadlock_gives_no_prediction(void) {
    /* Synchronous sends in a cycle never finish: an error, not a time. */
    const char *json = e2e_tmp("dl.json");
    e2e_result *r =
        predict("2", S("tests/programs/ssend_cycle.c"), NULL, "--json", json, NULL, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ordex: ERROR [deadlock]");
    EXPECT_ERR_HAS(r, "no prediction: the program did not finish");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_is_null(doc, "predicted_time_s"));
    EXPECT(r, e2e_json_at(doc, "findings[kind=deadlock]") != NULL);
    e2e_json_free(doc);
    e2e_free(r);
}

static void test_crash_is_a_finding(void) {
    e2e_result *r = predict("2", S("tests/programs/segv.c"), NULL, NULL, NULL, NULL, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ordex: ERROR [crash]");
    EXPECT_ERR_HAS(r, "no prediction");
    e2e_free(r);
}

static void add_predict_tests(CU_pSuite s) {
    CU_add_test(s, "eager ping-pong: 2 x (latency + size/bandwidth) per round trip", test_pingpong);
    CU_add_test(s, "two transfers sharing a link take twice as long", test_link_sharing);
    CU_add_test(s, "rendezvous adds the handshake; both sides complete together", test_rendezvous);
    CU_add_test(s, "two ranks on one core compute at half speed", test_cpu_sharing);
    CU_add_test(s, "polling ranks share the core and wait for a time slice", test_busy_wait);
    CU_add_test(s, "waits for a core are reported, and name the cores as the bottleneck",
                test_core_wait);
    CU_add_test(s, "placed ranks wait for their own turn; the mean of the placements",
                test_placements);
    CU_add_test(s, "an error in some placements is reported", test_placement_finding);
    CU_add_test(s, "a rendezvous message moves only while its receiver is in MPI", test_progress);
    CU_add_test(s, "a wildcard receive gets the message that arrives first",
                test_wildcard_arrival_order);
    CU_add_test(s, "waiting for a late sender is blocked time, the transfer comm time",
                test_blocked_versus_comm);
    CU_add_test(s, "send and receive overheads", test_overheads);
    CU_add_test(s, "dissemination barrier, also with a late member", test_barrier);
    CU_add_test(s, "binomial bcast with link sharing at each node", test_bcast_tree);
    CU_add_test(s, "bcast members leave when their data is there, not at the last call",
                test_bcast_late_member);
    CU_add_test(s, "intercommunicator bcast: root to the leader, then the leader's group",
                test_inter_bcast);
    CU_add_test(s, "recursive-doubling allreduce", test_allreduce);
    CU_add_test(s, "RMA: a fence waits for its put; creation, fence and free as MPICH's",
                test_rma_fence_put);
    CU_add_test(s, "RMA: a get is a request and a reply", test_rma_get);
    CU_add_test(s, "RMA: accumulates compute at the target; fetch_and_op and cas round trips",
                test_rma_accumulate);
    CU_add_test(s, "RMA: lock round trip, contended grant, lock_all and MPI_Rput", test_rma_lock);
    CU_add_test(s, "RMA: post, start, complete, wait", test_rma_pscw);
    CU_add_test(s, "OpenSHMEM: puts, gets, atomics, a wait for a put", test_shmem_ops);
    CU_add_test(s, "RMA: predict keeps an instrumented build's checks off, and says so",
                test_rma_instrumented_build);
    CU_add_test(s, "Chrome trace and SVG timeline", test_timeline_files);
    CU_add_test(s, "bandwidth sweep", test_sweep);
    CU_add_test(s, "ORDEX_SAMPLE and ordex_fake_alloc", test_sampling_and_fake_memory);
    CU_add_test(s, "a .c program is built with -O2 and no access checks for prediction",
                test_optimised_build);
    CU_add_test(s, "bad input: exit 2 with one line", test_bad_input);
    CU_add_test(s, "platform values past any machine: exit 2 with one line",
                test_values_past_any_machine);
    CU_add_test(s, "simulated time past the largest double: exit 2 with one line",
                test_time_overflow);
    CU_add_test(s, "without --platform: the built-in platform", test_builtin_platform);
    CU_add_test(s, "computation is CPU time: sleeping is none", test_compute_is_cpu_time);
    CU_add_test(s, "a busy CPU: CPU time charged, the report says so", test_disturbed_measurement);
    CU_add_test(s, "a deadlock gives an error, no prediction", test_deadlock_gives_no_prediction);
    CU_add_test(s, "a crash is a finding", test_crash_is_a_finding);
}

E2E_MAIN("predict", add_predict_tests)
