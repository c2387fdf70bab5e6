/*
 * timeline.c - the timeline data model, the classification of MPI calls, the
 * axis and unit helpers, and the output plumbing the writers share
 * (timeline_chrome.c, timeline_svg.c, timeline_sweep.c).
 */
#include "output/timeline.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/timeline_internal.h"

/* ---------------------------------------------------------------------- */
/* The model                                                               */

out_timeline *out_tl_new(int nranks) {
    g_return_val_if_fail(nranks >= 0, NULL);
    out_timeline *t = g_new0(out_timeline, 1);
    t->nranks = nranks;
    t->spans = g_array_new(FALSE, FALSE, sizeof(out_tl_span));
    t->messages = g_array_new(FALSE, FALSE, sizeof(out_tl_message));
    t->rank_labels = g_new0(char *, nranks > 0 ? nranks : 1);
    t->names = g_string_chunk_new(4096);
    return t;
}

void out_tl_free(out_timeline *t) {
    if (!t)
        return;
    g_array_free(t->spans, TRUE);
    g_array_free(t->messages, TRUE);
    g_free(t->rank_labels); /* the strings live in t->names */
    g_string_chunk_free(t->names);
    g_free(t);
}

bool out_tl_set_rank_label(out_timeline *t, int rank, const char *label) {
    if (!t || rank < 0 || rank >= t->nranks)
        return false;
    /* Labels are few, so the chunk keeping a replaced one costs nothing. */
    t->rank_labels[rank] = label ? g_string_chunk_insert(t->names, label) : NULL;
    return true;
}

static bool valid_time(double v) {
    return isfinite(v) && v >= 0;
}

bool out_tl_add_span(out_timeline *t, int rank, double start, double end, out_tl_kind kind,
                     const char *name) {
    if (!t || rank < 0 || rank >= t->nranks || !valid_time(start) || !valid_time(end) ||
        end < start || (int)kind < 0 || kind >= ORDEX_TL_KIND_COUNT)
        return false;
    /* The same few names ("compute", "MPI_Send") repeat for every step of
     * every rank: store each once. */
    out_tl_span s = {
        .rank = rank,
        .start = start,
        .end = end,
        .kind = kind,
        .name = g_string_chunk_insert_const(t->names, name ? name : out_tl_kind_name(kind)),
    };
    g_array_append_val(t->spans, s);
    if (end > t->makespan)
        t->makespan = end;
    return true;
}

bool out_tl_add_message(out_timeline *t, int src, int dst, double sent, double arrived,
                        uint64_t bytes) {
    if (!t || src < 0 || src >= t->nranks || dst < 0 || dst >= t->nranks || !valid_time(sent) ||
        !valid_time(arrived) || arrived < sent)
        return false;
    out_tl_message m = {.src = src, .dst = dst, .sent = sent, .arrived = arrived, .bytes = bytes};
    g_array_append_val(t->messages, m);
    if (arrived > t->makespan)
        t->makespan = arrived;
    return true;
}

const char *out_tl_kind_name(out_tl_kind kind) {
    static const char *const names[ORDEX_TL_KIND_COUNT] = {
        [ORDEX_TL_COMPUTE] = "compute", [ORDEX_TL_SEND] = "send",
        [ORDEX_TL_RECV] = "recv",       [ORDEX_TL_SENDRECV] = "sendrecv",
        [ORDEX_TL_WAIT] = "wait",       [ORDEX_TL_COLLECTIVE] = "collective",
        [ORDEX_TL_OTHER] = "other",
    };
    if ((int)kind < 0 || kind >= ORDEX_TL_KIND_COUNT)
        return "?";
    return names[kind];
}

/* ---------------------------------------------------------------------- */
/* MPI calls                                                               */

static bool in_list(const char *name, size_t len, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len && strncmp(name, list[i], len) == 0)
            return true;
    return false;
}

/* The nonblocking form of a listed call: "Ibcast" for "Bcast". */
static bool in_list_nonblocking(const char *name, size_t len, const char *const *list, size_t n) {
    if (len < 2 || name[0] != 'I')
        return false;
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len - 1 && name[1] == g_ascii_tolower(list[i][0]) &&
            strncmp(name + 2, list[i] + 1, len - 2) == 0)
            return true;
    return false;
}

