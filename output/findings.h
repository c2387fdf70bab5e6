/*
 * findings.h - the human report and the JSON file of a run.
 */
#ifndef ORDEX_OUT_FINDINGS_H
#define ORDEX_OUT_FINDINGS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/json.h"

typedef struct out_run_summary {
    const char *program;
    int nranks;
    uint64_t messages;
    uint64_t events;
    uint64_t switches;
    double predicted_s;
    double elapsed_s;
    uint64_t peak_rss_bytes;
    const char *incomplete; /* why the run stopped before the program ended, or NULL */
} out_run_summary;

/* The findings (sim_finding *, as sg_findings_classify left them: a
 * warning has `warning` set) and the summary line: "no error found", "N
 * errors found", with ", N warnings" when there are. */
void out_print_findings(FILE *out, GPtrArray *findings, const out_run_summary *sum, bool quiet);

/* The exit status the findings call for: 2 when one says the program
 * needs what ordex lacks (kind "unsupported"), else 1 when one is an error
 * (not a warning), else 0. */
int out_findings_status(GPtrArray *findings);

/* Just the findings: "ordex: ERROR [kind] message" (or "ordex: WARNING
 * [kind] ..."), location, details. */
void out_print_finding_list(FILE *out, GPtrArray *findings);

/* One finding as a JSON object: {"kind", "severity" ("error" or
 * "warning"), "ranks", "message", "location", "details", "trace"};
 * location, details and trace may be NULL (null). */
void out_json_finding(out_json *w, const char *kind, bool warning, const int *ranks, int nranks,
                      const char *message, const char *location, const char *details,
                      const char *trace);

/* The same object left open, for the caller to add keys of its own kind of
 * finding and close it with out_json_end. */
void out_json_finding_open(out_json *w, const char *kind, bool warning, const int *ranks,
                           int nranks, const char *message, const char *location,
                           const char *details, const char *trace);

/* The simulator's findings (sim_finding *) as an array under key. */
void out_json_findings(out_json *w, const char *key, GPtrArray *findings);

/* Writes {"verdict": "ok"|"error", "program", "findings": [...], "stats":
 * {...}}; only errors make the verdict "error".  False with *err set
 * (g_free) when the file cannot be written. */
bool out_write_json(const char *path, GPtrArray *findings, const out_run_summary *sum, char **err);

#endif
