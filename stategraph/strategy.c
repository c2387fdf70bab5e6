/*
 * strategy.c - the strategy callback of an exploration: at every state where
 * no rank can run, fire what must fire, merge with a state seen before, or
 * branch into alternatives (see explore_internal.h and explore.h).
 */
#include "stategraph/explore_internal.h"

#include <string.h>
#include <unistd.h>

#include "scheduler/sched.h"
#include "stategraph/hashset.h"
#include "stategraph/state.h"
#include "stategraph/visited.h"

uintptr_t sgx_file_offset(const void *site, int rank) {
    return site && rank >= 0 ? (uintptr_t)site - sched_image_bias(rank) : 0;
}

static void push_event_step(const sim_event *ev, int choice, int nalts) {
    sim_event_info info;
    sim_event_describe(ev, &info);
    sg_step st = {info.kind,
                  info.dst,
                  info.src,
                  info.tag,
                  info.comm,
                  sgx_file_offset(info.site_a, info.dst),
                  sgx_file_offset(info.site_b, info.src),
                  info.what,
                  choice,
                  nalts};
    g_array_append_val(sgx_x.path, st);
}

/* Records the edge from the last branching state to `to`. */
void sgx_record_edge(uint64_t to, sg_node_kind kind) {
    if (!sgx_x.opts->graph)
        return;
    sg_edge e = {sgx_x.node, to, kind, sgx_x.pass, sgx_x.path->len - sgx_x.node_step, {0}};
    if (e.steps > 0)
        e.first = g_array_index(sgx_x.path, sg_step, sgx_x.node_step);
    else if (sgx_x.node != 0)
        return; /* the same state */
    unsigned char rec[8 + sizeof e];
    uint32_t head[2] = {REC_EDGE, (uint32_t)sizeof rec};
    memcpy(rec, head, sizeof head);
    memcpy(rec + sizeof head, &e, sizeof e);
    sgx_log_append(rec, sizeof rec);
}

bool sgx_replaying(void) {
    return sgx_x.prefix && sgx_x.prefix_pos < sgx_x.prefix->len;
}

/* Stacks a prefix of n choices. */
static bool push_choices(const int *a, size_t n) {
    size_t need = n * sizeof(int) + sizeof(uint32_t);
    if (sgx_sh->stack_len + need > sgx_sh->stack_cap) {
        sgx_stop_all("the stack of orderings still to explore is full");
        return false;
    }
    unsigned char *p = sgx_sh->stack + sgx_sh->stack_len;
    memcpy(p, a, n * sizeof(int));
    uint32_t cnt = (uint32_t)n;
    memcpy(p + n * sizeof(int), &cnt, sizeof cnt);
    __atomic_store_n(&sgx_sh->stack_len, sgx_sh->stack_len + need, __ATOMIC_RELEASE);
    return true;
}

/* Stacks the prefix: the first k choices of this path, then alt. */
static bool push_prefix_of(guint k, int alt) {
    int *a = g_new(int, (size_t)k + 1);
    memcpy(a, sgx_x.choices->data, k * sizeof(int));
    a[k] = alt;
    bool ok = push_choices(a, (size_t)k + 1);
    g_free(a);
    return ok;
}

static void push_prefix(int alt) {
    push_prefix_of(sgx_x.choices->len, alt);
}

/* The order alternatives are explored in at one choice point: replay
 * checkpoints and dfs-branches go 0..n-1; otherwise the process keeps 0
 * for last and snapshots take 1..n-1 first. */
static bool identity_order(void) {
    return sgx_x.opts->replay_checkpoints || sgx_x.opts->strategy == SG_DFS_BRANCHES;
}

int sgx_explore_order(int n, int pos) {
    return identity_order() ? pos : pos < n - 1 ? pos + 1 : 0;
}

static int place_of(int n, int alt) {
    return identity_order() ? alt : alt == 0 ? n - 1 : alt - 1;
}

/* ---------------------------------------------------------------------- */
/* Workers sharing the work (--jobs above 1 with copy snapshots)           */

void sgx_work_lock(void) {
    sg_spin_lock(&sgx_sh->work_lock);
}

void sgx_work_unlock(void) {
    sg_spin_unlock(&sgx_sh->work_lock);
}

/* This worker's cuts: [0] how many, then the depths of the choice points
 * whose alternatives not yet begun were given away, shallowest first.  They
 * live in shared memory because restoring a snapshot must not bring back
 * the alternatives given away since it was taken. */
