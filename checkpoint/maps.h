/*
 * maps.h - the process's memory mappings, as /proc/self/maps lists them.
 */
#ifndef ORDEX_CKPT_MAPS_H
#define ORDEX_CKPT_MAPS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ckpt_mapping {
    uintptr_t start, end;
    bool read, write, exec;
    bool private_;    /* copy-on-write ('p'), not shared ('s') */
    bool file;        /* backed by a file (its inode is not 0) */
    const char *name; /* the path, "[heap]", "[stack]", ... or "" */
} ckpt_mapping;

/* Calls fn for every mapping, in address order, until it returns false.
 * The mapping is valid during the call.  Allocates (reads the whole list
 * first), so it must not run where allocation is not allowed.  False when
 * the list cannot be read. */
bool ckpt_maps_each(bool (*fn)(const ckpt_mapping *m, void *user), void *user);

#endif
