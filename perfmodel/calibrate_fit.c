/*
 * calibrate_fit.c - fitting and writing for `ordex calibrate` (see
 * calibrate_fit.h for the model, the fitting rules and the report format).
 */
#include "perfmodel/calibrate_fit.h"

#include <glib.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/platform.h"

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

bool pm_fit_piecewise(const pm_fit_point *pts, int n, int max_segments, uint64_t split,
                         pm_fit *out, char **problem) {
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
/* The report                                                              */

#define REPORT_HEADER "ordex-mpibench"
#define REPORT_VERSION 1

void pm_bench_clear(pm_bench *b) {
    g_free(b->library);
    if (b->pingpong)
        g_array_free(b->pingpong, TRUE);
    if (b->stream)
        g_array_free(b->stream, TRUE);
    if (b->send_overhead)
        g_array_free(b->send_overhead, TRUE);
    if (b->recv_overhead)
        g_array_free(b->recv_overhead, TRUE);
    memset(b, 0, sizeof *b);
}

static bool parse_u64(const char *s, uint64_t *out) {
    char *end;
    if (!g_ascii_isdigit(*s))
        return false;
    *out = g_ascii_strtoull(s, &end, 10);
    return *end == '\0';
}

static bool parse_long(const char *s, long *out) {
    uint64_t v;
    if (!parse_u64(s, &v) || v > (uint64_t)LONG_MAX)
        return false;
    *out = (long)v;
    return true;
}

static bool parse_double(const char *s, double *out) {
    char *end;
    *out = g_ascii_strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*out);
}

/* "BYTES REPS MIN MEDIAN" with positive times (overheads may be 0). */
static bool parse_sample(char **tok, int ntok, bool positive, pm_bench_sample *s) {
    return ntok == 5 && parse_u64(tok[1], &s->size) && parse_long(tok[2], &s->reps) &&
           s->reps >= 1 && parse_double(tok[3], &s->min) && parse_double(tok[4], &s->median) &&
           (positive ? s->min > 0 : s->min >= 0) && s->median >= s->min;
}

/* The lines of a report into *b (allocated first), up to its end line;
 * what each kind of report must contain is checked by the callers. */
