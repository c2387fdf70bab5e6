/*
 * deadvars.h - stack bytes of a program's frame that hold no live variable.
 *
 * A block-scope variable's lifetime ends when execution leaves its block
 * (C11 6.2.4), but its bytes stay on the stack: the index a finished loop
 * last got from MPI_Waitany, say.  Hashing them would keep apart states
 * that differ only in such dead values.  This module reads the program's
 * DWARF and tells which stack bytes of the frame executing a given call
 * belong only to variables of blocks the call is not in.
 */
#ifndef ORDEX_SG_DEADVARS_H
#define ORDEX_SG_DEADVARS_H

#include <glib.h>
#include <stdint.h>

/* A byte range of a frame, relative to its canonical frame address. */
typedef struct sg_frame_range {
    int64_t off;
    uint64_t len;
} sg_frame_range;

/* The dead ranges (sg_frame_range, sorted, disjoint) of the frame whose
 * call instruction is at file address pc of the loaded program; NULL when pc
 * is not in the program's code, or the program has no DWARF.  Empty when the
 * function's variables cannot be located: then nothing is left out.  Only
 * variables at fixed offsets from the frame base are considered, and bytes
 * shared with a variable of a block containing pc never count as dead.  The
 * array belongs to the module (cached per pc). */
const GArray *sg_dead_frame_ranges(uintptr_t pc);

/* Opens the program's DWARF now rather than at the first call above (in-process
 * snapshots must see the file and its mappings already open). */
void sg_deadvars_open(void);

#endif
