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
#include "output/timeline.h"
#include "scheduler/sched.h"
#include "simulator/sim.h"
#include "simulator/timed.h"
#include "stategraph/oneshot.h"

/* What one simulation gives. */
typedef struct prediction {
    bool finished;   /* every rank ended: the time is a prediction */
    double makespan; /* seconds */
    int nranks;
    sim_timed_rank *ranks;
    GPtrArray *findings; /* copies of the run's findings (sim_finding *) */
    char *busiest_link;
    double busiest_bytes, busiest_busy, busiest_capacity;
    GArray *links; /* pm_net_link_stats of the most loaded links (names copied) */
    uint64_t messages;
    double elapsed_s;
    out_timeline *timeline; /* when recorded */
} prediction;

/* The placements simulated for one prediction when ranks that poll share
 * cores (docs/platform.md): where the OS puts them decides how long a rank
 * waits for its core, so each is one possible run. */
typedef struct placed {
    int count;             /* placements simulated; 0 when the placement did not matter */
    double *times;         /* [count] each one's time, NAN when the program did not finish */
    int finished;          /* how many finished */
    double mean, min, max; /* over those */
    double std_error;      /* of the mean: how far another draw of placements may land */
    unsigned shown;        /* the placement (1 to count) closest to the mean */
    double elapsed_s;      /* what simulating them took */
} placed;

static void finding_copy_free(gpointer p) {
    sim_finding *f = p;
    g_free(f->ranks);
    g_free(f->message);
    g_free(f->details);
    g_free(f->location);
    g_free(f);
}

static void prediction_clear(prediction *r) {
    g_free(r->ranks);
    if (r->findings)
        g_ptr_array_free(r->findings, TRUE);
    g_free(r->busiest_link);
    for (guint i = 0; r->links && i < r->links->len; i++)
        g_free((char *)g_array_index(r->links, pm_net_link_stats, i).name);
    if (r->links)
        g_array_free(r->links, TRUE);
    if (r->timeline)
        out_tl_free(r->timeline);
    memset(r, 0, sizeof *r);
}

