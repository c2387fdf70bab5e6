/*
 * calibrate_fit.c - the piecewise-linear fit of measured one-way times and
 * the calibration derived from a benchmark report (see calibrate_fit.h for
 * the model and the fitting rules).  Reading the report is
 * calibrate_report.c's job, writing the platform file calibrate_write.c's.
 */
#include "perfmodel/calibrate_fit.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/calibrate_internal.h"

/* ---------------------------------------------------------------------- */
/* One straight line                                                       */

typedef struct line {
    double a;  /* intercept: seconds */
    double c;  /* slope: seconds per byte */
    bool flat; /* no usable slope: c is 0 here, the caller picks a bandwidth */
} line;

/* Weighted least squares of t = a + c s over p[0..n-1], weights 1/t^2 (t at
 * least tfloor).  Centred sums keep the intercept accurate when sizes are
 * large and the latency small. */
static line fit_line(const pm_fit_point *p, int n, double tfloor) {
    double W = 0, ws = 0, wt = 0;
    uint64_t smin = p[0].size, smax = p[0].size;
    for (int i = 0; i < n; i++) {
        double t = fmax(p[i].time, tfloor);
        double w = 1.0 / (t * t);
        W += w;
        ws += w * (double)p[i].size;
        wt += w * p[i].time;
        smin = p[i].size < smin ? p[i].size : smin;
        smax = p[i].size > smax ? p[i].size : smax;
    }
    line l = {wt / W, 0, true};
    if (smin == smax)
        return l;
    double sbar = ws / W, tbar = wt / W, sss = 0, sst = 0;
    for (int i = 0; i < n; i++) {
        double t = fmax(p[i].time, tfloor);
        double w = 1.0 / (t * t), ds = (double)p[i].size - sbar;
        sss += w * ds * ds;
        sst += w * ds * (p[i].time - tbar);
    }
    if (!(sss > 0) || !(sst > 0))
        return l;
    l.c = sst / sss;
    l.a = tbar - l.c * sbar;
    l.flat = false;
    if (l.a < 0) {
        /* Through the origin; some size is positive (sss > 0), and every
         * time is, so the slope stays positive. */
        double wss = 0, wst = 0;
        for (int i = 0; i < n; i++) {
            double t = fmax(p[i].time, tfloor);
            double w = 1.0 / (t * t), s = (double)p[i].size;
            wss += w * s * s;
            wst += w * s * p[i].time;
        }
        l.a = 0;
        l.c = wst / wss;
    }
    /* A slope the data cannot tell from none (rounding on equal times, noise
     * on a flat stretch) would make an absurd bandwidth. */
    if (l.c * (double)(smax - smin) < ORDEX_FIT_MIN_SLOPE_SHARE * (wt / W)) {
        l.a = wt / W;
        l.c = 0;
        l.flat = true;
    }
    return l;
}

/* Sum of squared relative errors of a + c s over p[0..n-1]. */
static double rel_sse(const pm_fit_point *p, int n, double a, double c) {
    double e = 0;
    for (int i = 0; i < n; i++) {
        double r = (a + c * (double)p[i].size - p[i].time) / p[i].time;
        e += r * r;
    }
    return e;
}

static int by_size(const void *x, const void *y) {
    const pm_fit_point *a = x, *b = y;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return (a->time > b->time) - (a->time < b->time);
}

/* ---------------------------------------------------------------------- */
/* Piecewise fit                                                           */

typedef struct dp {
    const pm_fit_point *p;
    int n;
    uint64_t split; /* ORDEX_FIT_NO_SPLIT when not in force */
    double *cost;   /* n * n: relative SSE of segment i..j, INFINITY if not allowed */
} dp;

static bool segment_allowed(const dp *d, int i, int j) {
    if (j - i + 1 < ORDEX_FIT_MIN_POINTS)
        return false;
    if (i > 0 && d->p[i].size == d->p[i - 1].size)
        return false; /* a boundary inside one size would price it twice */
    if (j < d->n - 1 && d->p[j + 1].size == d->p[j].size)
        return false;
    if (d->split != ORDEX_FIT_NO_SPLIT && d->p[i].size <= d->split && d->p[j].size > d->split)
        return false;
    return true;
}

/* The criterion that picks the number of segments (see the header). */
static double criterion(double sse, int n, int k) {
    double floor2 = ORDEX_FIT_NOISE_FLOOR * ORDEX_FIT_NOISE_FLOOR;
    return n * log(fmax(sse / n, floor2)) + ORDEX_FIT_SEGMENT_COST * k * log((double)n);
}

/* Fills one segment from points p[i..j] with a final line. */
static void finish_segment(const pm_fit_point *p, int i, int j, double a, double c,
                           pm_fit_segment *s) {
    s->first = p[i].size;
    s->last = p[j].size;
    s->npoints = j - i + 1;
    s->latency = a;
    s->bandwidth = 1.0 / c;
    double max = 0, sum = 0;
    for (int k = i; k <= j; k++) {
        double r = fabs(a + c * (double)p[k].size - p[k].time) / p[k].time;
        max = fmax(max, r);
        sum += r;
    }
    s->max_error = max;
    s->mean_error = sum / s->npoints;
}

