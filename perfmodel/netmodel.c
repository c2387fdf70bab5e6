/*
 * netmodel.c - max-min fair flow model of the network (see netmodel.h).
 *
 * State: the transfers in progress, each either waiting its latency (until
 * data_start) or streaming at `rate` with `remaining` bytes as of time
 * `updated`.  Between two events every rate is constant, so a streaming
 * transfer's finish time is updated + remaining / rate.  The events are a
 * transfer starting to stream and a transfer finishing; every transfer's
 * next event time (data_start, then its finish) is its key in a min-heap,
 * so the next event is the heap's first.
 *
 * An event changes the set of transfers on the links of the transfers that
 * start or finish, and max-min fair rates depend only on the transfers
 * linked to those links through shared links, transitively: the connected
 * component of those links in the graph of links and streaming transfers.
 * Each link keeps the list of transfers streaming over it; an event finds
 * the component from its links by a breadth-first search, brings only
 * those transfers and links up to date and re-rates only them (the max-min
 * fair allocation of the whole network restricted to a component is the
 * allocation of the component alone).  A transfer elsewhere keeps its rate,
 * its finish time and its stale `remaining`, which is brought up to date
 * when a later event reaches its component.  Link accounting is settled the
 * same way, per link, when its load changes.
 *
 * pm_net_next must answer "which transfer finishes first?" without moving
 * the clock (the caller may still start a transfer earlier than that), but
 * the answer can depend on transfers that start streaming before it.  So it
 * runs the same event loop on a copy of the state.  The copy and the real
 * run execute the same arithmetic from the same state (nothing depends on
 * addresses or hashing), so the time pm_net_next gives is exactly the one
 * pm_net_advance will reach.  pm_net_next_event needs no look-ahead: it
 * is the heap's first key.
 */
#include "perfmodel/netmodel.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef enum { FLOW_FREE, FLOW_LATENCY, FLOW_STREAMING } flow_state;

typedef struct net_flow {
    uint64_t id;
    int path[PM_NET_MAX_PATH];
    int at[PM_NET_MAX_PATH]; /* while streaming: index in each path link's list */
    int npath;
    flow_state state;
    double bytes;
    double remaining; /* as of `updated` */
    double cap;       /* the transfer's own rate limit */
    double rate;      /* 0 until it streams */
    double updated;
    double event;  /* data_start while in its latency, then its finish: the heap key */
    int heap_pos;  /* index in net_state.heap, -1 when not there */
    uint64_t seen; /* component search: == pm_net.epoch once reached */
    bool frozen;   /* progressive filling: rate fixed */
    bool mark;     /* progressive filling: to freeze at the end of this round */
} net_flow;

/* Everything an event changes; pm_net_next runs a copy of it. */
typedef struct net_state {
    GArray *flows;      /* net_flow, indexed by slot; free slots have FLOW_FREE */
    GArray *free_slots; /* int */
    int live;           /* transfers in progress */
    GArray *heap;       /* int slots of the live transfers, a min-heap by (event, id) */
    GArray **on_link;   /* per link: int slots of the transfers streaming over it */
    /* pm_net_next's copy shares the real state's lists until it changes
     * one (own[l]: on_link[l] is the copy's own); NULL in the real state. */
    bool *own;
    /* Accounting, NULL in the copy.  Per link: the sum of the rates of
     * on_link since `accounted`, up to which bytes and busy are exact. */
    double *load, *accounted, *bytes, *busy;
    GHashTable *by_id; /* id -> slot + 1; NULL in the copy */
} net_state;

struct pm_net {
    const pm_platform *platform; /* NULL for pm_net_new_links */
    int nodes, leaves;
    int nlinks;
    double *capacity;
    char **names;
    net_state st;
    double now;
    GArray *pending; /* pm_net_completion found while starting a transfer */
    uint64_t last_id;
    /* pm_net_next's answer, until the state changes */
    bool next_cached, next_found;
    uint64_t next_id;
    double next_time;
    /* scratch of one event, per link unless said otherwise */
    uint64_t epoch;   /* component search mark */
    uint64_t *lseen;  /* == epoch once the link is in the component */
    GArray *clinks;   /* int: the component's links */
    GArray *cflows;   /* int: the component's transfers */
    GArray *capped;   /* int: its transfers with a finite cap, by (cap, id) */
    GArray *round;    /* int: the transfers one filling round freezes */
    GArray *now_done; /* pm_net_completion: the completions of the instant */
    double *left;     /* capacity not taken by frozen transfers */
    int *count;       /* unfrozen transfers crossing the link */
    double *share;    /* left / count: the link's key in lheap */
    int *lheap;       /* links with unfrozen transfers, a min-heap by share */
    int *lpos;        /* index in lheap, -1 when not there */
    int nlheap;
};

