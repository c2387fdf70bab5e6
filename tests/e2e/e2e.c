/*
 * e2e.c - helpers of the end-to-end tests (see e2e.h).
 */
#include "e2e.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *g_root;      /* $TEST_SRCDIR/ordex: the workspace in the runfiles */
static char *g_tmp;       /* $TEST_TMPDIR */
static char *g_ordex;     /* the ordex binary */
static char **g_env;      /* environment of every command */
static GPtrArray *g_keep; /* strings that live until e2e_fini */

static const char *keep(char *s) {
    g_ptr_array_add(g_keep, s);
    return s;
}

bool e2e_init(void) {
    g_keep = g_ptr_array_new_with_free_func(g_free);
    const char *srcdir = g_getenv("TEST_SRCDIR");
    const char *tmp = g_getenv("TEST_TMPDIR");
    if (!srcdir || !tmp) {
        fprintf(stderr, "e2e: TEST_SRCDIR and TEST_TMPDIR must be set (run with bazel test)\n");
        return false;
    }
    g_root = g_build_filename(srcdir, "ordex", NULL);
    g_tmp = g_strdup(tmp);
    g_ordex = g_build_filename(g_root, "cli", "ordex", NULL);
    if (!g_file_test(g_ordex, G_FILE_TEST_IS_EXECUTABLE)) {
        fprintf(stderr, "e2e: %s: no ordex binary in the runfiles\n", g_ordex);
        return false;
    }
    char *cache = g_build_filename(g_tmp, "ordex-cache", NULL);
    g_mkdir_with_parents(cache, 0755);
    g_env = g_get_environ();
    g_env = g_environ_setenv(g_env, "ORDEX_CACHE", cache, TRUE);
    g_env = g_environ_setenv(g_env, "ORDEX_HOME", g_root, TRUE);
    g_env = g_environ_setenv(g_env, "LC_ALL", "C", TRUE);
    g_free(cache);
    return true;
}

void e2e_setenv(const char *name, const char *value) {
    g_env = value ? g_environ_setenv(g_env, name, value, TRUE) : g_environ_unsetenv(g_env, name);
}

void e2e_fini(void) {
    g_free(g_root);
    g_free(g_tmp);
    g_free(g_ordex);
    g_strfreev(g_env);
    if (g_keep)
        g_ptr_array_free(g_keep, TRUE);
    g_keep = NULL;
}

const char *e2e_src(const char *rel) {
    return keep(g_build_filename(g_root, rel, NULL));
}
const char *e2e_tmp(const char *name) {
    return keep(g_build_filename(g_tmp, name, NULL));
}
const char *e2e_ordex(void) {
    return g_ordex;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs argv under `timeout` so that no command can hang the suite. */
static e2e_result *spawn(const char *const *argv) {
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, "timeout");
    g_ptr_array_add(a, "-k");
    g_ptr_array_add(a, "5");
    g_ptr_array_add(a, E2E_TIME_LIMIT);
    for (int i = 0; argv[i]; i++)
        g_ptr_array_add(a, (gpointer)argv[i]);
    g_ptr_array_add(a, NULL);
    e2e_result *r = g_new0(e2e_result, 1);
    r->cmd = g_strjoinv(" ", (char **)argv);
    GError *err = NULL;
    int status = 0;
    double t0 = now();
    if (!g_spawn_sync(g_tmp, (char **)a->pdata, g_env, G_SPAWN_SEARCH_PATH, NULL, NULL, &r->out,
                      &r->err, &status, &err)) {
        r->out = g_strdup("");
        r->err = g_strdup_printf("e2e: cannot run %s: %s\n", r->cmd, err->message);
        r->status = -1;
        g_error_free(err);
    } else if (WIFEXITED(status)) {
        r->status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->status = 128 + WTERMSIG(status);
    } else {
        r->status = -1;
    }
    r->secs = now() - t0;
    g_ptr_array_free(a, TRUE);
    return r;
}

/* `ordex explore` without --jobs runs one job here: the tests compare
 * counts and example orderings, which only one job makes repeatable (the
 * default, every core, is tested with --jobs given). */
static void add_args(GPtrArray *a, const char *const *args) {
    bool jobs = false;
    for (int i = 0; args[i]; i++)
        jobs = jobs || g_str_has_prefix(args[i], "--jobs");
    for (int i = 0; args[i]; i++) {
        g_ptr_array_add(a, (gpointer)args[i]);
        if (i == 0 && strcmp(args[0], "explore") == 0 && !jobs)
            g_ptr_array_add(a, (gpointer) "--jobs=1");
    }
}