static bool parse_lines(const char *text, pm_bench *b, bool *have_eager, char **problem) {
    memset(b, 0, sizeof *b);
    b->pingpong = g_array_new(FALSE, TRUE, sizeof(pm_bench_sample));
    b->stream = g_array_new(FALSE, TRUE, sizeof(pm_bench_stream));
    b->send_overhead = g_array_new(FALSE, TRUE, sizeof(pm_bench_sample));
    b->recv_overhead = g_array_new(FALSE, TRUE, sizeof(pm_bench_sample));
    char **lines = g_strsplit(text, "\n", -1);
    bool started = false, ended = false, ok = true;
    *have_eager = false;
    *problem = NULL;
    for (int i = 0; ok && !ended && lines[i]; i++) {
        char *line = g_strstrip(lines[i]);
        if (!started) {
            if (!g_str_has_prefix(line, REPORT_HEADER " "))
                continue;
            long v;
            if (!parse_long(line + strlen(REPORT_HEADER " "), &v) || v != REPORT_VERSION) {
                *problem = g_strdup_printf("line %d: \"%s\": not version %d of the report "
                                           "(ordex and tools/calibrate/mpibench.c disagree)",
                                           i + 1, line, REPORT_VERSION);
                ok = false;
            }
            started = true;
            continue;
        }
        if (*line == '\0')
            continue;
        char **raw = g_strsplit_set(line, " \t", -1);
        char *tok[8] = {NULL};
        int ntok = 0;
        for (int k = 0; raw[k]; k++)
            if (*raw[k]) {
                if (ntok < 8)
                    tok[ntok] = raw[k];
                ntok++;
            }
        const char *what = NULL;
        if (ntok == 0) {
            /* whitespace only: stripped above, cannot happen */
        } else if (strcmp(tok[0], "end") == 0 && ntok == 1) {
            ended = true;
        } else if (strcmp(tok[0], "library") == 0) {
            g_free(b->library);
            b->library = g_strdup(g_strstrip(line + strlen("library")));
        } else if (strcmp(tok[0], "eager_limit") == 0) {
            uint64_t first = 0;
            if (ntok == 3 && parse_u64(tok[1], &b->eager_limit) &&
                (strcmp(tok[2], "none") == 0 || parse_u64(tok[2], &first))) {
                b->eager_found = strcmp(tok[2], "none") != 0;
                *have_eager = true;
            } else {
                what = "eager_limit BYTES FIRST_WAITING|none";
            }
        } else if (strcmp(tok[0], "pingpong") == 0) {
            pm_bench_sample s;
            if (parse_sample(tok, ntok, true, &s))
                g_array_append_val(b->pingpong, s);
            else
                what = "pingpong BYTES REPS MIN_S MEDIAN_S with positive times";
        } else if (strcmp(tok[0], "send_overhead") == 0 || strcmp(tok[0], "recv_overhead") == 0) {
            pm_bench_sample s;
            if (parse_sample(tok, ntok, false, &s))
                g_array_append_val(tok[0][0] == 's' ? b->send_overhead : b->recv_overhead, s);
            else
                what = "send_overhead|recv_overhead BYTES ROUNDS MIN_S MEDIAN_S";
        } else if (strcmp(tok[0], "progress") == 0) {
            if (!(ntok == 4 && parse_u64(tok[1], &b->progress_bytes) && b->progress_bytes > 0 &&
                  parse_double(tok[2], &b->progress_compute) &&
                  parse_double(tok[3], &b->progress_send) && b->progress_compute > 0 &&
                  b->progress_send > 0)) {
                b->progress_bytes = 0;
                what = "progress BYTES COMPUTE_S SEND_S with positive values";
            }
        } else if (strcmp(tok[0], "ring") == 0) {
            long ranks;
            pm_bench_ring *r = &b->ring;
            if (ntok == 5 && parse_long(tok[1], &ranks) && ranks >= 2 && ranks <= 1000000 &&
                parse_long(tok[2], &r->rounds) && r->rounds >= 1 && parse_double(tok[3], &r->min) &&
                parse_double(tok[4], &r->median) && r->min > 0 && r->median >= r->min) {
                r->ranks = (int)ranks;
            } else {
                *r = (pm_bench_ring){0};
                what = "ring RANKS ROUNDS MIN_S MEDIAN_S with positive times";
            }
        } else if (strcmp(tok[0], "stream") == 0) {
            pm_bench_stream s;
            long window, rounds;
            if (ntok == 5 && parse_u64(tok[1], &s.size) && parse_long(tok[2], &window) &&
                window >= 1 && window <= 1000000 && parse_long(tok[3], &rounds) &&
                parse_double(tok[4], &s.bandwidth) && s.bandwidth > 0) {
                s.window = (int)window;
                g_array_append_val(b->stream, s);
            } else {
                what = "stream BYTES WINDOW ROUNDS BYTES_PER_S";
            }
        } else {
            *problem = g_strdup_printf("line %d: unknown line \"%s\"", i + 1, line);
            ok = false;
        }
        if (what) {
            *problem = g_strdup_printf("line %d: expected \"%s\", got \"%s\"", i + 1, what, line);
            ok = false;
        }
        g_strfreev(raw);
    }
    g_strfreev(lines);
    if (ok && !started) {
        *problem = g_strdup("no report (no line \"" REPORT_HEADER " 1\" in the output)");
        ok = false;
    } else if (ok && !ended) {
        *problem = g_strdup("the report stops before its \"end\" line (the benchmark did not "
                            "finish)");
        ok = false;
    }
    if (!ok)
        pm_bench_clear(b);
    return ok;
}

