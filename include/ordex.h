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
 * (MPI_Wtime and predicted times include it). */
void ordex_compute(double seconds);
#else
#define ordex_observe(name, ptr, size) ((void)0)
#define ordex_compute(seconds) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif
