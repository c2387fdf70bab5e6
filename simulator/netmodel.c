/*
 * netmodel.c - max-min fair flow model of the network (see netmodel.h).
 *
 * State: the transfers in progress, each either waiting its latency (until
 * data_start) or streaming at `rate` with `remaining` bytes as of time
 * `updated`.  Between two events every rate is constant, so a streaming
 * transfer's finish time is updated + remaining / rate.  The events are a
 * transfer starting to stream and a transfer finishing; at each, every
 * streaming transfer is brought up to date and the rates are recomputed.
 *
 * sim_net_next must answer "which transfer finishes first?" without moving
 * the clock (the caller may still start a transfer earlier than that), but
 * the answer can depend on transfers that start streaming before it.  So it
 * runs the same event loop on a copy of the transfers.  The copy and the
 * real run execute the same arithmetic from the same state, so the time
 * sim_net_next gives is exactly the one sim_net_advance will reach.
 */
#include "simulator/netmodel.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct net_flow {
    uint64_t id;
    int path[SIM_NET_MAX_PATH];
    int npath;
    double data_start; /* when the latency is over */
    double bytes;
    double remaining; /* as of `updated` */
    double cap;       /* the transfer's own rate limit */
    double rate;      /* 0 until it streams */
    double updated;
    double finish; /* valid while streaming */
    bool streaming;
    bool frozen; /* progressive filling: rate fixed in this round or before */
    bool mark;   /* progressive filling: to freeze at the end of this round */
} net_flow;

struct sim_net {
    const sim_platform *platform; /* NULL for sim_net_new_links */
    int nodes, leaves;
    int nlinks;
    double *capacity;
    char **names;
    /* accounting */
    double *bytes, *busy;
    double *load; /* sum of the rates crossing each link, between events */
    double accounted;
    double now;
    GArray *flows;   /* net_flow, in id order */
    GArray *pending; /* sim_net_completion found while starting a transfer */
    uint64_t last_id;
    /* sim_net_next's answer, until the state changes */
    bool next_cached, next_found;
    uint64_t next_id;
    double next_time;
    /* progressive-filling scratch, per link */
    double *left; /* capacity not taken by frozen transfers */
    int *count;   /* unfrozen transfers crossing the link */
};

/* A transfer this close to its end after an update is finished: rounding in
 * remaining -= rate * dt must not leave a sliver that finishes an ulp later
 * as a separate event. */
static bool nearly_done(const net_flow *f) {
    return f->remaining <= f->bytes * 1e-12 + 1e-9;
}

static sim_net *net_alloc(int nlinks) {
    sim_net *net = g_new0(sim_net, 1);
    net->nlinks = nlinks;
    net->capacity = g_new0(double, nlinks);
    net->names = g_new0(char *, nlinks + 1);
    net->bytes = g_new0(double, nlinks);
    net->busy = g_new0(double, nlinks);
    net->load = g_new0(double, nlinks);
    net->left = g_new0(double, nlinks);
    net->count = g_new0(int, nlinks);
    net->flows = g_array_new(FALSE, TRUE, sizeof(net_flow));
    net->pending = g_array_new(FALSE, TRUE, sizeof(sim_net_completion));
    return net;
}

/* Link layout of a platform model: tx of every node, rx of every node, shm
 * of every node, then up and down of every leaf (fat tree). */
int sim_net_link(const sim_net *net, sim_net_link_kind kind, int index) {
    if (!net->platform || index < 0)
        return -1;
    int n = net->nodes;
    switch (kind) {
    case SIM_NET_TX:
        return index < n ? index : -1;
    case SIM_NET_RX:
        return index < n ? n + index : -1;
    case SIM_NET_SHM:
        return index < n ? 2 * n + index : -1;
    case SIM_NET_UP:
        return index < net->leaves ? 3 * n + index : -1;
    case SIM_NET_DOWN:
        return index < net->leaves ? 3 * n + net->leaves + index : -1;
    }
    return -1;
}

