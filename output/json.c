/*
 * json.c - the JSON writer and its string escaper (see json.h).
 */
#include "output/json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

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

void out_json_init(out_json *w, GString *s, int pretty) {
    w->s = s;
    w->depth = 0;
    w->pretty = pretty;
    w->has_member[0] = false;
}

/* The separator, the line break and the key before a member. */
static void member(out_json *w, const char *key) {
    if (w->depth > 0) {
        bool *has = &w->has_member[w->depth - 1];
        if (*has)
            g_string_append_c(w->s, ',');
        if (w->depth <= w->pretty) {
            g_string_append_c(w->s, '\n');
            for (int i = 0; i < w->depth; i++)
                g_string_append(w->s, "  ");
        } else if (*has) {
            g_string_append_c(w->s, ' ');
        }
        *has = true;
    }
    if (key) {
        out_json_string(w->s, key);
        g_string_append(w->s, ": ");
    }
}

static void open_container(out_json *w, const char *key, char bracket, char closer) {
    member(w, key);
    g_string_append_c(w->s, bracket);
    g_assert(w->depth < OUT_JSON_MAX_DEPTH);
    w->closer[w->depth] = closer;
    w->has_member[w->depth++] = false;
}

void out_json_object(out_json *w, const char *key) {
    open_container(w, key, '{', '}');
}

void out_json_array(out_json *w, const char *key) {
    open_container(w, key, '[', ']');
}

void out_json_end(out_json *w) {
    g_assert(w->depth > 0);
    bool pretty = w->depth <= w->pretty && w->has_member[w->depth - 1];
    w->depth--;
    if (pretty) {
        g_string_append_c(w->s, '\n');
        for (int i = 0; i < w->depth; i++)
            g_string_append(w->s, "  ");
    }
    g_string_append_c(w->s, w->closer[w->depth]);
}

void out_json_str(out_json *w, const char *key, const char *v) {
    member(w, key);
    if (v)
        out_json_string(w->s, v);
    else
        g_string_append(w->s, "null");
}

void out_json_num(out_json *w, const char *key, double v) {
    member(w, key);
    if (isfinite(v)) {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append(w->s, g_ascii_formatd(buf, sizeof buf, "%.9g", v));
    } else {
        g_string_append(w->s, "null");
    }
}

void out_json_int(out_json *w, const char *key, int64_t v) {
    member(w, key);
    g_string_append_printf(w->s, "%" G_GINT64_FORMAT, v);
}

void out_json_uint(out_json *w, const char *key, uint64_t v) {
    member(w, key);
    g_string_append_printf(w->s, "%" G_GUINT64_FORMAT, v);
}

void out_json_bool(out_json *w, const char *key, bool v) {
    member(w, key);
    g_string_append(w->s, v ? "true" : "false");
}

void out_json_null(out_json *w, const char *key) {
    member(w, key);
    g_string_append(w->s, "null");
}

void out_json_ints(out_json *w, const char *key, const int *v, int n) {
    member(w, key);
    g_string_append_c(w->s, '[');
    for (int i = 0; i < n; i++)
        g_string_append_printf(w->s, "%s%d", i ? ", " : "", v[i]);
    g_string_append_c(w->s, ']');
}

bool out_json_save(GString *s, const char *path, char **err) {
    g_string_append_c(s, '\n');
    /* Written in place, not through a temporary file and a rename, so that
     * /dev/stdout and named pipes work; every write error is reported. */
    FILE *f = fopen(path, "w");
    if (!f) {
        *err = g_strdup_printf("cannot write %s: %s", path, g_strerror(errno));
        return false;
    }
    size_t n = fwrite(s->str, 1, s->len, f);
    int e = n == s->len && fflush(f) == 0 ? 0 : errno;
    if (fclose(f) != 0 && !e)
        e = errno;
    if (e || n != s->len) {
        *err = g_strdup_printf("cannot write %s: %s", path, g_strerror(e ? e : EIO));
        return false;
    }
    return true;
}
