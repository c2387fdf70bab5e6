/*
 * run.c - `ordex run`: one simulated execution of an MPI program.
 */
#define _GNU_SOURCE
#include "cli/run.h"

#include <errno.h>
#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli/options.h"
#include "cli/program.h"
#include "output/findings.h"
#include "stategraph/oneshot.h"
#include "toolchain/compile.h"

/* SIGINT and SIGTERM end the run where it is, with the output and findings
 * so far; a second one ends ordex at once. */
static void on_stop_signal(int sig) {
    if (sg_run_interrupted()) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    sg_run_interrupt(sig);
}

int ordex_run(int argc, char **argv) {
    ordex_opts o;
    if (ordex_parse_common(argc, argv, "run", &o) != 0) {
        ordex_opts_free(&o);
        return 2;
    }
    const char *prog = o.run.argv[0];
    char *so = ordex_program_prepare(prog, o.run.nranks, false);
    if (!so) {
        g_free(so);
        ordex_opts_free(&o);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    o.run.so = so;
    o.run.reuse_freed_memory = true;
    char *why = NULL;
    if (!sg_oneshot_begin(&o.run, &why)) {
        fprintf(stderr, "ordex: %s\n", why);
        g_free(why);
        g_free(so);
        ordex_opts_free(&o);
        return 2;
    }
    sg_oneshot_result res = {0};
    sched_run_result r = sg_oneshot_run(o.run.seed, &res.events);
    sg_oneshot_conclude(r, &res);
    sg_findings_classify(res.findings, o.leaks);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    out_run_summary sum = {0};
    sum.program = prog;
    sum.nranks = o.run.nranks;
    sum.messages = res.messages;
    sum.events = res.events;
    sum.switches = res.switches;
    sum.predicted_s = res.predicted_s;
    sum.elapsed_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    sum.peak_rss_bytes = (uint64_t)ru.ru_maxrss * 1024;
    int sig = r == SCHED_RUN_STOPPED ? sg_run_interrupted() : 0;
    sum.incomplete = !sig             ? NULL
                     : sig == SIGINT  ? "ordex was interrupted (SIGINT)"
                     : sig == SIGTERM ? "ordex was interrupted (SIGTERM)"
                                      : "ordex was interrupted by a signal";
    GPtrArray *findings = res.findings;
    out_print_findings(stderr, findings, &sum, o.quiet && !sig);
    int status = out_findings_status(findings);
    if (status == 0 && sig)
        status = 2;
    char *werr = NULL;
    if (o.json && !out_write_json(o.json, findings, &sum, &werr)) {
        fprintf(stderr, "ordex: %s\n", werr);
        g_free(werr);
        status = 2;
    }
    sg_oneshot_end();
    g_free(so);
    ordex_opts_free(&o);
    return status;
}