/* A transfer this close to its end after an update is finished: rounding in
 * remaining -= rate * dt must not leave a sliver that finishes an ulp later
 * as a separate event. */
static bool nearly_done(const net_flow *f) {
    return f->remaining <= f->bytes * 1e-12 + 1e-9;
}

static net_flow *flow_at(const net_state *st, int slot) {
    return &g_array_index(st->flows, net_flow, slot);
}

/* ---------------------------------------------------------------------- */
/* State                                                                   */

static void state_init(net_state *st, int nlinks) {
    st->flows = g_array_new(FALSE, TRUE, sizeof(net_flow));
    st->free_slots = g_array_new(FALSE, FALSE, sizeof(int));
    st->heap = g_array_new(FALSE, FALSE, sizeof(int));
    st->on_link = g_new0(GArray *, nlinks);
    for (int l = 0; l < nlinks; l++)
        st->on_link[l] = g_array_new(FALSE, FALSE, sizeof(int));
    st->load = g_new0(double, nlinks);
    st->accounted = g_new0(double, nlinks);
    st->bytes = g_new0(double, nlinks);
    st->busy = g_new0(double, nlinks);
    st->by_id = g_hash_table_new(g_direct_hash, g_direct_equal);
}

static void state_clear(net_state *st, int nlinks) {
    g_array_free(st->flows, TRUE);
    g_array_free(st->free_slots, TRUE);
    g_array_free(st->heap, TRUE);
    for (int l = 0; l < nlinks; l++)
        if (!st->own || st->own[l])
            g_array_free(st->on_link[l], TRUE);
    g_free(st->on_link);
    g_free(st->own);
    g_free(st->load);
    g_free(st->accounted);
    g_free(st->bytes);
    g_free(st->busy);
    if (st->by_id)
        g_hash_table_destroy(st->by_id);
}

/* A copy for pm_net_next to run ahead on: the transfers and the heap,
 * with the link lists shared until changed, and neither the accounting nor
 * the id index (which only the public accessors use).  The look-ahead
 * touches few links, so this costs about a copy of the transfers. */
static void state_copy(net_state *to, const net_state *from, int nlinks) {
    *to = (net_state){0};
    to->flows = g_array_copy(from->flows);
    to->free_slots = g_array_new(FALSE, FALSE, sizeof(int));
    to->live = from->live;
    to->heap = g_array_copy(from->heap);
    to->on_link = g_memdup2(from->on_link, sizeof(GArray *) * (size_t)nlinks);
    to->own = g_new0(bool, nlinks);
}

/* Link l's list, about to change. */
static GArray *list_to_change(net_state *st, int l) {
    if (st->own && !st->own[l]) {
        st->on_link[l] = g_array_copy(st->on_link[l]);
        st->own[l] = true;
    }
    return st->on_link[l];
}

/* Ids are keys of by_id as pointers. */
G_STATIC_ASSERT(sizeof(gpointer) >= sizeof(uint64_t));

static int slot_of(const net_state *st, uint64_t id) {
    gpointer v = g_hash_table_lookup(st->by_id, GSIZE_TO_POINTER((gsize)id));
    return v ? (int)GPOINTER_TO_SIZE(v) - 1 : -1;
}

/* ---------------------------------------------------------------------- */
/* Event heap: live transfers by (event, id)                               */

static bool ev_before(const net_state *st, int a, int b) {
    const net_flow *x = flow_at(st, a), *y = flow_at(st, b);
    return x->event < y->event || (x->event == y->event && x->id < y->id);
}

static void ev_put(net_state *st, int i, int slot) {
    g_array_index(st->heap, int, i) = slot;
    flow_at(st, slot)->heap_pos = i;
}

static void ev_sift_up(net_state *st, int i) {
    int slot = g_array_index(st->heap, int, i);
    while (i > 0) {
        int p = (i - 1) / 2, ps = g_array_index(st->heap, int, p);
        if (!ev_before(st, slot, ps))
            break;
        ev_put(st, i, ps);
        i = p;
    }
    ev_put(st, i, slot);
}

