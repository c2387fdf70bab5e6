/*
 * models.c - speed of the prediction models (simulator/cpumodel.c and
 * simulator/netmodel.c) under the load of a 1024-rank stencil program.
 *
 * No program runs: this drives the two models directly, the way `ordex
 * predict` would for a program in which every rank, each step, computes
 * about 1 ms (uniform jitter of +-10% by default, fixed seed), sends 8 KiB to each of
 * its two ring neighbours and waits for its two sends and two receives.
 * The platform is 64 nodes of 16 cores on a crossbar with block mapping,
 * so most messages stay on a node (shared-memory link) and the ones at node
 * boundaries cross the nodes' tx and rx links.
 *
 * It prints the number of model operations (starts, advances, next-event
 * queries), the wall time of the whole loop and per operation, and the
 * predicted run time, which must not change when only the models' speed
 * does.  Results go to bench/RESULTS.md ("Prediction models").
 */
#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "perfmodel/cpumodel.h"
#include "perfmodel/netmodel.h"
#include "perfmodel/platform.h"

static const char *const PLATFORM = "[cluster]\n"
                                    "nodes = 64\n"
                                    "cores_per_node = 16\n"
                                    "mapping = block\n"
                                    "[network]\n"
                                    "topology = crossbar\n"
                                    "latency = 1.5us\n"
                                    "bandwidth = 12.5GBps\n"
                                    "eager_limit = 64KiB\n"
                                    "[intranode]\n"
                                    "latency = 0.3us\n"
                                    "bandwidth = 20GBps\n";

#define MESSAGE_BYTES 8192
#define WORK 1e-3

typedef struct rank_state {
    int step;
    int sends_left; /* of this step's two sends */
    int recvs[2];   /* receives of steps of each parity: a neighbour runs at most one ahead */
} rank_state;

typedef struct transfer {
    int src, dst, step;
} transfer;

typedef struct bench {
    int nranks, steps;
    double jitter; /* relative spread of the work per step */
    const pm_platform *platform;
    int *node_of;
    rank_state *ranks;
    pm_cpu *cpu;
    pm_net *net;
    GRand *rand;
    GArray *rank_of_job; /* int, indexed by CPU job id */
    GArray *transfer_of; /* transfer, indexed by network transfer id */
    uint64_t cpu_starts, cpu_advances, cpu_nexts, net_starts, net_advances, net_nexts;
    double cpu_seconds, net_seconds; /* wall time inside each model's calls */
    double end;                      /* when the last rank finished */
} bench;

static double wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void compute(bench *b, int r, double t) {
    double work =
        WORK * (b->jitter > 0 ? g_rand_double_range(b->rand, 1 - b->jitter, 1 + b->jitter) : 1);
    double w0 = wall();
    uint64_t id = pm_cpu_start(b->cpu, t, b->node_of[r], work);
    b->cpu_seconds += wall() - w0;
    b->cpu_starts++;
    if (id == 0) {
        fprintf(stderr, "models: pm_cpu_start refused a job\n");
        exit(2);
    }
    if (b->rank_of_job->len <= id)
        g_array_set_size(b->rank_of_job, (guint)id + 1);
    g_array_index(b->rank_of_job, int, id) = r;
}

static void send(bench *b, int src, int dst, double t) {
    bool rdv = pm_platform_is_rendezvous(b->platform, MESSAGE_BYTES);
    double w0 = wall();
    uint64_t id = pm_net_start(b->net, t, b->node_of[src], b->node_of[dst], MESSAGE_BYTES, rdv);
    b->net_seconds += wall() - w0;
    b->net_starts++;
    if (id == 0) {
        fprintf(stderr, "models: pm_net_start refused a transfer\n");
        exit(2);
    }
    if (b->transfer_of->len <= id)
        g_array_set_size(b->transfer_of, (guint)id + 1);
    transfer tr = {src, dst, b->ranks[src].step};
    g_array_index(b->transfer_of, transfer, id) = tr;
}

/* A rank whose step is complete (both sends and both receives done) starts
 * the next one at t. */
static void maybe_next_step(bench *b, int r, double t) {
    rank_state *rs = &b->ranks[r];
    if (rs->step >= b->steps || rs->sends_left != 0 || rs->recvs[rs->step % 2] < 2)
        return;
    rs->recvs[rs->step % 2] = 0;
    rs->step++;
    if (rs->step < b->steps) {
        rs->sends_left = -1; /* computing */
        compute(b, r, t);
    } else {
        b->end = fmax(b->end, t);
    }
}