sim_net *sim_net_new(const sim_platform *p) {
    g_return_val_if_fail(p != NULL && p->nodes >= 1, NULL);
    int leaves = p->topology == SIM_PLATFORM_FATTREE ? p->leaves : 0;
    sim_net *net = net_alloc(3 * p->nodes + 2 * leaves);
    net->platform = p;
    net->nodes = p->nodes;
    net->leaves = leaves;
    for (int n = 0; n < p->nodes; n++) {
        int tx = sim_net_link(net, SIM_NET_TX, n), rx = sim_net_link(net, SIM_NET_RX, n),
            shm = sim_net_link(net, SIM_NET_SHM, n);
        /* A node's port carries any message size, so its capacity is the
         * asymptotic (largest) bandwidth; smaller messages are held to their
         * segment's bandwidth by their own cap. */
        net->capacity[tx] = net->capacity[rx] = p->max_bandwidth;
        net->capacity[shm] = sim_platform_shm_capacity(p);
        net->names[tx] = g_strdup_printf("%s.tx", p->node_names[n]);
        net->names[rx] = g_strdup_printf("%s.rx", p->node_names[n]);
        net->names[shm] = g_strdup_printf("%s.shm", p->node_names[n]);
    }
    for (int l = 0; l < leaves; l++) {
        int up = sim_net_link(net, SIM_NET_UP, l), down = sim_net_link(net, SIM_NET_DOWN, l);
        net->capacity[up] = net->capacity[down] = p->uplink_bandwidth;
        net->names[up] = g_strdup_printf("leaf%d.up", l);
        net->names[down] = g_strdup_printf("leaf%d.down", l);
    }
    return net;
}

sim_net *sim_net_new_links(int nlinks, const double *capacity) {
    g_return_val_if_fail(nlinks >= 0 && (nlinks == 0 || capacity != NULL), NULL);
    for (int l = 0; l < nlinks; l++)
        g_return_val_if_fail(capacity[l] > 0 && isfinite(capacity[l]), NULL);
    sim_net *net = net_alloc(nlinks);
    for (int l = 0; l < nlinks; l++) {
        net->capacity[l] = capacity[l];
        net->names[l] = g_strdup_printf("link%d", l);
    }
    return net;
}

void sim_net_free(sim_net *net) {
    if (!net)
        return;
    g_free(net->capacity);
    g_strfreev(net->names);
    g_free(net->bytes);
    g_free(net->busy);
    g_free(net->load);
    g_free(net->left);
    g_free(net->count);
    g_array_free(net->flows, TRUE);
    g_array_free(net->pending, TRUE);
    g_free(net);
}

/* ---------------------------------------------------------------------- */
/* Max-min fair rates                                                      */

/* Progressive filling over the streaming transfers at time t.  All unfrozen
 * transfers share one rate level x that rises until a link is full (its
 * remaining capacity divided among the unfrozen transfers crossing it) or a
 * transfer reaches its cap; the transfers held by that constraint freeze at
 * x, and the others go on rising.  Each round freezes at least one transfer.
 * Which transfers a round freezes is decided before any capacity is taken,
 * so the result does not depend on the order of the transfers; links within
 * a relative 1e-12 of the bottleneck count as saturated together, which
 * keeps equal shares computed by different roundings equal. */
static void rerate(sim_net *net, GArray *flows, double t, bool account) {
    double *left = net->left;
    int *count = net->count;
    for (int l = 0; l < net->nlinks; l++) {
        left[l] = net->capacity[l];
        count[l] = 0;
    }
    int unfrozen = 0;
    for (guint i = 0; i < flows->len; i++) {
        net_flow *f = &g_array_index(flows, net_flow, i);
        f->frozen = !f->streaming;
        f->mark = false;
        if (!f->streaming)
            continue;
        unfrozen++;
        for (int k = 0; k < f->npath; k++)
            count[f->path[k]]++;
    }
    while (unfrozen > 0) {
        double x = INFINITY;
        for (int l = 0; l < net->nlinks; l++)
            if (count[l] > 0)
                x = fmin(x, left[l] / count[l]);
        for (guint i = 0; i < flows->len; i++) {
            net_flow *f = &g_array_index(flows, net_flow, i);
            if (!f->frozen)
                x = fmin(x, f->cap);
        }
        double edge = x * (1 + 1e-12);
        for (guint i = 0; i < flows->len; i++) {
            net_flow *f = &g_array_index(flows, net_flow, i);
            if (f->frozen)
                continue;
            f->mark = f->cap <= edge;
            for (int k = 0; k < f->npath && !f->mark; k++)
                f->mark = left[f->path[k]] / count[f->path[k]] <= edge;
        }
        for (guint i = 0; i < flows->len; i++) {
            net_flow *f = &g_array_index(flows, net_flow, i);
            if (!f->mark)
                continue;
            f->mark = false;
            f->frozen = true;
            f->rate = fmin(x, f->cap);
            unfrozen--;
            for (int k = 0; k < f->npath; k++) {
                left[f->path[k]] = fmax(0, left[f->path[k]] - f->rate);
                count[f->path[k]]--;
            }
        }
    }
    if (account)
        memset(net->load, 0, sizeof(double) * (size_t)net->nlinks);
    for (guint i = 0; i < flows->len; i++) {
        net_flow *f = &g_array_index(flows, net_flow, i);
        if (!f->streaming)
            continue;
        f->finish = t + f->remaining / f->rate;
        if (account)
            for (int k = 0; k < f->npath; k++)
                net->load[f->path[k]] += f->rate;
    }
}

