/*
 * test_fit.c - unit tests of cli/calibrate_fit.c: the piecewise-linear fit
 * on synthetic data (exact recovery, breakpoints, the protocol split, noise,
 * degenerate inputs and the documented fallbacks), the overhead fit, the
 * benchmark report parser, and the platform file, which must load with
 * pm_platform_load_data and, through ordex's own network model and
 * overheads, give every measured size its measured one-way time.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "perfmodel/calibrate_fit.h"
#include "perfmodel/netmodel.h"
#include "perfmodel/platform.h"
#include "perfmodel/units.h"

/* |a - b| <= rel * |b|, with a message on failure. */
static bool near(double a, double b, double rel, const char *what) {
    bool ok = fabs(a - b) <= rel * fabs(b);
    if (!ok)
        fprintf(stderr, "\n%s: got %.17g, want %.17g (relative tolerance %g)\n", what, a, b, rel);
    return ok;
}
#define NEAR(a, b, rel) CU_ASSERT_TRUE(near((a), (b), (rel), #a))

/* Points of t = latency + s / bandwidth at the given sizes, appended. */
static void add_line(GArray *pts, const uint64_t *sizes, int n, double latency, double bandwidth) {
    for (int i = 0; i < n; i++) {
        pm_fit_point p = {sizes[i], latency + (double)sizes[i] / bandwidth};
        g_array_append_val(pts, p);
    }
}

/* 0, 1, 2, 4, ... up to `to` (powers of two from `from`, 0 first if from == 0). */
static int powers(uint64_t from, uint64_t to, uint64_t *out) {
    int n = 0;
    if (from == 0)
        out[n++] = 0;
    for (uint64_t s = from ? from : 1; s <= to; s *= 2)
        out[n++] = s;
    return n;
}

static bool fit(GArray *pts, int max_segments, uint64_t split, pm_fit *f) {
    char *problem = NULL;
    bool ok = pm_fit_piecewise((pm_fit_point *)(void *)pts->data, (int)pts->len, max_segments,
                                  split, f, &problem);
    if (problem)
        fprintf(stderr, "\nfit failed: %s\n", problem);
    g_free(problem);
    return ok;
}

/* Eager line up to 8 KiB, rendezvous line from 16 KiB to 16 MiB. */
#define L1 350e-9
#define B1 3e9
#define L2 2.5e-6
#define B2 9e9

static GArray *two_segments(void) {
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
    uint64_t s[64];
    int n = powers(0, 8192, s);
    add_line(pts, s, n, L1, B1);
    n = powers(16384, 16u << 20, s);
    add_line(pts, s, n, L2, B2);
    return pts;
}

static void test_exact_two_segments(void) {
    GArray *pts = two_segments();
    pm_fit f;
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, ORDEX_FIT_NO_SPLIT, &f));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 2);
    CU_ASSERT_EQUAL(f.npoints, (int)pts->len);
    CU_ASSERT_EQUAL(f.seg[0].from, 0);
    CU_ASSERT_EQUAL(f.seg[0].first, 0);
    CU_ASSERT_EQUAL(f.seg[0].last, 8192);
    CU_ASSERT_EQUAL(f.seg[0].npoints, 15);
    CU_ASSERT_EQUAL(f.seg[1].from, 16384); /* no split given: its first size */
    CU_ASSERT_EQUAL(f.seg[1].first, 16384);
    CU_ASSERT_EQUAL(f.seg[1].last, 16u << 20);
    NEAR(f.seg[0].latency, L1, 1e-9);
    NEAR(f.seg[0].bandwidth, B1, 1e-9);
    NEAR(f.seg[1].latency, L2, 1e-9);
    NEAR(f.seg[1].bandwidth, B2, 1e-9);
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_FALSE(f.seg[k].fallback);
        CU_ASSERT_TRUE(f.seg[k].max_error < 1e-9);
        CU_ASSERT_TRUE(f.seg[k].mean_error <= f.seg[k].max_error);
    }
    NEAR(pm_fit_time(&f, 4096), L1 + 4096 / B1, 1e-9);
    NEAR(pm_fit_time(&f, 1u << 20), L2 + (1u << 20) / B2, 1e-9);

    /* The same data in reverse order: the fit sorts. */
    GArray *rev = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
    for (guint i = pts->len; i-- > 0;)
        g_array_append_val(rev, g_array_index(pts, pm_fit_point, i));
    pm_fit g;
    CU_ASSERT_TRUE_FATAL(fit(rev, ORDEX_FIT_MAX_SEGMENTS, ORDEX_FIT_NO_SPLIT, &g));
    CU_ASSERT_EQUAL_FATAL(g.nseg, 2);
    CU_ASSERT_EQUAL(g.seg[1].first, 16384);
    NEAR(g.seg[1].bandwidth, B2, 1e-9);

    /* One segment allowed: the best single line, far from either. */
    pm_fit one;
    CU_ASSERT_TRUE_FATAL(fit(pts, 1, ORDEX_FIT_NO_SPLIT, &one));
    CU_ASSERT_EQUAL(one.nseg, 1);
    CU_ASSERT_EQUAL(one.seg[0].npoints, (int)pts->len);
    CU_ASSERT_TRUE(one.seg[0].max_error > 0.1);
    g_array_free(pts, TRUE);
    g_array_free(rev, TRUE);
}

