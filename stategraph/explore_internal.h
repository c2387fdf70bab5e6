/*
 * explore_internal.h - what the files of the exploration share.
 *
 * One exploration runs as a tree of processes (explore.c): every process
 * follows one path with its own `sgx_x`, and all of them count, log and stop
 * through `sgx_sh`, memory shared by every process of the exploration.
 *   strategy.c   the strategy callback: fire, merge or branch
 *   reduction.c  commuting events, sleep sets, persistent sets
 *   pool.c       snapshots, --jobs places, limits, shared counters
 *   record.c     findings and edges logged as paths end, read back at the end
 */
#ifndef ORDEX_SG_EXPLORE_INTERNAL_H
#define ORDEX_SG_EXPLORE_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "checkpoint/hash.h"
#include "simulator/events.h"
#include "stategraph/dist_proto.h"
#include "stategraph/explore.h"
#include "stategraph/state.h"

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
    /* The running pass's share of the limits: --max-time as a deadline
     * (sgx_now; 0 = none) and --max-states as a count of `states` (0 =
     * none).  The buffered pass gets half of each, the unbuffered pass what
     * is left, so that one pass cannot starve the other. */
    double deadline;
    uint64_t state_limit;
    int running; /* processes exploring now (--jobs) */
    bool stop;
    bool stop_all;   /* the stop is not only the pass's: the next pass does not run */
    int stopping;    /* the first stop writes stop_why */
    int interrupted; /* the signal that interrupted ordex, or 0 */
    int interrupts;  /* how many such signals came */
    char stop_why[256];
    char load_error[512]; /* why a pass root could not load the program */
    double last_memory_check;
    /* Progress of the path being explored (written by the process that
     * explores it, read by the driver; see sg_progress). */
    uint32_t depth;
    double done; /* -1: no estimate */
    /* The tree strategies' share of the pass's tree whose paths have ended:
     * each ended path adds its weight, the product of 1/n over the choice
     * points along it where n alternatives are explored (sgx_add_done).
     * The weights of all paths of a tree add up to 1, whoever explores
     * them (--jobs, --distributed), so the sum is the fraction done.  A
     * double, added to atomically (its bits). */
    uint64_t done_weight_bits;
    double last_done_update;
    /* Copy snapshots gave way to fork snapshots: why (set by the pass root
     * that switched, which then ends with SGX_EXIT_SWITCH_TO_FORK having
     * stacked the prefixes still to explore), and for the random strategy
     * the first run still to do. */
    char switch_why[256];
    char jobs_one_why[256]; /* set by a pass root that explores with one job (jobs_defaulted) */
    char por_off_why[256];  /* set when the reduction asked for cannot be used (sgx_reducing) */
    int resume_run;
    /* Replay checkpoints: prefixes (lists of choices) still to explore, as
     * [int choices...][u32 count] records stacked at the end of `stack`. */
    size_t stack_cap, stack_len;
    unsigned char *stack;
    /* Workers with copy snapshots (--jobs above 1, see explore.c): the
     * stack above is then shared work, taken and given under work_lock;
     * `alive` workers are left, `idle` of them wait for work.  Each worker
     * has CUT_SLOTS entries of `cuts` (see sgx_donate). */
    int work_lock;
    int alive, idle;
    bool switching; /* a worker gave way to fork snapshots: all do */
    uint32_t *cuts;
    int logged_lock;
    size_t logged;
    ckpt_hash logged_key[LOGGED_SLOTS];
    uint32_t logged_steps[LOGGED_SLOTS]; /* of the ordering logged for the key */
    size_t log_cap, log_len;
    unsigned char log[];
} shared;

extern shared *sgx_sh;

/* The exit status of a pass root that could not load the program (its
 * reason in sgx_sh->load_error). */
#define SGX_EXIT_LOAD_FAILED 3
/* The exit status of a pass root that cannot go on with copy snapshots
 * (sgx_switch_to_fork). */