e2e_result *e2e_ordex_runv(const char *const *args) {
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, g_ordex);
    add_args(a, args);
    g_ptr_array_add(a, NULL);
    e2e_result *r = spawn((const char *const *)a->pdata);
    g_ptr_array_free(a, TRUE);
    return r;
}

e2e_result *e2e_ordex_run(const char *arg, ...) {
    GPtrArray *a = g_ptr_array_new();
    va_list ap;
    va_start(ap, arg);
    for (const char *s = arg; s; s = va_arg(ap, const char *))
        g_ptr_array_add(a, (gpointer)s);
    va_end(ap);
    g_ptr_array_add(a, NULL);
    e2e_result *r = e2e_ordex_runv((const char *const *)a->pdata);
    g_ptr_array_free(a, TRUE);
    return r;
}

struct e2e_proc {
    pid_t pid;
    char *cmd, *out_path, *err_path;
    double t0;
};

e2e_proc *e2e_ordex_start(const char *arg, ...) {
    static int seq;
    GPtrArray *given = g_ptr_array_new();
    va_list ap;
    va_start(ap, arg);
    for (const char *s = arg; s; s = va_arg(ap, const char *))
        g_ptr_array_add(given, (gpointer)s);
    va_end(ap);
    g_ptr_array_add(given, NULL);
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, g_ordex);
    add_args(a, (const char *const *)given->pdata);
    g_ptr_array_free(given, TRUE);
    g_ptr_array_add(a, NULL);
    e2e_proc *p = g_new0(e2e_proc, 1);
    p->cmd = g_strjoinv(" ", (char **)a->pdata);
    seq++;
    char *name = g_strdup_printf("background-%d.out", seq);
    p->out_path = g_build_filename(g_tmp, name, NULL);
    g_free(name);
    name = g_strdup_printf("background-%d.err", seq);
    p->err_path = g_build_filename(g_tmp, name, NULL);
    g_free(name);
    fflush(NULL);
    p->t0 = now();
    p->pid = fork();
    if (p->pid == 0) {
        int o = open(p->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(p->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || chdir(g_tmp) != 0)
            _exit(127);
        dup2(o, 1);
        dup2(e, 2);
        execve(g_ordex, (char **)a->pdata, g_env);
        _exit(127);
    }
    g_ptr_array_free(a, TRUE);
    return p;
}

int e2e_proc_pid(const e2e_proc *p) {
    return p->pid;
}

e2e_result *e2e_proc_wait(e2e_proc *p, double limit_s) {
    e2e_result *r = g_new0(e2e_result, 1);
    r->cmd = p->cmd;
    int status = 0;
    bool killed = false;
    for (;;) {
        pid_t w = p->pid > 0 ? waitpid(p->pid, &status, WNOHANG) : -1;
        if (w != 0)
            break;
        if (now() - p->t0 > limit_s && !killed) {
            kill(p->pid, SIGKILL);
            killed = true;
        }
        g_usleep(10000);
    }
    r->status = killed                ? 124
                : WIFEXITED(status)   ? WEXITSTATUS(status)
                : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                      : -1;
    r->secs = now() - p->t0;
    r->out = e2e_read_file(p->out_path);
    r->err = e2e_read_file(p->err_path);
    if (!r->out)
        r->out = g_strdup("");
    if (!r->err)
        r->err = g_strdup("");
    g_free(p->out_path);
    g_free(p->err_path);
    g_free(p);
    return r;
}

bool e2e_wait_for_file(const char *path, double limit_s) {
    double t0 = now();
    while (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        if (now() - t0 > limit_s)
            return false;
        g_usleep(10000);
    }
    return true;
}

int e2e_processes_with_arg(const char *arg, bool kill_them) {
    int n = 0;
    DIR *d = opendir("/proc");
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0 || pid == getpid())
            continue;
        char *path = g_strdup_printf("/proc/%ld/cmdline", pid);
        char *text = NULL;
        gsize len = 0;
        bool match = false;
        if (g_file_get_contents(path, &text, &len, NULL))
            for (gsize i = 0; i < len && !match; i += strlen(text + i) + 1)
                match = strcmp(text + i, arg) == 0;
        g_free(text);
        g_free(path);
        if (match) {
            n++;
            if (kill_them)
                kill((pid_t)pid, SIGKILL);
        }
    }
    if (d)
        closedir(d);
    return n;
}