static void test_exact_three_segments(void) {
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
    uint64_t s[64];
    int n = powers(0, 512, s);
    add_line(pts, s, n, 200e-9, 1e9);
    n = powers(1024, 65536, s);
    add_line(pts, s, n, 900e-9, 4e9);
    n = powers(131072, 8u << 20, s);
    add_line(pts, s, n, 20e-6, 2e9);
    pm_fit f;
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, ORDEX_FIT_NO_SPLIT, &f));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 3);
    CU_ASSERT_EQUAL(f.seg[1].from, 1024);
    CU_ASSERT_EQUAL(f.seg[2].from, 131072);
    NEAR(f.seg[0].latency, 200e-9, 1e-9);
    NEAR(f.seg[0].bandwidth, 1e9, 1e-9);
    NEAR(f.seg[1].latency, 900e-9, 1e-9);
    NEAR(f.seg[1].bandwidth, 4e9, 1e-9);
    NEAR(f.seg[2].latency, 20e-6, 1e-9);
    NEAR(f.seg[2].bandwidth, 2e9, 1e-9);
    /* At most two segments: the DP still places the one boundary where it
     * costs least, and reports the error it leaves. */
    pm_fit two;
    CU_ASSERT_TRUE_FATAL(fit(pts, 2, ORDEX_FIT_NO_SPLIT, &two));
    CU_ASSERT_EQUAL(two.nseg, 2);
    CU_ASSERT_TRUE(two.seg[0].max_error + two.seg[1].max_error > 1e-3);
    g_array_free(pts, TRUE);
}

/* The protocol split: a segment ends at the eager limit, and the next one
 * starts one byte above it, even on data that is one straight line. */
static void test_split(void) {
    GArray *pts = two_segments();
    pm_fit f;
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, 10000, &f));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 2);
    CU_ASSERT_EQUAL(f.seg[0].last, 8192);
    CU_ASSERT_EQUAL(f.seg[1].from, 10001);
    NEAR(f.seg[1].latency, L2, 1e-9);
    g_array_free(pts, TRUE);

    pts = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
    uint64_t s[64];
    int n = powers(0, 1u << 20, s);
    add_line(pts, s, n, 1e-6, 5e9);
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, 1000, &f));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 2);
    CU_ASSERT_EQUAL(f.seg[0].last, 512);
    CU_ASSERT_EQUAL(f.seg[1].first, 1024);
    CU_ASSERT_EQUAL(f.seg[1].from, 1001);
    for (int k = 0; k < 2; k++) {
        NEAR(f.seg[k].latency, 1e-6, 1e-9);
        NEAR(f.seg[k].bandwidth, 5e9, 1e-9);
    }
    /* Without the split the same data is one segment. */
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, ORDEX_FIT_NO_SPLIT, &f));
    CU_ASSERT_EQUAL(f.nseg, 1);
    /* A split with fewer than 3 sizes above it is ignored. */
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, 300000, &f));
    CU_ASSERT_EQUAL(f.nseg, 1);
    g_array_free(pts, TRUE);
}

/* Multiplicative noise of up to +-3 %, for 20 seeds: still two segments,
 * split in the right place, parameters within a few per cent. */
static void test_noise(void) {
    for (guint32 seed = 1; seed <= 20; seed++) {
        GRand *r = g_rand_new_with_seed(seed);
        GArray *pts = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
        uint64_t s[64];
        int n = powers(0, 8192, s);
        add_line(pts, s, n, L1, B1);
        n = 0;
        for (uint64_t x = 16384; x <= (16u << 20); x *= 2) {
            s[n++] = x;
            s[n++] = x + x / 2;
        }
        add_line(pts, s, n, L2, B2);
        for (guint i = 0; i < pts->len; i++)
            g_array_index(pts, pm_fit_point, i).time *= 1 + g_rand_double_range(r, -0.03, 0.03);
        pm_fit f;
        CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, ORDEX_FIT_NO_SPLIT, &f));
        if (f.nseg != 2)
            fprintf(stderr, "\nseed %u: %d segments\n", seed, f.nseg);
        CU_ASSERT_EQUAL(f.nseg, 2);
        if (f.nseg == 2) {
            CU_ASSERT_EQUAL(f.seg[1].first, 16384);
            NEAR(f.seg[0].latency, L1, 0.05);
            NEAR(f.seg[0].bandwidth, B1, 0.15);
            NEAR(f.seg[1].latency, L2, 0.15);
            NEAR(f.seg[1].bandwidth, B2, 0.05);
            CU_ASSERT_TRUE(f.seg[0].max_error < 0.06 && f.seg[1].max_error < 0.06);
        }
        g_array_free(pts, TRUE);
        g_rand_free(r);
    }
}

/* Equal times at every size: one flat segment with the fallback bandwidth
 * (no other segment has a slope) and latency = mean of t - s/bandwidth. */
static void test_all_equal_times(void) {
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
    uint64_t s[64];
    int n = powers(0, 1u << 20, s);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        pm_fit_point p = {s[i], 1e-6};
        g_array_append_val(pts, p);
        sum += (double)s[i];
    }
    pm_fit f;
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, ORDEX_FIT_NO_SPLIT, &f));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 1);
    CU_ASSERT_TRUE(f.seg[0].fallback);
    /* 1 MiB in 0.1 % of 1 us: above the 1 TB/s floor. */
    double bw = (double)(1u << 20) / (1e-3 * 1e-6);
    NEAR(f.seg[0].bandwidth, bw, 1e-12);
    NEAR(f.seg[0].latency, 1e-6 - sum / n / bw, 1e-12);
    CU_ASSERT_TRUE(f.seg[0].max_error <= 1.001e-3);
    g_array_free(pts, TRUE);
}

