/*
 * timeline_internal.h - what the timeline writers share: buffered output to
 * a file with error reporting, escaping for JSON and XML, and
 * locale-independent number formatting.
 */
#ifndef ORDEX_OUT_TIMELINE_INTERNAL_H
#define ORDEX_OUT_TIMELINE_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

/* Output is built in `buf` and written out in large pieces, so a trace of
 * hundreds of thousands of events never sits in memory at once. */
typedef struct out_tl_sink {
    FILE *file;
    GString *buf;
    char *path;
    bool regular; /* a regular file, which may be removed if writing fails */
    int error;    /* the first errno of a failed write, 0 if none */
} out_tl_sink;

bool out_tl_sink_open(out_tl_sink *s, const char *path, GError **error);
/* Writes the buffer out once it is large; call after appending. */
void out_tl_sink_maybe_flush(out_tl_sink *s);
/* Writes the rest and closes; on any failure since opening, reports it and
 * removes the file if it is a regular one (never a device or pipe such as
 * /dev/stdout).  The sink is finished either way. */
bool out_tl_sink_close(out_tl_sink *s, GError **error);

/* text escaped for XML content or a quoted attribute value.  Invalid UTF-8
 * and characters XML 1.0 does not allow become U+FFFD. */
void out_tl_append_xml(GString *s, const char *text);
/* v with at most `decimals` digits after the point, trailing zeros removed
 * ("12.5", "100", never "-0"). */
void out_tl_append_fixed(GString *s, double v, int decimals);

/* Number of UTF-8 characters in text (for estimating label widths). */
long out_tl_utf8_chars(const char *text);

#endif
