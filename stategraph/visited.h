/*
 * visited.h - the set of visited states, shared by every process of an
 * exploration (snapshots are forked processes, so ordinary memory would not
 * be seen by the others).
 */
#ifndef ORDEX_SG_VISITED_H
#define ORDEX_SG_VISITED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checkpoint/hash.h"

/* Maps a shared table for up to `capacity` states (its slots rounded up to
 * a power of two; a table is never fuller than 3/4).  The table starts
 * small and grows as states come.  Must precede any fork. */
bool sg_visited_create(size_t capacity);
void sg_visited_destroy(void);

/* Inserts h; returns true when it was already there.  *full is set when the
 * table cannot take more states (h is then not inserted). */
bool sg_visited_check_insert(ckpt_hash h, bool *full);

/* True when h is in the set (nothing inserted). */
bool sg_visited_contains(ckpt_hash h);

size_t sg_visited_count(void);

/* The size of the table now: what it keeps in memory. */
size_t sg_visited_table_bytes(void);

#endif