static void test_single_size(void) {
    pm_fit f;
    char *problem = NULL;
    pm_fit_point one = {1024, 2e-6};
    CU_ASSERT_TRUE_FATAL(pm_fit_piecewise(&one, 1, 6, ORDEX_FIT_NO_SPLIT, &f, &problem));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 1);
    CU_ASSERT_EQUAL(f.seg[0].from, 0);
    CU_ASSERT_EQUAL(f.seg[0].first, 1024);
    CU_ASSERT_EQUAL(f.seg[0].last, 1024);
    CU_ASSERT_EQUAL(f.seg[0].npoints, 1);
    CU_ASSERT_TRUE(f.seg[0].fallback);
    CU_ASSERT_EQUAL(f.seg[0].bandwidth, ORDEX_FIT_FALLBACK_BANDWIDTH);
    NEAR(f.seg[0].latency, 2e-6 - 1024 / ORDEX_FIT_FALLBACK_BANDWIDTH, 1e-12);
    NEAR(pm_fit_time(&f, 1024), 2e-6, 1e-12);

    /* Two sizes: one exact segment (too few points to split). */
    pm_fit_point two[2] = {{0, 1e-6}, {1000, 2e-6}};
    CU_ASSERT_TRUE_FATAL(pm_fit_piecewise(two, 2, 6, 500, &f, &problem));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 1);
    NEAR(f.seg[0].latency, 1e-6, 1e-12);
    NEAR(f.seg[0].bandwidth, 1e9, 1e-12);
    CU_ASSERT_FALSE(f.seg[0].fallback);
    CU_ASSERT_PTR_NULL(problem);
}

/* Zero-byte messages only: no slope; the latency is the mean that
 * minimises the relative error, sum(1/t) / sum(1/t^2). */
static void test_zero_bytes_only(void) {
    pm_fit_point p[5] = {{0, 1.0e-6}, {0, 1.1e-6}, {0, 0.9e-6}, {0, 1.0e-6}, {0, 1.2e-6}};
    double a = 0, b = 0;
    for (int i = 0; i < 5; i++) {
        a += 1 / p[i].time;
        b += 1 / (p[i].time * p[i].time);
    }
    pm_fit f;
    char *problem = NULL;
    CU_ASSERT_TRUE_FATAL(pm_fit_piecewise(p, 5, 6, ORDEX_FIT_NO_SPLIT, &f, &problem));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 1);
    CU_ASSERT_TRUE(f.seg[0].fallback);
    CU_ASSERT_EQUAL(f.seg[0].npoints, 5);
    NEAR(f.seg[0].latency, a / b, 1e-12);
    CU_ASSERT_EQUAL(f.seg[0].bandwidth, ORDEX_FIT_FALLBACK_BANDWIDTH);
    /* The largest error is at the largest time. */
    NEAR(f.seg[0].max_error, (1.2e-6 - a / b) / 1.2e-6, 1e-9);
}

static void test_bad_input(void) {
    pm_fit f;
    char *problem = NULL;
    CU_ASSERT_FALSE(pm_fit_piecewise(NULL, 0, 6, ORDEX_FIT_NO_SPLIT, &f, &problem));
    CU_ASSERT_STRING_EQUAL(problem, "no measurements to fit");
    g_free(problem);
    problem = NULL;
    pm_fit_point p[3] = {{0, 1e-6}, {8, 0}, {16, 1e-6}};
    CU_ASSERT_FALSE(pm_fit_piecewise(p, 3, 6, ORDEX_FIT_NO_SPLIT, &f, &problem));
    CU_ASSERT_PTR_NOT_NULL(problem);
    CU_ASSERT_PTR_NOT_NULL(strstr(problem ? problem : "", "8 bytes"));
    g_free(problem);
    problem = NULL;
    p[1].time = NAN;
    CU_ASSERT_FALSE(pm_fit_piecewise(p, 3, 6, ORDEX_FIT_NO_SPLIT, &f, &problem));
    g_free(problem);
}

/* A negative intercept is refitted through the origin. */
static void test_negative_latency(void) {
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
    uint64_t s[64];
    int n = powers(1024, 1u << 20, s);
    add_line(pts, s, n, -100e-9, 1e9);
    pm_fit f;
    CU_ASSERT_TRUE_FATAL(fit(pts, 1, ORDEX_FIT_NO_SPLIT, &f));
    CU_ASSERT_EQUAL(f.seg[0].latency, 0.0);
    CU_ASSERT_FALSE(f.seg[0].fallback);
    /* Through the origin with weights 1/t^2: slope = sum(s/t) / sum((s/t)^2). */
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        double t = -100e-9 + (double)s[i] / 1e9;
        num += (double)s[i] / t;
        den += ((double)s[i] / t) * ((double)s[i] / t);
    }
    NEAR(f.seg[0].bandwidth, den / num, 1e-9);
    g_array_free(pts, TRUE);
}

/* A flat stretch next to a real slope takes that slope's bandwidth, so it
 * never raises the largest bandwidth (ordex's node-link capacity). */
