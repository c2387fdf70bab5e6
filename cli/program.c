/*
 * program.c - getting the user's program ready to run.
 */
#define _GNU_SOURCE
#include "cli/program.h"

#include <glib.h>
#include <malloc.h>
#include <string.h>

#include "cli/compile.h"
#include "scheduler/sched.h"

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

char *ordex_program_prepare(const char *prog, int nranks, bool optimize) {
    char *so =
        g_str_has_suffix(prog, ".c") ? ordex_compile_cached(prog, true, optimize) : g_strdup(prog);
    if (!so)
        return NULL;
    if (!g_file_test(so, G_FILE_TEST_EXISTS)) {
        fprintf(stderr, "ordex: %s: no such file\n", so);
        g_free(so);
        return NULL;
    }
    if (!ensure_map_count(nranks)) {
        g_free(so);
        return NULL;
    }
    return so;
}

/* A message's payload is ordex's own allocation, made at the send and freed
 * at the delivery, so a program sending 1 MiB messages allocates and frees
 * 1 MiB per message.  By default glibc hands such chunks back to the kernel
 * (it trims the heap top above 128 KiB, or maps a large chunk on its own), and
 * every payload then faults in fresh pages: most of the time of a
 * simulated ping-pong of 1 MiB messages.  Serving chunks up to 32 MiB from the
 * heap and keeping up to 64 MiB of it free lets each payload reuse the last
 * one's pages.  Not for explore, whose heap is part of every snapshot. */
static void keep_freed_memory(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

bool ordex_program_load(const ordex_opts *o, const char *so, const char *prog, int argc,
                        char **argv, FILE *out, FILE *err) {
    keep_freed_memory();
    sched_options so_opts = {0};
    so_opts.nranks = o->nranks;
    so_opts.stack_size = o->stack_size;
    so_opts.heap_size = o->heap_size;
    so_opts.tag_output = o->tag_output;
    so_opts.seed = o->seed;
    so_opts.step_timeout_s = o->step_timeout;
    so_opts.threads = o->threads;
    so_opts.program = so;
    so_opts.argc = argc;
    so_opts.argv = argv;
    so_opts.out = out;
    so_opts.err = err;
    char *why = NULL;
    if (sched_init(&so_opts, &why))
        return true;
    if (strcmp(so, prog) != 0) { /* name the user's source, not the cached build */
        char **parts = g_strsplit(why, so, -1);
        g_free(why);
        why = g_strjoinv((char *)prog, parts);
        g_strfreev(parts);
    }
    fprintf(stderr, "ordex: %s\n", why);
    g_free(why);
    sched_fini();
    return false;
}
