/*
 * symbolize.h - code addresses to "file.c:line" for reports.
 */
#ifndef ORDEX_SCHED_SYMBOLIZE_H
#define ORDEX_SCHED_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>

/* Describes a code address: for the program's code "func (file.c:line)",
 * otherwise "func (library)" or the raw address.  `is_return`: addr is a
 * return address (look up the call instruction before it).  The string is
 * owned by a cache and lives until sched_symbolize_reset. */
const char *sched_symbolize(const void *addr, bool is_return);

/* Only the "file.c:line" of a program address, or NULL when unknown. */
const char *sched_symbolize_line(const void *addr, bool is_return);

/* "file.c:line" of an offset into the program file so_path (a return
 * address when is_return), or NULL.  Works without the program loaded. */
const char *sched_symbolize_offset(const char *so_path, uintptr_t offset, bool is_return);

/* True when addr is inside some rank's copy of the program. */
bool sched_is_program_code(const void *addr);

void sched_symbolize_reset(void);

#endif