/* ---------------------------------------------------------------------- */
/* Event loop                                                              */

static void account_to(sim_net *net, double t) {
    double dt = t - net->accounted;
    if (dt <= 0)
        return;
    for (int l = 0; l < net->nlinks; l++)
        if (net->load[l] > 0) {
            net->bytes[l] += net->load[l] * dt;
            net->busy[l] += dt;
        }
    net->accounted = t;
}

static int by_id(const void *a, const void *b) {
    const sim_net_completion *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Processes every event at or before `limit` on `flows`, appending the
 * completions to `done`.  `account`: this is the real state (update the
 * link accounting); `stop_first`: return after the first event that
 * completes something (sim_net_next's look-ahead). */
static void run(sim_net *net, GArray *flows, double limit, GArray *done, bool account,
                bool stop_first) {
    GArray *now_done = g_array_new(FALSE, FALSE, sizeof(sim_net_completion));
    for (;;) {
        double t = INFINITY;
        for (guint i = 0; i < flows->len; i++) {
            const net_flow *f = &g_array_index(flows, net_flow, i);
            t = fmin(t, f->streaming ? f->finish : f->data_start);
        }
        if (isinf(t) || t > limit)
            break;
        if (account)
            account_to(net, t);
        bool changed = false;
        /* Bring every streaming transfer up to t; finish those due. */
        for (guint i = 0; i < flows->len; i++) {
            net_flow *f = &g_array_index(flows, net_flow, i);
            if (!f->streaming)
                continue;
            f->remaining -= f->rate * (t - f->updated);
            f->updated = t;
            if (f->finish <= t || nearly_done(f)) {
                f->remaining = 0;
                sim_net_completion c = {f->id, t};
                g_array_append_val(now_done, c);
                changed = true;
            }
        }
        /* Transfers whose latency is over start streaming; an empty one is
         * finished right away. */
        for (guint i = 0; i < flows->len; i++) {
            net_flow *f = &g_array_index(flows, net_flow, i);
            if (f->streaming || f->data_start > t)
                continue;
            if (f->remaining <= 0) {
                sim_net_completion c = {f->id, t};
                g_array_append_val(now_done, c);
                f->streaming = true; /* so it is removed below */
                f->remaining = 0;
                continue;
            }
            f->streaming = true;
            f->updated = t;
            changed = true;
        }
        for (guint i = flows->len; i-- > 0;) {
            const net_flow *f = &g_array_index(flows, net_flow, i);
            if (f->streaming && f->remaining <= 0)
                g_array_remove_index(flows, i);
        }
        if (changed)
            rerate(net, flows, t, account);
        if (now_done->len > 0) {
            g_array_sort(now_done, by_id);
            g_array_append_vals(done, now_done->data, now_done->len);
            g_array_set_size(now_done, 0);
            if (stop_first)
                break;
        }
    }
    g_array_free(now_done, TRUE);
}

/* Moves the real state to `time`; completions go to `done`. */
static void move_to(sim_net *net, double time, GArray *done) {
    run(net, net->flows, time, done, true, false);
    account_to(net, time);
    net->now = time;
    net->next_cached = false;
}

/* ---------------------------------------------------------------------- */
/* Public operations                                                       */

uint64_t sim_net_start_path(sim_net *net, double time, const int *path, int npath, double latency,
                            double max_rate, uint64_t bytes) {
    g_return_val_if_fail(net != NULL && isfinite(time) && time >= net->now, 0);
    g_return_val_if_fail(npath >= 0 && npath <= SIM_NET_MAX_PATH && (npath == 0 || path), 0);
    g_return_val_if_fail(latency >= 0 && isfinite(latency) && max_rate > 0, 0);
    g_return_val_if_fail(npath > 0 || isfinite(max_rate), 0);
    for (int k = 0; k < npath; k++) {
        g_return_val_if_fail(path[k] >= 0 && path[k] < net->nlinks, 0);
        for (int j = 0; j < k; j++)
            g_return_val_if_fail(path[j] != path[k], 0);
    }
    move_to(net, time, net->pending);
    net_flow f = {
        .id = ++net->last_id,
        .npath = npath,
        .data_start = time + latency,
        .bytes = (double)bytes,
        .remaining = (double)bytes,
        .cap = max_rate,
        .rate = 0,
        .updated = time,
        .finish = INFINITY,
    };
    if (npath > 0)
        memcpy(f.path, path, sizeof(int) * (size_t)npath);
    g_array_append_val(net->flows, f);
    return f.id;
}

uint64_t sim_net_start(sim_net *net, double time, int src_node, int dst_node, uint64_t bytes,
                       bool rendezvous) {
    g_return_val_if_fail(net != NULL && net->platform != NULL, 0);
    g_return_val_if_fail(src_node >= 0 && src_node < net->nodes, 0);
    g_return_val_if_fail(dst_node >= 0 && dst_node < net->nodes, 0);
    const sim_platform *p = net->platform;
    int path[4];
    int npath = 0;
    double latency, cap;
    if (src_node == dst_node) {
        sim_platform_intranode_for(p, bytes, &latency, &cap);
        path[npath++] = sim_net_link(net, SIM_NET_SHM, src_node);
        /* Shared memory has no network handshake; its rendezvous costs one
         * more round trip at the intra-node latency. */
        if (rendezvous)
            latency += 2 * latency;
    } else {
        const sim_platform_segment *s = sim_platform_segment_for(p, bytes);
        latency = s->latency;
        cap = s->bandwidth;
        if (rendezvous)
            latency += p->rendezvous_handshake;
        path[npath++] = sim_net_link(net, SIM_NET_TX, src_node);
        if (p->topology == SIM_PLATFORM_FATTREE) {
            int from = src_node / p->nodes_per_leaf, to = dst_node / p->nodes_per_leaf;
            if (from != to) {
                path[npath++] = sim_net_link(net, SIM_NET_UP, from);
                path[npath++] = sim_net_link(net, SIM_NET_DOWN, to);
            }
        }
        path[npath++] = sim_net_link(net, SIM_NET_RX, dst_node);
    }
    return sim_net_start_path(net, time, path, npath, latency, cap, bytes);
}

bool sim_net_next(sim_net *net, uint64_t *id, double *time) {
    g_return_val_if_fail(net != NULL, false);
    if (net->pending->len > 0) {
        /* Kept in completion order, so the first is the earliest. */
        const sim_net_completion *c = &g_array_index(net->pending, sim_net_completion, 0);
        *id = c->id;
        *time = c->time;
        return true;
    }
    if (!net->next_cached) {
        GArray *copy = g_array_copy(net->flows);
        GArray *done = g_array_new(FALSE, FALSE, sizeof(sim_net_completion));
        run(net, copy, INFINITY, done, false, true);
        net->next_found = done->len > 0;
        if (net->next_found) {
            net->next_id = g_array_index(done, sim_net_completion, 0).id;
            net->next_time = g_array_index(done, sim_net_completion, 0).time;
        }
        g_array_free(done, TRUE);
        g_array_free(copy, TRUE);
        net->next_cached = true;
    }
    if (net->next_found) {
        *id = net->next_id;
        *time = net->next_time;
    }
    return net->next_found;
}

int sim_net_advance(sim_net *net, double time, GArray *done) {
    g_return_val_if_fail(net != NULL && done != NULL && isfinite(time) && time >= net->now, 0);
    guint before = done->len;
    g_array_append_vals(done, net->pending->data, net->pending->len);
    g_array_set_size(net->pending, 0);
    move_to(net, time, done);
    return (int)(done->len - before);
}

double sim_net_now(const sim_net *net) {
    return net->now;
}

int sim_net_pending(const sim_net *net) {
    return (int)(net->flows->len + net->pending->len);
}

double sim_net_rate(const sim_net *net, uint64_t id) {
    for (guint i = 0; i < net->flows->len; i++) {
        const net_flow *f = &g_array_index(net->flows, net_flow, i);
        if (f->id == id)
            return f->streaming ? f->rate : 0;
    }
    return -1;
}

int sim_net_nlinks(const sim_net *net) {
    return net->nlinks;
}

void sim_net_link_stats_get(const sim_net *net, int link, sim_net_link_stats *out) {
    g_return_if_fail(link >= 0 && link < net->nlinks && out != NULL);
    out->name = net->names[link];
    out->capacity = net->capacity[link];
    out->bytes = net->bytes[link];
    out->busy = net->busy[link];
}

int sim_net_busiest_link(const sim_net *net) {
    int best = -1;
    double best_load = 0;
    for (int l = 0; l < net->nlinks; l++) {
        double load = net->bytes[l] / net->capacity[l];
        if (load > best_load) {
            best_load = load;
            best = l;
        }
    }
    return best;
}
