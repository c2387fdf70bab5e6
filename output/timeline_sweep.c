/*
 * timeline_sweep.c - the SVG plot of a sensitivity sweep: predicted time
 * against the value of each swept platform parameter.
 *
 * Series of one unit share a panel so that, say, two latencies can be
 * compared on one axis; all panels share the y axis so the steepness of the
 * curves compares across parameters too.
 */
#include <math.h>
#include <string.h>

#include "output/timeline.h"
#include "output/timeline_internal.h"

#define PANEL_W 560.0
#define PANEL_H 320.0
#define PLOT_LEFT 84.0 /* from the panel's left edge, room for y labels */
#define PLOT_RIGHT 24.0
#define PLOT_TOP 44.0
#define PLOT_BOTTOM 44.0
#define CHAR_PX 6.5
#define MAX_TITLE_CHARS 70

static const char *const palette[] = {"#4c78a8", "#f58518", "#54a24b", "#e45756", "#b279a2",
                                      "#72b7b2", "#eeca3b", "#ff9da6", "#9d755d", "#79706e"};
#define NCOLOURS ((int)G_N_ELEMENTS(palette))

typedef struct point {
    double x, y;
    int index; /* in the series */
} point;

/* Where a panel's plot area is and how its x axis maps values. */
typedef struct panel {
    double left, right, top, bottom; /* px */
    bool log;
    double lo, hi; /* x range; decimal exponents when log */
    const out_tl_axis *yax;
    double y_unit; /* seconds per y axis unit */
} panel;

static const char *unit_of(const out_sweep_series *s) {
    return s->unit ? s->unit : "";
}

static void attr(GString *b, const char *name, double v) {
    g_string_append_printf(b, " %s=\"", name);
    out_tl_append_fixed(b, v, 2);
    g_string_append_c(b, '"');
}

static double px_x(const panel *p, double x) {
    double v = p->log ? log10(x) : x;
    return p->left + (v - p->lo) / (p->hi - p->lo) * (p->right - p->left);
}

static double px_y(const panel *p, double seconds) {
    double v = seconds / p->y_unit;
    return p->bottom - (v - p->yax->lo) / (p->yax->hi - p->yax->lo) * (p->bottom - p->top);
}

/* The number of points; a series without its arrays has none. */
static int npoints(const out_sweep_series *s) {
    return s->n > 0 && s->x && s->y ? s->n : 0;
}

static bool usable(const out_sweep_series *s, int i, bool need_positive_x) {
    return isfinite(s->x[i]) && isfinite(s->y[i]) && (!need_positive_x || s->x[i] > 0);
}

static int compare_points(gconstpointer a, gconstpointer b) {
    const point *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->index - q->index;
}

static char *x_label(const out_sweep_series *s, int i) {
    if (s->x_labels && s->x_labels[i])
        return g_strdup(s->x_labels[i]);
    return out_tl_format_quantity(s->x[i], s->unit);
}

static void vertical_tick(GString *b, const panel *p, double x, const char *label,
                          double *last_right) {
    g_string_append(b, "<line class=\"grid\"");
    attr(b, "x1", x);
    attr(b, "y1", p->top);
    attr(b, "x2", x);
    attr(b, "y2", p->bottom + 4);
    g_string_append(b, "/>\n");
    double half = CHAR_PX * (double)out_tl_utf8_chars(label) / 2;
    if (x - half < *last_right + 6)
        return; /* would overlap the previous label */
    *last_right = x + half;
    g_string_append(b, "<text text-anchor=\"middle\"");
    attr(b, "x", x);
    attr(b, "y", p->bottom + 18);
    g_string_append_c(b, '>');
    out_tl_append_xml(b, label);
    g_string_append(b, "</text>\n");
}