e2e_result *e2e_exec(const char *const *argv) {
    return spawn(argv);
}

void e2e_free(e2e_result *r) {
    if (!r)
        return;
    g_free(r->cmd);
    g_free(r->out);
    g_free(r->err);
    g_free(r);
}

char *e2e_read_file(const char *path) {
    char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return NULL;
    return text;
}

const char *e2e_read_src(const char *rel) {
    char *text = e2e_read_file(e2e_src(rel));
    return text ? keep(text) : NULL;
}

int e2e_marker_line(const char *rel, const char *marker) {
    const char *text = e2e_read_src(rel);
    if (!text)
        return -1;
    char **lines = g_strsplit(text, "\n", -1);
    int found = -1, hits = 0;
    for (int i = 0; lines[i]; i++)
        if (strstr(lines[i], marker)) {
            found = i + 1;
            hits++;
        }
    g_strfreev(lines);
    return hits == 1 ? found : -1;
}

int e2e_mark_line(const char *rel, const char *name) {
    char *marker = g_strdup_printf("/* [%s] */", name);
    int line = e2e_marker_line(rel, marker);
    g_free(marker);
    return line;
}

char *e2e_expect_text(const char *src) {
    const char *p = src ? strstr(src, "ordex-expect:") : NULL;
    if (!p)
        return NULL;
    p += strlen("ordex-expect:");
    const char *end = strstr(p, "*/");
    if (!end)
        return NULL;
    GString *s = g_string_new(NULL);
    bool line_start = false;
    for (const char *q = p; q < end; q++) {
        if (*q == '\n') {
            line_start = true;
            g_string_append_c(s, ' ');
        } else if (line_start && (*q == ' ' || *q == '\t' || *q == '*')) {
            continue;
        } else {
            line_start = false;
            g_string_append_c(s, *q);
        }
    }
    return g_strstrip(g_string_free(s, FALSE));
}

static gint by_name(gconstpointer a, gconstpointer b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GPtrArray *e2e_list_programs(const char *dir, const char *prefix) {
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    GDir *d = g_dir_open(e2e_src(dir), 0, NULL);
    for (const char *n; d && (n = g_dir_read_name(d));)
        if (g_str_has_prefix(n, prefix) && g_str_has_suffix(n, ".c"))
            g_ptr_array_add(files, g_strdup(n));
    if (d)
        g_dir_close(d);
    g_ptr_array_sort(files, by_name);
    return files;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *e2e_sorted_lines(const char *text) {
    char **lines = g_strsplit(text, "\n", -1);
    guint n = g_strv_length(lines);
    if (n > 0 && lines[n - 1][0] == '\0') { /* the text's final newline */
        g_free(lines[n - 1]);
        lines[--n] = NULL;
    }
    qsort(lines, n, sizeof(char *), cmp_str);
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < n; i++)
        g_string_append_printf(s, "%s\n", lines[i]);
    g_strfreev(lines);
    return g_string_free(s, FALSE);
}

char *e2e_grep(const char *text, const char *needle) {
    char **lines = g_strsplit(text, "\n", -1);
    GString *s = g_string_new(NULL);
    for (int i = 0; lines[i]; i++)
        if (strstr(lines[i], needle))
            g_string_append_printf(s, "%s\n", lines[i]);
    g_strfreev(lines);
    return g_string_free(s, FALSE);
}

int e2e_count(const char *hay, const char *needle) {
    int n = 0;
    size_t len = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + len, needle))
        n++;
    return n;
}

int e2e_lines(const char *text) {
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    if (*text && text[strlen(text) - 1] != '\n')
        n++;
    return n;
}

static void dump_text(const char *name, const char *text) {
    const size_t max = 6000;
    size_t len = strlen(text);
    if (len <= max) {
        printf("---- %s (%zu bytes)\n%s%s", name, len, text,
               len && text[len - 1] != '\n' ? "\n" : "");
    } else {
        printf("---- %s (%zu bytes, first and last %zu shown)\n%.*s\n[...]\n%s\n", name, len,
               max / 2, (int)(max / 2), text, text + len - max / 2);
    }
}

void e2e_dump(const e2e_result *r, const char *what, const char *file, int line) {
    printf("\n==== FAILED %s:%d: %s\n", file, line, what);
    if (r && !r->dumped) {
        ((e2e_result *)r)->dumped = true;
        printf("command: %s\nexit status: %d, %.2f s\n", r->cmd, r->status, r->secs);
        dump_text("stdout", r->out);
        dump_text("stderr", r->err);
        printf("====\n");
    } else if (r) {
        printf("(command: %s; its output is shown above)\n", r->cmd);
    }
    fflush(stdout);
}