bool pm_bench_parse(const char *text, pm_bench *b, char **problem) {
    bool have_eager;
    if (!parse_lines(text, b, &have_eager, problem))
        return false;
    if (!have_eager)
        *problem = g_strdup("the report has no eager_limit line");
    else if (b->pingpong->len == 0)
        *problem = g_strdup("the report has no ping-pong measurements");
    else
        return true;
    pm_bench_clear(b);
    return false;
}

bool pm_bench_parse_ring(const char *text, pm_bench_ring *ring, char **problem) {
    pm_bench b;
    bool have_eager;
    *ring = (pm_bench_ring){0};
    if (!parse_lines(text, &b, &have_eager, problem))
        return false;
    *ring = b.ring;
    pm_bench_clear(&b);
    if (ring->ranks > 0)
        return true;
    *problem = g_strdup("the report has no ring line");
    return false;
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

/* The fitted line of segment k at `bytes` (whatever range it falls in). */
static double segment_time(const pm_fit_segment *s, uint64_t bytes) {
    return s->latency + (double)bytes / s->bandwidth;
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
                c->handshake = fmax(0, segment_time(&c->fit.seg[k], b->eager_limit + 1) -
                                           segment_time(&c->fit.seg[k - 1], b->eager_limit));
            break;
        }

    p = points_of(b->send_overhead, false);
    pm_fit_overhead(p, (int)b->send_overhead->len, &c->send_overhead,
                       &c->send_overhead_per_byte);
    g_free(p);
    p = points_of(b->recv_overhead, false);
    pm_fit_overhead(p, (int)b->recv_overhead->len, &c->recv_overhead,
                       &c->recv_overhead_per_byte);
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

/* ---------------------------------------------------------------------- */
/* Formatting                                                              */

char *pm_fmt_time(double s) {
    if (s == 0)
        return g_strdup("0ns");
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
    for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
        if (fabs(s) >= units[i].scale || i + 1 == G_N_ELEMENTS(units)) {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];
            g_ascii_formatd(buf, sizeof buf, "%.6g", s / units[i].scale);
            return g_strconcat(buf, units[i].unit, NULL);
        }
    return NULL; /* not reached */
}

char *pm_fmt_bandwidth(double bps) {
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1e12, "TBps"}, {1e9, "GBps"}, {1e6, "MBps"}, {1e3, "KBps"}, {1, "Bps"}};
    for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
        if (bps >= units[i].scale || i + 1 == G_N_ELEMENTS(units)) {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];
            g_ascii_formatd(buf, sizeof buf, "%.6g", bps / units[i].scale);
            return g_strconcat(buf, units[i].unit, NULL);
        }
    return NULL; /* not reached */
}

char *pm_fmt_size(uint64_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        return g_strdup_printf("%" G_GUINT64_FORMAT "MiB", bytes >> 20);
    if (bytes >= 1024 && bytes % 1024 == 0)
        return g_strdup_printf("%" G_GUINT64_FORMAT "KiB", bytes >> 10);
    return g_strdup_printf("%" G_GUINT64_FORMAT "B", bytes);
}

/* Noisy enough to say so: a quarter of the sizes or more. */
static bool noisy(const pm_calibration *c) {
    return c->noisy > 0 && 4 * c->noisy >= c->fit.npoints;
}

/* Appends fmt with the progress measurement's size, computation and send
 * time (in that order) and then `verdict`. */
static void append_progress(GString *s, const pm_calibration *c, const char *fmt,
                            const char *verdict) {
    char *z = pm_fmt_size(c->progress_bytes), *cp = pm_fmt_time(c->progress_compute),
         *sd = pm_fmt_time(c->progress_send);
    g_string_append_printf(s, fmt, z, cp, sd, verdict);
    g_free(z);
    g_free(cp);
    g_free(sd);
}

