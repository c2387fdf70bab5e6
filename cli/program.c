/*
 * program.c - getting the user's program ready to run.
 */
#define _GNU_SOURCE
#include "cli/program.h"

#include <glib.h>
#include <string.h>
#include <unistd.h>

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

char *ordex_program_prepare(const char *prog, int nranks, bool for_prediction) {
    char *so = g_str_has_suffix(prog, ".c")
                   ? tc_compile_cached(prog, true, for_prediction, !for_prediction)
                   : g_strdup(prog);
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