#define SGX_EXIT_SWITCH_TO_FORK 5

/* Counters shared by processes that may run at once (--jobs). */
#define SHARED_ADD(field, n) __atomic_add_fetch(&sgx_sh->field, (n), __ATOMIC_RELAXED)

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
    /* Per choice point (parallel to choices): how many alternatives this
     * path's search explores there (1: it does not branch) and the place of
     * the one taken in the order it explores them (sgx_explore_order). */
    GArray *frames; /* sgx_frame */
    /* The choice point (or random run) sgx_fork_alternative is branching
     * at: what a switch to fork snapshots must still explore there. */
    int open_n, open_pos;
    bool open_runs; /* the pass root's random runs: open_pos is the run, open_n of them */
    double weight;  /* this path's weight so far (see done_weight_bits) */
    GArray *prefix; /* replay: choices to follow before exploring anew */
    guint prefix_pos;
    GRand *rng;          /* random strategy */
    uint64_t node;       /* the last branching state passed (0 = initial) */
    guint node_step;     /* path length when it was passed */
    int budget;          /* dfs-branches: departures from the default still allowed */
    sg_poll_watch polls; /* the state at the last release of pollers */
    /* A worker of a pass with copy snapshots and --jobs above 1, and which
     * one (its slot of sgx_sh->cuts). */
    bool worker;
    int worker_id;
    /* The worker is taking the snapshot to explore the prefix it took: a
     * switch to fork snapshots must give the prefix back. */
    bool holds_prefix;
} explorer;

typedef struct sgx_frame {
    int n, pos;
} sgx_frame;

extern explorer sgx_x;

/* Children forked to run at the same time as this process (--jobs; pid_t). */
extern GArray *sgx_children;

/* pool.c */
double sgx_now(void);                /* monotonic seconds */
void sgx_stop_all(const char *why);  /* stops every process and pass; the first why is kept */
void sgx_stop_pass(const char *why); /* stops every process of this pass: its budget is spent */
void sgx_check_limits(void);         /* --max-states, --max-time, --max-memory; progress */
/* The scheduler's interrupt check (sched_set_interrupt) in exploration
 * processes: true once the search stops, also when the pass's time is up. */
bool sgx_interrupt_check(void);
void sgx_note_rss(void); /* this process's peak into the shared peak */
/* In a child just forked from `parent`: it is killed when its parent ends,
 * so that no exploration process outlives the one that started it (a chain
 * of such children ends with the driver, however the driver ends). */
void sgx_die_with_parent(pid_t parent);
/* Runs the rest of the path in a snapshot: true in the "child" (which goes
 * on with its alternative), false in the parent once it may go on. */
bool sgx_fork_alternative(void);
_Noreturn void sgx_end_process(void); /* gives up the place, reaps children, ends */

/* strategy.c */
uintptr_t sgx_file_offset(const void *site, int rank); /* a call site, valid in every process */
bool sgx_choose(void *user);                           /* the scheduler's strategy callback */
void sgx_record_edge(uint64_t to, sg_node_kind kind);  /* from the last branching state */
bool sgx_replaying(void);                              /* following a replayed prefix */
bool sgx_bounded(void);                                /* dfs-branches */
bool sgx_pop_prefix(GArray *into);                     /* replay checkpoints: next prefix */
/* The alternative explored `pos`-th of n at a choice point of this search. */
int sgx_explore_order(int n, int pos);
/* Copy snapshots cannot go on (why): stacks, as prefixes for fork snapshots
 * to replay, every alternative still to explore along the current path
 * (and at the open choice point from its place, or the one after it when
 * !redo_open), notes why, and ends the pass root with
 * SGX_EXIT_SWITCH_TO_FORK.  The process's memory must be whole. */
