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
} out_run_summary;

void out_print_findings(FILE *out, GPtrArray *findings, const out_run_summary *sum, bool quiet);

/* Just the findings: "ordex: ERROR [kind] message", location, details. */
void out_print_finding_list(FILE *out, GPtrArray *findings);

/* Appends the findings as a JSON array of {"kind", "ranks", "message",
 * "location", "details"} objects, each on its own line after `indent`. */
void out_json_findings(GString *s, GPtrArray *findings, const char *indent);

/* Writes {"verdict": "ok"|"error", "findings": [...], "stats": {...}}. */
bool out_write_json(const char *path, GPtrArray *findings, const out_run_summary *sum);

#endif