/* Numeric x ticks, for a panel shared by several series. */
static void numeric_x_ticks(GString *b, const panel *p, const char *unit) {
    double last_right = -1e9;
    if (p->log) {
        int lo = (int)p->lo, hi = (int)p->hi;
        /* Few decades: also 2 and 5 times each power, so there are enough
         * labels to read values off. */
        static const double few[] = {1, 2, 5}, many[] = {1};
        const double *m = hi - lo <= 2 ? few : many;
        int nm = hi - lo <= 2 ? 3 : 1;
        for (int e = lo; e <= hi; e++)
            for (int k = 0; k < nm; k++) {
                double v = m[k] * pow(10, e);
                if (log10(v) > p->hi + 1e-9)
                    break;
                char *label = out_tl_format_quantity(v, unit);
                vertical_tick(b, p, px_x(p, v), label, &last_right);
                g_free(label);
            }
        return;
    }
    out_tl_axis ax = out_tl_nice_axis(p->lo, p->hi, 7);
    for (int i = 0; i < ax.nticks; i++) {
        double v = ax.lo + i * ax.step;
        if (fabs(v) < ax.step * 1e-9)
            v = 0;
        char *label = out_tl_format_quantity(v, unit);
        vertical_tick(b, p, px_x(p, v), label, &last_right);
        g_free(label);
    }
}

static void y_ticks(GString *b, const panel *p, const char *unit) {
    const out_tl_axis *ax = p->yax;
    for (int i = 0; i < ax->nticks; i++) {
        double v = ax->lo + i * ax->step;
        double y = px_y(p, v * p->y_unit);
        g_string_append(b, "<line class=\"grid\"");
        attr(b, "x1", p->left - 4);
        attr(b, "y1", y);
        attr(b, "x2", p->right);
        attr(b, "y2", y);
        g_string_append(b, "/>\n<text text-anchor=\"end\"");
        attr(b, "x", p->left - 7);
        attr(b, "y", y + 4);
        g_string_append_c(b, '>');
        out_tl_append_fixed(b, v, ax->decimals);
        if (v != 0)
            g_string_append_printf(b, " %s", unit);
        g_string_append(b, "</text>\n");
    }
}

static void draw_series(GString *b, const panel *p, const out_sweep_series *s, int colour) {
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(point));
    for (int i = 0; i < npoints(s); i++)
        if (usable(s, i, p->log)) {
            point q = {.x = s->x[i], .y = s->y[i], .index = i};
            g_array_append_val(pts, q);
        }
    g_array_sort(pts, compare_points);
    const char *c = palette[colour % NCOLOURS];
    if (pts->len > 1) {
        g_string_append_printf(b,
                               "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                               "points=\"",
                               c);
        for (guint i = 0; i < pts->len; i++) {
            const point *q = &g_array_index(pts, point, i);
            if (i)
                g_string_append_c(b, ' ');
            out_tl_append_fixed(b, px_x(p, q->x), 2);
            g_string_append_c(b, ',');
            out_tl_append_fixed(b, px_y(p, q->y), 2);
        }
        g_string_append(b, "\"/>\n");
    }
    for (guint i = 0; i < pts->len; i++) {
        const point *q = &g_array_index(pts, point, i);
        g_string_append_printf(b, "<circle fill=\"%s\" r=\"3.5\"", c);
        attr(b, "cx", px_x(p, q->x));
        attr(b, "cy", px_y(p, q->y));
        g_string_append(b, "><title>");
        out_tl_append_xml(b, s->param);
        g_string_append(b, " = ");
        char *label = x_label(s, q->index);
        out_tl_append_xml(b, label);
        g_free(label);
        g_string_append(b, ": ");
        char *time = out_tl_format_quantity(q->y, "s");
        g_string_append(b, time);
        g_free(time);
        g_string_append(b, "</title></circle>\n");
    }
    g_array_free(pts, TRUE);
}

/* The panel title: the parameters and their unit. */
static void panel_title(GString *b, const out_sweep_series *series, const int *members,
                        int nmembers, double x, double y) {
    GString *t = g_string_new(NULL);
    for (int i = 0; i < nmembers; i++)
        g_string_append_printf(t, "%s%s", i ? ", " : "",
                               series[members[i]].param ? series[members[i]].param : "?");
    if (out_tl_utf8_chars(t->str) > MAX_TITLE_CHARS) {
        g_string_printf(t, "%d parameters", nmembers);
    }
    const char *unit = unit_of(&series[members[0]]);
    if (*unit)
        g_string_append_printf(t, " (%s)", unit);
    g_string_append(b, "<text class=\"title\"");
    attr(b, "x", x);
    attr(b, "y", y);
    g_string_append_c(b, '>');
    out_tl_append_xml(b, t->str);
    g_string_append(b, "</text>\n");
    g_string_free(t, TRUE);
}

