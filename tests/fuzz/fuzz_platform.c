/*
 * fuzz_platform.c - the platform loader with --set overrides.  The input is
 * a platform file, optionally followed by a line "--" and one override
 * ("section.key=value") per line.  Properties: no crash; a platform that
 * loads has finite, positive rates and places 1 to 64 ranks within its nodes
 * or says why not; a refusal comes with a message.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "perfmodel/platform.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = g_strndup((const char *)data, size);
    char **overrides = NULL;
    char *sep = strstr(text, "\n--\n");
    if (sep) {
        *sep = '\0';
        overrides = g_strsplit(sep + 4, "\n", 16);
    }
    GError *err = NULL;
    pm_platform *p = pm_platform_load_data("fuzz.ini", text, (const char *const *)overrides, &err);
    FUZZ_CHECK(p ? err == NULL : err != NULL && err->message && *err->message);
    if (p) {
        FUZZ_CHECK(p->nodes >= 1 && p->cores_per_node >= 1);
        for (int k = 0; k < p->nsegments; k++)
            FUZZ_CHECK(isfinite(p->segments[k].bandwidth) && p->segments[k].bandwidth > 0 &&
                       isfinite(p->segments[k].latency) && p->segments[k].latency >= 0);
        for (int n = 1; n <= 64; n *= 4) {
            int *map = g_new(int, n);
            GError *e = NULL;
            if (pm_platform_map(p, n, map, &e)) {
                for (int r = 0; r < n; r++)
                    FUZZ_CHECK(map[r] >= 0 && map[r] < p->nodes);
            } else {
                FUZZ_CHECK(e != NULL);
                g_error_free(e);
            }
            g_free(map);
        }
        pm_platform_free(p);
    } else {
        g_error_free(err);
    }
    g_strfreev(overrides);
    g_free(text);
    return 0;
}
