/*
 * test_netmodel.c - unit tests of the time models against hand-computed
 * answers: simulator/netmodel.c (latency, max-min sharing, re-rating,
 * rendezvous, segments, intra-node, fat tree, accounting) and, in a second
 * suite, simulator/cpumodel.c (cores shared by ranks).
 *
 * Units in the comments: us = 1e-6 s, ms = 1e-3 s, MB = 1e6 bytes,
 * GB/s = 1e9 bytes/s.  Expected times are written as the hand computation
 * and compared to within 1e-12 relative (the model is exact; only double
 * rounding differs).
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "perfmodel/cpumodel.h"
#include "perfmodel/netmodel.h"
#include "perfmodel/platform.h"

#define NEAR(actual, expected)                                                                     \
    CU_ASSERT_DOUBLE_EQUAL((actual), (expected), 1e-12 * fabs(expected) + 1e-18)

#define US 1e-6
#define MS 1e-3
#define MB UINT64_C(1000000)
#define GBPS 1e9

#define MAX_IDS 64

/* A platform from text plus optional overrides; the test fails if it does
 * not load. */
static pm_platform *platform(const char *text) {
    GError *e = NULL;
    pm_platform *p = pm_platform_load_data("t.ini", text, NULL, &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_PTR_NULL(e);
    g_clear_error(&e);
    return p;
}

/* 8 nodes on a crossbar, 2us latency, 1 GB/s, 10us handshake. */
static const char *const CROSSBAR = "[cluster]\nnodes = 8\ncores_per_node = 1\n"
                                    "[network]\nlatency = 2us\nbandwidth = 1GBps\n"
                                    "rendezvous_handshake = 10us\n";

/* Runs the model until nothing is left, recording each transfer's finish
 * time in finish[id].  Every step also checks the promise pm_net_next
 * makes: advancing to the time it gives completes the transfer it names at
 * exactly that time. */
static void drain(pm_net *net, double *finish) {
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    uint64_t id;
    double t;
    int guard = 0;
    while (pm_net_next(net, &id, &t) && guard++ < 1000) {
        g_array_set_size(done, 0);
        int n = pm_net_advance(net, t, done);
        CU_ASSERT_TRUE(n >= 1);
        bool seen = false;
        for (guint i = 0; i < done->len; i++) {
            pm_net_completion *c = &g_array_index(done, pm_net_completion, i);
            CU_ASSERT_FATAL(c->id < MAX_IDS);
            finish[c->id] = c->time;
            if (c->id == id) {
                seen = true;
                CU_ASSERT_EQUAL(c->time, t);
            }
        }
        CU_ASSERT_TRUE(seen);
    }
    CU_ASSERT_EQUAL(pm_net_pending(net), 0);
    g_array_free(done, TRUE);
}

/* ---------------------------------------------------------------------- */
/* Network                                                                 */

static void test_alone(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    double finish[MAX_IDS] = {0};
    /* 1 MB alone: 2us + 1e6 / 1e9 s = 2us + 1ms. */
    uint64_t a = pm_net_start(net, 0, 0, 1, MB, false);
    CU_ASSERT_EQUAL(a, 1);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 1 * MS);
    /* The same a second later: the clock moved, the cost did not. */
    uint64_t b = pm_net_start(net, 1.0, 3, 5, MB, false);
    drain(net, finish);
    NEAR(finish[b], 1.0 + 2 * US + 1 * MS);
    /* An empty message pays only the latency. */
    uint64_t c = pm_net_start(net, 2.0, 1, 2, 0, false);
    drain(net, finish);
    NEAR(finish[c], 2.0 + 2 * US);
    pm_net_free(net);
    pm_platform_free(p);
}

static void test_two_share_a_link(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    double finish[MAX_IDS] = {0};

    /* Two sends from node 0 share its tx link: 0.5 GB/s each, so each takes
     * twice the data time: 2us + 2 * 1ms. */
    pm_net *net = pm_net_new(p);
    uint64_t a = pm_net_start(net, 0, 0, 1, MB, false);
    uint64_t b = pm_net_start(net, 0, 0, 2, MB, false);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    CU_ASSERT_EQUAL(pm_net_advance(net, 2 * US, done), 0);
    NEAR(pm_net_rate(net, a), 0.5 * GBPS);
    NEAR(pm_net_rate(net, b), 0.5 * GBPS);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 2 * MS);
    NEAR(finish[b], 2 * US + 2 * MS);
    pm_net_free(net);

    /* Two sends to node 0 share its rx link the same way. */
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 1, 0, MB, false);
    b = pm_net_start(net, 0, 2, 0, MB, false);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 2 * MS);
    NEAR(finish[b], 2 * US + 2 * MS);
    pm_net_free(net);

    /* Full duplex: 0 -> 1 and 1 -> 0 use different directions, no sharing. */
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 1, MB, false);
    b = pm_net_start(net, 0, 1, 0, MB, false);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 1 * MS);
    NEAR(finish[b], 2 * US + 1 * MS);
    pm_net_free(net);

    g_array_free(done, TRUE);
    pm_platform_free(p);
}

/* Max-min on three links with distinct shares (no latency).
 *   capacities: L1 = 1 GB/s, L2 = 4 GB/s, L3 = 2 GB/s
 *   flows:      A over L1+L2 (1e9 bytes), B over L2 (6e9 bytes),
 *               C over L3 (3e9 bytes)
 * Progressive filling: the shares are L1: 1/1 = 1, L2: 4/2 = 2, L3: 2/1 = 2.
 * L1 saturates first: A = 1 GB/s.  Then L2 has 4 - 1 = 3 left for B alone
 * and L3 has 2 for C: the next level is 2, C = 2 GB/s; B = 3 GB/s.
 *   A: 1e9 / 1e9 = 1 s.
 *   C: 3e9 / 2e9 = 1.5 s.
 *   B: 3 GB/s until A ends at 1 s (3e9 bytes sent, 3e9 left), then alone on
 *      L2 at 4 GB/s: 3e9 / 4e9 = 0.75 s more, so 1.75 s. */
