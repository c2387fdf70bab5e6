/*
 * access_hook.h - the program's plain loads and stores, seen by ordex.
 *
 * ordexcc compiles programs with GCC's -fsanitize=thread instrumentation
 * (without linking its run-time library): every load and store of the
 * program that may touch memory shared beyond one function calls one of the
 * __tsan_* functions that the ordex executable defines (access.c), and its
 * memcpy, memmove and memset calls (and their _chk forms) reach ordex's
 * wrappers.  Atomic operations go through ordex too, which performs them.
 *
 * Most memory is never of interest, so the answer for an address that is
 * not tracked must be quick: a two-level table with one byte per 4 KiB page
 * of the 47-bit address space, allocated per GiB of address space that holds
 * tracked memory, answers in two or three loads (one while nothing is
 * tracked).  Only accesses to pages with tracked bytes look at the exact
 * list of tracked ranges; only accesses that overlap tracked bytes reach the
 * callback.  Until the first mark, the program's calls of the hooks that
 * only look at an address are not even made (access_sites.h).
 *
 * Everything lives in ordex's own globals and heap, which both kinds of
 * snapshot cover: restoring a snapshot restores the marks made before it and
 * forgets those made after.
 */
#ifndef ORDEX_SCHED_ACCESS_HOOK_H
#define ORDEX_SCHED_ACCESS_HOOK_H

#include <stdbool.h>
#include <stddef.h>

/* A plain load or store of the program that touches tracked memory (an
 * atomic load counts as a read; an atomic store, read-modify-write or
 * compare-exchange, whether it stores or not, as a write; memcpy and
 * memmove as a read of the source and a write of the destination, memset as
 * a write).
 *   rank: the running rank (sched_current()).
 *   addr, size: the tracked part of the access: an access that overlaps
 *   tracked bytes and untracked ones is reported once per run of contiguous
 *   tracked bytes it covers, with that run's address and length.
 *   pc: an address inside the call instruction that the compiler put at the
 *   access (or the program's call of memcpy, ...), in the rank's copy of the
 *   program: sched_symbolize_line(pc, false) names the access's file:line,
 *   and so does sched_symbolize_line(pc, true), as for the return address
 *   that SIM_ENTER records (the instruction is longer than one byte).
 * Called only while the program's code runs as the rank (not from its
 * constructors at load, not while ordex runs its code on the rank's behalf,
 * such as a user-defined reduction inside an MPI call, and not in a process
 * the rank forked), with ordex's heap in place (as in an MPI call:
 * sched_enter_sim), on the rank's stack, before the access is made.  errno
 * is kept for the program.  The callback may mark and unmark. */
typedef void (*sched_access_fn)(int rank, void *addr, size_t size, bool is_write, void *pc,
                                void *user);

/* Installs the callback (NULL: none; accesses then cost only the check that
 * their page is tracked). */
void sched_access_set_hook(sched_access_fn fn, void *user);

/* Marks [addr, addr+len) as tracked.  Counted per byte: bytes marked k times
 * need k unmarks.  len 0 does nothing; bytes at or past 2^47 (beyond the
 * user address space) are never tracked.  Allocates from ordex's heap
 * whatever heap is current.  The first mark after sched_init arms the hooks'
 * calls in every rank's copy of the program (access_sites.h). */
void sched_access_mark(const void *addr, size_t len);

/* While `ignored` (false at start), marks and unmarks do nothing: nothing
 * is tracked and the program's calls of the hooks stay disarmed, so its
 * loads and stores cost what they cost uninstrumented.  `ordex predict`
 * sets it: it measures the program's computation, which the checks of
 * plain accesses would slow down.  Set it before anything is marked. */
void sched_access_set_ignored(bool ignored);

/* Undoes one mark of every byte of [addr, addr+len); bytes that are not
 * tracked are left alone (their count stays 0). */
void sched_access_unmark(const void *addr, size_t len);

/* Whether the program that sched_init loaded was built with the
 * instrumentation (ordexcc without --no-access-checks); false before any was
 * loaded.  When it was not, plain loads and stores are not seen: the caller
 * can say "rebuild with ordexcc". */
bool sched_access_instrumented(void);

/* Whether any byte of [addr, addr+len) is tracked, as the hooks decide it
 * (the page table first, then the exact ranges). */
bool sched_access_tracked(const void *addr, size_t len);

/* Forgets every mark (sched_init calls it: a new run tracks nothing).  The
 * callback stays. */
void sched_access_reset(void);

#endif