static void ev_sift_down(net_state *st, int i) {
    int n = (int)st->heap->len, slot = g_array_index(st->heap, int, i);
    for (;;) {
        int l = 2 * i + 1, m = l;
        if (l >= n)
            break;
        if (l + 1 < n &&
            ev_before(st, g_array_index(st->heap, int, l + 1), g_array_index(st->heap, int, l)))
            m = l + 1;
        int ms = g_array_index(st->heap, int, m);
        if (!ev_before(st, ms, slot))
            break;
        ev_put(st, i, ms);
        i = m;
    }
    ev_put(st, i, slot);
}

/* Inserts a transfer, or moves it after its key changed. */
static void ev_update(net_state *st, int slot) {
    net_flow *f = flow_at(st, slot);
    if (f->heap_pos < 0) {
        g_array_append_val(st->heap, slot);
        f->heap_pos = (int)st->heap->len - 1;
    }
    int i = f->heap_pos;
    ev_sift_up(st, i);
    ev_sift_down(st, f->heap_pos);
}

static void ev_remove(net_state *st, int slot) {
    net_flow *f = flow_at(st, slot);
    int i = f->heap_pos;
    f->heap_pos = -1;
    int last = g_array_index(st->heap, int, st->heap->len - 1);
    g_array_set_size(st->heap, st->heap->len - 1);
    if (last == slot)
        return;
    ev_put(st, i, last);
    ev_sift_up(st, i);
    ev_sift_down(st, flow_at(st, last)->heap_pos);
}

static int ev_first(const net_state *st) {
    return g_array_index(st->heap, int, 0);
}

/* ---------------------------------------------------------------------- */
/* Construction                                                            */

static pm_net *net_alloc(int nlinks) {
    pm_net *net = g_new0(pm_net, 1);
    net->nlinks = nlinks;
    net->capacity = g_new0(double, nlinks);
    net->names = g_new0(char *, nlinks + 1);
    state_init(&net->st, nlinks);
    net->pending = g_array_new(FALSE, TRUE, sizeof(pm_net_completion));
    net->lseen = g_new0(uint64_t, nlinks);
    net->clinks = g_array_new(FALSE, FALSE, sizeof(int));
    net->cflows = g_array_new(FALSE, FALSE, sizeof(int));
    net->capped = g_array_new(FALSE, FALSE, sizeof(int));
    net->round = g_array_new(FALSE, FALSE, sizeof(int));
    net->now_done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    net->left = g_new0(double, nlinks);
    net->count = g_new0(int, nlinks);
    net->share = g_new0(double, nlinks);
    net->lheap = g_new0(int, nlinks);
    net->lpos = g_new(int, nlinks);
    for (int l = 0; l < nlinks; l++)
        net->lpos[l] = -1;
    return net;
}

/* Link layout of a platform model: tx of every node, rx of every node, shm
 * of every node, then up and down of every leaf (fat tree). */
int pm_net_link(const pm_net *net, pm_net_link_kind kind, int index) {
    if (!net->platform || index < 0)
        return -1;
    int n = net->nodes;
    switch (kind) {
    case PM_NET_TX:
        return index < n ? index : -1;
    case PM_NET_RX:
        return index < n ? n + index : -1;
    case PM_NET_SHM:
        return index < n ? 2 * n + index : -1;
    case PM_NET_UP:
        return index < net->leaves ? 3 * n + index : -1;
    case PM_NET_DOWN:
        return index < net->leaves ? 3 * n + net->leaves + index : -1;
    }
    return -1;
}

pm_net *pm_net_new(const pm_platform *p) {
    g_return_val_if_fail(p != NULL && p->nodes >= 1, NULL);
    int leaves = p->topology == PM_PLATFORM_FATTREE ? p->leaves : 0;
    pm_net *net = net_alloc(3 * p->nodes + 2 * leaves);
    net->platform = p;
    net->nodes = p->nodes;
    net->leaves = leaves;
    for (int n = 0; n < p->nodes; n++) {
        int tx = pm_net_link(net, PM_NET_TX, n), rx = pm_net_link(net, PM_NET_RX, n),
            shm = pm_net_link(net, PM_NET_SHM, n);
        /* A node's port carries any message size, so its capacity is the
         * asymptotic (largest) bandwidth; smaller messages are held to their
         * segment's bandwidth by their own cap. */
        net->capacity[tx] = net->capacity[rx] = p->max_bandwidth;
        net->capacity[shm] = pm_platform_shm_capacity(p);
        net->names[tx] = g_strdup_printf("%s.tx", p->node_names[n]);
        net->names[rx] = g_strdup_printf("%s.rx", p->node_names[n]);
        net->names[shm] = g_strdup_printf("%s.shm", p->node_names[n]);
    }
    for (int l = 0; l < leaves; l++) {
        int up = pm_net_link(net, PM_NET_UP, l), down = pm_net_link(net, PM_NET_DOWN, l);
        net->capacity[up] = net->capacity[down] = p->uplink_bandwidth;
        net->names[up] = g_strdup_printf("leaf%d.up", l);
        net->names[down] = g_strdup_printf("leaf%d.down", l);
    }
    return net;
}