static void test_max_min_three_links(void) {
    const double cap[3] = {1 * GBPS, 4 * GBPS, 2 * GBPS};
    pm_net *net = pm_net_new_links(3, cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    uint64_t a = pm_net_start_path(net, 0, (int[]){0, 1}, 2, 0, INFINITY, 1000 * MB);
    uint64_t b = pm_net_start_path(net, 0, (int[]){1}, 1, 0, INFINITY, 6000 * MB);
    uint64_t c = pm_net_start_path(net, 0, (int[]){2}, 1, 0, INFINITY, 3000 * MB);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    CU_ASSERT_EQUAL(pm_net_advance(net, 0, done), 0);
    NEAR(pm_net_rate(net, a), 1 * GBPS);
    NEAR(pm_net_rate(net, b), 3 * GBPS);
    NEAR(pm_net_rate(net, c), 2 * GBPS);

    uint64_t id;
    double t;
    CU_ASSERT_TRUE(pm_net_next(net, &id, &t));
    CU_ASSERT_EQUAL(id, a);
    NEAR(t, 1.0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 1);
    /* Re-rated when A ended: B gets all of L2. */
    NEAR(pm_net_rate(net, b), 4 * GBPS);
    NEAR(pm_net_rate(net, c), 2 * GBPS);
    CU_ASSERT_EQUAL(pm_net_rate(net, a), -1);

    double finish[MAX_IDS] = {0};
    drain(net, finish);
    NEAR(finish[c], 1.5);
    NEAR(finish[b], 1.75);
    g_array_free(done, TRUE);
    pm_net_free(net);
}

/* A per-transfer cap below the fair share leaves the rest to the others:
 * one 10 GB/s link, A capped at 2 GB/s, B uncapped: A = 2, B = 8 GB/s. */
static void test_cap_frees_capacity(void) {
    const double cap[1] = {10 * GBPS};
    pm_net *net = pm_net_new_links(1, cap);
    uint64_t a = pm_net_start_path(net, 0, (int[]){0}, 1, 0, 2 * GBPS, 2000 * MB);
    uint64_t b = pm_net_start_path(net, 0, (int[]){0}, 1, 0, INFINITY, 8000 * MB);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    pm_net_advance(net, 0, done);
    NEAR(pm_net_rate(net, a), 2 * GBPS);
    NEAR(pm_net_rate(net, b), 8 * GBPS);
    double finish[MAX_IDS] = {0};
    drain(net, finish);
    NEAR(finish[a], 1.0); /* 2e9 / 2e9 */
    NEAR(finish[b], 1.0); /* 8e9 / 8e9 */
    g_array_free(done, TRUE);
    pm_net_free(net);
}

/* Re-rating when a flow ends early: 1 MB and 3 MB from node 0, 1 GB/s,
 * 2us latency.  Both stream from 2us at 0.5 GB/s; the 1 MB one ends at
 * 2us + 2ms having let the other send 1 MB; the other's last 2 MB then go
 * at 1 GB/s: 2ms more, so 2us + 4ms (= all 4 MB at the link's full rate). */
static void test_rerate_when_one_ends(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    uint64_t a = pm_net_start(net, 0, 0, 1, 1 * MB, false);
    uint64_t b = pm_net_start(net, 0, 0, 2, 3 * MB, false);
    double finish[MAX_IDS] = {0};
    drain(net, finish);
    NEAR(finish[a], 2 * US + 2 * MS);
    NEAR(finish[b], 2 * US + 4 * MS);
    pm_net_free(net);
    pm_platform_free(p);
}

/* Latency uses no bandwidth, and a later start re-rates the running flow.
 * Latency 1ms, 1 GB/s.  A: 2 MB at 0, streams from 1ms.  B: 1 MB at 0.5ms,
 * streams from 1.5ms.  A alone 1ms..1.5ms: 0.5 MB.  Shared at 0.5 GB/s
 * from 1.5ms: B needs 2ms, ends at 3.5ms; by then A has 1.5 MB, its last
 * 0.5 MB alone take 0.5ms: A ends at 4ms. */
static void test_rerate_when_one_starts(void) {
    pm_platform *p = platform("[cluster]\nnodes = 3\ncores_per_node = 1\n"
                               "[network]\nlatency = 1ms\nbandwidth = 1GBps\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    uint64_t a = pm_net_start(net, 0, 0, 1, 2 * MB, false);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    CU_ASSERT_EQUAL(pm_net_advance(net, 0.25 * MS, done), 0);
    CU_ASSERT_EQUAL(pm_net_rate(net, a), 0); /* still in its latency */
    uint64_t b = pm_net_start(net, 0.5 * MS, 0, 2, 1 * MB, false);
    CU_ASSERT_EQUAL(pm_net_advance(net, 1.2 * MS, done), 0);
    NEAR(pm_net_rate(net, a), 1 * GBPS);
    CU_ASSERT_EQUAL(pm_net_rate(net, b), 0);
    CU_ASSERT_EQUAL(pm_net_advance(net, 1.5 * MS, done), 0);
    NEAR(pm_net_rate(net, a), 0.5 * GBPS);
    NEAR(pm_net_rate(net, b), 0.5 * GBPS);
    double finish[MAX_IDS] = {0};
    drain(net, finish);
    NEAR(finish[b], 3.5 * MS);
    NEAR(finish[a], 4 * MS);
    g_array_free(done, TRUE);
    pm_net_free(net);
    pm_platform_free(p);
}

/* A rendezvous message pays the handshake on top: 2us + 10us + 1ms; with
 * the default handshake (2 x latency = 4us): 2us + 4us + 1ms. */
static void test_rendezvous(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    uint64_t a = pm_net_start(net, 0, 0, 1, MB, true);
    uint64_t b = pm_net_start(net, 0, 2, 3, MB, false);
    double finish[MAX_IDS] = {0};
    drain(net, finish);
    NEAR(finish[a], 2 * US + 10 * US + 1 * MS);
    NEAR(finish[b], 2 * US + 1 * MS);
    pm_net_free(net);
    pm_platform_free(p);

    p = platform("[cluster]\nnodes = 2\ncores_per_node = 1\n"
                 "[network]\nlatency = 2us\nbandwidth = 1GBps\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 1, MB, true);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 4 * US + 1 * MS);
    pm_net_free(net);
    pm_platform_free(p);
}

/* Segments: 0B: 1us 1 GB/s; 1KiB: 2us 2 GB/s; 1MiB: 5us 4 GB/s.  Node links
 * carry 4 GB/s (the largest).  Four messages on disjoint node pairs, each
 * alone:
 *   100 B:     1us + 100 / 1e9
 *   1024 B:    2us + 1024 / 2e9
 *   1048575 B: 2us + 1048575 / 2e9
 *   1048576 B: 5us + 1048576 / 4e9 */
static const char *const SEGMENTS = "[cluster]\nnodes = 8\ncores_per_node = 1\n"
                                    "[network]\n"
                                    "segment.1 = 0B 1us 1GBps\n"
                                    "segment.2 = 1KiB 2us 2GBps\n"
                                    "segment.3 = 1MiB 5us 4GBps\n";

static void test_segments(void) {
    pm_platform *p = platform(SEGMENTS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    uint64_t a = pm_net_start(net, 0, 0, 1, 100, false);
    uint64_t b = pm_net_start(net, 0, 2, 3, 1024, false);
    uint64_t c = pm_net_start(net, 0, 4, 5, 1048575, false);
    uint64_t d = pm_net_start(net, 0, 6, 7, 1048576, false);
    double finish[MAX_IDS] = {0};
    drain(net, finish);
    NEAR(finish[a], 1 * US + 100 / 1e9);
    NEAR(finish[b], 2 * US + 1024 / 2e9);
    NEAR(finish[c], 2 * US + 1048575 / 2e9);
    NEAR(finish[d], 5 * US + 1048576 / 4e9);
    pm_net_free(net);

    /* Two 64 KiB messages from node 0: each capped at 2 GB/s, together 4 GB/s
     * = the link: no slowdown, 2us + 65536 / 2e9 each.  A third one makes
     * the link the bottleneck: 4/3 GB/s each, 2us + 65536 / (4e9 / 3). */
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 1, 65536, false);
    b = pm_net_start(net, 0, 0, 2, 65536, false);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 65536 / 2e9);
    NEAR(finish[b], 2 * US + 65536 / 2e9);
    pm_net_free(net);
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 1, 65536, false);
    b = pm_net_start(net, 0, 0, 2, 65536, false);
    c = pm_net_start(net, 0, 0, 3, 65536, false);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 65536 / (4e9 / 3));
    NEAR(finish[c], 2 * US + 65536 / (4e9 / 3));
    pm_net_free(net);
    pm_platform_free(p);
}