static void test_flat_segment_fallback(void) {
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(pm_fit_point));
    uint64_t s[64];
    int n = powers(0, 64, s);
    for (int i = 0; i < n; i++) {
        pm_fit_point p = {s[i], 300e-9};
        g_array_append_val(pts, p);
    }
    n = powers(128, 1u << 20, s);
    add_line(pts, s, n, 5e-6, 2e9);
    pm_fit f;
    CU_ASSERT_TRUE_FATAL(fit(pts, ORDEX_FIT_MAX_SEGMENTS, ORDEX_FIT_NO_SPLIT, &f));
    CU_ASSERT_EQUAL_FATAL(f.nseg, 2);
    CU_ASSERT_TRUE(f.seg[0].fallback);
    CU_ASSERT_FALSE(f.seg[1].fallback);
    CU_ASSERT_EQUAL(f.seg[1].from, 128);
    CU_ASSERT_EQUAL(f.seg[0].bandwidth, f.seg[1].bandwidth);
    NEAR(f.seg[1].bandwidth, 2e9, 1e-9);
    CU_ASSERT_TRUE(f.seg[0].latency > 250e-9 && f.seg[0].latency < 300e-9);
    CU_ASSERT_TRUE(f.seg[0].max_error < 0.15);
    g_array_free(pts, TRUE);
}

static void test_overhead(void) {
    pm_fit_point p[4] = {{0, 0}, {1024, 0}, {8192, 0}, {32768, 0}};
    for (int i = 0; i < 4; i++)
        p[i].time = 50e-9 + (double)p[i].size * 0.1e-9;
    double m, b;
    pm_fit_overhead(p, 4, &m, &b);
    NEAR(m, 50e-9, 1e-9);
    NEAR(b, 0.1e-9, 1e-9);
    /* Falling with size: no per-byte cost, the weighted mean per message. */
    for (int i = 0; i < 4; i++)
        p[i].time = 100e-9 - (double)i * 10e-9;
    pm_fit_overhead(p, 4, &m, &b);
    CU_ASSERT_EQUAL(b, 0.0);
    CU_ASSERT_TRUE(m > 70e-9 && m < 100e-9);
    /* A negative intercept: through the origin. */
    for (int i = 0; i < 4; i++)
        p[i].time = (double)p[i].size * 1e-9 - 10e-9;
    p[0].time = 0;
    pm_fit_overhead(p, 4, &m, &b);
    CU_ASSERT_EQUAL(m, 0.0);
    CU_ASSERT_TRUE(b > 0.9e-9 && b < 1.1e-9);
    pm_fit_overhead(p, 0, &m, &b);
    CU_ASSERT_EQUAL(m, 0.0);
    CU_ASSERT_EQUAL(b, 0.0);
}

/* ---------------------------------------------------------------------- */
/* The report                                                              */

static const char *const REPORT = "launcher noise before the report\n"
                                  "ordex-mpibench 1\n"
                                  "library MPICH Version: 4.0.2\n"
                                  "eager_limit 8255 8256\n"
                                  "pingpong 0 1000 3.0e-07 3.5e-07\n"
                                  "pingpong 1024 900 7.0e-07 7.5e-07\n"
                                  "\n"
                                  "stream 65536 32 7 6.3e+09\n"
                                  "stream 1048576 32 7 4.5e+09\n"
                                  "send_overhead 0 1000 1.0e-07 1.2e-07\n"
                                  "recv_overhead 0 70 0 2.0e-07\n"
                                  "progress 33024 5.0e-03 5.9e-03\n"
                                  "end\n"
                                  "trailing lines are ignored\n";

static void test_parse(void) {
    pm_bench b;
    char *problem = NULL;
    CU_ASSERT_TRUE_FATAL(pm_bench_parse(REPORT, &b, &problem));
    CU_ASSERT_STRING_EQUAL(b.library, "MPICH Version: 4.0.2");
    CU_ASSERT_TRUE(b.eager_found);
    CU_ASSERT_EQUAL(b.eager_limit, 8255);
    CU_ASSERT_EQUAL_FATAL(b.pingpong->len, 2);
    pm_bench_sample *s = &g_array_index(b.pingpong, pm_bench_sample, 1);
    CU_ASSERT_EQUAL(s->size, 1024);
    CU_ASSERT_EQUAL(s->reps, 900);
    CU_ASSERT_EQUAL(s->min, 7.0e-7);
    CU_ASSERT_EQUAL(s->median, 7.5e-7);
    CU_ASSERT_EQUAL(b.stream->len, 2);
    CU_ASSERT_EQUAL(g_array_index(b.stream, pm_bench_stream, 0).window, 32);
    CU_ASSERT_EQUAL(g_array_index(b.stream, pm_bench_stream, 1).bandwidth, 4.5e9);
    CU_ASSERT_EQUAL(b.send_overhead->len, 1);
    CU_ASSERT_EQUAL(b.recv_overhead->len, 1);
    CU_ASSERT_EQUAL(g_array_index(b.recv_overhead, pm_bench_sample, 0).min, 0.0);
    CU_ASSERT_EQUAL(b.progress_bytes, 33024);
    CU_ASSERT_EQUAL(b.progress_compute, 5.0e-3);
    CU_ASSERT_EQUAL(b.progress_send, 5.9e-3);
    pm_bench_clear(&b);

    const char *none = "ordex-mpibench 1\neager_limit 16777216 none\npingpong 0 1 1e-6 1e-6\nend\n";
    CU_ASSERT_TRUE_FATAL(pm_bench_parse(none, &b, &problem));
    CU_ASSERT_FALSE(b.eager_found);
    CU_ASSERT_EQUAL(b.eager_limit, 16u << 20);
    CU_ASSERT_PTR_NULL(b.library);
    pm_bench_clear(&b);
}

static void expect_parse_error(const char *text, const char *want) {
    pm_bench b;
    char *problem = NULL;
    CU_ASSERT_FALSE(pm_bench_parse(text, &b, &problem));
    CU_ASSERT_PTR_NOT_NULL_FATAL(problem);
    if (!strstr(problem, want))
        fprintf(stderr, "\nexpected a problem containing: %s\n     got: %s\n", want, problem);
    CU_ASSERT_PTR_NOT_NULL(strstr(problem, want));
    CU_ASSERT_PTR_NULL(b.pingpong); /* cleared on failure */
    g_free(problem);
}