static void legend(GString *b, const out_sweep_series *series, const int *members, int nmembers,
                   const panel *p) {
    double y = p->top + 14;
    for (int i = 0; i < nmembers; i++, y += 15) {
        const char *c = palette[members[i] % NCOLOURS];
        g_string_append_printf(b, "<line stroke=\"%s\" stroke-width=\"2\"", c);
        attr(b, "x1", p->left + 8);
        attr(b, "y1", y - 4);
        attr(b, "x2", p->left + 26);
        attr(b, "y2", y - 4);
        g_string_append(b, "/>\n<text");
        attr(b, "x", p->left + 31);
        attr(b, "y", y);
        g_string_append_c(b, '>');
        out_tl_append_xml(b, series[members[i]].param);
        g_string_append(b, "</text>\n");
    }
}

static void draw_panel(GString *b, const out_sweep_series *series, const int *members, int nmembers,
                       double px, double py, const out_tl_axis *yax, double y_unit,
                       const char *y_unit_name) {
    panel p = {
        .left = px + PLOT_LEFT,
        .right = px + PANEL_W - PLOT_RIGHT,
        .top = py + PLOT_TOP,
        .bottom = py + PANEL_H - PLOT_BOTTOM,
        .yax = yax,
        .y_unit = y_unit,
    };
    double xmin = INFINITY, xmax = -INFINITY;
    bool positive = true;
    for (int m = 0; m < nmembers; m++) {
        const out_sweep_series *s = &series[members[m]];
        for (int i = 0; i < npoints(s); i++) {
            if (!usable(s, i, false))
                continue;
            xmin = fmin(xmin, s->x[i]);
            xmax = fmax(xmax, s->x[i]);
            positive = positive && s->x[i] > 0;
        }
    }
    if (xmin > xmax) { /* no point at all */
        xmin = 0;
        xmax = 1;
    }
    p.log = positive && xmax >= 100 * xmin;
    if (p.log) {
        p.lo = floor(log10(xmin) + 1e-9);
        p.hi = ceil(log10(xmax) - 1e-9);
    } else {
        out_tl_axis ax = out_tl_nice_axis(xmin, xmax, 7);
        p.lo = ax.lo;
        p.hi = ax.hi;
    }

    g_string_append(b, "<g class=\"panel\">\n");
    panel_title(b, series, members, nmembers, p.left, py + 24);
    y_ticks(b, &p, y_unit_name);
    if (nmembers == 1) {
        /* The ticks are the values the user asked for, as written. */
        const out_sweep_series *s = &series[members[0]];
        GArray *pts = g_array_new(FALSE, FALSE, sizeof(point));
        for (int i = 0; i < npoints(s); i++)
            if (usable(s, i, p.log)) {
                point q = {.x = s->x[i], .y = s->y[i], .index = i};
                g_array_append_val(pts, q);
            }
        g_array_sort(pts, compare_points);
        double last_right = -1e9;
        for (guint i = 0; i < pts->len; i++) {
            const point *q = &g_array_index(pts, point, i);
            char *label = x_label(s, q->index);
            vertical_tick(b, &p, px_x(&p, q->x), label, &last_right);
            g_free(label);
        }
        g_array_free(pts, TRUE);
    } else {
        numeric_x_ticks(b, &p, unit_of(&series[members[0]]));
    }
    g_string_append(b, "<rect class=\"frame\"");
    attr(b, "x", p.left);
    attr(b, "y", p.top);
    attr(b, "width", p.right - p.left);
    attr(b, "height", p.bottom - p.top);
    g_string_append(b, "/>\n<text text-anchor=\"middle\"");
    double mid = (p.top + p.bottom) / 2;
    attr(b, "x", px + 14);
    attr(b, "y", mid);
    g_string_append(b, " transform=\"rotate(-90 ");
    out_tl_append_fixed(b, px + 14, 2);
    g_string_append_c(b, ' ');
    out_tl_append_fixed(b, mid, 2);
    g_string_append(b, ")\">predicted time</text>\n");
    for (int m = 0; m < nmembers; m++)
        draw_series(b, &p, &series[members[m]], members[m]);
    if (nmembers > 1)
        legend(b, series, members, nmembers, &p);
    g_string_append(b, "</g>\n");
}

