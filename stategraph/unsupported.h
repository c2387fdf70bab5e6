/*
 * unsupported.h - the MPI functions a program calls that ordex does not
 * implement, with where it calls them: the reason to refuse the program,
 * for the report and the JSON file.
 */
#ifndef ORDEX_SG_UNSUPPORTED_H
#define ORDEX_SG_UNSUPPORTED_H

#include <glib.h>

typedef struct sg_unsupported {
    char *function;   /* "MPI_Win_create" */
    char **locations; /* "file.c:line" of each call, in code order, without
                       * repeats; NULL-terminated, empty when none is known */
} sg_unsupported;

/* The MPI functions that the program `so` (a shared object from ordexcc)
 * needs and ordex does not define (sg_unsupported *, freed with the array),
 * the one called first in the program's code first; an empty array when it
 * needs none.  NULL with *err (g_free) when the file cannot be examined. */
GPtrArray *sg_program_unsupported(const char *so, char **err);

/* The one-line reason for refusing the program (g_free): "the program
 * calls MPI_Win_create at prog.c:12, which ordex does not implement" and
 * the others it calls.  unsupported is not empty. */
char *sg_unsupported_message(GPtrArray *unsupported);

#endif
