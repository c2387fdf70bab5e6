/*
 * test_platform.c - unit tests of perfmodel/platform.c: the defaults, sizes
 * as the command line reads them (the grammar itself is tested in
 * test_units.c), the example platform files, --set overrides, each error message
 * (file, line, section and key), the rank mappings and the oversubscription
 * check.
 *
 * Platforms are mostly loaded from strings (pm_platform_load_data) named
 * "p.ini"; the tests that need real files (missing file, hostfiles, the
 * examples) use a temporary directory or the runfiles.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "perfmodel/platform.h"

/* Exact comparison of doubles: the unit parsers promise the double nearest
 * to the decimal value, so "1.2us" must be exactly 1.2e-6. */
#define EXACT(a, b) CU_ASSERT_EQUAL((double)(a), (double)(b))

static const char *const MINIMAL = "[cluster]\n"
                                   "nodes = 4\n"
                                   "cores_per_node = 2\n"
                                   "[network]\n"
                                   "latency = 2us\n"
                                   "bandwidth = 1GBps\n";

static pm_platform *load_ok(const char *text, const char *const *overrides) {
    GError *e = NULL;
    pm_platform *p = pm_platform_load_data("p.ini", text, overrides, &e);
    if (e)
        fprintf(stderr, "\nunexpected error: %s\n", e->message);
    CU_ASSERT_PTR_NULL(e);
    g_clear_error(&e);
    return p;
}

/* Loads text (with overrides) expecting exactly this error. */
static void expect_error(const char *text, const char *const *overrides, int code,
                         const char *message) {
    GError *e = NULL;
    pm_platform *p = pm_platform_load_data("p.ini", text, overrides, &e);
    CU_ASSERT_PTR_NULL(p);
    pm_platform_free(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->domain, PM_PLATFORM_ERROR);
    CU_ASSERT_EQUAL(e->code, code);
    if (strcmp(e->message, message) != 0)
        fprintf(stderr, "\nexpected: %s\n     got: %s\n", message, e->message);
    CU_ASSERT_STRING_EQUAL(e->message, message);
    g_error_free(e);
}

/* MINIMAL with extra lines appended. */
static char *minimal_plus(const char *extra) {
    return g_strconcat(MINIMAL, extra, NULL);
}

/* ---------------------------------------------------------------------- */
/* Loading                                                                 */

static void test_minimal_defaults(void) {
    pm_platform *p = load_ok(MINIMAL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->source, "p.ini");
    CU_ASSERT_EQUAL(p->nodes, 4);
    CU_ASSERT_EQUAL(p->cores_per_node, 2);
    CU_ASSERT_EQUAL(p->mapping, PM_PLATFORM_MAP_BLOCK);
    CU_ASSERT_PTR_NULL(p->hostfile);
    CU_ASSERT_STRING_EQUAL(p->node_names[0], "node0");
    CU_ASSERT_STRING_EQUAL(p->node_names[3], "node3");
    CU_ASSERT_PTR_NULL(p->node_names[4]);
    EXACT(p->speed, 1.0);
    EXACT(p->oversubscribe, 1.0);
    CU_ASSERT_TRUE(p->busy_wait);
    EXACT(p->timeslice, 4e-3);
    CU_ASSERT_EQUAL(p->topology, PM_PLATFORM_CROSSBAR);
    CU_ASSERT_EQUAL_FATAL(p->nsegments, 1);
    CU_ASSERT_EQUAL(p->segments[0].from, 0);
    EXACT(p->segments[0].latency, 2e-6);
    EXACT(p->segments[0].bandwidth, 1e9);
    EXACT(p->max_bandwidth, 1e9);
    CU_ASSERT_EQUAL(p->eager_limit, 65536);
    EXACT(p->rendezvous_handshake, 4e-6); /* one round trip: 2 x latency */
    EXACT(p->send_overhead, 0.0);
    EXACT(p->recv_overhead_per_byte, 0.0);
    CU_ASSERT_FALSE(p->async_progress);
    CU_ASSERT_FALSE(p->intranode);
    /* Without [intranode], local messages are priced like the network's. */
    double lat, bw;
    pm_platform_intranode_for(p, 100, &lat, &bw);
    EXACT(lat, 2e-6);
    EXACT(bw, 1e9);
    EXACT(pm_platform_shm_capacity(p), 1e9);
    pm_platform_free(p);
}