bool e2e_check(bool ok, const e2e_result *r, const char *what, const char *file, int line) {
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, (unsigned)line, what, file, "", CU_FALSE);
    if (!ok)
        e2e_dump(r, what, file, line);
    return ok;
}

bool e2e_check_block(const e2e_result *r, const char *block, const char *text, bool want,
                     const char *file, int line) {
    char *what = g_strdup_printf("the finding's text %s \"%s\"", want ? "contains" : "lacks", text);
    bool ok = block && (strstr(block, text) != NULL) == want;
    e2e_check(ok, r, what, file, line);
    g_free(what);
    return ok;
}

void e2e_expect_clean(const e2e_result *r, const char *file, int line) {
    e2e_check(r->status == 0, r, "exit status 0", file, line);
    e2e_check(strstr(r->err, "ordex: ERROR") == NULL, r, "no finding", file, line);
    e2e_check(strstr(r->err, "ordex: WARNING") == NULL, r, "no warning", file, line);
    e2e_check(strstr(r->err, "; no error found\n") != NULL, r,
              "summary line ends with \"no error found\"", file, line);
}

void e2e_expect_mpich_output(const e2e_result *r, const char *name, const char *only,
                             const char *file, int line) {
    e2e_expect_recorded_output(r, name, only, "MPICH", file, line);
}

void e2e_expect_recorded_output(const e2e_result *r, const char *name, const char *only,
                                const char *mpi, const char *file, int line) {
    char *rel = g_strdup_printf("tests/e2e/expected/%s.out", name);
    const char *want = e2e_read_src(rel);
    g_free(rel);
    char *what =
        g_strdup_printf("sorted stdout equals expected/%s.out (recorded with %s)", name, mpi);
    if (!want) {
        e2e_check(false, r, what, file, line);
        g_free(what);
        return;
    }
    char *sel = only ? e2e_grep(r->out, only) : g_strdup(r->out);
    char *got = e2e_sorted_lines(sel);
    bool ok = strcmp(got, want) == 0;
    e2e_check(ok, r, what, file, line);
    if (!ok) {
        dump_text("expected (sorted)", want);
        dump_text("got (sorted)", got);
        fflush(stdout);
    }
    g_free(sel);
    g_free(got);
    g_free(what);
}

char *e2e_finding_at(const char *const *lines, int at, const char *src, const char *marker,
                     const char *end_marker, const e2e_result *r, const char *file, int line) {
    char *what;
    char *block = NULL;
    if (at >= 0) {
        GString *b = g_string_new(NULL);
        g_string_append_printf(b, "%s\n", lines[at]);
        for (int i = at + 1; lines[i] && g_str_has_prefix(lines[i], "  "); i++)
            g_string_append_printf(b, "%s\n", lines[i]);
        block = g_string_free(b, FALSE);
    }
    if (at >= 0 && src) {
        int from = e2e_marker_line(src, marker);
        int to = end_marker ? e2e_marker_line(src, end_marker) : from;
        what = g_strdup_printf("marker %s (and end marker) found once in %s", marker, src);
        e2e_check(from > 0 && to >= from, r, what, file, line);
        g_free(what);
        char *base = g_path_get_basename(src);
        char *prefix = g_strdup_printf("  at %s:", base);
        const char *loc = lines[at + 1];
        int got = -1;
        if (loc && g_str_has_prefix(loc, prefix)) {
            char *end;
            long v = strtol(loc + strlen(prefix), &end, 10);
            if (end != loc + strlen(prefix) && *end == '\0')
                got = (int)v;
        }
        if (end_marker)
            what = g_strdup_printf("the finding is located \"  at %s:N\" with %d <= N <= %d", base,
                                   from, to);
        else
            what = g_strdup_printf("the finding is located \"  at %s:%d\"", base, from);
        e2e_check(got > 0 && got >= from && got <= to, r, what, file, line);
        g_free(what);
        g_free(prefix);
        g_free(base);
    }
    return block;
}

