/*
 * ordex.h - calls a program may make to ordex (include it with ordexcc;
 * outside ordex, build with -DORDEX_DISABLE to turn the calls into no-ops).
 */
#ifndef ORDEX_H
#define ORDEX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ORDEX_DISABLE
/* Registers size bytes at ptr as an outcome of this rank: their value when
 * the rank ends is compared across message orderings by `ordex explore`, and
 * a difference is reported as a message race (like a difference in output). */
void ordex_observe(const char *name, const void *ptr, size_t size);

/* Advances this rank's simulated clock by `seconds` of computation
 * (MPI_Wtime and predicted times include it).  With `ordex predict`, use it
 * in place of a computation whose duration is known (partial direct
 * execution); the time then shares the node's cores like measured work. */
void ordex_compute(double seconds);

/* Sampling a costly loop body under `ordex predict`:
 *
 *     for (int step = 0; step < 1000; step++)
 *         ORDEX_SAMPLE(10) { expensive(step); }
 *
 * The body runs (and its CPU time is measured) the first n times this rank
 * reaches this place; after that it is skipped and the average of those
 * runs is charged as computation instead, as by ordex_compute.  Under
 * `ordex run` and `ordex explore`, and without ordex, the body always runs.
 * The body must not call MPI, and its results must not be needed once it
 * is skipped.  One statement: it goes wherever a for loop goes. */
typedef struct ordex_sample_state_ {
    void *site;
    int phase;
    double start;
} ordex_sample_state_;
ordex_sample_state_ ordex_sample_begin_(const char *file, int line, long n);
int ordex_sample_next_(ordex_sample_state_ *state);
#define ORDEX_SAMPLE(n)                                                                            \
    for (ordex_sample_state_ ordex_sample_ = ordex_sample_begin_(__FILE__, __LINE__, (n));         \
         ordex_sample_next_(&ordex_sample_);)

/* Memory for data that only feeds computations the program skips under
 * prediction (ORDEX_SAMPLE, ordex_compute): it costs address space but
 * almost no memory, because every page aliases one small shared block, so
 * its contents are meaningless (reads see whatever any rank wrote last).
 * NULL when it cannot be had.  Release it with ordex_fake_free. */
void *ordex_fake_alloc(size_t size);
void ordex_fake_free(void *ptr);
#else
#include <stdlib.h>
#define ordex_observe(name, ptr, size) ((void)0)
#define ordex_compute(seconds) ((void)0)
#define ORDEX_SAMPLE(n) for (int ordex_once_ = 1; ordex_once_; ordex_once_ = 0)
#define ordex_fake_alloc(size) malloc(size)
#define ordex_fake_free(ptr) free(ptr)
#endif

#ifdef __cplusplus
}
#endif

#endif
