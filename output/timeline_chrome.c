/*
 * timeline_chrome.c - the timeline as a Chrome trace (Trace Event Format,
 * JSON object form), for chrome://tracing and Perfetto.
 *
 * Each rank is a thread of one process, so the viewer stacks the ranks as
 * rows in rank order.  Times are written in microseconds, the format's unit.
 */
#include <stdint.h>

#include "output/json.h"
#include "output/timeline.h"
#include "output/timeline_internal.h"

/* To the picosecond: finer than any prediction means, and free of the
 * 1e-9 noise of subtracting nearby doubles ("154321.098765999"). */
static void us(GString *b, double seconds) {
    out_tl_append_fixed(b, seconds * 1e6, 6);
}

/* One event per line, so a trace can be read and diffed as text. */
static void next_event(GString *b, bool *first) {
    g_string_append(b, *first ? "\n" : ",\n");
    *first = false;
}

static void rank_name(GString *b, const out_timeline *t, int rank) {
    if (t->rank_labels[rank]) {
        out_json_string(b, t->rank_labels[rank]);
    } else {
        g_string_append_printf(b, "\"rank %d\"", rank);
    }
}

static void flow_event(GString *b, const out_tl_message *m, guint id, bool start) {
    g_string_append(b, "{\"name\":\"message\",\"cat\":\"message\",\"ph\":");
    /* The end binds to the slice enclosing the arrival (the receive or wait
     * in progress), not to the next slice to begin, which is the default. */
    g_string_append(b, start ? "\"s\"" : "\"f\",\"bp\":\"e\"");
    g_string_append_printf(b, ",\"id\":%u,\"ts\":", id);
    us(b, start ? m->sent : m->arrived);
    g_string_append_printf(b,
                           ",\"pid\":0,\"tid\":%d,\"args\":{\"bytes\":%" G_GUINT64_FORMAT
                           ",\"src\":%d,\"dst\":%d}}",
                           start ? m->src : m->dst, m->bytes, m->src, m->dst);
}

bool out_tl_write_chrome(const out_timeline *t, const char *path, GError **error) {
    g_return_val_if_fail(t != NULL && path != NULL, false);
    out_tl_sink out;
    if (!out_tl_sink_open(&out, path, error))
        return false;
    GString *b = out.buf;
    bool first = true;

    g_string_append(b, "{\"traceEvents\":[");
    next_event(b, &first);
    g_string_append(b, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
                       "\"args\":{\"name\":\"ordex predicted run\"}}");
    for (int r = 0; r < t->nranks; r++) {
        next_event(b, &first);
        g_string_append_printf(b,
                               "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
                               "\"args\":{\"name\":",
                               r);
        rank_name(b, t, r);
        g_string_append(b, "}}");
        /* Without a sort index, viewers order threads by name: "rank 10"
         * before "rank 2". */
        next_event(b, &first);
        g_string_append_printf(b,
                               "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
                               "\"args\":{\"sort_index\":%d}}",
                               r, r);
        out_tl_sink_maybe_flush(&out);
    }

    for (guint i = 0; i < t->spans->len; i++) {
        const out_tl_span *s = &g_array_index(t->spans, out_tl_span, i);
        next_event(b, &first);
        g_string_append(b, "{\"name\":");
        out_json_string(b, s->name);
        g_string_append(b, ",\"cat\":");
        out_json_string(b, out_tl_kind_name(s->kind));
        g_string_append(b, ",\"ph\":\"X\",\"ts\":");
        us(b, s->start);
        g_string_append(b, ",\"dur\":");
        us(b, s->end - s->start);
        g_string_append_printf(b, ",\"pid\":0,\"tid\":%d}", s->rank);
        out_tl_sink_maybe_flush(&out);
    }

    for (guint i = 0; i < t->messages->len; i++) {
        const out_tl_message *m = &g_array_index(t->messages, out_tl_message, i);
        next_event(b, &first);
        flow_event(b, m, i + 1, true);
        next_event(b, &first);
        flow_event(b, m, i + 1, false);
        out_tl_sink_maybe_flush(&out);
    }

    g_string_append(b, "\n],\n\"displayTimeUnit\":\"ns\"}\n");
    return out_tl_sink_close(&out, error);
}
