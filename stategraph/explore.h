/*
 * explore.h - exhaustive exploration of message orderings.
 *
 * The state graph is built depth first.  Ranks run until every one waits in
 * MPI; then the enabled events are examined.  Events that commute with
 * everything (a receive from a named source, a complete collective) fire at
 * once without branching (partial-order reduction).  When only real choices
 * remain (a wildcard receive or probe with several candidate messages, a
 * Waitany with several complete requests), the state is hashed; a state seen
 * before is not explored again (its futures are known), otherwise every
 * alternative is explored: alternatives 1..n-1 each from a snapshot (by
 * default a copy of the process's memory kept inside it and copied back;
 * or a forked copy-on-write process), one after the other, and alternative
 * 0 by the process itself.  Every finished path records its findings and its
 * outcome in memory shared by all processes.
 *
 * The depth-first-branches strategy (delay bounding) explores the same
 * graph, but along a path it takes at most `branches` alternatives other than
 * the default one (the earliest sent event; alternative 0 of a choice inside
 * an MPI call), which is the ordering the breadth-first strategy and `ordex
 * run` take.  Sleep sets are left out there: they prune an ordering because
 * a sibling branch covers it, and under a bound that sibling may have had
 * fewer departures left.  A state is merged only with one explored with at
 * least as many departures left.
 */
#ifndef ORDEX_SG_EXPLORE_H
#define ORDEX_SG_EXPLORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "simulator/sim.h"
#include "stategraph/rundesc.h"

typedef enum sg_strategy {
    SG_EXHAUSTIVE,   /* every relevant ordering */
    SG_BFS,          /* one ordering: messages delivered in the order they were sent */
    SG_RANDOM,       /* `runs` orderings with random choices */
    SG_DFS_BRANCHES, /* every ordering with at most `branches` departures from the default */
} sg_strategy;

/* What a progress update reports.  `done` estimates the fraction of the
 * running pass's search tree already explored: the sum, over the paths
 * that ended (run to the end or merged into a known state), of the product
 * of 1 / alternatives over the branching states along each; the sum over
 * all paths of a pass is 1, whichever process explored them (--jobs,
 * --distributed).  Subtrees are taken to be the same size, and since states
 * merge into ones seen before, later subtrees are usually smaller, so the
 * estimate of what is left tends to be high.  The random strategy counts
 * its runs instead.  -1 when no estimate can be made (bfs, nothing ended
 * yet). */
struct sg_progress {
    double elapsed_s;
    uint64_t states, transitions, paths;
    double transitions_per_s; /* over the last interval */
    uint32_t depth;           /* choice points along the path being explored */
    int pass;                 /* 0 buffered (or the one send mode), 1 unbuffered */
    int passes;
    double done;            /* fraction of the running pass done, or -1 (final: 1 when complete) */
    double remaining_s;     /* estimated seconds left in the running pass, or -1 (final: 0 when
                               complete, else -1) */
    const char *basis;      /* what `done` is estimated from (static), or NULL */
    const char *checkpoint; /* the snapshots in use now: "copy", "fork" or "replay" */
    bool final;
};
typedef struct sg_progress sg_progress;

typedef struct sg_explore_opts {
    /* The program and how it runs.  Its seed chooses the random strategy's
     * orderings and nothing else; its send mode holds when not both_send_modes;
     * its output goes nowhere (paths are re-run for their output). */
    sg_rundesc run;
    bool por;             /* partial-order reduction (--no-por turns it off) */
    bool both_send_modes; /* explore buffered and unbuffered standard sends */
    uint64_t max_states;  /* 0 = no limit */
    double max_time_s;    /* 0 = no limit */
    size_t max_memory;    /* bytes; 0 = no limit */
    sg_strategy strategy;
    int runs;                /* random strategy: paths to run */
    int branches;            /* dfs-branches: departures allowed along a path */
    bool replay_checkpoints; /* re-execute prefixes instead of keeping snapshots */
    /* Snapshots are copies inside one process, not forks.  Where copies cannot
     * go on (the program maps or unmaps memory itself, closes a file that a
     * snapshot holds open, or they cannot be set up), the search goes on
     * from where it stands with fork snapshots: what it found stays, the
     * alternatives still to explore are replayed from the program's start,
     * and the result says why it switched. */
    bool copy_checkpoints;
    bool graph; /* record the state graph's edges */
    /* jobs is ordex's default (every core), not the user's: a program that
     * opens files is then explored with one job (see jobs_one_why). */
    bool jobs_defaulted;
    /* One exploration over the processes of an MPI job (dist.h; after
     * sg_dist_start): jobs is 1, copy_checkpoints set, strategy exhaustive
     * or dfs-branches.  Rank 0's result holds every rank's findings,
     * outcomes and counts; the others' results hold their own. */
    bool distributed;
    int jobs; /* processes exploring at once (>= 1; > 1 only with copy or fork checkpoints
                 and the exhaustive or dfs-branches strategy): with copy checkpoints, workers
                 sharing the work (see explore.c) */
    /* Called with the progress about four times a second and once at the
     * end (final), in the process that called sg_explore (never in the
     * exploration's processes), or NULL. */
    void (*on_progress)(const struct sg_progress *p, void *user);
    void *progress_user;
} sg_explore_opts;

