/*
 * calibrate_write.c - what `ordex calibrate` writes from a calibration: the
 * platform file's text with its comments, the summary table for the
 * terminal, the check that the file loads back with the fitted values, and
 * the unit formatting they share.
 */
#include "perfmodel/calibrate_fit.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>

#include "perfmodel/calibrate_internal.h"
#include "perfmodel/platform.h"

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
                               "(%d size%s)%s\n",
                               a, b, lat, bw, 100 * g->max_error, 100 * g->mean_error, g->npoints,
                               g->npoints == 1 ? "" : "s",
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
        g_string_append_printf(
            s,
            "# Measured: a token went around %d MPICH ranks on the %d core%s in\n"
            "# %s a hop (median of %ld round%s; fastest %s).  ordex prices such\n"
            "# a hop as the message plus (ranks / cores - 1) x timeslice / 2.\n",
            c->ring.ranks, c->cores > 0 ? c->cores : 1, c->cores > 1 ? "s" : "", med,
            c->ring.rounds, c->ring.rounds == 1 ? "" : "s", mn);
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
            double base = pm_fit_segment_time(g, g->first);
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
                               "Time slice: %s (a token ring of %d ranks on %d core%s took %s a "
                               "hop, median of %ld round%s)\n",
                               q, c->ring.ranks, c->cores, c->cores == 1 ? "" : "s", h,
                               c->ring.rounds, c->ring.rounds == 1 ? "" : "s");
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
