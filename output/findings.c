/*
 * findings.c - printing findings for people and for programs.
 */
#include "output/findings.h"

#include <string.h>

#include "simulator/sim.h"

void out_print_finding_list(FILE *out, GPtrArray *findings) {
    for (guint i = 0; i < findings->len; i++) {
        const sim_finding *f = g_ptr_array_index(findings, i);
        if (f->kind == SIM_F_UNSUPPORTED) /* ordex's limit, not the program's error */
            fprintf(out, "ordex: UNSUPPORTED %s\n", f->message);
        else
            fprintf(out, "ordex: %s [%s] %s\n", f->warning ? "WARNING" : "ERROR",
                    sim_finding_kind_name(f->kind), f->message);
        if (f->location)
            fprintf(out, "  at %s\n", f->location);
        if (f->details)
            fputs(f->details, out);
    }
}

/* Findings that are errors (not warnings). */
static guint errors_of(GPtrArray *findings) {
    guint n = 0;
    for (guint i = 0; i < findings->len; i++)
        n += !((const sim_finding *)g_ptr_array_index(findings, i))->warning;
    return n;
}

int out_findings_status(GPtrArray *findings) {
    return sim_findings_unsupported(findings) ? 2 : errors_of(findings) ? 1 : 0;
}

void out_print_findings(FILE *out, GPtrArray *findings, const out_run_summary *sum, bool quiet) {
    out_print_finding_list(out, findings);
    if (quiet && findings->len == 0)
        return;
    fprintf(out,
            "ordex: %d rank%s, %" G_GUINT64_FORMAT " message%s delivered, predicted time %.6f s, "
            "%.3f s to simulate; ",
            sum->nranks, sum->nranks == 1 ? "" : "s", sum->messages, sum->messages == 1 ? "" : "s",
            sum->predicted_s, sum->elapsed_s);
    guint errors = errors_of(findings), warnings = findings->len - errors;
    if (sim_findings_unsupported(findings))
        fprintf(out, "the program needs what ordex does not support");
    else if (errors == 0)
        fprintf(out, "no error found");
    else
        fprintf(out, "%u error%s found", errors, errors == 1 ? "" : "s");
    if (warnings && !sim_findings_unsupported(findings))
        fprintf(out, ", %u warning%s", warnings, warnings == 1 ? "" : "s");
    if (sum->incomplete)
        fprintf(out, ", but the run did not finish: %s", sum->incomplete);
    fputc('\n', out);
}

bool out_write_json(const char *path, GPtrArray *findings, const out_run_summary *sum, char **err) {
    GString *s = g_string_new(NULL);
    out_json w;
    out_json_init(&w, s, 2);
    out_json_object(&w, NULL);
    out_json_str(&w, "verdict",
                 sim_findings_unsupported(findings) ? "unsupported"
                 : errors_of(findings)              ? "error"
                 : sum->incomplete                  ? "incomplete"
                                                    : "ok");
    out_json_str(&w, "program", sum->program);
    if (sum->incomplete)
        out_json_str(&w, "incomplete", sum->incomplete);
    out_json_findings(&w, "findings", findings);
    out_json_object(&w, "stats");
    out_json_int(&w, "ranks", sum->nranks);
    out_json_uint(&w, "messages", sum->messages);
    out_json_uint(&w, "events", sum->events);
    out_json_uint(&w, "context_switches", sum->switches);
    out_json_num(&w, "predicted_time_s", sum->predicted_s);
    out_json_num(&w, "elapsed_s", sum->elapsed_s);
    out_json_uint(&w, "peak_rss_bytes", sum->peak_rss_bytes);
    out_json_end(&w);
    out_json_end(&w);
    bool ok = out_json_save(s, path, err);
    g_string_free(s, TRUE);
    return ok;
}

void out_json_finding_open(out_json *w, const char *kind, bool warning, const int *ranks,
                           int nranks, const char *message, const char *location,
                           const char *details, const char *trace) {
    out_json_object(w, NULL);
    out_json_str(w, "kind", kind);
    out_json_str(w, "severity", warning ? "warning" : "error");
    out_json_ints(w, "ranks", ranks, nranks);
    out_json_str(w, "message", message);
    out_json_str(w, "location", location);
    out_json_str(w, "details", details);
    out_json_str(w, "trace", trace);
}

void out_json_finding(out_json *w, const char *kind, bool warning, const int *ranks, int nranks,
                      const char *message, const char *location, const char *details,
                      const char *trace) {
    out_json_finding_open(w, kind, warning, ranks, nranks, message, location, details, trace);
    out_json_end(w);
}

void out_json_findings(out_json *w, const char *key, GPtrArray *findings) {
    out_json_array(w, key);
    for (guint i = 0; i < findings->len; i++) {
        const sim_finding *f = g_ptr_array_index(findings, i);
        out_json_finding(w, sim_finding_kind_name(f->kind), f->warning, f->ranks, f->nranks,
                         f->message, f->location, f->details, NULL);
    }
    out_json_end(w);
}
