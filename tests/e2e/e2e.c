/*
 * e2e.c - helpers of the end-to-end tests (see e2e.h).
 */
#include "e2e.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

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

e2e_result *e2e_ordex_runv(const char *const *args) {
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, g_ordex);
    for (int i = 0; args[i]; i++)
        g_ptr_array_add(a, (gpointer)args[i]);
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
    e2e_check(strstr(r->err, "; no error found\n") != NULL, r,
              "summary line ends with \"no error found\"", file, line);
}

void e2e_expect_mpich_output(const e2e_result *r, const char *name, const char *only,
                             const char *file, int line) {
    char *rel = g_strdup_printf("tests/e2e/expected/%s.out", name);
    const char *want = e2e_read_src(rel);
    g_free(rel);
    char *what =
        g_strdup_printf("sorted stdout equals expected/%s.out (recorded with MPICH)", name);
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

char *e2e_expect_finding(const e2e_result *r, int nfindings, const char *kind, const char *text,
                         const char *src, const char *marker, const char *end_marker,
                         const char *file, int line) {
    char **lines = g_strsplit(r->err, "\n", -1);
    char *head = g_strdup_printf("ordex: ERROR [%s] ", kind);
    int count = 0, at = -1;
    for (int i = 0; lines[i]; i++) {
        if (!g_str_has_prefix(lines[i], "ordex: ERROR ["))
            continue;
        count++;
        if (at < 0 && g_str_has_prefix(lines[i], head) && strstr(lines[i], text))
            at = i;
    }
    char *what = g_strdup_printf("%d finding(s)", nfindings);
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
