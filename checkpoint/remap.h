/*
 * remap.h - private mappings made anew, so that a fork costs the same at
 * any depth of a chain of forks.
 *
 * Every fork gives each private mapping of the child a link to the record
 * of anonymous memory (the kernel's anon_vma) of each process it descends
 * from; the fork, and the exit that ends the child, walk all of them.  The
 * fork checkpoints keep their snapshots as a chain of parents waiting for
 * their children, tens deep, and the cost shows: a fork and exit of a
 * process of 36 such mappings took 250 us at depth 0, 785 us at depth 20
 * and 1.56 ms at depth 40 on the machine of bench/RESULTS.md.
 *
 * A mapping made anew, holding the same bytes at the same address with
 * the same protection, has no such links.  So before a fork, a process
 * that descends from CKPT_REMAP_AFTER_FORKS forks or more since its
 * mappings were last made anew makes them anew: each private mapping that
 * holds anonymous pages is copied into a new anonymous mapping, which then
 * replaces it (mremap).  Pages that were shared copy-on-write with the
 * parents become the process's own.  The copying runs on a stack of its
 * own with signals blocked, so that nothing writes a mapping between its
 * copy and its replacement.
 *
 * Left as they are: the main thread's stack (it grows down), the kernel's
 * special mappings, shared mappings (shared by design), and file-backed
 * mappings larger than a few MiB (all their pages would have to be copied,
 * to keep the pages never read from the file).  Nothing is made anew when
 * there is more than 16 MiB to copy: for large programs the copies would
 * cost more than they save.  A mapping that cannot be made anew (no
 * memory) stays as it was: that is never wrong, only slower.
 */
#ifndef ORDEX_CKPT_REMAP_H
#define ORDEX_CKPT_REMAP_H

#include <stdbool.h>

/* Every 16 forks: at 6, the copies cost LU at 4 ranks (searches 8 to 14
 * deep) more than they saved; at 16, LU at 8 ranks and the 8-rank
 * neighbourhood exchange (up to 45 deep) run 12 to 20% faster, LU at 4
 * ranks about 3% slower (bench/RESULTS.md). */
#define CKPT_REMAP_AFTER_FORKS 16

/* Prepares for making mappings anew in this process and the processes it
 * forks.  Does nothing, and the calls below do nothing, where it cannot be
 * done: under a sanitizer or valgrind (their own memory would not follow),
 * with thread contexts, or on a kernel without the PAGEMAP_SCAN ioctl. */
void ckpt_remap_init(void);

/* Call right before a fork: makes the mappings anew when due. */
void ckpt_remap_before_fork(void);

/* Call in the child of that fork. */
void ckpt_remap_forked(void);

/* Makes this process's private mappings anew now; returns how many were
 * (0 when ckpt_remap_init could not set up). */
int ckpt_remap_now(void);

#endif