/* Intra-node: 0.5us, 10 GB/s on the node's shared-memory link. */
static void test_intranode(void) {
    pm_platform *p = platform("[cluster]\nnodes = 2\ncores_per_node = 4\n"
                               "[network]\nlatency = 2us\nbandwidth = 1GBps\n"
                               "[intranode]\nlatency = 0.5us\nbandwidth = 10GBps\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    double finish[MAX_IDS] = {0};

    /* Local 1 MB: 0.5us + 1e6 / 1e10 = 0.5us + 0.1ms.  A network send from
     * the same node at the same time is not slowed: 2us + 1ms. */
    pm_net *net = pm_net_new(p);
    uint64_t a = pm_net_start(net, 0, 0, 0, MB, false);
    uint64_t b = pm_net_start(net, 0, 0, 1, MB, false);
    /* Node 1's local traffic does not share node 0's memory. */
    uint64_t c = pm_net_start(net, 0, 1, 1, MB, false);
    drain(net, finish);
    NEAR(finish[a], 0.5 * US + 0.1 * MS);
    NEAR(finish[b], 2 * US + 1 * MS);
    NEAR(finish[c], 0.5 * US + 0.1 * MS);
    pm_net_free(net);

    /* Two local messages on node 0 share its memory bandwidth: 0.5us + 0.2ms. */
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 0, MB, false);
    b = pm_net_start(net, 0, 0, 0, MB, false);
    drain(net, finish);
    NEAR(finish[a], 0.5 * US + 0.2 * MS);
    NEAR(finish[b], 0.5 * US + 0.2 * MS);
    pm_net_free(net);

    /* A local rendezvous pays one more round trip: 3 x 0.5us + 0.1ms. */
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 1, 1, MB, true);
    drain(net, finish);
    NEAR(finish[a], 1.5 * US + 0.1 * MS);
    pm_net_free(net);
    pm_platform_free(p);

    /* Without [intranode], a local message costs a network one: 2us + 1ms. */
    p = platform("[cluster]\nnodes = 2\ncores_per_node = 4\n"
                 "[network]\nlatency = 2us\nbandwidth = 1GBps\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 0, MB, false);
    drain(net, finish);
    NEAR(finish[a], 2 * US + 1 * MS);
    pm_net_free(net);
    pm_platform_free(p);
}

/* Fat tree: 4 nodes, 2 per leaf (leaf 0: nodes 0, 1; leaf 1: nodes 2, 3),
 * nodes at 1 GB/s, 1us latency. */
