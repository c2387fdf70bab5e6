/*
 * platform_query.c - what a loaded platform says (see platform.h): on which
 * node each rank runs, and a message's segment, intra-node line, protocol
 * and overheads by its size.  Loading is platform.c's job.
 */
#include "perfmodel/platform.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* ---------------------------------------------------------------------- */
/* Queries                                                                 */

bool pm_platform_map(const pm_platform *p, int nranks, int *node_of_rank, GError **error) {
    g_return_val_if_fail(p != NULL && nranks >= 1 && node_of_rank != NULL, false);
    int64_t cores = (int64_t)p->nodes * p->cores_per_node;
    /* Block fills each node's cores in turn; when the ranks outnumber the
     * cores it spreads them evenly instead, so that no node is left empty
     * while another runs twice its share. */
    int64_t per = nranks <= cores ? p->cores_per_node : (nranks + p->nodes - 1) / p->nodes;
    for (int r = 0; r < nranks; r++) {
        switch (p->mapping) {
        case PM_PLATFORM_MAP_BLOCK:
            node_of_rank[r] = (int)(r / per);
            break;
        case PM_PLATFORM_MAP_ROUND_ROBIN:
            node_of_rank[r] = r % p->nodes;
            break;
        case PM_PLATFORM_MAP_HOSTFILE:
            node_of_rank[r] = p->slots[r % p->nslots];
            break;
        }
    }
    /* Checked per node: a hostfile can overload one node while the total
     * still fits. */
    int *count = g_new0(int, p->nodes);
    for (int r = 0; r < nranks; r++)
        count[node_of_rank[r]]++;
    int worst = 0;
    for (int n = 1; n < p->nodes; n++)
        if (count[n] > count[worst])
            worst = n;
    bool ok = count[worst] <= (double)p->cores_per_node * p->oversubscribe;
    if (!ok) {
        char *limit = p->oversubscribe == 1.0
                          ? g_strdup("oversubscription is not allowed")
                          : g_strdup_printf("the limit is %g ranks per core", p->oversubscribe);
        g_set_error(error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_OVERSUBSCRIBED,
                    "%s: [cluster] oversubscribe: %d ranks do not fit on %d node%s x %d core%s: "
                    "%s would run %d ranks on %d core%s and %s; set oversubscribe = true (or a "
                    "limit of ranks per core, e.g. --set cluster.oversubscribe=2), or run fewer "
                    "ranks",
                    p->oversubscribe_where, nranks, p->nodes, p->nodes == 1 ? "" : "s",
                    p->cores_per_node, p->cores_per_node == 1 ? "" : "s", p->node_names[worst],
                    count[worst], p->cores_per_node, p->cores_per_node == 1 ? "" : "s", limit);
        g_free(limit);
    }
    g_free(count);
    return ok;
}

const pm_platform_segment *pm_platform_segment_for(const pm_platform *p, uint64_t bytes) {
    /* Segments are few (a calibration writes a handful): a linear scan. */
    int i = 0;
    while (i + 1 < p->nsegments && p->segments[i + 1].from <= bytes)
        i++;
    return &p->segments[i];
}

void pm_platform_intranode_for(const pm_platform *p, uint64_t bytes, double *latency,
                               double *bandwidth) {
    if (p->intranode) {
        *latency = p->intranode_latency;
        *bandwidth = p->intranode_bandwidth;
    } else {
        const pm_platform_segment *s = pm_platform_segment_for(p, bytes);
        *latency = s->latency;
        *bandwidth = s->bandwidth;
    }
}

double pm_platform_shm_capacity(const pm_platform *p) {
    return p->intranode ? p->intranode_bandwidth : p->max_bandwidth;
}

bool pm_platform_is_rendezvous(const pm_platform *p, uint64_t bytes) {
    return bytes > p->eager_limit;
}

double pm_platform_send_overhead(const pm_platform *p, uint64_t bytes) {
    return p->send_overhead + (double)bytes * p->send_overhead_per_byte;
}

double pm_platform_recv_overhead(const pm_platform *p, uint64_t bytes) {
    return p->recv_overhead + (double)bytes * p->recv_overhead_per_byte;
}