static uint32_t *my_cuts(void) {
    return sgx_sh->cuts + (size_t)sgx_x.worker_id * CUT_SLOTS;
}

static bool frame_cut(guint k) {
    if (!sgx_x.worker)
        return false;
    const uint32_t *c = my_cuts();
    for (uint32_t i = 1; i <= c[0]; i++)
        if (c[i] == k)
            return true;
    return false;
}

/* Donations go to the shallowest open choice point, where the subtrees are
 * largest, so that a worker that took one does not soon wait again.  A
 * cut's depth is always deeper than the cuts before it (the choice points
 * above it have nothing left), so the cuts are a stack that restores of
 * snapshots unwind in order. */
void sgx_donate(void) {
    /* Another rank waits (a distributed exploration), or a worker here. */
    bool remote = sgx_dist_donate_wanted();
    if (!remote && (__atomic_load_n(&sgx_sh->idle, __ATOMIC_RELAXED) == 0 ||
                    __atomic_load_n(&sgx_sh->stack_len, __ATOMIC_RELAXED) != 0))
        return;
    uint32_t *c = my_cuts();
    if (c[0] + 1 >= CUT_SLOTS)
        return;
    for (guint k = 0; k < sgx_x.frames->len; k++) {
        const sgx_frame *f = &g_array_index(sgx_x.frames, sgx_frame, k);
        if (f->pos >= f->n - 1 || frame_cut(k))
            continue;
        /* A prefix replayed to alternative p gets, at that choice point, the
         * sleep set of the alternatives before p in the order: those are
         * explored by this worker or by the takers of the other prefixes. */
        if (remote) {
            GByteArray *b = g_byte_array_new();
            for (int p = f->n - 1; p > f->pos; p--) {
                uint32_t n = k + 1;
                int alt = sgx_explore_order(f->n, p);
                g_byte_array_append(b, (guint8 *)&n, 4);
                g_byte_array_append(b, (guint8 *)sgx_x.choices->data, k * sizeof(int));
                g_byte_array_append(b, (guint8 *)&alt, sizeof alt);
            }
            sgx_dist_donate(b);
            g_byte_array_free(b, TRUE);
        } else {
            bool ok = true;
            sgx_work_lock();
            for (int p = f->n - 1; ok && p > f->pos; p--)
                ok = push_prefix_of(k, sgx_explore_order(f->n, p));
            sgx_work_unlock();
        }
        c[++c[0]] = k;
        return;
    }
}

bool sgx_cut_here(void) {
    if (!sgx_x.worker)
        return false;
    uint32_t *c = my_cuts();
    if (c[0] == 0 || c[c[0]] != sgx_x.choices->len)
        return false;
    c[0]--;
    return true;
}

/* whole_path: a worker that gives way because another did, in the middle
 * of its path: the path so far is stacked too, so that fork snapshots go
 * on from the state it stands in (not yet in the visited set). */
static _Noreturn void switch_to_fork(const char *why, bool at_open, bool redo_open,
                                     bool whole_path) {
    /* Shallow choice points first: the deepest comes off the stack first,
     * and at each point the next in order, so the fork snapshots go on in
     * the same depth-first order the copies would have taken.  A worker
     * gives back the prefix it was about to explore, and leaves out what
     * it gave away. */
    if (sgx_x.worker)
        sgx_work_lock();
    bool ok = true;
    if (sgx_x.worker && sgx_x.holds_prefix)
        ok = push_choices((const int *)(void *)sgx_x.prefix->data, sgx_x.prefix->len);
    for (guint k = 0; ok && k < sgx_x.frames->len; k++) {
        const sgx_frame *f = &g_array_index(sgx_x.frames, sgx_frame, k);
        for (int p = f->n - 1; ok && !frame_cut(k) && p > f->pos; p--)
            ok = push_prefix_of(k, sgx_explore_order(f->n, p));
    }
    if (whole_path) {
        if (ok) /* (a full stack stops everything: push_choices says so) */
            push_choices((const int *)(void *)sgx_x.choices->data, sgx_x.choices->len);
    } else if (sgx_x.open_runs)
        sgx_sh->resume_run = sgx_x.open_pos + (at_open && redo_open ? 0 : 1);
    else if (at_open && !frame_cut(sgx_x.choices->len))
        for (int p = sgx_x.open_n - 1; ok && p >= sgx_x.open_pos + (redo_open ? 0 : 1); p--)
            ok = push_prefix_of(sgx_x.choices->len, sgx_explore_order(sgx_x.open_n, p));
    if (!sgx_sh->switch_why[0])
        g_strlcpy(sgx_sh->switch_why, why, sizeof sgx_sh->switch_why);
    if (sgx_x.worker) {
        /* The others follow (sgx_follow_switch), so that the rest of the
         * pass runs as one job's would after a switch. */
        __atomic_store_n(&sgx_sh->switching, true, __ATOMIC_RELEASE);
        sgx_sh->alive--;
        sgx_work_unlock();
    }
    sgx_note_rss();
    _exit(SGX_EXIT_SWITCH_TO_FORK);
}