static void test_parse_errors(void) {
    expect_parse_error("", "no report");
    expect_parse_error("-n 2 /tmp/x/mpibench --quick\n", "no report");
    expect_parse_error("ordex-mpibench 2\n", "not version 1");
    expect_parse_error("ordex-mpibench 1\neager_limit 1 2\npingpong 0 10 1e-6 1e-6\n",
                       "before its \"end\" line");
    expect_parse_error("ordex-mpibench 1\neager_limit 1 2\nend\n", "no ping-pong");
    expect_parse_error("ordex-mpibench 1\npingpong 0 10 1e-6 1e-6\nend\n", "no eager_limit");
    expect_parse_error("ordex-mpibench 1\neager_limit 1 2\npingpong 0 10 0 1e-6\nend\n",
                       "line 3: expected \"pingpong BYTES REPS MIN_S MEDIAN_S");
    expect_parse_error("ordex-mpibench 1\neager_limit 1 2\npingpong 0 10 1e-6\nend\n", "line 3");
    expect_parse_error("ordex-mpibench 1\neager_limit 1 2\npingpong -5 10 1e-6 1e-6\nend\n",
                       "line 3");
    expect_parse_error("ordex-mpibench 1\neager_limit x 2\nend\n", "line 2: expected");
    expect_parse_error("ordex-mpibench 1\nbogus 1 2\nend\n", "line 2: unknown line \"bogus 1 2\"");
    expect_parse_error("ordex-mpibench 1\neager_limit 1 2\nstream 1 0 1 5\nend\n", "line 3");
    expect_parse_error("ordex-mpibench 1\neager_limit 1 2\nprogress 4096 0 1e-3\nend\n",
                       "line 3: expected \"progress BYTES COMPUTE_S SEND_S");
}

/* ---------------------------------------------------------------------- */
/* The platform file                                                       */

/* A report of exact lines: eager 300 ns + s / 3 GB/s up to 8191 bytes,
 * rendezvous 4 us + s / 8 GB/s from 8192 on; overheads 50 ns + 0.1 ns/B to
 * send and 80 ns + 0.1 ns/B to receive. */
static char *exact_report(void) {
    GString *s = g_string_new("ordex-mpibench 1\nlibrary MPICH Version: 4.0.2\n"
                              "eager_limit 8191 8192\n");
    uint64_t sizes[64];
    int n = powers(0, 16u << 20, sizes);
    sizes[n++] = 8191;
    for (int i = 0; i < n; i++) {
        uint64_t z = sizes[i];
        double t = z <= 8191 ? 300e-9 + (double)z / 3e9 : 4e-6 + (double)z / 8e9;
        /* The fastest batch 10% faster than the median, which is fitted. */
        g_string_append_printf(s, "pingpong %" G_GUINT64_FORMAT " 100 %.17g %.17g\n", z, t / 1.1,
                               t);
    }
    g_string_append(s, "stream 65536 32 7 6.5e9\n"
                       "send_overhead 0 100 5e-8 5e-8\nsend_overhead 8191 100 8.691e-7 1e-6\n"
                       "recv_overhead 0 100 8e-8 8e-8\nrecv_overhead 4096 100 4.896e-7 7e-7\n"
                       "progress 32768 5e-3 5.9e-3\n"
                       "end\n");
    return g_string_free(s, FALSE);
}

/* When ordex's own network model delivers one message of `bytes` bytes
 * between two ranks of node 0, plus the overheads ordex charges. */
static double ordex_time(const pm_platform *p, uint64_t bytes) {
    pm_net *net = pm_net_new(p);
    uint64_t id = pm_net_start(net, 0, 0, 0, bytes, pm_platform_is_rendezvous(p, bytes));
    uint64_t first = 0;
    double t = -1;
    CU_ASSERT_TRUE(id > 0 && pm_net_next(net, &first, &t) && first == id);
    pm_net_free(net);
    return pm_platform_send_overhead(p, bytes) + t + pm_platform_recv_overhead(p, bytes);
}

/* The exact report, parsed into *b and fitted into *c; returns its text. */
static char *derive_exact(pm_bench *b, pm_calibration *c) {
    char *text = exact_report();
    char *problem = NULL;
    CU_ASSERT_TRUE_FATAL(pm_bench_parse(text, b, &problem));
    CU_ASSERT_TRUE_FATAL(pm_calibrate_derive(b, c, &problem));
    return text;
}