static void test_fattree(void) {
    const char *base = "[cluster]\nnodes = 4\ncores_per_node = 1\n"
                       "[network]\ntopology = fattree\nlatency = 1us\nbandwidth = 1GBps\n"
                       "[fattree]\nnodes_per_leaf = 2\n";
    double finish[MAX_IDS] = {0};

    /* Uplinks of 1 GB/s: 0 -> 2 and 1 -> 3 share leaf 0's up link (and leaf
     * 1's down link): 0.5 GB/s each, 1us + 2ms.  0 -> 1 within a leaf
     * started with them would share tx0; run it separately: 2 -> 3 and
     * 0 -> 1 at the same time do not touch the uplinks: 1us + 1ms. */
    char *text = g_strconcat(base, "uplink_bandwidth = 1GBps\n", NULL);
    pm_platform *p = platform(text);
    g_free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    CU_ASSERT_EQUAL(pm_net_nlinks(net), 3 * 4 + 2 * 2);
    uint64_t a = pm_net_start(net, 0, 0, 2, MB, false);
    uint64_t b = pm_net_start(net, 0, 1, 3, MB, false);
    drain(net, finish);
    NEAR(finish[a], 1 * US + 2 * MS);
    NEAR(finish[b], 1 * US + 2 * MS);
    int up0 = pm_net_link(net, PM_NET_UP, 0);
    pm_net_link_stats st;
    pm_net_link_stats_get(net, up0, &st);
    CU_ASSERT_STRING_EQUAL(st.name, "leaf0.up");
    NEAR(st.bytes, 2.0 * MB);
    NEAR(st.busy, 2 * MS);
    pm_net_free(net);

    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 1, MB, false);
    b = pm_net_start(net, 0, 2, 3, MB, false);
    drain(net, finish);
    NEAR(finish[a], 1 * US + 1 * MS);
    NEAR(finish[b], 1 * US + 1 * MS);
    pm_net_link_stats_get(net, up0, &st);
    CU_ASSERT_EQUAL(st.bytes, 0);
    pm_net_free(net);
    pm_platform_free(p);

    /* Uplinks of 1.5 GB/s, with A: 0 -> 2, B: 1 -> 3, C: 0 -> 1.
     * Shares: tx0 {A, C}: 0.5; up0 {A, B}: 0.75; down1 {A, B}: 0.75; the
     * rest 1.  tx0 saturates first: A = C = 0.5 GB/s.  Then up0 has 1.0 left
     * for B, as do tx1 and rx3: B = 1 GB/s.  B ends at 1us + 1ms; A and C
     * stay held by tx0 at 0.5 GB/s: 1us + 2ms. */
    text = g_strconcat(base, "uplink_bandwidth = 1.5GBps\n", NULL);
    p = platform(text);
    g_free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    net = pm_net_new(p);
    a = pm_net_start(net, 0, 0, 2, MB, false);
    b = pm_net_start(net, 0, 1, 3, MB, false);
    uint64_t c = pm_net_start(net, 0, 0, 1, MB, false);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    pm_net_advance(net, 1 * US, done);
    NEAR(pm_net_rate(net, a), 0.5 * GBPS);
    NEAR(pm_net_rate(net, b), 1.0 * GBPS);
    NEAR(pm_net_rate(net, c), 0.5 * GBPS);
    drain(net, finish);
    NEAR(finish[b], 1 * US + 1 * MS);
    NEAR(finish[a], 1 * US + 2 * MS);
    NEAR(finish[c], 1 * US + 2 * MS);
    g_array_free(done, TRUE);
    pm_net_free(net);
    pm_platform_free(p);
}

/* Link accounting: 0 -> 1 and 0 -> 2, 1 MB each, share tx0 for 2ms. */
static void test_accounting(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    CU_ASSERT_EQUAL(pm_net_busiest_link(net), -1);
    pm_net_start(net, 0, 0, 1, MB, false);
    pm_net_start(net, 0, 0, 2, MB, false);
    double finish[MAX_IDS] = {0};
    drain(net, finish);
    pm_net_link_stats st;
    int tx0 = pm_net_link(net, PM_NET_TX, 0);
    pm_net_link_stats_get(net, tx0, &st);
    CU_ASSERT_STRING_EQUAL(st.name, "node0.tx");
    NEAR(st.capacity, 1 * GBPS);
    NEAR(st.bytes, 2.0 * MB);
    NEAR(st.busy, 2 * MS); /* the latency phase (2us) is not busy */
    pm_net_link_stats_get(net, pm_net_link(net, PM_NET_RX, 1), &st);
    CU_ASSERT_STRING_EQUAL(st.name, "node1.rx");
    NEAR(st.bytes, 1.0 * MB);
    NEAR(st.busy, 2 * MS);
    CU_ASSERT_EQUAL(pm_net_busiest_link(net), tx0);
    CU_ASSERT_EQUAL(pm_net_link(net, PM_NET_UP, 0), -1); /* no leaves on a crossbar */
    CU_ASSERT_EQUAL(pm_net_link(net, PM_NET_TX, 8), -1);
    pm_net_free(net);
    pm_platform_free(p);
}

/* The driving protocol: advancing short of a completion completes nothing;
 * a completion that falls before a later start is returned by the next
 * advance with its own time; simultaneous completions come in id order and
 * pm_net_next names the lowest id. */
