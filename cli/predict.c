/*
 * predict.c - `ordex predict`: how long the program would take on the
 * cluster a platform file describes, where the time goes, and how the time
 * depends on the platform's parameters.
 */
#define _GNU_SOURCE
#include "cli/predict.h"

#include <errno.h>
#include <glib.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/options.h"
#include "cli/program.h"
#include "output/findings.h"
#include "output/json.h"
#include "output/timeline.h"
#include "predict/predict.h"
#include "predict/sweep.h"

/* The platform of the command: --platform FILE, else the built-in one. */
static pm_platform *load_platform(const char *file, const char *const *sets, GError **err) {
    return file ? pm_platform_load(file, sets, err) : pm_platform_load_builtin(sets, err);
}

/* How the report names the platform. */
static char *platform_text(const pm_platform *p) {
    if (strcmp(p->source, PM_PLATFORM_BUILTIN_NAME) == 0 && p->nodes == 1)
        return g_strdup_printf("the built-in platform (this machine: 1 node x %d core%s, shared "
                               "memory; docs/platform.md)",
                               p->cores_per_node, p->cores_per_node == 1 ? "" : "s");
    return g_strdup_printf("%s (%d node%s x %d core%s)", p->source, p->nodes,
                           p->nodes == 1 ? "" : "s", p->cores_per_node,
                           p->cores_per_node == 1 ? "" : "s");
}

/* ---------------------------------------------------------------------- */
/* Interruption                                                            */

/* SIGINT and SIGTERM stop the prediction (and the child simulating a
 * placement); a second one ends ordex at once. */
static void on_stop_signal(int sig) {
    if (sg_run_interrupted()) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    pred_interrupt(sig);
}

