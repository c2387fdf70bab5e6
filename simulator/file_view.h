/*
 * file_view.h - MPI-IO file views (MPI 3.1 section 13.3): which bytes of
 * the file a process's data stream lands on.  Pure: built from the
 * datatype module only, unit-tested in tests/file/.
 *
 * A view is a displacement, an etype and a filetype.  The process sees
 * the file from `disp` on as the filetype tiled again and again (each
 * copy `extent` bytes after the one before); only the filetype's data
 * bytes are its, in type-map order, and they form its data stream.
 * Offsets and file pointers count etypes of that stream.  Here the
 * stream is counted in bytes: stream byte k lies in copy k / tsize of the
 * filetype, at data byte k % tsize of that copy.
 */
#ifndef ORDEX_SIM_FILE_VIEW_H
#define ORDEX_SIM_FILE_VIEW_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "simulator/datatype.h"

/* One stretch of data bytes of the filetype: `len` bytes at byte `off` of
 * a copy, after `before` data bytes of that copy. */
typedef struct sim_fview_block {
    MPI_Aint off;
    size_t len;
    size_t before;
} sim_fview_block;

typedef struct sim_fview {
    MPI_Offset disp;
    size_t esize;    /* bytes of one etype */
    size_t tsize;    /* data bytes of one filetype copy (a multiple of esize) */
    MPI_Aint extent; /* bytes from one copy to the next */
    size_t nblocks;
    sim_fview_block *blocks; /* g_new; adjacent stretches merged */
} sim_fview;

/* The view every file starts with: disp 0, etype and filetype MPI_BYTE. */
void sim_fview_default(sim_fview *v);

/* Builds the view of (disp, etype, filetype) into *v (cleared first).
 * Returns MPI_SUCCESS, or an error class with *why (g_free) when MPI 3.1
 * 13.3 forbids it: an etype or filetype of no data, a filetype whose data
 * is not a whole number of etypes, type-map displacements that are
 * negative or decrease, a displacement that is negative (other than
 * MPI_DISPLACEMENT_CURRENT, which the caller resolves). */
int sim_fview_make(sim_fview *v, MPI_Offset disp, const sim_datatype *etype,
                   const sim_datatype *filetype, char **why);

/* Frees what *v holds (it may be made again). */
void sim_fview_clear(sim_fview *v);

/* A copy of src into *dst (cleared first). */
void sim_fview_copy(sim_fview *dst, const sim_fview *src);

/* The file byte that stream byte k lies on (MPI_File_get_byte_offset: k
 * is an etype offset times esize). */
MPI_Offset sim_fview_byte(const sim_fview *v, MPI_Offset k);

/* Calls fn for each run of file bytes that stream bytes [k, k + n) lie
 * on, in stream order, runs contiguous in the file merged: file_off, len,
 * and where the run starts in those n bytes.  Stops when fn returns false
 * and returns false then. */
typedef bool (*sim_fview_fn)(MPI_Offset file_off, size_t len, size_t pos, void *user);
bool sim_fview_each_run(const sim_fview *v, MPI_Offset k, size_t n, sim_fview_fn fn, void *user);

#endif