bool pm_fit_piecewise(const pm_fit_point *pts, int n, int max_segments, uint64_t split, pm_fit *out,
                      char **problem) {
    memset(out, 0, sizeof *out);
    if (n <= 0) {
        *problem = g_strdup("no measurements to fit");
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!(pts[i].time > 0) || !isfinite(pts[i].time)) {
            *problem = g_strdup_printf("the time of %" G_GUINT64_FORMAT
                                       " bytes is %g s; times must be positive",
                                       pts[i].size, pts[i].time);
            return false;
        }
    if (max_segments < 1)
        max_segments = 1;
    if (max_segments > ORDEX_FIT_MAX_SEGMENTS)
        max_segments = ORDEX_FIT_MAX_SEGMENTS;

    pm_fit_point *p = g_memdup2(pts, sizeof *p * (gsize)n);
    qsort(p, (size_t)n, sizeof *p, by_size);
    out->npoints = n;

    /* The split is in force only when both sides can hold a segment. */
    if (split != ORDEX_FIT_NO_SPLIT) {
        int below = 0;
        while (below < n && p[below].size <= split)
            below++;
        if (below < ORDEX_FIT_MIN_POINTS || n - below < ORDEX_FIT_MIN_POINTS || max_segments < 2)
            split = ORDEX_FIT_NO_SPLIT;
    }

    /* Boundaries (index of each segment's first point) and flatness. */
    int starts[ORDEX_FIT_MAX_SEGMENTS + 1];
    int nseg = 1;
    starts[0] = 0;
    if (n >= ORDEX_FIT_MIN_POINTS) {
        dp d = {p, n, split, g_new(double, (gsize)n *(gsize)n)};
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double c = INFINITY;
                if (j >= i && segment_allowed(&d, i, j)) {
                    line l = fit_line(p + i, j - i + 1, 0);
                    c = rel_sse(p + i, j - i + 1, l.a, l.c);
                }
                d.cost[i * n + j] = c;
            }
        /* best[k][j]: least SSE covering points 0..j with k + 1 segments;
         * from[k][j]: where the last of them starts. */
        double *best = g_new(double, (gsize)max_segments *(gsize)n);
        int *from = g_new(int, (gsize)max_segments *(gsize)n);
        for (int j = 0; j < n; j++) {
            best[j] = d.cost[j];
            from[j] = 0;
        }
        for (int k = 1; k < max_segments; k++)
            for (int j = 0; j < n; j++) {
                double b = INFINITY;
                int at = -1;
                for (int i = 1; i <= j; i++) {
                    double v = best[(k - 1) * n + i - 1] + d.cost[i * n + j];
                    if (v < b) {
                        b = v;
                        at = i;
                    }
                }
                best[k * n + j] = b;
                from[k * n + j] = at;
            }
        int bestk = -1;
        double bestc = INFINITY;
        for (int k = 0; k < max_segments; k++) {
            double sse = best[k * n + n - 1];
            if (!isfinite(sse))
                continue;
            double crit = criterion(sse, n, k + 1);
            if (crit < bestc) {
                bestc = crit;
                bestk = k;
            }
        }
        /* bestk >= 0: one segment over everything is always allowed without
         * a split, two are with one. */
        nseg = bestk + 1;
        int j = n - 1;
        for (int k = bestk; k >= 0; k--) {
            starts[k] = from[k * n + j];
            j = starts[k] - 1;
        }
        g_free(best);
        g_free(from);
        g_free(d.cost);
    }
    starts[nseg] = n;

    /* Final lines: fallback segments take the largest real bandwidth. */
    line lines[ORDEX_FIT_MAX_SEGMENTS];
    double max_bw = 0;
    for (int k = 0; k < nseg; k++) {
        lines[k] = fit_line(p + starts[k], starts[k + 1] - starts[k], 0);
        if (!lines[k].flat)
            max_bw = fmax(max_bw, 1.0 / lines[k].c);
    }
    for (int k = 0; k < nseg; k++) {
        pm_fit_segment *s = &out->seg[k];
        line l = lines[k];
        if (l.flat) {
            /* Without any slope: bytes cost at most 0.1 % of the segment's
             * largest message. */
            double bw = max_bw > 0 ? max_bw
                                   : fmax(ORDEX_FIT_FALLBACK_BANDWIDTH,
                                          (double)p[starts[k + 1] - 1].size / (1e-3 * l.a));
            double W = 0, sum = 0;
            for (int i = starts[k]; i < starts[k + 1]; i++) {
                double w = 1.0 / (p[i].time * p[i].time);
                W += w;
                sum += w * (p[i].time - (double)p[i].size / bw);
            }
            l.c = 1.0 / bw;
            l.a = fmax(0, sum / W);
            s->fallback = true;
        }
        finish_segment(p, starts[k], starts[k + 1] - 1, l.a, l.c, s);
        if (k == 0)
            s->from = 0;
        else if (split != ORDEX_FIT_NO_SPLIT && out->seg[k - 1].last <= split && s->first > split)
            s->from = split + 1;
        else
            s->from = s->first;
    }
    out->nseg = nseg;
    g_free(p);
    return true;
}

