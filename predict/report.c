/*
 * report.c - a prediction as text for people and as JSON members (see
 * report.h).
 */
#include "predict/report.h"

#include <math.h>
#include <string.h>

#include "output/findings.h"
#include "output/timeline.h"

char *pred_platform_text(const pm_platform *p) {
    if (strcmp(p->source, PM_PLATFORM_BUILTIN_NAME) == 0 && p->nodes == 1)
        return g_strdup_printf("the built-in platform (this machine: 1 node x %d core%s, shared "
                               "memory; docs/platform.md)",
                               p->cores_per_node, p->cores_per_node == 1 ? "" : "s");
    return g_strdup_printf("%s (%d node%s x %d core%s)", p->source, p->nodes,
                           p->nodes == 1 ? "" : "s", p->cores_per_node,
                           p->cores_per_node == 1 ? "" : "s");
}

char *pred_qty(double v, const char *unit) {
    return out_tl_format_quantity(v, unit);
}

static double pct(double part, double all) {
    return all > 0 ? 100.0 * part / all : 0;
}

void pred_report_measure_note(GString *out, const sim_timed_measure *m) {
    if (m->instrumented)
        g_string_append(out, "note: the program was built with the instrumentation of loads and "
                             "stores (ordexcc without --no-access-checks), which slows its "
                             "computation (about 2x at -O2, bench/RESULTS.md) although predict "
                             "leaves it off: give predict the .c file, or build with "
                             "--no-access-checks\n");
    if (!pred_measure_disturbed(m))
        return;
    char *cpu = pred_qty(m->compute_cpu_s, "s"), *wall = pred_qty(m->compute_wall_s, "s");
    g_string_append_printf(
        out,
        "note: the machine was busy while the computation was measured: the OS gave the CPU "
        "to other work %ld time%s, and the computation took %s of wall-clock time for %s of "
        "CPU time; computation is charged as CPU time, which leaves those interruptions out, "
        "but a busy machine also slows the CPU time itself (shared caches and memory): "
        "predict on a quiet machine for steady numbers\n",
        m->involuntary_switches, m->involuntary_switches == 1 ? "" : "s", wall, cpu);
    g_free(cpu);
    g_free(wall);
}

void pred_json_measure(out_json *w, const sim_timed_measure *m) {
    out_json_object(w, "measurement");
    out_json_num(w, "compute_cpu_s", m->compute_cpu_s);
    out_json_num(w, "compute_wall_s", m->compute_wall_s);
    out_json_int(w, "involuntary_context_switches", m->involuntary_switches);
    out_json_bool(w, "disturbed", pred_measure_disturbed(m));
    out_json_bool(w, "instrumented", m->instrumented);
    out_json_end(w);
}

static void print_rank_line(GString *out, const char *label, double end, double c, double m,
                            double b) {
    char *e = pred_qty(end, "s"), *cs = pred_qty(c, "s"), *ms = pred_qty(m, "s"),
         *bs = pred_qty(b, "s");
    g_string_append_printf(out, "  %-10s %12s %12s %12s %12s\n", label, e, cs, ms, bs);
    g_free(e);
    g_free(cs);
    g_free(ms);
    g_free(bs);
}

