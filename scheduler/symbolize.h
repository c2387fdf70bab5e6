/*
 * symbolize.h - code addresses to "file.c:line" for reports.
 *
 * The program's debug information is read in process (libdw), once per
 * program file, and every answer is cached per address of that file, so
 * that the copies of the program that different ranks run (loaded at
 * different addresses) share answers.  No other process is started, and the
 * functions may be called from rank code with a small stack (they switch to
 * a stack of their own) and while in-process snapshots are live (they map no
 * memory and keep no file descriptor open).
 */
#ifndef ORDEX_SCHED_SYMBOLIZE_H
#define ORDEX_SCHED_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Describes a code address: for the program's code "func (/dir/file.c:line)"
 * (the innermost function, an inlined one included, and the source path as
 * the debug information names it), "func (prog.so+0xOFFSET)" when the
 * program has no line for it, otherwise "func (library)" or the raw
 * address.  `is_return`: addr is a return address (look up the call
 * instruction before it).  The string is owned by a cache and lives until
 * sched_symbolize_reset. */
const char *sched_symbolize(const void *addr, bool is_return);

/* Only the "file.c:line" of a program address (the file's base name), or
 * NULL when unknown.  Same lifetime as sched_symbolize's strings. */
const char *sched_symbolize_line(const void *addr, bool is_return);

/* "file.c:line" of an offset (file address) into the program file so_path
 * (a return address when is_return), or NULL.  Works without the program
 * loaded. */
const char *sched_symbolize_offset(const char *so_path, uintptr_t offset, bool is_return);

/* The variable of the program (or of one of its own libraries) whose
 * bytes hold addr, from the file's symbol table (statics included): its
 * name (g_free), first address in that copy and size.  False when addr is
 * not in such a variable. */
bool sched_symbolize_data(const void *addr, char **name, uintptr_t *start, size_t *size);

/* True when addr is inside some rank's copy of the program, or of one of
 * the program's own (non-system) libraries: the user's code. */
bool sched_is_program_code(const void *addr);

/* Runs fn(arg) on a stack of the module's own (512 KiB), for work on debug
 * information that a rank's stack may be too small for: libdw takes large
 * frames.  Nested calls run on the side stack they are already on.  Not
 * reentrant from another OS thread. */
void sched_on_side_stack(void (*fn)(void *), void *arg);

/* Forgets every cached answer and the debug information read, so that a
 * program file rewritten since is read again; invalidates the strings
 * returned so far. */
void sched_symbolize_reset(void);

#endif
