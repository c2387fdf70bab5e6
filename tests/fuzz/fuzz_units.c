/*
 * fuzz_units.c - the size, time and bandwidth parsers (perfmodel/units.h).
 * Properties: no crash; a value accepted is finite (sizes are never
 * negative; a negative time or bandwidth parses, its range is the caller's
 * to check); a refusal explains itself; parsing the same text twice gives
 * the same answer.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "perfmodel/units.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = g_strndup((const char *)data, size);
    uint64_t bytes = 0, again = 0;
    char *problem = NULL;
    bool ok = pm_parse_size(text, &bytes, &problem);
    FUZZ_CHECK(ok ? problem == NULL : problem != NULL && *problem);
    g_free(problem);
    problem = NULL;
    FUZZ_CHECK(pm_parse_size(text, &again, &problem) == ok && (!ok || again == bytes));
    g_free(problem);
    problem = NULL;
    double t = -1;
    ok = pm_parse_time(text, &t, &problem);
    FUZZ_CHECK(ok ? isfinite(t) && !problem : problem != NULL);
    g_free(problem);
    problem = NULL;
    double bw = -1;
    ok = pm_parse_bandwidth(text, &bw, &problem);
    FUZZ_CHECK(ok ? isfinite(bw) && !problem : problem != NULL);
    g_free(problem);
    g_free(text);
    return 0;
}