void pred_report_text(GString *out, const pred_result *r, const pred_placements *pl,
                      const pm_platform *p, const char *prog, const char *trace_path,
                      const char *svg_path, const sim_timed_measure *measure) {
    char *on = pred_platform_text(p);
    g_string_append_printf(out, "ordex predict: %s, %d rank%s on %s\n", prog, r->nranks,
                           r->nranks == 1 ? "" : "s", on);
    g_free(on);
    if (!r->finished) {
        g_string_append_printf(out,
                               "no prediction: the program did not finish (see the error above)\n");
        if (pl->count > 0) {
            g_string_append_printf(
                out,
                "  that is placement %u of the polling ranks on the cores; the program did "
                "not finish in %d of %d placements",
                pl->shown, pl->count - pl->finished, pl->count);
            if (pl->finished > 0) {
                char *lo = pred_qty(pl->min, "s"), *hi = pred_qty(pl->max, "s");
                g_string_append_printf(out, " (the others took %s to %s)", lo, hi);
                g_free(lo);
                g_free(hi);
            }
            g_string_append_printf(out, "\n");
        }
        return;
    }
    if (pl->count > 0 && pl->finished > 0) {
        char *mean = pred_qty(pl->mean, "s"), *lo = pred_qty(pl->min, "s"),
             *hi = pred_qty(pl->max, "s"), *mk = pred_qty(r->makespan, "s");
        g_string_append_printf(
            out,
            "predicted time: %s (%.9f s), the mean of %d placement%s of the polling ranks "
            "on the cores\n",
            mean, pl->mean, pl->finished, pl->finished == 1 ? "" : "s");
        g_string_append_printf(out, "  placements from %s to %s", lo, hi);
        if (!isnan(pl->std_error)) {
            char *se = pred_qty(pl->std_error, "s");
            g_string_append_printf(out, ", standard error of the mean %s%s", se,
                                   pl->std_error > pl->mean / 20
                                       ? " (more placements steady it: --placements K)"
                                       : "");
            g_free(se);
        }
        g_string_append_printf(out, "\n  below: placement %u (%s), the closest to the mean\n\n",
                               pl->shown, mk);
        g_free(mean);
        g_free(lo);
        g_free(hi);
        g_free(mk);
    } else {
        char *mk = pred_qty(r->makespan, "s");
        g_string_append_printf(out, "predicted time: %s (%.9f s)\n\n", mk, r->makespan);
        g_free(mk);
    }
    g_string_append_printf(out, "  %-10s %12s %12s %12s %12s\n", "rank", "end", "compute", "comm",
                           "blocked");
    if (r->nranks <= 16) {
        for (int i = 0; i < r->nranks; i++) {
            char label[32];
            snprintf(label, sizeof label, "%d", i);
            const sim_timed_rank *s = &r->ranks[i];
            print_rank_line(out, label, s->end, s->compute, s->comm, s->blocked);
        }
    }
    pred_totals t = pred_totals_of(r);
    double n = r->nranks, ends = 0;
    for (int i = 0; i < r->nranks; i++)
        ends += r->ranks[i].end;
    print_rank_line(out, "mean", ends / n, t.compute / n, t.comm / n, t.blocked / n);
    if (r->nranks > 16) {
        double lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY}, hi[4] = {0, 0, 0, 0};
        for (int i = 0; i < r->nranks; i++) {
            const sim_timed_rank *s = &r->ranks[i];
            double v[4] = {s->end, s->compute, s->comm, s->blocked};
            for (int k = 0; k < 4; k++) {
                lo[k] = fmin(lo[k], v[k]);
                hi[k] = fmax(hi[k], v[k]);
            }
        }
        print_rank_line(out, "min", lo[0], lo[1], lo[2], lo[3]);
        print_rank_line(out, "max", hi[0], hi[1], hi[2], hi[3]);
    }
    g_string_append_printf(out, "  share of rank time: compute %.1f%%, comm %.1f%%, blocked %.1f%%",
                           pct(t.compute, t.all), pct(t.comm, t.all), pct(t.blocked, t.all));
    if (t.core_wait > 0)
        g_string_append_printf(out, " (waiting for a core %.1f%%)", pct(t.core_wait, t.all));
    g_string_append_printf(out, "\n\n");
    char *crit = pred_critical_resource(r, p);
    g_string_append_printf(out, "critical resource: %s\n", crit);
    g_free(crit);
    if (r->makespan > 0 && t.core_wait >= r->makespan / 10)
        g_string_append_printf(
            out,
            "note: the waits for a core depend on where the OS puts each polling rank among "
            "the cores and their time slices, which changes from run to run: %s "
            "(docs/platform.md, [cluster] timeslice)\n",
            pl->count > 0 ? "real runs vary as the placements above do"
                          : "real runs of such a program can differ several-fold, and the "
                            "prediction charges a typical wait");
    if (r->busiest_link) {
        char *b = pred_qty(r->busiest_bytes, "B");
        g_string_append_printf(out, "most loaded link: %s, %s carried, busy %.1f%% of the run\n",
                               r->busiest_link, b, pct(r->busiest_busy, r->makespan));
        g_free(b);
    } else {
        g_string_append_printf(out, "most loaded link: none (no data crossed a link)\n");
    }
    for (guint i = 1; i < r->links->len; i++) {
        const pm_net_link_stats *ls = &g_array_index(r->links, pm_net_link_stats, i);
        char *b = pred_qty(ls->bytes, "B");
        g_string_append_printf(out, "            then %s, %s, busy %.1f%%\n", ls->name, b,
                               pct(ls->busy, r->makespan));
        g_free(b);
    }
    if (trace_path || svg_path)
        g_string_append_printf(out, "timeline: %s%s%s\n", trace_path ? trace_path : "",
                               trace_path && svg_path ? ", " : "", svg_path ? svg_path : "");
    pred_report_measure_note(out, measure);
    g_string_append_printf(out, "simulated in %.3f s\n", r->elapsed_s);
}

