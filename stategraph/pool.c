/*
 * pool.c - the exploration's processes: snapshots (forked children or
 * in-process copies), the places of --jobs, the limits that stop the
 * search, and the shared counters (see explore_internal.h).
 */
#define _GNU_SOURCE
#include "stategraph/explore_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint/files.h"
#include "checkpoint/memsnap.h"
#include "checkpoint/remap.h"
#include "scheduler/sched.h"

GArray *sgx_children;

double sgx_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Async-signal-safe (the interrupt check and signal handlers call it). */
static void stop(const char *why, bool all) {
    if (all)
        __atomic_store_n(&sgx_sh->stop_all, true, __ATOMIC_RELEASE);
    if (__atomic_exchange_n(&sgx_sh->stopping, 1, __ATOMIC_ACQ_REL) == 0) {
        size_t i = 0;
        for (; why[i] && i + 1 < sizeof sgx_sh->stop_why; i++)
            sgx_sh->stop_why[i] = why[i];
        sgx_sh->stop_why[i] = '\0';
    }
    __atomic_store_n(&sgx_sh->stop, true, __ATOMIC_RELEASE);
}

void sgx_stop_all(const char *why) {
    stop(why, true);
}

void sgx_stop_pass(const char *why) {
    stop(why, false);
}

#define TIME_LIMIT_WHY "the time limit (--max-time) was reached"

bool sgx_interrupt_check(void) {
    sgx_dist_poll(); /* another rank's stop (a distributed exploration) */
    if (__atomic_load_n(&sgx_sh->stop, __ATOMIC_ACQUIRE))
        return true;
    if (sgx_sh->deadline > 0 && sgx_now() > sgx_sh->deadline) {
        sgx_stop_pass(TIME_LIMIT_WHY);
        return true;
    }
    return false;
}

void sgx_check_limits(void) {
    const sg_explore_opts *o = sgx_x.opts;
    double t = sgx_now();
    if (sgx_sh->state_limit && sgx_sh->states >= sgx_sh->state_limit)
        sgx_stop_pass("the state limit (--max-states) was reached");
    if (sgx_sh->deadline > 0 && t > sgx_sh->deadline)
        sgx_stop_pass(TIME_LIMIT_WHY);
    if (o->max_memory && t - sgx_sh->last_memory_check >= 0.01) {
        sgx_sh->last_memory_check = t; /* getrusage costs about as much as a step */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        /* Forked snapshots share most pages copy-on-write, so this is an upper
         * bound; copies in this process are in its own size, and every
         * worker (--jobs) holds about as many. */
        uint64_t est = (uint64_t)ru.ru_maxrss * 1024 *
                       (o->copy_checkpoints ? (uint64_t)o->jobs : sgx_sh->live_snapshots + 1);
        if (est > o->max_memory)
            sgx_stop_all("the memory limit (--max-memory) was reached");
    }
    if (o->on_progress)
        sgx_note_progress(t); /* the driver shows it */
}

void sgx_die_with_parent(pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* it ended before the line above */
        _exit(0);
}

void sgx_note_rss(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    uint64_t b = (uint64_t)ru.ru_maxrss * 1024;
    uint64_t old = __atomic_load_n(&sgx_sh->peak_rss, __ATOMIC_RELAXED);
    while (b > old && !__atomic_compare_exchange_n(&sgx_sh->peak_rss, &old, b, true,
                                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* Takes a place for one more process if fewer than --jobs run. */
static bool take_place(void) {
    int n = __atomic_load_n(&sgx_sh->running, __ATOMIC_RELAXED);
    while (n < sgx_x.opts->jobs)
        if (__atomic_compare_exchange_n(&sgx_sh->running, &n, n + 1, true, __ATOMIC_ACQ_REL,
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
        SHARED_ADD(live_snapshots, -1);
        /* A worker's snapshot at a choice point whose remaining alternatives
         * it gave away: its part there is done (the one before the prefix
         * it took, holds_prefix, is never cut). */
        if (sgx_x.holds_prefix) {
            sgx_x.holds_prefix = false; /* its subtree is done */
        } else if (sgx_cut_here()) {
            ckpt_files_free(files);
            sgx_end_process();
        }
        if (!ckpt_files_put_back(files))
            sgx_switch_to_fork("a file the program had open at a snapshot was closed on a later "
                               "path, and copy snapshots cannot open it again",
                               true, false);
        ckpt_files_free(files);
        return false;
    default:
        ckpt_files_free(files);
        sgx_switch_to_fork("no room for another copy snapshot, or the program's memory is laid "
                           "out so that it cannot be copied",
                           true, true);
    }
}

/* Runs the rest of the path in a forked copy of this process.  Returns true
 * in the child (which must then go on with its alternative).  The parent
 * waits for it, handing it its place, unless another place is free. */
bool sgx_fork_alternative(void) {
    fflush(NULL);
    if (sgx_x.opts->copy_checkpoints)
        return copy_alternative();
    bool parallel = sgx_x.opts->jobs > 1 && take_place();
    GArray *files = parallel ? NULL : ckpt_files_note();
    ckpt_remap_before_fork();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        sgx_die_with_parent(parent);
        ckpt_files_free(files);
        ckpt_remap_forked();
        sched_after_fork();
        g_array_set_size(sgx_children, 0);
        return true;
    }
    if (pid < 0) {
        ckpt_files_free(files);
        if (parallel)
            SHARED_ADD(running, -1);
        sgx_stop_all("fork failed: no memory or process limit for another snapshot");
        return false;
    }
    SHARED_ADD(snapshots, 1);
    SHARED_ADD(live_snapshots, 1);
    if (parallel) {
        g_array_append_val(sgx_children, pid);
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
_Noreturn void sgx_end_process(void) {
    if (sgx_x.opts->copy_checkpoints && ckpt_mem_depth() > 0) {
        const char *why = ckpt_mem_cannot_restore();
        if (why)
            sgx_switch_to_fork(why, false, false);
        ckpt_mem_restore();
    }
    SHARED_ADD(running, -1);
    for (guint i = 0; i < sgx_children->len; i++)
        wait_child(g_array_index(sgx_children, pid_t, i));
    _exit(0);
}
