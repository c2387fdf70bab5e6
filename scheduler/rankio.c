/*
 * rankio.c - forwarding rank output line by line.
 */
#define _GNU_SOURCE
#include "scheduler/rankio.h"

#include <string.h>

#include "scheduler/sched.h"

static FILE *g_out, *g_err;
static bool g_tag;
static bool g_discard;

void rankio_discard(bool discard) {
    g_discard = discard;
}

typedef struct cookie {
    rankio_stream *s;
    bool is_err;
} cookie;

void rankio_init(FILE *out, FILE *err, bool tag) {
    g_out = out;
    g_err = err;
    g_tag = tag;
}

static void emit(FILE *to, int rank, const char *line, size_t n) {
    if (g_discard)
        return;
    if (g_tag)
        fprintf(to, "[%d] ", rank);
    fwrite(line, 1, n, to);
    fflush(to);
}

/* Forwards complete lines of buf; keeps the rest in buf. */
static void forward_lines(GString *buf, FILE *to, int rank, bool all) {
    size_t start = 0;
    for (;;) {
        char *nl = memchr(buf->str + start, '\n', buf->len - start);
        if (!nl)
            break;
        size_t end = (size_t)(nl - buf->str) + 1;
        emit(to, rank, buf->str + start, end - start);
        start = end;
    }
    if (all && start < buf->len) {
        emit(to, rank, buf->str + start, buf->len - start);
        if (!g_discard)
            fputc('\n', to);
        start = buf->len;
    }
    g_string_erase(buf, 0, (gssize)start);
}

static ssize_t cookie_write(void *c, const char *data, size_t n) {
    cookie *ck = c;
    rankio_stream *s = ck->s;
    /* Runs on the rank's stack from inside the C library: allocate from
     * ordex's heap, not the rank's. */
    sched_enter_sim();
    GString *buf = ck->is_err ? s->pending_err : s->pending_out;
    g_string_append_len(buf, data, (gssize)n);
    if (!ck->is_err) {
        s->bytes_out += n;
        for (size_t i = 0; i < n; i++)
            s->hash_out = s->hash_out * 31u + (unsigned char)data[i];
    }
    forward_lines(buf, ck->is_err ? g_err : g_out, s->rank, false);
    sched_leave_sim();
    return (ssize_t)n;
}

static int cookie_close(void *c) {
    g_free(c);
    return 0;
}

static FILE *open_one(rankio_stream *s, bool is_err) {
    cookie *ck = g_new(cookie, 1);
    ck->s = s;
    ck->is_err = is_err;
    cookie_io_functions_t fns = {.write = cookie_write, .close = cookie_close};
    FILE *f = fopencookie(ck, "w", fns);
    /* Line buffering like a terminal: lines reach the user as they are written. */
    setvbuf(f, NULL, is_err ? _IONBF : _IOLBF, is_err ? 0 : 4096);
    return f;
}

void rankio_open(rankio_stream *s, int rank) {
    memset(s, 0, sizeof *s);
    s->rank = rank;
    s->pending_out = g_string_new(NULL);
    s->pending_err = g_string_new(NULL);
    s->out = open_one(s, false);
    s->err = open_one(s, true);
}

void rankio_flush(rankio_stream *s) {
    if (!s->out)
        return;
    fflush(s->out);
    fflush(s->err);
    forward_lines(s->pending_out, g_out, s->rank, true);
    forward_lines(s->pending_err, g_err, s->rank, true);
}

void rankio_close(rankio_stream *s) {
    if (!s->out)
        return;
    rankio_flush(s);
    fclose(s->err); /* opened last, so it is nearer the head of the C library's list */
    fclose(s->out);
    g_string_free(s->pending_out, TRUE);
    g_string_free(s->pending_err, TRUE);
    s->out = s->err = NULL;
}