out_tl_kind out_tl_kind_of_call(const char *mpi_call) {
    static const char *const sends[] = {"Send",  "Isend",  "Ssend", "Issend",
                                        "Bsend", "Ibsend", "Rsend", "Irsend"};
    static const char *const sendrecvs[] = {"Sendrecv", "Sendrecv_replace"};
    static const char *const recvs[] = {"Recv",   "Irecv",   "Probe", "Iprobe",
                                        "Mprobe", "Improbe", "Mrecv", "Imrecv"};
    /* Each of these also exists with an I in front (the nonblocking form). */
    static const char *const collectives[] = {
        "Barrier",
        "Bcast",
        "Gather",
        "Gatherv",
        "Scatter",
        "Scatterv",
        "Allgather",
        "Allgatherv",
        "Alltoall",
        "Alltoallv",
        "Alltoallw",
        "Reduce",
        "Allreduce",
        "Reduce_scatter",
        "Reduce_scatter_block",
        "Scan",
        "Exscan",
        "Neighbor_allgather",
        "Neighbor_allgatherv",
        "Neighbor_alltoall",
        "Neighbor_alltoallv",
        "Neighbor_alltoallw",
    };
    /* Collective over the communicator although they move no user data:
     * every member waits for the others. */
    static const char *const comm_creation[] = {
        "Comm_split",       "Comm_split_type", "Comm_dup",          "Comm_dup_with_info",
        "Comm_idup",        "Comm_create",     "Comm_create_group", "Cart_create",
        "Cart_sub",         "Graph_create",    "Dist_graph_create", "Dist_graph_create_adjacent",
        "Intercomm_create", "Intercomm_merge",
    };
    if (!mpi_call)
        return ORDEX_TL_OTHER;
    const char *name = mpi_call;
    if (name[0] == 'P')
        name++;
    if (strncmp(name, "MPI_", 4) != 0)
        return ORDEX_TL_OTHER;
    name += 4;
    size_t len = strlen(name);
    /* MPI-4 large-count variants behave like the plain call. */
    if (len > 2 && strcmp(name + len - 2, "_c") == 0)
        len -= 2;

    if (in_list(name, len, sends, G_N_ELEMENTS(sends)))
        return ORDEX_TL_SEND;
    if (in_list(name, len, sendrecvs, G_N_ELEMENTS(sendrecvs)))
        return ORDEX_TL_SENDRECV;
    if (in_list(name, len, recvs, G_N_ELEMENTS(recvs)))
        return ORDEX_TL_RECV;
    if (strncmp(name, "Wait", 4) == 0 || strncmp(name, "Test", 4) == 0)
        return ORDEX_TL_WAIT;
    if (in_list(name, len, collectives, G_N_ELEMENTS(collectives)) ||
        in_list_nonblocking(name, len, collectives, G_N_ELEMENTS(collectives)) ||
        in_list(name, len, comm_creation, G_N_ELEMENTS(comm_creation)))
        return ORDEX_TL_COLLECTIVE;
    return ORDEX_TL_OTHER;
}

/* ---------------------------------------------------------------------- */
/* Axes and units                                                          */

out_tl_axis out_tl_nice_axis(double min, double max, int max_ticks) {
    out_tl_axis a = {.lo = 0, .hi = 1, .step = 0.2, .nticks = 6, .decimals = 1};
    /* Two ticks cannot span a range around 0 (both are multiples of the
     * step); three always can. */
    if (max_ticks < 3)
        max_ticks = 3;
    if (!isfinite(min) || !isfinite(max)) {
        min = 0;
        max = 1;
    }
    if (min > max) {
        double tmp = min;
        min = max;
        max = tmp;
    }
    if (max == min) {
        /* Some room around a single value, and 0..1 around 0. */
        if (min == 0) {
            max = 1;
        } else {
            double pad = fabs(min) * 0.1;
            min -= pad;
            max += pad;
        }
    }
    double raw = (max - min) / (max_ticks - 1);
    double mag = pow(10, floor(log10(raw)));
    static const double multiples[] = {1, 2, 5};
    /* The smallest nice step may still need one interval too many once the
     * ends are rounded out; the next larger step then fits. */
    for (int k = 0; k < 40; k++) {
        int decade = k / 3;
        double step = multiples[k % 3] * mag * pow(10, decade);
        if (step < raw * (1 - 1e-9))
            continue;
        double lo = floor(min / step + 1e-9) * step;
        double hi = ceil(max / step - 1e-9) * step;
        if (hi <= lo) /* a range far below the rounding of the ends */
            hi = lo + step;
        int n = (int)lround((hi - lo) / step) + 1;
        if (n > max_ticks)
            continue;
        a.lo = lo == 0 ? 0 : lo; /* no -0 */
        a.hi = hi == 0 ? 0 : hi;
        a.step = step;
        a.nticks = n;
        int d = -(int)floor(log10(step) + 1e-9);
        a.decimals = d > 0 ? d : 0;
        break;
    }
    return a;
}

const char *out_tl_time_unit(double seconds, double *unit_seconds) {
    double s = fabs(seconds);
    const char *unit = "ns";
    double u = 1e-9;
    if (s >= 1) {
        unit = "s";
        u = 1;
    } else if (s >= 1e-3) {
        unit = "ms";
        u = 1e-3;
    } else if (s >= 1e-6) {
        unit = "\xc2\xb5s";
        u = 1e-6;
    }
    if (unit_seconds)
        *unit_seconds = u;
    return unit;
}