static void test_protocol(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    uint64_t id;
    double t;
    CU_ASSERT_FALSE(pm_net_next(net, &id, &t));
    uint64_t a = pm_net_start(net, 0, 0, 1, MB, false); /* ends at 2us + 1ms */
    CU_ASSERT_EQUAL(pm_net_advance(net, 0.5 * MS, done), 0);
    NEAR(pm_net_now(net), 0.5 * MS);
    /* Start something at 5ms without advancing to 1.002ms first. */
    uint64_t b = pm_net_start(net, 5 * MS, 2, 3, MB, false);
    CU_ASSERT_EQUAL(pm_net_pending(net), 2);
    CU_ASSERT_TRUE(pm_net_next(net, &id, &t));
    CU_ASSERT_EQUAL(id, a);
    NEAR(t, 2 * US + 1 * MS);
    CU_ASSERT_EQUAL(pm_net_advance(net, 5 * MS, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, a);
    NEAR(g_array_index(done, pm_net_completion, 0).time, 2 * US + 1 * MS);
    CU_ASSERT_EQUAL(pm_net_pending(net), 1);

    /* Two that end together (disjoint links, same size): both returned at
     * once, lower id first. */
    uint64_t c = pm_net_start(net, 5 * MS, 4, 5, MB, false);
    CU_ASSERT_TRUE(pm_net_next(net, &id, &t));
    CU_ASSERT_EQUAL(id, b);
    NEAR(t, 5 * MS + 2 * US + 1 * MS);
    g_array_set_size(done, 0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 2);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, b);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 1).id, c);
    CU_ASSERT_EQUAL(pm_net_pending(net), 0);
    CU_ASSERT_FALSE(pm_net_next(net, &id, &t));
    g_array_free(done, TRUE);
    pm_net_free(net);
    pm_platform_free(p);
}

/* Many staggered transfers through shared links: the accounting must add
 * up to the bytes sent, and every transfer must take at least its
 * stand-alone time. */
static void test_conservation(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    double finish[MAX_IDS] = {0}, start[MAX_IDS] = {0};
    uint64_t bytes[MAX_IDS] = {0};
    double total = 0;
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    for (int i = 0; i < 40; i++) {
        double t = i * 0.1 * MS;
        g_array_set_size(done, 0);
        pm_net_advance(net, t, done);
        for (guint k = 0; k < done->len; k++) {
            pm_net_completion *c = &g_array_index(done, pm_net_completion, k);
            finish[c->id] = c->time;
        }
        uint64_t size = (uint64_t)(100000 + 37000 * (i % 7));
        uint64_t id = pm_net_start(net, t, i % 3, 3 + i % 4, size, i % 5 == 0);
        start[id] = t;
        bytes[id] = size;
        total += (double)size;
    }
    drain(net, finish);
    double tx = 0;
    for (int n = 0; n < 3; n++) {
        pm_net_link_stats st;
        pm_net_link_stats_get(net, pm_net_link(net, PM_NET_TX, n), &st);
        tx += st.bytes;
    }
    CU_ASSERT_DOUBLE_EQUAL(tx, total, total * 1e-9);
    for (uint64_t id = 1; id <= 40; id++)
        CU_ASSERT_TRUE(finish[id] >= start[id] + 2 * US + (double)bytes[id] / 1e9 - 1e-15);
    g_array_free(done, TRUE);
    pm_net_free(net);
    pm_platform_free(p);
}

/* Stepping event by event with pm_net_next_event (crossbar, 2us latency,
 * 1 GB/s).  A: 1 MB 0 -> 1 at 0 streams from 2us.  B: 1 MB 0 -> 2 at 0.5ms
 * streams from 0.502ms and shares tx0: A has sent 0.5 MB alone and sends
 * its last 0.5 MB at 0.5 GB/s, ending at 1.502ms, when B has 0.5 MB left;
 * B alone then ends at 2.002ms. */
static void test_next_event(void) {
    pm_platform *p = platform(CROSSBAR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pm_net *net = pm_net_new(p);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    double t = -1;
    CU_ASSERT_FALSE(pm_net_next_event(net, &t));
    uint64_t a = pm_net_start(net, 0, 0, 1, MB, false);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 2 * US); /* A's latency ends */
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 0);
    NEAR(pm_net_rate(net, a), 1 * GBPS);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 2 * US + 1 * MS); /* A's finish if nothing starts */
    uint64_t b = pm_net_start(net, 0.5 * MS, 0, 2, MB, false);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 0.5 * MS + 2 * US); /* now B's latency ends first */
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 0);
    NEAR(pm_net_rate(net, a), 0.5 * GBPS);
    NEAR(pm_net_rate(net, b), 0.5 * GBPS);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 1.502 * MS);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, a);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).time, t);
    NEAR(pm_net_rate(net, b), 1 * GBPS);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 2.002 * MS);
    g_array_set_size(done, 0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, b);
    CU_ASSERT_FALSE(pm_net_next_event(net, &t));
    CU_ASSERT_EQUAL(pm_net_pending(net), 0);

    /* A completion that falls before a later start waits to be returned:
     * the next event is then now, and advancing to it returns the
     * completion with its own time.  C: 3ms -> 4.002ms; D starts at 10ms. */
    uint64_t c = pm_net_start(net, 3 * MS, 3, 4, MB, false);
    uint64_t d = pm_net_start(net, 10 * MS, 5, 6, MB, false);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    CU_ASSERT_EQUAL(t, pm_net_now(net));
    NEAR(t, 10 * MS);
    g_array_set_size(done, 0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, c);
    NEAR(g_array_index(done, pm_net_completion, 0).time, 3 * MS + 2 * US + 1 * MS);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 10 * MS + 2 * US);

    /* An empty message: its only event is the end of its latency, which
     * completes it.  E at 10.001ms: after D's latency end, before D's finish. */
    uint64_t e = pm_net_start(net, 10.001 * MS, 1, 2, 0, false);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 10 * MS + 2 * US); /* D's latency end is still first */
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 0);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 10.001 * MS + 2 * US);
    g_array_set_size(done, 0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, e);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 10 * MS + 2 * US + 1 * MS);
    g_array_set_size(done, 0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, d);
    CU_ASSERT_FALSE(pm_net_next_event(net, &t));
    g_array_free(done, TRUE);
    pm_net_free(net);
    pm_platform_free(p);

    /* A transfer over no link streams at its cap: latency 1 s, then 4 bytes
     * at 2 bytes/s end at 3 s. */
    net = pm_net_new_links(0, NULL);
    done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    uint64_t f = pm_net_start_path(net, 0, NULL, 0, 1.0, 2.0, 4);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 1.0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 0);
    NEAR(pm_net_rate(net, f), 2.0);
    CU_ASSERT_TRUE(pm_net_next_event(net, &t));
    NEAR(t, 3.0);
    CU_ASSERT_EQUAL(pm_net_advance(net, t, done), 1);
    CU_ASSERT_FALSE(pm_net_next_event(net, &t));
    g_array_free(done, TRUE);
    pm_net_free(net);
}

