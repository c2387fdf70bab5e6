/*
 * json.h - the one JSON escaper of the command line (reports, predictions,
 * Chrome traces): names and messages come from user programs, so every
 * byte must come out as valid JSON.
 */
#ifndef ORDEX_OUT_JSON_H
#define ORDEX_OUT_JSON_H

#include <glib.h>

/* Appends text, any NUL-terminated byte string, as a JSON string literal
 * (RFC 8259), quotes included.  Valid UTF-8 passes through unchanged except
 * for '"' and '\\', which are escaped, and the control characters U+0001 to
 * U+001F, written as \b, \f, \n, \r, \t or \u00XX.  Each byte that is not
 * part of valid UTF-8 (a stray continuation byte, a truncated or overlong
 * sequence, a surrogate, a code point past U+10FFFF) becomes one U+FFFD.
 * NULL is written as "".  Every string of JSON that ordex writes goes
 * through here. */
void out_json_string(GString *s, const char *text);

#endif
