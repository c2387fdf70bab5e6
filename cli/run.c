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
#include "cli/program.h"
#include "output/findings.h"
#include "scheduler/sched.h"
#include "simulator/sim.h"
#include "stategraph/oneshot.h"

int ordex_run(int argc, char **argv) {
    ordex_opts o;
    int prog_index;
    int rc = ordex_parse_common(argc, argv, "run", &o, &prog_index);
    if (rc != 0)
        return rc;
    const char *prog = argv[prog_index];
    char *so = ordex_program_prepare(prog, o.nranks, false);
    if (!so) {
        ordex_opts_free(&o);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!ordex_program_load(&o, so, prog, argc - prog_index, argv + prog_index, stdout, stderr)) {
        g_free(so);
        ordex_opts_free(&o);
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

    out_run_summary sum = {0};
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
    out_print_findings(stderr, findings, &sum, o.quiet);
    int status = findings->len > 0 ? 1 : 0;
    if (o.json && !out_write_json(o.json, findings, &sum)) {
        fprintf(stderr, "ordex: cannot write %s: %s\n", o.json, g_strerror(errno));
        status = 2;
    }
    sim_destroy();
    sched_fini();
    g_free(so);
    ordex_opts_free(&o);
    return status;
}
