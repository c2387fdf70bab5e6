/*
 * explore.c - depth-first exploration with fork snapshots (see explore.h).
 *
 * Process structure of one exploration pass:
 *
 *   driver (ordex) --fork--> pass root --fork--> snapshot children ...
 *
 * With one job (the default) processes never run concurrently: a process
 * that forks a child for an alternative waits for it before it goes on, and
 * the order of paths is a plain depth-first order.  With --jobs N, up to N
 * processes explore at once: a fork for an alternative does not wait while
 * fewer than N run, and a process that has finished its own path gives up
 * its place and reaps its children before it ends.  Shared counters are
 * updated atomically, log records are reserved whole, and the visited set
 * takes a lock; which of two processes reaching a state first explores it
 * then varies, so statistics and the example orderings of a finding may
 * differ from run to run (the verdict does not).  Every process ends with
 * _exit after recording its path.
 */
#define _GNU_SOURCE
#include "stategraph/explore.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint/files.h"
#include "checkpoint/memsnap.h"
#include "checkpoint/remap.h"
#include "scheduler/sched.h"
#include "simulator/events.h"
#include "stategraph/deadvars.h"
#include "stategraph/hashset.h"
#include "stategraph/outcomes.h"
#include "stategraph/state.h"
#include "stategraph/visited.h"

/* ---------------------------------------------------------------------- */
/* Memory shared by all processes of an exploration                        */

enum { REC_FINDING = 2, REC_EDGE = 3 };

/* Findings already in the log, by (kind, location, message): a path logs a
 * finding only when it is new or its path is shorter, so that the log does
 * not grow with the number of orderings that hit the same error. */
enum { LOGGED_SLOTS = 1024 };

typedef struct shared {
    uint64_t states, transitions, merged, snapshots, paths;
    uint64_t live_snapshots;
    uint64_t peak_rss;
    uint64_t crashed_paths; /* ordex itself failed on a path */
    uint64_t bound_cuts;    /* dfs-branches: alternatives left out by the bound */
    double start;
    int running; /* processes exploring now (--jobs) */
    bool stop;
    int stopping; /* the first stop_all writes stop_why */
    char stop_why[256];
    double last_progress;
    double last_memory_check;
    /* Replay checkpoints: prefixes (lists of choices) still to explore, as
     * [int choices...][u32 count] records stacked at the end of `stack`. */
    size_t stack_cap, stack_len;
    unsigned char *stack;
    int logged_lock;
    size_t logged;
    ckpt_hash logged_key[LOGGED_SLOTS];
    uint32_t logged_steps[LOGGED_SLOTS]; /* of the ordering logged for the key */
    size_t log_cap, log_len;
    unsigned char log[];
} shared;

static shared *g_sh;
static size_t g_sh_bytes;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Counters shared by processes that may run at once (--jobs). */
#define SHARED_ADD(field, n) __atomic_add_fetch(&g_sh->field, (n), __ATOMIC_RELAXED)

static void stop_all(const char *why) {
    if (__atomic_exchange_n(&g_sh->stopping, 1, __ATOMIC_ACQ_REL) == 0)
        g_strlcpy(g_sh->stop_why, why, sizeof g_sh->stop_why);
    __atomic_store_n(&g_sh->stop, true, __ATOMIC_RELEASE);
}