static void test_all_keys(void) {
    const char *text = "# every key\n"
                       "[cluster]\n"
                       "  nodes = 8\n"
                       "cores_per_node=16\n"
                       "mapping = round-robin\n"
                       "speed = 1.5\n"
                       "oversubscribe = 2\n"
                       "busy_wait = false\n"
                       "timeslice = 1.5ms\n"
                       "\n"
                       "[network]\n"
                       "topology = fattree\n"
                       "latency = 1.5us\n"
                       "bandwidth = 100Gbps\n"
                       "eager_limit = 16KiB\n"
                       "rendezvous_handshake = 3us\n"
                       "send_overhead = 0.4us\n"
                       "send_overhead_per_byte = 0.1ns\n"
                       "recv_overhead = 0.5us\n"
                       "recv_overhead_per_byte = 0.2ns\n"
                       "async_progress = yes\n"
                       "[intranode]\n"
                       "latency = 300ns\n"
                       "bandwidth = 20GBps\n"
                       "[fattree]\n"
                       "nodes_per_leaf = 3\n"
                       "uplink_bandwidth = 25GBps\n";
    pm_platform *p = load_ok(text, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nodes, 8);
    CU_ASSERT_EQUAL(p->cores_per_node, 16);
    CU_ASSERT_EQUAL(p->mapping, PM_PLATFORM_MAP_ROUND_ROBIN);
    EXACT(p->speed, 1.5);
    EXACT(p->oversubscribe, 2.0);
    CU_ASSERT_FALSE(p->busy_wait);
    EXACT(p->timeslice, 1.5e-3);
    CU_ASSERT_EQUAL(p->topology, PM_PLATFORM_FATTREE);
    EXACT(p->segments[0].latency, 1.5e-6);
    EXACT(p->segments[0].bandwidth, 12.5e9);
    CU_ASSERT_EQUAL(p->eager_limit, 16384);
    EXACT(p->rendezvous_handshake, 3e-6);
    EXACT(p->send_overhead, 0.4e-6);
    EXACT(p->send_overhead_per_byte, 0.1e-9);
    EXACT(p->recv_overhead, 0.5e-6);
    EXACT(p->recv_overhead_per_byte, 0.2e-9);
    CU_ASSERT_TRUE(p->async_progress);
    CU_ASSERT_TRUE(p->intranode);
    EXACT(p->intranode_latency, 300e-9);
    EXACT(p->intranode_bandwidth, 20e9);
    EXACT(pm_platform_shm_capacity(p), 20e9);
    CU_ASSERT_EQUAL(p->nodes_per_leaf, 3);
    CU_ASSERT_EQUAL(p->leaves, 3); /* 8 nodes, 3 per leaf: 3 + 3 + 2 */
    EXACT(p->uplink_bandwidth, 25e9);

    /* Helpers over those keys. */
    CU_ASSERT_FALSE(pm_platform_is_rendezvous(p, 16384));
    CU_ASSERT_TRUE(pm_platform_is_rendezvous(p, 16385));
    CU_ASSERT_DOUBLE_EQUAL(pm_platform_send_overhead(p, 1000), 0.4e-6 + 1000 * 0.1e-9, 1e-20);
    CU_ASSERT_DOUBLE_EQUAL(pm_platform_recv_overhead(p, 1000), 0.5e-6 + 1000 * 0.2e-9, 1e-20);
    pm_platform_free(p);
}

static void test_crlf_and_booleans(void) {
    pm_platform *p = load_ok("[cluster]\r\nnodes = 2\r\ncores_per_node = 1\r\noversubscribe = "
                             "true\r\n[network]\r\nlatency = 1us\r\nbandwidth = 1GBps\r\n",
                             NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(isinf(p->oversubscribe));
    EXACT(p->segments[0].latency, 1e-6);
    pm_platform_free(p);
    const char *const no[] = {"cluster.oversubscribe=no", NULL};
    p = load_ok(MINIMAL, no);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    EXACT(p->oversubscribe, 1.0);
    pm_platform_free(p);
}

static void test_segments(void) {
    /* Numbered out of size order on purpose: the sizes order them. */
    char *text = minimal_plus("segment.2 = 1KiB 2us 2GBps\n"
                              "segment.1 = 0B   1us 1GBps\n"
                              "segment.3 = 1MiB 5us 4GBps\n");
    pm_platform *p = load_ok(text, NULL);
    g_free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->nsegments, 3);
    CU_ASSERT_EQUAL(p->segments[0].from, 0);
    CU_ASSERT_EQUAL(p->segments[1].from, 1024);
    CU_ASSERT_EQUAL(p->segments[2].from, 1048576);
    /* Segments replace the file's latency (2us) and bandwidth (1GBps). */
    EXACT(p->segments[0].latency, 1e-6);
    EXACT(p->segments[2].bandwidth, 4e9);
    EXACT(p->max_bandwidth, 4e9);
    EXACT(p->rendezvous_handshake, 2e-6); /* 2 x the smallest messages' latency */
    CU_ASSERT_PTR_EQUAL(pm_platform_segment_for(p, 0), &p->segments[0]);
    CU_ASSERT_PTR_EQUAL(pm_platform_segment_for(p, 1023), &p->segments[0]);
    CU_ASSERT_PTR_EQUAL(pm_platform_segment_for(p, 1024), &p->segments[1]);
    CU_ASSERT_PTR_EQUAL(pm_platform_segment_for(p, 1048575), &p->segments[1]);
    CU_ASSERT_PTR_EQUAL(pm_platform_segment_for(p, 1048576), &p->segments[2]);
    CU_ASSERT_PTR_EQUAL(pm_platform_segment_for(p, UINT64_MAX), &p->segments[2]);
    pm_platform_free(p);

    /* Segments alone, without latency/bandwidth. */
    p = load_ok("[cluster]\nnodes=1\ncores_per_node=1\n[network]\nsegment.7 = 0 3us 1GBps\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nsegments, 1);
    EXACT(p->segments[0].latency, 3e-6);
    pm_platform_free(p);
}

static void test_overrides(void) {
    const char *const set[] = {"network.latency=5us",      "network.bandwidth=10GBps",
                               "cluster.nodes = 32",       "cluster.mapping=round-robin",
                               "intranode.latency=1us",    "intranode.bandwidth=5GBps",
                               "network.eager_limit=1KiB", NULL};
    pm_platform *p = load_ok(MINIMAL, set);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    EXACT(p->segments[0].latency, 5e-6);
    EXACT(p->segments[0].bandwidth, 1e10);
    CU_ASSERT_EQUAL(p->nodes, 32);
    CU_ASSERT_EQUAL(p->mapping, PM_PLATFORM_MAP_ROUND_ROBIN);
    CU_ASSERT_TRUE(p->intranode);
    EXACT(p->intranode_latency, 1e-6);
    CU_ASSERT_EQUAL(p->eager_limit, 1024);
    pm_platform_free(p);

    /* Later overrides win. */
    const char *const twice[] = {"network.latency=5us", "network.latency=7us", NULL};
    p = load_ok(MINIMAL, twice);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    EXACT(p->segments[0].latency, 7e-6);
    pm_platform_free(p);

    /* With segments, an overridden latency replaces every segment's latency;
     * the bandwidths stay; a segment can be added. */
    char *text = minimal_plus("segment.1 = 0B 1us 1GBps\nsegment.2 = 1KiB 2us 2GBps\n");
    const char *const seg[] = {"network.latency=9us", "network.segment.3=1MiB 3us 3GBps", NULL};
    p = load_ok(text, seg);
    g_free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->nsegments, 3);
    for (int i = 0; i < 3; i++)
        EXACT(p->segments[i].latency, 9e-6);
    EXACT(p->segments[0].bandwidth, 1e9);
    EXACT(p->segments[1].bandwidth, 2e9);
    EXACT(p->segments[2].bandwidth, 3e9);
    pm_platform_free(p);

    /* An override can supply a key the file lacks. */
    const char *const cores[] = {"cluster.cores_per_node=8", NULL};
    p = load_ok("[cluster]\nnodes=2\n[network]\nlatency=1us\nbandwidth=1GBps\n", cores);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->cores_per_node, 8);
    pm_platform_free(p);
}

