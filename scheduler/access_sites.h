/*
 * access_sites.h - the program's calls of the load and store hooks, off
 * until memory is tracked.
 *
 * A call per load and store costs a few nanoseconds even when the hook
 * returns at once, several times the access itself in a tight loop, and most
 * programs never have memory tracked (no one-sided communication).  So
 * ordexcc disarms, in the program file it links, every call of a hook that
 * only looks at an address (__tsan_read4, __tsan_write_range, ...; never
 * the atomics, which perform the operation, nor memcpy and the like): the
 * 6-byte instruction `call *slot(%rip)` (ff 15 + 32-bit displacement)
 * becomes `nop; test $imm32, %eax` (90 a9 + the same 32 bits), which only
 * changes the flags, as a call may.  Arming a call writes ff 15 back.
 * Programs are linked with --emit-relocs, whose relocations name each call
 * exactly (no guess from byte patterns).
 *
 * Every rank's copy starts with its calls disarmed, sharing the file's code
 * pages; the first mark of tracked memory arms them in every copy, for the
 * rest of the run (never disarmed again: a snapshot restored to a time
 * before the first mark keeps them armed, which is only slower).
 */
#ifndef ORDEX_SCHED_ACCESS_SITES_H
#define ORDEX_SCHED_ACCESS_SITES_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The calls of the address-only hooks in an ELF file's bytes, as virtual
 * addresses of the call instructions (uint64_t) appended to `vaddrs` when
 * not NULL, with whether each is disarmed now (gboolean) appended to
 * `disarmed` when not NULL.  Returns false when the file holds no
 * relocations of them (stripped, or not linked by ordexcc with the
 * instrumentation) or is malformed; true otherwise, also with no call. */
bool sched_access_sites(const char *bytes, size_t len, GArray *vaddrs, GArray *disarmed);

/* Disarms every armed call in the program file at path (ordexcc, after the
 * link).  A file that defines no main (a library the user links) is left
 * armed: only the program's copies are armed at run time.  Returns the
 * number of calls disarmed, or -1 with *err (g_free) set to one line. */
int sched_access_disarm_file(const char *path, char **err);

/* Arms the calls at `vaddrs` (from sched_access_sites) in the copy loaded
 * at load bias `base`.  False (errno set) when a page's protection cannot
 * be changed. */
bool sched_access_arm_copy(uintptr_t base, const GArray *vaddrs);

/* Arms every rank's copy of the program that sched_init loaded, once per
 * sched_init (later calls return at once; without ranks it does nothing).
 * Defined in sched.c. */
void sched_access_arm_ranks(void);

/* False when arming a copy failed since sched_init (its calls stay off). */
bool sched_access_arm_ok(void);

#endif
