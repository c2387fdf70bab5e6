/*
 * program.h - getting the user's program ready to run: compiling a .c file,
 * checking the system can map every rank, loading the ranks.
 */
#ifndef ORDEX_CLI_PROGRAM_H
#define ORDEX_CLI_PROGRAM_H

#include <stdbool.h>
#include <stdio.h>

/* The shared object to run for PROG (compiled and cached when it is a .c
 * file, with -O2 when `optimize`), checked to exist and to fit nranks ranks
 * in the process's memory mappings.  NULL after printing the problem on
 * stderr (exit status 2). */
char *ordex_program_prepare(const char *prog, int nranks, bool optimize);

/* Why so cannot be a program (g_free): "PATH: No such file or directory",
 * "PATH: not a regular file (a FIFO)", ...; NULL when it is a regular file.
 * Nothing else is read, so a FIFO or a device never blocks ordex. */
char *ordex_program_problem(const char *so);

/* Refuses a program that calls MPI functions ordex does not implement: says
 * so on stderr in one line (the first such function with where the program
 * calls it, and the others), writes the verdict "unsupported" with every
 * function and its call sites to json (when not NULL), and returns 2 (or 2
 * after naming an unwritable json).  0 when nothing is missing, or when the
 * file cannot be examined (loading it then says why).  `cmd` names the
 * command in messages ("ordex", "ordex predict"); `prog` is the program as
 * the user named it, `so` the file to load. */
int ordex_program_refuse_unsupported(const char *cmd, const char *prog, const char *so,
                                     const char *json);

#endif