static void test_platform_file(void) {
    pm_bench b;
    pm_calibration c;
    char *problem = NULL;
    char *text = derive_exact(&b, &c);
    c.host = "testhost";
    c.date = "2024-01-01 00:00:00 +0000";
    c.command = "ordex calibrate -o x.ini";
    c.cores = 6;
    CU_ASSERT_EQUAL_FATAL(c.fit.nseg, 2);
    CU_ASSERT_EQUAL(c.fit.seg[1].from, 8192);
    CU_ASSERT_EQUAL(c.rendezvous_segment, 1);
    /* The jump: rendezvous line at 8192 minus eager line at 8191. */
    double jump = (4e-6 + 8192 / 8e9) - (300e-9 + 8191 / 3e9);
    NEAR(c.handshake, jump, 1e-9);
    NEAR(c.send_overhead, 50e-9, 1e-9);
    NEAR(c.send_overhead_per_byte, 1e-10, 1e-9);
    NEAR(c.recv_overhead, 80e-9, 1e-9);
    NEAR(c.recv_overhead_per_byte, 1e-10, 1e-9);
    CU_ASSERT_EQUAL(c.best_stream.size, 65536);
    bool clamped = true;
    NEAR(pm_calibration_file_latency(&c, 0, &clamped), 300e-9 - 130e-9, 1e-9);
    CU_ASSERT_FALSE(clamped);
    NEAR(pm_calibration_file_latency(&c, 1, &clamped), (4e-6 - 130e-9) / 3, 1e-9);
    CU_ASSERT_FALSE(clamped);

    char *ini = pm_calibration_platform_text(&c);
    CU_ASSERT_TRUE(pm_calibration_check(&c, ini, &problem));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "# Platform of testhost"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "MPICH Version: 4.0.2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "# Command: ordex calibrate -o x.ini"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "[intranode]")); /* the comment explains its absence */
    CU_ASSERT_PTR_NULL(strstr(ini, "overprices"));

    GError *err = NULL;
    pm_platform *p = pm_platform_load_data("x.ini", ini, NULL, &err);
    if (err)
        fprintf(stderr, "\n%s\n%s\n", err->message, ini);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nodes, 1);
    CU_ASSERT_EQUAL(p->cores_per_node, 6);
    CU_ASSERT_TRUE(isinf(p->oversubscribe));
    CU_ASSERT_FALSE(p->intranode);
    CU_ASSERT_EQUAL_FATAL(p->nsegments, 2);
    CU_ASSERT_EQUAL(p->segments[0].from, 0);
    CU_ASSERT_EQUAL(p->segments[1].from, 8192);
    NEAR(p->segments[0].latency, 170e-9, 1e-5);
    NEAR(p->segments[0].bandwidth, 3e9, 1e-5);
    NEAR(p->segments[1].latency, (4e-6 - 130e-9) / 3, 1e-5);
    NEAR(p->segments[1].bandwidth, 8e9, 1e-5);
    CU_ASSERT_EQUAL(p->eager_limit, 8191);
    NEAR(p->rendezvous_handshake, jump, 1e-5);
    NEAR(p->send_overhead, 50e-9, 1e-5);
    NEAR(p->recv_overhead, 80e-9, 1e-5);
    CU_ASSERT_EQUAL(p->send_overhead_per_byte, 0.0);
    CU_ASSERT_EQUAL(p->recv_overhead_per_byte, 0.0);
    /* The send waited for the receiver's computation: no asynchronous progress. */
    CU_ASSERT_FALSE(c.async_progress);
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "\nasync_progress = false\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "computed 5ms returned after 5.9ms"));
    CU_ASSERT_FALSE(p->async_progress);
    /* ordex's network model and overheads give every measured size its
     * median one-way time. */
    for (guint i = 0; i < b.pingpong->len; i++) {
        const pm_bench_sample *s = &g_array_index(b.pingpong, pm_bench_sample, i);
        double t = ordex_time(p, s->size);
        if (!near(t, s->median, 1e-5, "simulated one-way time"))
            fprintf(stderr, "  at %" G_GUINT64_FORMAT " bytes\n", s->size);
        NEAR(t, s->median, 1e-5);
    }
    pm_platform_free(p);

    /* The check notices a file that says something else. */
    char *edited = g_strdup(ini);
    char *seg = strstr(edited, "segment.2 = 8192B");
    CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
    seg[strlen("segment.2 = 819")] = '3';
    CU_ASSERT_FALSE(pm_calibration_check(&c, edited, &problem));
    CU_ASSERT_PTR_NOT_NULL(problem);
    g_free(problem);
    problem = NULL;

    char *table = pm_calibration_table(&c);
    CU_ASSERT_PTR_NOT_NULL(strstr(table, "Eager limit: 8191 bytes"));
    CU_ASSERT_PTR_NOT_NULL(strstr(table, "8KiB"));
    CU_ASSERT_PTR_NULL(strstr(table, "busy"));
    g_free(table);
    /* Medians far above the minimum at a quarter of the sizes: said so. */
    CU_ASSERT_EQUAL(c.noisy, 0);
    c.noisy = (c.fit.npoints + 3) / 4;
    table = pm_calibration_table(&c);
    CU_ASSERT_PTR_NOT_NULL(strstr(table, "the machine was busy"));
    g_free(table);
    g_free(edited);
    g_free(ini);
    pm_bench_clear(&b);
    g_free(text);
}

/* A send that returned long before the receiver's computation ended: the
 * message moved while the receiver computed.  No progress line: the key is
 * not written, and the platform keeps its default (false). */