static void test_override_errors(void) {
    const char *const bad_value[] = {"network.bandwidth=0GBps", NULL};
    expect_error(MINIMAL, bad_value, PM_PLATFORM_ERROR_VALUE,
                 "--set network.bandwidth=0GBps: [network] bandwidth: must be positive, got "
                 "\"0GBps\"");
    const char *const bad_unit[] = {"network.latency=fast", NULL};
    expect_error(MINIMAL, bad_unit, PM_PLATFORM_ERROR_VALUE,
                 "--set network.latency=fast: [network] latency: not a number: \"fast\"");
    const char *const unknown_key[] = {"network.latncy=5us", NULL};
    expect_error(MINIMAL, unknown_key, PM_PLATFORM_ERROR_UNKNOWN,
                 "--set network.latncy=5us: [network] latncy: unknown key (keys of [network] "
                 "are: topology, latency, bandwidth, eager_limit, rendezvous_handshake, "
                 "send_overhead, send_overhead_per_byte, recv_overhead, recv_overhead_per_byte, "
                 "async_progress, segment.N)");
    const char *const unknown_section[] = {"net.latency=5us", NULL};
    expect_error(MINIMAL, unknown_section, PM_PLATFORM_ERROR_UNKNOWN,
                 "--set net.latency=5us: [net]: unknown section (sections are: cluster, network, "
                 "intranode, fattree)");
    const char *const syntax[] = {"latency=5us", NULL};
    expect_error(MINIMAL, syntax, PM_PLATFORM_ERROR_SYNTAX,
                 "--set latency=5us: expected SECTION.KEY=VALUE, e.g. --set "
                 "network.latency=5us");
    const char *const no_value[] = {"network.latency", NULL};
    expect_error(MINIMAL, no_value, PM_PLATFORM_ERROR_SYNTAX,
                 "--set network.latency: expected SECTION.KEY=VALUE, e.g. --set "
                 "network.latency=5us");
}

/* Each error names file:line, section and key. */
/* A size reads the same in a file, in --set and on the command line:
 * "64k" was once refused here and "64kB" there. */
static void test_sizes_as_on_command_line(void) {
    static const struct {
        const char *text;
        uint64_t bytes;
    } ok[] = {{"64k", 65536},   {"64K", 65536},   {"64kB", 64000}, {"64KB", 64000},
              {"64KiB", 65536}, {"65536", 65536}, {"1M", 1048576}, {"64 KiB", 65536}};
    for (size_t i = 0; i < G_N_ELEMENTS(ok); i++) {
        char *t = g_strdup_printf("%seager_limit = %s\n", MINIMAL, ok[i].text);
        pm_platform *p = load_ok(t, NULL);
        CU_ASSERT_PTR_NOT_NULL(p);
        if (p && p->eager_limit != ok[i].bytes)
            fprintf(stderr, "\neager_limit = %s: got %" G_GUINT64_FORMAT "\n", ok[i].text,
                    (guint64)p->eager_limit);
        CU_ASSERT_TRUE(p && p->eager_limit == ok[i].bytes);
        pm_platform_free(p);
        g_free(t);
        char *set = g_strdup_printf("network.eager_limit=%s", ok[i].text);
        const char *overrides[] = {set, NULL};
        p = load_ok(MINIMAL, overrides);
        CU_ASSERT_TRUE(p && p->eager_limit == ok[i].bytes);
        pm_platform_free(p);
        g_free(set);
    }
    char *t = minimal_plus("eager_limit = nan\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] eager_limit: not a finite number: \"nan\"");
    g_free(t);
    t = minimal_plus("eager_limit = 1e20\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] eager_limit: too large: \"1e20\" (at most "
                 "18446744073709551615 bytes)");
    g_free(t);
    const char *set[] = {"network.eager_limit=", NULL};
    expect_error(MINIMAL, set, PM_PLATFORM_ERROR_VALUE,
                 "--set network.eager_limit=: [network] eager_limit: empty value: \"\"");
}

