/*
 * explore.c - depth-first exploration with snapshots (see explore.h): the
 * driver, the passes and the paths.  The strategy is in strategy.c, the
 * reduction in reduction.c, the processes in pool.c, the record in record.c.
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
#include "stategraph/explore_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint/memsnap.h"
#include "checkpoint/remap.h"
#include "scheduler/sched.h"
#include "stategraph/deadvars.h"
#include "stategraph/outcomes.h"
#include "stategraph/visited.h"

shared *sgx_sh;
explorer sgx_x;
static size_t g_sh_bytes;

/* Runs the program along one path (forking snapshots for alternatives in
 * the fork mode), records it, and ends the process. */
static _Noreturn void run_path(void) {
    sched_run_result r = sched_run(sgx_choose, NULL);
    if (!sgx_x.cut) {
        if (r != SCHED_RUN_STOPPED)
            sim_conclude(r == SCHED_RUN_STUCK);
        uint64_t id = SHARED_ADD(paths, 1);
        sgx_record_path();
        sgx_record_edge(id | (1ull << 63),
                        sim_findings()->len ? SG_NODE_END_ERROR : SG_NODE_END_OK);
    }
    sgx_note_rss();
    sgx_end_process();
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
        g_strlcpy(sgx_sh->load_error, err, sizeof sgx_sh->load_error);
        _exit(SGX_EXIT_LOAD_FAILED);
    }
    sched_discard_output(true);
    sim_config cfg;
    sg_rundesc_sim_config(&run, &cfg);
    sim_create(&cfg);
    sgx_x.opts = o;
    sgx_x.pass = pass;
    sgx_x.path = g_array_new(FALSE, FALSE, sizeof(sg_step));
    sgx_x.events = g_array_new(FALSE, FALSE, sizeof(sim_event));
    sgx_x.sleep = g_array_new(FALSE, FALSE, sizeof(sim_event_key));
    sim_set_choice_hook(sgx_choice_hook, NULL);
    sgx_x.choices = g_array_new(FALSE, FALSE, sizeof(int));
    sgx_x.budget = o->branches;
    sgx_children = g_array_new(FALSE, FALSE, sizeof(pid_t));
    if (o->copy_checkpoints) {
        sg_deadvars_open();
        if (!ckpt_mem_init(&err)) {
            g_strlcpy(sgx_sh->load_error, err, sizeof sgx_sh->load_error);
            _exit(SGX_EXIT_LOAD_FAILED);
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
    sgx_x.prefix = g_array_new(FALSE, FALSE, sizeof(int));
    if (tree)
        sgx_push_prefix_empty();
    int runs = o->strategy == SG_RANDOM ? (o->runs > 0 ? o->runs : 1) : 1;
    for (int k = 0; !sgx_sh->stop; k++) {
        if (tree) {
            if (!sgx_pop_prefix(sgx_x.prefix))
                break;
        } else if (k >= runs) {
            break;
        }
        if (sgx_fork_alternative()) {
            sgx_x.prefix_pos = 0;
            if (o->strategy == SG_RANDOM)
                sgx_x.rng = g_rand_new_with_seed((guint32)(o->run.seed * 1000003u + (uint64_t)k));
            run_path();
        }
    }
    sgx_note_rss();
    _exit(0);
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
    sgx_sh->log_cap = cap;
    sgx_sh->stack_cap = (size_t)64 << 20;
    sgx_sh->stack = mmap(NULL, sgx_sh->stack_cap, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (sgx_sh->stack == MAP_FAILED) {
        *err = g_strdup("cannot map memory shared by the exploration processes");
        munmap(sgx_sh, g_sh_bytes);
        return false;
    }
    sgx_sh->start = sgx_now();
    /* dfs-branches keeps two keys per state (see seen_with_budget). */
    size_t per_state = o->strategy == SG_DFS_BRANCHES ? 4 : 2;
    size_t vcap = o->max_states ? (size_t)o->max_states * per_state + 1024 : (size_t)1 << 24;
    int passes = o->both_send_modes ? 2 : 1;
    bool visited = sg_visited_create(vcap);
    if (!visited || !sg_outcomes_create(passes)) {
        *err = g_strdup(visited ? "cannot map the memory that gathers the orderings' outcomes"
                                : "cannot map the visited-state table");
        sg_visited_destroy();
        munmap(sgx_sh->stack, sgx_sh->stack_cap);
        munmap(sgx_sh, g_sh_bytes);
        return false;
    }
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    bool ok = true;
    for (int pass = 0; pass < passes && ok && !sgx_sh->stop; pass++) {
        if (pass > 0) { /* a fresh graph: states of the other semantics do not carry over */
            sg_visited_destroy();
            sg_visited_create(vcap);
        }
        fflush(NULL);
        sgx_sh->running = 1; /* the pass root */
        pid_t pid = fork();
        if (pid == 0)
            run_pass(o, pass);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (WIFEXITED(status) && WEXITSTATUS(status) == SGX_EXIT_LOAD_FAILED) {
            *err = g_strdup(sgx_sh->load_error);
            ok = false;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == CKPT_MEM_EXIT_RESTORE_FAILED) {
            sgx_stop_all("an in-process snapshot could not be restored (see above); explore with "
                         "--checkpoint=fork");
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            sgx_sh->crashed_paths++;
        }
    }
    if (o->progress && sgx_sh->last_progress > 0)
        fputs("\r\033[K", stderr);
    sgx_read_log(res, seen);
    g_hash_table_destroy(seen);
    for (int pass = 0; pass < passes; pass++)
        sg_outcomes_get(pass, &res->outcomes[pass]);
    res->states = sgx_sh->states;
    res->transitions = sgx_sh->transitions;
    res->merged = sgx_sh->merged;
    res->snapshots = sgx_sh->snapshots;
    res->paths = sgx_sh->paths;
    res->bound_cuts = sgx_sh->bound_cuts;
    res->peak_rss = sgx_sh->peak_rss;
    { /* this process holds the findings' paths now: count it too */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        if ((uint64_t)ru.ru_maxrss * 1024 > res->peak_rss)
            res->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
    }
    res->elapsed_s = sgx_now() - sgx_sh->start;
    if (sgx_sh->stop) {
        res->incomplete = true;
        res->incomplete_why = g_strdup(sgx_sh->stop_why);
    } else if (sgx_sh->crashed_paths) {
        res->incomplete = true;
        res->incomplete_why =
            g_strdup_printf("%" G_GUINT64_FORMAT " exploration process%s failed (an ordex error)",
                            sgx_sh->crashed_paths, sgx_sh->crashed_paths == 1 ? "" : "es");
    }
    sg_visited_destroy();
    sg_outcomes_destroy();
    munmap(sgx_sh->stack, sgx_sh->stack_cap);
    munmap(sgx_sh, g_sh_bytes);
    sgx_sh = NULL;
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