static void run(bench *b, bool lookahead) {
    GArray *cdone = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    GArray *ndone = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    for (int r = 0; r < b->nranks; r++) {
        b->ranks[r].sends_left = -1;
        compute(b, r, 0);
    }
    for (;;) {
        uint64_t id;
        double tc = INFINITY, tn = INFINITY, w0 = wall();
        bool hc = pm_cpu_next(b->cpu, &id, &tc);
        double w1 = wall();
        bool hn = lookahead ? pm_net_next(b->net, &id, &tn) : pm_net_next_event(b->net, &tn);
        double w2 = wall();
        b->cpu_seconds += w1 - w0;
        b->net_seconds += w2 - w1;
        b->cpu_nexts++;
        b->net_nexts++;
        if (!hc && !hn)
            break;
        double t = fmin(tc, tn);
        if (tc <= t) {
            g_array_set_size(cdone, 0);
            w0 = wall();
            pm_cpu_advance(b->cpu, t, cdone);
            b->cpu_seconds += wall() - w0;
            b->cpu_advances++;
            for (guint i = 0; i < cdone->len; i++) {
                const pm_cpu_completion *c = &g_array_index(cdone, pm_cpu_completion, i);
                int r = g_array_index(b->rank_of_job, int, c->id);
                b->ranks[r].sends_left = 2;
                send(b, r, (r + b->nranks - 1) % b->nranks, t);
                send(b, r, (r + 1) % b->nranks, t);
            }
        }
        if (tn <= t) {
            g_array_set_size(ndone, 0);
            w0 = wall();
            pm_net_advance(b->net, t, ndone);
            b->net_seconds += wall() - w0;
            b->net_advances++;
            for (guint i = 0; i < ndone->len; i++) {
                const pm_net_completion *c = &g_array_index(ndone, pm_net_completion, i);
                const transfer *tr = &g_array_index(b->transfer_of, transfer, c->id);
                b->ranks[tr->src].sends_left--;
                b->ranks[tr->dst].recvs[tr->step % 2]++;
                maybe_next_step(b, tr->src, t);
                if (tr->dst != tr->src)
                    maybe_next_step(b, tr->dst, t);
            }
        }
    }
    g_array_free(cdone, TRUE);
    g_array_free(ndone, TRUE);
}

int main(int argc, char **argv) {
    gint nranks = 1024, steps = 100;
    gboolean lookahead = FALSE;
    double jitter = 0.1;
    GOptionEntry entries[] = {
        {"ranks", 'n', 0, G_OPTION_ARG_INT, &nranks, "ranks (default 1024)", "N"},
        {"steps", 's', 0, G_OPTION_ARG_INT, &steps, "stencil steps (default 100)", "N"},
        {"jitter", 'j', 0, G_OPTION_ARG_DOUBLE, &jitter,
         "relative spread of the work per step, uniform (default 0.1; 0: all ranks in lock step)",
         "X"},
        {"lookahead", 0, 0, G_OPTION_ARG_NONE, &lookahead,
         "step the network by pm_net_next (first completion) instead of every event", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GError *error = NULL;
    GOptionContext *ctx = g_option_context_new("- speed of the prediction models");
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error) || nranks < 3 || steps < 1 ||
        !(jitter >= 0 && jitter < 1)) {
        fprintf(stderr, "models: %s\n",
                error ? error->message : "need --ranks >= 3, --steps >= 1, 0 <= --jitter < 1");
        g_clear_error(&error);
        g_option_context_free(ctx);
        return 2;
    }
    g_option_context_free(ctx);

    pm_platform *p = pm_platform_load_data("models.ini", PLATFORM, NULL, &error);
    if (!p) {
        fprintf(stderr, "models: %s\n", error->message);
        g_error_free(error);
        return 2;
    }
    bench b = {.nranks = nranks, .steps = steps, .jitter = jitter, .platform = p};
    b.node_of = g_new(int, nranks);
    if (!pm_platform_map(p, nranks, b.node_of, &error)) {
        fprintf(stderr, "models: %s\n", error->message);
        g_error_free(error);
        return 2;
    }
    b.ranks = g_new0(rank_state, nranks);
    b.cpu = pm_cpu_new(p->nodes, p->cores_per_node, p->speed);
    b.net = pm_net_new(p);
    b.rand = g_rand_new_with_seed(42);
    b.rank_of_job = g_array_new(FALSE, TRUE, sizeof(int));
    b.transfer_of = g_array_new(FALSE, TRUE, sizeof(transfer));

    double t0 = wall();
    run(&b, lookahead);
    double total = wall() - t0;

    uint64_t ops =
        b.cpu_starts + b.cpu_advances + b.cpu_nexts + b.net_starts + b.net_advances + b.net_nexts;
    printf("platform: %d nodes x %d cores, crossbar; %d ranks x %d steps, jitter %g; network "
           "stepped by %s\n",
           p->nodes, p->cores_per_node, nranks, steps, jitter,
           lookahead ? "pm_net_next" : "pm_net_next_event");
    printf("cpu: %" G_GUINT64_FORMAT " starts, %" G_GUINT64_FORMAT " advances, %" G_GUINT64_FORMAT
           " next\n",
           b.cpu_starts, b.cpu_advances, b.cpu_nexts);
    printf("net: %" G_GUINT64_FORMAT " starts, %" G_GUINT64_FORMAT " advances, %" G_GUINT64_FORMAT
           " next\n",
           b.net_starts, b.net_advances, b.net_nexts);
    printf("operations: %" G_GUINT64_FORMAT "\n", ops);
    printf("total: %.3f s (in cpu model %.3f s, in net model %.3f s)\n", total, b.cpu_seconds,
           b.net_seconds);
    printf("per operation: %.0f ns\n", 1e9 * total / (double)ops);
    printf("predicted run time: %.9f s\n", b.end);

    g_array_free(b.rank_of_job, TRUE);
    g_array_free(b.transfer_of, TRUE);
    g_rand_free(b.rand);
    pm_net_free(b.net);
    pm_cpu_free(b.cpu);
    g_free(b.ranks);
    g_free(b.node_of);
    pm_platform_free(p);
    return 0;
}
