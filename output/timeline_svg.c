/*
 * timeline_svg.c - the timeline as an SVG Gantt chart: one row per rank,
 * time to the right, one colour per kind of span.
 *
 * A chart of a large run must stay a file a browser opens: spans narrower
 * than half a pixel are merged (see timeline.h for the rule), so the number
 * of rectangles per rank is bounded by about the width of the plot in
 * pixels whatever the number of spans, and tooltips and message lines are
 * left out when there are too many of them.
 */
#include <math.h>
#include <string.h>

#include "output/timeline.h"
#include "output/timeline_internal.h"

#define WIDTH 1200.0
#define RIGHT_MARGIN 32.0
#define CHAR_PX 6.5 /* average width of a character of the 11 px font */
#define MERGE_PX 0.5
#define MIN_RECT_PX 0.5
#define MAX_TOOLTIP_SPANS 20000
#define MAX_MESSAGE_LINES 2000
#define MAX_LABEL_CHARS 40
#define TICKS 11

/* Fill colours, by kind (colour-blind-safe Tableau-like palette). */
static const char *const kind_colour[ORDEX_TL_KIND_COUNT] = {
    [ORDEX_TL_COMPUTE] = "#4c78a8",  [ORDEX_TL_SEND] = "#f58518", [ORDEX_TL_RECV] = "#54a24b",
    [ORDEX_TL_SENDRECV] = "#72b7b2", [ORDEX_TL_WAIT] = "#e45756", [ORDEX_TL_COLLECTIVE] = "#b279a2",
    [ORDEX_TL_OTHER] = "#9d9d9d",
};

typedef struct gantt {
    const out_timeline *t;
    out_tl_sink *out;
    GString *b;
    double x0, plot_w; /* the plot's left edge and width, px */
    double t_hi;       /* the time at the right edge, s */
    double top;        /* y of rank 0's row */
    double row_h, bar_h;
    bool tooltips;
    /* Without tooltips: the current rank's rectangles, one path per kind. */
    GString *paths[ORDEX_TL_KIND_COUNT];
} gantt;

/* Consecutive spans of one rank drawn as one rectangle. */
typedef struct run {
    int n; /* 0: no run */
    double x0, x1, t0, t1;
    double time[ORDEX_TL_KIND_COUNT];
    int count[ORDEX_TL_KIND_COUNT];
    const out_tl_span *first;
    bool mixed;
} run;

static double gx(const gantt *g, double t) {
    return g->x0 + t / g->t_hi * g->plot_w;
}

static double row_y(const gantt *g, int rank) {
    return g->top + rank * g->row_h;
}

static void attr(GString *b, const char *name, double v) {
    g_string_append_printf(b, " %s=\"", name);
    out_tl_append_fixed(b, v, 2);
    g_string_append_c(b, '"');
}

static void append_time(GString *b, double seconds) {
    char *s = out_tl_format_quantity(seconds, "s");
    g_string_append(b, s);
    g_free(s);
}

static void append_label(GString *b, const out_timeline *t, int rank) {
    const char *label = t->rank_labels[rank];
    if (!label) {
        g_string_append_printf(b, "rank %d", rank);
        return;
    }
    if (out_tl_utf8_chars(label) <= MAX_LABEL_CHARS || !g_utf8_validate(label, -1, NULL)) {
        out_tl_append_xml(b, label);
        return;
    }
    char *cut = g_utf8_substring(label, 0, MAX_LABEL_CHARS - 1);
    out_tl_append_xml(b, cut);
    g_string_append(b, "\xe2\x80\xa6"); /* … */
    g_free(cut);
}

static int compare_spans(gconstpointer a, gconstpointer b) {
    const out_tl_span *x = *(const out_tl_span *const *)a;
    const out_tl_span *y = *(const out_tl_span *const *)b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return 0;
}

static out_tl_kind dominant_kind(const run *r) {
    out_tl_kind best = r->first->kind;
    for (int k = 0; k < ORDEX_TL_KIND_COUNT; k++)
        if (r->time[k] > r->time[best] ||
            (r->time[k] == r->time[best] && r->count[k] > r->count[best]))
            best = (out_tl_kind)k;
    return best;
}

