/*
 * events.c - touched destinations, ready collectives, polling ranks.
 */
#include "simulator/events.h"

#include <string.h>
#include <time.h>

#include "scheduler/sched.h"
#include "simulator/coll.h"
#include "simulator/engine.h"
#include "simulator/report.h"
#include "simulator/rma.h"
#include "simulator/shmem.h"
#include "simulator/shmem_events.h"
#include "simulator/sim_internal.h"

/* Destination ranks that may have enabled deliveries, in the order they were
 * first touched: a ring of g_n slots (a rank is in it at most once), so that
 * touching costs no allocation. */
static int *g_touched;
static int g_touched_head, g_touched_len;
static bool *g_is_touched; /* [nranks] */
static GQueue g_colls;     /* sim_coll * with every member arrived, in arrival order */
static GArray *g_pollers;  /* ranks blocked in a poll */
static uint64_t g_change;  /* bumped by anything that might satisfy a poll */
/* Releases of pollers with nothing else able to happen (see
 * sim_events_release_pollers): since which change, from when, how many. */
static uint64_t g_idle_change;
static double g_idle_since;
static uint64_t g_idle_releases;
static uint64_t g_poll_seen;
static uint64_t g_releases; /* releases of pollers that let them go on */
static int g_n;

void sim_events_init(int nranks) {
    g_n = nranks;
    g_touched = g_new(int, nranks > 0 ? nranks : 1);
    g_touched_head = g_touched_len = 0;
    g_queue_init(&g_colls);
    g_is_touched = g_new0(bool, nranks);
    g_pollers = g_array_new(FALSE, FALSE, sizeof(int));
    g_change = 1;
    g_poll_seen = 0;
    g_idle_change = 0;
    g_idle_releases = 0;
    g_releases = 0;
}

void sim_events_fini(void) {
    g_free(g_touched);
    g_touched = NULL;
    g_touched_len = 0;
    g_queue_clear(&g_colls);
    g_free(g_is_touched);
    g_is_touched = NULL;
    g_array_free(g_pollers, TRUE);
    g_pollers = NULL;
}

void sim_events_changed(void) {
    g_change++;
}

void sim_events_touch(int dst) {
    g_change++;
    if (g_is_touched[dst])
        return;
    g_is_touched[dst] = true;
    int at = g_touched_head + g_touched_len++;
    g_touched[at >= g_n ? at - g_n : at] = dst;
}

/* The i-th touched destination from the head. */
static inline int *touched_at(int i) {
    int at = g_touched_head + i;
    return &g_touched[at >= g_n ? at - g_n : at];
}

static void touched_pop(void) {
    g_is_touched[g_touched[g_touched_head]] = false;
    if (++g_touched_head == g_n)
        g_touched_head = 0;
    g_touched_len--;
}

void sim_events_coll_ready(sim_coll *c) {
    g_change++;
    g_queue_push_tail(&g_colls, c);
}

void sim_events_add_poller(int rank) {
    g_array_append_val(g_pollers, rank);
    g_poll_seen = g_change;
}

bool sim_events_wake_pollers(void) {
    if (g_pollers->len == 0 || g_poll_seen == g_change)
        return false;
    for (guint i = 0; i < g_pollers->len; i++)
        sched_wake(g_array_index(g_pollers, int, i));
    g_array_set_size(g_pollers, 0);
    return true;
}

static double monotonic_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool sim_events_release_pollers(bool repeated) {
    if (sim_shmem_wake_satisfied()) /* before anything is stuck */
        return true;
    if (g_pollers->len == 0)
        return false;
    /* Wall time, not CPU time: the phase may span a fork (exploration),
     * whose child starts its CPU clock afresh. */
    double now = monotonic_s();
    if (g_idle_releases == 0 || g_idle_change != g_change) {
        g_idle_change = g_change;
        g_idle_since = now;
        g_idle_releases = 0;
    }
    g_idle_releases++;
    double limit = sched_step_timeout();
    if (repeated || (limit > 0 && now - g_idle_since > limit)) {
        sim_report_poll_livelock((const int *)(void *)g_pollers->data, (int)g_pollers->len,
                                 repeated, now - g_idle_since, g_idle_releases);
        g_array_set_size(g_pollers, 0);
        g_idle_releases = 0;
        sched_request_stop();
        return true;
    }
    g_releases++;
    for (guint i = 0; i < g_pollers->len; i++)
        sched_wake(g_array_index(g_pollers, int, i));
    g_array_set_size(g_pollers, 0);
    return true;
}

uint64_t sim_events_releases(void) {
    return g_releases;
}

/* Drops touched destinations that have nothing to match any more. */
static void prune_head(void) {
    while (g_touched_len) {
        if (sim_engine_has_work(*touched_at(0)))
            return;
        touched_pop();
    }
}

#define PER_DST_MAX 4096