/* Appends "KEY = VALUE" and frees VALUE. */
static void put(GString *s, const char *key, char *value) {
    g_string_append_printf(s, "%s = %s\n", key, value);
    g_free(value);
}

static void put_time(GString *s, const char *key, double v) {
    put(s, key, pm_fmt_time(v));
}

char *pm_calibration_platform_text(const pm_calibration *c) {
    GString *s = g_string_new(NULL);
    const char *host = c->host ? c->host : "this machine";
    g_string_append_printf(s,
                           "# Platform of %s, measured by `ordex calibrate`%s%s.\n"
                           "# MPI library: %s\n",
                           host, c->date ? " on " : "", c->date ? c->date : "",
                           c->library ? c->library : "unknown");
    if (c->command)
        g_string_append_printf(s, "# Command: %s\n", c->command);
    g_string_append(
        s, "#\n"
           "# Two MPICH ranks on this one machine sent each other messages, so the\n"
           "# segments below describe intra-node messages (shared memory).  With no\n"
           "# [intranode] section, ordex prices messages between ranks of one node\n"
           "# with the network's segments (docs/platform.md), so a prediction with\n"
           "# this file models ranks on this machine.  For a cluster, keep these\n"
           "# numbers for its nodes and describe the network between them separately.\n"
           "#\n"
           "# Measured one-way time of a message (half a ping-pong round trip, median\n"
           "# of several batches), fitted per size range as latency + size / bandwidth:\n");
    for (int k = 0; k < c->fit.nseg; k++) {
        const pm_fit_segment *g = &c->fit.seg[k];
        char *a = pm_fmt_size(g->first), *b = pm_fmt_size(g->last);
        char *lat = pm_fmt_time(g->latency), *bw = pm_fmt_bandwidth(g->bandwidth);
        g_string_append_printf(s,
                               "#   %s to %s: %s + size / %s; error max %.1f%%, mean %.1f%% "
                               "(%d sizes)%s\n",
                               a, b, lat, bw, 100 * g->max_error, 100 * g->mean_error, g->npoints,
                               g->fallback ? "; no slope in the data, bandwidth assumed" : "");
        g_free(a);
        g_free(b);
        g_free(lat);
        g_free(bw);
    }
    if (noisy(c))
        g_string_append_printf(
            s,
            "# The machine was busy: at %d of %d sizes the median batch was over\n"
            "# 25%% slower than the fastest (the fit uses the median).\n",
            c->noisy, c->fit.npoints);
    if (c->best_stream.size > 0) {
        char *bw = pm_fmt_bandwidth(c->best_stream.bandwidth);
        char *sz = pm_fmt_size(c->best_stream.size);
        g_string_append_printf(s, "# Streaming (a window of %d nonblocking sends of %s): %s\n",
                               c->best_stream.window, sz, bw);
        g_free(bw);
        g_free(sz);
    }
    char *sb = pm_fmt_time(c->send_overhead_per_byte);
    char *rb = pm_fmt_time(c->recv_overhead_per_byte);
    g_string_append_printf(
        s,
        "#\n"
        "# ordex charges a message send_overhead + latency + size / bandwidth +\n"
        "# recv_overhead, and three latencies above the eager limit (one more round\n"
        "# trip).  So that a simulated ping-pong takes what the real one took, each\n"
        "# segment below has the fitted latency less both overheads (at least 0),\n"
        "# a third of that above the eager limit, and the fitted bandwidth.  The\n"
        "# per-byte overheads measured on eager messages are the copies through\n"
        "# shared memory, that is the transfer itself, already in the bandwidths:\n"
        "# they are written as 0 (measured: send %s, receive %s per byte).\n",
        sb, rb);
    g_free(sb);
    g_free(rb);

    g_string_append(s, "\n[cluster]\nnodes = 1\n");
    g_string_append_printf(s, "# The CPUs online on %s.\ncores_per_node = %d\n", host,
                           c->cores > 0 ? c->cores : 1);
    g_string_append(s, "# MPICH starts any number of ranks on one machine, so more ranks than\n"
                       "# cores are allowed.\n"
                       "oversubscribe = true\n"
                       "# MPICH's ranks poll while they wait in MPI: ordex counts a waiting rank\n"
                       "# as taking a core, and on a node with more ranks than cores a rank whose\n"
                       "# wait has ended returns only at its next time slice.\n"
                       "busy_wait = true\n");
    if (c->timeslice_measured) {
        char *med = pm_fmt_time(c->ring.median), *mn = pm_fmt_time(c->ring.min);
        g_string_append_printf(s,
                               "# Measured: a token went around %d MPICH ranks on the %d cores in\n"
                               "# %s a hop (median of %ld rounds; fastest %s).  ordex prices such\n"
                               "# a hop as the message plus (ranks / cores - 1) x timeslice / 2.\n",
                               c->ring.ranks, c->cores > 0 ? c->cores : 1, med, c->ring.rounds, mn);
        g_free(med);
        g_free(mn);
    } else {
        g_string_append_printf(s, "# Not measured (%s): ordex's default.\n",
                               c->ring_problem ? c->ring_problem : "no token ring was run");
    }
    put_time(s, "timeslice", c->timeslice);

    g_string_append(s, "\n[network]\n"
                       "# The best single line over all sizes, for the record: with segments\n"
                       "# present ordex ignores these two keys.\n");
    put_time(s, "latency", c->flat.seg[0].latency);
    put(s, "bandwidth", pm_fmt_bandwidth(c->flat.seg[0].bandwidth));
    if (c->eager_found)
        g_string_append(s, "# Measured: MPI_Send of more bytes waited for the matching receive.\n");
    else
        g_string_append(s, "# No MPI_Send up to the largest size measured waited for its receive;\n"
                           "# larger messages were not tried.\n");
    put(s, "eager_limit", g_strdup_printf("%" G_GUINT64_FORMAT "B", c->eager_limit));
    g_string_append(s, "# The jump in time at the eager limit, for the record: ordex adds it to\n"
                       "# rendezvous messages between nodes only.\n");
    put_time(s, "rendezvous_handshake", c->handshake);
    for (int k = 0; k < c->fit.nseg; k++) {
        bool clamped;
        double l = pm_calibration_file_latency(c, k, &clamped);
        if (clamped) {
            const pm_fit_segment *g = &c->fit.seg[k];
            double excess = c->send_overhead + c->recv_overhead - g->latency;
            char *a = pm_fmt_size(g->first), *b = pm_fmt_size(g->last);
            char *e = pm_fmt_time(excess);
            double base = segment_time(g, g->first);
            char *pct = base > 0 ? g_strdup_printf(", %.2g%% of the smallest", 100 * excess / base)
                                 : g_strdup("");
            g_string_append_printf(s,
                                   "# The overheads exceed the latency fitted from %s to %s:\n"
                                   "# ordex overprices these messages by %s%s.\n",
                                   a, b, e, pct);
            g_free(pct);
            g_free(a);
            g_free(b);
            g_free(e);
        }
        char *key = g_strdup_printf("segment.%d", k + 1);
        char *from = g_strdup_printf("%" G_GUINT64_FORMAT "B", c->fit.seg[k].from);
        char *lat = pm_fmt_time(l);
        char *bw = pm_fmt_bandwidth(c->fit.seg[k].bandwidth);
        put(s, key, g_strdup_printf("%s %s %s", from, lat, bw));
        g_free(key);
        g_free(from);
        g_free(lat);
        g_free(bw);
    }
    g_string_append(s, "# CPU time inside MPI_Send of an eager message, and inside MPI_Recv of a\n"
                       "# message that had already arrived.\n");
    put_time(s, "send_overhead", c->send_overhead);
    put_time(s, "send_overhead_per_byte", 0);
    put_time(s, "recv_overhead", c->recv_overhead);
    put_time(s, "recv_overhead_per_byte", 0);
    if (c->progress_bytes > 0) {
        append_progress(s, c,
                        "# Measured: an MPI_Send of %s to a rank that had posted MPI_Irecv\n"
                        "# and then computed %s returned after %s (median), so a\n"
                        "# rendezvous message moves %s.\n",
                        c->async_progress ? "while its receiver computes"
                                          : "only once its receiver is in an MPI call");
        g_string_append_printf(s, "async_progress = %s\n", c->async_progress ? "true" : "false");
    }

    if (c->pingpong && c->pingpong->len > 0) {
        g_string_append(s, "\n# Measured one-way times (bytes, fastest batch, median batch):\n");
        for (guint i = 0; i < c->pingpong->len; i++) {
            const pm_bench_sample *p = &g_array_index(c->pingpong, pm_bench_sample, i);
            char *a = pm_fmt_time(p->min), *b = pm_fmt_time(p->median);
            g_string_append_printf(s, "#   %" G_GUINT64_FORMAT " %s %s\n", p->size, a, b);
            g_free(a);
            g_free(b);
        }
    }
    return g_string_free(s, FALSE);
}

