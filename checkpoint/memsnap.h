/*
 * memsnap.h - snapshots of the whole process kept inside the process.
 *
 * The fork-free checkpoint backend (--checkpoint=copy).  A snapshot is a
 * copy of every private writable mapping of the process, taken where it is
 * resident: the ranks' globals, heap arenas and stacks, and ordex's own
 * globals, heap and stack, the C library's data included.  Copying is done
 * on a stack of its own, so taking a snapshot captures the caller's stack
 * exactly as it stands, and restoring one resumes the caller of
 * ckpt_mem_take a second time, with everything as it was then.
 *
 * Snapshots form a stack, as a depth-first search needs: only the newest
 * can be restored, and restoring it removes it.  Restoring also puts back
 * the program break and closes the file descriptors opened since the
 * snapshot; ordex's exploration opens none, so those are the program's.
 *
 * What cannot be copied is kernel state: memory mapped or unmapped after
 * ckpt_mem_init (the process-wide mmap, munmap and mremap are counted, and
 * restoring across a change fails loudly instead of going on unsound),
 * other threads, file offsets and file contents, pending signals.  One OS
 * thread and fibers only.
 */
#ifndef ORDEX_CKPT_MEMSNAP_H
#define ORDEX_CKPT_MEMSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Why this build or process cannot use in-process snapshots (a sanitizer or
 * valgrind keeps memory of its own that a copy would tear), or NULL. */
const char *ckpt_mem_unavailable(void);

/* Prepares the C library's allocator (no mmap'd chunks, so that the heap is
 * the program break alone).  Call before the memory that snapshots cover
 * is set up: before the ranks are loaded. */
void ckpt_mem_prepare(void);

/* Reads the process's mappings: from now on snapshots cover every private
 * writable one (except the per-rank arenas' reserved range, of which the
 * used part of each arena counts).  Returns false with *err (g_free) set. */
bool ckpt_mem_init(char **err);

typedef enum ckpt_mem_result {
    CKPT_MEM_TAKEN,   /* the snapshot exists; go on from here */
    CKPT_MEM_RESUMED, /* ckpt_mem_restore brought the process back here */
    CKPT_MEM_FAILED,  /* no room for another snapshot, or memory laid out as
                         it cannot be copied: none was taken */
} ckpt_mem_result;

/* Takes a snapshot of the process as it is at this call. */
ckpt_mem_result ckpt_mem_take(void);

/* Puts the process back as it was when the newest snapshot was taken,
 * removes that snapshot, and returns from that ckpt_mem_take with
 * CKPT_MEM_RESUMED.  When the process's mappings changed in between, it
 * writes why it cannot on stderr (the process is torn: nothing else is safe)
 * and ends the process with status CKPT_MEM_EXIT_RESTORE_FAILED. */
_Noreturn void ckpt_mem_restore(void);

/* Why the newest snapshot cannot be restored (the program mapped, unmapped
 * or remapped memory since it was taken), or NULL when it can.  Asks before
 * ckpt_mem_restore, while the process is still whole, so that a caller can
 * go on some other way instead of ending the process. */
const char *ckpt_mem_cannot_restore(void);

/* The exit status of a process whose snapshot could not be restored. */
#define CKPT_MEM_EXIT_RESTORE_FAILED 4

/* In a child forked after ckpt_mem_init and before any snapshot: makes the
 * child's snapshots read its own pages (not its parent's).  A no-op when
 * snapshots are not set up. */
void ckpt_mem_forked(void);
/* Snapshots held now. */
int ckpt_mem_depth(void);

#endif