/* Events elsewhere leave a link's accounting alone, and it still reads
 * exactly at any time.  Links 0 and 1 of 1 GB/s: A streams 4e9 bytes over
 * link 0 from 0 to 4 s; B and C come and go on link 1 meanwhile. */
static void test_accounting_between_events(void) {
    const double cap[2] = {1 * GBPS, 1 * GBPS};
    pm_net *net = pm_net_new_links(2, cap);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    uint64_t a = pm_net_start_path(net, 0, (int[]){0}, 1, 0, INFINITY, 4000 * MB);
    pm_net_start_path(net, 0.5, (int[]){1}, 1, 0, INFINITY, 1000 * MB); /* 0.5 .. 1.5 */
    pm_net_link_stats st;
    CU_ASSERT_EQUAL(pm_net_advance(net, 1.0, done), 0);
    pm_net_link_stats_get(net, 0, &st);
    NEAR(st.bytes, 1000.0 * MB);
    NEAR(st.busy, 1.0);
    pm_net_link_stats_get(net, 1, &st);
    NEAR(st.bytes, 500.0 * MB);
    NEAR(st.busy, 0.5);
    pm_net_start_path(net, 2.0, (int[]){1}, 1, 0, INFINITY, 500 * MB); /* 2 .. 2.5 */
    CU_ASSERT_EQUAL(pm_net_advance(net, 3.0, done), 2);
    pm_net_link_stats_get(net, 0, &st);
    NEAR(st.bytes, 3000.0 * MB);
    NEAR(st.busy, 3.0);
    pm_net_link_stats_get(net, 1, &st);
    NEAR(st.bytes, 1500.0 * MB);
    NEAR(st.busy, 1.5);
    CU_ASSERT_EQUAL(pm_net_busiest_link(net), 0);
    NEAR(pm_net_rate(net, a), 1 * GBPS);
    g_array_set_size(done, 0);
    CU_ASSERT_EQUAL(pm_net_advance(net, 10.0, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, a);
    NEAR(g_array_index(done, pm_net_completion, 0).time, 4.0);
    pm_net_link_stats_get(net, 0, &st);
    NEAR(st.bytes, 4000.0 * MB);
    NEAR(st.busy, 4.0);
    g_array_free(done, TRUE);
    pm_net_free(net);
}

/* ---------------------------------------------------------------------- */
/* CPU                                                                     */

static void cpu_drain(pm_cpu *cpu, double *finish) {
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    uint64_t id;
    double t;
    int guard = 0;
    while (pm_cpu_next(cpu, &id, &t) && guard++ < 1000) {
        g_array_set_size(done, 0);
        CU_ASSERT_TRUE(pm_cpu_advance(cpu, t, done) >= 1);
        bool seen = false;
        for (guint i = 0; i < done->len; i++) {
            pm_cpu_completion *c = &g_array_index(done, pm_cpu_completion, i);
            CU_ASSERT_FATAL(c->id < MAX_IDS);
            finish[c->id] = c->time;
            seen |= c->id == id;
        }
        CU_ASSERT_TRUE(seen);
    }
    g_array_free(done, TRUE);
}

static void test_cpu_share(void) {
    CU_ASSERT_DOUBLE_EQUAL(pm_cpu_share(0, 4, 1.0), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(pm_cpu_share(4, 4, 1.0), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(pm_cpu_share(8, 4, 1.0), 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(pm_cpu_share(3, 2, 1.5), 1.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(pm_cpu_share(1, 1, 2.0), 2.0, 0);
}

/* Alone: 1 s of work takes 1 s, or 0.5 s on cores twice as fast. */
static void test_cpu_alone(void) {
    double finish[MAX_IDS] = {0};
    pm_cpu *cpu = pm_cpu_new(2, 1, 1.0);
    uint64_t a = pm_cpu_start(cpu, 0, 0, 1.0);
    cpu_drain(cpu, finish);
    NEAR(finish[a], 1.0);
    pm_cpu_free(cpu);
    cpu = pm_cpu_new(2, 1, 2.0);
    a = pm_cpu_start(cpu, 3.0, 1, 1.0);
    cpu_drain(cpu, finish);
    NEAR(finish[a], 3.5);
    /* No work: done when started. */
    uint64_t z = pm_cpu_start(cpu, 4.0, 0, 0);
    cpu_drain(cpu, finish);
    NEAR(finish[z], 4.0);
    pm_cpu_free(cpu);
}

/* Two ranks on one core each take twice as long; on two cores they do not
 * slow down; on different nodes they do not meet. */
static void test_cpu_two_on_one_core(void) {
    double finish[MAX_IDS] = {0};
    pm_cpu *cpu = pm_cpu_new(2, 1, 1.0);
    uint64_t a = pm_cpu_start(cpu, 0, 0, 1.0);
    uint64_t b = pm_cpu_start(cpu, 0, 0, 1.0);
    CU_ASSERT_EQUAL(pm_cpu_runnable(cpu, 0), 2);
    NEAR(pm_cpu_rate(cpu, 0), 0.5);
    uint64_t c = pm_cpu_start(cpu, 0, 1, 1.0);
    cpu_drain(cpu, finish);
    NEAR(finish[a], 2.0);
    NEAR(finish[b], 2.0);
    NEAR(finish[c], 1.0);
    NEAR(pm_cpu_busy(cpu, 0), 2.0);
    NEAR(pm_cpu_work_done(cpu, 0), 2.0);
    CU_ASSERT_EQUAL(pm_cpu_runnable(cpu, 0), 0);
    pm_cpu_free(cpu);

    cpu = pm_cpu_new(1, 2, 1.0);
    a = pm_cpu_start(cpu, 0, 0, 1.0);
    b = pm_cpu_start(cpu, 0, 0, 1.0);
    cpu_drain(cpu, finish);
    NEAR(finish[a], 1.0);
    NEAR(finish[b], 1.0);
    pm_cpu_free(cpu);

    /* Three ranks on two cores: 2/3 each, 1 s of work takes 1.5 s. */
    cpu = pm_cpu_new(1, 2, 1.0);
    a = pm_cpu_start(cpu, 0, 0, 1.0);
    b = pm_cpu_start(cpu, 0, 0, 1.0);
    c = pm_cpu_start(cpu, 0, 0, 1.0);
    cpu_drain(cpu, finish);
    NEAR(finish[a], 1.5);
    NEAR(finish[c], 1.5);
    pm_cpu_free(cpu);
}

/* Compute seconds to wall seconds while the runnable count changes.
 * One core.  A: 1 s and B: 3 s at 0 run at 0.5 until A ends at 2 s (B has
 * done 1 s); B's last 2 s alone end at 4 s.
 * Then C: 2 s at 10 and D: 0.5 s at 11: C alone 10..11 (1 s done); shared
 * at 0.5 from 11, D needs 1 s of wall time, ends at 12; C has done 1.5 s,
 * its last 0.5 s alone end at 12.5. */
static void test_cpu_rerate(void) {
    double finish[MAX_IDS] = {0};
    pm_cpu *cpu = pm_cpu_new(1, 1, 1.0);
    uint64_t a = pm_cpu_start(cpu, 0, 0, 1.0);
    uint64_t b = pm_cpu_start(cpu, 0, 0, 3.0);
    cpu_drain(cpu, finish);
    NEAR(finish[a], 2.0);
    NEAR(finish[b], 4.0);

    uint64_t c = pm_cpu_start(cpu, 10.0, 0, 2.0);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    CU_ASSERT_EQUAL(pm_cpu_advance(cpu, 10.5, done), 0);
    uint64_t d = pm_cpu_start(cpu, 11.0, 0, 0.5);
    NEAR(pm_cpu_rate(cpu, 0), 0.5);
    uint64_t id;
    double t;
    CU_ASSERT_TRUE(pm_cpu_next(cpu, &id, &t));
    CU_ASSERT_EQUAL(id, d);
    NEAR(t, 12.0);
    cpu_drain(cpu, finish);
    NEAR(finish[d], 12.0);
    NEAR(finish[c], 12.5);
    NEAR(pm_cpu_work_done(cpu, 0), 1.0 + 3.0 + 2.0 + 0.5);
    NEAR(pm_cpu_busy(cpu, 0), 4.0 + 2.5);
    g_array_free(done, TRUE);
    pm_cpu_free(cpu);
}

/* A job that ends before a later start is reported by the next advance
 * with its own time. */
/* Polling ranks take cores without doing work.  One node of two cores.
 * A: 3 s of work at 0 with two pollers: 3 ranks on 2 cores, rate 2/3;
 * at 1.5 s (1 s done) one poller stops: rate 1, the last 2 s end at 3.5.
 * B: 1 s at 10 with three pollers: rate 1/2, ends at 12.  Pollers alone
 * never finish and do not count as busy. */
static void test_cpu_pollers(void) {
    double finish[MAX_IDS] = {0};
    pm_cpu *cpu = pm_cpu_new(1, 2, 1.0);
    CU_ASSERT_TRUE(pm_cpu_set_pollers(cpu, 0, 0, 2));
    uint64_t a = pm_cpu_start(cpu, 0, 0, 3.0);
    NEAR(pm_cpu_rate(cpu, 0), 2.0 / 3);
    CU_ASSERT_EQUAL(pm_cpu_runnable(cpu, 0), 1);
    CU_ASSERT_EQUAL(pm_cpu_pollers(cpu, 0), 2);
    CU_ASSERT_TRUE(pm_cpu_set_pollers(cpu, 1.5, 0, 1));
    NEAR(pm_cpu_rate(cpu, 0), 1.0);
    cpu_drain(cpu, finish);
    NEAR(finish[a], 3.5);
    NEAR(pm_cpu_work_done(cpu, 0), 3.0);
    CU_ASSERT_TRUE(pm_cpu_set_pollers(cpu, 10.0, 0, 3));
    uint64_t b = pm_cpu_start(cpu, 10.0, 0, 1.0);
    cpu_drain(cpu, finish);
    NEAR(finish[b], 12.0);
    NEAR(pm_cpu_busy(cpu, 0), 5.5);
    uint64_t id;
    double t;
    CU_ASSERT_FALSE(pm_cpu_next(cpu, &id, &t));
    CU_ASSERT_FALSE(pm_cpu_set_pollers(cpu, 11.0, 0, 0)); /* before now */
    CU_ASSERT_FALSE(pm_cpu_set_pollers(cpu, 13.0, 0, -1));
    pm_cpu_free(cpu);
}

static void test_cpu_protocol(void) {
    pm_cpu *cpu = pm_cpu_new(2, 1, 1.0);
    uint64_t a = pm_cpu_start(cpu, 0, 0, 1.0);
    uint64_t b = pm_cpu_start(cpu, 5.0, 1, 1.0);
    uint64_t id;
    double t;
    CU_ASSERT_TRUE(pm_cpu_next(cpu, &id, &t));
    CU_ASSERT_EQUAL(id, a);
    NEAR(t, 1.0);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    CU_ASSERT_EQUAL(pm_cpu_advance(cpu, 5.5, done), 1);
    CU_ASSERT_EQUAL(g_array_index(done, pm_cpu_completion, 0).id, a);
    NEAR(g_array_index(done, pm_cpu_completion, 0).time, 1.0);
    CU_ASSERT_TRUE(pm_cpu_next(cpu, &id, &t));
    CU_ASSERT_EQUAL(id, b);
    NEAR(t, 6.0);
    g_array_free(done, TRUE);
    pm_cpu_free(cpu);
}

/* Busy time and work done of a node read exactly at any time, while other
 * nodes' jobs come and go.  Node 1 (1 core): A, 4 s from 0.  Node 0
 * (1 core): B 1 s and C 1 s from 1 (shared: both end at 3). */
static void test_cpu_accounting_between_events(void) {
    pm_cpu *cpu = pm_cpu_new(2, 1, 1.0);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    pm_cpu_start(cpu, 0, 1, 4.0);
    CU_ASSERT_EQUAL(pm_cpu_advance(cpu, 0.5, done), 0);
    NEAR(pm_cpu_busy(cpu, 1), 0.5);
    NEAR(pm_cpu_work_done(cpu, 1), 0.5);
    CU_ASSERT_EQUAL(pm_cpu_busy(cpu, 0), 0);
    uint64_t b = pm_cpu_start(cpu, 1.0, 0, 1.0);
    uint64_t c = pm_cpu_start(cpu, 1.0, 0, 1.0);
    CU_ASSERT_EQUAL(pm_cpu_advance(cpu, 2.0, done), 0);
    NEAR(pm_cpu_busy(cpu, 0), 1.0);
    NEAR(pm_cpu_work_done(cpu, 0), 1.0); /* two jobs at 0.5 */
    NEAR(pm_cpu_busy(cpu, 1), 2.0);
    NEAR(pm_cpu_work_done(cpu, 1), 2.0);
    uint64_t id;
    double t;
    CU_ASSERT_TRUE(pm_cpu_next(cpu, &id, &t));
    CU_ASSERT_EQUAL(id, b); /* B and C end together: the lower id */
    NEAR(t, 3.0);
    CU_ASSERT_EQUAL(pm_cpu_advance(cpu, 3.5, done), 2);
    CU_ASSERT_EQUAL(g_array_index(done, pm_cpu_completion, 0).id, b);
    CU_ASSERT_EQUAL(g_array_index(done, pm_cpu_completion, 1).id, c);
    NEAR(pm_cpu_busy(cpu, 0), 2.0);
    NEAR(pm_cpu_work_done(cpu, 0), 2.0);
    NEAR(pm_cpu_busy(cpu, 1), 3.5);
    NEAR(pm_cpu_work_done(cpu, 1), 3.5);
    CU_ASSERT_EQUAL(pm_cpu_advance(cpu, 9.0, done), 1);
    NEAR(pm_cpu_busy(cpu, 1), 4.0);
    NEAR(pm_cpu_work_done(cpu, 1), 4.0);
    CU_ASSERT_EQUAL(pm_cpu_runnable(cpu, 1), 0);
    g_array_free(done, TRUE);
    pm_cpu_free(cpu);
}

/* ---------------------------------------------------------------------- */

typedef struct {
    const char *name;
    CU_TestFunc fn;
} test_entry;

static bool add_suite(const char *name, const test_entry *tests, size_t n) {
    CU_pSuite suite = CU_add_suite(name, NULL, NULL);
    if (!suite)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn))
            return false;
    return true;
}

int main(void) {
    static const test_entry net_tests[] = {
        {"a transfer alone: latency + size/bandwidth", test_alone},
        {"two transfers on one link take twice as long", test_two_share_a_link},
        {"max-min on three links", test_max_min_three_links},
        {"a capped transfer leaves the rest", test_cap_frees_capacity},
        {"re-rating when a transfer ends early", test_rerate_when_one_ends},
        {"re-rating when a transfer starts streaming", test_rerate_when_one_starts},
        {"rendezvous adds the handshake", test_rendezvous},
        {"segments pick latency and bandwidth by size", test_segments},
        {"intra-node path", test_intranode},
        {"fat tree uplink contention", test_fattree},
        {"link accounting", test_accounting},
        {"next/advance protocol", test_protocol},
        {"bytes are conserved", test_conservation},
        {"stepping by pm_net_next_event", test_next_event},
        {"link accounting between events", test_accounting_between_events},
    };
    static const test_entry cpu_tests[] = {
        {"share formula", test_cpu_share},
        {"a rank alone, speed factor", test_cpu_alone},
        {"two ranks on one core take twice as long", test_cpu_two_on_one_core},
        {"re-rating as ranks start and end", test_cpu_rerate},
        {"completions before a later start", test_cpu_protocol},
        {"polling ranks share the cores", test_cpu_pollers},
        {"accounting between events", test_cpu_accounting_between_events},
    };
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    if (!add_suite("netmodel", net_tests, G_N_ELEMENTS(net_tests)) ||
        !add_suite("cpumodel", cpu_tests, G_N_ELEMENTS(cpu_tests))) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed == 0 ? 0 : 1;
}
