/*
 * explore.c - depth-first exploration with snapshots (see explore.h): the
 * driver, the passes and the paths.  The strategy is in strategy.c, the
 * reduction in reduction.c, the processes in pool.c, the record in record.c.
 *
 * Process structure of one exploration pass:
 *
 *   driver (ordex) --fork--> pass root --fork--> snapshot children ...
 *
 * (with fork snapshots; copy snapshots keep the whole pass in the pass root,
 * and when they cannot go on, a second pass root with fork snapshots takes
 * over the prefixes still to explore: see sgx_switch_to_fork).
 * With copy snapshots and --jobs N above 1, the pass root forks N workers
 * that share the work as prefixes of choices (run_workers, work,
 * sgx_donate; docs/architecture.md).  With fork snapshots and one job,
 * processes never run concurrently: a process
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
#include "stategraph/explore_internal.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint/memsnap.h"
#include "checkpoint/remap.h"
#include "scheduler/sched.h"
#include "stategraph/deadvars.h"
#include "stategraph/dist.h"
#include "stategraph/outcomes.h"
#include "stategraph/visited.h"

shared *sgx_sh;
explorer sgx_x;
static size_t g_sh_bytes;

/* Distributed: the totals of every rank over the passes so far, and the
 * latest sums of the progress counters (rank 0). */
static sgd_pass_stats g_dist;
static uint64_t g_dist_sum[3];
static bool g_dist_have_sum;
static double g_dist_last_progress;
static double g_dist_done; /* every rank's done weight summed (rank 0) */
static bool g_dist_foreign_records;

/* The driver (the process that called sg_explore), its running pass root,
 * and the signals it got (sg_explore_interrupt). */
static pid_t g_driver, g_pass_root;
static volatile sig_atomic_t g_driver_interrupts;

/* Seconds the exploration processes get to stop by themselves once ordex is
 * interrupted; then they are killed. */
#define INTERRUPT_GRACE_S 3.0
/* Seconds past --max-time after which a pass root that has not ended is
 * stopped as an interrupted one is (it stops by itself at the deadline). */
#define DEADLINE_GRACE_S 10.0

/* Runs the program along one path (forking snapshots for alternatives in
 * the fork mode), records it, and ends the process. */
static _Noreturn void run_path(void) {
    sched_run_result r = sched_run(sgx_choose, NULL);
    /* A rank stopped by the interrupt check (a limit, a signal) did not end:
     * the path is no ordering, unless it had found errors before. */
    if (sched_interrupted() && !sim_findings_have_error(sim_findings()))
        sgx_x.cut = true;
    if (!sgx_sh->stop) /* a path merged into a known state ends here too */
        sgx_add_done();
    if (!sgx_x.cut) {
        if (r != SCHED_RUN_STOPPED)
            sim_conclude(r == SCHED_RUN_STUCK);
        uint64_t id = SHARED_ADD(paths, 1);
        if (sgx_dist_on()) /* the graph's end nodes are per rank */
            id |= (uint64_t)sg_dist_rank() << 40;
        sgx_record_path();
        sgx_record_edge(id | (1ull << 63), sim_findings_have_error(sim_findings())
                                               ? SG_NODE_END_ERROR
                                               : SG_NODE_END_OK);
    }
    sgx_note_rss();
    sgx_end_process();
}

/* A worker: takes prefixes from the shared stack, explores each with its
 * own copy snapshots from the state after loading (a snapshot of it), and
 * gives work away when another waits (sgx_donate).  The exploration of
 * the pass is over when every worker left waits and no prefix is left. */