static void test_file_errors(void) {
    expect_error("[cluster]\nnodes 4\n", NULL, PM_PLATFORM_ERROR_SYNTAX,
                 "p.ini:2: expected \"key = value\", a [section] header or a # comment, got "
                 "\"nodes 4\"");
    expect_error("nodes = 4\n", NULL, PM_PLATFORM_ERROR_SYNTAX,
                 "p.ini:1: key \"nodes\" before any [section] header");
    expect_error("[cluster\n", NULL, PM_PLATFORM_ERROR_SYNTAX,
                 "p.ini:1: malformed section header \"[cluster\" (write e.g. [network])");

    char *t = minimal_plus("[netwrk]\nlatency = 1us\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_UNKNOWN,
                 "p.ini:7: [netwrk]: unknown section (sections are: cluster, network, "
                 "intranode, fattree)");
    g_free(t);

    expect_error("[cluster]\nnodes = 4\n\n# comment\n  cores = 2\n", NULL,
                 PM_PLATFORM_ERROR_UNKNOWN,
                 "p.ini:5: [cluster] cores: unknown key (keys of [cluster] are: nodes, "
                 "cores_per_node, mapping, hostfile, speed, oversubscribe, busy_wait, "
                 "timeslice)");
    expect_error("[intranode]\nsegment.1 = 0B 1us 1GBps\n", NULL, PM_PLATFORM_ERROR_UNKNOWN,
                 "p.ini:2: [intranode] segment.1: unknown key (keys of [intranode] are: "
                 "latency, bandwidth)");
    expect_error("[network]\nsegment.x = 0B 1us 1GBps\n", NULL, PM_PLATFORM_ERROR_UNKNOWN,
                 "p.ini:2: [network] segment.x: unknown key (keys of [network] are: topology, "
                 "latency, bandwidth, eager_limit, rendezvous_handshake, send_overhead, "
                 "send_overhead_per_byte, recv_overhead, recv_overhead_per_byte, async_progress, "
                 "segment.N)");

    t = minimal_plus("latency = 3us\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_SYNTAX,
                 "p.ini:7: [network] latency: given twice (first at p.ini:5)");
    g_free(t);

    const char *bw0 = "[cluster]\nnodes = 4\ncores_per_node = 2\n[network]\nlatency = 2us\n"
                      "bandwidth = 0GBps\n";
    expect_error(bw0, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:6: [network] bandwidth: must be positive, got \"0GBps\"");
    const char *bwneg = "[cluster]\nnodes = 4\ncores_per_node = 2\n[network]\nlatency = 2us\n"
                        "bandwidth = -10GBps\n";
    expect_error(bwneg, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:6: [network] bandwidth: must be positive, got \"-10GBps\"");
    const char *latneg = "[cluster]\nnodes = 4\ncores_per_node = 2\n[network]\nlatency = -2us\n"
                         "bandwidth = 1GBps\n";
    expect_error(latneg, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:5: [network] latency: must not be negative, got \"-2us\"");
    const char *unit = "[cluster]\nnodes = 4\ncores_per_node = 2\n[network]\nlatency = 2usec\n"
                       "bandwidth = 1GBps\n";
    expect_error(unit, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:5: [network] latency: unknown time unit \"usec\" in \"2usec\" (use s, "
                 "ms, us or ns)");
    const char *nounit = "[cluster]\nnodes = 4\ncores_per_node = 2\n[network]\nlatency = 2\n"
                         "bandwidth = 1GBps\n";
    expect_error(nounit, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:5: [network] latency: missing time unit in \"2\" (write e.g. 5us; units: "
                 "s, ms, us or ns)");

    t = minimal_plus("eager_limit = 1.5B\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] eager_limit: not a whole number of bytes: \"1.5B\"");
    g_free(t);
    t = minimal_plus("send_overhead = -1us\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] send_overhead: must not be negative, got \"-1us\"");
    g_free(t);
    t = minimal_plus("topology = torus\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] topology: must be crossbar or fattree, got \"torus\"");
    g_free(t);

    expect_error("[cluster]\nnodes = 0\ncores_per_node = 2\n", NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:2: [cluster] nodes: must be a whole number from 1 to 1000000, got \"0\"");
    expect_error("[cluster]\nnodes = 4\ncores_per_node = two\n", NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:3: [cluster] cores_per_node: must be a whole number from 1 to 1000000, "
                 "got \"two\"");
    expect_error("[cluster]\nnodes = 4\ncores_per_node = 2\nmapping = scatter\n", NULL,
                 PM_PLATFORM_ERROR_VALUE,
                 "p.ini:4: [cluster] mapping: must be block, round-robin or hostfile, got "
                 "\"scatter\"");
    expect_error("[cluster]\nnodes = 4\ncores_per_node = 2\nspeed = 0\n", NULL,
                 PM_PLATFORM_ERROR_VALUE,
                 "p.ini:4: [cluster] speed: must be a positive number (2 = twice as fast as this "
                 "machine), got \"0\"");
    expect_error("[cluster]\nnodes = 4\ncores_per_node = 2\noversubscribe = 0.5\n", NULL,
                 PM_PLATFORM_ERROR_VALUE,
                 "p.ini:4: [cluster] oversubscribe: must be true, false or a limit of ranks per "
                 "core (a number >= 1), got \"0.5\"");
    expect_error("[cluster]\nnodes = 4\ncores_per_node = 2\nbusy_wait = sometimes\n", NULL,
                 PM_PLATFORM_ERROR_VALUE,
                 "p.ini:4: [cluster] busy_wait: must be true (ranks poll while they wait, as "
                 "MPICH's and Open MPI's do) or false (they sleep), got \"sometimes\"");
    expect_error("[cluster]\nnodes = 4\ncores_per_node = 2\n[network]\nlatency = 1us\n"
                 "bandwidth = 1GBps\nasync_progress = 1\n",
                 NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] async_progress: must be true (a rendezvous message moves "
                 "while its receiver computes: a progress thread or offloading hardware) or false "
                 "(only while the receiver is in an MPI call, as by default in MPICH and Open "
                 "MPI), got \"1\"");
    expect_error("[cluster]\nnodes = 4\ncores_per_node = 2\ntimeslice = -1ms\n", NULL,
                 PM_PLATFORM_ERROR_VALUE,
                 "p.ini:4: [cluster] timeslice: must not be negative, got \"-1ms\"");
}

