/*
 * debuginfo.h - the ELF and DWARF of the program and of its libraries,
 * read and parsed once per file and shared by every reader of debug
 * information: code addresses to lines (symbolize.h), memory objects and
 * unwinding (memobj.h), dead variables (stategraph/deadvars.h).
 *
 * A file is read into memory whole (no descriptor is kept and nothing is
 * mapped: in-process snapshots need neither) and handed to libelf and
 * libdw there; the loader reads the program's headers from the same bytes.  libdw parses lazily and
 * caches what it parsed in its handle, so one handle per file also means each compilation unit,
 * abbreviation table and line table is decoded once, whoever asks.
 *
 * Handles are counted references: the file is read on the first
 * reference and freed with the last.  Work on a handle that may be deep
 * (line tables, scopes) belongs on the side stack (symbolize.h).  Not
 * thread-safe: ordex reads debug information from its scheduling thread.
 */
#ifndef ORDEX_SCHED_DEBUGINFO_H
#define ORDEX_SCHED_DEBUGINFO_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stddef.h>

typedef struct sched_debuginfo {
    const char *path;
    const char *bytes; /* the whole file; NULL when it cannot be read */
    size_t len;
    const char *error; /* why it cannot be read, or NULL */
    Elf *elf;          /* NULL: the file is unreadable, or not ELF */
    Dwarf *dw;         /* NULL: no DWARF (or no ELF) */
} sched_debuginfo;

/* The file at path, parsed, with one more reference: never NULL (elf and
 * dw NULL when there is nothing to read).  path is copied. */
const sched_debuginfo *sched_debuginfo_ref(const char *path);

/* Gives a reference back; the last one frees the file and its handles
 * (pointers obtained from them die with it).  NULL: nothing. */
void sched_debuginfo_unref(const sched_debuginfo *d);

/* How many times a file was read and parsed since the process started:
 * with sharing, once per file for as long as someone holds it (tests and
 * the benchmark of bench/RESULTS.md count on it). */
unsigned sched_debuginfo_reads(void);

#endif
