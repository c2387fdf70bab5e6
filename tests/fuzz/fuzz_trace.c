/*
 * fuzz_trace.c - the trace reader (stategraph/trace.h).  Properties: no
 * crash; a trace that reads has a program, at least one rank, steps whose
 * ranks lie in 0..ranks-1 and whose choices lie in 1..alternatives, and a
 * run description with the same ranks; a refusal names the file.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "stategraph/trace.h"
#include "tests/fuzz/fuzz.h"

static char *g_path;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!g_path) {
        int fd = g_file_open_tmp("ordex-fuzz-trace-XXXXXX", &g_path, NULL);
        FUZZ_CHECK(fd >= 0);
        close(fd);
    }
    FUZZ_CHECK(g_file_set_contents(g_path, (const char *)data, (gssize)size, NULL));
    sg_trace t;
    char *err = NULL;
    if (sg_trace_read(g_path, &t, &err)) {
        FUZZ_CHECK(t.program && t.nranks >= 1 && t.args && t.steps);
        for (guint i = 0; i < t.steps->len; i++) {
            const sg_trace_step *st = &g_array_index(t.steps, sg_trace_step, i);
            FUZZ_CHECK(st->choice >= 1 && st->choice <= st->nalts);
        }
        sg_rundesc d;
        sg_trace_rundesc(&t, &d);
        FUZZ_CHECK(d.nranks == t.nranks && d.argv && d.argv[0] == t.program);
        g_free(d.argv);
        sg_trace_free(&t);
    } else {
        FUZZ_CHECK(err && strstr(err, g_path) == err);
        g_free(err);
    }
    return 0;
}