_Noreturn void sgx_switch_to_fork(const char *why, bool open, bool redo_open);
/* The progress estimate of the current path into the shared counters. */
void sgx_note_progress(double now);
/* This path ended (not cut by a stop): its weight counts as done. */
void sgx_add_done(void);
/* The fraction of the pass's tree done so far (the sum of sgx_add_done). */
double sgx_done_weight(void);
void sgx_push_prefix_empty(void); /* the root's empty prefix */
/* Workers (--jobs above 1 with copy snapshots). */
enum { CUT_SLOTS = 1 << 16 };
void sgx_work_lock(void);
void sgx_work_unlock(void);
/* When another worker waits for work and none is shared: gives away the
 * alternatives not yet begun at the shallowest choice point of this path
 * that has any, as prefixes, and notes that this worker's snapshots must
 * not explore them (sgx_cut_here). */
void sgx_donate(void);
/* True (and forgets the note) when the alternatives after the snapshot just
 * restored at this depth were given away: the caller ends its subtree. */
bool sgx_cut_here(void);
/* In a worker that is not replaying, once another worker gave way to fork
 * snapshots: gives way too, stacking what it has left (its path so far
 * included), and ends with SGX_EXIT_SWITCH_TO_FORK. */
void sgx_follow_switch(void);

/* reduction.c */
/* Whether this exploration reduces: --no-por was not given, and the program
 * cannot cancel a request (sched_program_may_cancel).  A rank that runs may
 * cancel a send another rank's delivery needs, or a receive of its own, so
 * no two events of such a program are known to be independent; the first
 * process to find it so notes why in sgx_sh->por_off_why. */
bool sgx_reducing(void);
void sgx_sleep_after(const sim_event_key *k); /* wakes sleeping events that depend on k */
bool sgx_asleep(const sim_event_key *k);
void sgx_restrict_to_persistent(GArray *awake, GArray *all, bool first_only);

/* record.c */
void sgx_log_append(const void *data, size_t len); /* one whole record, atomically placed */
void sgx_record_path(void);                        /* the ended path's findings or outcome */
void sgx_read_log(sg_explore_result *res, GHashTable *seen);
void sgx_finding_free(gpointer f);

/* dist.c: a distributed exploration (sg_explore_opts.distributed; dist.h).
 * Everything below but sgx_dist_on and sgx_visit is for it only. */
bool sgx_dist_on(void);
/* A visit of the state (sg_visited_visit), at the rank that owns it. */
bool sgx_visit(ckpt_hash state, const ckpt_hash *probes, int nprobes, const ckpt_hash *inserts,
               int ninserts, bool *full);
/* In the exploring process: the coordinator's stop into sgx_sh. */
void sgx_dist_poll(void);
/* Waits for a prefix from another rank; false when the pass is over. */
bool sgx_dist_take_work(GArray *prefix);
/* Another rank waits for work. */
bool sgx_dist_donate_wanted(void);
/* Gives prefixes away: each a u32 count, then that many int choices. */
void sgx_dist_donate(const GByteArray *prefixes);
/* Tells the coordinator where this process loaded everything. */
void sgx_dist_check(void);

/* The driver's side. */
typedef struct sgd_pass_totals {
    sgd_pass_stats stats;
    char *stop_why, *switch_why, *lost_why; /* g_free; NULL when none */
    bool stop_all;
} sgd_pass_totals;
bool sgd_pass_begin(int pass, int visited_fd);
/* This rank's counts and done weight in, the sums known to the
 * coordinator out (rank 0). */
bool sgd_progress(const uint64_t mine[3], double done, uint64_t sum[3], double *sum_done);
/* Waits until every rank's pass is over; the totals of all. */
bool sgd_pass_done(const sgd_pass_stats *mine, const char *stop_why, const char *switch_why,
                   sgd_pass_totals *tot);
void sgd_pass_totals_clear(sgd_pass_totals *t);
bool sgd_send_result(const GByteArray *record);
/* Rank 0: calls take with every other rank's record. */
bool sgd_gather(void (*take)(int rank, const unsigned char *data, size_t len, void *user),
                void *user);

#endif
