/*
 * files.h - the files a program writes, put back for the snapshot that
 * forked the ordering which wrote them.
 *
 * A forked child shares its parent's open file descriptions: a file the
 * ranks hold open across an MPI call at which the search forks is written
 * by every ordering explored from there, at an offset they all move.  A
 * rank that reads back what it wrote (a log, a scratch file) would then see
 * other orderings' lines, and orderings would differ for no reason in the
 * program.  So before such a fork the snapshot notes, for every regular
 * file it holds open for writing, the offset and the size, and once the
 * child has ended it puts both back: what the child's orderings appended
 * is cut off, and the snapshot writes on where it was.
 *
 * In-process snapshots (--checkpoint=copy) do the same: their restore puts
 * memory back, not the kernel's offsets.  A file closed on a later path
 * stays closed for them, though the restored memory has it open: the
 * search then stops and says so, rather than explore orderings that fail
 * to write or read it.
 *
 * Files of at most 1 MiB open for reading and writing (MPI-IO files among
 * them) have their contents noted as well and written back, so bytes a
 * child overwrote in place are undone too.
 *
 * Not undone: bytes a child overwrote before the noted end of a larger or
 * write-only file (it seeked back, or opened the file again with O_TRUNC),
 * files it created,
 * removed or renamed, and (in-process snapshots) descriptors it closed.
 * Children that run while their parent goes on (--jobs above 1) write at
 * the same time as it, and nothing is put back.
 */
#ifndef ORDEX_CKPT_FILES_H
#define ORDEX_CKPT_FILES_H

#include <glib.h>
#include <stdbool.h>

/* Notes the offset and size of every regular file open for writing (not
 * ordex's own: files without a name, such as its memfds, are left out).
 * Returns NULL when there is none; free with ckpt_files_free. */
GArray *ckpt_files_note(void);

/* Puts the noted offsets and sizes back.  False when a noted descriptor
 * no longer stands for its file (closed since, which only an in-process
 * snapshot can see: its memory says the file is open, the kernel that it
 * is not). */
bool ckpt_files_put_back(const GArray *noted);

void ckpt_files_free(GArray *noted);

#endif