_Noreturn void sgx_switch_to_fork(const char *why, bool at_open, bool redo_open) {
    switch_to_fork(why, at_open, redo_open, false);
}

void sgx_follow_switch(void) {
    if (sgx_x.worker && __atomic_load_n(&sgx_sh->switching, __ATOMIC_ACQUIRE) && !sgx_replaying())
        switch_to_fork(sgx_sh->switch_why, false, false, true);
}

void sgx_note_progress(double now) {
    if (now - sgx_sh->last_done_update < 0.1)
        return;
    sgx_sh->last_done_update = now;
    sgx_sh->depth = sgx_x.choices ? sgx_x.choices->len : 0;
    /* The estimate itself is the driver's (sgx_done_weight); the random
     * strategy counts runs (explore.c), bfs makes none. */
}

void sgx_add_done(void) {
    if (sgx_x.opts->strategy != SG_EXHAUSTIVE && !sgx_bounded())
        return;
    uint64_t old = __atomic_load_n(&sgx_sh->done_weight_bits, __ATOMIC_RELAXED), sum;
    do {
        double d;
        memcpy(&d, &old, sizeof d);
        d += sgx_x.weight;
        memcpy(&sum, &d, sizeof sum);
    } while (!__atomic_compare_exchange_n(&sgx_sh->done_weight_bits, &old, sum, true,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

double sgx_done_weight(void) {
    uint64_t bits = __atomic_load_n(&sgx_sh->done_weight_bits, __ATOMIC_RELAXED);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

bool sgx_pop_prefix(GArray *into) {
    if (sgx_sh->stack_len == 0)
        return false;
    uint32_t cnt;
    memcpy(&cnt, sgx_sh->stack + sgx_sh->stack_len - sizeof cnt, sizeof cnt);
    size_t bytes = cnt * sizeof(int);
    sgx_sh->stack_len -= bytes + sizeof cnt;
    g_array_set_size(into, 0);
    g_array_append_vals(into, sgx_sh->stack + sgx_sh->stack_len, cnt);
    return true;
}

void sgx_push_prefix_empty(void) {
    uint32_t zero = 0;
    memcpy(sgx_sh->stack + sgx_sh->stack_len, &zero, sizeof zero);
    sgx_sh->stack_len += sizeof zero;
}

bool sgx_bounded(void) {
    return sgx_x.opts->strategy == SG_DFS_BRANCHES;
}

/* Which of n alternatives this process takes; the others are explored by
 * snapshots (fork), later re-executions (replay), or not at all (random,
 * bfs: alternative 0 is the earliest sent; dfs-branches once the path has
 * used up its departures from alternative 0). */
static int branch(int n) {
    int alt = 0;
    sgx_frame frame = {1, 0}; /* not branching here */
    bool tree = sgx_x.opts->strategy == SG_EXHAUSTIVE || sgx_bounded();
    bool spent = sgx_bounded() && sgx_x.budget <= 0;
    if (sgx_replaying()) {
        alt = g_array_index(sgx_x.prefix, int, sgx_x.prefix_pos++);
        if (alt >= n)
            alt = 0; /* cannot happen for a deterministic program */
        /* A worker's prefix was given to it: the other alternatives along
         * it are not its own to explore. */
        if (tree && !spent && !sgx_x.worker)
            frame = (sgx_frame){n, place_of(n, alt)};
    } else if (sgx_x.opts->strategy == SG_RANDOM) {
        alt = g_rand_int_range(sgx_x.rng, 0, n);
    } else if (sgx_x.opts->strategy == SG_BFS) {
        alt = 0;
    } else if (spent) {
        SHARED_ADD(bound_cuts, (uint64_t)(n - 1));
    } else if (sgx_x.opts->replay_checkpoints) {
        for (int i = n - 1; i >= 1; i--)
            push_prefix(i);
        frame = (sgx_frame){n, 0};
    } else {
        /* This process goes on with `keep`, a forked child with each other
         * alternative.  dfs-branches forks the default (0) first: states
         * are then first recorded with the most departures left, and paths
         * with fewer left merge into them. */
        int keep = sgx_bounded() ? n - 1 : 0;
        alt = keep;
        for (int i = 0; i < n && !sgx_sh->stop; i++) {
            if (i == keep)
                continue;
            sgx_x.open_n = n;
            sgx_x.open_pos = place_of(n, i);
            sgx_x.open_runs = false;
            if (sgx_fork_alternative()) {
                alt = i;
                break;
            }
        }
        frame = (sgx_frame){n, place_of(n, alt)};
    }
    if (alt != 0 && sgx_bounded())
        sgx_x.budget--;
    /* n alternatives are explored here, by someone (replayed or not). */
    if (tree && !spent)
        sgx_x.weight /= n;
    g_array_append_val(sgx_x.choices, alt);
    g_array_append_val(sgx_x.frames, frame);
    return alt;
}

/* A choice inside an MPI call is an event (sim_set_choice_events); its step
 * says which alternative of the call was taken, as a trace lists it. */
static void push_choice_step(const sim_event *ev) {
    sim_event_info info;
    sim_event_describe(ev, &info);
    sg_step st = {SG_STEP_CHOICE,
                  ev->rank,
                  -1,
                  -1,
                  -1,
                  sgx_file_offset(info.site_a, ev->rank),
                  0,
                  info.what,
                  (int)ev->order,
                  sim_rank_choice_alternatives(ev->rank)};
    g_array_append_val(sgx_x.path, st);
}

static void fire(const sim_event *ev, int choice, int nalts) {
    sim_event_key k = sim_event_key_of(ev);
    sgx_sleep_after(&k);
    if (ev->kind == SIM_EV_CHOICE)
        push_choice_step(ev);
    else
        push_event_step(ev, choice, nalts);
    sim_fire(ev);
    /* A replayed prefix repeats transitions already counted.  Choices inside
     * calls are counted as neither transitions nor states (they were not
     * when they were taken inside the call): the counts compare with
     * earlier versions and with the message-passing state graph. */
    if (!sgx_replaying() && ev->kind != SIM_EV_CHOICE)
        SHARED_ADD(transitions, 1);
}

static gint by_order(gconstpointer a, gconstpointer b) {
    const sim_event *x = a, *y = b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* dfs-branches: the visited set holds (state, departures left) pairs, plus
 * the bare state to tell quickly that a state is new.  A state explored with
 * fewer departures left than this path has must be explored again. */
static ckpt_hash with_budget(ckpt_hash h, int budget) {
    uint64_t b = (uint64_t)budget + 1;
    h.lo ^= b * 0x9e3779b97f4a7c15ull;
    h.hi ^= b * 0xc2b2ae3d27d4eb4full;
    return h;
}

static bool seen_with_budget(ckpt_hash h, bool *full) {
    int n = sgx_x.opts->branches - sgx_x.budget + 1;
    ckpt_hash *probes = g_new(ckpt_hash, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        probes[i] = with_budget(h, sgx_x.budget + i);
    ckpt_hash inserts[2] = {with_budget(h, sgx_x.budget), h};
    bool seen = sgx_visit(h, probes, n, inserts, 2, full);
    g_free(probes);
    return seen;
}

/* ---------------------------------------------------------------------- */
/* States stored with their sleep sets                                     */

/* A state explored with sleep set Z' has had every ordering explored that
 * does not start with an event of Z' (those are explored elsewhere), so a
 * later visit with a sleep set Z that contains Z' has nothing new to
 * explore.  The visited set stores the pair as the state's hash combined
 * with Z's canonical description (sim_event_canon; the empty set is the
 * bare state hash), and a visit looks up the pairs of every subset of its
 * sleep set.  Sleep sets larger than SLEEP_SUBSETS_MAX are looked up only
 * as themselves and as the empty set. */
enum { SLEEP_SUBSETS_MAX = 6 };

/* The canonical descriptions of the sleep set's events, or false when one
 * of them is not enabled here, cannot be described, or shares its
 * description with another enabled event (the pair would be ambiguous). */
static bool sleep_canon(GArray *evs, GArray *out) {
    g_array_set_size(out, 0);
    GArray *z = sgx_x.sleep;
    for (guint i = 0; i < z->len; i++) {
        const sim_event_key *k = &g_array_index(z, sim_event_key, i);
        const sim_event *hit = NULL;
        for (guint j = 0; j < evs->len && !hit; j++) {
            sim_event_key kj = sim_event_key_of(&g_array_index(evs, sim_event, j));
            if (kj.kind == k->kind && kj.dst == k->dst && kj.msg == k->msg && kj.recv == k->recv)
                hit = &g_array_index(evs, sim_event, j);
        }
        if (!hit)
            return false;
        ckpt_hasher h;
        ckpt_hasher_init(&h);
        if (!sim_event_canon(hit, ckpt_hash_feed, &h))
            return false;
        ckpt_hash d = ckpt_hasher_final(&h);
        for (guint j = 0; j < out->len; j++)
            if (ckpt_hash_equal(g_array_index(out, ckpt_hash, j), d))
                return false;
        g_array_append_val(out, d);
    }
    /* No other enabled event may share a description with one asleep. */
    for (guint j = 0; j < evs->len; j++) {
        const sim_event *e = &g_array_index(evs, sim_event, j);
        ckpt_hasher h;
        ckpt_hasher_init(&h);
        if (!sim_event_canon(e, ckpt_hash_feed, &h))
            continue;
        ckpt_hash d = ckpt_hasher_final(&h);
        int same = 0;
        for (guint i = 0; i < out->len; i++)
            same += ckpt_hash_equal(g_array_index(out, ckpt_hash, i), d);
        if (same) {
            sim_event_key kj = sim_event_key_of(e);
            if (!sgx_asleep(&kj))
                return false;
        }
    }
    return true;
}

/* The visited-set entry of state h explored with the sleep events in
 * `canon` selected by `mask` (order does not matter). */
static ckpt_hash with_sleep(ckpt_hash h, GArray *canon, uint64_t mask) {
    if (!mask)
        return h;
    ckpt_hash x = {0, 0};
    for (guint i = 0; i < canon->len; i++)
        if (mask >> i & 1) {
            ckpt_hash d = g_array_index(canon, ckpt_hash, i);
            x.lo ^= d.lo;
            x.hi ^= d.hi;
        }
    ckpt_hasher c;
    ckpt_hasher_init(&c);
    ckpt_hash_bytes(&c, &h, sizeof h);
    ckpt_hash_bytes(&c, &x, sizeof x);
    ckpt_hash_u64(&c, (uint64_t)__builtin_popcountll(mask));
    ckpt_hash out = ckpt_hasher_final(&c);
    if (!out.lo)
        out.lo = 1;
    return out;
}

/* True when h was explored with a sleep set contained in the present one;
 * else records h with the present sleep set when it can be described. */
static bool seen_with_sleep(ckpt_hash h, GArray *evs, bool *full) {
    if (sgx_x.sleep->len == 0)
        return sgx_visit(h, NULL, 0, &h, 1, full);
    static GArray *canon;
    if (!canon)
        canon = g_array_new(FALSE, FALSE, sizeof(ckpt_hash));
    if (!sleep_canon(evs, canon)) /* not recorded: explored again when reached again */
        return sgx_visit(h, &h, 1, NULL, 0, full);
    uint64_t all = canon->len >= 64 ? ~0ull : (1ull << canon->len) - 1;
    ckpt_hash probes[1 + (1 << SLEEP_SUBSETS_MAX)];
    int n = 0;
    probes[n++] = h;
    if (canon->len <= SLEEP_SUBSETS_MAX)
        for (uint64_t m = 1; m < all; m++)
            probes[n++] = with_sleep(h, canon, m);
    ckpt_hash insert = with_sleep(h, canon, all);
    return sgx_visit(h, probes, n, &insert, 1, full);
}

/* The strategy callback: called whenever no rank can run. */
bool sgx_choose(void *user) {
    sgx_dist_poll();
    if (sgx_sh->stop) {
        sgx_x.cut = true;
        sched_request_stop();
        return true;
    }
    if (sim_events_wake_pollers())
        return true;
    if (sgx_x.worker && !sgx_replaying()) {
        sgx_follow_switch();
        sgx_donate();
    }
    GArray *evs = sgx_x.events;
    g_array_set_size(evs, 0);
    sim_events_all(evs);
    /* Ranks that said "not yet" ask again; else ranks that poll in vain go
     * on; else the end. */
    if (evs->len == 0)
        return sim_engine_wake_later() || sg_release_pollers(&sgx_x.polls);
    bool reducing = sgx_reducing();
    if (reducing) {
        for (guint i = 0; i < evs->len; i++)
            if (sim_event_is_safe(&g_array_index(evs, sim_event, i))) {
                fire(&g_array_index(evs, sim_event, i), 0, 1);
                return true;
            }
    }
    if (evs->len == 1) {
        fire(&g_array_index(evs, sim_event, 0), 0, 1);
        return true;
    }
    if (sgx_x.opts->strategy == SG_BFS || sgx_x.opts->strategy == SG_RANDOM) {
        /* one ordering per run: earliest sent first, or random */
        g_array_sort(evs, by_order);
        int alt = branch((int)evs->len);
        fire(&g_array_index(evs, sim_event, alt), alt, (int)evs->len);
        return true;
    }
    /* While a rank waits in a choice, only choices are enabled. */
    int alts_kind = g_array_index(evs, sim_event, 0).kind;
    /* A real choice.  Alternatives asleep are explored elsewhere. */
    bool sleeping = reducing && !sgx_bounded();
    GArray *awake = g_array_new(FALSE, FALSE, sizeof(sim_event));
    for (guint i = 0; i < evs->len; i++) {
        sim_event_key k = sim_event_key_of(&g_array_index(evs, sim_event, i));
        if (!sleeping || !sgx_asleep(&k))
            g_array_append_val(awake, g_array_index(evs, sim_event, i));
    }
    if (sgx_bounded()) /* alternative 0 is the default: the earliest sent, as bfs takes */
        g_array_sort(awake, by_order);
    if (reducing && awake->len > 1)
        sgx_restrict_to_persistent(awake, evs, sgx_bounded());
    if (awake->len == 0) {
        g_array_free(awake, TRUE);
        SHARED_ADD(merged, 1);
        sgx_x.cut = true;
        sched_request_stop();
        return true;
    }
    /* Merge with a state explored before with a sleep set contained in
     * this one (seen_with_sleep).  A replayed prefix goes through states it
     * has seen by construction. */
    if (sgx_replaying() && sgx_x.opts->graph && sgx_x.prefix_pos + 1 == sgx_x.prefix->len) {
        /* The last state of a replayed prefix: the edges from here start at it. */
        ckpt_hash h = sg_state_hash();
        sgx_x.node = h.lo ? h.lo : 1;
        sgx_x.node_step = sgx_x.path->len;
    }
    if (!sgx_replaying()) {
        bool full = false;
        ckpt_hash h = sg_state_hash();
        if (!h.lo)
            h.lo = 1; /* 0 names the initial state */
        sgx_record_edge(h.lo, SG_NODE_STATE);
        sgx_x.node = h.lo;
        sgx_x.node_step = sgx_x.path->len;
        bool seen;
        if (sgx_bounded())
            seen = seen_with_budget(h, &full);
        else if (sleeping)
            seen = seen_with_sleep(h, evs, &full);
        else
            seen = sgx_visit(h, NULL, 0, &h, 1, &full);
        if (seen) {
            g_array_free(awake, TRUE);
            SHARED_ADD(merged, 1);
            sgx_x.cut = true;
            sched_request_stop();
            return true;
        }
        if (full)
            sgx_stop_pass("the visited-state table is full"); /* each pass has its own */
        if (alts_kind != SIM_EV_CHOICE)                       /* see fire */
            SHARED_ADD(states, 1);
        sgx_check_limits();
    }
    int n = (int)awake->len;
    sim_event *alts = (sim_event *)(void *)g_array_free(awake, FALSE);
    sim_event_key *keys = g_new(sim_event_key, n);
    for (int i = 0; i < n; i++)
        keys[i] = sim_event_key_of(&alts[i]);
    /* Alternatives are explored in the order 1..n-1, 0: each puts to sleep
     * the alternatives before it in that order. */
    int alt = branch(n);
    if (sleeping) {
        int upto = alt == 0 ? n : alt;
        for (int j = 1; j < upto; j++)
            g_array_append_val(sgx_x.sleep, keys[j]);
    }
    fire(&alts[alt], alt, n);
    g_free(alts);
    g_free(keys);
    return true;
}
