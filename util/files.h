/*
 * files.h - reading the files a user names (traces, platform files, host
 * files, programs) without trusting what they are: a FIFO would block
 * forever and /dev/zero never ends, so only regular files are read, and
 * only up to a bound.
 *
 * util/ is the bottom of the layers: every package may include it, and it
 * includes nothing of ordex's.
 */
#ifndef ORDEX_UTIL_FILES_H
#define ORDEX_UTIL_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Opens path for reading when it is a regular file (without blocking on a
 * FIFO or a device while finding out).  Returns the descriptor, or -1 with
 * *why set (g_free) to a phrase: "no such file", "not a regular file (a
 * FIFO)", or the system's reason. */
int util_open_regular(const char *path, char **why);

/* Reads a whole regular file of at most max bytes into *text (g_free;
 * NUL-terminated, *len without the NUL).  False with *why set (g_free) to a
 * phrase: why it could not be opened, or "larger than N bytes". */
bool util_read_regular(const char *path, size_t max, char **text, size_t *len, char **why);

/* text as one printable line (g_free), for messages that echo what a user
 * wrote: valid UTF-8 stays as it is, except that control characters become
 * \n, \r, \t or \xNN; bytes that are not UTF-8 become \xNN. */
char *util_printable(const char *text);

#endif
