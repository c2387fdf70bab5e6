/*
 * calibrate.c - `ordex calibrate -o FILE`: compiles tools/calibrate/mpibench.c
 * with the machine's mpicc, runs it on two ranks with mpiexec, fits the
 * report (calibrate_fit.c) and writes the platform file.
 *
 *   ordex calibrate -o here.ini [--quick] [--max-size SIZE] [--mpiexec PATH]
 *                   [--mpicc PATH] [--report FILE]
 *
 * -o is required: the file is the point of the command, and a default name
 * would silently overwrite an earlier calibration in the current directory.
 */
#define _GNU_SOURCE
#include "cli/calibrate.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/options.h"
#include "perfmodel/calibrate_fit.h"
#include "perfmodel/calibrate_run.h"
#include "toolchain/datafile.h"

#define BENCH_REL "tools/calibrate/mpibench.c"
/* Largest --max-size: the benchmark's buffers are a few times this. */
#define MAX_MAX_SIZE (1u << 30)
/* Seconds the benchmark may run before it is stopped: a full run takes a
 * few seconds; mpiexec can hang when it cannot start its ranks. */
#define DEADLINE_QUICK 120
#define DEADLINE_FULL 900

static char *find_bench_source(void) {
    char *where = NULL;
    char *found = tc_data_file(BENCH_REL, &where);
    if (!found) {
        fprintf(stderr, "ordex calibrate: cannot find %s: %s\n", BENCH_REL, where);
        g_free(where);
    }
    return found;
}

/* An MPICH tool: --option, else $ENV, else `name` in PATH.  A value with a
 * slash is a path, one without is looked up in PATH. */
static char *find_tool(const char *opt, const char *env, const char *name, const char *package) {
    const char *given = opt ? opt : g_getenv(env);
    const char *how = opt ? "--" : "$";
    const char *how_name = opt ? name : env;
    char *path = NULL;
    if (given && *given) {
        if (strchr(given, '/'))
            path = g_file_test(given, G_FILE_TEST_IS_EXECUTABLE) &&
                           !g_file_test(given, G_FILE_TEST_IS_DIR)
                       ? g_strdup(given)
                       : NULL;
        else
            path = g_find_program_in_path(given);
        if (!path)
            fprintf(stderr,
                    "ordex calibrate: %s not found: %s (given by %s%s; install the Debian "
                    "package %s, or set %s to MPICH's %s)\n",
                    name, given, how, how_name, package, env, name);
        return path;
    }
    path = g_find_program_in_path(name);
    if (!path)
        fprintf(stderr,
                "ordex calibrate: %s not found (install the Debian package %s, or set %s)\n", name,
                package, env);
    return path;
}

/* The directory of `path` must take a new file (checked before minutes of
 * measuring, not after). */
static bool writable(const char *path) {
    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        fprintf(stderr, "ordex calibrate: cannot write %s: it is a directory\n", path);
        return false;
    }
    char *dir = g_path_get_dirname(path);
    bool ok = g_access(dir, W_OK) == 0;
    if (!ok)
        fprintf(stderr, "ordex calibrate: cannot write %s: %s: %s\n", path, dir, g_strerror(errno));
    g_free(dir);
    return ok;
}

static char *command_line(int argc, char **argv) {
    GString *s = g_string_new("ordex");
    for (int i = 0; i < argc; i++) {
        bool plain = argv[i][0] != '\0';
        for (const char *c = argv[i]; *c; c++)
            plain = plain && (g_ascii_isalnum(*c) || strchr("-_./=:,+@%", *c));
        char *q = plain ? g_strdup(argv[i]) : g_shell_quote(argv[i]);
        g_string_append_printf(s, " %s", q);
        g_free(q);
    }
    return g_string_free(s, FALSE);
}

static void remove_dir(char *dir, char *exe) {
    if (exe)
        g_unlink(exe);
    g_rmdir(dir);
}

