/*
 * options.c - command-line options of `ordex run` (and later commands).
 */
#include "cli/options.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/units.h"

/* "16KiB", "1TiB": a limit as the options' help spells it. */
static char *size_text(uint64_t bytes) {
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    size_t i = 0;
    while (i + 1 < G_N_ELEMENTS(names) && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        i++;
    }
    return g_strdup_printf("%" G_GUINT64_FORMAT "%s", (guint64)bytes, names[i]);
}

bool ordex_size_option(const char *cmd, const char *option, const char *text, uint64_t min,
                       uint64_t max, size_t *out) {
    char *problem = NULL;
    uint64_t v = 0;
    if (!pm_parse_size(text, &v, &problem)) {
        fprintf(stderr, "ordex %s: %s %s: %s\n", cmd, option, text, problem);
        g_free(problem);
        return false;
    }
#if SIZE_MAX < UINT64_MAX
    if (max > SIZE_MAX)
        max = SIZE_MAX;
#endif
    if (v < min || v > max) {
        char *bound = size_text(v < min ? min : max);
        fprintf(stderr, "ordex %s: %s %s: must be at %s %s\n", cmd, option, text,
                v < min ? "least" : "most", bound);
        g_free(bound);
        return false;
    }
    *out = (size_t)v;
    return true;
}

