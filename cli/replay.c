/*
 * replay.c - `ordex replay`: one recorded ordering, exactly.
 */
#define _GNU_SOURCE
#include "cli/replay.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/program.h"
#include "output/findings.h"
#include "stategraph/oneshot.h"
#include "stategraph/replay.h"
#include "stategraph/trace.h"
#include "stategraph/verdict.h"
#include "toolchain/compile.h"
#include "toolchain/datafile.h"

/* The step to stop before: the first whose choice is not the default
 * schedule's (alternative 1), else the first. */
static int divergence_step(const sg_trace *t) {
    for (guint i = 0; i < t->steps->len; i++)
        if (g_array_index(t->steps, sg_trace_step, i).choice != 1)
            return (int)i + 1;
    return 1;
}

/* Replaces ordex with gdb replaying the trace; returns only on failure. */
static int exec_gdb(const char *trace, const sg_trace *t, int stop_at, const char *batch, bool tag,
                    bool quiet, const char *json, const char *leaks) {
    char *gdb = g_find_program_in_path("gdb");
    if (!gdb) {
        fprintf(stderr, "ordex replay: --gdb needs gdb, which is not installed (install the "
                        "Debian package gdb)\n");
        return 2;
    }
    char *where = NULL;
    char *script = tc_data_file("tools/gdb/ordex.py", &where);
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (!script || !exe) {
        fprintf(stderr, "ordex replay: cannot find tools/gdb/ordex.py: %s\n",
                where ? where : "the binary cannot be found");
        g_free(where);
        g_free(gdb);
        g_free(script);
        g_free(exe);
        return 2;
    }
    if (batch && !g_file_test(batch, G_FILE_TEST_IS_REGULAR)) {
        fprintf(stderr, "ordex replay: --gdb-batch %s: no such file\n", batch);
        g_free(gdb);
        g_free(script);
        g_free(exe);
        return 2;
    }
    bool chosen = stop_at == 0;
    if (chosen)
        stop_at = divergence_step(t);
    unsigned n = t->steps->len;
    if (chosen && stop_at <= (int)n &&
        g_array_index(t->steps, sg_trace_step, stop_at - 1).choice != 1)
        fprintf(stderr,
                "ordex replay: under gdb, stopping before step %d of %u, the first that "
                "leaves the default schedule\n",
                stop_at, n);
    else
        fprintf(stderr, "ordex replay: under gdb, stopping before step %d of %u\n", stop_at, n);
    if (!batch)
        fprintf(stderr, "ordex replay: every rank is a thread named \"rank N\"; commands: ordex "
                        "ranks, ordex where, ordex step, ordex goto N (help ordex)\n");
    GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(a, g_strdup(gdb));
    g_ptr_array_add(a, g_strdup("-q"));
    if (batch) {
        g_ptr_array_add(a, g_strdup("-nx")); /* the same every time: no personal settings */
        g_ptr_array_add(a, g_strdup("-batch"));
    }
    /* No downloads of the C library's debug information from the network. */
    g_ptr_array_add(a, g_strdup("-iex"));
    g_ptr_array_add(a, g_strdup("set debuginfod enabled off"));
    g_ptr_array_add(a, g_strdup("-x"));
    g_ptr_array_add(a, g_strdup(script));
    g_ptr_array_add(a, g_strdup("-ex"));
    g_ptr_array_add(a, g_strdup_printf("ordex start %d", stop_at));
    if (batch) {
        g_ptr_array_add(a, g_strdup("-x"));
        g_ptr_array_add(a, g_strdup(batch));
    }
    g_ptr_array_add(a, g_strdup("--args"));
    g_ptr_array_add(a, g_strdup(exe));
    g_ptr_array_add(a, g_strdup("replay"));
    g_ptr_array_add(a, g_strdup("--gdb-inferior"));
    if (tag)
        g_ptr_array_add(a, g_strdup("--tag-output"));
    if (quiet)
        g_ptr_array_add(a, g_strdup("--quiet"));
    if (json)
        g_ptr_array_add(a, g_strdup_printf("--json=%s", json));
    if (leaks)
        g_ptr_array_add(a, g_strdup_printf("--leaks=%s", leaks));
    g_ptr_array_add(a, g_canonicalize_filename(trace, NULL)); /* never taken for an option */
    g_ptr_array_add(a, NULL);
    fflush(stdout);
    fflush(stderr);
    execv(gdb, (char **)a->pdata);
    fprintf(stderr, "ordex replay: cannot start %s: %s\n", gdb, g_strerror(errno));
    g_ptr_array_free(a, TRUE);
    g_free(gdb);
    g_free(script);
    g_free(exe);
    return 2;
}