static double seconds_since(const struct timespec *t0) {
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

static out_timeline *timeline_of(const pm_platform *p, int nranks) {
    out_timeline *t = out_tl_new(nranks);
    for (int r = 0; r < nranks; r++) {
        const sim_timed_rank *st = sim_timed_rank_stats(r);
        char *label = g_strdup_printf("rank %d (%s)", r, p->node_names[st->node]);
        out_tl_set_rank_label(t, r, label);
        g_free(label);
    }
    GArray *spans = sim_timed_spans();
    for (guint i = 0; spans && i < spans->len; i++) {
        const sim_timed_span *s = &g_array_index(spans, sim_timed_span, i);
        bool compute = strcmp(s->name, "compute") == 0;
        out_tl_add_span(t, s->rank, s->start, s->end,
                          compute ? ORDEX_TL_COMPUTE : out_tl_kind_of_call(s->name), s->name);
    }
    GArray *msgs = sim_timed_messages();
    for (guint i = 0; msgs && i < msgs->len; i++) {
        const sim_timed_message *m = &g_array_index(msgs, sim_timed_message, i);
        out_tl_add_message(t, m->src, m->dst, m->sent, m->arrived, m->bytes);
    }
    return t;
}

static gint by_load(gconstpointer a, gconstpointer b) {
    const pm_net_link_stats *x = a, *y = b;
    double lx = x->bytes / x->capacity, ly = y->bytes / y->capacity;
    return lx > ly ? -1 : lx < ly;
}

/* Up to n links that carried data, the most loaded (bytes / capacity) first. */
static GArray *most_loaded_links(const pm_net *net, int n) {
    GArray *all = g_array_new(FALSE, FALSE, sizeof(pm_net_link_stats));
    for (int l = 0; l < pm_net_nlinks(net); l++) {
        pm_net_link_stats ls;
        pm_net_link_stats_get(net, l, &ls);
        if (ls.bytes > 0)
            g_array_append_val(all, ls);
    }
    g_array_sort(all, by_load);
    if ((int)all->len > n)
        g_array_set_size(all, (guint)n);
    for (guint i = 0; i < all->len; i++) {
        pm_net_link_stats *ls = &g_array_index(all, pm_net_link_stats, i);
        ls->name = g_strdup(ls->name);
    }
    return all;
}

/* Simulates the loaded-and-configured program once on platform p.  Returns
 * false (after printing why) when ordex could not do it. */
static bool simulate(const ordex_opts *o, const pm_platform *p, const char *so, const char *prog,
                     int argc, char **argv, bool record, bool quiet_program, unsigned placement,
                     prediction *out) {
    memset(out, 0, sizeof *out);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!ordex_program_load(o, so, prog, argc, argv, stdout, stderr))
        return false;
    if (quiet_program)
        sched_discard_output(true);
    sim_config cfg = {0};
    cfg.nranks = o->nranks;
    cfg.send_mode = SIM_SEND_EAGER_BELOW_LIMIT;
    /* The engine buffers standard sends below its limit; the platform's
     * eager_limit is the largest eager message. */
    cfg.eager_limit = (size_t)p->eager_limit + 1;
    cfg.seed = o->seed;
    sim_create(&cfg);
    GError *err = NULL;
    if (!sim_timed_start(p, record, placement, &err)) {
        fprintf(stderr, "ordex predict: %s\n", err->message);
        g_error_free(err);
        sim_destroy();
        sched_fini();
        return false;
    }
    sim_timed_ignore_measured(o->ignore_compute);
    sg_oneshot_stats stats = {0};
    sched_run_result rr = sg_run_timed(&stats);
    if (rr != SCHED_RUN_STOPPED)
        sim_conclude(rr == SCHED_RUN_STUCK);
    sched_flush_output();
    fflush(stdout);

    out->nranks = o->nranks;
    out->ranks = g_new(sim_timed_rank, o->nranks);
    out->finished = rr == SCHED_RUN_COMPLETE;
    for (int r = 0; r < o->nranks; r++) {
        out->ranks[r] = *sim_timed_rank_stats(r);
        if (out->ranks[r].end < 0)
            out->finished = false;
    }
    out->makespan = sim_timed_makespan();
    out->findings = g_ptr_array_new_with_free_func(finding_copy_free);
    GPtrArray *found = sim_findings();
    for (guint i = 0; i < found->len; i++) {
        const sim_finding *f = g_ptr_array_index(found, i);
        sim_finding *c = g_new0(sim_finding, 1);
        c->kind = f->kind;
        c->ranks = g_memdup2(f->ranks, sizeof(int) * (size_t)f->nranks);
        c->nranks = f->nranks;
        c->message = g_strdup(f->message);
        c->details = g_strdup(f->details);
        c->location = g_strdup(f->location);
        g_ptr_array_add(out->findings, c);
    }
    const pm_net *net = sim_timed_net();
    int busiest = pm_net_busiest_link(net);
    if (busiest >= 0) {
        pm_net_link_stats ls;
        pm_net_link_stats_get(net, busiest, &ls);
        out->busiest_link = g_strdup(ls.name);
        out->busiest_bytes = ls.bytes;
        out->busiest_busy = ls.busy;
        out->busiest_capacity = ls.capacity;
    }
    out->links = most_loaded_links(net, 5);
    out->messages = sim_messages_delivered();
    if (record)
        out->timeline = timeline_of(p, o->nranks);
    sim_timed_stop();
    sim_destroy();
    sched_fini();
    out->elapsed_s = seconds_since(&t0);
    return true;
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                 */

static char *qty(double v, const char *unit) {
    return out_tl_format_quantity(v, unit);
}

typedef struct totals {
    double compute, comm, blocked, all;
    double core_wait; /* of blocked */
} totals;

static totals totals_of(const prediction *r) {
    totals t = {0};
    for (int i = 0; i < r->nranks; i++) {
        t.compute += r->ranks[i].compute;
        t.comm += r->ranks[i].comm;
        t.blocked += r->ranks[i].blocked;
        t.core_wait += r->ranks[i].core_wait;
    }
    t.all = t.compute + t.comm + t.blocked;
    return t;
}

static double pct(double part, double all) {
    return all > 0 ? 100.0 * part / all : 0;
}

/* The node with the most ranks per core, when some node has more ranks than
 * cores (they then share the cores while computing). */
static int crowded_node(const prediction *r, const pm_platform *p, int *ranks_there) {
    int *count = g_new0(int, p->nodes);
    int worst = -1;
    for (int i = 0; i < r->nranks; i++)
        count[r->ranks[i].node]++;
    for (int n = 0; n < p->nodes; n++)
        if (count[n] > p->cores_per_node && (worst < 0 || count[n] > count[worst]))
            worst = n;
    *ranks_there = worst >= 0 ? count[worst] : 0;
    g_free(count);
    return worst;
}

/* One sentence on what limits the run. */
static char *critical_resource(const prediction *r, const pm_platform *p) {
    totals t = totals_of(r);
    if (t.all <= 0)
        return g_strdup("none: the ranks spend no simulated time");
    if (t.compute >= t.comm && t.compute >= t.blocked) {
        int crowded;
        int node = crowded_node(r, p, &crowded);
        if (node >= 0)
            return g_strdup_printf("computation: %.0f%% of rank time, on nodes with more ranks "
                                   "than cores (%s runs %d ranks on %d cores)",
                                   pct(t.compute, t.all), p->node_names[node], crowded,
                                   p->cores_per_node);
        return g_strdup_printf("computation: %.0f%% of rank time", pct(t.compute, t.all));
    }
    if (t.comm >= t.blocked) {
        char *link = NULL;
        if (r->busiest_link && r->makespan > 0)
            link = g_strdup_printf("; the busiest link, %s, is busy %.0f%% of the run",
                                   r->busiest_link, pct(r->busiest_busy, r->makespan));
        char *s = g_strdup_printf("communication: %.0f%% of rank time goes to MPI overheads "
                                  "and data in transit%s",
                                  pct(t.comm, t.all), link ? link : "");
        g_free(link);
        return s;
    }
    /* Waits for a core limit the run when they add up to half of it or more:
     * a token passed around an oversubscribed node waits for a core at every
     * hop, one rank at a time, while the other ranks' waits are for the token. */
    int crowded;
    int node = crowded_node(r, p, &crowded);
    if (node >= 0 && r->makespan > 0 && t.core_wait >= r->makespan / 2) {
        double times = t.core_wait / r->makespan;
        char *sum = times >= 2 ? g_strdup_printf("%.1f times", times)
                               : g_strdup_printf("%.0f%% of", 100 * times);
        char *s = g_strdup_printf("cores: the ranks' waits for a core add up to %s the predicted "
                                  "time (%s runs %d ranks on %d cores and they poll while they "
                                  "wait in MPI, so a rank whose wait has ended goes on only at "
                                  "its next time slice)",
                                  sum, p->node_names[node], crowded, p->cores_per_node);
        g_free(sum);
        return s;
    }
    int least = 0;
    for (int i = 1; i < r->nranks; i++)
        if (r->ranks[i].blocked < r->ranks[least].blocked)
            least = i;
    return g_strdup_printf("waiting: %.0f%% of rank time is spent waiting for other ranks (load "
                           "imbalance or dependencies; rank %d waits least)",
                           pct(t.blocked, t.all), least);
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

static void print_report(FILE *out, const prediction *r, const placed *pl, const pm_platform *p,
                         const char *prog, const char *trace_path, const char *svg_path) {
    out_print_finding_list(stderr, r->findings);
    fprintf(out, "ordex predict: %s, %d rank%s on %s (%d node%s x %d core%s)\n", prog, r->nranks,
            r->nranks == 1 ? "" : "s", p->source, p->nodes, p->nodes == 1 ? "" : "s",
            p->cores_per_node, p->cores_per_node == 1 ? "" : "s");
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
                "predicted time: %s (%.9f s), the mean of %d placements of the polling ranks "
                "on the cores\n",
                mean, pl->mean, pl->finished);
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
    totals t = totals_of(r);
    double n = r->nranks;
    print_rank_line(out, "mean", r->makespan, t.compute / n, t.comm / n, t.blocked / n);
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
    char *crit = critical_resource(r, p);
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
    fprintf(out, "simulated in %.3f s\n", r->elapsed_s);
}

static void json_number(GString *s, double v) {
    if (isfinite(v))
        g_string_append_printf(s, "%.9g", v);
    else
        g_string_append(s, "null");
}

/* Appends `prefix` (a key with its punctuation) and the number. */
static void json_field(GString *s, const char *prefix, double v) {
    g_string_append(s, prefix);
    json_number(s, v);
}

static void json_prediction(GString *s, const prediction *r, const placed *pl,
                            const pm_platform *p, const char *trace_path, const char *svg_path) {
    g_string_append(s, "  \"predicted_time_s\": ");
    if (r->finished)
        json_number(s, pl->count > 0 ? pl->mean : r->makespan);
    else
        g_string_append(s, "null");
    g_string_append(s, ",\n  \"placements\": ");
    if (pl->count > 0) {
        g_string_append(s, "{\"times_s\": [");
        for (int i = 0; i < pl->count; i++) {
            g_string_append(s, i ? ", " : "");
            json_number(s, pl->times[i]);
        }
        g_string_append_printf(s, "], \"shown\": %u", pl->shown);
        json_field(s, ", \"standard_error_s\": ", pl->std_error);
        json_field(s, ", \"shown_time_s\": ", r->finished ? r->makespan : NAN);
        g_string_append(s, "}");
    } else {
        g_string_append(s, "null");
    }
    g_string_append(s, ",\n  \"platform\": ");
    out_json_string(s, p->source);
    g_string_append_printf(s, ",\n  \"nodes\": %d, \"cores_per_node\": %d,\n", p->nodes,
                           p->cores_per_node);
    totals t = totals_of(r);
    json_field(s, "  \"totals\": {\"compute_s\": ", t.compute);
    json_field(s, ", \"comm_s\": ", t.comm);
    json_field(s, ", \"blocked_s\": ", t.blocked);
    json_field(s, ", \"core_wait_s\": ", t.core_wait);
    g_string_append(s, "},\n  \"critical_resource\": ");
    char *crit = critical_resource(r, p);
    out_json_string(s, crit);
    g_free(crit);
    g_string_append(s, ",\n  \"busiest_link\": ");
    if (r->busiest_link) {
        g_string_append(s, "{\"name\": ");
        out_json_string(s, r->busiest_link);
        json_field(s, ", \"bytes\": ", r->busiest_bytes);
        json_field(s, ", \"busy_s\": ", r->busiest_busy);
        json_field(s, ", \"capacity_Bps\": ", r->busiest_capacity);
        g_string_append(s, "}");
    } else {
        g_string_append(s, "null");
    }
    g_string_append(s, ",\n  \"links\": [");
    for (guint i = 0; i < r->links->len; i++) {
        const pm_net_link_stats *ls = &g_array_index(r->links, pm_net_link_stats, i);
        g_string_append(s, i ? ", {\"name\": " : "{\"name\": ");
        out_json_string(s, ls->name);
        json_field(s, ", \"bytes\": ", ls->bytes);
        json_field(s, ", \"busy_s\": ", ls->busy);
        json_field(s, ", \"utilisation\": ", r->makespan > 0 ? ls->busy / r->makespan : 0);
        g_string_append(s, "}");
    }
    g_string_append(s, "],\n  \"ranks\": [");
    for (int i = 0; i < r->nranks; i++) {
        const sim_timed_rank *x = &r->ranks[i];
        g_string_append_printf(s, "%s\n    {\"rank\": %d, \"node\": %d, \"end_s\": ", i ? "," : "",
                               i, x->node);
        json_number(s, x->end >= 0 ? x->end : NAN);
        json_field(s, ", \"compute_s\": ", x->compute);
        json_field(s, ", \"comm_s\": ", x->comm);
        json_field(s, ", \"blocked_s\": ", x->blocked);
        json_field(s, ", \"core_wait_s\": ", x->core_wait);
        g_string_append_printf(s,
                               ", \"mpi_calls\": %" G_GUINT64_FORMAT
                               ", \"messages_sent\": %" G_GUINT64_FORMAT
                               ", \"bytes_sent\": %" G_GUINT64_FORMAT "}",
                               x->calls, x->messages_sent, x->bytes_sent);
    }
    g_string_append(s, "\n  ],\n  \"timeline\": {\"chrome_trace\": ");
    if (trace_path)
        out_json_string(s, trace_path);
    else
        g_string_append(s, "null");
    g_string_append(s, ", \"svg\": ");
    if (svg_path)
        out_json_string(s, svg_path);
    else
        g_string_append(s, "null");
    g_string_append(s, "},\n  \"findings\": ");
    out_json_findings(s, r->findings, "  ");
    g_string_append_printf(
        s, ",\n  \"stats\": {\"messages\": %" G_GUINT64_FORMAT ", \"elapsed_s\": ", r->messages);
    json_number(s, r->elapsed_s);
    g_string_append(s, "}");
}

static bool write_file(const char *path, GString *s) {
    GError *err = NULL;
    if (g_file_set_contents(path, s->str, (gssize)s->len, &err))
        return true;
    fprintf(stderr, "ordex predict: cannot write %s: %s\n", path, err->message);
    g_error_free(err);
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

typedef enum value_kind { V_TIME, V_BANDWIDTH, V_SIZE, V_NUMBER, V_WORD } value_kind;

/* Platform keys a sweep may name without their section, and how their values
 * read (for the plot's x axis). */
static const struct {
    const char *key, *section;
    value_kind kind;
} sweep_keys[] = {
    {"latency", "network", V_TIME},          {"bandwidth", "network", V_BANDWIDTH},
    {"eager_limit", "network", V_SIZE},      {"rendezvous_handshake", "network", V_TIME},
    {"send_overhead", "network", V_TIME},    {"send_overhead_per_byte", "network", V_TIME},
    {"recv_overhead", "network", V_TIME},    {"recv_overhead_per_byte", "network", V_TIME},
    {"topology", "network", V_WORD},         {"nodes", "cluster", V_NUMBER},
    {"cores_per_node", "cluster", V_NUMBER}, {"speed", "cluster", V_NUMBER},
    {"mapping", "cluster", V_WORD},          {"oversubscribe", "cluster", V_WORD},
    {"nodes_per_leaf", "fattree", V_NUMBER}, {"uplink_bandwidth", "fattree", V_BANDWIDTH},
};

typedef struct sweep {
    char *key; /* "network.bandwidth" */
    value_kind kind;
    char **values; /* as written */
    int n;
    double *x, *y;
} sweep;

static void sweep_clear(sweep *s) {
    g_free(s->key);
    g_strfreev(s->values);
    g_free(s->x);
    g_free(s->y);
}

/* Parses "KEY=V1,V2,..." into s.  False after printing the problem. */
static bool sweep_parse(const char *spec, sweep *s) {
    memset(s, 0, sizeof *s);
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) {
        fprintf(stderr,
                "ordex predict: --sweep %s: expected KEY=V1,V2,... (e.g. "
                "--sweep bandwidth=1GBps,10GBps)\n",
                spec);
        return false;
    }
    char *key = g_strndup(spec, (gsize)(eq - spec));
    const char *dot = strchr(key, '.');
    const char *bare = dot ? dot + 1 : key;
    int found = -1;
    for (size_t i = 0; i < G_N_ELEMENTS(sweep_keys) && found < 0; i++)
        if (strcmp(bare, sweep_keys[i].key) == 0 &&
            (!dot || strncmp(key, sweep_keys[i].section, (size_t)(dot - key)) == 0))
            found = (int)i;
    s->kind = found >= 0 ? sweep_keys[found].kind : V_WORD;
    if (dot) {
        s->key = key; /* any section.key: the platform loader checks it */
    } else if (found >= 0) {
        s->key = g_strdup_printf("%s.%s", sweep_keys[found].section, key);
        g_free(key);
    } else {
        fprintf(stderr,
                "ordex predict: --sweep %s: unknown key '%s' (give it as SECTION.KEY, "
                "e.g. network.latency)\n",
                spec, key);
        g_free(key);
        return false;
    }
    s->values = g_strsplit(eq + 1, ",", -1);
    s->n = (int)g_strv_length(s->values);
    s->x = g_new(double, s->n);
    s->y = g_new(double, s->n);
    for (int i = 0; i < s->n; i++) {
        char *problem = NULL;
        uint64_t size = 0;
        bool ok = true;
        g_strstrip(s->values[i]);
        s->x[i] = i;
        switch (s->kind) {
        case V_TIME:
            ok = pm_platform_parse_time(s->values[i], &s->x[i], &problem);
            break;
        case V_BANDWIDTH:
            ok = pm_platform_parse_bandwidth(s->values[i], &s->x[i], &problem);
            break;
        case V_SIZE:
            ok = pm_platform_parse_size(s->values[i], &size, &problem);
            s->x[i] = (double)size;
            break;
        case V_NUMBER: {
            char *end;
            s->x[i] = g_ascii_strtod(s->values[i], &end);
            ok = end != s->values[i] && !*end;
            if (!ok)
                problem = g_strdup_printf("\"%s\" is not a number", s->values[i]);
            break;
        }
        case V_WORD:
            break;
        }
        if (!ok || !*s->values[i]) {
            fprintf(stderr, "ordex predict: --sweep %s: %s\n", spec,
                    problem ? problem : "empty value");
            g_free(problem);
            sweep_clear(s);
            return false;
        }
    }
    return true;
}

static const char *unit_of(value_kind k) {
    switch (k) {
    case V_TIME:
        return "s";
    case V_BANDWIDTH:
        return "B/s";
    case V_SIZE:
        return "B";
    default:
        return "";
    }
}

/* The overrides of the base run plus key=value. */
static char **overrides_with(char **sets, const char *key, const char *value) {
    int n = sets ? (int)g_strv_length(sets) : 0;
    char **all = g_new0(char *, n + 2);
    for (int i = 0; i < n; i++)
        all[i] = g_strdup(sets[i]);
    all[n] = g_strdup_printf("%s=%s", key, value);
    return all;
}

/* Predicts in a child process (each point loads the program afresh) and
 * returns the makespan, NAN when the program did not finish, or -1 when
 * ordex failed. */
static double predict_in_child(const ordex_opts *o, const pm_platform *p, const char *so,
                               const char *prog, int argc, char **argv, unsigned placement) {
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        prediction r;
        double v = -1;
        if (simulate(o, p, so, prog, argc, argv, false, true, placement, &r)) {
            v = r.finished ? r.makespan : NAN;
            prediction_clear(&r);
        }
        ssize_t w = write(fd[1], &v, sizeof v);
        _exit(w == (ssize_t)sizeof v ? 0 : 3);
    }
    close(fd[1]);
    double v = -1;
    ssize_t got = read(fd[0], &v, sizeof v);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return got == (ssize_t)sizeof v ? v : -1;
}