pm_net *pm_net_new_links(int nlinks, const double *capacity) {
    g_return_val_if_fail(nlinks >= 0 && (nlinks == 0 || capacity != NULL), NULL);
    for (int l = 0; l < nlinks; l++)
        g_return_val_if_fail(capacity[l] > 0 && isfinite(capacity[l]), NULL);
    pm_net *net = net_alloc(nlinks);
    for (int l = 0; l < nlinks; l++) {
        net->capacity[l] = capacity[l];
        net->names[l] = g_strdup_printf("link%d", l);
    }
    return net;
}

void pm_net_free(pm_net *net) {
    if (!net)
        return;
    g_free(net->capacity);
    g_strfreev(net->names);
    state_clear(&net->st, net->nlinks);
    g_array_free(net->pending, TRUE);
    g_free(net->lseen);
    g_array_free(net->clinks, TRUE);
    g_array_free(net->cflows, TRUE);
    g_array_free(net->capped, TRUE);
    g_array_free(net->round, TRUE);
    g_array_free(net->now_done, TRUE);
    g_free(net->left);
    g_free(net->count);
    g_free(net->share);
    g_free(net->lheap);
    g_free(net->lpos);
    g_free(net);
}

/* ---------------------------------------------------------------------- */
/* Transfers on links                                                      */

static void link_add(net_state *st, int slot) {
    net_flow *f = flow_at(st, slot);
    for (int k = 0; k < f->npath; k++) {
        GArray *on = list_to_change(st, f->path[k]);
        f->at[k] = (int)on->len;
        g_array_append_val(on, slot);
    }
}

/* Removes a transfer from its links' lists: the last of each list takes
 * its place. */
static void link_remove(net_state *st, int slot) {
    const net_flow *f = flow_at(st, slot);
    for (int k = 0; k < f->npath; k++) {
        int l = f->path[k];
        GArray *on = list_to_change(st, l);
        int moved = g_array_index(on, int, on->len - 1);
        g_array_index(on, int, f->at[k]) = moved;
        g_array_set_size(on, on->len - 1);
        if (moved == slot)
            continue;
        net_flow *m = flow_at(st, moved);
        for (int j = 0; j < m->npath; j++)
            if (m->path[j] == l)
                m->at[j] = f->at[k];
    }
}

/* Brings a link's bytes and busy time up to t at its current load. */
static void account_to(net_state *st, int l, double t) {
    if (!st->load)
        return;
    double dt = t - st->accounted[l];
    if (dt <= 0)
        return;
    if (st->load[l] > 0) {
        st->bytes[l] += st->load[l] * dt;
        st->busy[l] += dt;
    }
    st->accounted[l] = t;
}

/* Adds a link to the component being built (once). */
static void touch_link(pm_net *net, int l) {
    if (net->lseen[l] == net->epoch)
        return;
    net->lseen[l] = net->epoch;
    g_array_append_val(net->clinks, l);
}

/* A transfer completes at t: reported in now_done, its slot freed. */
static void complete(pm_net *net, net_state *st, int slot, double t) {
    net_flow *f = flow_at(st, slot);
    pm_net_completion c = {f->id, t};
    g_array_append_val(net->now_done, c);
    if (f->heap_pos >= 0)
        ev_remove(st, slot);
    if (st->by_id)
        g_hash_table_remove(st->by_id, GSIZE_TO_POINTER((gsize)f->id));
    f->state = FLOW_FREE;
    g_array_append_val(st->free_slots, slot);
    st->live--;
}

/* ---------------------------------------------------------------------- */
/* Max-min fair rates of a component                                       */