static _Noreturn void work(void) {
    bool idle = false;
    uint32_t *cuts = sgx_sh->cuts + (size_t)sgx_x.worker_id * CUT_SLOTS;
    for (;;) {
        sgx_work_lock();
        if (__atomic_load_n(&sgx_sh->switching, __ATOMIC_ACQUIRE)) {
            /* Another worker gave way to fork snapshots: nothing is held. */
            if (idle)
                sgx_sh->idle--;
            sgx_sh->alive--;
            sgx_work_unlock();
            sgx_note_rss();
            _exit(SGX_EXIT_SWITCH_TO_FORK);
        }
        bool stop = __atomic_load_n(&sgx_sh->stop, __ATOMIC_ACQUIRE);
        bool got = !stop && sgx_pop_prefix(sgx_x.prefix);
        if (sgx_dist_on()) {
            /* The only worker of its rank: work comes from the others. */
            sgx_work_unlock();
            if (!got && !sgx_dist_take_work(sgx_x.prefix))
                break;
            got = true;
        } else if (got && idle)
            sgx_sh->idle--;
        else if (!got && !idle)
            sgx_sh->idle++;
        idle = !got;
        if (!sgx_dist_on()) {
            bool done = !got && (stop || sgx_sh->idle >= sgx_sh->alive);
            sgx_work_unlock();
            if (done)
                break;
        }
        if (!got) {
            struct timespec ts = {0, 200 * 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        cuts[0] = 0;
        sgx_x.open_runs = false;
        sgx_x.open_n = 0;
        sgx_x.open_pos = 0;
        sgx_x.holds_prefix = true;
        if (sgx_fork_alternative()) {
            sgx_x.holds_prefix = false;
            sgx_x.prefix_pos = 0;
            run_path();
        }
        sgx_x.holds_prefix = false;
    }
    sgx_note_rss();
    _exit(0);
}

/* The pass root with copy snapshots and --jobs above 1: forks the workers
 * (all with the program loaded at the same addresses, so that their state
 * hashes agree), waits for them, and ends as one pass root would: with
 * SGX_EXIT_SWITCH_TO_FORK when workers gave way to fork snapshots and left
 * prefixes to explore.  A worker that fails loses its own open work only:
 * what it found is logged, and the pass is incomplete. */
static _Noreturn void run_workers(const sg_explore_opts *o) {
    sgx_x.prefix = g_array_new(FALSE, FALSE, sizeof(int));
    /* Distributed: rank 0 starts with the whole tree, the others ask. */
    if (!sgx_dist_on() || sg_dist_rank() == 0)
        sgx_push_prefix_empty();
    sgx_sh->alive = o->jobs;
    sgx_sh->idle = 0;
    sgx_sh->work_lock = 0;
    sgx_sh->switching = false;
    pid_t root = getpid();
    int started = 0;
    for (int w = 0; w < o->jobs; w++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            sgx_die_with_parent(root);
            ckpt_mem_forked();
            sched_after_fork();
            sgx_x.worker = true;
            sgx_x.worker_id = w;
            work();
        }
        if (pid < 0)
            __atomic_sub_fetch(&sgx_sh->alive, 1, __ATOMIC_ACQ_REL);
        else
            started++;
    }
    if (started == 0)
        sgx_stop_all("fork failed: no memory or process limit for the exploration workers");
    bool restore_failed = false, switched = false;
    while (started > 0) {
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        started--;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            continue;
        if (WIFEXITED(status) && WEXITSTATUS(status) == SGX_EXIT_SWITCH_TO_FORK) {
            switched = true; /* it left the workers itself */
            continue;
        }
        /* It ended while exploring: the others must not wait for it. */
        sgx_work_lock();
        sgx_sh->alive--;
        sgx_work_unlock();
        if (WIFEXITED(status) && WEXITSTATUS(status) == CKPT_MEM_EXIT_RESTORE_FAILED)
            restore_failed = true;
        else if (!__atomic_load_n(&sgx_sh->interrupted, __ATOMIC_ACQUIRE))
            SHARED_ADD(crashed_paths, 1);
    }
    sgx_note_rss();
    if (restore_failed)
        _exit(CKPT_MEM_EXIT_RESTORE_FAILED);
    /* Distributed, the fork snapshots' pass root also asks the other ranks
     * for work, however little is stacked here. */
    if (switched && (sgx_sh->stack_len > 0 || o->distributed) && !sgx_sh->stop)
        _exit(SGX_EXIT_SWITCH_TO_FORK);
    _exit(0);
}

/* The pass root: load the program, explore, record; never returns.  When
 * `resume`, copy snapshots gave way to fork snapshots in this pass: the
 * prefixes still to explore are stacked (sgx_switch_to_fork), or for the
 * random strategy the runs from sgx_sh->resume_run are left. */
static _Noreturn void run_pass(const sg_explore_opts *o, int pass, bool resume) {
    sg_rundesc run = o->run;
    run.seed = 0; /* the scheduler's order is part of what is explored */
    run.exploring = true;
    if (o->both_send_modes)
        run.send_mode = pass == 0 ? SIM_SEND_EAGER : SIM_SEND_RENDEZVOUS;
    if (o->copy_checkpoints)
        ckpt_mem_prepare();
    if (o->distributed) {
        /* mpiexec.mpich signals the process group of the processes it
         * started (SIGUSR1 when one of the job failed, with
         * -disable-auto-cleanup): the driver's note of it (cli/explore.c)
         * is not the program's, and the program's group is its own. */
        setpgid(0, 0);
        signal(SIGUSR1, SIG_DFL);
    }
    FILE *devnull = fopen("/dev/null", "w");
    run.out = devnull;
    run.err = devnull;
    char *err = NULL;
    if (!sg_rundesc_load(&run, &err)) {
        g_strlcpy(sgx_sh->load_error, err, sizeof sgx_sh->load_error);
        _exit(SGX_EXIT_LOAD_FAILED);
    }
    sched_discard_output(true);
    /* Limits and signals must also stop a rank that computes. */
    sched_set_interrupt(sgx_interrupt_check);
    sim_config cfg;
    sg_rundesc_sim_config(&run, &cfg);
    sim_create(&cfg);
    if (o->distributed && sched_program_opens_files()) {
        g_strlcpy(sgx_sh->load_error,
                  "--distributed cannot explore a program that opens files (fopen, open, "
                  "MPI_File_open, ...): the ranks on one host would share them",
                  sizeof sgx_sh->load_error);
        _exit(SGX_EXIT_LOAD_FAILED);
    }
    if (o->jobs > 1 && o->jobs_defaulted && sched_program_opens_files()) {
        /* Processes exploring at once would read and write the same host
         * files, each ordering seeing the others' bytes: one job, unless
         * the user asks for more. */
        static sg_explore_opts one;
        one = *o;
        one.jobs = 1;
        o = &one;
        g_strlcpy(sgx_sh->jobs_one_why,
                  "the program opens files (fopen, open, MPI_File_open, ...), which processes "
                  "exploring at once would share; --jobs N explores with N anyway",
                  sizeof sgx_sh->jobs_one_why);
    }
    sgx_x.opts = o;
    sgx_x.pass = pass;
    sgx_x.path = g_array_new(FALSE, FALSE, sizeof(sg_step));
    sgx_x.events = g_array_new(FALSE, FALSE, sizeof(sim_event));
    sgx_x.sleep = g_array_new(FALSE, FALSE, sizeof(sim_event_key));
    sim_set_choice_events(true);
    sgx_x.choices = g_array_new(FALSE, FALSE, sizeof(int));
    sgx_x.frames = g_array_new(FALSE, FALSE, sizeof(sgx_frame));
    sgx_x.budget = o->branches;
    sgx_x.weight = 1;
    sgx_children = g_array_new(FALSE, FALSE, sizeof(pid_t));
    bool tree = o->strategy == SG_EXHAUSTIVE || o->strategy == SG_DFS_BRANCHES;
    if (o->copy_checkpoints) {
        sg_deadvars_open();
        if (!ckpt_mem_init(&err)) {
            /* Nothing explored yet: fork snapshots start from the root. */
            if (tree && (!o->distributed || sg_dist_rank() == 0))
                sgx_push_prefix_empty();
            sgx_x.open_runs = !tree;
            sgx_x.open_pos = 0;
            sgx_switch_to_fork(err, true, true);
        }
    }

    /* (a pass root started afresh after copies gave way may lay out its
     * memory otherwise: it is not compared, see prepare_pass_roots) */
    if (!resume)
        sgx_dist_check();
    if (tree && o->copy_checkpoints && (o->jobs > 1 || o->distributed) && !resume)
        run_workers(o);
    if (tree && !o->replay_checkpoints && !o->copy_checkpoints)
        ckpt_remap_init(); /* chains of forks follow */
    /* Distributed, fork snapshots explore prefixes as replay does, so that
     * work comes from the other ranks when this rank's is done; the root's
     * prefix is rank 0's. */
    if (tree && !o->replay_checkpoints && !resume && !o->distributed)
        run_path();
    /* This process stays as it is after loading and hands out one path
     * at a time to forked workers. */
    sgx_x.prefix = g_array_new(FALSE, FALSE, sizeof(int));
    if (tree && !resume && (!o->distributed || sg_dist_rank() == 0))
        sgx_push_prefix_empty();
    int runs = o->strategy == SG_RANDOM ? (o->runs > 0 ? o->runs : 1) : 1;
    for (int k = resume && !tree ? sgx_sh->resume_run : 0; !sgx_sh->stop; k++) {
        if (tree) {
            /* Distributed, after copy snapshots gave way: the rest of the
             * pass's work comes from the other ranks. */
            if (!sgx_pop_prefix(sgx_x.prefix) &&
                !(o->distributed && sgx_dist_take_work(sgx_x.prefix)))
                break;
        } else if (k >= runs) {
            break;
        }
        if (o->strategy == SG_RANDOM)
            sgx_sh->done = (double)k / runs;
        sgx_x.open_runs = true;
        sgx_x.open_n = runs;
        sgx_x.open_pos = k;
        if (sgx_fork_alternative()) {
            sgx_x.prefix_pos = 0;
            if (o->strategy == SG_RANDOM)
                sgx_x.rng = g_rand_new_with_seed((guint32)(o->run.seed * 1000003u + (uint64_t)k));
            run_path();
        }
    }
    sgx_note_rss();
    /* Fork snapshots with --jobs above 1 (after copy ones gave way) may
     * still run prefixes taken here: they end with this process. */
    sgx_end_process();
}

void sg_explore_interrupt(int sig) {
    shared *sh = __atomic_load_n(&sgx_sh, __ATOMIC_ACQUIRE);
    if (!sh)
        return;
    int none = 0;
    __atomic_compare_exchange_n(&sh->interrupted, &none, sig, false, __ATOMIC_ACQ_REL,
                                __ATOMIC_RELAXED);
    sgx_stop_all(sig == SIGINT    ? "ordex was interrupted (SIGINT)"
                 : sig == SIGTERM ? "ordex was interrupted (SIGTERM)"
                                  : "ordex was interrupted by a signal");
    /* Exploration processes inherit the handler (a terminal's Ctrl-C reaches
     * all of them): only the driver counts and kills. */
    if (getpid() == g_driver && ++g_driver_interrupts > 1 && g_pass_root > 0)
        kill(g_pass_root, SIGKILL); /* its descendants die with it */
}

/* Progress as the driver reports it. */
static const sg_explore_opts *g_opts; /* the options in use (copy may give way to fork) */
static int g_pass, g_passes;
static double g_pass_start, g_last_report, g_last_report_t;
static uint64_t g_last_report_transitions;

#define PROGRESS_INTERVAL_S 0.25

/* complete: (final) the search ran to its end. */
static void report_progress(bool final, bool complete) {
    const sg_explore_opts *o = g_opts;
    if (!o->on_progress)
        return;
    double now = sgx_now();
    if (!final && now - g_last_report < PROGRESS_INTERVAL_S)
        return;
    sg_progress p = {0};
    p.elapsed_s = now - sgx_sh->start;
    p.states = __atomic_load_n(&sgx_sh->states, __ATOMIC_RELAXED);
    p.transitions = __atomic_load_n(&sgx_sh->transitions, __ATOMIC_RELAXED);
    p.paths = __atomic_load_n(&sgx_sh->paths, __ATOMIC_RELAXED);
    if (o->distributed && (final || g_dist_have_sum)) { /* every rank's */
        p.states = final ? g_dist.states : g_dist_sum[0];
        p.transitions = final ? g_dist.transitions : g_dist_sum[1];
        p.paths = final ? g_dist.paths : g_dist_sum[2];
    }
    double dt = now - g_last_report_t;
    p.transitions_per_s = final    ? (p.elapsed_s > 0 ? (double)p.transitions / p.elapsed_s : 0)
                          : dt > 0 ? (double)(p.transitions - g_last_report_transitions) / dt
                                   : 0;
    p.depth = sgx_sh->depth;
    p.pass = g_pass;
    p.passes = g_passes;
    double done = sgx_sh->done; /* the random strategy's runs */
    bool tree = o->strategy == SG_EXHAUSTIVE || o->strategy == SG_DFS_BRANCHES;
    if (tree) { /* the share of the tree whose paths ended, every process's */
        done = o->distributed ? g_dist_done : sgx_done_weight();
        if (done <= 0)
            done = -1; /* no path ended yet */
    }
    p.done = final && complete ? 1 : done;
    /* A complete pass has ended paths whose weights add up to 1: say what
     * they add up to (a test holds it to 1), up to rounding. */
    if (final && complete && tree && !o->distributed && fabs(done - 1) > 1e-9)
        p.done = done;
    p.remaining_s = -1;
    if (final && complete)
        p.remaining_s = 0;
    else if (!final && done > 0 && done < 1)
        p.remaining_s = (now - g_pass_start) * (1 - done) / done;
    if (!(final && complete) && done >= 0)
        p.basis = o->strategy == SG_RANDOM
                      ? "runs done"
                      : "weights of the orderings ended (1/n per choice point of n alternatives)";
    p.checkpoint = o->replay_checkpoints ? "replay" : o->copy_checkpoints ? "copy" : "fork";
    p.final = final;
    g_last_report = now;
    g_last_report_t = now;
    g_last_report_transitions = p.transitions;
    o->on_progress(&p, o->progress_user);
}

/* ---------------------------------------------------------------------- */
/* Distributed (dist.h): what the driver says to the other ranks           */

#define AGENT_LOST_WHY "the MPI agent of this rank ended: the distributed exploration cannot go on"

static void dist_progress(void) {
    double now = sgx_now();
    if (now - g_dist_last_progress < 0.2)
        return;
    g_dist_last_progress = now;
    uint64_t mine[3] = {__atomic_load_n(&sgx_sh->states, __ATOMIC_RELAXED),
                        __atomic_load_n(&sgx_sh->transitions, __ATOMIC_RELAXED),
                        __atomic_load_n(&sgx_sh->paths, __ATOMIC_RELAXED)};
    g_dist_have_sum = sgd_progress(mine, sgx_done_weight(), g_dist_sum, &g_dist_done);
    if (!g_dist_have_sum) /* this rank cannot go on with the others */
        sgx_stop_all(AGENT_LOST_WHY);
}

static void dist_add(const sgd_pass_stats *s) {
    g_dist.states += s->states;
    g_dist.transitions += s->transitions;
    g_dist.paths += s->paths;
    g_dist.merged += s->merged;
    g_dist.snapshots += s->snapshots;
    g_dist.crashed += s->crashed;
    g_dist.bound_cuts += s->bound_cuts;
    if (s->peak_rss > g_dist.peak_rss)
        g_dist.peak_rss = s->peak_rss;
}

/* Waits for every rank to end the pass, and makes this rank's view of it
 * the totals of all (what rank 0 reports). */
static void dist_pass_done(sg_explore_result *res, int pass, uint64_t crashed, uint64_t merged0,
                           uint64_t snapshots0, uint64_t cuts0) {
    sg_pass_result *pr = &res->passes[pass];
    sgd_pass_stats mine = {.pass = pass,
                           .states = pr->states,
                           .transitions = pr->transitions,
                           .paths = pr->paths,
                           .merged = sgx_sh->merged - merged0,
                           .snapshots = sgx_sh->snapshots - snapshots0,
                           .crashed = crashed,
                           .bound_cuts = sgx_sh->bound_cuts - cuts0,
                           .peak_rss = sgx_sh->peak_rss,
                           .stop_all = __atomic_load_n(&sgx_sh->stop_all, __ATOMIC_ACQUIRE)};
    const char *switched =
        res->checkpoint_switched && res->switched_pass == pass ? res->checkpoint_switched : NULL;
    sgd_pass_totals t;
    /* (this rank's crashes go in the counts, its stop alone in the reason) */
    const char *stop_why = sgx_sh->stop ? sgx_sh->stop_why : NULL;
    if (!sgd_pass_done(&mine, stop_why, switched, &t)) {
        if (!pr->stopped)
            pr->stopped = g_strdup(AGENT_LOST_WHY);
        sgx_sh->stop_all = true;
        dist_add(&mine);
        return;
    }
    pr->states = t.stats.states;
    pr->transitions = t.stats.transitions;
    pr->paths = t.stats.paths;
    g_free(pr->stopped);
    pr->stopped = NULL;
    /* Every reason the pass is incomplete: a stop does not hide lost work. */
    GString *why = g_string_new(NULL);
    if (t.stop_why && t.stop_why[0])
        g_string_append(why, t.stop_why);
    if (t.stats.crashed)
        g_string_append_printf(
            why, "%s%" G_GUINT64_FORMAT " exploration process%s failed (an ordex error)",
            why->len ? "; " : "", (uint64_t)t.stats.crashed, t.stats.crashed == 1 ? "" : "es");
    if (t.lost_why && t.lost_why[0])
        g_string_append_printf(why, "%s%s", why->len ? "; " : "", t.lost_why);
    pr->stopped = g_string_free(why, why->len == 0);
    if (t.switch_why && t.switch_why[0] && !res->checkpoint_switched) {
        res->checkpoint_switched = g_strdup(t.switch_why);
        res->switched_pass = pass;
        res->switched_states = g_dist.states;
    }
    if (t.stop_all)
        __atomic_store_n(&sgx_sh->stop_all, true, __ATOMIC_RELEASE);
    /* Steps name their calls by addresses in ordex: another rank's are
     * this rank's only when both loaded ordex at the same address. */
    g_dist_foreign_records = g_dist_foreign_records || t.stats.mismatch;
    dist_add(&t.stats);
    sgd_pass_totals_clear(&t);
}

static void put_u64(GByteArray *b, uint64_t v) {
    g_byte_array_append(b, (guint8 *)&v, 8);
}

static uint64_t get_u64(const unsigned char **p, const unsigned char *end) {
    uint64_t v = 0;
    if (end - *p >= 8)
        memcpy(&v, *p, 8);
    *p += 8;
    return v;
}

/* Another rank's record: its log of findings and edges, then per pass its
 * outcomes (sg_outcomes_export). */
static void take_record(int rank, const unsigned char *data, size_t len, void *user) {
    int passes = *(int *)user;
    const unsigned char *p = data, *end = data + len;
    if (len < 8)
        return; /* it had nothing to give (it failed before its passes) */
    uint64_t n = get_u64(&p, end);
    if (n > (uint64_t)(end - p))
        return;
    if (n)
        sgx_log_append(p, n);
    p += n;
    for (int pass = 0; pass < passes && p < end; pass++) {
        uint64_t k = get_u64(&p, end);
        if (k > (uint64_t)(end - p))
            return;
        sg_outcomes_import(pass, p, k);
        p += k;
    }
}

static void dist_gather(int passes) {
    if (g_dist_foreign_records) /* the search stopped, saying why; nothing to read */
        return;
    if (sg_dist_rank() == 0) {
        sgd_gather(take_record, &passes);
        return;
    }
    GByteArray *b = g_byte_array_new();
    put_u64(b, sgx_sh->log_len);
    g_byte_array_append(b, sgx_sh->log, (guint)sgx_sh->log_len);
    for (int pass = 0; pass < passes; pass++) {
        GByteArray *o = sg_outcomes_export(pass);
        put_u64(b, o->len);
        g_byte_array_append(b, o->data, o->len);
        g_byte_array_free(o, TRUE);
    }
    sgd_send_result(b);
    g_byte_array_free(b, TRUE);
}

/* Distributed: every pass root is forked before the first pass begins, and
 * waits there for its turn.  States are compared across processes by
 * hashes of memory that holds, besides the program's data, leftovers of
 * ordex's own at the addresses its heap had when the pass root was forked
 * (a rank's stack below its frames, for instance); the drivers' heaps are
 * alike until the first pass, but not after it (rank 0 gathers and
 * reports), so a later pass root forked then would hash the same states
 * differently from the other ranks' and never merge with them.  A pass
 * root forked afresh after copy snapshots gave way may; that costs time,
 * never findings. */
typedef struct prepared {
    pid_t pid;
    int go; /* the byte written here starts it: bit 0 = copy snapshots */
} prepared;
static prepared g_prepared[2];

static void prepare_pass_roots(const sg_explore_opts *o, int passes, const int *visited_fds) {
    for (int pass = 0; pass < passes; pass++) {
        int p[2];
        if (pipe(p) != 0)
            continue; /* that pass root is forked when the pass begins */
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            sgx_die_with_parent(g_driver);
            close(p[1]);
            for (int q = 0; q < pass; q++)
                close(g_prepared[q].go);
            unsigned char b = 0;
            ssize_t r;
            while ((r = read(p[0], &b, 1)) < 0 && errno == EINTR)
                ;
            if (r != 1)
                _exit(0); /* the pass is not run */
            close(p[0]);
            static sg_explore_opts mine;
            mine = *o;
            mine.copy_checkpoints = (b & 1) != 0;
            if (pass > 0 && !sg_visited_attach(visited_fds[pass]))
                _exit(2);
            run_pass(&mine, pass, false);
        }
        close(p[0]);
        if (pid < 0) {
            close(p[1]);
            continue;
        }
        g_prepared[pass] = (prepared){pid, p[1]};
    }
}