/* True, having said so, when a signal stopped the prediction. */
static bool interrupted(void) {
    int sig = sg_run_interrupted();
    if (sig)
        fprintf(stderr, "ordex predict: interrupted (%s): no prediction\n",
                sig == SIGINT    ? "SIGINT"
                : sig == SIGTERM ? "SIGTERM"
                                 : "a signal");
    return sig != 0;
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                 */

static char *qty(double v, const char *unit) {
    return out_tl_format_quantity(v, unit);
}

static double pct(double part, double all) {
    return all > 0 ? 100.0 * part / all : 0;
}

/* Says when the machine was busy while the computation was measured. */
static void print_measure_note(FILE *out, const sim_timed_measure *m) {
    if (!pred_measure_disturbed(m))
        return;
    char *cpu = qty(m->compute_cpu_s, "s"), *wall = qty(m->compute_wall_s, "s");
    fprintf(out,
            "note: the machine was busy while the computation was measured: the OS gave the CPU "
            "to other work %ld time%s, and the computation took %s of wall-clock time for %s of "
            "CPU time; computation is charged as CPU time, which leaves those interruptions out, "
            "but a busy machine also slows the CPU time itself (shared caches and memory): "
            "predict on a quiet machine for steady numbers\n",
            m->involuntary_switches, m->involuntary_switches == 1 ? "" : "s", wall, cpu);
    g_free(cpu);
    g_free(wall);
}

static void json_measure(out_json *w, const sim_timed_measure *m) {
    out_json_object(w, "measurement");
    out_json_num(w, "compute_cpu_s", m->compute_cpu_s);
    out_json_num(w, "compute_wall_s", m->compute_wall_s);
    out_json_int(w, "involuntary_context_switches", m->involuntary_switches);
    out_json_bool(w, "disturbed", pred_measure_disturbed(m));
    out_json_end(w);
}

static void print_rank_line(FILE *out, const char *label, double end, double c, double m,
                            double b) {
    char *e = qty(end, "s"), *cs = qty(c, "s"), *ms = qty(m, "s"), *bs = qty(b, "s");
    fprintf(out, "  %-10s %12s %12s %12s %12s\n", label, e, cs, ms, bs);
    g_free(e);
    g_free(cs);
    g_free(ms);
    g_free(bs);
}

static void print_report(FILE *out, const pred_result *r, const pred_placements *pl,
                         const pm_platform *p, const char *prog, const char *trace_path,
                         const char *svg_path, const sim_timed_measure *measure) {
    out_print_finding_list(stderr, r->findings);
    char *on = platform_text(p);
    fprintf(out, "ordex predict: %s, %d rank%s on %s\n", prog, r->nranks, r->nranks == 1 ? "" : "s",
            on);
    g_free(on);
    if (!r->finished) {
        fprintf(out, "no prediction: the program did not finish (see the error above)\n");
        if (pl->count > 0) {
            fprintf(out,
                    "  that is placement %u of the polling ranks on the cores; the program did "
                    "not finish in %d of %d placements",
                    pl->shown, pl->count - pl->finished, pl->count);
            if (pl->finished > 0) {
                char *lo = qty(pl->min, "s"), *hi = qty(pl->max, "s");
                fprintf(out, " (the others took %s to %s)", lo, hi);
                g_free(lo);
                g_free(hi);
            }
            fprintf(out, "\n");
        }
        return;
    }
    if (pl->count > 0 && pl->finished > 0) {
        char *mean = qty(pl->mean, "s"), *lo = qty(pl->min, "s"), *hi = qty(pl->max, "s"),
             *mk = qty(r->makespan, "s");
        fprintf(out,
                "predicted time: %s (%.9f s), the mean of %d placement%s of the polling ranks "
                "on the cores\n",
                mean, pl->mean, pl->finished, pl->finished == 1 ? "" : "s");
        fprintf(out, "  placements from %s to %s", lo, hi);
        if (!isnan(pl->std_error)) {
            char *se = qty(pl->std_error, "s");
            fprintf(out, ", standard error of the mean %s%s", se,
                    pl->std_error > pl->mean / 20 ? " (more placements steady it: --placements K)"
                                                  : "");
            g_free(se);
        }
        fprintf(out, "\n  below: placement %u (%s), the closest to the mean\n\n", pl->shown, mk);
        g_free(mean);
        g_free(lo);
        g_free(hi);
        g_free(mk);
    } else {
        char *mk = qty(r->makespan, "s");
        fprintf(out, "predicted time: %s (%.9f s)\n\n", mk, r->makespan);
        g_free(mk);
    }
    fprintf(out, "  %-10s %12s %12s %12s %12s\n", "rank", "end", "compute", "comm", "blocked");
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
    fprintf(out, "  share of rank time: compute %.1f%%, comm %.1f%%, blocked %.1f%%",
            pct(t.compute, t.all), pct(t.comm, t.all), pct(t.blocked, t.all));
    if (t.core_wait > 0)
        fprintf(out, " (waiting for a core %.1f%%)", pct(t.core_wait, t.all));
    fprintf(out, "\n\n");
    char *crit = pred_critical_resource(r, p);
    fprintf(out, "critical resource: %s\n", crit);
    g_free(crit);
    if (r->makespan > 0 && t.core_wait >= r->makespan / 10)
        fprintf(out,
                "note: the waits for a core depend on where the OS puts each polling rank among "
                "the cores and their time slices, which changes from run to run: %s "
                "(docs/platform.md, [cluster] timeslice)\n",
                pl->count > 0 ? "real runs vary as the placements above do"
                              : "real runs of such a program can differ several-fold, and the "
                                "prediction charges a typical wait");
    if (r->busiest_link) {
        char *b = qty(r->busiest_bytes, "B");
        fprintf(out, "most loaded link: %s, %s carried, busy %.1f%% of the run\n", r->busiest_link,
                b, pct(r->busiest_busy, r->makespan));
        g_free(b);
    } else {
        fprintf(out, "most loaded link: none (no data crossed a link)\n");
    }
    for (guint i = 1; i < r->links->len; i++) {
        const pm_net_link_stats *ls = &g_array_index(r->links, pm_net_link_stats, i);
        char *b = qty(ls->bytes, "B");
        fprintf(out, "            then %s, %s, busy %.1f%%\n", ls->name, b,
                pct(ls->busy, r->makespan));
        g_free(b);
    }
    if (trace_path || svg_path)
        fprintf(out, "timeline: %s%s%s\n", trace_path ? trace_path : "",
                trace_path && svg_path ? ", " : "", svg_path ? svg_path : "");
    print_measure_note(out, measure);
    fprintf(out, "simulated in %.3f s\n", r->elapsed_s);
}

/* The prediction's members of the report's top-level object. */
static void json_prediction(out_json *w, const pred_result *r, const pred_placements *pl,
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

/* Writes a finished report; false after saying why. */
static bool write_file(const char *path, GString *s) {
    char *err = NULL;
    if (out_json_save(s, path, &err))
        return true;
    fprintf(stderr, "ordex predict: %s\n", err);
    g_free(err);
    return false;
}

/* "examples/heat.c" -> "heat" + suffix, in the current directory. */
static char *default_output(const char *prog, const char *suffix) {
    char *base = g_path_get_basename(prog);
    char *dot = strrchr(base, '.');
    if (dot && dot != base)
        *dot = '\0';
    char *path = g_strconcat(base, suffix, NULL);
    g_free(base);
    return path;
}

/* ---------------------------------------------------------------------- */
/* Sweeps                                                                  */

static int run_sweeps(const ordex_opts *o, const pred_options *po) {
    const char *prog = po->run.argv[0];
    int nsweeps = (int)g_strv_length(o->sweeps);
    char *err = NULL;
    pred_sweep *sw = g_new0(pred_sweep, nsweeps);
    int status = 0;
    for (int i = 0; i < nsweeps; i++)
        if (!pred_sweep_parse(o->sweeps[i], &sw[i], &err)) {
            fprintf(stderr, "ordex predict: %s\n", err);
            g_free(err);
            for (int k = 0; k < i; k++)
                pred_sweep_clear(&sw[k]);
            g_free(sw);
            return 2;
        }
    sim_timed_measure measure = {0, 0, 0};
    fprintf(stderr, "ordex predict: %s, %d rank%s, sweeping %d parameter%s\n\n", prog,
            po->run.nranks, po->run.nranks == 1 ? "" : "s", nsweeps, nsweeps == 1 ? "" : "s");
    for (int i = 0; i < nsweeps && status != 2; i++) {
        fprintf(stderr, "  %-28s %16s\n", sw[i].key, "predicted time");
        for (int k = 0; k < sw[i].n; k++) {
            char **over = pred_sweep_overrides(o->sets, sw[i].key, sw[i].values[k]);
            GError *err = NULL;
            pm_platform *p = load_platform(o->platform, (const char *const *)over, &err);
            g_strfreev(over);
            if (!p) {
                fprintf(stderr, "ordex predict: %s\n", err->message);
                g_error_free(err);
                status = 2;
                break;
            }
            int *map = g_new(int, po->run.nranks);
            bool fits = pm_platform_map(p, po->run.nranks, map, &err);
            g_free(map);
            if (!fits) {
                fprintf(stderr, "ordex predict: with %s=%s: %s\n", sw[i].key, sw[i].values[k],
                        err->message);
                g_error_free(err);
                pm_platform_free(p);
                status = 2;
                break;
            }
            double t = pred_time(po, p, &measure);
            pm_platform_free(p);
            if (interrupted()) {
                status = 2;
                break;
            }
            if (t < 0) {
                fprintf(stderr, "ordex predict: the simulation with %s=%s failed\n", sw[i].key,
                        sw[i].values[k]);
                status = 2;
                break;
            }
            sw[i].y[k] = t;
            char *ts = isnan(t) ? g_strdup("did not finish") : qty(t, "s");
            fprintf(stderr, "  %-28s %16s\n", sw[i].values[k], ts);
            g_free(ts);
            if (isnan(t))
                status = 1;
        }
        fprintf(stderr, "\n");
    }
    if (status != 2)
        print_measure_note(stderr, &measure);
    if (status != 2) {
        out_sweep_series *series = g_new0(out_sweep_series, nsweeps);
        for (int i = 0; i < nsweeps; i++) {
            series[i].param = sw[i].key;
            series[i].unit = pred_sweep_unit(sw[i].kind);
            series[i].n = sw[i].n;
            series[i].x = sw[i].x;
            series[i].y = sw[i].y;
            series[i].x_labels = (const char *const *)sw[i].values;
        }
        char *svg = o->no_timeline ? NULL
                    : o->svg       ? g_strdup(o->svg)
                                   : default_output(prog, ".sweep.svg");
        if (svg) {
            char *title = g_strdup_printf("%s: predicted time, %d rank%s", prog, po->run.nranks,
                                          po->run.nranks == 1 ? "" : "s");
            GError *err = NULL;
            if (out_tl_write_sweep_svg(series, nsweeps, svg, title, &err)) {
                fprintf(stderr, "plot: %s\n", svg);
            } else {
                fprintf(stderr, "ordex predict: %s\n", err->message);
                g_error_free(err);
                status = 2;
            }
            g_free(title);
        }
        if (o->json && status != 2) {
            GString *s = g_string_new(NULL);
            out_json w;
            out_json_init(&w, s, 2);
            out_json_object(&w, NULL);
            out_json_str(&w, "verdict", status == 1 ? "error" : "ok");
            out_json_str(&w, "program", prog);
            out_json_array(&w, "sweeps");
            for (int i = 0; i < nsweeps; i++) {
                out_json_object(&w, NULL);
                out_json_str(&w, "param", sw[i].key);
                out_json_array(&w, "points");
                for (int k = 0; k < sw[i].n; k++) {
                    out_json_object(&w, NULL);
                    out_json_str(&w, "value", sw[i].values[k]);
                    out_json_num(&w, "x", sw[i].x[k]);
                    out_json_num(&w, "predicted_time_s", sw[i].y[k]);
                    out_json_end(&w);
                }
                out_json_end(&w);
                out_json_end(&w);
            }
            out_json_end(&w);
            out_json_str(&w, "plot", svg);
            json_measure(&w, &measure);
            out_json_end(&w);
            if (!write_file(o->json, s))
                status = 2;
            g_string_free(s, TRUE);
        }
        g_free(svg);
        g_free(series);
    }
    for (int i = 0; i < nsweeps; i++)
        pred_sweep_clear(&sw[i]);
    g_free(sw);
    return status;
}

/* ---------------------------------------------------------------------- */
/* The command                                                             */

static int predict_single(const ordex_opts *o, const pred_options *po, const pm_platform *p) {
    const char *prog = po->run.argv[0];
    bool record = !o->no_timeline;
    pred_placements pl;
    if (!pred_simulate_placements(po, p, &pl)) {
        if (!interrupted())
            fprintf(stderr, "ordex predict: the simulation of a placement of the ranks failed\n");
        pred_placements_clear(&pl);
        return 2;
    }
    pred_result r;
    char *err = NULL;
    if (!pred_simulate(po, p, record, false, pl.shown, &r, &err)) {
        if (!interrupted())
            fprintf(stderr, "ordex predict: %s\n", err);
        g_free(err);
        pred_placements_clear(&pl);
        return 2;
    }
    if (interrupted()) { /* what it found is from a run cut short: no report */
        pred_result_clear(&r);
        pred_placements_clear(&pl);
        return 2;
    }
    r.elapsed_s += pl.elapsed_s;
    int status = r.findings->len > 0 || !r.finished ? 1 : 0;
    if (pl.finished < pl.count && r.finished) {
        /* Measured computation differs a little from run to run, and with it
         * the timing that led to the finding. */
        fprintf(stderr,
                "ordex predict: placement %u did not finish when first simulated but did when "
                "simulated again for the report (the measured computation, and so the timing, "
                "differs a little between runs; --ignore-compute makes them repeatable)\n",
                pl.shown);
        status = 1;
    }
    char *trace = NULL, *svg = NULL;
    if (record && r.finished) {
        trace = o->trace_json ? g_strdup(o->trace_json) : default_output(prog, ".trace.json");
        svg = o->svg ? g_strdup(o->svg) : default_output(prog, ".svg");
        GError *gerr = NULL;
        bool builtin = strcmp(p->source, PM_PLATFORM_BUILTIN_NAME) == 0;
        char *title = g_strdup_printf("%s on %s, %d rank%s", prog,
                                      builtin ? "the built-in platform" : p->source, r.nranks,
                                      r.nranks == 1 ? "" : "s");
        if (!out_tl_write_chrome(r.timeline, trace, &gerr) ||
            !out_tl_write_svg(r.timeline, svg, title, &gerr)) {
            fprintf(stderr, "ordex predict: %s\n", gerr->message);
            g_error_free(gerr);
            status = 2;
        }
        g_free(title);
    }
    sim_timed_measure measure = r.measure;
    measure.compute_cpu_s += pl.measure.compute_cpu_s;
    measure.compute_wall_s += pl.measure.compute_wall_s;
    measure.involuntary_switches += pl.measure.involuntary_switches;
    fflush(stdout);
    print_report(stderr, &r, &pl, p, prog, trace, svg, &measure);
    if (o->json) {
        GString *s = g_string_new(NULL);
        out_json w;
        out_json_init(&w, s, 2);
        out_json_object(&w, NULL);
        out_json_str(&w, "verdict", status == 0 ? "ok" : "error");
        out_json_str(&w, "program", prog);
        out_json_int(&w, "nranks", r.nranks);
        json_prediction(&w, &r, &pl, p, trace, svg);
        json_measure(&w, &measure);
        out_json_end(&w);
        if (!write_file(o->json, s))
            status = 2;
        g_string_free(s, TRUE);
    }
    g_free(trace);
    g_free(svg);
    pred_result_clear(&r);
    pred_placements_clear(&pl);
    return status;
}

int ordex_predict(int argc, char **argv) {
    ordex_opts o;
    if (ordex_parse_common(argc, argv, "predict", &o) != 0) {
        ordex_opts_free(&o);
        return 2;
    }
    if (o.send_mode_given || o.run.eager_limit != SG_RUN_DEFAULT_EAGER_LIMIT) {
        fprintf(stderr, "ordex predict: --send-mode and --eager-limit do not apply: the "
                        "platform's network.eager_limit decides (e.g. --set "
                        "network.eager_limit=16KiB)\n");
        ordex_opts_free(&o);
        return 2;
    }
    GError *err = NULL;
    pm_platform *p = load_platform(o.platform, (const char *const *)o.sets, &err);
    if (!p) {
        fprintf(stderr, "ordex predict: %s\n", err->message);
        g_error_free(err);
        ordex_opts_free(&o);
        return 2;
    }
    int *map = g_new(int, o.run.nranks);
    bool fits = pm_platform_map(p, o.run.nranks, map, &err);
    g_free(map);
    if (!fits) {
        fprintf(stderr, "ordex predict: %s\n", err->message);
        g_error_free(err);
        pm_platform_free(p);
        ordex_opts_free(&o);
        return 2;
    }
    const char *prog = o.run.argv[0];
    char *so = ordex_program_prepare(prog, o.run.nranks, true);
    if (!so || ordex_program_refuse_unsupported("ordex predict", prog, so, o.json) != 0) {
        g_free(so);
        pm_platform_free(p);
        ordex_opts_free(&o);
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    pred_options po = {0};
    po.run = o.run;
    po.run.so = so;
    po.ignore_compute = o.ignore_compute;
    po.placements = o.placements;
    int rc = o.sweeps ? run_sweeps(&o, &po) : predict_single(&o, &po, p);
    g_free(so);
    pm_platform_free(p);
    ordex_opts_free(&o);
    return rc;
}