static bool link_before(const pm_net *net, int a, int b) {
    double x = net->share[a], y = net->share[b];
    return x < y || (x == y && a < b);
}

static void lheap_put(pm_net *net, int i, int l) {
    net->lheap[i] = l;
    net->lpos[l] = i;
}

static void lheap_sift_up(pm_net *net, int i) {
    int l = net->lheap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!link_before(net, l, net->lheap[p]))
            break;
        lheap_put(net, i, net->lheap[p]);
        i = p;
    }
    lheap_put(net, i, l);
}

static void lheap_sift_down(pm_net *net, int i) {
    int l = net->lheap[i];
    for (;;) {
        int c = 2 * i + 1, m = c;
        if (c >= net->nlheap)
            break;
        if (c + 1 < net->nlheap && link_before(net, net->lheap[c + 1], net->lheap[c]))
            m = c + 1;
        if (!link_before(net, net->lheap[m], l))
            break;
        lheap_put(net, i, net->lheap[m]);
        i = m;
    }
    lheap_put(net, i, l);
}

static void lheap_remove(pm_net *net, int l) {
    int i = net->lpos[l];
    net->lpos[l] = -1;
    int last = net->lheap[--net->nlheap];
    if (last == l)
        return;
    lheap_put(net, i, last);
    lheap_sift_up(net, i);
    lheap_sift_down(net, net->lpos[last]);
}

