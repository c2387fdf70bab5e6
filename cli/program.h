/*
 * program.h - getting the user's program ready to run: compiling a .c file,
 * checking the system can map every rank, loading the ranks.
 */
#ifndef ORDEX_CLI_PROGRAM_H
#define ORDEX_CLI_PROGRAM_H

#include <stdbool.h>
#include <stdio.h>

/* The shared object to run for PROG (compiled and cached when it is a .c
 * file: for `ordex predict`, with -O2 and without the instrumentation of
 * loads and stores, which would slow the computation it measures;
 * otherwise without optimisation and with that instrumentation), checked to
 * exist and to fit nranks ranks in the process's memory mappings.  NULL
 * after printing the problem on stderr (exit status 2). */
char *ordex_program_prepare(const char *prog, int nranks, bool for_prediction);

/* Why so cannot be a program (g_free): "PATH: No such file or directory",
 * "PATH: not a regular file (a FIFO)", ...; NULL when it is a regular file.
 * Nothing else is read, so a FIFO or a device never blocks ordex. */
char *ordex_program_problem(const char *so);

#endif
