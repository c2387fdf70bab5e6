/*
 * json.h - the one JSON writer of ordex (run, explore, replay and predict
 * reports) and its string escaper: names and messages come from user
 * programs, so every byte must come out as valid JSON.
 *
 * A writer appends to a GString.  Every value call names its key, which is
 * used inside objects and must be NULL inside arrays and for the top-level
 * value.  Containers opened within the first `pretty` levels put each member
 * on a line of its own, indented two spaces a level; deeper ones stay on one
 * line ("{"rank": 0, "node": 1}").  The writer checks nothing: the calls
 * must nest.
 */
#ifndef ORDEX_OUT_JSON_H
#define ORDEX_OUT_JSON_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Appends text, any NUL-terminated byte string, as a JSON string literal
 * (RFC 8259), quotes included.  Valid UTF-8 passes through unchanged except
 * for '"' and '\\', which are escaped, and the control characters U+0001 to
 * U+001F, written as \b, \f, \n, \r, \t or \u00XX.  Each byte that is not
 * part of valid UTF-8 (a stray continuation byte, a truncated or overlong
 * sequence, a surrogate, a code point past U+10FFFF) becomes one U+FFFD.
 * NULL is written as "".  Every string of JSON that ordex writes goes
 * through here. */
void out_json_string(GString *s, const char *text);

enum { OUT_JSON_MAX_DEPTH = 16 };

typedef struct out_json {
    GString *s;
    int depth;
    int pretty;
    bool has_member[OUT_JSON_MAX_DEPTH]; /* per open container */
    char closer[OUT_JSON_MAX_DEPTH];     /* '}' or ']' */
} out_json;

/* Starts a document in s (appended to) with `pretty` levels laid out. */
void out_json_init(out_json *w, GString *s, int pretty);

void out_json_object(out_json *w, const char *key);
void out_json_array(out_json *w, const char *key);
void out_json_end(out_json *w); /* closes the innermost object or array */

/* A string; NULL is written as null. */
void out_json_str(out_json *w, const char *key, const char *v);
/* A number with 9 significant digits; NaN and infinities as null. */
void out_json_num(out_json *w, const char *key, double v);
void out_json_int(out_json *w, const char *key, int64_t v);
void out_json_uint(out_json *w, const char *key, uint64_t v);
void out_json_bool(out_json *w, const char *key, bool v);
void out_json_null(out_json *w, const char *key);
/* An array of ints, on one line. */
void out_json_ints(out_json *w, const char *key, const int *v, int n);

/* Writes s (a finished document, a newline added) to path.  False with
 * *err set (g_free) to one line naming the path and the problem. */
bool out_json_save(GString *s, const char *path, char **err);

#endif