static void draw_run(gantt *g, run *r) {
    if (r->n == 0)
        return;
    GString *b = g->b;
    out_tl_kind kind = r->n == 1 ? r->first->kind : dominant_kind(r);
    double w = r->x1 - r->x0;
    if (w < MIN_RECT_PX)
        w = MIN_RECT_PX;
    double y = row_y(g, r->first->rank) + (g->row_h - g->bar_h) / 2;
    if (!g->tooltips) {
        /* A closed subpath costs a third of a <rect> element. */
        GString *d = g->paths[kind];
        g_string_append_c(d, 'M');
        out_tl_append_fixed(d, r->x0, 2);
        g_string_append_c(d, ' ');
        out_tl_append_fixed(d, y, 2);
        g_string_append_c(d, 'h');
        out_tl_append_fixed(d, w, 2);
        g_string_append_c(d, 'v');
        out_tl_append_fixed(d, g->bar_h, 2);
        g_string_append(d, "h-");
        out_tl_append_fixed(d, w, 2);
        g_string_append_c(d, 'z');
    } else {
        g_string_append_printf(b, "<rect class=\"k%d\"", (int)kind);
        attr(b, "x", r->x0);
        attr(b, "y", y);
        attr(b, "width", w);
        attr(b, "height", g->bar_h);
        g_string_append_printf(b, "><title>rank %d: ", r->first->rank);
        if (r->n == 1) {
            out_tl_append_xml(b, r->first->name);
        } else {
            g_string_append_printf(b, "%d spans, mostly %s", r->n, out_tl_kind_name(kind));
        }
        g_string_append(b, ", ");
        append_time(b, r->t0);
        g_string_append(b, " to ");
        append_time(b, r->t1);
        g_string_append(b, " (");
        append_time(b, r->t1 - r->t0);
        g_string_append(b, ")</title></rect>\n");
    }
    memset(r, 0, sizeof *r);
    out_tl_sink_maybe_flush(g->out);
}

static void run_add(gantt *g, run *r, const out_tl_span *s) {
    double a = gx(g, s->start), e = gx(g, s->end);
    if (r->n == 0) {
        r->first = s;
        r->x0 = a;
        r->x1 = e;
        r->t0 = s->start;
        r->t1 = s->end;
    } else {
        if (s->kind != r->first->kind)
            r->mixed = true;
        if (e > r->x1) {
            r->x1 = e;
            r->t1 = s->end;
        }
    }
    r->n++;
    r->time[s->kind] += s->end - s->start;
    r->count[s->kind]++;
}

static void flush_paths(gantt *g) {
    if (g->tooltips)
        return;
    for (int k = 0; k < ORDEX_TL_KIND_COUNT; k++) {
        if (g->paths[k]->len == 0)
            continue;
        g_string_append_printf(g->b, "<path class=\"k%d\" d=\"%s\"/>\n", k, g->paths[k]->str);
        g_string_truncate(g->paths[k], 0);
    }
    out_tl_sink_maybe_flush(g->out);
}

/* spans: sorted by rank, then start. */
static void draw_spans(gantt *g, GPtrArray *spans) {
    run r = {0};
    int rank = -1;
    for (guint i = 0; i < spans->len; i++) {
        const out_tl_span *s = g_ptr_array_index(spans, i);
        if (s->rank != rank) {
            draw_run(g, &r);
            flush_paths(g);
            rank = s->rank;
        }
        double a = gx(g, s->start), e = gx(g, s->end);
        if (e - a >= MERGE_PX) {
            draw_run(g, &r);
            run_add(g, &r, s);
            draw_run(g, &r);
            continue;
        }
        if (r.n > 0) {
            bool near = a - r.x1 < MERGE_PX;
            bool same_kind = !r.mixed && r.first->kind == s->kind;
            bool under_a_pixel = r.x1 - r.x0 < 1.0;
            if (!near || !(same_kind || under_a_pixel))
                draw_run(g, &r);
        }
        run_add(g, &r, s);
    }
    draw_run(g, &r);
    flush_paths(g);
}

static void draw_messages(gantt *g) {
    GString *b = g->b;
    double mid = g->row_h / 2;
    for (guint i = 0; i < g->t->messages->len; i++) {
        const out_tl_message *m = &g_array_index(g->t->messages, out_tl_message, i);
        g_string_append(b, "<line class=\"msg\"");
        attr(b, "x1", gx(g, m->sent));
        attr(b, "y1", row_y(g, m->src) + mid);
        attr(b, "x2", gx(g, m->arrived));
        attr(b, "y2", row_y(g, m->dst) + mid);
        if (!g->tooltips) {
            g_string_append(b, "/>\n");
        } else {
            g_string_append_printf(
                b, "><title>rank %d \xe2\x86\x92 rank %d, %" G_GUINT64_FORMAT " bytes, sent ",
                m->src, m->dst, m->bytes);
            append_time(b, m->sent);
            g_string_append(b, ", arrived ");
            append_time(b, m->arrived);
            g_string_append(b, "</title></line>\n");
        }
        out_tl_sink_maybe_flush(g->out);
    }
}

