/*
 * outcomes.h - the outcomes of the orderings an exploration runs to the end.
 *
 * Every exploration process reports each error-free ordering it finishes
 * here, in memory shared by all of them (they are forked copies).  What is
 * kept does not grow with the number of orderings: per pass, the set of
 * distinct outcomes, the ordering that finished last, and the best pair so
 * far: two orderings with different outcomes that share the longest prefix
 * of steps.
 *
 * Each ordering is compared with the one that finished just before it.
 * That finds the best pair of all orderings when they finish in depth-first
 * order, as they do with one exploration process at a time (every strategy
 * except random): if orderings i < k < j finish in that order, k lies in the
 * subtree where i and j part, so it shares at least their prefix with both,
 * and its outcome differs from i's or from j's.  With several processes at
 * once (--jobs) or random orderings the pair found has different outcomes,
 * but another pair may share a longer prefix.
 */
#ifndef ORDEX_SG_OUTCOMES_H
#define ORDEX_SG_OUTCOMES_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "checkpoint/hash.h"
#include "stategraph/explore.h"

/* Maps the shared memory for `passes` passes (1 or 2).  Must precede the
 * forks of the exploration. */
bool sg_outcomes_create(int passes);
void sg_outcomes_destroy(void);

/* Records an error-free ordering of `pass` that ended with `outcome`.  Any
 * exploration process may call it.  Returns false, recording nothing, when
 * the path has more steps than SG_OUTCOMES_MAX_STEPS. */
bool sg_outcomes_add(int pass, ckpt_hash outcome, const sg_step *steps, size_t n);

#define SG_OUTCOMES_MAX_STEPS ((size_t)1 << 20)

/* What `pass` produced (see sg_pass_outcomes), for the process that created
 * the memory once the exploration is over. */
void sg_outcomes_get(int pass, sg_pass_outcomes *out);
void sg_pass_outcomes_clear(sg_pass_outcomes *o);

/* What `pass` produced so far, as bytes another process's
 * sg_outcomes_import takes (a distributed exploration gathers its ranks'
 * outcomes so): the distinct outcomes, the last ordering and the pair. */
GByteArray *sg_outcomes_export(int pass);
/* Adds what another process exported: its outcomes to the set, its pair
 * where it shares a longer prefix, its last ordering as one that ended
 * here.  Bytes that do not parse are ignored. */
void sg_outcomes_import(int pass, const void *data, size_t len);

/* Number of leading steps two paths have in common. */
size_t sg_common_prefix(const sg_step *a, size_t na, const sg_step *b, size_t nb);

#endif