bool out_tl_write_sweep_svg(const out_sweep_series *series, int nseries, const char *path,
                            const char *title, GError **error) {
    g_return_val_if_fail(path != NULL && nseries >= 0 && (series != NULL || nseries == 0), false);
    out_tl_sink out;
    if (!out_tl_sink_open(&out, path, error))
        return false;
    GString *b = out.buf;

    /* Group the series by unit, panels in the order units first appear. */
    int *panel_of = g_new0(int, nseries > 0 ? nseries : 1);
    int npanels = 0;
    for (int i = 0; i < nseries; i++) {
        panel_of[i] = -1;
        for (int j = 0; j < i && panel_of[i] < 0; j++)
            if (strcmp(unit_of(&series[i]), unit_of(&series[j])) == 0)
                panel_of[i] = panel_of[j];
        if (panel_of[i] < 0)
            panel_of[i] = npanels++;
    }

    double ymin = INFINITY, ymax = -INFINITY;
    for (int i = 0; i < nseries; i++)
        for (int k = 0; k < npoints(&series[i]); k++)
            if (usable(&series[i], k, false)) {
                ymin = fmin(ymin, series[i].y[k]);
                ymax = fmax(ymax, series[i].y[k]);
            }
    if (ymin > ymax) {
        ymin = 0;
        ymax = 0;
    }
    double y_unit;
    const char *y_unit_name = out_tl_time_unit(
        fmax(fabs(ymin), fabs(ymax)) > 0 ? fmax(fabs(ymin), fabs(ymax)) : 1, &y_unit);
    out_tl_axis yax = out_tl_nice_axis(ymin / y_unit, ymax / y_unit, 6);

    int cols = npanels > 1 ? 2 : 1;
    int rows = npanels > 0 ? (npanels + cols - 1) / cols : 1;
    bool has_title = title && *title;
    double top = has_title ? 36 : 8;
    double width = cols * PANEL_W + 16, height = top + rows * PANEL_H + 8;

    g_string_append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    attr(b, "width", width);
    attr(b, "height", height);
    g_string_append(b, " viewBox=\"0 0 ");
    out_tl_append_fixed(b, width, 2);
    g_string_append_c(b, ' ');
    out_tl_append_fixed(b, height, 2);
    g_string_append(b, "\">\n<style>\n"
                       "text{font-family:sans-serif;font-size:11px;fill:#222}\n"
                       ".title{font-size:13px;font-weight:bold}\n"
                       ".top{font-size:16px;font-weight:bold}\n"
                       ".grid{stroke:#e0e0e0;stroke-width:1}\n"
                       ".frame{fill:none;stroke:#444;stroke-width:1}\n"
                       "</style>\n"
                       "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
    if (has_title) {
        g_string_append(b, "<text class=\"top\" x=\"16\" y=\"24\">");
        out_tl_append_xml(b, title);
        g_string_append(b, "</text>\n");
    }
    if (npanels == 0)
        g_string_append(b, "<text x=\"16\" y=\"60\">no parameter was swept</text>\n");

    int *members = g_new(int, nseries > 0 ? nseries : 1);
    for (int pnl = 0; pnl < npanels; pnl++) {
        int nmembers = 0;
        for (int i = 0; i < nseries; i++)
            if (panel_of[i] == pnl)
                members[nmembers++] = i;
        int col = pnl % cols, row = pnl / cols;
        double px = 8 + col * PANEL_W, py = top + row * PANEL_H;
        draw_panel(b, series, members, nmembers, px, py, &yax, y_unit, y_unit_name);
        out_tl_sink_maybe_flush(&out);
    }
    g_free(members);
    g_free(panel_of);

    g_string_append(b, "</svg>\n");
    return out_tl_sink_close(&out, error);
}
