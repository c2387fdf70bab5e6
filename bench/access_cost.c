/*
 * access_cost.c - the run time of a program built by ordexcc (one rank,
 * loaded and run by the scheduler as `ordex run` does), with memory tracked
 * or not, for bench/access.sh:
 *
 *   access_cost none|other|near PROG.so [ARGS...]
 *
 *   none   nothing tracked: the program's calls of the hooks stay disarmed
 *   other  one byte tracked in another GiB of address space than the
 *          program's heap: the calls are armed, and each answers "not
 *          tracked" after two loads (the count of tables, the directory)
 *   near   one byte tracked in the GiB of the program's heap, on a page the
 *          program never touches: a third load (the page's byte)
 *
 * Prints "SECONDS" of the run (sched_run) on stdout; the program's own
 * output goes to stderr.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "scheduler/access_hook.h"
#include "scheduler/arena.h"
#include "scheduler/sched.h"

static char g_elsewhere[4096]; /* in the executable's .bss, far from the arenas */

static bool no_event(void *user) {
    (void)user;
    return false;
}

int main(int argc, char **argv) {
    if (argc < 3 ||
        (strcmp(argv[1], "none") && strcmp(argv[1], "other") && strcmp(argv[1], "near"))) {
        fprintf(stderr, "usage: access_cost none|other|near PROG.so [ARGS...]\n");
        return 2;
    }
    sched_options o = {0};
    o.nranks = 1;
    o.stack_size = (size_t)8 << 20;
    o.heap_size = (size_t)1 << 30;
    o.step_timeout_s = 0;
    o.program = argv[2];
    o.argc = argc - 2;
    o.argv = argv + 2;
    o.out = stderr;
    o.err = stderr;
    char *err = NULL;
    if (!sched_init(&o, &err)) {
        fprintf(stderr, "access_cost: %s\n", err);
        return 2;
    }
    if (!sched_access_instrumented() && strcmp(argv[1], "none") != 0) {
        fprintf(stderr, "access_cost: %s is not built with the instrumentation\n", argv[2]);
        return 2;
    }
    if (strcmp(argv[1], "other") == 0) {
        sched_access_mark(g_elsewhere, 1);
    } else if (strcmp(argv[1], "near") == 0) {
        /* The last page of the GiB that holds the start of the heap. */
        uintptr_t heap = (uintptr_t)sched_arena_base(sched_arena_of(0));
        uintptr_t last = (heap | (((uintptr_t)1 << 30) - 1)) - 4095;
        sched_access_mark((const void *)last, 1);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sched_run_result r = sched_run(no_event, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (r != SCHED_RUN_COMPLETE || sched_rank_exit_code(0) != 0) {
        fprintf(stderr, "access_cost: the program did not end well\n");
        return 1;
    }
    printf("%.3f\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    return 0;
}