/* severity: "ERROR" or "WARNING". */
static char *expect_finding(const e2e_result *r, const char *severity, int nfindings,
                            const char *kind, const char *text, const char *src, const char *marker,
                            const char *end_marker, const char *file, int line) {
    char **lines = g_strsplit(r->err, "\n", -1);
    char *head = g_strdup_printf("ordex: %s [%s] ", severity, kind);
    char *any = g_strdup_printf("ordex: %s [", severity);
    int count = 0, at = -1;
    for (int i = 0; lines[i]; i++) {
        if (!g_str_has_prefix(lines[i], any))
            continue;
        count++;
        if (at < 0 && g_str_has_prefix(lines[i], head) && strstr(lines[i], text))
            at = i;
    }
    g_free(any);
    char *what = g_strdup_printf("%d finding(s) of severity %s", nfindings, severity);
    e2e_check(count == nfindings, r, what, file, line);
    g_free(what);
    what = g_strdup_printf("a finding \"%s...%s...\"", head, text);
    e2e_check(at >= 0, r, what, file, line);
    g_free(what);
    char *block =
        e2e_finding_at((const char *const *)lines, at, src, marker, end_marker, r, file, line);
    g_free(head);
    g_strfreev(lines);
    return block;
}

char *e2e_expect_finding(const e2e_result *r, int nfindings, const char *kind, const char *text,
                         const char *src, const char *marker, const char *end_marker,
                         const char *file, int line) {
    return expect_finding(r, "ERROR", nfindings, kind, text, src, marker, end_marker, file, line);
}

char *e2e_expect_warning(const e2e_result *r, int nwarnings, const char *kind, const char *text,
                         const char *src, const char *marker, const char *file, int line) {
    return expect_finding(r, "WARNING", nwarnings, kind, text, src, marker, NULL, file, line);
}

void e2e_expect_one_line_error(const e2e_result *r, const char *text, const char *file, int line) {
    e2e_check(r->status == 2, r, "exit status 2", file, line);
    e2e_check(e2e_lines(r->err) == 1 && r->err[strlen(r->err) - 1] == '\n', r,
              "stderr is exactly one line", file, line);
    char *what = g_strdup_printf("the message names the problem: \"%s\"", text);
    e2e_check(strstr(r->err, text) != NULL, r, what, file, line);
    g_free(what);
    e2e_check(strstr(r->err, "ordex: ERROR") == NULL && r->out[0] == '\0', r,
              "no finding and no program output", file, line);
}

/* ---------------------------------------------------------------------- */
/* JSON documents                                                          */

/* A strict reader of RFC 8259 text, for its verdict only: json-glib, which
 * builds the tree, also takes what JSON forbids (single quotes, comments,
 * control characters in strings, 0x10, .5, 01), the very mistakes a writer
 * of JSON makes. */
typedef struct {
    const char *start, *p;
    char *why; /* the first problem */
} jcheck;

static bool jfail(jcheck *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool jfail(jcheck *c, const char *fmt, ...) {
    if (!c->why) {
        va_list ap;
        va_start(ap, fmt);
        char *msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        c->why = g_strdup_printf("%s at byte %td", msg, c->p - c->start);
        g_free(msg);
    }
    return false;
}

static void jws(jcheck *c) {
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
        c->p++;
}

static int jhex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        if (!g_ascii_isxdigit(p[i]))
            return -1;
        v = v * 16 + g_ascii_xdigit_value(p[i]);
    }
    return v;
}

/* A string literal; its decoded text appended to `out` when not NULL. */
static bool jstring(jcheck *c, GString *out) {
    if (*c->p != '"')
        return jfail(c, "a string expected");
    c->p++;
    for (;;) {
        unsigned char ch = (unsigned char)*c->p;
        if (ch == '"') {
            c->p++;
            return true;
        }
        if (ch == '\0')
            return jfail(c, "unterminated string");
        if (ch < 0x20)
            return jfail(c, "control character 0x%02x in a string", ch);
        if (ch != '\\') {
            if (out)
                g_string_append_c(out, (char)ch);
            c->p++;
            continue;
        }
        char e = c->p[1];
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *k = e ? strchr(from, e) : NULL;
        if (k) {
            if (out)
                g_string_append_c(out, to[k - from]);
            c->p += 2;
            continue;
        }
        if (e != 'u')
            return jfail(c, "bad escape \\%c", e ? e : '0');
        int u = jhex4(c->p + 2);
        if (u < 0)
            return jfail(c, "bad \\u escape");
        c->p += 6;
        if (u >= 0xDC00 && u <= 0xDFFF)
            return jfail(c, "unpaired low surrogate \\u%04x", (unsigned)u);
        if (u >= 0xD800 && u <= 0xDBFF) {
            int lo = c->p[0] == '\\' && c->p[1] == 'u' ? jhex4(c->p + 2) : -1;
            if (lo < 0xDC00 || lo > 0xDFFF)
                return jfail(c, "unpaired high surrogate \\u%04x", (unsigned)u);
            c->p += 6;
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        }
        if (out)
            g_string_append_unichar(out, (gunichar)u);
    }
}

