/*
 * analysis.c - what a prediction says about where the time goes (see
 * predict.h).
 */
#include "predict/predict.h"

pred_totals pred_totals_of(const pred_result *r) {
    pred_totals t = {0};
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
static int crowded_node(const pred_result *r, const pm_platform *p, int *ranks_there) {
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
char *pred_critical_resource(const pred_result *r, const pm_platform *p) {
    pred_totals t = pred_totals_of(r);
    if (t.all <= 0)
        return g_strdup("none: the ranks spend no simulated time");
    if (t.compute >= t.comm && t.compute >= t.blocked) {
        int crowded;
        int node = crowded_node(r, p, &crowded);
        if (node >= 0)
            return g_strdup_printf("computation: %.0f%% of rank time, on nodes with more ranks "
                                   "than cores (%s runs %d ranks on %d core%s)",
                                   pct(t.compute, t.all), p->node_names[node], crowded,
                                   p->cores_per_node, p->cores_per_node == 1 ? "" : "s");
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
                                  "time (%s runs %d ranks on %d core%s and they poll while they "
                                  "wait in MPI, so a rank whose wait has ended goes on only at "
                                  "its next time slice)",
                                  sum, p->node_names[node], crowded, p->cores_per_node,
                                  p->cores_per_node == 1 ? "" : "s");
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
