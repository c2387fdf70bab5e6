/*
 * rankio.h - per-rank stdout and stderr.
 *
 * Each rank writes to its own FILE streams (swapped into stdout/stderr while
 * it runs).  Complete lines are forwarded at once, in the order ranks
 * produce them, optionally tagged "[rank] " like mpiexec -prepend-rank.
 */
#ifndef ORDEX_SCHED_RANKIO_H
#define ORDEX_SCHED_RANKIO_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct rankio_stream {
    FILE *out, *err;
    GString *pending_out, *pending_err; /* partial last lines */
    int rank;
    guint64 bytes_out; /* everything the rank wrote to stdout */
    guint32 hash_out;  /* running hash of that output */
} rankio_stream;

void rankio_init(FILE *out, FILE *err, bool tag);
void rankio_open(rankio_stream *s, int rank);
/* Stops (or resumes) forwarding output; hashes are kept either way. */
void rankio_discard(bool discard);

/* Flushes the streams and forwards partial lines. */
void rankio_flush(rankio_stream *s);
void rankio_close(rankio_stream *s);

#endif
