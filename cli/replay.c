/*
 * replay.c - `ordex replay`: one recorded ordering, exactly.
 */
#define _GNU_SOURCE
#include "cli/replay.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/compile.h"
#include "cli/report.h"
#include "scheduler/sched.h"
#include "simulator/sim.h"
#include "stategraph/replay.h"
#include "stategraph/trace.h"

int ordex_replay(int argc, char **argv) {
    int stop_at = 0, nranks = 0;
    gboolean dump = FALSE, gdb = FALSE, tag = FALSE, quiet = FALSE;
    char *json = NULL;
    GOptionEntry entries[] = {
        {"stop-at", 0, 0, G_OPTION_ARG_INT, &stop_at, "Stop before step N of the trace", "N"},
        {"dump", 0, 0, G_OPTION_ARG_NONE, &dump,
         "With --stop-at: print every rank's pending MPI call there", NULL},
        {"gdb", 0, 0, G_OPTION_ARG_NONE, &gdb, "Replay under gdb (not available yet)", NULL},
        {"tag-output", 0, 0, G_OPTION_ARG_NONE, &tag, "Prefix output lines with [rank]", NULL},
        {"np", 'n', 0, G_OPTION_ARG_INT, &nranks,
         "Rank count (must be the trace's; the trace's by default)", "N"},
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Write the result as JSON", "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only findings", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("TRACE - re-run one ordering recorded by ordex explore");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *ge = NULL;
    int status = 2;
    char *so = NULL;
    sg_trace t = {0};
    bool traced = false;
    if (!g_option_context_parse(ctx, &argc, &argv, &ge)) {
        fprintf(stderr, "ordex replay: %s (see ordex replay --help)\n", ge->message);
        g_error_free(ge);
        goto out;
    }
    if (argc != 2) {
        fprintf(stderr, "ordex replay: %s (usage: ordex replay [options] TRACE)\n",
                argc < 2 ? "missing trace file" : "give exactly one trace file");
        goto out;
    }
    if (gdb) {
        fprintf(stderr, "ordex replay: --gdb is not available in this version; use --stop-at N "
                        "--dump to see every rank's pending call at a step\n");
        goto out;
    }
    if (stop_at < 0 || (dump && stop_at == 0)) {
        fprintf(stderr, "ordex replay: %s\n",
                stop_at < 0 ? "--stop-at must be a step number (1 or more)"
                            : "--dump needs --stop-at N");
        goto out;
    }
    char *err = NULL;
    if (!sg_trace_read(argv[1], &t, &err)) {
        fprintf(stderr, "ordex replay: %s\n", err);
        g_free(err);
        goto out;
    }
    traced = true;
    if (nranks && nranks != t.nranks) {
        fprintf(stderr, "ordex replay: %s was recorded with %d ranks, not %d\n", argv[1],
                t.nranks, nranks);
        goto out;
    }
    so = g_str_has_suffix(t.program, ".c") ? ordex_compile_cached(t.program, true)
                                           : g_strdup(t.program);
    if (!so)
        goto out;
    if (!g_file_test(so, G_FILE_TEST_EXISTS)) {
        fprintf(stderr, "ordex replay: %s: the program named by the trace does not exist\n",
                t.program);
        goto out;
    }
    char *sha = sg_file_sha256(so);
    bool same = strcmp(sha, t.sha256) == 0;
    g_free(sha);
    if (!same) {
        fprintf(stderr,
                "ordex replay: %s is not the program %s was recorded with (its SHA-256 "
                "differs); record a new trace with ordex explore\n",
                t.program, argv[1]);
        goto out;
    }

    int pargc = (int)g_strv_length(t.args) + 1;
    char **pargv = g_new0(char *, pargc + 1);
    pargv[0] = t.program;
    for (int i = 1; i < pargc; i++)
        pargv[i] = t.args[i - 1];
    sched_options so_opts = {0};
    so_opts.nranks = t.nranks;
    so_opts.stack_size = (size_t)8 << 20;
    so_opts.heap_size = (size_t)1 << 30;
    so_opts.tag_output = tag;
    so_opts.step_timeout_s = 10;
    so_opts.program = so;
    so_opts.argc = pargc;
    so_opts.argv = pargv;
    so_opts.out = stdout;
    so_opts.err = stderr;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!sched_init(&so_opts, &err)) {
        fprintf(stderr, "ordex replay: %s\n", err);
        g_free(err);
        sched_fini();
        g_free(pargv);
        goto out;
    }
    sim_config cfg = {0};
    cfg.nranks = t.nranks;
    cfg.send_mode = strcmp(t.send_mode, "eager") == 0        ? SIM_SEND_EAGER
                    : strcmp(t.send_mode, "rendezvous") == 0 ? SIM_SEND_RENDEZVOUS
                                                             : SIM_SEND_EAGER_BELOW_LIMIT;
    cfg.eager_limit = t.eager_limit ? t.eager_limit : 65536;
    cfg.exploring = true; /* the same simulated times as when the trace was made */
    cfg.async_progress = t.async_progress;
    cfg.early_collectives = t.early_collectives;
    sim_create(&cfg);
    sg_replay rp = {&t, stop_at, 0, NULL, false};
    sched_run_result r = sg_replay_run(&rp);
    sched_flush_output();
    fflush(stdout);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rp.divergence) {
        fprintf(stderr, "ordex replay: the replay left the trace at %s\n", rp.divergence);
        status = 2;
    } else if (rp.stopped) {
        fprintf(stderr, "ordex replay: stopped before step %d of %u\n", stop_at, t.steps->len);
        if (dump)
            for (int i = 0; i < t.nranks; i++) {
                char *line = sim_describe_rank(i);
                printf("%s\n", line);
                g_free(line);
            }
        status = 0;
    } else {
        if (r != SCHED_RUN_STOPPED)
            sim_conclude(r == SCHED_RUN_STUCK);
        ordex_run_summary sum = {0};
        sum.program = t.program;
        sum.nranks = t.nranks;
        sum.messages = sim_messages_delivered();
        sum.switches = sched_switches();
        sum.predicted_s = sim_predicted_time();
        sum.elapsed_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        GPtrArray *findings = sim_findings();
        ordex_print_findings(stderr, findings, &sum, quiet);
        if (t.finding && !quiet)
            fprintf(stderr, "ordex replay: the trace was recorded for: %s\n", t.finding);
        status = findings->len ? 1 : 0;
        if (json && !ordex_write_json(json, findings, &sum)) {
            fprintf(stderr, "ordex replay: cannot write %s\n", json);
            status = 2;
        }
    }
    g_free(rp.divergence);
    sim_destroy();
    sched_fini();
    g_free(pargv);
out:
    if (traced)
        sg_trace_free(&t);
    g_free(so);
    g_free(json);
    g_option_context_free(ctx);
    return status;
}
