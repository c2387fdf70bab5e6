/*
 * simulate.c - one prediction's simulations: the program under simulated
 * time, once or once per placement of its polling ranks (see predict.h).
 */
#define _GNU_SOURCE
#include "predict/predict.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scheduler/access_hook.h"
#include "scheduler/sched.h"
#include "simulator/events.h"
#include "simulator/sim.h"

static void finding_copy_free(gpointer p) {
    sim_finding *f = p;
    g_free(f->ranks);
    g_free(f->message);
    g_free(f->details);
    g_free(f->location);
    g_free(f);
}

void pred_result_clear(pred_result *r) {
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

static bool choose_timed(void *user) {
    uint64_t *events = user;
    if (!sim_timed_step()) /* ranks that poll in vain go on; else the end */
        return sim_events_release_pollers(false);
    (*events)++;
    return true;
}

bool pred_simulate(const pred_options *o, const pm_platform *p, bool record, bool quiet,
                   unsigned placement, pred_result *out, char **err) {
    memset(out, 0, sizeof *out);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sg_rundesc run = o->run;
    run.reuse_freed_memory = true;
    /* The engine buffers standard sends below its limit; the platform's
     * eager_limit is the largest eager message. */
    run.send_mode = SIM_SEND_EAGER_BELOW_LIMIT;
    run.eager_limit = (size_t)p->eager_limit + 1;
    /* A program built with the instrumentation of loads and stores (a .so
     * from ordexcc) keeps its calls disarmed: checked, its accesses to
     * window memory would cost many times the computation measured here. */
    sched_access_set_ignored(true);
    if (!sg_rundesc_load(&run, err))
        return false;
    if (quiet)
        sched_discard_output(true);
    sim_config cfg;
    sg_rundesc_sim_config(&run, &cfg);
    sim_create(&cfg);
    GError *gerr = NULL;
    if (!sim_timed_start(p, record, placement, &gerr)) {
        *err = g_strdup(gerr->message);
        g_error_free(gerr);
        sim_destroy();
        sched_fini();
        return false;
    }
    sim_timed_ignore_measured(o->ignore_compute);
    uint64_t events = 0;
    sched_run_result rr = sched_run(choose_timed, &events);
    if (sim_timed_failure()) {
        sched_flush_output();
        fflush(stdout);
        *err = g_strdup(sim_timed_failure());
        sim_timed_stop();
        sim_destroy();
        sched_fini();
        return false;
    }
    if (rr != SCHED_RUN_STOPPED)
        sim_conclude(rr == SCHED_RUN_STUCK);
    sched_flush_output();
    fflush(stdout);

    out->nranks = run.nranks;
    out->ranks = g_new(sim_timed_rank, run.nranks);
    out->finished = rr == SCHED_RUN_COMPLETE;
    for (int r = 0; r < run.nranks; r++) {
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
        c->warning = f->warning;
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
        out->timeline = timeline_of(p, run.nranks);
    sim_timed_measurement(&out->measure);
    out->measure.instrumented = sched_access_instrumented();
    sim_timed_stop();
    sim_destroy();
    sched_fini();
    out->elapsed_s = seconds_since(&t0);
    return true;
}

/* The child simulating a placement, while one runs. */
static volatile pid_t g_child;

void pred_interrupt(int sig) {
    sg_run_interrupt(sig);
    pid_t c = g_child;
    if (c > 0)
        kill(c, SIGKILL);
}

bool pred_measure_disturbed(const sim_timed_measure *m) {
    /* Wall-clock time the computation lost is either preemption (the OS ran
     * other work) or the ranks' own blocking (sleep, I/O): only the first
     * disturbs, and it shows as more involuntary than voluntary switches. */
    double lost = m->compute_wall_s - m->compute_cpu_s;
    return m->involuntary_switches > m->voluntary_switches && lost > 1e-3 &&
           lost > m->compute_cpu_s / 10;
}

static void measure_add(sim_timed_measure *sum, const sim_timed_measure *m) {
    sum->compute_cpu_s += m->compute_cpu_s;
    sum->compute_wall_s += m->compute_wall_s;
    sum->involuntary_switches += m->involuntary_switches;
    sum->voluntary_switches += m->voluntary_switches;
    sum->instrumented |= m->instrumented;
}

/* What a child tells: the makespan and how it measured. */
typedef struct child_answer {
    double makespan;
    sim_timed_measure measure;
} child_answer;

/* Predicts in a child process (each point loads the program afresh) and
 * returns the makespan, NAN when the program did not finish, or -1 when
 * ordex failed (the child said why on stderr) or was interrupted; adds the
 * child's measurement to *measure (when not NULL). */
static double predict_in_child(const pred_options *o, const pm_platform *p, unsigned placement,
                               sim_timed_measure *measure) {
    if (sg_run_interrupted())
        return -1;
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* it must not outlive ordex */
        if (getppid() != parent)
            _exit(3);
        close(fd[0]);
        pred_result r;
        child_answer a = {-1, {0, 0, 0, 0, false}};
        char *err = NULL;
        if (pred_simulate(o, p, false, true, placement, &r, &err)) {
            a.makespan = r.finished ? r.makespan : NAN;
            a.measure = r.measure;
            pred_result_clear(&r);
        } else {
            fprintf(stderr, "ordex predict: %s\n", err);
            g_free(err);
        }
        ssize_t w = write(fd[1], &a, sizeof a);
        _exit(w == (ssize_t)sizeof a ? 0 : 3);
    }
    g_child = pid;
    if (sg_run_interrupted()) /* before g_child was set: the handler could not end it */
        kill(pid, SIGKILL);
    close(fd[1]);
    child_answer a = {-1, {0, 0, 0, 0, false}};
    ssize_t got;
    while ((got = read(fd[0], &a, sizeof a)) < 0 && errno == EINTR)
        ;
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    g_child = 0;
    if (got != (ssize_t)sizeof a || sg_run_interrupted())
        return -1;
    if (measure)
        measure_add(measure, &a.measure);
    return a.makespan;
}

bool pred_simulate_placements(const pred_options *o, const pm_platform *p, pred_placements *out) {
    memset(out, 0, sizeof *out);
    if (o->placements < 1 || !sim_timed_placement_matters(p, o->run.nranks))
        return true;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    out->count = o->placements;
    out->times = g_new(double, out->count);
    out->min = INFINITY;
    out->max = -INFINITY;
    double sum = 0;
    for (int i = 0; i < out->count; i++) {
        double t = predict_in_child(o, p, (unsigned)i + 1, &out->measure);
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

void pred_placements_clear(pred_placements *pl) {
    g_free(pl->times);
    memset(pl, 0, sizeof *pl);
}

double pred_time(const pred_options *o, const pm_platform *p, sim_timed_measure *measure) {
    pred_placements pl;
    if (!pred_simulate_placements(o, p, &pl)) {
        pred_placements_clear(&pl);
        return -1;
    }
    if (measure)
        measure_add(measure, &pl.measure);
    double t = !pl.count                 ? predict_in_child(o, p, 0, measure)
               : pl.finished == pl.count ? pl.mean
                                         : NAN;
    pred_placements_clear(&pl);
    return t;
}
