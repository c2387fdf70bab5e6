/*
 * fuzz_options.c - option parsing of `ordex run`, `explore` and `predict`
 * (cli/options.h).  The input's first byte picks the command, the rest is
 * the argument list, one argument per line.  Properties: no crash; a parse
 * that succeeds leaves a program, a rank count in 1..1000000 and sizes
 * within their bounds.
 */
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0)
        return 0;
    static const char *const cmds[] = {"run", "explore", "predict"};
    const char *cmd = cmds[data[0] % 3];
    char *text = g_strndup((const char *)data + 1, size - 1);
    char **lines = g_strsplit(text, "\n", 64);
    int n = (int)g_strv_length(lines);
    char **argv = g_new0(char *, n + 2);
    argv[0] = (char *)cmd;
    for (int i = 0; i < n; i++)
        argv[i + 1] = lines[i];
    /* GLib answers --help, -h and -? (also inside a group of short options)
     * by printing the help and ending the process, as a command line should;
     * that is not fuzzed.  Any argument that could ask for it is left out
     * (an option's value may look like one: erring towards leaving out). */
    bool help_asked = false;
    for (int i = 1; i <= n && !help_asked; i++) {
        const char *a = argv[i];
        help_asked = a[0] == '-' && (g_str_has_prefix(a, "--help") ||
                                     (a[1] != '-' && (strchr(a, 'h') || strchr(a, '?'))));
    }
    if (help_asked) {
        g_free(argv);
        g_strfreev(lines);
        g_free(text);
        return 0;
    }
    /* Options that go wrong say so on stderr: keep the regression log short. */
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    ordex_opts o;
    int rc = ordex_parse_common(n + 1, argv, cmd, &o);
    fclose(stderr);
    stderr = saved;
    FUZZ_CHECK(rc == 0 || rc == 2);
    if (rc == 0) {
        FUZZ_CHECK(o.run.argc >= 1 && o.run.argv && o.run.argv[0]);
        FUZZ_CHECK(o.run.nranks >= 1 && o.run.nranks <= 1000000);
        FUZZ_CHECK(o.run.stack_size >= 16384 && o.run.heap_size >= 65536);
    }
    ordex_opts_free(&o);
    g_free(argv);
    g_strfreev(lines);
    g_free(text);
    return 0;
}
