/*
 * program.c - getting the user's program ready to run.
 */
#define _GNU_SOURCE
#include "cli/program.h"

#include <glib.h>
#include <string.h>
#include <unistd.h>

#include "output/json.h"
#include "stategraph/unsupported.h"
#include "toolchain/compile.h"
#include "util/files.h"

/* Loading a rank takes a handful of memory mappings (program segments,
 * stack and its guard).  Linux caps mappings per process. */
static bool ensure_map_count(int nranks) {
    long need = (long)nranks * 10 + 4096;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    long have = 0;
    if (!f)
        return true;
    if (fscanf(f, "%ld", &have) != 1)
        have = 0;
    fclose(f);
    if (have == 0 || have >= need)
        return true;
    f = fopen("/proc/sys/vm/max_map_count", "w");
    if (f) {
        fprintf(f, "%ld\n", need);
        if (fclose(f) == 0)
            return true;
    }
    fprintf(stderr,
            "ordex: %d ranks need about %ld memory mappings but vm.max_map_count is %ld; "
            "raise it with: sudo sysctl -w vm.max_map_count=%ld\n",
            nranks, need, have, need);
    return false;
}

char *ordex_program_problem(const char *so) {
    char *why = NULL;
    int fd = util_open_regular(so, &why);
    if (fd >= 0) {
        close(fd);
        return NULL;
    }
    char *msg = g_strdup_printf("%s: %s", so, why);
    g_free(why);
    return msg;
}

char *ordex_program_prepare(const char *prog, int nranks, bool optimize) {
    char *so =
        g_str_has_suffix(prog, ".c") ? tc_compile_cached(prog, true, optimize) : g_strdup(prog);
    if (!so)
        return NULL;
    char *problem = ordex_program_problem(so);
    if (problem) {
        fprintf(stderr, "ordex: %s\n", problem);
        g_free(problem);
        g_free(so);
        return NULL;
    }
    if (!ensure_map_count(nranks)) {
        g_free(so);
        return NULL;
    }
    return so;
}

int ordex_program_refuse_unsupported(const char *cmd, const char *prog, const char *so,
                                     const char *json) {
    char *err = NULL;
    GPtrArray *missing = sg_program_unsupported(so, &err);
    if (!missing) {
        g_free(err);
        return 0;
    }
    if (missing->len == 0) {
        g_ptr_array_free(missing, TRUE);
        return 0;
    }
    char *why = sg_unsupported_message(missing);
    fprintf(stderr, "%s: %s: %s\n", cmd, prog, why);
    int status = 2;
    if (json) {
        GString *s = g_string_new(NULL);
        out_json w;
        out_json_init(&w, s, 2);
        out_json_object(&w, NULL);
        out_json_str(&w, "verdict", "unsupported");
        out_json_str(&w, "program", prog);
        out_json_str(&w, "message", why);
        out_json_array(&w, "unsupported");
        for (guint i = 0; i < missing->len; i++) {
            const sg_unsupported *u = g_ptr_array_index(missing, i);
            out_json_object(&w, NULL);
            out_json_str(&w, "function", u->function);
            out_json_str(&w, "location", u->locations[0]);
            out_json_array(&w, "locations");
            for (int k = 0; u->locations[k]; k++)
                out_json_str(&w, NULL, u->locations[k]);
            out_json_end(&w);
            out_json_end(&w);
        }
        out_json_end(&w);
        out_json_array(&w, "findings");
        out_json_end(&w);
        out_json_end(&w);
        if (!out_json_save(s, json, &err)) {
            fprintf(stderr, "%s: %s\n", cmd, err);
            g_free(err);
        }
        g_string_free(s, TRUE);
    }
    g_free(why);
    g_ptr_array_free(missing, TRUE);
    return status;
}
