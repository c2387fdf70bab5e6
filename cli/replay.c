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

#include "cli/compile.h"
#include "output/findings.h"
#include "scheduler/sched.h"
#include "simulator/sim.h"
#include "stategraph/replay.h"
#include "stategraph/trace.h"

/* ----------------------------------------------------------------------- */
/* Under gdb                                                                */
/*
 * `ordex replay --gdb TRACE` validates the trace, then turns into gdb running
 * `ordex replay --gdb-inferior TRACE`: the same replay, with every rank in a
 * thread named "rank N" and the program copies in real files (gdb reads
 * their debug information).  That replay stops before every step and calls
 * ordex_gdb_stop; tools/gdb/ordex.py keeps a breakpoint there and decides
 * which stop the user sees.  The ordex_gdb_* names are exported (exports.lds)
 * for it; they are read and called from gdb, never from ordex.
 */

/* The step about to fire at the latest stop (1-based; steps + 1 once the trace
 * is used up, steps + 2 at the end of the run), the trace's length, the rank
 * count, whether the replay sits in ordex_gdb_stop right now (otherwise it is
 * somewhere after that stop's step, running ranks), and whether that is the
 * stop at the end of the run (which every `ordex step` or `ordex goto` that
 * gets that far stops at). */
int ordex_gdb_step, ordex_gdb_nsteps, ordex_gdb_nranks, ordex_gdb_at_stop, ordex_gdb_ended;

static const sg_replay *g_gdb_rp;
static sched_run_result g_gdb_result;
static char *g_gdb_text; /* the string handed to gdb last */

/* Where gdb's breakpoint sits.  noinline and the asm: the call must stay, although the
 * function visibly does nothing. */
__attribute__((noinline)) void ordex_gdb_stop(int step) {
    __asm__ volatile("" ::: "memory");
}

/* Returns s as the one string gdb reads (until the next call). */
static const char *gdb_text(char *s) {
    g_free(g_gdb_text);
    g_gdb_text = s;
    return s;
}

/* "STATE<tab>what the rank does": its pending MPI call with arguments and
 * file:line, or how it ended. */
const char *ordex_gdb_describe(int rank) {
    if (rank < 0 || rank >= sched_nranks())
        return "";
    /* gdb may call this while a rank is stopped in its own code: allocate
     * from ordex's heap, not the rank's. */
    sched_enter_sim();
    static const char *const names[] = {"ready", "running", "blocked", "ended", "failed"};
    sched_state st = sched_rank_state(rank);
    char *line = sim_describe_rank(rank);
    char *prefix = g_strdup_printf("rank %d: ", rank);
    const char *what = g_str_has_prefix(line, prefix) ? line + strlen(prefix) : line;
    if (st == SCHED_FAILED) {
        static const char *const why[] = {"failed",
                                          "crashed (signal)",
                                          "overflowed its stack",
                                          "ran past the step timeout",
                                          "was aborted (MPI_Abort or a fatal MPI error)",
                                          "ran out of heap"};
        unsigned k = (unsigned)sched_rank_fault(rank)->kind;
        what = k < G_N_ELEMENTS(why) ? why[k] : why[0];
    } else if (st == SCHED_RUNNING && rank == ordex_rank) {
        what = "running (the rank gdb stopped in)";
    }
    const char *r = gdb_text(
        g_strdup_printf("%s\t%s", (unsigned)st < G_N_ELEMENTS(names) ? names[st] : "?", what));
    g_free(prefix);
    g_free(line);
    sched_leave_sim();
    return r;
}

/* One step of the trace for people. */
static char *step_text(const sg_trace_step *st, int number) {
    GString *s = g_string_new(NULL);
    g_string_printf(s, "step %d: ", number);
    if (st->kind == SG_STEP_CHOICE)
        g_string_append_printf(s, "rank %d chooses in %s", st->dst,
                               st->call ? st->call : "an MPI call");
    else if (st->kind == SIM_EV_DELIVER)
        g_string_append_printf(s, "rank %d receives the message of rank %d (tag %d)", st->dst,
                               st->src, st->tag);
    else if (st->kind == SIM_EV_PROBE)
        g_string_append_printf(s, "rank %d's probe sees the message of rank %d (tag %d)", st->dst,
                               st->src, st->tag);
    else if (st->kind == SIM_EV_COLLECTIVE)
        g_string_append_printf(s, "a collective completes on communicator %d", st->comm);
    else
        g_string_append_printf(s, "rank %d goes on", st->dst);
    if (st->nalts > 1)
        g_string_append_printf(s, ", alternative %d of %d%s", st->choice, st->nalts,
                               st->choice != 1 ? " (not the default schedule's)" : "");
    if (st->at)
        g_string_append_printf(s, "; at %s", st->at);
    if (st->from && strcmp(st->from, "-") != 0)
        g_string_append_printf(s, ", sent at %s", st->from);
    return g_string_free(s, FALSE);
}