/* Tick labels of the time axis at baseline y; with grid lines from y_grid0
 * to y_grid1 when grid is set. */
static void draw_axis(gantt *g, const out_tl_axis *ax, const char *unit, double y, bool grid,
                      double y_grid0, double y_grid1) {
    GString *b = g->b;
    for (int i = 0; i < ax->nticks; i++) {
        double v = ax->lo + i * ax->step;
        double x = g->x0 + (v - ax->lo) / (ax->hi - ax->lo) * g->plot_w;
        if (grid) {
            g_string_append(b, "<line class=\"grid\"");
            attr(b, "x1", x);
            attr(b, "y1", y_grid0);
            attr(b, "x2", x);
            attr(b, "y2", y_grid1);
            g_string_append(b, "/>\n");
        }
        g_string_append(b, "<text text-anchor=\"middle\"");
        attr(b, "x", x);
        attr(b, "y", y);
        g_string_append_c(b, '>');
        out_tl_append_fixed(b, v, ax->decimals);
        if (v != 0)
            g_string_append_printf(b, " %s", unit);
        g_string_append(b, "</text>\n");
    }
}

static void draw_legend(gantt *g, double y) {
    bool present[ORDEX_TL_KIND_COUNT] = {false};
    for (guint i = 0; i < g->t->spans->len; i++)
        present[g_array_index(g->t->spans, out_tl_span, i).kind] = true;
    GString *b = g->b;
    double x = g->x0;
    g_string_append(b, "<g id=\"legend\">\n");
    for (int k = 0; k < ORDEX_TL_KIND_COUNT; k++) {
        if (!present[k])
            continue;
        g_string_append_printf(b, "<rect class=\"k%d\"", k);
        attr(b, "x", x);
        attr(b, "y", y - 10);
        g_string_append(b, " width=\"12\" height=\"12\"/>\n<text");
        attr(b, "x", x + 17);
        attr(b, "y", y);
        g_string_append_printf(b, ">%s</text>\n", out_tl_kind_name(k));
        x += 17 + CHAR_PX * (double)strlen(out_tl_kind_name(k)) + 18;
    }
    g_string_append(b, "</g>\n");
}