/* ----------------------------------------------------------------------- */

int ordex_replay(int argc, char **argv) {
    int stop_at = 0, nranks = 0;
    gboolean dump = FALSE, gdb = FALSE, tag = FALSE, quiet = FALSE, inferior = FALSE;
    char *json = NULL, *gdb_batch = NULL, *leaks_text = NULL;
    GOptionEntry entries[] = {
        {"stop-at", 0, 0, G_OPTION_ARG_INT, &stop_at, "Stop before step N of the trace", "N"},
        {"dump", 0, 0, G_OPTION_ARG_NONE, &dump,
         "With --stop-at: print every rank's pending MPI call there", NULL},
        {"gdb", 0, 0, G_OPTION_ARG_NONE, &gdb,
         "Replay under gdb, every rank a thread named \"rank N\", stopped before the first step "
         "that leaves the default schedule (or --stop-at N)",
         NULL},
        {"gdb-batch", 0, 0, G_OPTION_ARG_FILENAME, &gdb_batch,
         "With --gdb: run the gdb commands of FILE at the stop, then end (gdb -batch)", "FILE"},
        {"gdb-inferior", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &inferior,
         "The replay that gdb runs (internal)", NULL},
        {"tag-output", 0, 0, G_OPTION_ARG_NONE, &tag, "Prefix output lines with [rank]", NULL},
        {"np", 'n', 0, G_OPTION_ARG_INT, &nranks,
         "Rank count (must be the trace's; the trace's by default)", "N"},
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Write the result as JSON", "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only findings", NULL},
        {"leaks", 0, 0, G_OPTION_ARG_STRING, &leaks_text,
         "Handles not freed before MPI_Finalize: error (default), warn, or off", "MODE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx =
        g_option_context_new("TRACE - re-run one ordering recorded by ordex explore");
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
    sg_leaks leaks = SG_LEAKS_ERROR;
    if (leaks_text && !sg_leaks_parse(leaks_text, &leaks)) {
        fprintf(stderr, "ordex replay: --leaks %s: expected error, warn or off\n", leaks_text);
        goto out;
    }
    if (argc != 2) {
        fprintf(stderr, "ordex replay: %s (usage: ordex replay [options] TRACE)\n",
                argc < 2 ? "missing trace file" : "give exactly one trace file");
        goto out;
    }
    if (gdb_batch && !gdb) {
        fprintf(stderr, "ordex replay: --gdb-batch needs --gdb\n");
        goto out;
    }
    if (gdb && dump) {
        fprintf(stderr, "ordex replay: --dump and --gdb do not go together (in gdb, the command "
                        "`ordex ranks` shows what --dump prints)\n");
        goto out;
    }
    if (inferior)
        stop_at = 0; /* the stops are gdb's business */
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
        fprintf(stderr, "ordex replay: %s was recorded with %d rank%s, not %d\n", argv[1], t.nranks,
                t.nranks == 1 ? "" : "s", nranks);
        goto out;
    }
    so = g_str_has_suffix(t.program, ".c") ? tc_compile_cached(t.program, true, false, true)
                                           : g_strdup(t.program);
    if (!so)
        goto out;
    char *problem = ordex_program_problem(so);
    if (problem) {
        fprintf(stderr, "ordex replay: the program named by the trace cannot be run: %s\n",
                problem);
        g_free(problem);
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
    if (gdb) {
        status = exec_gdb(argv[1], &t, stop_at, gdb_batch, tag, quiet, json, leaks_text);
        goto out;
    }

    sg_rundesc run;
    sg_trace_rundesc(&t, &run);
    run.so = so;
    run.tag_output = tag;
    if (inferior) {
        run.threads = true;     /* each rank a thread named "rank N" */
        run.keep_files = true;  /* program copies gdb can read symbols from */
        run.step_timeout_s = 0; /* time spent at a breakpoint is no livelock */
    }
    char **pargv = run.argv;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Under gdb, the program's copies go into the session's directory, which
     * tools/gdb/ordex.py removes when gdb ends (gdb kills the replay at its
     * end, before ordex removes them).  The ranks still see the TMPDIR they
     * were given. */
    const char *gdb_tmp = inferior ? g_getenv("ORDEX_GDB_TMPDIR") : NULL;
    char *user_tmp = NULL;
    bool had_tmp = false;
    if (gdb_tmp && *gdb_tmp) {
        had_tmp = g_getenv("TMPDIR") != NULL;
        user_tmp = g_strdup(g_getenv("TMPDIR"));
        g_setenv("TMPDIR", gdb_tmp, TRUE);
    }
    bool begun = sg_oneshot_begin(&run, &err);
    if (gdb_tmp && *gdb_tmp) {
        if (had_tmp)
            g_setenv("TMPDIR", user_tmp, TRUE);
        else
            g_unsetenv("TMPDIR");
        g_unsetenv("ORDEX_GDB_TMPDIR");
        g_free(user_tmp);
    }
    if (!begun) {
        fprintf(stderr, "ordex replay: %s\n", err);
        g_free(err);
        g_free(pargv);
        goto out;
    }
    sg_replay rp = {&t, stop_at, 0, NULL, false};
    sched_run_result r = inferior ? sg_replay_stepwise(&rp) : sg_replay_run(&rp);
    sg_oneshot_result res = {0};
    sg_oneshot_conclude(rp.divergence || rp.stopped ? SCHED_RUN_STOPPED : r, &res);
    sg_findings_classify(res.findings, leaks);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rp.divergence) {
        fprintf(stderr, "ordex replay: the replay left the trace at %s\n", rp.divergence);
        status = 2;
    } else if (rp.stopped) {
        fprintf(stderr, "ordex replay: stopped before step %d of %u\n", stop_at, t.steps->len);
        if (dump)
            for (int i = 0; i < t.nranks; i++) {
                char *line = sg_oneshot_describe_rank(i);
                fprintf(stderr, "%s\n", line);
                g_free(line);
            }
        status = 0;
    } else {
        out_run_summary sum = {0};
        sum.program = t.program;
        sum.nranks = t.nranks;
        sum.messages = res.messages;
        sum.switches = res.switches;
        sum.predicted_s = res.predicted_s;
        sum.elapsed_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        GPtrArray *findings = res.findings;
        out_print_findings(stderr, findings, &sum, quiet);
        if (t.finding && !quiet)
            fprintf(stderr, "ordex replay: the trace was recorded for: %s\n", t.finding);
        status = out_findings_status(findings);
        char *missed = sg_trace_unreproduced(&t, findings);
        if (missed) {
            fprintf(stderr, "ordex replay: %s: %s\n", argv[1], missed);
            g_free(missed);
            status = 2;
        }
        char *werr = NULL;
        if (json && !out_write_json(json, findings, &sum, &werr)) {
            fprintf(stderr, "ordex replay: %s\n", werr);
            g_free(werr);
            status = 2;
        }
    }
    g_free(rp.divergence);
    sg_oneshot_end();
    g_free(pargv);
out:
    if (traced)
        sg_trace_free(&t);
    g_free(so);
    g_free(json);
    g_free(gdb_batch);
    g_free(leaks_text);
    g_option_context_free(ctx);
    return status;
}