double pm_fit_time(const pm_fit *f, uint64_t bytes) {
    int k = 0;
    while (k + 1 < f->nseg && f->seg[k + 1].from <= bytes)
        k++;
    return f->seg[k].latency + (double)bytes / f->seg[k].bandwidth;
}

void pm_fit_overhead(const pm_fit_point *pts, int n, double *per_message, double *per_byte) {
    *per_message = 0;
    *per_byte = 0;
    if (n <= 0)
        return;
    line l = fit_line(pts, n, 1e-9);
    *per_message = fmax(0, l.a);
    *per_byte = l.flat ? 0 : l.c;
}

/* ---------------------------------------------------------------------- */
/* Calibration                                                             */

/* The points to fit: each sample's median batch, or its fastest
 * (pm_bench_sample says which is used where). */
static pm_fit_point *points_of(const GArray *samples, bool median) {
    pm_fit_point *p = g_new0(pm_fit_point, samples->len + 1);
    for (guint i = 0; i < samples->len; i++) {
        const pm_bench_sample *s = &g_array_index(samples, pm_bench_sample, i);
        p[i].size = s->size;
        p[i].time = median ? s->median : s->min;
    }
    return p;
}

bool pm_calibrate_derive(const pm_bench *b, pm_calibration *c, char **problem) {
    memset(c, 0, sizeof *c);
    c->library = b->library;
    c->pingpong = b->pingpong;
    c->eager_found = b->eager_found;
    c->eager_limit = b->eager_limit;
    c->rendezvous_segment = -1;
    c->timeslice = ORDEX_CALIB_DEFAULT_TIMESLICE;

    pm_fit_point *p = points_of(b->pingpong, true);
    int n = (int)b->pingpong->len;
    uint64_t split = b->eager_found ? b->eager_limit : ORDEX_FIT_NO_SPLIT;
    bool ok = pm_fit_piecewise(p, n, ORDEX_FIT_MAX_SEGMENTS, split, &c->fit, problem) &&
              pm_fit_piecewise(p, n, 1, ORDEX_FIT_NO_SPLIT, &c->flat, problem);
    g_free(p);
    if (!ok)
        return false;

    for (int k = 0; b->eager_found && k < c->fit.nseg; k++)
        if (c->fit.seg[k].from > b->eager_limit) {
            c->rendezvous_segment = k;
            /* The jump between the two lines, when the fit split at the
             * limit. */
            if (k > 0 && c->fit.seg[k - 1].last <= b->eager_limit)
                c->handshake = fmax(0, pm_fit_segment_time(&c->fit.seg[k], b->eager_limit + 1) -
                                           pm_fit_segment_time(&c->fit.seg[k - 1], b->eager_limit));
            break;
        }

    p = points_of(b->send_overhead, false);
    pm_fit_overhead(p, (int)b->send_overhead->len, &c->send_overhead, &c->send_overhead_per_byte);
    g_free(p);
    p = points_of(b->recv_overhead, false);
    pm_fit_overhead(p, (int)b->recv_overhead->len, &c->recv_overhead, &c->recv_overhead_per_byte);
    g_free(p);

    for (guint i = 0; i < b->pingpong->len; i++) {
        const pm_bench_sample *s = &g_array_index(b->pingpong, pm_bench_sample, i);
        c->noisy += s->median > 1.25 * s->min;
    }
    c->progress_bytes = b->progress_bytes;
    c->progress_compute = b->progress_compute;
    c->progress_send = b->progress_send;
    c->async_progress = b->progress_bytes > 0 && b->progress_send < b->progress_compute / 2;
    for (guint i = 0; i < b->stream->len; i++) {
        const pm_bench_stream *s = &g_array_index(b->stream, pm_bench_stream, i);
        if (s->bandwidth > c->best_stream.bandwidth)
            c->best_stream = *s;
    }
    return true;
}

void pm_calibrate_timeslice(pm_calibration *c, const pm_bench_ring *ring, int cores) {
    c->timeslice = ORDEX_CALIB_DEFAULT_TIMESLICE;
    c->timeslice_measured = false;
    c->ring = ring ? *ring : (pm_bench_ring){0};
    if (!ring || cores < 1 || ring->ranks <= cores)
        return;
    double waits = (double)ring->ranks / cores - 1;
    double excess = ring->median - pm_fit_time(&c->fit, sizeof(int));
    c->timeslice = fmax(0, 2 * excess / waits);
    c->timeslice_measured = true;
}

double pm_calibration_file_latency(const pm_calibration *c, int k, bool *clamped) {
    double l = c->fit.seg[k].latency - c->send_overhead - c->recv_overhead;
    if (clamped)
        *clamped = l < 0;
    l = fmax(0, l);
    if (c->rendezvous_segment >= 0 && k >= c->rendezvous_segment)
        l /= ORDEX_CALIB_RENDEZVOUS_LATENCIES;
    return l;
}
