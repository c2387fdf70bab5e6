/*
 * platform_builtin.c - the platform `ordex predict` simulates when it is
 * given none: a platform text, read like a file.
 */
#define _GNU_SOURCE
#include "perfmodel/platform.h"

#include <unistd.h>

/* Round numbers of what `ordex calibrate` measured with MPICH 4.0.2 on the
 * benchmark machine (bench/RESULTS.md): a small message took 0.12 to 0.6 us
 * one way (the machine has two speeds), a large one streamed at 9 to 14
 * GB/s, and MPI_Send waited for its receive above about 8 KiB.  docs/
 * platform.md shows this text; keep the two alike. */
static const char BUILTIN_FORMAT[] =
    "# The built-in platform: this machine as one node, its ranks talking\n"
    "# through shared memory (docs/platform.md).\n"
    "[cluster]\n"
    "nodes = 1\n"
    "cores_per_node = %ld\n"
    "oversubscribe = true\n"
    "busy_wait = true\n"
    "timeslice = 4ms\n"
    "\n"
    "[network]\n"
    "latency = 0.5us\n"
    "bandwidth = 10GBps\n"
    "eager_limit = 8KiB\n"
    "async_progress = false\n";

char *pm_platform_builtin_text(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    return g_strdup_printf(BUILTIN_FORMAT, cores);
}

pm_platform *pm_platform_load_builtin(const char *const *overrides, GError **error) {
    char *text = pm_platform_builtin_text();
    pm_platform *p = pm_platform_load_data(PM_PLATFORM_BUILTIN_NAME, text, overrides, error);
    g_free(text);
    return p;
}