static void test_progress(void) {
    pm_bench b;
    pm_calibration c;
    char *problem = NULL;
    char *text = derive_exact(&b, &c);
    b.progress_send = 1e-4; /* the report said 5.9 ms for 5 ms of computation */
    CU_ASSERT_TRUE_FATAL(pm_calibrate_derive(&b, &c, &problem));
    CU_ASSERT_TRUE(c.async_progress);
    char *ini = pm_calibration_platform_text(&c);
    CU_ASSERT_TRUE(pm_calibration_check(&c, ini, &problem));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "\nasync_progress = true\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "moves while its receiver computes"));
    pm_platform *p = pm_platform_load_data("x.ini", ini, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(p->async_progress);
    pm_platform_free(p);
    g_free(ini);
    char *table = pm_calibration_table(&c);
    CU_ASSERT_PTR_NOT_NULL(strstr(table, "Progress: asynchronous"));
    g_free(table);

    b.progress_bytes = 0;
    CU_ASSERT_TRUE_FATAL(pm_calibrate_derive(&b, &c, &problem));
    CU_ASSERT_FALSE(c.async_progress);
    ini = pm_calibration_platform_text(&c);
    CU_ASSERT_TRUE(pm_calibration_check(&c, ini, &problem));
    CU_ASSERT_PTR_NULL(strstr(ini, "async_progress"));
    g_free(ini);
    pm_bench_clear(&b);
    g_free(text);
}

/* The time slice from a token ring: 12 ranks on 6 cores poll, one wait
 * for a slice per hop of (12/6 - 1) x timeslice / 2 beyond the token's own
 * one-way time (4 bytes on the exact report's first line: 300 ns + 4 B at
 * 3 GB/s), so a median hop of 2.5 ms gives 2 x (2.5 ms - that). */
static void test_timeslice(void) {
    pm_bench b;
    pm_calibration c;
    char *problem = NULL;
    char *text = derive_exact(&b, &c);
    c.cores = 6;
    NEAR(c.timeslice, ORDEX_CALIB_DEFAULT_TIMESLICE, 1e-12);
    CU_ASSERT_FALSE(c.timeslice_measured);

    pm_bench_ring ring;
    CU_ASSERT_TRUE_FATAL(pm_bench_parse_ring("noise\nordex-mpibench 1\nlibrary MPICH\n"
                                                "ring 12 40 1.0e-3 2.5e-3\nend\n",
                                                &ring, &problem));
    CU_ASSERT_EQUAL(ring.ranks, 12);
    CU_ASSERT_EQUAL(ring.rounds, 40);
    pm_calibrate_timeslice(&c, &ring, 6);
    CU_ASSERT_TRUE(c.timeslice_measured);
    double want = 2 * (2.5e-3 - (300e-9 + 4 / 3e9));
    NEAR(c.timeslice, want, 1e-9);
    char *ini = pm_calibration_platform_text(&c);
    CU_ASSERT_TRUE(pm_calibration_check(&c, ini, &problem));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "a token went around 12 MPICH ranks on the 6 cores"));
    pm_platform *p = pm_platform_load_data("x.ini", ini, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(p->busy_wait);
    NEAR(p->timeslice, want, 1e-5);
    pm_platform_free(p);
    g_free(ini);
    char *table = pm_calibration_table(&c);
    CU_ASSERT_PTR_NOT_NULL(strstr(table, "Time slice: 4.99"));
    g_free(table);

    /* A hop no slower than the message itself: no slice to wait for. */
    ring.median = 100e-9;
    ring.min = 100e-9;
    pm_calibrate_timeslice(&c, &ring, 6);
    CU_ASSERT_TRUE(c.timeslice_measured);
    NEAR(c.timeslice, 0, 1e-15);

    /* No more ranks than cores, or no ring: the default, and the file says so. */
    ring.ranks = 6;
    pm_calibrate_timeslice(&c, &ring, 6);
    CU_ASSERT_FALSE(c.timeslice_measured);
    NEAR(c.timeslice, ORDEX_CALIB_DEFAULT_TIMESLICE, 1e-12);
    c.ring_problem = "mpiexec -n 12 failed: no slots";
    pm_calibrate_timeslice(&c, NULL, 6);
    ini = pm_calibration_platform_text(&c);
    CU_ASSERT_TRUE(pm_calibration_check(&c, ini, &problem));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "# Not measured (mpiexec -n 12 failed: no slots)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "timeslice = 4ms"));
    g_free(ini);

    /* Reports without a usable ring line. */
    CU_ASSERT_FALSE(pm_bench_parse_ring("ordex-mpibench 1\nend\n", &ring, &problem));
    CU_ASSERT_STRING_EQUAL(problem, "the report has no ring line");
    g_free(problem);
    problem = NULL;
    CU_ASSERT_FALSE(
        pm_bench_parse_ring("ordex-mpibench 1\nring 1 4 1e-3 2e-3\nend\n", &ring, &problem));
    CU_ASSERT_PTR_NOT_NULL(problem && strstr(problem, "expected \"ring RANKS ROUNDS"));
    g_free(problem);
    problem = NULL;
    CU_ASSERT_FALSE(
        pm_bench_parse_ring("ordex-mpibench 1\nring 4 4 3e-3 2e-3\nend\n", &ring, &problem));
    g_free(problem);
    pm_bench_clear(&b);
    g_free(text);
}

/* No send waited: no split, no handshake, the eager limit is the largest
 * size tried. */
static void test_platform_without_rendezvous(void) {
    const char *text = "ordex-mpibench 1\neager_limit 4096 none\n"
                       "pingpong 0 10 1e-6 1e-6\npingpong 1024 10 2e-6 2e-6\n"
                       "pingpong 2048 10 3e-6 3e-6\npingpong 4096 10 5e-6 5e-6\nend\n";
    pm_bench b;
    char *problem = NULL;
    CU_ASSERT_TRUE_FATAL(pm_bench_parse(text, &b, &problem));
    pm_calibration c;
    CU_ASSERT_TRUE_FATAL(pm_calibrate_derive(&b, &c, &problem));
    CU_ASSERT_EQUAL(c.handshake, 0.0);
    CU_ASSERT_EQUAL(c.rendezvous_segment, -1);
    CU_ASSERT_EQUAL(c.noisy, 0);
    CU_ASSERT_EQUAL(c.fit.nseg, 1);
    char *ini = pm_calibration_platform_text(&c);
    GError *err = NULL;
    pm_platform *p = pm_platform_load_data("y.ini", ini, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->eager_limit, 4096);
    CU_ASSERT_EQUAL(p->rendezvous_handshake, 0.0);
    CU_ASSERT_EQUAL(p->cores_per_node, 1); /* cores unknown (0): one */
    NEAR(p->segments[0].latency, 1e-6, 1e-5);
    NEAR(p->segments[0].bandwidth, 1024 / 1e-6, 1e-5);
    CU_ASSERT_EQUAL(p->send_overhead, 0.0);
    for (uint64_t z = 0; z <= 4096; z += 1024)
        NEAR(ordex_time(p, z), 1e-6 + (double)z / 1.024e9, 1e-5);
    pm_platform_free(p);
    g_free(ini);
    pm_bench_clear(&b);
}

