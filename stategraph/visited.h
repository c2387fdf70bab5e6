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

/* The same, in a memory file (*fd, close-on-exec) that another process
 * may map with sg_visited_attach: a distributed exploration's agent
 * answers other ranks' visits from it while this rank explores. */
bool sg_visited_create_fd(size_t capacity, int *fd);
/* Uses the table in fd (made by sg_visited_create_fd) from now on, instead
 * of the one used before (unmapped); false when fd holds no such table. */
bool sg_visited_attach(int fd);

/* One visit of a state: true (inserting nothing) when one of the probes is
 * in the set or the first insert is; otherwise inserts all the inserts and
 * returns false.  *full is set when an insert found the table full; *which
 * (when not NULL) is the index of the key found, probes first then inserts,
 * or -1. */
bool sg_visited_visit(const ckpt_hash *probes, int nprobes, const ckpt_hash *inserts, int ninserts,
                      bool *full, int *which);

/* Inserts h; returns true when it was already there.  *full is set when the
 * table cannot take more states (h is then not inserted). */
bool sg_visited_check_insert(ckpt_hash h, bool *full);

/* True when h is in the set (nothing inserted). */
bool sg_visited_contains(ckpt_hash h);

size_t sg_visited_count(void);

/* The size of the table now: what it keeps in memory. */
size_t sg_visited_table_bytes(void);

#endif