char *pm_calibration_table(const pm_calibration *c) {
    GString *s = g_string_new(NULL);
    g_string_append_printf(s,
                           "One-way time = latency + size / bandwidth, fitted to %d message sizes "
                           "(half a ping-pong round trip):\n",
                           c->fit.npoints);
    g_string_append_printf(s, "  %-10s %-10s %12s %14s %9s %9s %14s\n", "sizes", "", "latency",
                           "bandwidth", "max err", "mean err", "file latency");
    for (int k = 0; k < c->fit.nseg; k++) {
        const pm_fit_segment *g = &c->fit.seg[k];
        char *a = pm_fmt_size(g->first), *b = pm_fmt_size(g->last);
        char *to = g_strconcat("- ", b, NULL);
        char *lat = pm_fmt_time(g->latency), *bw = pm_fmt_bandwidth(g->bandwidth);
        char *fl = pm_fmt_time(pm_calibration_file_latency(c, k, NULL));
        g_string_append_printf(s, "  %-10s %-10s %12s %14s %8.1f%% %8.1f%% %14s%s\n", a, to, lat,
                               bw, 100 * g->max_error, 100 * g->mean_error, fl,
                               g->fallback ? "  (no slope: bandwidth assumed)" : "");
        g_free(a);
        g_free(b);
        g_free(to);
        g_free(lat);
        g_free(bw);
        g_free(fl);
    }
    char *lat = pm_fmt_time(c->flat.seg[0].latency);
    char *bw = pm_fmt_bandwidth(c->flat.seg[0].bandwidth);
    g_string_append_printf(s, "  %-21s %12s %14s %8.1f%% %8.1f%%\n", "one line, all sizes", lat, bw,
                           100 * c->flat.seg[0].max_error, 100 * c->flat.seg[0].mean_error);
    g_free(lat);
    g_free(bw);
    char *so = pm_fmt_time(c->send_overhead), *sb = pm_fmt_time(c->send_overhead_per_byte);
    char *ro = pm_fmt_time(c->recv_overhead), *rb = pm_fmt_time(c->recv_overhead_per_byte);
    g_string_append_printf(s,
                           "Overheads (CPU time inside the call): send %s + %s per byte, receive "
                           "%s + %s per byte\n",
                           so, sb, ro, rb);
    g_free(so);
    g_free(sb);
    g_free(ro);
    g_free(rb);
    if (c->eager_found) {
        char *h = pm_fmt_time(c->handshake);
        g_string_append_printf(s,
                               "Eager limit: %" G_GUINT64_FORMAT
                               " bytes (larger sends waited for the receiver); the time jumps "
                               "by %s there\n",
                               c->eager_limit, h);
        g_free(h);
    } else {
        g_string_append_printf(
            s, "Eager limit: no send up to %" G_GUINT64_FORMAT " bytes waited for its receiver\n",
            c->eager_limit);
    }
    if (c->best_stream.size > 0) {
        char *b = pm_fmt_bandwidth(c->best_stream.bandwidth);
        char *z = pm_fmt_size(c->best_stream.size);
        g_string_append_printf(s, "Streaming bandwidth: %s (windows of %d sends of %s)\n", b,
                               c->best_stream.window, z);
        g_free(b);
        g_free(z);
    }
    if (c->progress_bytes > 0)
        append_progress(s, c,
                        "Progress: %4$s (a send of %1$s to a rank computing %2$s after "
                        "MPI_Irecv took %3$s)\n",
                        c->async_progress ? "asynchronous" : "only inside MPI calls");
    if (c->timeslice_measured) {
        char *h = pm_fmt_time(c->ring.median), *q = pm_fmt_time(c->timeslice);
        g_string_append_printf(s,
                               "Time slice: %s (a token ring of %d ranks on %d cores took %s a "
                               "hop, median of %ld rounds)\n",
                               q, c->ring.ranks, c->cores, h, c->ring.rounds);
        g_free(h);
        g_free(q);
    } else {
        char *q = pm_fmt_time(c->timeslice);
        g_string_append_printf(s, "Time slice: not measured (%s); the file keeps the default %s\n",
                               c->ring_problem ? c->ring_problem : "no token ring was run", q);
        g_free(q);
    }
    g_string_append_printf(s,
                           "The file's segments have the fitted latency less the per-message "
                           "overheads, which ordex\ncharges on their own%s, and the per-byte "
                           "overheads are 0: on shared memory they are the\ntransfer itself.\n",
                           c->rendezvous_segment >= 0
                               ? " (a third of that above the eager limit, where ordex charges\n"
                                 "three latencies)"
                               : "");
    if (noisy(c))
        g_string_append_printf(s,
                               "Note: at %d of %d sizes the median batch was over 25%% slower than "
                               "the fastest: the machine was busy, and calibrating again when it "
                               "is idle gives steadier numbers\n",
                               c->noisy, c->fit.npoints);
    return g_string_free(s, FALSE);
}