/* Starts the pass root prepared for `pass` (the caller's pid, never 0). */
static pid_t release_prepared(int pass, const sg_explore_opts *cur) {
    prepared *pr = &g_prepared[pass];
    unsigned char b = cur->copy_checkpoints ? 1 : 0;
    ssize_t w;
    while ((w = write(pr->go, &b, 1)) < 0 && errno == EINTR)
        ;
    close(pr->go);
    pid_t pid = pr->pid;
    pr->pid = 0;
    return w == 1 ? pid : -1;
}

/* The prepared pass roots whose pass did not run end. */
static void drop_prepared(void) {
    for (int pass = 0; pass < 2; pass++) {
        if (g_prepared[pass].pid <= 0)
            continue;
        close(g_prepared[pass].go);
        while (waitpid(g_prepared[pass].pid, NULL, 0) < 0 && errno == EINTR)
            ;
        g_prepared[pass].pid = 0;
    }
}

/* Waits for the pass root to end; once ordex is interrupted, kills it if it
 * has not ended within the grace time. */
static int wait_pass_root(pid_t pid) {
    int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
    int status = 0;
    double kill_at = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        int wait_ms =
            g_opts->on_progress || g_opts->distributed ? (int)(PROGRESS_INTERVAL_S * 1000) : 1000;
        if (g_opts->distributed)
            dist_progress();
        report_progress(false, false);
        /* Interrupted, (distributed) this rank lost its agent, or the pass's
         * time is long over (a pass root that was stopped, for instance):
         * the pass root gets a grace time to stop by itself. */
        if (__atomic_load_n(&sgx_sh->interrupted, __ATOMIC_ACQUIRE) ||
            (g_opts->distributed && sg_dist_failed()) ||
            (sgx_sh->deadline > 0 && sgx_now() > sgx_sh->deadline + DEADLINE_GRACE_S)) {
            double now = sgx_now();
            if (kill_at == 0)
                kill_at = now + INTERRUPT_GRACE_S;
            if (now >= kill_at) {
                kill(pid, SIGKILL);
                kill_at = now + 3600;
            }
            wait_ms = 50;
        }
        if (pfd >= 0) {
            struct pollfd p = {pfd, POLLIN, 0};
            poll(&p, 1, wait_ms); /* a signal ends it early */
        } else {
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    if (pfd >= 0)
        close(pfd);
    return status;
}

static const char *pass_name(int pass) {
    return pass == 0 ? "buffered pass" : "unbuffered pass";
}

/* Why the exploration as a whole is incomplete (g_free), or NULL. */
static char *incomplete_why(const sg_explore_result *res, int passes) {
    if (res->interrupted)
        return g_strdup(res->interrupted == SIGINT    ? "ordex was interrupted (SIGINT)"
                        : res->interrupted == SIGTERM ? "ordex was interrupted (SIGTERM)"
                                                      : "ordex was interrupted by a signal");
    const sg_pass_result *a = &res->passes[0], *b = &res->passes[1];
    if (passes == 1)
        return g_strdup(a->stopped);
    if (a->stopped && !b->ran)
        return g_strdup_printf("%s (in the buffered pass; the unbuffered pass did not run)",
                               a->stopped);
    if (a->stopped && b->stopped)
        return strcmp(a->stopped, b->stopped) == 0
                   ? g_strdup_printf("%s (in both passes)", a->stopped)
                   : g_strdup_printf("%s (in the buffered pass); %s (in the unbuffered pass)",
                                     a->stopped, b->stopped);
    if (a->stopped || b->stopped)
        return g_strdup_printf("%s (in the %s)", a->stopped ? a->stopped : b->stopped,
                               pass_name(a->stopped ? 0 : 1));
    return NULL;
}

bool sg_explore(const sg_explore_opts *o, sg_explore_result *res, char **err) {
    memset(res, 0, sizeof *res);
    res->findings = g_ptr_array_new_with_free_func(sgx_finding_free);
    if (o->graph)
        res->edges = g_array_new(FALSE, FALSE, sizeof(sg_edge));
    size_t cap = (size_t)256 << 20;
    g_sh_bytes = sizeof(shared) + cap;
    sgx_sh = mmap(NULL, g_sh_bytes, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (sgx_sh == MAP_FAILED) {
        *err = g_strdup("cannot map memory shared by the exploration processes");
        return false;
    }
    memset(sgx_sh, 0, sizeof *sgx_sh);
    memset(&g_dist, 0, sizeof g_dist);
    g_dist_have_sum = false;
    g_dist_last_progress = 0;
    g_dist_foreign_records = false;
    sgx_sh->log_cap = cap;
    sgx_sh->stack_cap = (size_t)64 << 20;
    sgx_sh->stack = mmap(NULL, sgx_sh->stack_cap, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (sgx_sh->stack == MAP_FAILED) {
        *err = g_strdup("cannot map memory shared by the exploration processes");
        munmap(sgx_sh, g_sh_bytes);
        return false;
    }
    if (o->jobs > 1 || o->distributed) {
        size_t cb = (size_t)o->jobs * CUT_SLOTS * sizeof(uint32_t);
        sgx_sh->cuts = mmap(NULL, cb, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (sgx_sh->cuts == MAP_FAILED) {
            *err = g_strdup("cannot map memory shared by the exploration processes");
            munmap(sgx_sh->stack, sgx_sh->stack_cap);
            munmap(sgx_sh, g_sh_bytes);
            return false;
        }
    }
    sgx_sh->start = sgx_now();
    /* dfs-branches keeps two keys per state (see seen_with_budget). */
    size_t per_state = o->strategy == SG_DFS_BRANCHES ? 4 : 2;
    size_t vcap = o->max_states ? (size_t)o->max_states * per_state + 1024 : (size_t)1 << 24;
    int passes = o->both_send_modes ? 2 : 1;
    /* Distributed: each pass's table is made now, in a memory file whose
     * descriptor goes to the agent (which answers other ranks' visits from
     * it) when the pass begins; the last made is the first pass's. */
    int visited_fds[2] = {-1, -1};
    bool visited = true;
    if (o->distributed)
        for (int pass = passes - 1; pass >= 0 && visited; pass--)
            visited = sg_visited_create_fd(vcap, &visited_fds[pass]);
    else
        visited = sg_visited_create(vcap);
    if (!visited || !sg_outcomes_create(passes)) {
        *err = g_strdup(visited ? "cannot map the memory that gathers the orderings' outcomes"
                                : "cannot map the visited-state table");
        for (int pass = 0; pass < 2; pass++)
            if (visited_fds[pass] >= 0)
                close(visited_fds[pass]);
        sg_visited_destroy();
        munmap(sgx_sh->stack, sgx_sh->stack_cap);
        if (sgx_sh->cuts)
            munmap(sgx_sh->cuts, (size_t)o->jobs * CUT_SLOTS * sizeof(uint32_t));
        munmap(sgx_sh, g_sh_bytes);
        return false;
    }
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    bool ok = true;
    g_driver = getpid();
    g_driver_interrupts = 0;
    sg_explore_opts cur = *o;
    g_opts = &cur;
    g_passes = passes;
    g_last_report = g_last_report_t = 0;
    g_last_report_transitions = 0;
    memset(g_prepared, 0, sizeof g_prepared);
    if (o->distributed)
        prepare_pass_roots(&cur, passes, visited_fds);
    for (int pass = 0; pass < passes && ok; pass++) {
        if (__atomic_load_n(&sgx_sh->stop_all, __ATOMIC_ACQUIRE))
            break;
        if (pass > 0) {
            /* The last pass's budget was spent, or it ended: this one starts
             * afresh, with a fresh graph (states of the other semantics do
             * not carry over) and no prefixes left over. */
            sgx_sh->stopping = 0;
            sgx_sh->stop_why[0] = '\0';
            __atomic_store_n(&sgx_sh->stop, false, __ATOMIC_RELEASE);
            if (__atomic_load_n(&sgx_sh->stop_all, __ATOMIC_ACQUIRE)) { /* a signal just came */
                sgx_sh->stop = true;
                break;
            }
            sgx_sh->stack_len = 0;
            if (!o->distributed) { /* (a distributed one's tables are made) */
                sg_visited_destroy();
                sg_visited_create(vcap);
            }
        }
        /* Distributed, the agent answers other ranks' visits from this
         * pass's table.  A rank that cannot begin the pass still ends it
         * with the others (sgd_pass_done), so that none waits for it. */
        bool begun = true;
        if (o->distributed) {
            /* A pass root forked afresh here (after copies gave way) uses this
             * pass's table too. */
            if (pass > 0 && !sg_visited_attach(visited_fds[pass]))
                sgx_stop_all("cannot map the visited-state table");
            begun = sgd_pass_begin(pass, visited_fds[pass]);
            close(visited_fds[pass]);
            visited_fds[pass] = -1;
            if (!begun)
                sgx_stop_all(AGENT_LOST_WHY);
        }
        bool last = pass == passes - 1;
        sgx_sh->deadline =
            o->max_time_s > 0 ? sgx_sh->start + (last ? o->max_time_s : o->max_time_s / 2) : 0;
        sgx_sh->state_limit = o->max_states ? (last ? o->max_states : (o->max_states + 1) / 2) : 0;
        if (o->distributed && sgx_sh->state_limit) /* each rank its share */
            sgx_sh->state_limit =
                (sgx_sh->state_limit + (uint64_t)sg_dist_size() - 1) / (uint64_t)sg_dist_size();
        uint64_t states0 = sgx_sh->states, transitions0 = sgx_sh->transitions;
        uint64_t paths0 = sgx_sh->paths, crashed0 = sgx_sh->crashed_paths;
        uint64_t merged0 = sgx_sh->merged, snapshots0 = sgx_sh->snapshots;
        uint64_t cuts0 = sgx_sh->bound_cuts;
        g_pass = pass;
        g_pass_start = sgx_now();
        sgx_sh->done = -1;
        sgx_sh->done_weight_bits = 0; /* 0.0 */
        sgx_sh->depth = 0;
        pid_t pid = 1; /* (no pass root when the pass could not begin) */
        int status = 0;
        for (bool resume = false; begun; resume = true) {
            fflush(NULL);
            sgx_sh->running = 1; /* the pass root */
            pid = !resume && g_prepared[pass].pid > 0 ? release_prepared(pass, &cur) : fork();
            if (pid == 0) {
                sgx_die_with_parent(g_driver);
                run_pass(&cur, pass, resume);
            }
            g_pass_root = pid;
            status = pid > 0 ? wait_pass_root(pid) : 0;
            g_pass_root = 0;
            if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != SGX_EXIT_SWITCH_TO_FORK)
                break;
            /* Copy snapshots cannot go on: fork snapshots take over where
             * they stood, for the rest of the exploration. */
            if (!res->checkpoint_switched) {
                res->checkpoint_switched = g_strdup(sgx_sh->switch_why);
                res->switched_pass = pass;
                res->switched_states = sgx_sh->states;
            }
            cur.copy_checkpoints = false;
            sgx_sh->live_snapshots = 0; /* the copies ended with their process */
        }
        if (pid < 0) {
            sgx_stop_all("fork failed: no memory or process limit for the exploration");
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == SGX_EXIT_LOAD_FAILED) {
            *err = g_strdup(sgx_sh->load_error);
            ok = false;
            if (o->distributed) /* every rank stops: none would load it */
                sgx_stop_all(sgx_sh->load_error);
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == CKPT_MEM_EXIT_RESTORE_FAILED) {
            sgx_stop_all("an in-process snapshot could not be restored (see above); explore with "
                         "--checkpoint=fork");
        } else if ((!WIFEXITED(status) || WEXITSTATUS(status) != 0) && !sgx_sh->interrupted) {
            sgx_sh->crashed_paths++;
        }
        sg_pass_result *pr = &res->passes[pass];
        pr->ran = true;
        pr->states = sgx_sh->states - states0;
        pr->transitions = sgx_sh->transitions - transitions0;
        pr->paths = sgx_sh->paths - paths0;
        uint64_t crashed = sgx_sh->crashed_paths - crashed0;
        if (sgx_sh->stop)
            pr->stopped = g_strdup(sgx_sh->stop_why);
        else if (crashed)
            pr->stopped = g_strdup_printf("%" G_GUINT64_FORMAT
                                          " exploration process%s failed (an ordex error)",
                                          crashed, crashed == 1 ? "" : "es");
        if (o->distributed) {
            dist_pass_done(res, pass, crashed, merged0, snapshots0, cuts0);
            /* Copies gave way on some rank: every rank's next pass root loads
             * the program the same way (with fork snapshots), or their
             * memory would differ. */
            if (res->checkpoint_switched)
                cur.copy_checkpoints = false;
        }
        pr->complete = pr->stopped == NULL;
    }
    drop_prepared();
    for (int pass = 0; pass < 2; pass++)
        if (visited_fds[pass] >= 0) /* a pass that did not begin */
            close(visited_fds[pass]);
    bool all_done = true;
    for (int pass = 0; pass < passes; pass++)
        all_done = all_done && res->passes[pass].complete;
    /* A signal that came once every pass had ended stopped nothing. */
    res->interrupted = all_done ? 0 : sgx_sh->interrupted;
    if (o->distributed)
        dist_gather(passes);
    sgx_read_log(res, seen);
    g_hash_table_destroy(seen);
    for (int pass = 0; pass < passes; pass++)
        sg_outcomes_get(pass, &res->outcomes[pass]);
    if (sgx_sh->jobs_one_why[0])
        res->jobs_one_why = g_strdup(sgx_sh->jobs_one_why);
    if (sgx_sh->por_off_why[0])
        res->por_off_why = g_strdup(sgx_sh->por_off_why);
    res->states = sgx_sh->states;
    res->transitions = sgx_sh->transitions;
    res->merged = sgx_sh->merged;
    res->snapshots = sgx_sh->snapshots;
    res->paths = sgx_sh->paths;
    res->bound_cuts = sgx_sh->bound_cuts;
    res->peak_rss = sgx_sh->peak_rss;
    if (o->distributed) { /* every rank's (rank 0 has them from the pass totals) */
        res->states = g_dist.states;
        res->transitions = g_dist.transitions;
        res->merged = g_dist.merged;
        res->snapshots = g_dist.snapshots;
        res->paths = g_dist.paths;
        res->bound_cuts = g_dist.bound_cuts;
        if (g_dist.peak_rss > res->peak_rss)
            res->peak_rss = g_dist.peak_rss;
    }
    { /* this process holds the findings' paths now: count it too */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        if ((uint64_t)ru.ru_maxrss * 1024 > res->peak_rss)
            res->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
    }
    res->elapsed_s = sgx_now() - sgx_sh->start;
    res->incomplete_why = incomplete_why(res, passes);
    res->incomplete = res->incomplete_why != NULL;
    g_last_report_t = sgx_sh->start; /* the final rate is over the whole search */
    report_progress(true, !res->incomplete);
    g_opts = NULL;
    sg_visited_destroy();
    sg_outcomes_destroy();
    shared *sh = sgx_sh;
    __atomic_store_n(&sgx_sh, NULL, __ATOMIC_RELEASE); /* before a signal handler can see it go */
    munmap(sh->stack, sh->stack_cap);
    if (sh->cuts)
        munmap(sh->cuts, (size_t)o->jobs * CUT_SLOTS * sizeof(uint32_t));
    munmap(sh, g_sh_bytes);
    return ok;
}

void sg_explore_result_free(sg_explore_result *res) {
    if (res->findings)
        g_ptr_array_free(res->findings, TRUE);
    for (int pass = 0; pass < 2; pass++) {
        sg_pass_outcomes_clear(&res->outcomes[pass]);
        g_free(res->passes[pass].stopped);
    }
    if (res->edges)
        g_array_free(res->edges, TRUE);
    g_free(res->incomplete_why);
    g_free(res->checkpoint_switched);
    g_free(res->jobs_one_why);
    g_free(res->por_off_why);
    memset(res, 0, sizeof *res);
}

const char *sg_copy_checkpoints_unavailable(void) {
    return ckpt_mem_unavailable();
}
