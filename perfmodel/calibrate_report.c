/*
 * calibrate_report.c - reading the report of the calibration benchmark
 * (tools/calibrate/mpibench.c): its lines, checked one by one, into a
 * pm_bench (the format is in calibrate_fit.h).
 */
#include "perfmodel/calibrate_fit.h"

#include <glib.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

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