bool out_tl_write_svg(const out_timeline *t, const char *path, const char *title, GError **error) {
    g_return_val_if_fail(t != NULL && path != NULL, false);
    out_tl_sink out;
    if (!out_tl_sink_open(&out, path, error))
        return false;
    gantt g = {.t = t, .out = &out, .b = out.buf};

    /* The plot starts after the longest label ("rank 1023" by default). */
    long label_chars = 6;
    for (int r = 0; r < t->nranks; r++) {
        char plain[32];
        long n = t->rank_labels[r] ? out_tl_utf8_chars(t->rank_labels[r])
                                   : g_snprintf(plain, sizeof plain, "rank %d", r);
        if (n > label_chars)
            label_chars = n > MAX_LABEL_CHARS ? MAX_LABEL_CHARS : n;
    }
    g.x0 = 16 + CHAR_PX * (double)label_chars;
    g.plot_w = WIDTH - g.x0 - RIGHT_MARGIN;

    /* Rows shrink with the number of ranks so 1024 ranks stay ~3000 px. */
    int n = t->nranks;
    g.row_h = n <= 32 ? 20 : n <= 128 ? 10 : n <= 256 ? 6 : 3;
    g.bar_h = n <= 32 ? 14 : n <= 128 ? 8 : n <= 256 ? 5 : 3;
    /* Every k-th rank is labelled, k = 1, 2, 5, 10, ... so labels (11 px)
     * do not collide; the smallest rows (3 px) need 5. */
    static const int every[] = {1, 2, 5, 10};
    int label_every = every[0];
    for (size_t k = 1; k < G_N_ELEMENTS(every) && label_every * g.row_h < 11; k++)
        label_every = every[k];

    double unit_s;
    double span_s = t->makespan > 0 ? t->makespan : 1e-9;
    const char *unit = out_tl_time_unit(span_s, &unit_s);
    out_tl_axis ax = out_tl_nice_axis(0, span_s / unit_s, TICKS);
    g.t_hi = ax.hi * unit_s;
    g.tooltips = t->spans->len <= MAX_TOOLTIP_SPANS;
    bool lines = t->messages->len <= MAX_MESSAGE_LINES;

    bool has_title = title && *title;
    double y_summary = has_title ? 46 : 22;
    double y_legend = y_summary + 24;
    double y_axis = y_legend + 26;
    g.top = y_axis + 10;
    double rows_end = g.top + n * g.row_h;
    bool bottom_axis = n * g.row_h > 400;
    double height = rows_end + (bottom_axis ? 36 : 16);

    GString *b = g.b;
    g_string_append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    attr(b, "width", WIDTH);
    attr(b, "height", height);
    g_string_append(b, " viewBox=\"0 0 ");
    out_tl_append_fixed(b, WIDTH, 2);
    g_string_append_c(b, ' ');
    out_tl_append_fixed(b, height, 2);
    g_string_append(b, "\">\n<style>\n"
                       "text{font-family:sans-serif;font-size:11px;fill:#222}\n"
                       ".title{font-size:16px;font-weight:bold}\n"
                       ".grid{stroke:#e0e0e0;stroke-width:1}\n"
                       ".msg{stroke:#222;stroke-opacity:0.55;stroke-width:0.8;"
                       "marker-end:url(#arrow)}\n");
    for (int k = 0; k < ORDEX_TL_KIND_COUNT; k++)
        g_string_append_printf(b, ".k%d{fill:%s}\n", k, kind_colour[k]);
    g_string_append(b, "</style>\n<defs><marker id=\"arrow\" viewBox=\"0 0 6 6\" refX=\"6\" "
                       "refY=\"3\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
                       "<path d=\"M0,0L6,3L0,6z\" fill=\"#222\"/></marker></defs>\n"
                       "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
    if (has_title) {
        g_string_append(b, "<text class=\"title\" x=\"16\" y=\"26\">");
        out_tl_append_xml(b, title);
        g_string_append(b, "</text>\n");
    }
    g_string_append(b, "<text x=\"16\"");
    attr(b, "y", y_summary);
    g_string_append_printf(b, ">%d rank%s, makespan ", n, n == 1 ? "" : "s");
    append_time(b, t->makespan);
    g_string_append_printf(b, ", %u message%s", t->messages->len, t->messages->len == 1 ? "" : "s");
    if (!lines)
        g_string_append_printf(b, " (not drawn: more than %d)", MAX_MESSAGE_LINES);
    g_string_append(b, "</text>\n");
    draw_legend(&g, y_legend);

    g_string_append(b, "<g id=\"axis\">\n");
    draw_axis(&g, &ax, unit, y_axis, true, y_axis + 4, rows_end);
    if (bottom_axis)
        draw_axis(&g, &ax, unit, rows_end + 16, false, 0, 0);
    g_string_append(b, "</g>\n<g id=\"labels\">\n");
    for (int r = 0; r < n; r += label_every) {
        g_string_append(b, "<text text-anchor=\"end\"");
        attr(b, "x", g.x0 - 6);
        attr(b, "y", row_y(&g, r) + g.row_h / 2 + 4);
        g_string_append_c(b, '>');
        append_label(b, t, r);
        g_string_append(b, "</text>\n");
        out_tl_sink_maybe_flush(&out);
    }
    g_string_append(b, "</g>\n<g id=\"spans\">\n");

    GPtrArray *sorted = g_ptr_array_sized_new(t->spans->len);
    for (guint i = 0; i < t->spans->len; i++)
        g_ptr_array_add(sorted, &g_array_index(t->spans, out_tl_span, i));
    g_ptr_array_sort(sorted, compare_spans);
    for (int k = 0; k < ORDEX_TL_KIND_COUNT; k++)
        g.paths[k] = g_string_new(NULL);
    draw_spans(&g, sorted);
    for (int k = 0; k < ORDEX_TL_KIND_COUNT; k++)
        g_string_free(g.paths[k], TRUE);
    g_ptr_array_free(sorted, TRUE);

    g_string_append(b, "</g>\n<g id=\"messages\">\n");
    if (lines)
        draw_messages(&g);
    g_string_append(b, "</g>\n</svg>\n");
    return out_tl_sink_close(&out, error);
}
