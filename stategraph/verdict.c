/*
 * verdict.c - the verdict of an exploration (see verdict.h).
 */
#include "stategraph/verdict.h"

#include <string.h>

static bool seen_in_pass0(GPtrArray *findings, const sg_finding *f) {
    for (guint i = 0; i < findings->len; i++) {
        const sg_finding *g = g_ptr_array_index(findings, i);
        if (g->pass == 0 && g->kind == f->kind && g_strcmp0(g->location, f->location) == 0)
            return true;
    }
    return false;
}

bool sg_leaks_parse(const char *text, sg_leaks *out) {
    if (strcmp(text, "warn") == 0)
        *out = SG_LEAKS_WARN;
    else if (strcmp(text, "error") == 0)
        *out = SG_LEAKS_ERROR;
    else if (strcmp(text, "off") == 0 || strcmp(text, "ignore") == 0)
        *out = SG_LEAKS_OFF;
    else
        return false;
    return true;
}

sg_severity sg_severity_of(sim_finding_kind kind, sg_leaks leaks) {
    if (kind == SIM_F_LEAK)
        return leaks == SG_LEAKS_ERROR ? SG_SEV_ERROR
               : leaks == SG_LEAKS_OFF ? SG_SEV_NONE
                                       : SG_SEV_WARNING;
    return sim_finding_kind_advisory(kind) ? SG_SEV_WARNING : SG_SEV_ERROR;
}

void sg_findings_classify(GPtrArray *findings, sg_leaks leaks) {
    for (guint i = 0; i < findings->len;) {
        sim_finding *f = g_ptr_array_index(findings, i);
        sg_severity sev = sg_severity_of(f->kind, leaks);
        if (sev == SG_SEV_NONE) {
            g_ptr_array_remove_index(findings, i);
            continue;
        }
        f->warning = sev == SG_SEV_WARNING;
        i++;
    }
}

void sg_verdict_of(const sg_explore_opts *o, const sg_explore_result *res, sg_divergence divergence,
                   sg_leaks leaks, sg_verdict *v) {
    memset(v, 0, sizeof *v);
    v->errors = g_ptr_array_new();
    v->warnings = g_ptr_array_new();
    for (guint i = 0; i < res->findings->len; i++) {
        sg_finding *f = g_ptr_array_index(res->findings, i);
        sg_severity sev = sg_severity_of(f->kind, leaks);
        if (sev != SG_SEV_NONE && (f->pass == 0 || !seen_in_pass0(res->findings, f)))
            g_ptr_array_add(sev == SG_SEV_ERROR ? v->errors : v->warnings, f);
    }
    v->nerrors = (int)v->errors->len;
    v->nwarnings = (int)v->warnings->len;
    v->race_pass = -1;
    int passes = o->both_send_modes ? 2 : 1;
    for (int pass = 0; pass < passes && divergence != SG_DIVERGENCE_IGNORE; pass++)
        if (res->outcomes[pass].a) {
            v->race_pass = pass;
            v->race_is_error = divergence == SG_DIVERGENCE_ERROR;
            v->nerrors += v->race_is_error;
            break;
        }
    /* A bounded search that never had to leave an alternative out explored
     * every ordering: then it is as good as the exhaustive one. */
    v->every =
        o->strategy == SG_EXHAUSTIVE || (o->strategy == SG_DFS_BRANCHES && res->bound_cuts == 0);
    bool unsupported = false; /* the program needs what ordex lacks: ordex's limit */
    for (guint i = 0; i < v->errors->len; i++)
        unsupported |=
            ((const sg_finding *)g_ptr_array_index(v->errors, i))->kind == SIM_F_UNSUPPORTED;
    v->word = unsupported                    ? "unsupported"
              : v->nerrors                   ? "error"
              : res->incomplete || !v->every ? "incomplete"
                                             : "ok";
    v->status = unsupported ? 2 : v->nerrors ? 1 : res->incomplete ? 2 : 0;
}

void sg_verdict_clear(sg_verdict *v) {
    if (v->errors)
        g_ptr_array_free(v->errors, TRUE);
    if (v->warnings)
        g_ptr_array_free(v->warnings, TRUE);
    memset(v, 0, sizeof *v);
}

const char *sg_buffering_note(const sg_explore_opts *o, int pass, const char *message) {
    if (!o->both_send_modes || (message && strstr(message, "not buffered")))
        return "";
    return pass == 1 ? " (only when MPI_Send is not buffered)" : "";
}
