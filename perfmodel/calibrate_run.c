/*
 * calibrate_run.c - running the calibration benchmark under real MPI (see
 * calibrate_run.h).
 */
#define _GNU_SOURCE
#include "perfmodel/calibrate_run.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

char *pm_stderr_summary(const char *text) {
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

bool pm_run_collect(char **argv, int deadline, char **out, char **err, int *status) {
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

void pm_calibrate_measure_timeslice(const char *mpiexec, const char *exe, bool quick,
                                    pm_calibration *c, char **why) {
    char ranks[16];
    g_snprintf(ranks, sizeof ranks, "%d", 2 * c->cores);
    char *argv[] = {(char *)mpiexec,          "-n", ranks, (char *)exe, "--ring",
                    quick ? "--quick" : NULL, NULL};
    char *out = NULL, *err = NULL, *problem = NULL;
    int status = 0;
    pm_bench_ring ring;
    *why = NULL;
    if (!pm_run_collect(argv, DEADLINE_RING, &out, &err, &status))
        *why = g_strdup_printf("cannot run %s: %s", mpiexec, out);
    else if (status == -1)
        *why = g_strdup_printf("the token ring did not finish in %d s", DEADLINE_RING);
    else if (!g_spawn_check_wait_status(status, NULL)) {
        char *line = pm_stderr_summary(err);
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

char *pm_bench_compile(const char *mpicc, const char *src, const char *dir, char **why) {
    char *exe = g_build_filename(dir, "mpibench", NULL);
    char *argv[] = {(char *)mpicc, "-O2", "-o", exe, (char *)src, NULL};
    char *out = NULL, *err = NULL;
    int status = 0;
    GError *e = NULL;
    bool ok = g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &e);
    if (!ok) {
        *why = g_strdup_printf("cannot run %s: %s", mpicc, e->message);
        g_error_free(e);
    } else if (!g_spawn_check_wait_status(status, NULL)) {
        char *line = pm_stderr_summary(err);
        *why = g_strdup_printf("%s could not compile %s: %s", mpicc, src, line);
        g_free(line);
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