/* Every segment above the eager limit gets a third of its latency less the
 * overheads; overheads above a segment's fitted latency leave it 0, and the
 * file says so. */
static void test_rendezvous_segments(void) {
    GString *r = g_string_new("ordex-mpibench 1\neager_limit 8191 8192\n");
    uint64_t sizes[64];
    int n = powers(0, 64u << 20, sizes);
    for (int i = 0; i < n; i++) {
        uint64_t z = sizes[i];
        double t = z < 8192      ? 300e-9 + (double)z / 3e9
                   : z < 1048576 ? 4e-6 + (double)z / 8e9
                                 : 0.5e-6 + (double)z / 2e9;
        g_string_append_printf(r, "pingpong %" G_GUINT64_FORMAT " 10 %.17g %.17g\n", z, t, t);
    }
    g_string_append(r, "send_overhead 0 10 3e-7 3e-7\nsend_overhead 1024 10 3e-7 3e-7\n"
                       "recv_overhead 0 10 3e-7 3e-7\nend\n");
    pm_bench b;
    char *problem = NULL;
    CU_ASSERT_TRUE_FATAL(pm_bench_parse(r->str, &b, &problem));
    pm_calibration c;
    CU_ASSERT_TRUE_FATAL(pm_calibrate_derive(&b, &c, &problem));
    CU_ASSERT_EQUAL_FATAL(c.fit.nseg, 3);
    CU_ASSERT_EQUAL(c.rendezvous_segment, 1);
    CU_ASSERT_EQUAL(c.fit.seg[2].from, 1048576);
    NEAR(c.send_overhead, 3e-7, 1e-9);
    CU_ASSERT_EQUAL(c.send_overhead_per_byte, 0.0);
    bool clamped = false;
    CU_ASSERT_EQUAL(pm_calibration_file_latency(&c, 0, &clamped), 0.0);
    CU_ASSERT_TRUE(clamped);
    NEAR(pm_calibration_file_latency(&c, 1, &clamped), (4e-6 - 6e-7) / 3, 1e-9);
    CU_ASSERT_FALSE(clamped);
    CU_ASSERT_EQUAL(pm_calibration_file_latency(&c, 2, &clamped), 0.0);
    CU_ASSERT_TRUE(clamped);
    char *ini = pm_calibration_platform_text(&c);
    CU_ASSERT_TRUE(pm_calibration_check(&c, ini, &problem));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "The overheads exceed the latency fitted from 0B to 4KiB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ini, "from 1MiB to 64MiB"));
    g_free(ini);
    pm_bench_clear(&b);
    g_string_free(r, TRUE);
}

static void test_format(void) {
    static const double times[] = {0, 335.2e-9, 1.5e-6, 2.25e-3, 3, 0.0952e-9};
    for (size_t i = 0; i < G_N_ELEMENTS(times); i++) {
        char *t = pm_fmt_time(times[i]), *problem = NULL;
        double back = -1;
        CU_ASSERT_TRUE(pm_parse_time(t, &back, &problem));
        CU_ASSERT_TRUE(fabs(back - times[i]) <= 1e-6 * times[i]);
        g_free(t);
        g_free(problem);
    }
    char *t = pm_fmt_time(335.2e-9);
    CU_ASSERT_STRING_EQUAL(t, "335.2ns");
    g_free(t);
    t = pm_fmt_bandwidth(5.83e9);
    CU_ASSERT_STRING_EQUAL(t, "5.83GBps");
    g_free(t);
    static const struct {
        uint64_t bytes;
        const char *text;
    } sizes[] = {{0, "0B"}, {8255, "8255B"}, {8192, "8KiB"}, {16u << 20, "16MiB"}, {1536, "1536B"}};
    for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
        char *s = pm_fmt_size(sizes[i].bytes);
        CU_ASSERT_STRING_EQUAL(s, sizes[i].text);
        g_free(s);
    }
}

int main(void) {
    static const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"exact two segments", test_exact_two_segments},
        {"exact three segments", test_exact_three_segments},
        {"protocol split", test_split},
        {"noise", test_noise},
        {"all times equal", test_all_equal_times},
        {"single size", test_single_size},
        {"zero-byte messages only", test_zero_bytes_only},
        {"bad input", test_bad_input},
        {"negative latency", test_negative_latency},
        {"flat segment fallback", test_flat_segment_fallback},
        {"overhead fit", test_overhead},
        {"report parsing", test_parse},
        {"report errors", test_parse_errors},
        {"platform file", test_platform_file},
        {"platform without rendezvous", test_platform_without_rendezvous},
        {"segments above the eager limit", test_rendezvous_segments},
        {"time slice from a token ring", test_timeslice},
        {"progress of a rendezvous message", test_progress},
        {"formatting", test_format},
    };
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = CU_add_suite("calibrate fit", NULL, NULL);
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
    unsigned failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