void pred_json_prediction(out_json *w, const pred_result *r, const pred_placements *pl,
                          const pm_platform *p, const char *trace_path, const char *svg_path) {
    out_json_num(w, "predicted_time_s",
                 !r->finished    ? NAN
                 : pl->count > 0 ? pl->mean
                                 : r->makespan);
    if (pl->count > 0) {
        out_json_object(w, "placements");
        out_json_array(w, "times_s");
        for (int i = 0; i < pl->count; i++)
            out_json_num(w, NULL, pl->times[i]);
        out_json_end(w);
        out_json_uint(w, "shown", pl->shown);
        out_json_num(w, "standard_error_s", pl->std_error);
        out_json_num(w, "shown_time_s", r->finished ? r->makespan : NAN);
        out_json_end(w);
    } else {
        out_json_null(w, "placements");
    }
    out_json_str(w, "platform", p->source);
    out_json_int(w, "nodes", p->nodes);
    out_json_int(w, "cores_per_node", p->cores_per_node);
    pred_totals t = pred_totals_of(r);
    out_json_object(w, "totals");
    out_json_num(w, "compute_s", t.compute);
    out_json_num(w, "comm_s", t.comm);
    out_json_num(w, "blocked_s", t.blocked);
    out_json_num(w, "core_wait_s", t.core_wait);
    out_json_end(w);
    char *crit = pred_critical_resource(r, p);
    out_json_str(w, "critical_resource", crit);
    g_free(crit);
    if (r->busiest_link) {
        out_json_object(w, "busiest_link");
        out_json_str(w, "name", r->busiest_link);
        out_json_num(w, "bytes", r->busiest_bytes);
        out_json_num(w, "busy_s", r->busiest_busy);
        out_json_num(w, "capacity_Bps", r->busiest_capacity);
        out_json_end(w);
    } else {
        out_json_null(w, "busiest_link");
    }
    out_json_array(w, "links");
    for (guint i = 0; i < r->links->len; i++) {
        const pm_net_link_stats *ls = &g_array_index(r->links, pm_net_link_stats, i);
        out_json_object(w, NULL);
        out_json_str(w, "name", ls->name);
        out_json_num(w, "bytes", ls->bytes);
        out_json_num(w, "busy_s", ls->busy);
        out_json_num(w, "utilisation", r->makespan > 0 ? ls->busy / r->makespan : 0);
        out_json_end(w);
    }
    out_json_end(w);
    out_json_array(w, "ranks");
    for (int i = 0; i < r->nranks; i++) {
        const sim_timed_rank *x = &r->ranks[i];
        out_json_object(w, NULL);
        out_json_int(w, "rank", i);
        out_json_int(w, "node", x->node);
        out_json_num(w, "end_s", x->end >= 0 ? x->end : NAN);
        out_json_num(w, "compute_s", x->compute);
        out_json_num(w, "comm_s", x->comm);
        out_json_num(w, "blocked_s", x->blocked);
        out_json_num(w, "core_wait_s", x->core_wait);
        out_json_uint(w, "mpi_calls", x->calls);
        out_json_uint(w, "messages_sent", x->messages_sent);
        out_json_uint(w, "bytes_sent", x->bytes_sent);
        out_json_end(w);
    }
    out_json_end(w);
    out_json_object(w, "timeline");
    out_json_str(w, "chrome_trace", trace_path);
    out_json_str(w, "svg", svg_path);
    out_json_end(w);
    out_json_findings(w, "findings", r->findings);
    out_json_object(w, "stats");
    out_json_uint(w, "messages", r->messages);
    out_json_num(w, "elapsed_s", r->elapsed_s);
    out_json_end(w);
}