/* Simulates placements 1 to o->placements, each in a child, when the
 * placement matters on p; *out stays empty (count 0) when it does not.
 * False when ordex failed. */
static bool simulate_placements(const ordex_opts *o, const pm_platform *p, const char *so,
                                const char *prog, int argc, char **argv, placed *out) {
    memset(out, 0, sizeof *out);
    if (o->placements < 1 || !sim_timed_placement_matters(p, o->nranks))
        return true;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    out->count = o->placements;
    out->times = g_new(double, out->count);
    out->min = INFINITY;
    out->max = -INFINITY;
    double sum = 0;
    for (int i = 0; i < out->count; i++) {
        double t = predict_in_child(o, p, so, prog, argc, argv, (unsigned)i + 1);
        if (t < 0)
            return false;
        out->times[i] = t;
        if (isnan(t))
            continue;
        out->finished++;
        sum += t;
        out->min = fmin(out->min, t);
        out->max = fmax(out->max, t);
    }
    out->mean = out->finished ? sum / out->finished : NAN;
    double squares = 0;
    for (int i = 0; i < out->count; i++)
        if (!isnan(out->times[i]))
            squares += (out->times[i] - out->mean) * (out->times[i] - out->mean);
    out->std_error = out->finished > 1 ? sqrt(squares / (out->finished - 1) / out->finished) : NAN;
    out->elapsed_s = seconds_since(&t0);
    /* A placement in which the program did not finish has a finding (a
     * deadlock or an error that needs its timing): that one is shown. */
    out->shown = 1;
    for (int i = 1; i < out->count && !isnan(out->times[out->shown - 1]); i++)
        if (isnan(out->times[i]) ||
            fabs(out->times[i] - out->mean) < fabs(out->times[out->shown - 1] - out->mean))
            out->shown = (unsigned)i + 1;
    return true;
}