/* One step of a recorded path. */
typedef struct sg_step {
    int kind; /* sim_event_kind, or SG_STEP_CHOICE for a choice inside a call */
    int dst, src, tag, comm;
    /* Call sites as offsets into the program file (return addresses; 0 =
     * none): valid in every process, whichever copy of the program made them. */
    uintptr_t site_a, site_b;
    const char *what;  /* static string (collective or call name), may be NULL */
    int choice, nalts; /* alternative taken, of how many (1 = forced) */
} sg_step;

#define SG_STEP_CHOICE 100

/* A finding as recorded by one path. */
typedef struct sg_finding {
    sim_finding_kind kind;
    char *message, *details, *location;
    int *ranks;
    int nranks;
    int pass;     /* 0 = standard sends buffered, 1 = not buffered */
    GArray *path; /* sg_step of the path that found it */
} sg_finding;

/* The outcomes of the error-free orderings of one pass (see outcomes.h).
 * `a` and `b` are set when two outcomes differ: two such orderings, in the
 * order they finished, sharing their first `prefix` steps. */
typedef struct sg_pass_outcomes {
    uint64_t distinct; /* distinct outcomes */
    bool at_least;     /* too many to count them all: there are more */
    GArray *a, *b;     /* sg_step */
    guint prefix;
} sg_pass_outcomes;

/* An edge of the state graph: from a branching state (or the initial
 * state, id 0) along `steps` steps, the first of which is `first`, to a
 * branching state or to the end of an ordering. */
typedef enum sg_node_kind { SG_NODE_STATE, SG_NODE_END_OK, SG_NODE_END_ERROR } sg_node_kind;
typedef struct sg_edge {
    uint64_t from, to; /* state ids (hashes); ends get ids of their own */
    sg_node_kind to_kind;
    int pass; /* 0 buffered standard sends, 1 unbuffered */
    uint32_t steps;
    sg_step first;
} sg_edge;

/* What one pass (one semantics of standard sends) covered. */
typedef struct sg_pass_result {
    bool ran;      /* it started (a stop in the pass before may keep it from starting) */
    bool complete; /* it was not stopped: the strategy ran every ordering it meant to */
    char *stopped; /* why it stopped (when ran and not complete), or NULL */
    uint64_t states, transitions, paths;
} sg_pass_result;

typedef struct sg_explore_result {
    GArray *edges;                /* sg_edge, when opts.graph */
    GPtrArray *findings;          /* sg_finding *, distinct (kind, location, message) */
    sg_pass_outcomes outcomes[2]; /* per pass: 0 buffered, 1 unbuffered */
    uint64_t states;              /* branching states explored */
    uint64_t transitions;         /* events fired, over all paths */
    uint64_t merged;              /* paths cut because they reached a known state */
    uint64_t snapshots;           /* forked snapshot processes */
    uint64_t paths;               /* paths that ended */
    uint64_t bound_cuts;          /* dfs-branches: alternatives left out by the bound */
    uint64_t peak_rss;            /* bytes, largest process */
    double elapsed_s;
    bool incomplete;
    char *incomplete_why;
    sg_pass_result passes[2]; /* 0 buffered (or the one send mode given), 1 unbuffered */
    int interrupted;          /* the signal that stopped the search (sg_explore_interrupt), or 0 */
    /* Why copy snapshots gave way to fork snapshots (g_free), or NULL; the
     * pass it happened in and the branching states explored by then. */
    char *checkpoint_switched;
    /* Why one process explored although jobs_defaulted asked for more
     * (g_free), or NULL. */
    char *jobs_one_why;
    /* Why the search did not reduce although opts.por asked for it (g_free),
     * or NULL: the program may cancel requests (sched_program_may_cancel). */
    char *por_off_why;
    int switched_pass;
    uint64_t switched_states;
} sg_explore_result;

/* Why snapshots copied inside the process (copy_checkpoints) cannot be
 * taken here (valgrind, a sanitizer, a kernel without PAGEMAP_SCAN...), or
 * NULL when they can. */
const char *sg_copy_checkpoints_unavailable(void);

/* Explores the program.  Returns false with *err set (g_free) when ordex
 * cannot do it (program cannot be loaded, ...).  --max-time and --max-states
 * are shared by the passes: the buffered pass may use half of each, the
 * unbuffered pass what is left.  Every process the exploration starts ends
 * before this returns, and is killed if this process dies. */
bool sg_explore(const sg_explore_opts *opts, sg_explore_result *res, char **err);

/* Stops the exploration under way, if any, because of signal `sig`: every
 * exploration process stops (a rank that computes is interrupted; a process
 * that does not end within seconds is killed), and sg_explore returns what
 * was found so far, incomplete, with res->interrupted = sig.  A second call
 * kills the exploration processes at once.  Async-signal-safe: meant for a
 * SIGINT/SIGTERM handler, which the exploration processes inherit. */
void sg_explore_interrupt(int sig);
void sg_explore_result_free(sg_explore_result *res);

#endif