void sim_events_all(GArray *out) {
    static sim_event *buf; /* scratch, kept: this runs at every step of an exploration */
    if (!buf)
        buf = g_new(sim_event, PER_DST_MAX);
    if (sim_ranks_choosing() > 0) { /* choices first: see sim_set_choice_events */
        sim_choice_events(out);
        return;
    }
    int kept = 0;
    for (int i = 0; i < g_touched_len; i++) {
        int dst = *touched_at(i);
        if (!sim_engine_has_work(dst)) { /* nothing can match there until touched again */
            g_is_touched[dst] = false;
        } else {
            *touched_at(kept++) = dst;
            int n = sim_engine_events(dst, buf, PER_DST_MAX);
            g_array_append_vals(out, buf, (guint)n);
        }
    }
    g_touched_len = kept;
    for (GList *l = g_colls.head; l; l = l->next) {
        sim_coll *c = l->data;
        sim_event ev = {SIM_EV_COLLECTIVE, sim_comm_world(c->comm, 0), -1, c->seq, c, NULL};
        g_array_append_val(out, ev);
    }
    for (int r = 0; r < g_n && sim_ranks_paused() > 0; r++)
        if (sim_rank_at_progress(r)) {
            sim_event ev = {SIM_EV_RESUME, r, -1, 0, NULL, NULL};
            g_array_append_val(out, ev);
        }
    sim_rma_lock_events(out);
    sim_rma_atomic_events(out);
    sim_shmem_events(out);
}

bool sim_events_first(sim_event *out, GRand *rng) {
    if (sim_ranks_choosing() > 0) { /* the lowest rank's alternative 0 */
        GArray *ch = g_array_new(FALSE, FALSE, sizeof(sim_event));
        sim_choice_events(ch);
        *out = g_array_index(ch, sim_event, 0);
        g_array_free(ch, TRUE);
        return true;
    }
    for (int r = 0; r < g_n && sim_ranks_paused() > 0; r++) /* going on is the default */
        if (sim_rank_at_progress(r)) {
            *out = (sim_event){SIM_EV_RESUME, r, -1, 0, NULL, NULL};
            return true;
        }
    if (g_colls.length) {
        sim_coll *c = g_queue_peek_head(&g_colls);
        *out = (sim_event){SIM_EV_COLLECTIVE, sim_comm_world(c->comm, 0), -1, c->seq, c, NULL};
        return true;
    }
    if (sim_rma_first_lock_event(out)) /* the earliest request first */
        return true;
    if (sim_rma_first_atomic_event(out))
        return true;
    if (sim_shmem_first_event(out)) /* OpenSHMEM's atomics and locks: issue order */
        return true;
    for (;;) {
        prune_head();
        if (!g_touched_len)
            return false;
        int dst = *touched_at(0);
        if (!rng) {
            if (sim_engine_events(dst, out, 1) == 1)
                return true;
        } else {
            sim_event buf[64];
            int n = sim_engine_events(dst, buf, 64);
            if (n > 0) {
                *out = buf[g_rand_int_range(rng, 0, n)];
                return true;
            }
        }
        /* Messages and receives that do not match (yet): nothing to fire here. */
        touched_pop();
    }
}

bool sim_events_first_ready(sim_event *out, sim_event_due_fn due, void *user) {
    for (GList *l = g_colls.head; l; l = l->next) {
        sim_coll *c = l->data;
        sim_event ev = {SIM_EV_COLLECTIVE, sim_comm_world(c->comm, 0), -1, c->seq, c, NULL};
        double ready;
        if (due(&ev, &ready, user)) {
            *out = ev;
            return true;
        }
    }
    sim_event lock;
    double lock_ready;
    if (sim_rma_first_lock_event(&lock) && due(&lock, &lock_ready, user)) {
        *out = lock;
        return true;
    }
    if (sim_rma_first_atomic_event(&lock) && due(&lock, &lock_ready, user)) {
        *out = lock;
        return true;
    }
    if (sim_shmem_first_event(&lock) && due(&lock, &lock_ready, user)) {
        *out = lock;
        return true;
    }
    static sim_event buf[PER_DST_MAX];
    while (g_touched_len) {
        int dst = *touched_at(0);
        int n = sim_engine_events(dst, buf, PER_DST_MAX);
        int best = -1;
        double best_ready = 0;
        for (int i = 0; i < n; i++) {
            double ready;
            if (!due(&buf[i], &ready, user))
                continue;
            if (best < 0 || ready < best_ready ||
                (ready == best_ready && buf[i].order < buf[best].order)) {
                best = i;
                best_ready = ready;
            }
        }
        if (best >= 0) {
            *out = buf[best];
            return true;
        }
        touched_pop();
    }
    return false;
}