char *out_tl_format_quantity(double value, const char *unit) {
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    if (!unit || !*unit) {
        g_ascii_formatd(num, sizeof num, "%.4g", value);
        return g_strdup(num);
    }
    static const char *const prefixes[] = {"p", "n", "\xc2\xb5", "m", "", "k", "M", "G", "T", "P"};
    int p = 4; /* no prefix */
    if (value != 0 && isfinite(value)) {
        /* Round first so that 999.99996 shows as "1 k", not "1000". */
        char probe[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd(probe, sizeof probe, "%.3e", fabs(value));
        int e10 = atoi(strchr(probe, 'e') + 1);
        p = 4 + (int)floor(e10 / 3.0);
        if (p < 0)
            p = 0;
        if (p > 9)
            p = 9;
    }
    double scaled = value / pow(1000, p - 4);
    g_ascii_formatd(num, sizeof num, "%.4g", scaled);
    return g_strdup_printf("%s %s%s", num, prefixes[p], unit);
}

/* ---------------------------------------------------------------------- */
/* Output                                                                  */

#define SINK_CHUNK (1 << 16)

bool out_tl_sink_open(out_tl_sink *s, const char *path, GError **error) {
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "w");
    if (!f) {
        int err = errno;
        char *shown = g_filename_display_name(path);
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "cannot write %s: %s", shown,
                    g_strerror(err));
        g_free(shown);
        return false;
    }
    struct stat st;
    s->regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    s->file = f;
    s->buf = g_string_sized_new(SINK_CHUNK * 2);
    s->path = g_strdup(path);
    return true;
}

static void sink_write(out_tl_sink *s) {
    if (s->buf->len == 0)
        return;
    errno = 0;
    if (!s->error && fwrite(s->buf->str, 1, s->buf->len, s->file) != s->buf->len)
        s->error = errno ? errno : EIO;
    g_string_truncate(s->buf, 0);
}

void out_tl_sink_maybe_flush(out_tl_sink *s) {
    if (s->buf->len >= SINK_CHUNK)
        sink_write(s);
}

bool out_tl_sink_close(out_tl_sink *s, GError **error) {
    sink_write(s);
    errno = 0;
    if (fclose(s->file) != 0 && !s->error)
        s->error = errno ? errno : EIO;
    bool ok = s->error == 0;
    if (!ok) {
        char *shown = g_filename_display_name(s->path);
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(s->error), "cannot write %s: %s",
                    shown, g_strerror(s->error));
        g_free(shown);
        /* Half a trace would only fail later, in the viewer. */
        if (s->regular)
            g_remove(s->path);
    }
    g_string_free(s->buf, TRUE);
    g_free(s->path);
    memset(s, 0, sizeof *s);
    return ok;
}

/* The characters XML 1.0 allows (its Char production). */
static bool xml_char(gunichar c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

void out_tl_append_xml(GString *s, const char *text) {
    if (!text)
        return;
    char *valid = g_utf8_make_valid(text, -1);
    for (const char *p = valid; *p; p = g_utf8_next_char(p)) {
        gunichar c = g_utf8_get_char(p);
        switch (c) {
        case '&':
            g_string_append(s, "&amp;");
            break;
        case '<':
            g_string_append(s, "&lt;");
            break;
        case '>':
            g_string_append(s, "&gt;");
            break;
        case '"':
            g_string_append(s, "&quot;");
            break;
        case '\'':
            g_string_append(s, "&apos;");
            break;
        default:
            if (xml_char(c))
                g_string_append_len(s, p, g_utf8_next_char(p) - p);
            else
                g_string_append_unichar(s, 0xFFFD);
        }
    }
    g_free(valid);
}

void out_tl_append_fixed(GString *s, double v, int decimals) {
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    char fmt[16];
    if (decimals < 0)
        decimals = 0;
    if (decimals > 12)
        decimals = 12;
    g_snprintf(fmt, sizeof fmt, "%%.%df", decimals);
    g_ascii_formatd(num, sizeof num, fmt, v);
    if (strchr(num, '.')) {
        size_t n = strlen(num);
        while (num[n - 1] == '0')
            num[--n] = '\0';
        if (num[n - 1] == '.')
            num[--n] = '\0';
    }
    g_string_append(s, strcmp(num, "-0") == 0 ? "0" : num);
}

long out_tl_utf8_chars(const char *text) {
    if (!text || !g_utf8_validate(text, -1, NULL))
        return text ? (long)strlen(text) : 0;
    return g_utf8_strlen(text, -1);
}