int ordex_calibrate(int argc, char **argv) {
    char *output = NULL, *max_size = NULL, *mpiexec_opt = NULL, *mpicc_opt = NULL;
    char *report = NULL;
    gboolean quick = FALSE;
    GOptionEntry entries[] = {
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
         "Write the platform file here (required)", "FILE"},
        {"quick", 0, 0, G_OPTION_ARG_NONE, &quick,
         "Fewer sizes and shorter measurements (about a second; noisier)", NULL},
        {"max-size", 0, 0, G_OPTION_ARG_STRING, &max_size,
         "Largest message measured (default 16MiB, at most 1GiB)", "SIZE"},
        {"mpiexec", 0, 0, G_OPTION_ARG_FILENAME, &mpiexec_opt,
         "MPICH's mpiexec (default $MPIEXEC, else mpiexec.mpich in PATH)", "PATH"},
        {"mpicc", 0, 0, G_OPTION_ARG_FILENAME, &mpicc_opt,
         "MPICH's mpicc (default $MPICC, else mpicc.mpich in PATH)", "PATH"},
        {"report", 0, 0, G_OPTION_ARG_FILENAME, &report,
         "Also save the benchmark's raw measurements here", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new(
        "- measure this machine with real MPICH and write a platform file for ordex predict");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Two ranks started by MPICH's mpiexec measure ping-pong times from 0 bytes to\n"
             "--max-size, streaming bandwidth, the eager limit and the CPU overheads of MPI_Send\n"
             "and MPI_Recv.  The one-way times are fitted per size range (latency + size /\n"
             "bandwidth); the fit is printed and written as the [network] segments of FILE,\n"
             "a platform of one node with this machine's cores (docs/platform.md).  Then a\n"
             "token ring of twice as many ranks as cores measures the time slice a polling\n"
             "rank waits for when the cores are oversubscribed ([cluster] timeslice).\n");
    char *cmdline = command_line(argc, argv);
    GError *err = NULL;
    int rc = 2;
    char *bench = NULL, *mpiexec = NULL, *mpicc = NULL, *dir = NULL, *exe = NULL;
    char *out = NULL, *errout = NULL, *text = NULL, *problem = NULL, *ring_problem = NULL;
    size_t max_bytes = 0;
    pm_bench b = {0};
    bool have_bench = false;

    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        fprintf(stderr, "ordex calibrate: %s (see ordex calibrate --help)\n", err->message);
        g_error_free(err);
        goto done;
    }
    if (argc > 1) {
        fprintf(stderr, "ordex calibrate: unexpected argument '%s' (see ordex calibrate --help)\n",
                argv[1]);
        goto done;
    }
    if (!output) {
        fprintf(stderr, "ordex calibrate: missing -o FILE (where to write the platform file)\n");
        goto done;
    }
    if (max_size &&
        !ordex_size_option("calibrate", "--max-size", max_size, 1, MAX_MAX_SIZE, &max_bytes))
        goto done;
    if (!writable(output) || (report && !writable(report)))
        goto done;
    if (!(mpiexec = find_tool(mpiexec_opt, "MPIEXEC", "mpiexec.mpich", "mpich")) ||
        !(mpicc = find_tool(mpicc_opt, "MPICC", "mpicc.mpich", "libmpich-dev")) ||
        !(bench = find_bench_source()))
        goto done;

    dir = g_dir_make_tmp("ordex-calibrate-XXXXXX", &err);
    if (!dir) {
        fprintf(stderr, "ordex calibrate: cannot make a temporary directory: %s\n", err->message);
        g_error_free(err);
        goto done;
    }
    char *why = NULL;
    if (!(exe = pm_bench_compile(mpicc, bench, dir, &why))) {
        fprintf(stderr, "ordex calibrate: %s\n", why);
        g_free(why);
        goto done;
    }

    fprintf(stderr, "Measuring message times between two MPICH ranks on this machine%s...\n",
            quick ? " (--quick)" : "");
    char size_arg[32];
    g_snprintf(size_arg, sizeof size_arg, "%zu", max_bytes);
    GPtrArray *av = g_ptr_array_new();
    g_ptr_array_add(av, mpiexec);
    g_ptr_array_add(av, "-n");
    g_ptr_array_add(av, "2");
    g_ptr_array_add(av, exe);
    if (quick)
        g_ptr_array_add(av, "--quick");
    if (max_bytes) {
        g_ptr_array_add(av, "--max-size");
        g_ptr_array_add(av, size_arg);
    }
    g_ptr_array_add(av, NULL);
    int status = 0;
    int deadline = quick ? DEADLINE_QUICK : DEADLINE_FULL;
    bool started = pm_run_collect((char **)av->pdata, deadline, &out, &errout, &status);
    g_ptr_array_free(av, TRUE);
    if (!started) {
        fprintf(stderr, "ordex calibrate: cannot run %s: %s\n", mpiexec, out);
        goto done;
    }
    if (status == -1) {
        fprintf(stderr,
                "ordex calibrate: the benchmark did not finish in %d s and was stopped "
                "(mpiexec -n 2 must be able to start two ranks on this machine)\n",
                deadline);
        goto done;
    }
    if (!g_spawn_check_wait_status(status, NULL)) {
        char *why = pm_stderr_summary(errout);
        if (WIFEXITED(status))
            fprintf(stderr, "ordex calibrate: the benchmark failed (%s exit status %d): %s\n",
                    mpiexec, WEXITSTATUS(status), why);
        else
            fprintf(stderr, "ordex calibrate: the benchmark failed (%s killed by signal %d): %s\n",
                    mpiexec, WIFSIGNALED(status) ? WTERMSIG(status) : 0, why);
        g_free(why);
        goto done;
    }
    if (report && !g_file_set_contents(report, out, -1, &err)) {
        fprintf(stderr, "ordex calibrate: cannot write %s: %s\n", report, err->message);
        g_error_free(err);
        goto done;
    }
    if (!pm_bench_parse(out, &b, &problem)) {
        char *why = pm_stderr_summary(errout);
        fprintf(stderr,
                "ordex calibrate: cannot read the benchmark's output: %s (its stderr: %s)\n",
                problem, why);
        g_free(why);
        goto done;
    }
    have_bench = true;

    pm_calibration c;
    if (!pm_calibrate_derive(&b, &c, &problem)) {
        fprintf(stderr, "ordex calibrate: cannot fit the measurements: %s\n", problem);
        goto done;
    }
    GDateTime *now = g_date_time_new_now_local();
    char *date = g_date_time_format(now, "%Y-%m-%d %H:%M:%S %z");
    g_date_time_unref(now);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    c.host = g_get_host_name();
    c.date = date;
    c.command = cmdline;
    c.cores = cores > 0 && cores < 1000000 ? (int)cores : 1;
    fprintf(stderr, "Measuring the time slice: a token ring of %d MPICH ranks on %d core%s...\n",
            2 * c.cores, c.cores, c.cores == 1 ? "" : "s");
    pm_calibrate_measure_timeslice(mpiexec, exe, quick, &c, &ring_problem);
    if (ring_problem)
        fprintf(stderr, "ordex calibrate: warning: time slice not measured: %s\n", ring_problem);
    c.ring_problem = ring_problem;
    text = pm_calibration_platform_text(&c);
    g_free(date);
    if (!pm_calibration_check(&c, text, &problem)) {
        fprintf(stderr, "ordex calibrate: internal error: %s\n", problem);
        goto done;
    }
    if (!g_file_set_contents(output, text, -1, &err)) {
        fprintf(stderr, "ordex calibrate: cannot write %s: %s\n", output, err->message);
        g_error_free(err);
        goto done;
    }
    char *table = pm_calibration_table(&c);
    fputs(table, stderr);
    g_free(table);
    fprintf(stderr,
            "Wrote %s: a platform of one node with %d core%s and these segments, for\n"
            "  ordex predict --platform %s ...\n",
            output, c.cores, c.cores == 1 ? "" : "s", output);
    rc = 0;

done:
    if (dir)
        remove_dir(dir, exe);
    if (have_bench)
        pm_bench_clear(&b);
    g_option_context_free(ctx);
    g_free(output);
    g_free(max_size);
    g_free(mpiexec_opt);
    g_free(mpicc_opt);
    g_free(report);
    g_free(cmdline);
    g_free(bench);
    g_free(mpiexec);
    g_free(mpicc);
    g_free(dir);
    g_free(exe);
    g_free(out);
    g_free(errout);
    g_free(text);
    g_free(problem);
    g_free(ring_problem);
    return rc;
}