static bool jdigits(jcheck *c) {
    if (!g_ascii_isdigit(*c->p))
        return jfail(c, "a digit expected");
    while (g_ascii_isdigit(*c->p))
        c->p++;
    return true;
}

static bool jnumber(jcheck *c) {
    if (*c->p == '-')
        c->p++;
    if (*c->p == '0')
        c->p++;
    else if (!jdigits(c))
        return false;
    if (g_ascii_isdigit(*c->p))
        return jfail(c, "a number with a leading zero");
    if (*c->p == '.') {
        c->p++;
        if (!jdigits(c))
            return false;
    }
    if (*c->p == 'e' || *c->p == 'E') {
        c->p++;
        if (*c->p == '+' || *c->p == '-')
            c->p++;
        if (!jdigits(c))
            return false;
    }
    return true;
}

static bool jvalue(jcheck *c, int depth) {
    if (depth > 64)
        return jfail(c, "nested deeper than 64");
    jws(c);
    char ch = *c->p;
    if (ch == '{' || ch == '[') {
        bool obj = ch == '{';
        char close = obj ? '}' : ']';
        GHashTable *keys =
            obj ? g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) : NULL;
        bool ok = true;
        c->p++;
        jws(c);
        if (*c->p == close) {
            c->p++;
        } else {
            for (;;) {
                if (obj) {
                    jws(c);
                    GString *key = g_string_new(NULL);
                    const char *at = c->p;
                    ok = jstring(c, key);
                    if (ok && g_hash_table_contains(keys, key->str)) {
                        c->p = at;
                        ok = jfail(c, "key \"%s\" twice in one object", key->str);
                    }
                    if (ok)
                        g_hash_table_add(keys, g_string_free(key, FALSE));
                    else
                        g_string_free(key, TRUE);
                    jws(c);
                    if (ok && *c->p != ':')
                        ok = jfail(c, "':' expected");
                    if (!ok)
                        break;
                    c->p++;
                }
                if (!(ok = jvalue(c, depth + 1)))
                    break;
                jws(c);
                if (*c->p == ',') {
                    c->p++;
                    continue;
                }
                if (*c->p == close) {
                    c->p++;
                    break;
                }
                ok = jfail(c, "',' or '%c' expected", close);
                break;
            }
        }
        if (keys)
            g_hash_table_destroy(keys);
        return ok;
    }
    if (ch == '"')
        return jstring(c, NULL);
    if (ch == '-' || g_ascii_isdigit(ch))
        return jnumber(c);
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++)
        if (g_str_has_prefix(c->p, words[i])) {
            c->p += strlen(words[i]);
            return true;
        }
    return jfail(c, "a value expected");
}

char *e2e_json_problem(const char *text) {
    jcheck c = {text, text, NULL};
    const char *bad = NULL;
    if (!g_utf8_validate(text, -1, &bad)) {
        c.p = bad;
        jfail(&c, "not UTF-8");
    } else if (jvalue(&c, 0)) {
        jws(&c);
        if (*c.p)
            jfail(&c, "text after the value");
    }
    return c.why;
}

/* Records the assertion that `text` (len bytes; NULL: unreadable `name`) is
 * a strict JSON object, and returns it parsed. */
static JsonObject *json_object_of(const e2e_result *r, const char *name, const char *text,
                                  gsize len, const char *file, int line) {
    char *why = NULL;
    JsonObject *o = NULL;
    if (!text) {
        why = g_strdup("cannot be read");
    } else if (strlen(text) != len) {
        why = g_strdup_printf("a NUL byte at byte %zu", strlen(text));
    } else if (!(why = e2e_json_problem(text))) {
        JsonParser *parser = json_parser_new();
        GError *err = NULL;
        if (!json_parser_load_from_data(parser, text, (gssize)len, &err)) {
            why = g_strdup_printf("json-glib: %s", err->message);
            g_error_free(err);
        } else if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
            why = g_strdup("the top level is not an object");
        } else {
            o = json_object_ref(json_node_get_object(json_parser_get_root(parser)));
        }
        g_object_unref(parser);
    }
    char *what = g_strdup_printf("%s is a JSON object%s%s", name, why ? ": " : "", why ? why : "");
    e2e_check(o != NULL, r, what, file, line);
    if (!o && text) {
        dump_text(name, text);
        fflush(stdout);
    }
    g_free(what);
    g_free(why);
    return o;
}