static void placed_clear(placed *pl) {
    g_free(pl->times);
    memset(pl, 0, sizeof *pl);
}

/* One sweep point's time: the mean over the placements when they matter
 * (NAN, "did not finish", when one of them did not: it has a finding). */
static double predict_point(const ordex_opts *o, const pm_platform *p, const char *so,
                            const char *prog, int argc, char **argv) {
    placed pl;
    if (!simulate_placements(o, p, so, prog, argc, argv, &pl)) {
        placed_clear(&pl);
        return -1;
    }
    double t = !pl.count                 ? predict_in_child(o, p, so, prog, argc, argv, 0)
               : pl.finished == pl.count ? pl.mean
                                         : NAN;
    placed_clear(&pl);
    return t;
}

static int run_sweeps(ordex_opts *o, const char *so, const char *prog, int argc, char **argv) {
    int nsweeps = (int)g_strv_length(o->sweeps);
    sweep *sw = g_new0(sweep, nsweeps);
    int status = 0;
    for (int i = 0; i < nsweeps; i++)
        if (!sweep_parse(o->sweeps[i], &sw[i])) {
            for (int k = 0; k < i; k++)
                sweep_clear(&sw[k]);
            g_free(sw);
            return 2;
        }
    printf("ordex predict: %s, %d rank%s, sweeping %d parameter%s\n\n", prog, o->nranks,
           o->nranks == 1 ? "" : "s", nsweeps, nsweeps == 1 ? "" : "s");
    for (int i = 0; i < nsweeps && status != 2; i++) {
        printf("  %-28s %16s\n", sw[i].key, "predicted time");
        for (int k = 0; k < sw[i].n; k++) {
            char **over = overrides_with(o->sets, sw[i].key, sw[i].values[k]);
            GError *err = NULL;
            pm_platform *p = pm_platform_load(o->platform, (const char *const *)over, &err);
            g_strfreev(over);
            if (!p) {
                fprintf(stderr, "ordex predict: %s\n", err->message);
                g_error_free(err);
                status = 2;
                break;
            }
            int *map = g_new(int, o->nranks);
            bool fits = pm_platform_map(p, o->nranks, map, &err);
            g_free(map);
            if (!fits) {
                fprintf(stderr, "ordex predict: with %s=%s: %s\n", sw[i].key, sw[i].values[k],
                        err->message);
                g_error_free(err);
                pm_platform_free(p);
                status = 2;
                break;
            }
            double t = predict_point(o, p, so, prog, argc, argv);
            pm_platform_free(p);
            if (t < 0) {
                fprintf(stderr, "ordex predict: the simulation with %s=%s failed\n", sw[i].key,
                        sw[i].values[k]);
                status = 2;
                break;
            }
            sw[i].y[k] = t;
            char *ts = isnan(t) ? g_strdup("did not finish") : qty(t, "s");
            printf("  %-28s %16s\n", sw[i].values[k], ts);
            g_free(ts);
            if (isnan(t))
                status = 1;
        }
        printf("\n");
    }
    if (status != 2) {
        out_sweep_series *series = g_new0(out_sweep_series, nsweeps);
        for (int i = 0; i < nsweeps; i++) {
            series[i].param = sw[i].key;
            series[i].unit = unit_of(sw[i].kind);
            series[i].n = sw[i].n;
            series[i].x = sw[i].x;
            series[i].y = sw[i].y;
            series[i].x_labels = (const char *const *)sw[i].values;
        }
        char *svg = o->no_timeline ? NULL
                    : o->svg       ? g_strdup(o->svg)
                                   : default_output(prog, ".sweep.svg");
        if (svg) {
            char *title = g_strdup_printf("%s: predicted time, %d ranks", prog, o->nranks);
            GError *err = NULL;
            if (out_tl_write_sweep_svg(series, nsweeps, svg, title, &err)) {
                printf("plot: %s\n", svg);
            } else {
                fprintf(stderr, "ordex predict: %s\n", err->message);
                g_error_free(err);
                status = 2;
            }
            g_free(title);
        }
        if (o->json && status != 2) {
            GString *s = g_string_new("{\n  \"verdict\": ");
            g_string_append(s, status == 1 ? "\"error\"" : "\"ok\"");
            g_string_append(s, ",\n  \"program\": ");
            out_json_string(s, prog);
            g_string_append(s, ",\n  \"sweeps\": [");
            for (int i = 0; i < nsweeps; i++) {
                g_string_append(s, i ? ",\n    {\"param\": " : "\n    {\"param\": ");
                out_json_string(s, sw[i].key);
                g_string_append(s, ", \"points\": [");
                for (int k = 0; k < sw[i].n; k++) {
                    g_string_append(s, k ? ", {\"value\": " : "{\"value\": ");
                    out_json_string(s, sw[i].values[k]);
                    json_field(s, ", \"x\": ", sw[i].x[k]);
                    json_field(s, ", \"predicted_time_s\": ", sw[i].y[k]);
                    g_string_append(s, "}");
                }
                g_string_append(s, "]}");
            }
            g_string_append(s, "\n  ],\n  \"plot\": ");
            if (svg)
                out_json_string(s, svg);
            else
                g_string_append(s, "null");
            g_string_append(s, "\n}\n");
            if (!write_file(o->json, s))
                status = 2;
            g_string_free(s, TRUE);
        }
        g_free(svg);
        g_free(series);
    }
    for (int i = 0; i < nsweeps; i++)
        sweep_clear(&sw[i]);
    g_free(sw);
    return status;
}