/* Equal up to the rounding of the file's six significant digits. */
static bool close_to(double a, double b) {
    return fabs(a - b) <= 1e-5 * fmax(fabs(a), fabs(b)) + 1e-18;
}

bool pm_calibration_check(const pm_calibration *c, const char *text, char **problem) {
    GError *err = NULL;
    pm_platform *p = pm_platform_load_data("calibrated.ini", text, NULL, &err);
    if (!p) {
        *problem = g_strdup_printf("the platform written does not load: %s", err->message);
        g_error_free(err);
        return false;
    }
    bool ok = p->nsegments == c->fit.nseg && p->eager_limit == c->eager_limit &&
              close_to(p->rendezvous_handshake, c->handshake) &&
              close_to(p->send_overhead, c->send_overhead) &&
              close_to(p->recv_overhead, c->recv_overhead) && p->send_overhead_per_byte == 0 &&
              p->recv_overhead_per_byte == 0 && p->busy_wait &&
              p->async_progress == c->async_progress && close_to(p->timeslice, c->timeslice);
    for (int k = 0; ok && k < p->nsegments; k++)
        ok = p->segments[k].from == c->fit.seg[k].from &&
             close_to(p->segments[k].latency, pm_calibration_file_latency(c, k, NULL)) &&
             close_to(p->segments[k].bandwidth, c->fit.seg[k].bandwidth);
    if (!ok)
        *problem = g_strdup("the platform written loads with other values than were fitted");
    pm_platform_free(p);
    return ok;
}
