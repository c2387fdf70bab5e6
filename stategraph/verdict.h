/*
 * verdict.h - what findings mean for the user: which are errors, which
 * warnings (advisory findings, sim_finding_kind_advisory: they never make
 * the verdict an error unless an option asks) and which are not reported;
 * and for an exploration, whether the outcome depends on the ordering (a
 * message race), whether every ordering was explored, and the exit status.
 */
#ifndef ORDEX_SG_VERDICT_H
#define ORDEX_SG_VERDICT_H

#include <glib.h>
#include <stdbool.h>

#include "stategraph/explore.h"

/* What to make of outcomes that differ between orderings (--divergence). */
typedef enum sg_divergence {
    SG_DIVERGENCE_IGNORE,
    SG_DIVERGENCE_WARN,
    SG_DIVERGENCE_ERROR,
} sg_divergence;

/* What to make of leaks, handles never freed before MPI_Finalize (--leaks):
 * report them as warnings (the default: MPI does not require freeing, and
 * programs often leave it to the end of the process), as errors, or not at
 * all. */
typedef enum sg_leaks {
    SG_LEAKS_WARN,
    SG_LEAKS_ERROR,
    SG_LEAKS_OFF,
} sg_leaks;

/* Reads --leaks: "error", "warn" or "off" ("ignore" too, as --divergence
 * spells it).  False for anything else. */
bool sg_leaks_parse(const char *text, sg_leaks *out);

typedef enum sg_severity {
    SG_SEV_ERROR,   /* makes the verdict "error" and the exit status 1 */
    SG_SEV_WARNING, /* reported; the verdict and the exit status stay as they are */
    SG_SEV_NONE,    /* not reported */
} sg_severity;

/* The severity of a finding of `kind`: advisory kinds are warnings, leaks as
 * `leaks` says; everything else is an error. */
sg_severity sg_severity_of(sim_finding_kind kind, sg_leaks leaks);

/* The findings of one run (sim_finding *: `run`, `replay`, `predict`), as
 * they are to be reported: drops the ones not reported (keeping the order
 * of the others) and sets `warning` on the warnings. */
void sg_findings_classify(GPtrArray *findings, sg_leaks leaks);

typedef struct sg_verdict {
    /* The errors to report (sg_finding *, the result's): a finding of the
     * unbuffered pass is left out when the buffered pass found the same kind
     * at the same place. */
    GPtrArray *errors;
    GPtrArray *warnings; /* the same for warnings */
    int race_pass;       /* the first pass whose outcomes differ; -1: none, or ignored */
    bool race_is_error;  /* --divergence=error */
    bool every;          /* every ordering was explored: the exhaustive strategy, or a
                            bounded one whose bound never left an alternative out */
    int nerrors;         /* errors, plus the race when it is an error */
    int nwarnings;       /* warnings, without the race */
    const char *word;    /* "error", "incomplete" or "ok" */
    int status;          /* exit status: 1 an error was found, 2 incomplete, else 0 */
} sg_verdict;

/* The verdict of res, explored with o. */
void sg_verdict_of(const sg_explore_opts *o, const sg_explore_result *res, sg_divergence divergence,
                   sg_leaks leaks, sg_verdict *v);
void sg_verdict_clear(sg_verdict *v);

/* What to add to a finding of `pass` (0 buffered, 1 unbuffered standard
 * sends) when both were explored: " (only when MPI_Send is not buffered)"
 * for the unbuffered pass, unless the message says so already. */
const char *sg_buffering_note(const sg_explore_opts *o, int pass, const char *message);

#endif
