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
#include "predict/report.h"
#include "predict/sweep.h"

/* The platform of the command: --platform FILE, else the built-in one. */
static pm_platform *load_platform(const char *file, const char *const *sets, GError **err) {
    return file ? pm_platform_load(file, sets, err) : pm_platform_load_builtin(sets, err);
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
    sim_timed_measure measure = {0};
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
            char *ts = isnan(t) ? g_strdup("did not finish") : pred_qty(t, "s");
            fprintf(stderr, "  %-28s %16s\n", sw[i].values[k], ts);
            g_free(ts);
            if (isnan(t))
                status = 1;
        }
        fprintf(stderr, "\n");
    }
    if (status != 2) {
        GString *note = g_string_new(NULL);
        pred_report_measure_note(note, &measure);
        fputs(note->str, stderr);
        g_string_free(note, TRUE);
    }
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
            pred_json_measure(&w, &measure);
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
    sg_findings_classify(r.findings, o->leaks);
    int status = out_findings_status(r.findings);
    if (status == 0 && !r.finished)
        status = 1;
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
    out_print_finding_list(stderr, r.findings);
    GString *text = g_string_new(NULL);
    pred_report_text(text, &r, &pl, p, prog, trace, svg, &measure);
    fputs(text->str, stderr);
    g_string_free(text, TRUE);
    if (o->json) {
        GString *s = g_string_new(NULL);
        out_json w;
        out_json_init(&w, s, 2);
        out_json_object(&w, NULL);
        out_json_str(&w, "verdict", status == 0 ? "ok" : status == 2 ? "unsupported" : "error");
        out_json_str(&w, "program", prog);
        out_json_int(&w, "nranks", r.nranks);
        pred_json_prediction(&w, &r, &pl, p, trace, svg);
        pred_json_measure(&w, &measure);
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
    if (!so) {
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
