/*
 * calibrate_run.h - running the calibration benchmark (tools/calibrate/
 * mpibench.c) under a real MPI: compiling it, running it with a deadline, and
 * the token ring that measures the time slice.  The report it prints is
 * fitted by calibrate_fit.h.
 */
#ifndef ORDEX_PM_CALIBRATE_RUN_H
#define ORDEX_PM_CALIBRATE_RUN_H

#include <stdbool.h>

#include "perfmodel/calibrate_fit.h"

/* Runs argv with stdin from /dev/null, collecting stdout and stderr (g_free);
 * kills its whole process group (mpiexec and the ranks it started) after
 * `deadline` seconds.  Returns false when it cannot be started (*out holds
 * the reason); *status is the wait status, or -1 after the deadline. */
bool pm_run_collect(char **argv, int deadline, char **out, char **err, int *status);

/* Up to three non-empty lines of a program's stderr, on one line (g_free). */
char *pm_stderr_summary(const char *text);

/* Compiles the benchmark source with mpicc -O2 into dir; returns the
 * executable's path (g_free), or NULL with *why set (g_free). */
char *pm_bench_compile(const char *mpicc, const char *src, const char *dir, char **why);

/* Runs the benchmark's token ring on twice as many ranks as c->cores and
 * derives the time slice into *c.  A failure is not fatal: *c keeps the
 * default slice and *why (g_free) says why; NULL when it worked. */
void pm_calibrate_measure_timeslice(const char *mpiexec, const char *exe, bool quick,
                                    pm_calibration *c, char **why);

#endif
