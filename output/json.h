/*
 * json.h - the one JSON escaper of the command line (reports, predictions,
 * Chrome traces): names and messages come from user programs, so every
 * byte must come out as valid JSON.
 */
#ifndef ORDEX_OUT_JSON_H
#define ORDEX_OUT_JSON_H

#include <glib.h>

/* Appends text as a JSON string literal, quotes included.  Invalid UTF-8
 * becomes U+FFFD; NULL is written as "". */
void out_json_string(GString *s, const char *text);

#endif