/* ---------------------------------------------------------------------- */
/* The command                                                             */

static int predict_single(ordex_opts *o, const pm_platform *p, const char *so, const char *prog,
                          int argc, char **argv) {
    bool record = !o->no_timeline;
    placed pl;
    if (!simulate_placements(o, p, so, prog, argc, argv, &pl)) {
        fprintf(stderr, "ordex predict: the simulation of a placement of the ranks failed\n");
        placed_clear(&pl);
        return 2;
    }
    prediction r;
    if (!simulate(o, p, so, prog, argc, argv, record, false, pl.shown, &r)) {
        placed_clear(&pl);
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
        GError *err = NULL;
        char *title = g_strdup_printf("%s on %s, %d ranks", prog, p->source, o->nranks);
        if (!out_tl_write_chrome(r.timeline, trace, &err) ||
            !out_tl_write_svg(r.timeline, svg, title, &err)) {
            fprintf(stderr, "ordex predict: %s\n", err->message);
            g_error_free(err);
            status = 2;
        }
        g_free(title);
    }
    fflush(stdout);
    print_report(stdout, &r, &pl, p, prog, trace, svg);
    if (o->json) {
        GString *s = g_string_new("{\n  \"verdict\": ");
        g_string_append(s, status == 0 ? "\"ok\"" : "\"error\"");
        g_string_append(s, ",\n  \"program\": ");
        out_json_string(s, prog);
        g_string_append_printf(s, ",\n  \"nranks\": %d,\n", o->nranks);
        json_prediction(s, &r, &pl, p, trace, svg);
        g_string_append(s, "\n}\n");
        if (!write_file(o->json, s))
            status = 2;
        g_string_free(s, TRUE);
    }
    g_free(trace);
    g_free(svg);
    prediction_clear(&r);
    placed_clear(&pl);
    return status;
}

