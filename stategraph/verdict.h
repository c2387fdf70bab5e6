/*
 * verdict.h - what an exploration's result means for the user: which
 * findings are errors to report, whether the outcome depends on the
 * ordering (a message race), whether every ordering was explored, and the
 * exit status.
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

typedef struct sg_verdict {
    /* The findings to report (sg_finding *, the result's): a finding of the
     * unbuffered pass is left out when the buffered pass found the same kind
     * at the same place. */
    GPtrArray *errors;
    int race_pass;      /* the first pass whose outcomes differ; -1: none, or ignored */
    bool race_is_error; /* --divergence=error */
    bool every;         /* every ordering was explored: the exhaustive strategy, or a
                           bounded one whose bound never left an alternative out */
    int nerrors;        /* errors, plus the race when it is an error */
    const char *word;   /* "error", "incomplete" or "ok" */
    int status;         /* exit status: 1 an error was found, 2 incomplete, else 0 */
} sg_verdict;

/* The verdict of res, explored with o. */
void sg_verdict_of(const sg_explore_opts *o, const sg_explore_result *res, sg_divergence divergence,
                   sg_verdict *v);
void sg_verdict_clear(sg_verdict *v);

/* What to add to a finding of `pass` (0 buffered, 1 unbuffered standard
 * sends) when both were explored: " (only when MPI_Send is not buffered)"
 * for the unbuffered pass, unless the message says so already. */
const char *sg_buffering_note(const sg_explore_opts *o, int pass, const char *message);

#endif
