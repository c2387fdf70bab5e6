/*
 * unsupported.h - the MPI functions a program needs that this process does
 * not define, and where the program calls them: what loading it would
 * refuse, found without loading it.
 */
#ifndef ORDEX_SCHED_UNSUPPORTED_H
#define ORDEX_SCHED_UNSUPPORTED_H

#include <glib.h>
#include <stdint.h>

/* One function the program needs and nothing here defines. */
typedef struct sched_missing_fn {
    char *name;       /* "MPI_Win_create" */
    uintptr_t *sites; /* file addresses of the instructions that call it (or
                       * load its address), ascending */
    int nsites;
} sched_missing_fn;

/* The functions named MPI_* or PMPI_* that the x86-64 shared object at
 * `path` leaves undefined (strong dynamic references) and that no object
 * loaded in this process defines (dlsym(RTLD_DEFAULT)).  Their sites are
 * found in the program's code: direct calls and jumps to their PLT entries,
 * and calls, jumps and loads through their GOT slots; a site's file address
 * goes to sched_symbolize_offset (not a return address).  The array
 * (sched_missing_fn *, freed with it) holds first the functions main calls
 * (the run starts there), in the code order of their first call in main,
 * then those only other functions call, in the code order of their first
 * site, then those without a site, by name; empty when nothing is missing.
 * NULL with *err (g_free) set when the file cannot be read as an ELF
 * shared object. */
GPtrArray *sched_missing_mpi_functions(const char *path, char **err);

#endif