static int by_cap(const void *a, const void *b, void *data) {
    const net_flow *x = flow_at(data, *(const int *)a), *y = flow_at(data, *(const int *)b);
    if (x->cap != y->cap)
        return x->cap < y->cap ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int by_flow_id(const void *a, const void *b, void *data) {
    const net_flow *x = flow_at(data, *(const int *)a), *y = flow_at(data, *(const int *)b);
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Progressive filling over the component's streaming transfers (cflows,
 * over the links clinks).  All unfrozen transfers share one rate level x
 * that rises until a link is full (its remaining capacity divided among
 * the unfrozen transfers crossing it) or a transfer reaches its cap; the
 * transfers held by that constraint freeze at x, and the others go on
 * rising.  The links sit in a min-heap by that share and the capped
 * transfers are sorted by cap, so a round looks only at the constraints
 * that bind in it and each freeze updates the transfer's own links:
 * O((L + F) log L) for the component instead of O(rounds * (L + F)).
 * Which transfers a round freezes is decided before any capacity is taken,
 * and they are frozen in id order, so the result does not depend on the
 * order of any list; links within a relative 1e-12 of the bottleneck count
 * as saturated together, which keeps equal shares computed by different
 * roundings equal (within a component: shares of two components are not
 * compared, and need not be). */
static void fill(pm_net *net, net_state *st) {
    GArray *cl = net->clinks, *cf = net->cflows;
    for (guint i = 0; i < cl->len; i++) {
        int l = g_array_index(cl, int, i);
        net->left[l] = net->capacity[l];
        net->count[l] = 0;
    }
    int unfrozen = 0;
    g_array_set_size(net->capped, 0);
    for (guint i = 0; i < cf->len; i++) {
        int s = g_array_index(cf, int, i);
        net_flow *f = flow_at(st, s);
        f->frozen = false;
        f->mark = false;
        unfrozen++;
        for (int k = 0; k < f->npath; k++)
            net->count[f->path[k]]++;
        if (isfinite(f->cap))
            g_array_append_val(net->capped, s);
    }
    g_array_sort_with_data(net->capped, by_cap, st);
    net->nlheap = 0;
    for (guint i = 0; i < cl->len; i++) {
        int l = g_array_index(cl, int, i);
        if (net->count[l] == 0)
            continue;
        net->share[l] = net->left[l] / net->count[l];
        lheap_put(net, net->nlheap++, l);
        lheap_sift_up(net, net->nlheap - 1);
    }
    guint next_cap = 0;
    while (unfrozen > 0) {
        while (next_cap < net->capped->len &&
               flow_at(st, g_array_index(net->capped, int, next_cap))->frozen)
            next_cap++;
        double x = net->nlheap > 0 ? net->share[net->lheap[0]] : INFINITY;
        if (next_cap < net->capped->len)
            x = fmin(x, flow_at(st, g_array_index(net->capped, int, next_cap))->cap);
        if (isinf(x))
            break; /* unreachable: every transfer here crosses a link */
        double edge = x * (1 + 1e-12);
        g_array_set_size(net->round, 0);
        while (net->nlheap > 0 && net->share[net->lheap[0]] <= edge) {
            int l = net->lheap[0];
            lheap_remove(net, l);
            GArray *on = st->on_link[l];
            for (guint i = 0; i < on->len; i++) {
                int s = g_array_index(on, int, i);
                net_flow *f = flow_at(st, s);
                if (!f->frozen && !f->mark) {
                    f->mark = true;
                    g_array_append_val(net->round, s);
                }
            }
        }
        for (guint i = next_cap; i < net->capped->len; i++) {
            int s = g_array_index(net->capped, int, i);
            net_flow *f = flow_at(st, s);
            if (f->cap > edge)
                break;
            if (!f->frozen && !f->mark) {
                f->mark = true;
                g_array_append_val(net->round, s);
            }
        }
        g_array_sort_with_data(net->round, by_flow_id, st);
        for (guint i = 0; i < net->round->len; i++) {
            net_flow *f = flow_at(st, g_array_index(net->round, int, i));
            f->mark = false;
            f->frozen = true;
            f->rate = fmin(x, f->cap);
            unfrozen--;
            for (int k = 0; k < f->npath; k++) {
                int l = f->path[k];
                net->left[l] = fmax(0, net->left[l] - f->rate);
                net->count[l]--;
                if (net->lpos[l] < 0)
                    continue;
                if (net->count[l] == 0) {
                    lheap_remove(net, l);
                } else {
                    net->share[l] = net->left[l] / net->count[l];
                    lheap_sift_up(net, net->lpos[l]);
                    lheap_sift_down(net, net->lpos[l]);
                }
            }
        }
    }
    while (net->nlheap > 0)
        lheap_remove(net, net->lheap[0]);
}

/* ---------------------------------------------------------------------- */
/* Event loop                                                              */

/* Re-rates the component of the links in clinks at t: finds it, brings its
 * transfers up to t (finishing those within rounding of their end), settles
 * its links' accounting, fills, and gives every transfer in it its new
 * finish time. */
static void rerate_component(pm_net *net, net_state *st, double t) {
    GArray *cl = net->clinks, *cf = net->cflows;
    g_array_set_size(cf, 0);
    for (guint i = 0; i < cl->len; i++) {
        GArray *on = st->on_link[g_array_index(cl, int, i)];
        for (guint j = 0; j < on->len; j++) {
            int s = g_array_index(on, int, j);
            net_flow *f = flow_at(st, s);
            if (f->seen == net->epoch)
                continue;
            f->seen = net->epoch;
            g_array_append_val(cf, s);
            for (int k = 0; k < f->npath; k++)
                touch_link(net, f->path[k]);
        }
    }
    guint kept = 0;
    for (guint i = 0; i < cf->len; i++) {
        int s = g_array_index(cf, int, i);
        net_flow *f = flow_at(st, s);
        f->remaining -= f->rate * (t - f->updated);
        f->updated = t;
        if (nearly_done(f)) {
            f->remaining = 0;
            link_remove(st, s);
            complete(net, st, s, t);
        } else {
            g_array_index(cf, int, kept++) = s;
        }
    }
    g_array_set_size(cf, kept);
    for (guint i = 0; i < cl->len; i++)
        account_to(st, g_array_index(cl, int, i), t);
    fill(net, st);
    for (guint i = 0; i < cl->len && st->load; i++) {
        int l = g_array_index(cl, int, i);
        GArray *on = st->on_link[l];
        double load = 0;
        for (guint j = 0; j < on->len; j++)
            load += flow_at(st, g_array_index(on, int, j))->rate;
        st->load[l] = load;
    }
    for (guint i = 0; i < cf->len; i++) {
        int s = g_array_index(cf, int, i);
        net_flow *f = flow_at(st, s);
        f->event = t + f->remaining / f->rate;
        ev_update(st, s);
    }
}

static int by_id(const void *a, const void *b) {
    const pm_net_completion *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Processes the events at t, the earliest event time: transfers that
 * finish, transfers whose latency is over (an empty one is finished right
 * away; a pathless one streams at its cap and touches nothing), then the
 * re-rating of what they touched.  The instant's completions go to `done`
 * in id order. */
static void step(pm_net *net, net_state *st, double t, GArray *done) {
    net->epoch++;
    g_array_set_size(net->clinks, 0);
    g_array_set_size(net->now_done, 0);
    while (st->heap->len > 0) {
        int s = ev_first(st);
        net_flow *f = flow_at(st, s);
        if (f->event > t)
            break;
        ev_remove(st, s);
        if (f->state == FLOW_STREAMING) {
            for (int k = 0; k < f->npath; k++)
                touch_link(net, f->path[k]);
            link_remove(st, s);
            f->remaining = 0;
            complete(net, st, s, t);
        } else if (f->remaining <= 0) {
            complete(net, st, s, t);
        } else {
            f->state = FLOW_STREAMING;
            f->updated = t;
            link_add(st, s);
            for (int k = 0; k < f->npath; k++)
                touch_link(net, f->path[k]);
            if (f->npath == 0) {
                f->rate = f->cap;
                f->event = t + f->remaining / f->rate;
                ev_update(st, s);
            }
        }
    }
    if (net->clinks->len > 0)
        rerate_component(net, st, t);
    g_array_sort(net->now_done, by_id);
    g_array_append_vals(done, net->now_done->data, net->now_done->len);
}

/* Processes every event at or before `limit`, appending the completions to
 * `done`; with `stop_first`, returns after the first instant that completes
 * something (pm_net_next's look-ahead).  A transfer that no capacity is
 * left for has an infinite finish: no event. */
static void run(pm_net *net, net_state *st, double limit, GArray *done, bool stop_first) {
    while (st->heap->len > 0) {
        double t = flow_at(st, ev_first(st))->event;
        if (isinf(t) || t > limit)
            break;
        guint before = done->len;
        step(net, st, t, done);
        if (stop_first && done->len > before)
            break;
    }
}

/* Moves the real state to `time`; completions go to `done`. */
static void move_to(pm_net *net, double time, GArray *done) {
    run(net, &net->st, time, done, false);
    net->now = time;
    net->next_cached = false;
}

/* ---------------------------------------------------------------------- */
/* Public operations                                                       */

uint64_t pm_net_start_path(pm_net *net, double time, const int *path, int npath, double latency,
                            double max_rate, uint64_t bytes) {
    g_return_val_if_fail(net != NULL && isfinite(time) && time >= net->now, 0);
    g_return_val_if_fail(npath >= 0 && npath <= PM_NET_MAX_PATH && (npath == 0 || path), 0);
    g_return_val_if_fail(latency >= 0 && isfinite(latency) && max_rate > 0, 0);
    g_return_val_if_fail(npath > 0 || isfinite(max_rate), 0);
    for (int k = 0; k < npath; k++) {
        g_return_val_if_fail(path[k] >= 0 && path[k] < net->nlinks, 0);
        for (int j = 0; j < k; j++)
            g_return_val_if_fail(path[j] != path[k], 0);
    }
    move_to(net, time, net->pending);
    net_state *st = &net->st;
    int slot;
    if (st->free_slots->len > 0) {
        slot = g_array_index(st->free_slots, int, st->free_slots->len - 1);
        g_array_set_size(st->free_slots, st->free_slots->len - 1);
    } else {
        slot = (int)st->flows->len;
        g_array_set_size(st->flows, st->flows->len + 1);
    }
    net_flow *f = flow_at(st, slot);
    *f = (net_flow){
        .id = ++net->last_id,
        .npath = npath,
        .state = FLOW_LATENCY,
        .bytes = (double)bytes,
        .remaining = (double)bytes,
        .cap = max_rate,
        .rate = 0,
        .updated = time,
        .event = time + latency,
        .heap_pos = -1,
        .seen = 0,
    };
    if (npath > 0)
        memcpy(f->path, path, sizeof(int) * (size_t)npath);
    st->live++;
    ev_update(st, slot);
    g_hash_table_insert(st->by_id, GSIZE_TO_POINTER((gsize)f->id),
                        GSIZE_TO_POINTER((gsize)slot + 1));
    return f->id;
}

uint64_t pm_net_start(pm_net *net, double time, int src_node, int dst_node, uint64_t bytes,
                       bool rendezvous) {
    g_return_val_if_fail(net != NULL && net->platform != NULL, 0);
    g_return_val_if_fail(src_node >= 0 && src_node < net->nodes, 0);
    g_return_val_if_fail(dst_node >= 0 && dst_node < net->nodes, 0);
    const pm_platform *p = net->platform;
    int path[4];
    int npath = 0;
    double latency, cap;
    if (src_node == dst_node) {
        pm_platform_intranode_for(p, bytes, &latency, &cap);
        path[npath++] = pm_net_link(net, PM_NET_SHM, src_node);
        /* Shared memory has no network handshake; its rendezvous costs one
         * more round trip at the intra-node latency. */
        if (rendezvous)
            latency += 2 * latency;
    } else {
        const pm_platform_segment *s = pm_platform_segment_for(p, bytes);
        latency = s->latency;
        cap = s->bandwidth;
        if (rendezvous)
            latency += p->rendezvous_handshake;
        path[npath++] = pm_net_link(net, PM_NET_TX, src_node);
        if (p->topology == PM_PLATFORM_FATTREE) {
            int from = src_node / p->nodes_per_leaf, to = dst_node / p->nodes_per_leaf;
            if (from != to) {
                path[npath++] = pm_net_link(net, PM_NET_UP, from);
                path[npath++] = pm_net_link(net, PM_NET_DOWN, to);
            }
        }
        path[npath++] = pm_net_link(net, PM_NET_RX, dst_node);
    }
    return pm_net_start_path(net, time, path, npath, latency, cap, bytes);
}

bool pm_net_next(pm_net *net, uint64_t *id, double *time) {
    g_return_val_if_fail(net != NULL, false);
    if (net->pending->len > 0) {
        /* Kept in completion order, so the first is the earliest. */
        const pm_net_completion *c = &g_array_index(net->pending, pm_net_completion, 0);
        *id = c->id;
        *time = c->time;
        return true;
    }
    if (!net->next_cached) {
        net_state copy;
        state_copy(&copy, &net->st, net->nlinks);
        GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
        run(net, &copy, INFINITY, done, true);
        net->next_found = done->len > 0;
        if (net->next_found) {
            net->next_id = g_array_index(done, pm_net_completion, 0).id;
            net->next_time = g_array_index(done, pm_net_completion, 0).time;
        }
        g_array_free(done, TRUE);
        state_clear(&copy, net->nlinks);
        net->next_cached = true;
    }
    if (net->next_found) {
        *id = net->next_id;
        *time = net->next_time;
    }
    return net->next_found;
}

bool pm_net_next_event(pm_net *net, double *time) {
    g_return_val_if_fail(net != NULL && time != NULL, false);
    if (net->pending->len > 0) {
        *time = net->now;
        return true;
    }
    if (net->st.heap->len == 0)
        return false;
    double t = flow_at(&net->st, ev_first(&net->st))->event;
    if (isinf(t))
        return false;
    *time = t;
    return true;
}

int pm_net_advance(pm_net *net, double time, GArray *done) {
    g_return_val_if_fail(net != NULL && done != NULL && isfinite(time) && time >= net->now, 0);
    guint before = done->len;
    g_array_append_vals(done, net->pending->data, net->pending->len);
    g_array_set_size(net->pending, 0);
    move_to(net, time, done);
    return (int)(done->len - before);
}

double pm_net_now(const pm_net *net) {
    return net->now;
}

int pm_net_pending(const pm_net *net) {
    return net->st.live + (int)net->pending->len;
}

double pm_net_rate(const pm_net *net, uint64_t id) {
    int slot = slot_of(&net->st, id);
    if (slot < 0)
        return -1;
    const net_flow *f = flow_at(&net->st, slot);
    return f->state == FLOW_STREAMING ? f->rate : 0;
}

int pm_net_nlinks(const pm_net *net) {
    return net->nlinks;
}

/* A link is settled only when its load changes; the rest of the way to
 * pm_net_now it carried its current load. */
static double link_bytes(const pm_net *net, int l) {
    return net->st.bytes[l] + net->st.load[l] * (net->now - net->st.accounted[l]);
}

void pm_net_link_stats_get(const pm_net *net, int link, pm_net_link_stats *out) {
    g_return_if_fail(link >= 0 && link < net->nlinks && out != NULL);
    const net_state *st = &net->st;
    out->name = net->names[link];
    out->capacity = net->capacity[link];
    out->bytes = link_bytes(net, link);
    out->busy = st->busy[link] + (st->load[link] > 0 ? net->now - st->accounted[link] : 0);
}

int pm_net_busiest_link(const pm_net *net) {
    int best = -1;
    double best_load = 0;
    for (int l = 0; l < net->nlinks; l++) {
        double load = link_bytes(net, l) / net->capacity[l];
        if (load > best_load) {
            best_load = load;
            best = l;
        }
    }
    return best;
}
