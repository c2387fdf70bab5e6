/*
 * json.c - JSON string literals for the JSON that ordex writes.
 */
#include "output/json.h"

void out_json_string(GString *s, const char *text) {
    char *valid = g_utf8_make_valid(text ? text : "", -1);
    g_string_append_c(s, '"');
    for (const unsigned char *p = (const unsigned char *)valid; *p; p++) {
        switch (*p) {
        case '"':
            g_string_append(s, "\\\"");
            break;
        case '\\':
            g_string_append(s, "\\\\");
            break;
        case '\b':
            g_string_append(s, "\\b");
            break;
        case '\f':
            g_string_append(s, "\\f");
            break;
        case '\n':
            g_string_append(s, "\\n");
            break;
        case '\r':
            g_string_append(s, "\\r");
            break;
        case '\t':
            g_string_append(s, "\\t");
            break;
        default:
            if (*p < 0x20)
                g_string_append_printf(s, "\\u%04x", *p);
            else
                g_string_append_c(s, (char)*p);
        }
    }
    g_string_append_c(s, '"');
    g_free(valid);
}