/* Where the replay is and what comes next, a few lines. */
const char *ordex_gdb_where(void) {
    if (!g_gdb_rp)
        return "not replaying a trace";
    sched_enter_sim();
    const sg_trace *t = g_gdb_rp->trace;
    unsigned n = t->steps->len, pos = g_gdb_rp->pos;
    GString *s = g_string_new(NULL);
    if (ordex_gdb_ended) {
        g_string_printf(s, "the run has ended after step %u of %u: %s", pos, n,
                        g_gdb_rp->divergence                 ? g_gdb_rp->divergence
                        : g_gdb_result == SCHED_RUN_COMPLETE ? "every rank ended"
                        : g_gdb_result == SCHED_RUN_STUCK
                            ? "ranks wait and nothing can happen any more (a deadlock)"
                            : "an error stopped it");
        g_string_append(s, "\n`continue` prints ordex's report");
        const char *r = gdb_text(g_string_free(s, FALSE));
        sched_leave_sim();
        return r;
    }
    if (ordex_gdb_at_stop)
        g_string_printf(s, "before step %u of %u (every rank waits in MPI or has ended)", pos + 1,
                        n);
    else if (ordex_rank >= 0)
        g_string_printf(s, "after step %u of %u: rank %d is running", pos, n, ordex_rank);
    else
        g_string_printf(s, "after step %u of %u: the scheduler runs", pos, n);
    if (pos < n) {
        char *next = step_text(&g_array_index(t->steps, sg_trace_step, pos), (int)pos + 1);
        g_string_append_printf(s, "\nnext: %s", next);
        g_free(next);
    } else {
        g_string_append(s, "\nthe trace is used up: the rest of the run follows the default "
                           "schedule");
    }
    const char *r = gdb_text(g_string_free(s, FALSE));
    sched_leave_sim();
    return r;
}

/* The replay of --gdb-inferior: stops (calls ordex_gdb_stop) before every
 * step, once more when the trace is used up, and at the end of the run
 * (before the report), where every rank can still be looked at. */
static sched_run_result replay_stepwise(sg_replay *rp) {
    g_gdb_rp = rp;
    ordex_gdb_nsteps = (int)rp->trace->steps->len;
    ordex_gdb_nranks = rp->trace->nranks;
    rp->stop_at = 1;
    for (;;) {
        sched_run_result r = sg_replay_run(rp);
        if (!rp->stopped || rp->divergence) {
            ordex_gdb_ended = 1;
            g_gdb_result = r;
            ordex_gdb_step = ordex_gdb_nsteps + 2;
            ordex_gdb_at_stop = 1;
            ordex_gdb_stop(ordex_gdb_step);
            ordex_gdb_at_stop = 0;
            return r;
        }
        ordex_gdb_step = (int)rp->pos + 1;
        ordex_gdb_at_stop = 1;
        ordex_gdb_stop(ordex_gdb_step);
        ordex_gdb_at_stop = 0;
        rp->stopped = false;
        rp->stop_at = (int)rp->pos + 2; /* past the trace: never reached, runs to the end */
        sched_clear_stop();
    }
}

/* tools/gdb/ordex.py: in the source tree ($ORDEX_HOME, set by the ./ordex
 * launcher and the tests) or beside the binary (.cache/bin/ordex). */
static char *find_gdb_script(void) {
    GPtrArray *c = g_ptr_array_new_with_free_func(g_free);
    const char *home = g_getenv("ORDEX_HOME");
    if (home)
        g_ptr_array_add(c, g_build_filename(home, "tools", "gdb", "ordex.py", NULL));
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (exe) {
        char *dir = g_path_get_dirname(exe);
        g_ptr_array_add(c, g_build_filename(dir, "..", "..", "tools", "gdb", "ordex.py", NULL));
        g_ptr_array_add(c, g_build_filename(dir, "..", "tools", "gdb", "ordex.py", NULL));
        g_free(dir);
        g_free(exe);
    }
    char *found = NULL;
    for (guint i = 0; i < c->len && !found; i++)
        if (g_file_test(g_ptr_array_index(c, i), G_FILE_TEST_IS_REGULAR))
            found = g_canonicalize_filename(g_ptr_array_index(c, i), NULL);
    g_ptr_array_free(c, TRUE);
    return found;
}

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
                    bool quiet, const char *json) {
    char *gdb = g_find_program_in_path("gdb");
    if (!gdb) {
        fprintf(stderr, "ordex replay: --gdb needs gdb, which is not installed (install the "
                        "Debian package gdb)\n");
        return 2;
    }
    char *script = find_gdb_script();
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (!script || !exe) {
        fprintf(stderr, "ordex replay: cannot find tools/gdb/ordex.py of the ordex source tree "
                        "(set ORDEX_HOME to that tree)\n");
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
    char *json = NULL, *gdb_batch = NULL;
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
        fprintf(stderr, "ordex replay: %s was recorded with %d ranks, not %d\n", argv[1], t.nranks,
                nranks);
        goto out;
    }
    so = g_str_has_suffix(t.program, ".c") ? ordex_compile_cached(t.program, true, false)
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
    if (gdb) {
        status = exec_gdb(argv[1], &t, stop_at, gdb_batch, tag, quiet, json);
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
    if (inferior) {
        so_opts.threads = true;     /* each rank a thread named "rank N" */
        so_opts.keep_files = true;  /* program copies gdb can read symbols from */
        so_opts.step_timeout_s = 0; /* time spent at a breakpoint is no livelock */
    }
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
    cfg.test_later = t.test_later;
    sim_create(&cfg);
    sg_replay rp = {&t, stop_at, 0, NULL, false};
    sched_run_result r = inferior ? replay_stepwise(&rp) : sg_replay_run(&rp);
    g_gdb_rp = NULL;
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
        out_run_summary sum = {0};
        sum.program = t.program;
        sum.nranks = t.nranks;
        sum.messages = sim_messages_delivered();
        sum.switches = sched_switches();
        sum.predicted_s = sim_predicted_time();
        sum.elapsed_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        GPtrArray *findings = sim_findings();
        out_print_findings(stderr, findings, &sum, quiet);
        if (t.finding && !quiet)
            fprintf(stderr, "ordex replay: the trace was recorded for: %s\n", t.finding);
        status = findings->len ? 1 : 0;
        if (json && !out_write_json(json, findings, &sum)) {
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
    g_free(gdb_batch);
    g_option_context_free(ctx);
    return status;
}