/* Appends one whole record: its place is reserved before it is written. */
static void log_append(const void *data, size_t len) {
    size_t at = __atomic_load_n(&g_sh->log_len, __ATOMIC_RELAXED);
    do {
        if (at + len > g_sh->log_cap) {
            stop_all("the record of explored paths is full");
            return;
        }
    } while (!__atomic_compare_exchange_n(&g_sh->log_len, &at, at + len, true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    memcpy(g_sh->log + at, data, len);
}

/* ---------------------------------------------------------------------- */
/* One process's view of its path                                          */

typedef struct explorer {
    const sg_explore_opts *opts;
    int pass;
    GArray *path;   /* sg_step */
    bool cut;       /* the path ended early: merged or stopped */
    GArray *events; /* scratch */
    /* Sleep set (sim_event_key): events whose orderings are being explored
     * elsewhere; firing one here first would only repeat that work. */
    GArray *sleep;
    GArray *choices; /* alternative taken at every choice point so far (int) */
    GArray *prefix;  /* replay: choices to follow before exploring anew */
    guint prefix_pos;
    GRand *rng;      /* random strategy */
    uint64_t node;   /* the last branching state passed (0 = initial) */
    guint node_step; /* path length when it was passed */
    int budget;      /* dfs-branches: departures from the default still allowed */
} explorer;

static explorer g_x;

static uintptr_t file_offset(const void *site, int rank) {
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
                  file_offset(info.site_a, info.dst),
                  file_offset(info.site_b, info.src),
                  info.what,
                  choice,
                  nalts};
    g_array_append_val(g_x.path, st);
}

static void check_limits(void) {
    const sg_explore_opts *o = g_x.opts;
    double t = now_s();
    if (o->max_states && g_sh->states >= o->max_states)
        stop_all("the state limit (--max-states) was reached");
    if (o->max_time_s > 0 && t - g_sh->start > o->max_time_s)
        stop_all("the time limit (--max-time) was reached");
    if (o->max_memory && t - g_sh->last_memory_check >= 0.01) {
        g_sh->last_memory_check = t; /* getrusage costs about as much as a step */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        /* Forked snapshots share most pages copy-on-write, so this is an upper
         * bound; copies in this process are in its own size. */
        uint64_t est =
            (uint64_t)ru.ru_maxrss * 1024 * (o->copy_checkpoints ? 1 : g_sh->live_snapshots + 1);
        if (est > o->max_memory)
            stop_all("the memory limit (--max-memory) was reached");
    }
    if (o->progress && t - g_sh->last_progress > 1.0 && t - g_sh->start > 1.0) {
        g_sh->last_progress = t;
        fprintf(stderr,
                "\rordex: %" G_GUINT64_FORMAT " states, %" G_GUINT64_FORMAT
                " transitions, %" G_GUINT64_FORMAT " paths, %.0f s   ",
                g_sh->states, g_sh->transitions, g_sh->paths, t - g_sh->start);
    }
}

static void note_rss(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    uint64_t b = (uint64_t)ru.ru_maxrss * 1024;
    uint64_t old = __atomic_load_n(&g_sh->peak_rss, __ATOMIC_RELAXED);
    while (b > old && !__atomic_compare_exchange_n(&g_sh->peak_rss, &old, b, true, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
}

/* Children forked to run at the same time as this process (--jobs). */
static GArray *g_running_children; /* pid_t */

/* Takes a place for one more process if fewer than --jobs run. */
static bool take_place(void) {
    int n = __atomic_load_n(&g_sh->running, __ATOMIC_RELAXED);
    while (n < g_x.opts->jobs)
        if (__atomic_compare_exchange_n(&g_sh->running, &n, n + 1, true, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED))
            return true;
    return false;
}

static void wait_child(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    SHARED_ADD(live_snapshots, -1);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        SHARED_ADD(crashed_paths, 1);
        SHARED_ADD(running, -1); /* it could not give up its place itself */
    }
}

/* fork_alternative with in-process snapshots: the "child" is this process
 * right after the snapshot, the "parent" the same process once the child's
 * paths have ended and the snapshot is restored. */
static bool copy_alternative(void) {
    /* The list is part of the snapshot: the "child" frees its copy, the
     * restore brings it back. */
    GArray *files = ckpt_files_note();
    switch (ckpt_mem_take()) {
    case CKPT_MEM_TAKEN:
        ckpt_files_free(files);
        SHARED_ADD(snapshots, 1);
        SHARED_ADD(live_snapshots, 1);
        return true;
    case CKPT_MEM_RESUMED:
        if (!ckpt_files_put_back(files))
            stop_all("a file the program had open at a snapshot was closed on a later path, "
                     "and in-process snapshots cannot open it again: use --checkpoint=fork");
        ckpt_files_free(files);
        SHARED_ADD(live_snapshots, -1);
        return false;
    default:
        ckpt_files_free(files);
        stop_all("no room for another in-process snapshot");
        return false;
    }
}

/* Runs the rest of the path in a forked copy of this process.  Returns true
 * in the child (which must then go on with its alternative).  The parent
 * waits for it, handing it its place, unless another place is free. */
static bool fork_alternative(void) {
    fflush(NULL);
    if (g_x.opts->copy_checkpoints)
        return copy_alternative();
    bool parallel = g_x.opts->jobs > 1 && take_place();
    GArray *files = parallel ? NULL : ckpt_files_note();
    ckpt_remap_before_fork();
    pid_t pid = fork();
    if (pid == 0) {
        ckpt_files_free(files);
        ckpt_remap_forked();
        sched_after_fork();
        g_array_set_size(g_running_children, 0);
        return true;
    }
    if (pid < 0) {
        ckpt_files_free(files);
        if (parallel)
            SHARED_ADD(running, -1);
        stop_all("fork failed: no memory or process limit for another snapshot");
        return false;
    }
    SHARED_ADD(snapshots, 1);
    SHARED_ADD(live_snapshots, 1);
    if (parallel) {
        g_array_append_val(g_running_children, pid);
        return false;
    }
    wait_child(pid);
    ckpt_files_put_back(files); /* what the child's orderings wrote is theirs */
    ckpt_files_free(files);
    SHARED_ADD(running, 1); /* the child gave its place back */
    return false;
}

/* The end of a process: gives up its place, then waits for its children.
 * With in-process snapshots, the end of a path goes back to the newest. */
static _Noreturn void end_process(void) {
    if (g_x.opts->copy_checkpoints && ckpt_mem_depth() > 0)
        ckpt_mem_restore();
    SHARED_ADD(running, -1);
    for (guint i = 0; i < g_running_children->len; i++)
        wait_child(g_array_index(g_running_children, pid_t, i));
    _exit(0);
}

static void sleep_after(const sim_event_key *k);

/* Records the edge from the last branching state to `to`. */
static void record_edge(uint64_t to, sg_node_kind kind) {
    if (!g_x.opts->graph)
        return;
    sg_edge e = {g_x.node, to, kind, g_x.pass, g_x.path->len - g_x.node_step, {0}};
    if (e.steps > 0)
        e.first = g_array_index(g_x.path, sg_step, g_x.node_step);
    else if (g_x.node != 0)
        return; /* the same state */
    unsigned char rec[8 + sizeof e];
    uint32_t head[2] = {REC_EDGE, (uint32_t)sizeof rec};
    memcpy(rec, head, sizeof head);
    memcpy(rec + sizeof head, &e, sizeof e);
    log_append(rec, sizeof rec);
}

static bool replaying(void) {
    return g_x.prefix && g_x.prefix_pos < g_x.prefix->len;
}

static void push_prefix(int alt) {
    size_t n = g_x.choices->len + 1;
    size_t need = n * sizeof(int) + sizeof(uint32_t);
    if (g_sh->stack_len + need > g_sh->stack_cap) {
        stop_all("the stack of orderings still to explore is full");
        return;
    }
    unsigned char *p = g_sh->stack + g_sh->stack_len;
    memcpy(p, g_x.choices->data, g_x.choices->len * sizeof(int));
    memcpy(p + g_x.choices->len * sizeof(int), &alt, sizeof(int));
    uint32_t cnt = (uint32_t)n;
    memcpy(p + n * sizeof(int), &cnt, sizeof cnt);
    g_sh->stack_len += need;
}

static bool pop_prefix(GArray *into) {
    if (g_sh->stack_len == 0)
        return false;
    uint32_t cnt;
    memcpy(&cnt, g_sh->stack + g_sh->stack_len - sizeof cnt, sizeof cnt);
    size_t bytes = cnt * sizeof(int);
    g_sh->stack_len -= bytes + sizeof cnt;
    g_array_set_size(into, 0);
    g_array_append_vals(into, g_sh->stack + g_sh->stack_len, cnt);
    return true;
}

static bool bounded(void) {
    return g_x.opts->strategy == SG_DFS_BRANCHES;
}

/* Which of n alternatives this process takes; the others are explored by
 * snapshots (fork), later re-executions (replay), or not at all (random,
 * bfs: alternative 0 is the earliest sent; dfs-branches once the path has
 * used up its departures from alternative 0). */
static int branch(int n) {
    int alt = 0;
    if (replaying()) {
        alt = g_array_index(g_x.prefix, int, g_x.prefix_pos++);
        if (alt >= n)
            alt = 0; /* cannot happen for a deterministic program */
    } else if (g_x.opts->strategy == SG_RANDOM) {
        alt = g_rand_int_range(g_x.rng, 0, n);
    } else if (g_x.opts->strategy == SG_BFS) {
        alt = 0;
    } else if (bounded() && g_x.budget <= 0) {
        SHARED_ADD(bound_cuts, (uint64_t)(n - 1));
    } else if (g_x.opts->replay_checkpoints) {
        for (int i = n - 1; i >= 1; i--)
            push_prefix(i);
    } else {
        /* This process goes on with `keep`, a forked child with each other
         * alternative.  dfs-branches forks the default (0) first: states
         * are then first recorded with the most departures left, and paths
         * with fewer left merge into them. */
        int keep = bounded() ? n - 1 : 0;
        alt = keep;
        for (int i = 0; i < n && !g_sh->stop; i++)
            if (i != keep && fork_alternative()) {
                alt = i;
                break;
            }
    }
    if (alt != 0 && bounded())
        g_x.budget--;
    g_array_append_val(g_x.choices, alt);
    return alt;
}

/* A choice inside an MPI call (sim_choose). */
static int choice_hook(int self, void *call_site, int n, const char *what, void *user) {
    sim_event_key me = {SIM_EV_DELIVER, self, 0, 0};
    sleep_after(&me); /* the choice depends on what was delivered to this rank */
    int alt = branch(n);
    sg_step st = {SG_STEP_CHOICE, self, -1, -1, -1, file_offset(call_site, self), 0, what, alt, n};
    g_array_append_val(g_x.path, st);
    return alt;
}

/* Events at different ranks commute: each changes only its receiver's
 * queues and memory.  Collectives and events at the same rank may not. */
static bool independent(const sim_event_key *a, const sim_event_key *b) {
    return a->dst != b->dst && a->kind != SIM_EV_COLLECTIVE && b->kind != SIM_EV_COLLECTIVE;
}

static bool key_equal(const sim_event_key *a, const sim_event_key *b) {
    return a->kind == b->kind && a->dst == b->dst && a->msg == b->msg && a->recv == b->recv;
}

/* Wakes the sleeping events that depend on k (they may now lead elsewhere). */
static void sleep_after(const sim_event_key *k) {
    GArray *z = g_x.sleep;
    for (guint i = z->len; i-- > 0;)
        if (!independent(&g_array_index(z, sim_event_key, i), k))
            g_array_remove_index_fast(z, i);
}

static bool asleep(const sim_event_key *k) {
    for (guint i = 0; i < g_x.sleep->len; i++)
        if (key_equal(&g_array_index(g_x.sleep, sim_event_key, i), k))
            return true;
    return false;
}

static void fire(const sim_event *ev, int choice, int nalts) {
    sim_event_key k = sim_event_key_of(ev);
    sleep_after(&k);
    push_event_step(ev, choice, nalts);
    sim_fire(ev);
    if (!replaying()) /* a replayed prefix repeats transitions already counted */
        SHARED_ADD(transitions, 1);
}

/* Keeps only the events of one rank when they form a persistent set (see
 * sim_engine_rank_persistent): the other ranks' events commute with them and
 * stay enabled, so they are explored afterwards, from the states that follow.
 * Only the rank of awake[0] is tried when `first_only` (so that the default
 * alternative stays). */
static void restrict_to_persistent(GArray *awake, GArray *all, bool first_only) {
    const sim_event *ev = (const sim_event *)(void *)all->data;
    for (guint i = 0; i < (first_only ? 1 : awake->len); i++) {
        const sim_event *e = &g_array_index(awake, sim_event, i);
        if (e->kind != SIM_EV_DELIVER && e->kind != SIM_EV_PROBE)
            continue;
        int d = e->rank;
        if (!sim_engine_rank_persistent(d, ev, (int)all->len))
            continue;
        guint k = 0;
        for (guint j = 0; j < awake->len; j++) {
            sim_event *x = &g_array_index(awake, sim_event, j);
            if (x->rank == d && (x->kind == SIM_EV_DELIVER || x->kind == SIM_EV_PROBE))
                g_array_index(awake, sim_event, k++) = *x;
        }
        g_array_set_size(awake, k);
        return;
    }
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
    if (sg_visited_check_insert(h, full))
        for (int b = g_x.budget; b <= g_x.opts->branches; b++)
            if (sg_visited_contains(with_budget(h, b)))
                return true;
    bool f2 = false;
    sg_visited_check_insert(with_budget(h, g_x.budget), &f2);
    *full = *full || f2;
    return false;
}

/* The strategy callback: called whenever no rank can run. */
static bool choose(void *user) {
    if (g_sh->stop) {
        g_x.cut = true;
        sched_request_stop();
        return true;
    }
    if (sim_events_wake_pollers())
        return true;
    GArray *evs = g_x.events;
    g_array_set_size(evs, 0);
    sim_events_all(evs);
    if (evs->len == 0) /* ranks that said "not yet" ask again; else the end */
        return sim_engine_wake_later();
    if (g_x.opts->por) {
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
    if (g_x.opts->strategy == SG_BFS || g_x.opts->strategy == SG_RANDOM) {
        /* one ordering per run: earliest sent first, or random */
        g_array_sort(evs, by_order);
        int alt = branch((int)evs->len);
        fire(&g_array_index(evs, sim_event, alt), alt, (int)evs->len);
        return true;
    }
    /* A real choice.  Alternatives asleep are explored elsewhere. */
    bool sleeping = g_x.opts->por && !bounded();
    GArray *awake = g_array_new(FALSE, FALSE, sizeof(sim_event));
    for (guint i = 0; i < evs->len; i++) {
        sim_event_key k = sim_event_key_of(&g_array_index(evs, sim_event, i));
        if (!sleeping || !asleep(&k))
            g_array_append_val(awake, g_array_index(evs, sim_event, i));
    }
    if (bounded()) /* alternative 0 is the default: the earliest sent, as bfs takes */
        g_array_sort(awake, by_order);
    if (g_x.opts->por && awake->len > 1)
        restrict_to_persistent(awake, evs, bounded());
    if (awake->len == 0) {
        g_array_free(awake, TRUE);
        SHARED_ADD(merged, 1);
        g_x.cut = true;
        sched_request_stop();
        return true;
    }
    /* Merge with a state explored before.  Only states explored with an
     * empty sleep set are recorded: those had every alternative explored.
     * A replayed prefix goes through states it has seen by construction. */
    if (!replaying()) {
        bool full = false;
        ckpt_hash h = sg_state_hash();
        if (!h.lo)
            h.lo = 1; /* 0 names the initial state */
        record_edge(h.lo, SG_NODE_STATE);
        g_x.node = h.lo;
        g_x.node_step = g_x.path->len;
        bool seen;
        if (bounded())
            seen = seen_with_budget(h, &full);
        else if (g_x.sleep->len == 0)
            seen = sg_visited_check_insert(h, &full);
        else
            seen = sg_visited_contains(h);
        if (seen) {
            g_array_free(awake, TRUE);
            SHARED_ADD(merged, 1);
            g_x.cut = true;
            sched_request_stop();
            return true;
        }
        if (full)
            stop_all("the visited-state table is full");
        SHARED_ADD(states, 1);
        check_limits();
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
            g_array_append_val(g_x.sleep, keys[j]);
    }
    fire(&alts[alt], alt, n);
    g_free(alts);
    g_free(keys);
    return true;
}

/* ---------------------------------------------------------------------- */
/* Recording a finished path                                               */

static void put_u32(GByteArray *b, uint32_t v) {
    g_byte_array_append(b, (guint8 *)&v, 4);
}

static void put_str(GByteArray *b, const char *s) {
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    put_u32(b, n);
    if (n)
        g_byte_array_append(b, (const guint8 *)s, n);
}

static void put_path(GByteArray *b) {
    put_u32(b, g_x.path->len);
    g_byte_array_append(b, (guint8 *)g_x.path->data, (guint)(g_x.path->len * sizeof(sg_step)));
}

/* Whether a finding with this key and a path of `steps` steps should be
 * logged: the first of its key, or shorter than the one logged before.  A
 * table three quarters full logs every new key (the reader keeps the
 * shortest anyway). */
static bool finding_news(ckpt_hash key, uint32_t steps) {
    key = sg_hashset_key(key);
    sg_spin_lock(&g_sh->logged_lock);
    size_t i = sg_hashset_probe(g_sh->logged_key, LOGGED_SLOTS - 1, key);
    bool known = !sg_hashset_empty(g_sh->logged_key[i]);
    bool news = !known || steps < g_sh->logged_steps[i];
    if (known ? news : g_sh->logged < LOGGED_SLOTS / 4 * 3) {
        g_sh->logged += !known;
        g_sh->logged_key[i] = key;
        g_sh->logged_steps[i] = steps;
    }
    sg_spin_unlock(&g_sh->logged_lock);
    return news;
}

static ckpt_hash finding_key(const sim_finding *f) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    ckpt_hash_u64(&h, (uint64_t)f->kind);
    const char *parts[2] = {f->location, f->message};
    for (int i = 0; i < 2; i++) {
        size_t n = parts[i] ? strlen(parts[i]) : 0;
        ckpt_hash_u64(&h, n);
        ckpt_hash_bytes(&h, parts[i] ? parts[i] : "", n);
    }
    return ckpt_hasher_final(&h);
}

static void record_path(void) {
    GPtrArray *fs = sim_findings();
    for (guint i = 0; i < fs->len; i++) {
        const sim_finding *f = g_ptr_array_index(fs, i);
        if (!finding_news(finding_key(f), g_x.path->len))
            continue;
        GByteArray *b = g_byte_array_new();
        put_u32(b, REC_FINDING);
        put_u32(b, 0); /* length, patched below */
        put_u32(b, (uint32_t)g_x.pass);
        put_u32(b, (uint32_t)f->kind);
        put_u32(b, (uint32_t)f->nranks);
        g_byte_array_append(b, (guint8 *)f->ranks, (guint)(sizeof(int) * (size_t)f->nranks));
        put_str(b, f->message);
        put_str(b, f->details);
        put_str(b, f->location);
        put_path(b);
        uint32_t len = b->len;
        memcpy(b->data + 4, &len, 4);
        log_append(b->data, b->len);
        g_byte_array_free(b, TRUE);
    }
    if (fs->len == 0 && !sg_outcomes_add(g_x.pass, sg_outcome_hash(),
                                         (const sg_step *)g_x.path->data, g_x.path->len)) {
        char why[128];
        snprintf(why, sizeof why, "an ordering has more steps than ordex keeps (%zu)",
                 (size_t)SG_OUTCOMES_MAX_STEPS);
        stop_all(why);
    }
}

/* Runs the program along one path (forking snapshots for alternatives in
 * the fork mode), records it, and ends the process. */
static _Noreturn void run_path(void) {
    sched_run_result r = sched_run(choose, NULL);
    if (!g_x.cut) {
        if (r != SCHED_RUN_STOPPED)
            sim_conclude(r == SCHED_RUN_STUCK);
        uint64_t id = SHARED_ADD(paths, 1);
        record_path();
        record_edge(id | (1ull << 63), sim_findings()->len ? SG_NODE_END_ERROR : SG_NODE_END_OK);
    }
    note_rss();
    end_process();
}

static void push_prefix_empty(void) {
    uint32_t zero = 0;
    memcpy(g_sh->stack + g_sh->stack_len, &zero, sizeof zero);
    g_sh->stack_len += sizeof zero;
}

/* The pass root: load the program, explore, record; never returns. */
static _Noreturn void run_pass(const sg_explore_opts *o, int pass) {
    sg_rundesc run = o->run;
    run.seed = 0; /* the scheduler's order is part of what is explored */
    run.exploring = true;
    if (o->both_send_modes)
        run.send_mode = pass == 0 ? SIM_SEND_EAGER : SIM_SEND_RENDEZVOUS;
    if (o->copy_checkpoints)
        ckpt_mem_prepare();
    FILE *devnull = fopen("/dev/null", "w");
    run.out = devnull;
    run.err = devnull;
    char *err = NULL;
    if (!sg_rundesc_load(&run, &err)) {
        fprintf(stderr, "ordex: %s\n", err);
        _exit(3);
    }
    sched_discard_output(true);
    sim_config cfg;
    sg_rundesc_sim_config(&run, &cfg);
    sim_create(&cfg);
    g_x.opts = o;
    g_x.pass = pass;
    g_x.path = g_array_new(FALSE, FALSE, sizeof(sg_step));
    g_x.events = g_array_new(FALSE, FALSE, sizeof(sim_event));
    g_x.sleep = g_array_new(FALSE, FALSE, sizeof(sim_event_key));
    sim_set_choice_hook(choice_hook, NULL);
    g_x.choices = g_array_new(FALSE, FALSE, sizeof(int));
    g_x.budget = o->branches;
    g_running_children = g_array_new(FALSE, FALSE, sizeof(pid_t));
    if (o->copy_checkpoints) {
        sg_deadvars_open();
        if (!ckpt_mem_init(&err)) {
            fprintf(stderr, "ordex: %s\n", err);
            _exit(3);
        }
    }

    bool tree = o->strategy == SG_EXHAUSTIVE || o->strategy == SG_DFS_BRANCHES;
    if (tree && !o->replay_checkpoints) {
        if (!o->copy_checkpoints)
            ckpt_remap_init(); /* chains of forks follow */
        run_path();
    }
    /* This process stays as it is after loading and hands out one path
     * at a time to forked workers. */
    g_x.prefix = g_array_new(FALSE, FALSE, sizeof(int));
    if (tree)
        push_prefix_empty();
    int runs = o->strategy == SG_RANDOM ? (o->runs > 0 ? o->runs : 1) : 1;
    for (int k = 0; !g_sh->stop; k++) {
        if (tree) {
            if (!pop_prefix(g_x.prefix))
                break;
        } else if (k >= runs) {
            break;
        }
        if (fork_alternative()) {
            g_x.prefix_pos = 0;
            if (o->strategy == SG_RANDOM)
                g_x.rng = g_rand_new_with_seed((guint32)(o->run.seed * 1000003u + (uint64_t)k));
            run_path();
        }
    }
    note_rss();
    _exit(0);
}

/* ---------------------------------------------------------------------- */
/* Reading the log back                                                    */

typedef struct reader {
    const unsigned char *p, *end;
} reader;

static uint32_t get_u32(reader *r) {
    uint32_t v;
    memcpy(&v, r->p, 4);
    r->p += 4;
    return v;
}

static char *get_str(reader *r) {
    uint32_t n = get_u32(r);
    if (!n)
        return NULL;
    char *s = g_strndup((const char *)r->p, n);
    r->p += n;
    return s;
}

static GArray *get_path(reader *r) {
    uint32_t n = get_u32(r);
    GArray *a = g_array_sized_new(FALSE, FALSE, sizeof(sg_step), n);
    g_array_append_vals(a, r->p, n);
    r->p += n * sizeof(sg_step);
    return a;
}

static void finding_free(gpointer p) {
    sg_finding *f = p;
    g_free(f->message);
    g_free(f->details);
    g_free(f->location);
    g_free(f->ranks);
    g_array_free(f->path, TRUE);
    g_free(f);
}

/* Keeps one finding per (kind, location, message): the one with the
 * shortest path, which is the easiest to read. */
static void add_finding(sg_explore_result *res, GHashTable *seen, sg_finding *f) {
    char *key = g_strdup_printf("%d|%s|%s", f->kind, f->location ? f->location : "",
                                f->message ? f->message : "");
    sg_finding *old = g_hash_table_lookup(seen, key);
    if (!old) {
        g_hash_table_insert(seen, key, f);
        g_ptr_array_add(res->findings, f);
        return;
    }
    g_free(key);
    if (f->path->len < old->path->len) {
        guint idx;
        g_ptr_array_find(res->findings, old, &idx);
        g_ptr_array_index(res->findings, idx) = f;
        char *k2 = g_strdup_printf("%d|%s|%s", f->kind, f->location ? f->location : "",
                                   f->message ? f->message : "");
        g_hash_table_replace(seen, k2, f);
        finding_free(old);
    } else {
        finding_free(f);
    }
}

static void read_log(sg_explore_result *res, GHashTable *seen) {
    reader r = {g_sh->log, g_sh->log + g_sh->log_len};
    while (r.p < r.end) {
        const unsigned char *start = r.p;
        uint32_t type = get_u32(&r);
        uint32_t len = get_u32(&r);
        if (type == REC_FINDING) {
            sg_finding *f = g_new0(sg_finding, 1);
            f->pass = (int)get_u32(&r);
            f->kind = (sim_finding_kind)get_u32(&r);
            f->nranks = (int)get_u32(&r);
            f->ranks = g_memdup2(r.p, sizeof(int) * (size_t)f->nranks);
            r.p += sizeof(int) * (size_t)f->nranks;
            f->message = get_str(&r);
            f->details = get_str(&r);
            f->location = get_str(&r);
            f->path = get_path(&r);
            add_finding(res, seen, f);
        } else if (type == REC_EDGE) {
            sg_edge e;
            memcpy(&e, r.p, sizeof e);
            if (res->edges)
                g_array_append_val(res->edges, e);
        }
        r.p = start + len;
    }
}

/* ---------------------------------------------------------------------- */

bool sg_explore(const sg_explore_opts *o, sg_explore_result *res, char **err) {
    memset(res, 0, sizeof *res);
    res->findings = g_ptr_array_new_with_free_func(finding_free);
    if (o->graph)
        res->edges = g_array_new(FALSE, FALSE, sizeof(sg_edge));
    size_t cap = (size_t)256 << 20;
    g_sh_bytes = sizeof(shared) + cap;
    g_sh = mmap(NULL, g_sh_bytes, PROT_READ | PROT_WRITE,
                MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (g_sh == MAP_FAILED) {
        *err = g_strdup("cannot map memory shared by the exploration processes");
        return false;
    }
    memset(g_sh, 0, sizeof *g_sh);
    g_sh->log_cap = cap;
    g_sh->stack_cap = (size_t)64 << 20;
    g_sh->stack = mmap(NULL, g_sh->stack_cap, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (g_sh->stack == MAP_FAILED) {
        *err = g_strdup("cannot map memory shared by the exploration processes");
        munmap(g_sh, g_sh_bytes);
        return false;
    }
    g_sh->start = now_s();
    /* dfs-branches keeps two keys per state (see seen_with_budget). */
    size_t per_state = o->strategy == SG_DFS_BRANCHES ? 4 : 2;
    size_t vcap = o->max_states ? (size_t)o->max_states * per_state + 1024 : (size_t)1 << 24;
    int passes = o->both_send_modes ? 2 : 1;
    bool visited = sg_visited_create(vcap);
    if (!visited || !sg_outcomes_create(passes)) {
        *err = g_strdup(visited ? "cannot map the memory that gathers the orderings' outcomes"
                                : "cannot map the visited-state table");
        sg_visited_destroy();
        munmap(g_sh->stack, g_sh->stack_cap);
        munmap(g_sh, g_sh_bytes);
        return false;
    }
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    bool ok = true;
    for (int pass = 0; pass < passes && ok && !g_sh->stop; pass++) {
        if (pass > 0) { /* a fresh graph: states of the other semantics do not carry over */
            sg_visited_destroy();
            sg_visited_create(vcap);
        }
        fflush(NULL);
        g_sh->running = 1; /* the pass root */
        pid_t pid = fork();
        if (pid == 0)
            run_pass(o, pass);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
            *err = g_strdup("the program could not be loaded (see above)");
            ok = false;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 4) { /* ckpt_mem_restore */
            stop_all("an in-process snapshot could not be restored (see above); explore with "
                     "--checkpoint=fork");
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            g_sh->crashed_paths++;
        }
    }
    if (o->progress && g_sh->last_progress > 0)
        fputs("\r\033[K", stderr);
    read_log(res, seen);
    g_hash_table_destroy(seen);
    for (int pass = 0; pass < passes; pass++)
        sg_outcomes_get(pass, &res->outcomes[pass]);
    res->states = g_sh->states;
    res->transitions = g_sh->transitions;
    res->merged = g_sh->merged;
    res->snapshots = g_sh->snapshots;
    res->paths = g_sh->paths;
    res->bound_cuts = g_sh->bound_cuts;
    res->peak_rss = g_sh->peak_rss;
    { /* this process holds the findings' paths now: count it too */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        if ((uint64_t)ru.ru_maxrss * 1024 > res->peak_rss)
            res->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
    }
    res->elapsed_s = now_s() - g_sh->start;
    if (g_sh->stop) {
        res->incomplete = true;
        res->incomplete_why = g_strdup(g_sh->stop_why);
    } else if (g_sh->crashed_paths) {
        res->incomplete = true;
        res->incomplete_why =
            g_strdup_printf("%" G_GUINT64_FORMAT " exploration process%s failed (an ordex error)",
                            g_sh->crashed_paths, g_sh->crashed_paths == 1 ? "" : "es");
    }
    sg_visited_destroy();
    sg_outcomes_destroy();
    munmap(g_sh->stack, g_sh->stack_cap);
    munmap(g_sh, g_sh_bytes);
    g_sh = NULL;
    return ok;
}

void sg_explore_result_free(sg_explore_result *res) {
    if (res->findings)
        g_ptr_array_free(res->findings, TRUE);
    for (int pass = 0; pass < 2; pass++)
        sg_pass_outcomes_clear(&res->outcomes[pass]);
    if (res->edges)
        g_array_free(res->edges, TRUE);
    g_free(res->incomplete_why);
    memset(res, 0, sizeof *res);
}

const char *sg_copy_checkpoints_unavailable(void) {
    return ckpt_mem_unavailable();
}
