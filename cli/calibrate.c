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
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/datafile.h"
#include "cli/options.h"
#include "perfmodel/calibrate_fit.h"

#define BENCH_REL "tools/calibrate/mpibench.c"
/* Largest --max-size: the benchmark's buffers are a few times this. */
#define MAX_MAX_SIZE (1u << 30)
/* Seconds the benchmark may run before it is stopped: a full run takes a
 * few seconds; mpiexec can hang when it cannot start its ranks. */
#define DEADLINE_QUICK 120
#define DEADLINE_FULL 900

static char *find_bench_source(void) {
    char *where = NULL;
    char *found = ordex_data_file(BENCH_REL, &where);
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

/* Up to three non-empty lines of a program's stderr, on one line. */
static char *one_line(const char *text) {
    GString *s = g_string_new(NULL);
    char **lines = g_strsplit(text ? text : "", "\n", -1);
    int used = 0;
    for (int i = 0; lines[i] && used < 3; i++) {
        char *l = g_strstrip(lines[i]);
        if (!*l)
            continue;
        g_string_append_printf(s, "%s%s", used ? " | " : "", l);
        used++;
    }
    g_strfreev(lines);
    if (s->len > 400) {
        g_string_truncate(s, 400);
        g_string_append(s, "...");
    }
    if (s->len == 0)
        g_string_append(s, "(nothing on stderr)");
    return g_string_free(s, FALSE);
}

static void own_process_group(gpointer data) {
    setpgid(0, 0);
}

/* Runs argv with stdin from /dev/null, collecting stdout and stderr; kills
 * its whole process group (mpiexec and the ranks it started) after
 * `deadline` seconds.  Returns false when it cannot be started (*out holds
 * the reason); *status is the wait status, or -1 after the deadline. */
static bool run_collect(char **argv, int deadline, char **out, char **err, int *status) {
    GPid pid;
    int fd_out, fd_err;
    GError *e = NULL;
    if (!g_spawn_async_with_pipes(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, own_process_group,
                                  NULL, &pid, NULL, &fd_out, &fd_err, &e)) {
        *out = g_strdup(e->message);
        *err = NULL;
        g_error_free(e);
        return false;
    }
    GString *bufs[2] = {g_string_new(NULL), g_string_new(NULL)};
    struct pollfd fds[2] = {{fd_out, POLLIN, 0}, {fd_err, POLLIN, 0}};
    gint64 end = g_get_monotonic_time() + (gint64)deadline * G_USEC_PER_SEC;
    bool timed_out = false;
    int open_fds = 2;
    while (open_fds > 0) {
        gint64 left = (end - g_get_monotonic_time()) / 1000;
        if (left <= 0) {
            timed_out = true;
            break;
        }
        int r = poll(fds, 2, (int)(left > 1000 ? 1000 : left));
        if (r < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[4096];
            ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
            if (got > 0) {
                g_string_append_len(bufs[i], chunk, got);
            } else if (got == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    if (timed_out) {
        kill(-pid, SIGTERM);
        g_usleep(500000);
        kill(-pid, SIGKILL);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    g_spawn_close_pid(pid);
    *status = timed_out ? -1 : st;
    *out = g_string_free(bufs[0], FALSE);
    *err = g_string_free(bufs[1], FALSE);
    return true;
}

/* Seconds the token ring may take (it aims at half a second). */
#define DEADLINE_RING 60

/* Runs the benchmark's token ring on twice as many ranks as cores and
 * derives the time slice into *c.  A failure is not fatal: the file keeps
 * the default slice and says why (*why, g_free). */
static void measure_timeslice(char *mpiexec, char *exe, bool quick, pm_calibration *c, char **why) {
    char ranks[16];
    g_snprintf(ranks, sizeof ranks, "%d", 2 * c->cores);
    char *argv[] = {mpiexec, "-n", ranks, exe, "--ring", quick ? "--quick" : NULL, NULL};
    char *out = NULL, *err = NULL, *problem = NULL;
    int status = 0;
    pm_bench_ring ring;
    *why = NULL;
    if (!run_collect(argv, DEADLINE_RING, &out, &err, &status))
        *why = g_strdup_printf("cannot run %s: %s", mpiexec, out);
    else if (status == -1)
        *why = g_strdup_printf("the token ring did not finish in %d s", DEADLINE_RING);
    else if (!g_spawn_check_wait_status(status, NULL)) {
        char *line = one_line(err);
        *why = g_strdup_printf("mpiexec -n %s failed: %s", ranks, line);
        g_free(line);
    } else if (!pm_bench_parse_ring(out, &ring, &problem))
        *why = g_strdup_printf("the token ring's report: %s", problem);
    else
        pm_calibrate_timeslice(c, &ring, c->cores);
    if (*why)
        pm_calibrate_timeslice(c, NULL, c->cores);
    g_free(out);
    g_free(err);
    g_free(problem);
}

/* Compiles the benchmark into dir; returns the executable or NULL (after
 * the error line). */
static char *compile_bench(const char *mpicc, const char *src, const char *dir) {
    char *exe = g_build_filename(dir, "mpibench", NULL);
    char *argv[] = {(char *)mpicc, "-O2", "-o", exe, (char *)src, NULL};
    char *out = NULL, *err = NULL;
    int status = 0;
    GError *e = NULL;
    bool ok = g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &e);
    if (!ok) {
        fprintf(stderr, "ordex calibrate: cannot run %s: %s\n", mpicc, e->message);
        g_error_free(e);
    } else if (!g_spawn_check_wait_status(status, NULL)) {
        char *why = one_line(err);
        fprintf(stderr, "ordex calibrate: %s could not compile %s: %s\n", mpicc, src, why);
        g_free(why);
        ok = false;
    }
    g_free(out);
    g_free(err);
    if (!ok) {
        g_free(exe);
        return NULL;
    }
    return exe;
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

int pm_calibrate(int argc, char **argv) {
    char *output = NULL, *max_size = NULL, *mpiexec_opt = NULL, *mpicc_opt = NULL;
    char *report = NULL;
    gboolean quick = FALSE;
    GOptionEntry entries[] = {{"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
                               "Write the platform file here (required)", "FILE"},
                              {"quick", 0, 0, G_OPTION_ARG_NONE, &quick,
                               "Fewer sizes and shorter measurements (about a second; noisier)",
                               NULL},
                              {"max-size", 0, 0, G_OPTION_ARG_STRING, &max_size,
                               "Largest message measured (default 16MiB, at most 1GiB)", "SIZE"},
                              {"mpiexec", 0, 0, G_OPTION_ARG_FILENAME, &mpiexec_opt,
                               "MPICH's mpiexec (default $MPIEXEC, else mpiexec in PATH)", "PATH"},
                              {"mpicc", 0, 0, G_OPTION_ARG_FILENAME, &mpicc_opt,
                               "MPICH's mpicc (default $MPICC, else mpicc in PATH)", "PATH"},
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
    if (!(mpiexec = find_tool(mpiexec_opt, "MPIEXEC", "mpiexec", "mpich")) ||
        !(mpicc = find_tool(mpicc_opt, "MPICC", "mpicc", "libmpich-dev")) ||
        !(bench = find_bench_source()))
        goto done;

    dir = g_dir_make_tmp("ordex-calibrate-XXXXXX", &err);
    if (!dir) {
        fprintf(stderr, "ordex calibrate: cannot make a temporary directory: %s\n", err->message);
        g_error_free(err);
        goto done;
    }
    if (!(exe = compile_bench(mpicc, bench, dir)))
        goto done;

    printf("Measuring message times between two MPICH ranks on this machine%s...\n",
           quick ? " (--quick)" : "");
    fflush(stdout);
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
    bool started = run_collect((char **)av->pdata, deadline, &out, &errout, &status);
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
        char *why = one_line(errout);
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
        char *why = one_line(errout);
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
    printf("Measuring the time slice: a token ring of %d MPICH ranks on %d cores...\n", 2 * c.cores,
           c.cores);
    fflush(stdout);
    measure_timeslice(mpiexec, exe, quick, &c, &ring_problem);
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
    fputs(table, stdout);
    g_free(table);
    printf("Wrote %s: a platform of one node with %d cores and these segments, for\n"
           "  ordex predict --platform %s ...\n",
           output, c.cores, output);
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
