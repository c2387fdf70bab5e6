/*
 * findings.c - printing findings for people and for programs.
 */
#include "output/findings.h"

#include <string.h>

#include "simulator/sim.h"

void out_print_finding_list(FILE *out, GPtrArray *findings) {
    for (guint i = 0; i < findings->len; i++) {
        const sim_finding *f = g_ptr_array_index(findings, i);
        fprintf(out, "ordex: ERROR [%s] %s\n", sim_finding_kind_name(f->kind), f->message);
        if (f->location)
            fprintf(out, "  at %s\n", f->location);
        if (f->details)
            fputs(f->details, out);
    }
}

void out_print_findings(FILE *out, GPtrArray *findings, const out_run_summary *sum, bool quiet) {
    out_print_finding_list(out, findings);
    if (quiet && findings->len == 0)
        return;
    fprintf(out,
            "ordex: %d rank%s, %" G_GUINT64_FORMAT " messages delivered, predicted time %.6f s, "
            "%.3f s to simulate; %s\n",
            sum->nranks, sum->nranks == 1 ? "" : "s", sum->messages, sum->predicted_s,
            sum->elapsed_s,
            findings->len == 0   ? "no error found"
            : findings->len == 1 ? "1 error found"
                                 : "errors found");
}

bool out_write_json(const char *path, GPtrArray *findings, const out_run_summary *sum) {
    GString *s = g_string_new("{\n");
    g_string_append(s, "  \"verdict\": ");
    out_json_string(s, findings->len ? "error" : "ok");
    g_string_append(s, ",\n  \"program\": ");
    out_json_string(s, sum->program);
    g_string_append(s, ",\n  \"findings\": ");
    out_json_findings(s, findings, "  ");
    g_string_append_printf(s,
                           ",\n  \"stats\": {\"ranks\": %d, \"messages\": %" G_GUINT64_FORMAT
                           ", \"events\": %" G_GUINT64_FORMAT
                           ", \"context_switches\": %" G_GUINT64_FORMAT
                           ", \"predicted_time_s\": %.9f, \"elapsed_s\": %.6f, "
                           "\"peak_rss_bytes\": %" G_GUINT64_FORMAT "}\n}\n",
                           sum->nranks, sum->messages, sum->events, sum->switches, sum->predicted_s,
                           sum->elapsed_s, sum->peak_rss_bytes);
    bool ok = g_file_set_contents(path, s->str, (gssize)s->len, NULL);
    g_string_free(s, TRUE);
    return ok;
}

void out_json_findings(GString *s, GPtrArray *findings, const char *indent) {
    g_string_append_c(s, '[');
    for (guint i = 0; i < findings->len; i++) {
        const sim_finding *f = g_ptr_array_index(findings, i);
        g_string_append_printf(s, "%s\n%s  {\"kind\": ", i ? "," : "", indent);
        out_json_string(s, sim_finding_kind_name(f->kind));
        g_string_append(s, ", \"ranks\": [");
        for (int k = 0; k < f->nranks; k++)
            g_string_append_printf(s, "%s%d", k ? ", " : "", f->ranks[k]);
        g_string_append(s, "], \"message\": ");
        out_json_string(s, f->message);
        g_string_append(s, ", \"location\": ");
        if (f->location)
            out_json_string(s, f->location);
        else
            g_string_append(s, "null");
        g_string_append(s, ", \"details\": ");
        if (f->details)
            out_json_string(s, f->details);
        else
            g_string_append(s, "null");
        g_string_append(s, "}");
    }
    if (findings->len)
        g_string_append_printf(s, "\n%s", indent);
    g_string_append_c(s, ']');
}