void sim_fire(const sim_event *ev) {
    g_change++;
    /* The ranks whose memory the event may write: a delivery writes the
     * receiver's buffer and completes the sender's request; a collective
     * writes its members' (every rank, to keep it simple). */
    if (ev->kind == SIM_EV_COLLECTIVE) {
        for (int r = 0; r < g_n; r++)
            sim_touch_rank(r);
    } else {
        sim_touch_rank(ev->rank);
        if (ev->peer >= 0)
            sim_touch_rank(ev->peer);
    }
    if (ev->kind == SIM_EV_CHOICE) {
        sim_fire_choice(ev);
    } else if (ev->kind == SIM_EV_RESUME) {
        sim_resume_rank(ev->rank);
    } else if (sim_shmem_event_owns(ev)) {
        sim_shmem_fire(ev);
    } else if (ev->kind == SIM_EV_LOCK) {
        sim_rma_fire_lock(ev);
    } else if (ev->kind == SIM_EV_ATOMIC) {
        sim_rma_fire_atomic(ev);
    } else if (ev->kind == SIM_EV_COLLECTIVE) {
        g_queue_remove(&g_colls, ev->a);
        sim_coll_fire(ev->a);
    } else {
        sim_engine_fire(ev);
    }
    sim_shmem_wake_satisfied();
}

bool sim_event_is_safe(const sim_event *ev) {
    switch (ev->kind) {
    case SIM_EV_COLLECTIVE:
        return true;
    case SIM_EV_DELIVER:
        return sim_engine_recv_is_specific(ev->b);
    case SIM_EV_PROBE:
        return sim_engine_probe_is_safe(ev->rank, ev->a);
    case SIM_EV_RESUME:
    case SIM_EV_CHOICE: /* the rank's other alternatives */
    case SIM_EV_LOCK:   /* another origin's request may come first */
    case SIM_EV_ATOMIC: /* another origin's accumulates may come first */
        return false;
    }
    return false;
}

void sim_event_describe(const sim_event *ev, sim_event_info *out) {
    memset(out, 0, sizeof *out);
    out->kind = ev->kind;
    out->dst = ev->rank;
    out->src = ev->peer;
    if (ev->kind == SIM_EV_COLLECTIVE) {
        sim_coll *c = ev->a;
        out->comm = c->comm->id;
        out->tag = -1;
        out->what = sim_coll_call(c);
        out->site_a = c->call_sites[0];
        return;
    }
    if (ev->kind == SIM_EV_CHOICE) {
        sim_describe_choice(ev, out);
        return;
    }
    if (ev->kind == SIM_EV_RESUME) {
        out->tag = -1;
        out->comm = -1;
        sim_engine_describe_resume(ev->rank, out);
        return;
    }
    if (sim_shmem_event_owns(ev)) {
        sim_shmem_describe_event(ev, out);
        return;
    }
    if (ev->kind == SIM_EV_LOCK) {
        sim_rma_describe_lock(ev, out);
        return;
    }
    if (ev->kind == SIM_EV_ATOMIC) {
        sim_rma_describe_atomic(ev, out);
        return;
    }
    sim_engine_describe(ev, out);
}

sim_event_key sim_event_key_of(const sim_event *ev) {
    sim_event_key k = {ev->kind, ev->rank, 0, 0};
    if (ev->kind == SIM_EV_COLLECTIVE) {
        const sim_coll *c = ev->a;
        k.msg = (uint64_t)c->comm->id;
        k.recv = c->seq;
    } else if (ev->kind == SIM_EV_CHOICE) {
        sim_choice_key(ev, &k.msg, &k.recv);
    } else if (ev->kind == SIM_EV_RESUME) {
        k.msg = 0;
        k.recv = sim_rank_progress_seq(ev->rank);
    } else if (sim_shmem_event_owns(ev)) {
        sim_shmem_event_key(ev, &k);
    } else if (ev->kind == SIM_EV_LOCK) {
        sim_rma_lock_key(ev, &k);
    } else if (ev->kind == SIM_EV_ATOMIC) {
        sim_rma_atomic_key(ev, &k);
    } else {
        sim_engine_event_key(ev, &k.msg, &k.recv);
    }
    return k;
}

bool sim_event_canon(const sim_event *ev, sim_digest_feed feed, void *user) {
    if (ev->kind == SIM_EV_CHOICE) {
        int64_t f[3] = {ev->kind, ev->rank, sim_choice_canon_id(ev)};
        feed(user, f, sizeof f);
        return true;
    }
    if (ev->kind == SIM_EV_LOCK || ev->kind == SIM_EV_ATOMIC) {
        /* The key without its request or batch number: window index,
         * target and lock type or fetching (events.h, rma.h); the window
         * index is part of the state's digest. */
        sim_event_key k = sim_event_key_of(ev);
        int64_t f[4] = {ev->kind, ev->rank, ev->peer, (int64_t)k.msg};
        feed(user, f, sizeof f);
        return true;
    }
    if (ev->kind != SIM_EV_DELIVER && ev->kind != SIM_EV_PROBE)
        return false;
    sim_event_info info;
    sim_engine_describe(ev, &info);
    const sim_message *m = ev->a;
    /* A receive and a message are told apart by their call sites, ranks,
     * tag and communicator (by its digest id: ids count creations). */
    int64_t f[7] = {ev->kind,
                    ev->rank,
                    ev->peer,
                    info.tag,
                    m->comm ? sim_comm_digest_id(m->comm) : -1,
                    (int64_t)(intptr_t)info.site_a,
                    (int64_t)(intptr_t)info.site_b};
    feed(user, f, sizeof f);
    return true;
}