int ordex_parse_common(int argc, char **argv, const char *cmd, ordex_opts *o) {
    memset(o, 0, sizeof *o);
    sg_rundesc_init(&o->run);
    char *np = NULL, *seed = NULL, *mode = NULL, *eager = NULL, *stack = NULL, *heap = NULL;
    char *rma_model = NULL, *buffer_checks = NULL, *type_check = NULL;
    double timeout = SG_RUN_DEFAULT_STEP_TIMEOUT;
    gboolean tag = FALSE, quiet = FALSE;
    char *json = NULL, *leaks = NULL;
    char *max_states = NULL, *max_memory = NULL, *divergence = NULL;
    double max_time = 0;
    gboolean no_por = FALSE, async_progress = FALSE, early_collectives = FALSE;
    gboolean distributed = FALSE;
    char *trace_dir = NULL, *strategy = NULL, *checkpoint = NULL, *graph = NULL;
    char *json_progress = NULL;
    int runs = 10, branches = G_MININT; /* G_MININT: not given */
    int jobs = G_MININT;                /* not given */
    gboolean no_test_later = FALSE;
    GOptionEntry explore_entries[] = {
        {"async-progress", 0, 0, G_OPTION_ARG_NONE, &async_progress,
         "Also explore messages landing in posted receives while the receiver computes "
         "(finds programs that touch a receive buffer before the receive completes; more "
         "states)",
         NULL},
        {"early-collectives", 0, 0, G_OPTION_ARG_NONE, &early_collectives,
         "Also explore MPI_Bcast/MPI_Scatter roots and MPI_Reduce/MPI_Gather contributors "
         "returning before the others arrive, as MPI allows (collectives synchronise "
         "otherwise)",
         NULL},
        {"no-por", 0, 0, G_OPTION_ARG_NONE, &no_por,
         "Turn partial-order reduction off (branch on every enabled event)", NULL},
        {"max-states", 0, 0, G_OPTION_ARG_STRING, &max_states,
         "Stop after this many branching states (the result is then incomplete)", "N"},
        {"max-time", 0, 0, G_OPTION_ARG_DOUBLE, &max_time, "Stop after this many seconds",
         "SECONDS"},
        {"max-memory", 0, 0, G_OPTION_ARG_STRING, &max_memory,
         "Stop when snapshots may use more than this much memory", "BYTES"},
        {"divergence", 0, 0, G_OPTION_ARG_STRING, &divergence,
         "Outcomes that differ between orderings (message races): error, warn (default) or "
         "ignore",
         "MODE"},
        {"trace-dir", 0, 0, G_OPTION_ARG_FILENAME, &trace_dir,
         "Directory for the trace file of every finding (default ordex-traces)", "DIR"},
        {"strategy", 0, 0, G_OPTION_ARG_STRING, &strategy,
         "exhaustive (default), bfs (one ordering, messages in send order), dfs-branches "
         "(every ordering with at most --branches departures from that order) or random "
         "(--runs orderings chosen with --seed)",
         "NAME"},
        {"branches", 0, 0, G_OPTION_ARG_INT, &branches,
         "Departures from the default order (earliest sent first) allowed along an ordering "
         "by --strategy=dfs-branches (default 2)",
         "K"},
        {"no-test-later", 0, 0, G_OPTION_ARG_NONE, &no_test_later,
         "MPI_Test/MPI_Iprobe (and their variants) succeed as soon as they can; by default "
         "\"not yet\" is explored too",
         NULL},
        {"runs", 0, 0, G_OPTION_ARG_INT, &runs, "Orderings run by --strategy=random (default 10)",
         "K"},
        {"jobs", 0, 0, G_OPTION_ARG_INT, &jobs,
         "Exploration processes running at once (default: the number of cores, with the "
         "exhaustive or dfs-branches strategy, and 1 for a program that opens files, which "
         "processes running at once would share; 1 gives the depth-first order and repeatable "
         "statistics; with more, the verdict is the same but counts and example orderings "
         "may vary)",
         "N"},
        {"checkpoint", 0, 0, G_OPTION_ARG_STRING, &checkpoint,
         "copy (default: snapshots copied inside one process; fastest; where they cannot go "
         "on -- the program maps or unmaps memory itself, closes a file a snapshot holds "
         "open, valgrind, a sanitizer -- the search goes on with fork and says so), fork "
         "(copy-on-write snapshot processes) or replay "
         "(re-execute prefixes; least memory); criu is not available",
         "KIND"},
        {"graph", 0, 0, G_OPTION_ARG_FILENAME, &graph, "Write the state graph as DOT", "FILE"},
        {"distributed", 0, 0, G_OPTION_ARG_NONE, &distributed,
         "One exploration over every process of an MPI job: run as `mpiexec.mpich -n K ordex "
         "explore --distributed ...`; rank 0 reports (docs/distributed.md)",
         NULL},
        {"json-progress", 0, 0, G_OPTION_ARG_FILENAME, &json_progress,
         "Stream the progress to FILE, one JSON object per line, at most four a second and "
         "a final one (states, transitions, transitions per second, depth, fraction done and "
         "time left as estimated from the alternatives done along the current path)",
         "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    char *platform = NULL, *trace_json = NULL, *svg = NULL;
    char **sets = NULL, **sweeps = NULL;
    gboolean no_timeline = FALSE, ignore_compute = FALSE;
    int placements = 8;
    GOptionEntry predict_entries[] = {
        {"ignore-compute", 0, 0, G_OPTION_ARG_NONE, &ignore_compute,
         "Ignore the CPU time measured between MPI calls: only ordex_compute() and "
         "ORDEX_SAMPLE charges count (repeatable predictions of communication)",
         NULL},
        {"platform", 0, 0, G_OPTION_ARG_FILENAME, &platform,
         "The cluster to simulate: a platform file (see docs/platform.md); by default the "
         "built-in platform, this machine as one node with shared memory",
         "FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "Override a platform key, e.g. --set network.latency=5us (repeatable)",
         "SECTION.KEY=VALUE"},
        {"sweep", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sweeps,
         "Predict once per value of a platform key, e.g. --sweep bandwidth=1GBps,10GBps "
         "(repeatable: each key is swept on its own); prints a table and writes a plot",
         "KEY=V1,V2,..."},
        {"trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_json,
         "Chrome trace of the timeline, for Perfetto or chrome://tracing (default "
         "PROGRAM.trace.json; with --sweep: the plot, default PROGRAM.sweep.svg, goes to --svg)",
         "FILE"},
        {"svg", 0, 0, G_OPTION_ARG_FILENAME, &svg,
         "SVG Gantt chart of the timeline (default PROGRAM.svg), or the sweep plot", "FILE"},
        {"no-timeline", 0, 0, G_OPTION_ARG_NONE, &no_timeline,
         "Write neither the trace nor the chart", NULL},
        {"placements", 0, 0, G_OPTION_ARG_INT, &placements,
         "When ranks that poll share cores: simulate K random placements of them on the cores "
         "and report the mean (default 8; 0: one run charging every wait for a core the median "
         "delay)",
         "K"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    gboolean threads = FALSE;
    GOptionEntry run_entries[] = {
        {"threads", 0, 0, G_OPTION_ARG_NONE, &threads,
         "Run each rank in an OS thread named \"rank N\", one at a time (what gdb shows as "
         "threads); results are the same as with the default fibers",
         NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionEntry entries[] = {
        {"np", 'n', 0, G_OPTION_ARG_STRING, &np, "Number of ranks (required)", "N"},
        {"tag-output", 0, 0, G_OPTION_ARG_NONE, &tag, "Prefix output lines with [rank]", NULL},
        {"seed", 0, 0, G_OPTION_ARG_STRING, &seed,
         "Randomise which ready rank runs and which message a wildcard receive matches", "S"},
        {"send-mode", 0, 0, G_OPTION_ARG_STRING, &mode,
         "Standard sends: eager (buffered), rendezvous (wait for the receive), or auto "
         "(eager below --eager-limit; default)",
         "MODE"},
        {"rma-model", 0, 0, G_OPTION_ARG_STRING, &rma_model,
         "Memory model of RMA windows: unified (default) or separate (MPI_WIN_MODEL says "
         "MPI_WIN_SEPARATE and races follow the separate model's stricter rules)",
         "MODEL"},
        {"eager-limit", 0, 0, G_OPTION_ARG_STRING, &eager,
         "In auto mode, standard sends smaller than this are buffered (default 64KiB)", "BYTES"},
        {"stack-size", 0, 0, G_OPTION_ARG_STRING, &stack,
         "Stack of each rank (default 8MiB, 16KiB to 1TiB)", "BYTES"},
        {"heap-size", 0, 0, G_OPTION_ARG_STRING, &heap,
         "Heap address space of each rank (default 1GiB, 64KiB to 1TiB; only used pages cost "
         "memory)",
         "BYTES"},
        {"step-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &timeout,
         "CPU seconds a rank may compute between MPI calls before it is reported as a "
         "livelock (default 10; 0 = no limit)",
         "SECONDS"},
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Write the verdict and findings as JSON",
         "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only findings", NULL},
        {"leaks", 0, 0, G_OPTION_ARG_STRING, &leaks,
         "Handles (and an attached buffer) not freed before MPI_Finalize: error (default), "
         "warn (reported, the exit status stays 0), or off",
         "MODE"},
        {"buffer-checks", 0, 0, G_OPTION_ARG_STRING, &buffer_checks,
         "Check every buffer passed to MPI against the variable or heap block it points "
         "into (bounds, C types): on (default) or off",
         "on|off"},
        {"type-check", 0, 0, G_OPTION_ARG_STRING, &type_check,
         "A buffer's C type that disagrees with its MPI datatype (an int buffer sent as "
         "MPI_FLOAT): error (default), warn, or off",
         "MODE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    char *usage = g_strdup_printf(
        "- %s an MPI program: ordex %s [OPTIONS] -n N PROGRAM.so|PROGRAM.c [ARGS...]", cmd, cmd);
    GOptionContext *ctx = g_option_context_new(usage);
    g_free(usage);
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (strcmp(cmd, "explore") == 0)
        g_option_context_add_main_entries(ctx, explore_entries, NULL);
    if (strcmp(cmd, "predict") == 0)
        g_option_context_add_main_entries(ctx, predict_entries, NULL);
    if (strcmp(cmd, "run") == 0) /* explore forks snapshots, which threads do not survive */
        g_option_context_add_main_entries(ctx, run_entries, NULL);
    /* Strict POSIX: options end at the program, whose own options follow. */
    g_option_context_set_strict_posix(ctx, TRUE);
    o->args = g_new0(char *, argc + 1);
    for (int i = 0; i < argc; i++)
        o->args[i] = strcmp(argv[i], "-np") == 0 ? "--np" : argv[i];
    int nargs = argc;
    char **args = o->args;
    GError *err = NULL;
    int rc = 0;
    if (!g_option_context_parse(ctx, &nargs, &args, &err)) {
        fprintf(stderr, "ordex %s: %s (see ordex %s --help)\n", cmd, err->message, cmd);
        g_error_free(err);
        rc = 2;
        goto out;
    }
    int first = 1;
    if (nargs > first && strcmp(args[first], "--") == 0)
        first++;
    if (nargs <= first) {
        fprintf(stderr, "ordex %s: missing program (usage: ordex %s -n N prog.so|prog.c [args])\n",
                cmd, cmd);
        rc = 2;
        goto out;
    }
    o->run.argc = nargs - first;
    o->run.argv = args + first;
    if (!np) {
        fprintf(stderr, "ordex %s: missing -n N (the number of ranks)\n", cmd);
        rc = 2;
        goto out;
    }
    char *end;
    long n = strtol(np, &end, 10);
    if (*end || n < 1 || n > 1000000) {
        fprintf(stderr,
                "ordex %s: -n %s: the number of ranks must be an integer from 1 to "
                "1000000\n",
                cmd, np);
        rc = 2;
        goto out;
    }
    o->run.nranks = (int)n;
    o->run.tag_output = tag;
    o->run.threads = threads;
    o->quiet = quiet;
    o->run.step_timeout_s = timeout;
    if (timeout < 0) {
        fprintf(stderr, "ordex %s: --step-timeout %g: must be >= 0\n", cmd, timeout);
        rc = 2;
        goto out;
    }
    if (seed) {
        unsigned long long s = strtoull(seed, &end, 10);
        if (*end || *seed == '-') {
            fprintf(stderr, "ordex %s: --seed %s: not a non-negative integer\n", cmd, seed);
            rc = 2;
            goto out;
        }
        o->run.seed = s ? s : 1; /* 0 would mean "deterministic" internally */
    }
    o->send_mode_given = mode != NULL;
    if (mode && !sg_send_mode_parse(mode, &o->run.send_mode)) {
        fprintf(stderr, "ordex %s: --send-mode %s: expected eager, rendezvous or auto\n", cmd,
                mode);
        rc = 2;
        goto out;
    }
    /* A rank's stack and heap are address space: past a terabyte the sizes
     * (and their sum over the ranks) stop meaning anything. */
    const uint64_t TiB = (uint64_t)1 << 40;
    if ((eager &&
         !ordex_size_option(cmd, "--eager-limit", eager, 0, UINT64_MAX, &o->run.eager_limit)) ||
        (stack && !ordex_size_option(cmd, "--stack-size", stack, 16384, TiB, &o->run.stack_size)) ||
        (heap && !ordex_size_option(cmd, "--heap-size", heap, 65536, TiB, &o->run.heap_size))) {
        rc = 2;
        goto out;
    }
    /* Every rank's stack (and its guard page) and heap are reserved at
     * start: together they must fit in the 128 TiB of a process's address
     * space.  (At most 10^6 ranks of 2 TiB each: no overflow.) */
    const uint64_t space = (uint64_t)128 << 40;
    uint64_t per_rank = (uint64_t)o->run.stack_size + 4096 + (uint64_t)o->run.heap_size;
    if (per_rank * (uint64_t)o->run.nranks > space) {
        char *st = size_text(o->run.stack_size), *hp = size_text(o->run.heap_size);
        fprintf(stderr,
                "ordex %s: -n %d ranks with --stack-size %s and --heap-size %s need %.1f TiB of "
                "address space, more than the 128 TiB a process has: lower --heap-size, "
                "--stack-size or -n\n",
                cmd, o->run.nranks, st, hp, (double)(per_rank * (uint64_t)o->run.nranks) / TiB);
        g_free(st);
        g_free(hp);
        rc = 2;
        goto out;
    }
    if (rma_model && strcmp(rma_model, "unified") != 0 && strcmp(rma_model, "separate") != 0) {
        fprintf(stderr, "ordex %s: --rma-model %s: expected unified or separate\n", cmd, rma_model);
        rc = 2;
        goto out;
    }
    o->run.rma_separate = rma_model && strcmp(rma_model, "separate") == 0;
    if (buffer_checks && strcmp(buffer_checks, "on") != 0 && strcmp(buffer_checks, "off") != 0) {
        fprintf(stderr, "ordex %s: --buffer-checks %s: expected on or off\n", cmd, buffer_checks);
        rc = 2;
        goto out;
    }
    o->run.no_buffer_checks = buffer_checks && strcmp(buffer_checks, "off") == 0;
    if (type_check && !sg_type_check_parse(type_check, &o->run.type_check)) {
        fprintf(stderr, "ordex %s: --type-check %s: expected error, warn or off\n", cmd,
                type_check);
        rc = 2;
        goto out;
    }
    o->no_por = no_por;
    o->distributed = distributed;
    o->run.async_progress = async_progress;
    o->run.early_collectives = early_collectives;
    if (runs < 1) {
        fprintf(stderr, "ordex %s: --runs %d: must be at least 1\n", cmd, runs);
        rc = 2;
        goto out;
    }
    o->runs = runs;
    if (branches != G_MININT &&
        (branches < 0 || !strategy || strcmp(strategy, "dfs-branches") != 0)) {
        fprintf(stderr, "ordex %s: --branches %d: %s\n", cmd, branches,
                branches < 0 ? "must be >= 0" : "only --strategy=dfs-branches takes it");
        rc = 2;
        goto out;
    }
    o->branches = branches == G_MININT ? 2 : branches;
    if (jobs != G_MININT && (jobs < 1 || jobs > 64 || (jobs != 1 && strcmp(cmd, "explore") != 0))) {
        fprintf(stderr, "ordex %s: --jobs %d: %s\n", cmd, jobs,
                jobs < 1 || jobs > 64 ? "must be from 1 to 64" : "only ordex explore takes it");
        rc = 2;
        goto out;
    }
    o->jobs = jobs == G_MININT ? 0 : jobs;
    /* Only exploration tries "not yet" answers; one path never does. */
    o->run.test_later = strcmp(cmd, "explore") == 0 && !no_test_later;
    o->max_time = max_time;
    if (max_time < 0) {
        fprintf(stderr, "ordex %s: --max-time %g: must be >= 0\n", cmd, max_time);
        rc = 2;
        goto out;
    }
    if (max_states) {
        unsigned long long v = strtoull(max_states, &end, 10);
        if (*end || *max_states == '-' || v == 0) {
            fprintf(stderr, "ordex %s: --max-states %s: not a positive integer\n", cmd, max_states);
            rc = 2;
            goto out;
        }
        o->max_states = v;
    }
    if (max_memory &&
        !ordex_size_option(cmd, "--max-memory", max_memory, 0, UINT64_MAX, &o->max_memory)) {
        rc = 2;
        goto out;
    }
    o->leaks = SG_LEAKS_ERROR;
    if (leaks && !sg_leaks_parse(leaks, &o->leaks)) {
        fprintf(stderr, "ordex %s: --leaks %s: expected error, warn or off\n", cmd, leaks);
        rc = 2;
        goto out;
    }
    o->divergence = SG_DIVERGENCE_WARN;
    if (divergence) {
        if (strcmp(divergence, "ignore") == 0)
            o->divergence = SG_DIVERGENCE_IGNORE;
        else if (strcmp(divergence, "warn") == 0)
            o->divergence = SG_DIVERGENCE_WARN;
        else if (strcmp(divergence, "error") == 0)
            o->divergence = SG_DIVERGENCE_ERROR;
        else {
            fprintf(stderr, "ordex %s: --divergence %s: expected error, warn or ignore\n", cmd,
                    divergence);
            rc = 2;
            goto out;
        }
    }
    o->trace_dir = trace_dir;
    trace_dir = NULL;
    o->strategy = strategy;
    strategy = NULL;
    o->checkpoint = checkpoint;
    checkpoint = NULL;
    o->graph = graph;
    graph = NULL;
    o->json_progress = json_progress;
    json_progress = NULL;
    o->json = json;
    json = NULL;
    o->platform = platform;
    platform = NULL;
    o->sets = sets;
    sets = NULL;
    o->sweeps = sweeps;
    sweeps = NULL;
    o->trace_json = trace_json;
    trace_json = NULL;
    o->svg = svg;
    svg = NULL;
    o->no_timeline = no_timeline;
    o->ignore_compute = ignore_compute;
    if (placements < 0 || placements > 1000) {
        fprintf(stderr, "ordex %s: --placements %d: must be from 0 to 1000\n", cmd, placements);
        rc = 2;
        goto out;
    }
    o->placements = placements;
out:
    g_free(np);
    g_free(seed);
    g_free(mode);
    g_free(rma_model);
    g_free(eager);
    g_free(stack);
    g_free(heap);
    g_free(json);
    g_free(leaks);
    g_free(buffer_checks);
    g_free(type_check);
    g_free(max_states);
    g_free(max_memory);
    g_free(divergence);
    g_free(trace_dir);
    g_free(strategy);
    g_free(checkpoint);
    g_free(graph);
    g_free(json_progress);
    g_free(platform);
    g_strfreev(sets);
    g_strfreev(sweeps);
    g_free(trace_json);
    g_free(svg);
    g_option_context_free(ctx);
    return rc;
}

void ordex_opts_free(ordex_opts *o) {
    g_free(o->json);
    g_free(o->trace_dir);
    g_free(o->strategy);
    g_free(o->checkpoint);
    g_free(o->graph);
    g_free(o->json_progress);
    g_free(o->platform);
    g_strfreev(o->sets);
    g_strfreev(o->sweeps);
    g_free(o->trace_json);
    g_free(o->svg);
    g_free(o->args);
    memset(o, 0, sizeof *o);
}