static void test_missing_keys(void) {
    expect_error("[cluster]\ncores_per_node = 2\n", NULL, PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [cluster] nodes: missing");
    expect_error("[cluster]\nnodes = 2\n", NULL, PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [cluster] cores_per_node: missing");
    expect_error("[cluster]\nnodes = 2\ncores_per_node = 2\n[network]\nbandwidth = 1GBps\n", NULL,
                 PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [network] latency: missing; give latency and bandwidth, or segment.N "
                 "keys");
    expect_error("[cluster]\nnodes = 2\ncores_per_node = 2\n[network]\nlatency = 1us\n", NULL,
                 PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [network] bandwidth: missing; give latency and bandwidth, or segment.N "
                 "keys");
    char *t = minimal_plus("[intranode]\nlatency = 1us\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [intranode] bandwidth: missing; give both latency and bandwidth, or "
                 "neither");
    g_free(t);
    t = minimal_plus("topology = fattree\n[fattree]\nnodes_per_leaf = 2\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [fattree] uplink_bandwidth: missing; topology = fattree needs it");
    g_free(t);
    t = minimal_plus("topology = fattree\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [fattree] nodes_per_leaf: missing; topology = fattree needs it");
    g_free(t);
    /* [fattree] is allowed (and ignored) on a crossbar, so that --set can
     * switch topologies without editing the file. */
    t = minimal_plus("[fattree]\nnodes_per_leaf = 2\nuplink_bandwidth = 1GBps\n");
    pm_platform *p = load_ok(t, NULL);
    g_free(t);
    CU_ASSERT_PTR_NOT_NULL(p);
    pm_platform_free(p);
}

static void test_segment_errors(void) {
    char *t = minimal_plus("segment.1 = 1KiB 1us 1GBps\nsegment.2 = 2KiB 1us 2GBps\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] segment.1: the smallest segment must start at 0B so that "
                 "every message size has one (it starts at 1024 bytes)");
    g_free(t);
    t = minimal_plus("segment.1 = 0B 1us 1GBps\nsegment.2 = 0 2us 2GBps\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:8: [network] segment.2: starts at 0 bytes like segment.1");
    g_free(t);
    t = minimal_plus("segment.1 = 0B 1us\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] segment.1: expected \"FROM-SIZE LATENCY BANDWIDTH\" such "
                 "as \"1KiB 2us 9GBps\", got \"0B 1us\"");
    g_free(t);
    t = minimal_plus("segment.1 = 0B 1us 0GBps\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] segment.1: the bandwidth must be positive, got \"0GBps\"");
    g_free(t);
    t = minimal_plus("segment.1 = 0B -1us 1GBps\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] segment.1: the latency must not be negative, got \"-1us\"");
    g_free(t);
    t = minimal_plus("segment.1 = 0B 1 1GBps\n");
    expect_error(t, NULL, PM_PLATFORM_ERROR_VALUE,
                 "p.ini:7: [network] segment.1: missing time unit in \"1\" (write e.g. 5us; "
                 "units: s, ms, us or ns)");
    g_free(t);
}

/* Values that parse but describe no machine, each once accepted: past the
 * unit they overflowed (1e308s), underflowed to a denormal (5e-324Bps: an
 * infinite transfer time) or were absurd (speed 1e-300, a 280-digit time),
 * and gave false deadlocks, hangs or floods of GLib criticals; an eager
 * limit of 2^64 - 1 wrapped to 0 once a byte was added. */
static void test_ranges(void) {
    static const struct {
        const char *set, *message;
    } cases[] = {
        {"network.latency=1e308s", "[network] latency: must be at most 1000s, got \"1e308s\""},
        {"network.latency=1001s", "[network] latency: must be at most 1000s, got \"1001s\""},
        {"network.bandwidth=1e308GBps", "[network] bandwidth: too large: \"1e308GBps\""},
        {"network.bandwidth=1e290GBps",
         "[network] bandwidth: must be from 1Bps to 1000TBps, got \"1e290GBps\""},
        {"network.bandwidth=5e-324Bps",
         "[network] bandwidth: must be from 1Bps to 1000TBps, got \"5e-324Bps\""},
        {"network.bandwidth=1001TBps",
         "[network] bandwidth: must be from 1Bps to 1000TBps, got \"1001TBps\""},
        {"network.bandwidth=7bps", "[network] bandwidth: must be from 1Bps to 1000TBps, got "
                                   "\"7bps\""},
        {"network.rendezvous_handshake=1e308s",
         "[network] rendezvous_handshake: must be at most 1000s, got \"1e308s\""},
        {"network.send_overhead=1e308s",
         "[network] send_overhead: must be at most 1000s, got \"1e308s\""},
        {"network.recv_overhead=1e308s",
         "[network] recv_overhead: must be at most 1000s, got \"1e308s\""},
        {"network.send_overhead_per_byte=2s",
         "[network] send_overhead_per_byte: must be at most 1s (per byte), got \"2s\""},
        {"network.recv_overhead_per_byte=1e300s",
         "[network] recv_overhead_per_byte: must be at most 1s (per byte), got \"1e300s\""},
        {"network.eager_limit=18446744073709551615",
         "[network] eager_limit: must be at most 1TiB, got \"18446744073709551615\""},
        {"network.eager_limit=1.5TiB", "[network] eager_limit: must be at most 1TiB, got "
                                       "\"1.5TiB\""},
        {"network.segment.1=0B 1e308s 1GBps",
         "[network] segment.1: the latency must be at most 1000s, got \"1e308s\""},
        {"network.segment.1=0B 1us 5e-324Bps",
         "[network] segment.1: the bandwidth must be from 1Bps to 1000TBps, got \"5e-324Bps\""},
        {"cluster.timeslice=1e308s", "[cluster] timeslice: must be at most 1000s, got \"1e308s\""},
        {"cluster.speed=1e-300",
         "[cluster] speed: must be from 0.000001 to 1000000 (2 = twice as fast as this machine), "
         "got \"1e-300\""},
        {"cluster.speed=5e-324", "[cluster] speed: must be from 0.000001 to 1000000 (2 = twice "
                                 "as fast as this machine), got \"5e-324\""},
        {"cluster.speed=2e6", "[cluster] speed: must be from 0.000001 to 1000000 (2 = twice as "
                              "fast as this machine), got \"2e6\""},
        {"intranode.latency=1e308s", "[intranode] latency: must be at most 1000s, got \"1e308s\""},
        {"intranode.bandwidth=1e20Bps",
         "[intranode] bandwidth: must be from 1Bps to 1000TBps, got \"1e20Bps\""},
        {"fattree.uplink_bandwidth=5e-324Bps",
         "[fattree] uplink_bandwidth: must be from 1Bps to 1000TBps, got \"5e-324Bps\""},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *const set[] = {cases[i].set, "intranode.latency=1us",
                                   "intranode.bandwidth=1GBps", NULL};
        /* An override of intranode's keys replaces the defaults given here. */
        const char *const *overrides = set;
        const char *const alone[] = {cases[i].set, NULL};
        if (g_str_has_prefix(cases[i].set, "intranode."))
            overrides = alone;
        char *message = g_strdup_printf("--set %s: %s", cases[i].set, cases[i].message);
        char *text = minimal_plus("[fattree]\nnodes_per_leaf = 2\nuplink_bandwidth = 1GBps\n");
        expect_error(text, overrides, PM_PLATFORM_ERROR_VALUE, message);
        g_free(text);
        g_free(message);
    }
    /* The bounds themselves are fine. */
    const char *const edges[] = {"network.latency=1000s",
                                 "network.bandwidth=1000TBps",
                                 "network.send_overhead_per_byte=1s",
                                 "network.eager_limit=1TiB",
                                 "cluster.speed=0.000001",
                                 "cluster.timeslice=0",
                                 "intranode.latency=0",
                                 "intranode.bandwidth=1Bps",
                                 NULL};
    pm_platform *p = load_ok(MINIMAL, edges);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    EXACT(p->segments[0].latency, 1000.0);
    EXACT(p->segments[0].bandwidth, 1e15);
    CU_ASSERT_EQUAL(p->eager_limit, (uint64_t)1 << 40);
    EXACT(p->speed, 1e-6);
    EXACT(p->intranode_bandwidth, 1.0);
    pm_platform_free(p);
}

static void test_missing_file(void) {
    GError *e = NULL;
    pm_platform *p = pm_platform_load("/nonexistent/dir/c.ini", NULL, &e);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->code, PM_PLATFORM_ERROR_READ);
    CU_ASSERT_STRING_EQUAL(e->message,
                           "/nonexistent/dir/c.ini: cannot read the platform file: no such file");
    g_error_free(e);
}

/* ---------------------------------------------------------------------- */
/* Files on disk: the examples, line numbers in a real file, hostfiles     */

static char *tmpdir;

static char *write_file(const char *name, const char *text) {
    char *path = g_build_filename(tmpdir, name, NULL);
    CU_ASSERT_TRUE(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static void test_example_cluster(void) {
    GError *e = NULL;
    pm_platform *p = pm_platform_load("examples/platforms/cluster.ini", NULL, &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nodes, 16);
    CU_ASSERT_EQUAL(p->cores_per_node, 4);
    CU_ASSERT_EQUAL(p->topology, PM_PLATFORM_CROSSBAR);
    CU_ASSERT_EQUAL(p->nsegments, 1);
    EXACT(p->segments[0].latency, 1.5e-6);
    EXACT(p->segments[0].bandwidth, 12.5e9);
    CU_ASSERT_EQUAL(p->eager_limit, 65536);
    CU_ASSERT_TRUE(p->intranode);
    int nodes[64];
    CU_ASSERT_TRUE(pm_platform_map(p, 64, nodes, NULL));
    CU_ASSERT_FALSE(pm_platform_map(p, 65, (int[65]){0}, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    /* 4 ranks per node at most; the message names the oversubscribe line. */
    CU_ASSERT_TRUE(g_str_has_prefix(e->message, "examples/platforms/cluster.ini:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e->message, "[cluster] oversubscribe: 65 ranks"));
    g_clear_error(&e);
    pm_platform_free(p);

    /* The overrides the documentation shows. */
    const char *const set[] = {"network.latency=5us", "network.bandwidth=10GBps", NULL};
    p = pm_platform_load("examples/platforms/cluster.ini", set, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    EXACT(p->segments[0].latency, 5e-6);
    EXACT(p->segments[0].bandwidth, 1e10);
    pm_platform_free(p);
}

static void test_example_fattree(void) {
    GError *e = NULL;
    pm_platform *p = pm_platform_load("examples/platforms/fattree.ini", NULL, &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nodes, 64);
    CU_ASSERT_EQUAL(p->topology, PM_PLATFORM_FATTREE);
    CU_ASSERT_EQUAL(p->mapping, PM_PLATFORM_MAP_ROUND_ROBIN);
    CU_ASSERT_EQUAL(p->nodes_per_leaf, 16);
    CU_ASSERT_EQUAL(p->leaves, 4);
    EXACT(p->uplink_bandwidth, 100e9);
    CU_ASSERT_EQUAL_FATAL(p->nsegments, 3);
    CU_ASSERT_EQUAL(p->segments[1].from, 4096);
    CU_ASSERT_EQUAL(p->segments[2].from, 131072);
    EXACT(p->segments[2].bandwidth, 12.5e9);
    EXACT(p->max_bandwidth, 12.5e9);
    pm_platform_free(p);
}

static void test_line_numbers_in_file(void) {
    char *path = write_file("bad.ini", "# a platform\n"
                                       "[cluster]\n"
                                       "nodes = 4\n"
                                       "cores_per_node = 2\n"
                                       "\n"
                                       "[network]\n"
                                       "latency = 1us\n"
                                       "\n"
                                       "# the next line is wrong\n"
                                       "bandwidth = -1GBps\n");
    GError *e = NULL;
    CU_ASSERT_PTR_NULL(pm_platform_load(path, NULL, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    char *want =
        g_strdup_printf("%s:10: [network] bandwidth: must be positive, got \"-1GBps\"", path);
    CU_ASSERT_STRING_EQUAL(e->message, want);
    g_free(want);
    g_clear_error(&e);
    g_free(path);

    /* Keys of the same name in two sections: the line of the right one. */
    path = write_file("two.ini", "[cluster]\nnodes = 1\ncores_per_node = 1\n"
                                 "[network]\nlatency = 1us\nbandwidth = 1GBps\n"
                                 "[intranode]\nlatency = 1us\nbandwidth = 0GBps\n");
    CU_ASSERT_PTR_NULL(pm_platform_load(path, NULL, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    want = g_strdup_printf("%s:9: [intranode] bandwidth: must be positive, got \"0GBps\"", path);
    CU_ASSERT_STRING_EQUAL(e->message, want);
    g_free(want);
    g_error_free(e);
    g_free(path);
}

/* ---------------------------------------------------------------------- */
/* Mapping                                                                 */

static void expect_map(const pm_platform *p, int nranks, const int *want) {
    int *got = g_new0(int, nranks);
    GError *e = NULL;
    CU_ASSERT_TRUE(pm_platform_map(p, nranks, got, &e));
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    g_clear_error(&e);
    for (int r = 0; r < nranks; r++)
        CU_ASSERT_EQUAL(got[r], want[r]);
    g_free(got);
}

static void test_map_block_and_round_robin(void) {
    pm_platform *p = load_ok(MINIMAL, NULL); /* 4 nodes x 2 cores */
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    expect_map(p, 5, (int[]){0, 0, 1, 1, 2});
    expect_map(p, 8, (int[]){0, 0, 1, 1, 2, 2, 3, 3});
    pm_platform_free(p);

    const char *const rr[] = {"cluster.mapping=round-robin", NULL};
    p = load_ok(MINIMAL, rr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    expect_map(p, 6, (int[]){0, 1, 2, 3, 0, 1});
    pm_platform_free(p);

    /* Oversubscribed block spreads evenly: 10 ranks on 4 nodes, 3 per node. */
    const char *const over[] = {"cluster.oversubscribe=true", NULL};
    p = load_ok(MINIMAL, over);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    expect_map(p, 10, (int[]){0, 0, 0, 1, 1, 1, 2, 2, 2, 3});
    pm_platform_free(p);
}

static void test_oversubscription(void) {
    pm_platform *p = load_ok(MINIMAL, NULL); /* 4 x 2 = 8 cores, [cluster] on line 1 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    int nodes[32];
    GError *e = NULL;
    CU_ASSERT_FALSE(pm_platform_map(p, 9, nodes, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->code, PM_PLATFORM_ERROR_OVERSUBSCRIBED);
    CU_ASSERT_STRING_EQUAL(e->message,
                           "p.ini:1: [cluster] oversubscribe: 9 ranks do not fit on 4 nodes x 2 "
                           "cores: node0 would run 3 ranks on 2 cores and oversubscription is not "
                           "allowed; set oversubscribe = true (or a limit of ranks per core, e.g. "
                           "--set cluster.oversubscribe=2), or run fewer ranks");
    g_clear_error(&e);
    pm_platform_free(p);

    /* A limit of 2 ranks per core: 16 ranks fit, 17 do not; the message
     * names the key's line. */
    char *t = g_strconcat("[cluster]\nnodes = 4\ncores_per_node = 2\noversubscribe = 2\n",
                          "[network]\nlatency = 2us\nbandwidth = 1GBps\n", NULL);
    p = load_ok(t, NULL);
    g_free(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(pm_platform_map(p, 16, nodes, NULL));
    CU_ASSERT_FALSE(pm_platform_map(p, 17, nodes, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e->message,
                           "p.ini:4: [cluster] oversubscribe: 17 ranks do not fit on 4 nodes x 2 "
                           "cores: node0 would run 5 ranks on 2 cores and the limit is 2 ranks per "
                           "core; set oversubscribe = true (or a limit of ranks per core, e.g. "
                           "--set cluster.oversubscribe=2), or run fewer ranks");
    g_clear_error(&e);
    pm_platform_free(p);

    /* Given by --set, the message names the override. */
    const char *const lim[] = {"cluster.oversubscribe=1.5", NULL};
    p = load_ok(MINIMAL, lim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(pm_platform_map(p, 12, nodes, NULL));
    CU_ASSERT_FALSE(pm_platform_map(p, 13, nodes, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_TRUE(g_str_has_prefix(e->message,
                                    "--set cluster.oversubscribe=1.5: [cluster] oversubscribe: "
                                    "13 ranks do not fit on 4 nodes x 2 cores: node0 would run "
                                    "4 ranks on 2 cores and the limit is 1.5 ranks per core;"));
    g_clear_error(&e);
    pm_platform_free(p);

    /* Unlimited. */
    const char *const yes[] = {"cluster.oversubscribe=true", NULL};
    p = load_ok(MINIMAL, yes);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(pm_platform_map(p, 32, nodes, NULL));
    pm_platform_free(p);
}

static void test_hostfile(void) {
    char *hosts = write_file("hosts", "# our hosts\n"
                                      "alpha\n"
                                      "beta\n"
                                      "\n"
                                      "alpha\n"
                                      "gamma\n");
    /* Relative to the platform file's directory. */
    char *path = write_file("h.ini", "[cluster]\ncores_per_node = 2\nhostfile = hosts\n"
                                     "[network]\nlatency = 1us\nbandwidth = 1GBps\n");
    GError *e = NULL;
    pm_platform *p = pm_platform_load(path, NULL, &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->mapping, PM_PLATFORM_MAP_HOSTFILE); /* implied by hostfile */
    CU_ASSERT_STRING_EQUAL(p->hostfile, hosts);
    CU_ASSERT_EQUAL(p->nodes, 3);
    CU_ASSERT_STRING_EQUAL(p->node_names[0], "alpha");
    CU_ASSERT_STRING_EQUAL(p->node_names[1], "beta");
    CU_ASSERT_STRING_EQUAL(p->node_names[2], "gamma");
    CU_ASSERT_PTR_NULL(p->node_names[3]);
    /* Lines alpha beta alpha gamma. */
    expect_map(p, 4, (int[]){0, 1, 0, 2});
    /* 6 ranks wrap around to alpha and beta: alpha gets 3 for 2 cores. */
    int nodes[8];
    CU_ASSERT_FALSE(pm_platform_map(p, 6, nodes, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    char *want = g_strdup_printf("%s:1: [cluster] oversubscribe: 6 ranks do not fit on 3 nodes x "
                                 "2 cores: alpha would run 3 ranks on 2 cores and "
                                 "oversubscription is not allowed; set oversubscribe = true (or "
                                 "a limit of ranks per core, e.g. --set "
                                 "cluster.oversubscribe=2), or run fewer ranks",
                                 path);
    CU_ASSERT_STRING_EQUAL(e->message, want);
    g_free(want);
    g_clear_error(&e);
    pm_platform_free(p);

    /* Allowed, the lines repeat. */
    const char *const over[] = {"cluster.oversubscribe=true", NULL};
    p = pm_platform_load(path, over, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    expect_map(p, 6, (int[]){0, 1, 0, 2, 0, 1});
    pm_platform_free(p);

    /* A node count that disagrees with the hostfile. */
    const char *const nodes4[] = {"cluster.nodes=4", NULL};
    CU_ASSERT_PTR_NULL(pm_platform_load(path, nodes4, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    want = g_strdup_printf("--set cluster.nodes=4: [cluster] nodes: 4, but hostfile %s names 3 "
                           "distinct hosts; remove nodes or make them agree",
                           hosts);
    CU_ASSERT_STRING_EQUAL(e->message, want);
    g_free(want);
    g_clear_error(&e);

    /* mapping = block overrides the hostfile. */
    const char *const block[] = {"cluster.mapping=block", "cluster.nodes=2", NULL};
    p = pm_platform_load(path, block, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nodes, 2);
    CU_ASSERT_PTR_NULL(p->hostfile);
    pm_platform_free(p);

    /* A missing hostfile, named with the key's line. */
    char *bad = write_file("m.ini", "[cluster]\ncores_per_node = 2\nmapping = hostfile\n"
                                    "hostfile = nothere\n[network]\nlatency = 1us\n"
                                    "bandwidth = 1GBps\n");
    CU_ASSERT_PTR_NULL(pm_platform_load(bad, NULL, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->code, PM_PLATFORM_ERROR_READ);
    want = g_strdup_printf("%s:4: [cluster] hostfile: cannot read \"%s/nothere\"", bad, tmpdir);
    CU_ASSERT_TRUE(g_str_has_prefix(e->message, want));
    g_free(want);
    g_clear_error(&e);
    g_free(bad);

    /* mapping = hostfile without a hostfile. */
    expect_error("[cluster]\ncores_per_node = 2\nmapping = hostfile\n", NULL,
                 PM_PLATFORM_ERROR_MISSING,
                 "p.ini: [cluster] hostfile: missing; mapping = hostfile needs hostfile = PATH");

    /* A malformed hostfile line, named with the hostfile's line. */
    char *two = write_file("hosts2", "alpha\nbeta gamma\n");
    char *arg = g_strdup_printf("cluster.hostfile=%s", two);
    const char *const set[] = {arg, NULL};
    CU_ASSERT_PTR_NULL(pm_platform_load(path, set, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    want = g_strdup_printf("%s:2: expected one host name per line, got \"beta gamma\"", two);
    CU_ASSERT_STRING_EQUAL(e->message, want);
    g_free(want);
    g_clear_error(&e);
    g_free(arg);
    g_free(two);

    /* An empty hostfile. */
    char *empty = write_file("hosts3", "# nobody\n\n");
    arg = g_strdup_printf("cluster.hostfile=%s", empty);
    const char *const set2[] = {arg, NULL};
    CU_ASSERT_PTR_NULL(pm_platform_load(path, set2, &e));
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    want = g_strdup_printf("%s: the hostfile names no host (one host name per line)", empty);
    CU_ASSERT_STRING_EQUAL(e->message, want);
    g_free(want);
    g_clear_error(&e);
    g_free(arg);
    g_free(empty);

    g_free(path);
    g_free(hosts);
}

/* ---------------------------------------------------------------------- */

static void remove_tree(const char *dir) {
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, name, NULL);
        g_remove(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

int main(void) {
    static const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"minimal file and defaults", test_minimal_defaults},
        {"every key", test_all_keys},
        {"CRLF lines and booleans", test_crlf_and_booleans},
        {"piecewise segments", test_segments},
        {"--set overrides", test_overrides},
        {"--set errors", test_override_errors},
        {"sizes read as on the command line", test_sizes_as_on_command_line},
        {"value errors name file:line and key", test_file_errors},
        {"missing keys", test_missing_keys},
        {"segment errors", test_segment_errors},
        {"values past what a platform can describe", test_ranges},
        {"missing platform file", test_missing_file},
        {"example cluster.ini", test_example_cluster},
        {"example fattree.ini", test_example_fattree},
        {"line numbers in a file", test_line_numbers_in_file},
        {"block and round-robin mapping", test_map_block_and_round_robin},
        {"oversubscription", test_oversubscription},
        {"hostfile mapping", test_hostfile},
    };
    tmpdir = g_dir_make_tmp("ordex-platform-XXXXXX", NULL);
    if (!tmpdir)
        return 2;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = CU_add_suite("platform", NULL, NULL);
    if (!suite) {
        CU_cleanup_registry();
        return 2;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(tests); i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn)) {
            CU_cleanup_registry();
            return 2;
        }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    remove_tree(tmpdir);
    g_free(tmpdir);
    return failed == 0 ? 0 : 1;
}