int ordex_predict(int argc, char **argv) {
    ordex_opts o;
    int prog_index;
    int rc = ordex_parse_common(argc, argv, "predict", &o, &prog_index);
    if (rc != 0)
        return rc;
    if (!o.platform) {
        fprintf(stderr, "ordex predict: missing --platform FILE (the cluster to simulate; see "
                        "docs/platform.md, or make one for this machine with `ordex calibrate`)\n");
        ordex_opts_free(&o);
        return 2;
    }
    if (o.send_mode_given || o.eager_limit != 65536) {
        fprintf(stderr, "ordex predict: --send-mode and --eager-limit do not apply: the "
                        "platform's network.eager_limit decides (e.g. --set "
                        "network.eager_limit=16KiB)\n");
        ordex_opts_free(&o);
        return 2;
    }
    GError *err = NULL;
    pm_platform *p = pm_platform_load(o.platform, (const char *const *)o.sets, &err);
    if (!p) {
        fprintf(stderr, "ordex predict: %s\n", err->message);
        g_error_free(err);
        ordex_opts_free(&o);
        return 2;
    }
    int *map = g_new(int, o.nranks);
    bool fits = pm_platform_map(p, o.nranks, map, &err);
    g_free(map);
    if (!fits) {
        fprintf(stderr, "ordex predict: %s\n", err->message);
        g_error_free(err);
        pm_platform_free(p);
        ordex_opts_free(&o);
        return 2;
    }
    const char *prog = argv[prog_index];
    char *so = ordex_program_prepare(prog, o.nranks, true);
    if (!so) {
        pm_platform_free(p);
        ordex_opts_free(&o);
        return 2;
    }
    int pargc = argc - prog_index;
    char **pargv = argv + prog_index;
    if (o.sweeps)
        rc = run_sweeps(&o, so, prog, pargc, pargv);
    else
        rc = predict_single(&o, p, so, prog, pargc, pargv);
    g_free(so);
    pm_platform_free(p);
    ordex_opts_free(&o);
    return rc;
}
