/*
 * run.c - `ordex run`: one simulated execution of an MPI program.
 */
#define _GNU_SOURCE
#include "cli/run.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli/compile.h"
#include "cli/options.h"
#include "cli/report.h"
#include "scheduler/sched.h"
#include "simulator/sim.h"
#include "stategraph/oneshot.h"

/* Loading a rank takes a handful of memory mappings (program segments,
 * stack and its guard).  Linux caps mappings per process. */
static bool ensure_map_count(int nranks) {
    long need = (long)nranks * 10 + 4096;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    long have = 0;
    if (!f)
        return true;
    if (fscanf(f, "%ld", &have) != 1)
        have = 0;
    fclose(f);
    if (have == 0 || have >= need)
        return true;
    f = fopen("/proc/sys/vm/max_map_count", "w");
    if (f) {
        fprintf(f, "%ld\n", need);
        if (fclose(f) == 0)
            return true;
    }
    fprintf(stderr,
            "ordex: %d ranks need about %ld memory mappings but vm.max_map_count is %ld; "
            "raise it with: sudo sysctl -w vm.max_map_count=%ld\n",
            nranks, need, have, need);
    return false;
}

int ordex_run(int argc, char **argv) {
    ordex_opts o;
    int prog_index;
    int rc = ordex_parse_common(argc, argv, "run", &o, &prog_index);
    if (rc != 0)
        return rc;
    const char *prog = argv[prog_index];
    char *so = NULL;
    if (g_str_has_suffix(prog, ".c")) {
        so = ordex_compile_cached(prog, true);
        if (!so)
            return 2;
    } else {
        so = g_strdup(prog);
    }
    if (!g_file_test(so, G_FILE_TEST_EXISTS)) {
        fprintf(stderr, "ordex: %s: no such file\n", so);
        g_free(so);
        return 2;
    }
    if (!ensure_map_count(o.nranks)) {
        g_free(so);
        return 2;
    }

    sched_options so_opts = {0};
    so_opts.nranks = o.nranks;
    so_opts.stack_size = o.stack_size;
    so_opts.heap_size = o.heap_size;
    so_opts.tag_output = o.tag_output;
    so_opts.seed = o.seed;
    so_opts.step_timeout_s = o.step_timeout;
    so_opts.threads = o.threads;
    so_opts.program = so;
    so_opts.argc = argc - prog_index;
    so_opts.argv = argv + prog_index;
    so_opts.out = stdout;
    so_opts.err = stderr;
    char *err = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!sched_init(&so_opts, &err)) {
        if (strcmp(so, prog) != 0) { /* name the user's source, not the cached build */
            char **parts = g_strsplit(err, so, -1);
            g_free(err);
            err = g_strjoinv(prog, parts);
            g_strfreev(parts);
        }
        fprintf(stderr, "ordex: %s\n", err);
        g_free(err);
        sched_fini();
        g_free(so);
        return 2;
    }
    sim_config cfg = {0};
    cfg.nranks = o.nranks;
    cfg.send_mode = o.send_mode;
    cfg.eager_limit = o.eager_limit;
    cfg.seed = o.seed;
    sim_create(&cfg);

    sg_oneshot_stats stats = {0};
    sched_run_result r = sg_run_oneshot(o.seed, &stats);
    if (r != SCHED_RUN_STOPPED)
        sim_conclude(r == SCHED_RUN_STUCK);
    sched_flush_output();
    fflush(stdout);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    ordex_run_summary sum = {0};
    sum.program = prog;
    sum.nranks = o.nranks;
    sum.messages = sim_messages_delivered();
    sum.events = stats.events;
    sum.switches = sched_switches();
    sum.predicted_s = sim_predicted_time();
    sum.elapsed_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    sum.peak_rss_bytes = (uint64_t)ru.ru_maxrss * 1024;
    GPtrArray *findings = sim_findings();
    ordex_print_findings(stderr, findings, &sum, o.quiet);
    int status = findings->len > 0 ? 1 : 0;
    if (o.json && !ordex_write_json(o.json, findings, &sum)) {
        fprintf(stderr, "ordex: cannot write %s: %s\n", o.json, g_strerror(errno));
        status = 2;
    }
    sim_destroy();
    sched_fini();
    g_free(so);
    ordex_opts_free(&o);
    return status;
}
