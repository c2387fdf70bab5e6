/*
 * program.h - getting the user's program ready to run: compiling a .c file,
 * checking the system can map every rank, loading the ranks.
 */
#ifndef ORDEX_CLI_PROGRAM_H
#define ORDEX_CLI_PROGRAM_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/options.h"

/* The shared object to run for PROG (compiled and cached when it is a .c
 * file, with -O2 when `optimize`), checked to exist and to fit nranks ranks
 * in the process's memory mappings.  NULL after printing the problem on
 * stderr (exit status 2). */
char *ordex_program_prepare(const char *prog, int nranks, bool optimize);

/* Loads nranks copies of so with the options' sizes and the program's
 * arguments (argv[0] is the program).  Rank output goes to out and err.
 * False after printing the problem on stderr, naming prog rather than the
 * cached build; the scheduler is then finished already.  Also has the C
 * library keep freed memory for reuse (message payloads), for run and
 * predict, never explore. */
bool ordex_program_load(const ordex_opts *o, const char *so, const char *prog, int argc,
                        char **argv, FILE *out, FILE *err);

#endif