JsonObject *e2e_json_file(const e2e_result *r, const char *path, const char *file, int line) {
    char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &text, &len, NULL))
        text = NULL;
    JsonObject *o = json_object_of(r, path, text, len, file, line);
    g_free(text);
    return o;
}

JsonObject *e2e_json_text(const e2e_result *r, const char *text, const char *file, int line) {
    return json_object_of(r, "the text", text, text ? strlen(text) : 0, file, line);
}

void e2e_json_free(JsonObject *o) {
    if (o)
        json_object_unref(o);
}

/* Whether element `n` matches the selector KEY=VALUE. */
static bool json_matches(JsonNode *n, const char *key, const char *value) {
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return false;
    JsonNode *m = json_object_get_member(json_node_get_object(n), key);
    if (!m || !JSON_NODE_HOLDS_VALUE(m))
        return false;
    GType t = json_node_get_value_type(m);
    if (t == G_TYPE_STRING)
        return strcmp(json_node_get_string(m), value) == 0;
    if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE) {
        char *end;
        double v = g_ascii_strtod(value, &end);
        return end != value && *end == '\0' && json_node_get_double(m) == v;
    }
    return false;
}

JsonNode *e2e_json_at(JsonObject *o, const char *path) {
    if (!o)
        return NULL;
    JsonNode *root = json_node_init_object(json_node_alloc(), o);
    JsonNode *n = root;
    const char *p = path;
    while (n && *p) {
        if (*p == '[') {
            const char *end = strchr(p, ']');
            if (!end || !JSON_NODE_HOLDS_ARRAY(n)) {
                n = NULL;
                break;
            }
            char *sel = g_strndup(p + 1, (gsize)(end - p - 1));
            JsonArray *a = json_node_get_array(n);
            guint len = json_array_get_length(a);
            char *eq = strchr(sel, '=');
            n = NULL;
            if (eq) {
                *eq = '\0';
                for (guint i = 0; i < len && !n; i++)
                    if (json_matches(json_array_get_element(a, i), sel, eq + 1))
                        n = json_array_get_element(a, i);
            } else {
                char *e;
                guint64 i = g_ascii_strtoull(sel, &e, 10);
                if (e != sel && *e == '\0' && i < len)
                    n = json_array_get_element(a, (guint)i);
            }
            g_free(sel);
            p = end + 1;
        } else {
            if (*p == '.')
                p++;
            size_t k = strcspn(p, ".[");
            char *name = g_strndup(p, k);
            n = JSON_NODE_HOLDS_OBJECT(n) ? json_object_get_member(json_node_get_object(n), name)
                                          : NULL;
            g_free(name);
            p += k;
        }
    }
    json_node_unref(root);
    return n;
}

double e2e_json_num(JsonObject *o, const char *path) {
    JsonNode *n = e2e_json_at(o, path);
    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return NAN;
    GType t = json_node_get_value_type(n);
    return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE ? json_node_get_double(n) : NAN;
}

const char *e2e_json_str(JsonObject *o, const char *path) {
    JsonNode *n = e2e_json_at(o, path);
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
               ? json_node_get_string(n)
               : NULL;
}

bool e2e_json_str_is(JsonObject *o, const char *path, const char *want) {
    const char *got = e2e_json_str(o, path);
    return got && strcmp(got, want) == 0;
}

int e2e_json_bool(JsonObject *o, const char *path) {
    JsonNode *n = e2e_json_at(o, path);
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
        return -1;
    return json_node_get_boolean(n) ? 1 : 0;
}

bool e2e_json_is_null(JsonObject *o, const char *path) {
    JsonNode *n = e2e_json_at(o, path);
    return n && JSON_NODE_HOLDS_NULL(n);
}

bool e2e_json_is_array(JsonObject *o, const char *path) {
    JsonNode *n = e2e_json_at(o, path);
    return n && JSON_NODE_HOLDS_ARRAY(n);
}

int e2e_json_len(JsonObject *o, const char *path) {
    JsonNode *n = e2e_json_at(o, path);
    return n && JSON_NODE_HOLDS_ARRAY(n) ? (int)json_array_get_length(json_node_get_array(n)) : -1;
}

int e2e_json_count(JsonObject *o, const char *path, const char *key, const char *value) {
    JsonNode *n = e2e_json_at(o, path);
    if (!n || !JSON_NODE_HOLDS_ARRAY(n))
        return -1;
    JsonArray *a = json_node_get_array(n);
    int count = 0;
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonNode *e = json_array_get_element(a, i);
        if (!JSON_NODE_HOLDS_OBJECT(e))
            continue;
        JsonNode *m = json_object_get_member(json_node_get_object(e), key);
        count += m && JSON_NODE_HOLDS_VALUE(m) && json_node_get_value_type(m) == G_TYPE_STRING &&
                 strcmp(json_node_get_string(m), value) == 0;
    }
    return count;
}

char *e2e_json_compact(JsonObject *o, const char *path) {
    JsonNode *n = e2e_json_at(o, path);
    return n ? json_to_string(n, FALSE) : NULL;
}

/* ---------------------------------------------------------------------- */

/* The tests that `add` registers, as (name, function) pairs: a scratch
 * registry collects them, so that a shard can register only its own. */
typedef struct {
    char *name;
    CU_TestFunc fn;
    bool active; /* false: skipped (tests/skip.h) */
} e2e_test;

static GArray *collect_tests(const char *name, void (*add)(CU_pSuite)) {
    GArray *tests = g_array_new(FALSE, FALSE, sizeof(e2e_test));
    if (CU_initialize_registry() != CUE_SUCCESS)
        return tests;
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    if (s) {
        add(s);
        for (CU_pTest t = s->pTest; t; t = t->pNext) {
            e2e_test e = {g_strdup(t->pName), t->pTestFunc, t->fActive != CU_FALSE};
            g_array_append_val(tests, e);
        }
    }
    CU_cleanup_registry();
    return tests;
}

int e2e_main(const char *name, void (*add)(CU_pSuite)) {
    if (!e2e_init())
        return 2;
    /* Bazel's test sharding (shard_count): shard `index` of `total` runs
     * the tests whose position modulo total is index. */
    const char *total_s = g_getenv("TEST_TOTAL_SHARDS"), *index_s = g_getenv("TEST_SHARD_INDEX");
    unsigned total = total_s ? (unsigned)atoi(total_s) : 1,
             index = index_s ? (unsigned)atoi(index_s) : 0;
    if (total < 1 || index >= total) {
        fprintf(stderr, "e2e: bad shard %s of %s\n", index_s, total_s);
        return 2;
    }
    const char *status_file = g_getenv("TEST_SHARD_STATUS_FILE");
    if (status_file) /* tells Bazel that this test shards */
        g_file_set_contents(status_file, "", 0, NULL);
    GArray *tests = collect_tests(name, add);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    if (!s || tests->len == 0) {
        CU_cleanup_registry();
        return 2;
    }
    for (guint i = 0; i < tests->len; i++) {
        e2e_test *t = &g_array_index(tests, e2e_test, i);
        if (i % total == index) {
            CU_pTest added = CU_add_test(s, t->name, t->fn);
            if (added && !t->active) { /* skipped: counted as inactive, not failed */
                CU_set_fail_on_inactive(CU_FALSE);
                CU_set_test_active(added, CU_FALSE);
            }
        }
        g_free(t->name);
    }
    g_array_free(tests, TRUE);
    if (total > 1)
        printf("shard %u of %u of suite %s\n", index + 1, total, name);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
    unsigned asserts_failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    e2e_fini();
    return failed || asserts_failed ? 1 : 0;
}

/* The finding's details hold a line "  WHO... at BASENAME(src):LINE" where
 * LINE is the line of `marker` in `src` (e.g. who = "rank 1: MPI_Recv("). */
void e2e_expect_blocked_at(const e2e_result *r, const char *block, const char *who, const char *src,
                           const char *marker, const char *file, int line) {
    int l = e2e_marker_line(src, marker);
    char *base = g_path_get_basename(src);
    char *tail = g_strdup_printf(" at %s:%d", base, l);
    char *head = g_strdup_printf("  %s", who);
    bool ok = false;
    char **lines = g_strsplit(block ? block : "", "\n", -1);
    for (int i = 0; lines[i] && !ok; i++)
        ok = g_str_has_prefix(lines[i], head) && g_str_has_suffix(lines[i], tail);
    g_strfreev(lines);
    char *what = g_strdup_printf("the finding's details hold \"%s...%s\"", head, tail);
    e2e_check(l > 0 && ok, r, what, file, line);
    g_free(what);
    g_free(head);
    g_free(tail);
    g_free(base);
}
