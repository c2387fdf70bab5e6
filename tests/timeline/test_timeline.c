/*
 * test_timeline.c - unit tests of cli/timeline*.c: the data model, the
 * classification of MPI calls, the axis and unit helpers, the Chrome trace
 * (exact events, escaping, valid JSON), the Gantt SVG (well-formed, known
 * coordinates, merging of tiny spans, a 1024-rank run), the sweep plot and
 * the errors of an unwritable path.
 *
 * SVG files are parsed back with GLib's GMarkup parser (a strict subset of
 * XML: mismatched tags, bad quoting or unknown entities fail), and JSON with
 * a small validating parser below, so "well-formed" is checked, not assumed.
 * Units in the comments: us = 1e-6 s.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "output/timeline.h"

#define US 1e-6

static char *tmpdir;

static char *tmp_path(const char *name) {
    return g_build_filename(tmpdir, name, NULL);
}

static char *slurp(const char *path) {
    char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, NULL, &e)) {
        fprintf(stderr, "\n%s\n", e->message);
        g_error_free(e);
    }
    return text;
}

static int count_of(const char *haystack, const char *needle) {
    int n = 0;
    for (const char *p = strstr(haystack, needle); p; p = strstr(p + strlen(needle), needle))
        n++;
    return n;
}

/* Asserts that text contains want, and shows both if not. */
#define CONTAINS(text, want)                                                                       \
    do {                                                                                           \
        bool found_ = strstr((text), (want)) != NULL;                                              \
        if (!found_)                                                                               \
            fprintf(stderr, "\nmissing: %s\n", (want));                                            \
        CU_ASSERT_TRUE(found_);                                                                    \
    } while (0)

/* ---------------------------------------------------------------------- */
/* A validating JSON parser (syntax only)                                  */

typedef struct json {
    const char *p;
    int values; /* every value parsed, objects and arrays included */
} json;

static bool json_value(json *j);

static void json_ws(json *j) {
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
        j->p++;
}

static bool json_string(json *j) {
    if (*j->p != '"')
        return false;
    for (j->p++; *j->p != '"'; j->p++) {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20)
            return false; /* also the end of the text */
        if (c != '\\')
            continue;
        j->p++;
        if (*j->p == 'u') {
            for (int i = 1; i <= 4; i++)
                if (!g_ascii_isxdigit(j->p[i]))
                    return false;
            j->p += 4;
        } else if (!strchr("\"\\/bfnrt", *j->p) || !*j->p) {
            return false;
        }
    }
    j->p++;
    return true;
}

static bool json_digits(json *j) {
    if (!g_ascii_isdigit(*j->p))
        return false;
    while (g_ascii_isdigit(*j->p))
        j->p++;
    return true;
}

static bool json_number(json *j) {
    if (*j->p == '-')
        j->p++;
    if (*j->p == '0')
        j->p++;
    else if (!json_digits(j))
        return false;
    if (*j->p == '.') {
        j->p++;
        if (!json_digits(j))
            return false;
    }
    if (*j->p == 'e' || *j->p == 'E') {
        j->p++;
        if (*j->p == '+' || *j->p == '-')
            j->p++;
        if (!json_digits(j))
            return false;
    }
    return true;
}

static bool json_members(json *j, char close, bool keys) {
    j->p++;
    json_ws(j);
    if (*j->p == close) {
        j->p++;
        return true;
    }
    for (;;) {
        json_ws(j);
        if (keys) {
            if (!json_string(j))
                return false;
            json_ws(j);
            if (*j->p++ != ':')
                return false;
        }
        if (!json_value(j))
            return false;
        json_ws(j);
        if (*j->p == close) {
            j->p++;
            return true;
        }
        if (*j->p++ != ',')
            return false;
    }
}

static bool json_value(json *j) {
    json_ws(j);
    j->values++;
    switch (*j->p) {
    case '{':
        return json_members(j, '}', true);
    case '[':
        return json_members(j, ']', false);
    case '"':
        return json_string(j);
    case 't':
        return strncmp(j->p, "true", 4) == 0 && (j->p += 4);
    case 'f':
        return strncmp(j->p, "false", 5) == 0 && (j->p += 5);
    case 'n':
        return strncmp(j->p, "null", 4) == 0 && (j->p += 4);
    default:
        return json_number(j);
    }
}

/* True if text is exactly one JSON value (and whitespace). */
static bool json_valid(const char *text) {
    json j = {.p = text};
    if (!json_value(&j))
        return false;
    json_ws(&j);
    return *j.p == '\0';
}

static void test_json_checker(void) {
    /* The checker must reject what a viewer would, or the tests below
     * prove nothing. */
    CU_ASSERT_TRUE(json_valid("{\"a\":[1,-2.5e-05,0.5,\"x\\\"\\u0001\"],\"b\":{}}"));
    CU_ASSERT_FALSE(json_valid("{\"a\":\"x\ny\"}"));
    CU_ASSERT_FALSE(json_valid("{\"a\":\"\\x\"}"));
    CU_ASSERT_FALSE(json_valid("{\"a\":1,}"));
    CU_ASSERT_FALSE(json_valid("{\"a\":.5}"));
    CU_ASSERT_FALSE(json_valid("{\"a\":nan}"));
    CU_ASSERT_FALSE(json_valid("{\"a\":1"));
    CU_ASSERT_FALSE(json_valid("{\"a\":1}}"));
}

/* ---------------------------------------------------------------------- */
/* SVG documents, parsed with GMarkup                                      */

typedef struct elem {
    char *name;
    const char *group; /* id of the innermost enclosing <g id=...>, or NULL */
    int parent;        /* index in doc.elems, -1 for the root */
    GHashTable *attrs;
    GString *text; /* direct text content */
} elem;

typedef struct doc {
    GPtrArray *elems;
    GArray *stack;
} doc;

static void elem_free(gpointer p) {
    elem *e = p;
    g_free(e->name);
    g_hash_table_destroy(e->attrs);
    g_string_free(e->text, TRUE);
    g_free(e);
}

static void on_start(GMarkupParseContext *ctx, const char *name, const char **names,
                     const char **values, gpointer data, GError **error) {
    doc *d = data;
    elem *e = g_new0(elem, 1);
    e->name = g_strdup(name);
    e->parent = d->stack->len ? g_array_index(d->stack, int, d->stack->len - 1) : -1;
    e->attrs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    e->text = g_string_new(NULL);
    for (int i = 0; names[i]; i++)
        g_hash_table_insert(e->attrs, g_strdup(names[i]), g_strdup(values[i]));
    if (e->parent >= 0)
        e->group = ((elem *)g_ptr_array_index(d->elems, e->parent))->group;
    if (strcmp(name, "g") == 0 && g_hash_table_lookup(e->attrs, "id"))
        e->group = g_hash_table_lookup(e->attrs, "id");
    int index = (int)d->elems->len;
    g_ptr_array_add(d->elems, e);
    g_array_append_val(d->stack, index);
}

static void on_end(GMarkupParseContext *ctx, const char *name, gpointer data, GError **error) {
    doc *d = data;
    g_array_set_size(d->stack, d->stack->len - 1);
}

static void on_text(GMarkupParseContext *ctx, const char *text, gsize len, gpointer data,
                    GError **error) {
    doc *d = data;
    if (d->stack->len) {
        elem *e = g_ptr_array_index(d->elems, g_array_index(d->stack, int, d->stack->len - 1));
        g_string_append_len(e->text, text, (gssize)len);
    }
}

static void doc_free(doc *d) {
    if (!d)
        return;
    g_ptr_array_free(d->elems, TRUE);
    g_array_free(d->stack, TRUE);
    g_free(d);
}

/* Parses an SVG file; NULL (and a failed assertion) unless it is
 * well-formed, begins with the XML declaration, has an <svg> root and holds
 * no character XML 1.0 forbids. */
static doc *parse_svg(const char *path) {
    char *text = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(g_str_has_prefix(text, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
    CU_ASSERT_TRUE(g_utf8_validate(text, -1, NULL));
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') {
            CU_FAIL("control character in the SVG");
            break;
        }
    static const GMarkupParser parser = {on_start, on_end, on_text, NULL, NULL};
    doc *d = g_new0(doc, 1);
    d->elems = g_ptr_array_new_with_free_func(elem_free);
    d->stack = g_array_new(FALSE, FALSE, sizeof(int));
    GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, d, NULL);
    GError *e = NULL;
    bool ok = g_markup_parse_context_parse(ctx, text, -1, &e) &&
              g_markup_parse_context_end_parse(ctx, &e);
    if (!ok)
        fprintf(stderr, "\n%s: %s\n", path, e->message);
    g_clear_error(&e);
    g_markup_parse_context_free(ctx);
    g_free(text);
    CU_ASSERT_TRUE(ok);
    if (ok) {
        CU_ASSERT_TRUE(d->elems->len > 0 &&
                       strcmp(((elem *)g_ptr_array_index(d->elems, 0))->name, "svg") == 0);
    }
    if (!ok) {
        doc_free(d);
        return NULL;
    }
    return d;
}

/* The elements called name inside <g id=group> (group NULL: anywhere). */
static GPtrArray *select_elems(const doc *d, const char *group, const char *name) {
    GPtrArray *out = g_ptr_array_new();
    for (guint i = 0; i < d->elems->len; i++) {
        elem *e = g_ptr_array_index(d->elems, i);
        if (strcmp(e->name, name) == 0 && (!group || (e->group && strcmp(e->group, group) == 0)))
            g_ptr_array_add(out, e);
    }
    return out;
}

static int count_elems(const doc *d, const char *group, const char *name) {
    GPtrArray *a = select_elems(d, group, name);
    int n = (int)a->len;
    g_ptr_array_free(a, TRUE);
    return n;
}

static double num_attr(const elem *e, const char *name) {
    const char *v = g_hash_table_lookup(e->attrs, name);
    CU_ASSERT_PTR_NOT_NULL(v);
    return v ? g_ascii_strtod(v, NULL) : NAN;
}

static const char *str_attr(const elem *e, const char *name) {
    const char *v = g_hash_table_lookup(e->attrs, name);
    return v ? v : "";
}

/* The text of the <title> child of the element at index, or "". */
static const char *title_of(const doc *d, const elem *e) {
    int index = -1;
    for (guint i = 0; i < d->elems->len; i++)
        if (g_ptr_array_index(d->elems, i) == e)
            index = (int)i;
    for (guint i = (guint)index + 1; i < d->elems->len; i++) {
        const elem *c = g_ptr_array_index(d->elems, i);
        if (c->parent == index && strcmp(c->name, "title") == 0)
            return c->text->str;
    }
    return "";
}

/* ---------------------------------------------------------------------- */
/* Model and classification                                                */

static void test_model(void) {
    out_timeline *t = out_tl_new(2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nranks, 2);
    CU_ASSERT_EQUAL(t->makespan, 0.0);

    char name[16] = "MPI_Send";
    CU_ASSERT_TRUE(out_tl_add_span(t, 0, 1 * US, 3 * US, ORDEX_TL_SEND, name));
    strcpy(name, "clobbered"); /* the timeline keeps its own copy */
    CU_ASSERT_TRUE(out_tl_add_span(t, 1, 0, 2 * US, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_EQUAL(t->spans->len, 2);
    const out_tl_span *s0 = &g_array_index(t->spans, out_tl_span, 0);
    CU_ASSERT_STRING_EQUAL(s0->name, "MPI_Send");
    CU_ASSERT_EQUAL(s0->rank, 0);
    CU_ASSERT_EQUAL(s0->start, 1 * US);
    CU_ASSERT_EQUAL(s0->end, 3 * US);
    CU_ASSERT_EQUAL(s0->kind, ORDEX_TL_SEND);
    CU_ASSERT_STRING_EQUAL(g_array_index(t->spans, out_tl_span, 1).name, "compute");
    CU_ASSERT_EQUAL(t->makespan, 3 * US);

    /* Rejected, and nothing changes. */
    CU_ASSERT_FALSE(out_tl_add_span(t, 2, 0, 1, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_FALSE(out_tl_add_span(t, -1, 0, 1, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_FALSE(out_tl_add_span(t, 0, 2, 1, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_FALSE(out_tl_add_span(t, 0, -1, 1, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_FALSE(out_tl_add_span(t, 0, 0, NAN, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_FALSE(out_tl_add_span(t, 0, 0, INFINITY, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_FALSE(out_tl_add_span(t, 0, 0, 1, ORDEX_TL_KIND_COUNT, NULL));
    CU_ASSERT_FALSE(out_tl_add_span(NULL, 0, 0, 1, ORDEX_TL_COMPUTE, NULL));
    CU_ASSERT_EQUAL(t->spans->len, 2);
    CU_ASSERT_EQUAL(t->makespan, 3 * US);

    CU_ASSERT_TRUE(out_tl_add_message(t, 0, 1, 2 * US, 5 * US, 64));
    CU_ASSERT_EQUAL(t->makespan, 5 * US); /* an arrival extends the run */
    CU_ASSERT_FALSE(out_tl_add_message(t, 0, 2, 0, 1, 1));
    CU_ASSERT_FALSE(out_tl_add_message(t, -1, 0, 0, 1, 1));
    CU_ASSERT_FALSE(out_tl_add_message(t, 0, 1, 2, 1, 1));
    CU_ASSERT_FALSE(out_tl_add_message(t, 0, 1, NAN, 1, 1));
    CU_ASSERT_EQUAL(t->messages->len, 1);
    const out_tl_message *m = &g_array_index(t->messages, out_tl_message, 0);
    CU_ASSERT_EQUAL(m->src, 0);
    CU_ASSERT_EQUAL(m->dst, 1);
    CU_ASSERT_EQUAL(m->bytes, 64);

    CU_ASSERT_PTR_NULL(t->rank_labels[0]);
    CU_ASSERT_TRUE(out_tl_set_rank_label(t, 1, "rank 1 (node0)"));
    CU_ASSERT_STRING_EQUAL(t->rank_labels[1], "rank 1 (node0)");
    CU_ASSERT_TRUE(out_tl_set_rank_label(t, 1, NULL));
    CU_ASSERT_PTR_NULL(t->rank_labels[1]);
    CU_ASSERT_FALSE(out_tl_set_rank_label(t, 2, "x"));
    out_tl_free(t);
    out_tl_free(NULL);

    t = out_tl_new(0); /* no ranks: nothing can be added, but it exists */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_FALSE(out_tl_add_span(t, 0, 0, 1, ORDEX_TL_COMPUTE, NULL));
    out_tl_free(t);
}

static void test_kind_names(void) {
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_COMPUTE), "compute");
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_SEND), "send");
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_RECV), "recv");
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_SENDRECV), "sendrecv");
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_WAIT), "wait");
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_COLLECTIVE), "collective");
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_OTHER), "other");
    CU_ASSERT_STRING_EQUAL(out_tl_kind_name(ORDEX_TL_KIND_COUNT), "?");
}

static void test_kind_of_call(void) {
    static const struct {
        const char *call;
        out_tl_kind kind;
    } cases[] = {
        {"MPI_Send", ORDEX_TL_SEND},
        {"MPI_Isend", ORDEX_TL_SEND},
        {"MPI_Ssend", ORDEX_TL_SEND},
        {"MPI_Issend", ORDEX_TL_SEND},
        {"MPI_Bsend", ORDEX_TL_SEND},
        {"MPI_Rsend", ORDEX_TL_SEND},
        {"MPI_Irsend", ORDEX_TL_SEND},
        {"MPI_Sendrecv", ORDEX_TL_SENDRECV},
        {"MPI_Sendrecv_replace", ORDEX_TL_SENDRECV},
        {"PMPI_Sendrecv_c", ORDEX_TL_SENDRECV},
        {"PMPI_Send", ORDEX_TL_SEND},
        {"MPI_Send_c", ORDEX_TL_SEND},
        {"MPI_Recv", ORDEX_TL_RECV},
        {"MPI_Irecv", ORDEX_TL_RECV},
        {"MPI_Probe", ORDEX_TL_RECV},
        {"MPI_Iprobe", ORDEX_TL_RECV},
        {"MPI_Mprobe", ORDEX_TL_RECV},
        {"MPI_Mrecv", ORDEX_TL_RECV},
        {"MPI_Recv_c", ORDEX_TL_RECV},
        {"MPI_Wait", ORDEX_TL_WAIT},
        {"MPI_Waitall", ORDEX_TL_WAIT},
        {"MPI_Waitany", ORDEX_TL_WAIT},
        {"MPI_Waitsome", ORDEX_TL_WAIT},
        {"MPI_Test", ORDEX_TL_WAIT},
        {"MPI_Testall", ORDEX_TL_WAIT},
        {"PMPI_Testsome", ORDEX_TL_WAIT},
        {"MPI_Barrier", ORDEX_TL_COLLECTIVE},
        {"MPI_Bcast", ORDEX_TL_COLLECTIVE},
        {"MPI_Ibcast", ORDEX_TL_COLLECTIVE},
        {"MPI_Reduce", ORDEX_TL_COLLECTIVE},
        {"MPI_Allreduce", ORDEX_TL_COLLECTIVE},
        {"MPI_Iallreduce", ORDEX_TL_COLLECTIVE},
        {"MPI_Gatherv", ORDEX_TL_COLLECTIVE},
        {"MPI_Scatter", ORDEX_TL_COLLECTIVE},
        {"MPI_Allgatherv", ORDEX_TL_COLLECTIVE},
        {"MPI_Alltoallw", ORDEX_TL_COLLECTIVE},
        {"MPI_Ialltoallv", ORDEX_TL_COLLECTIVE},
        {"MPI_Reduce_scatter", ORDEX_TL_COLLECTIVE},
        {"MPI_Ireduce_scatter_block", ORDEX_TL_COLLECTIVE},
        {"MPI_Scan", ORDEX_TL_COLLECTIVE},
        {"MPI_Iexscan", ORDEX_TL_COLLECTIVE},
        {"MPI_Ibarrier", ORDEX_TL_COLLECTIVE},
        {"MPI_Bcast_c", ORDEX_TL_COLLECTIVE},
        {"MPI_Comm_split", ORDEX_TL_COLLECTIVE},
        {"MPI_Comm_dup", ORDEX_TL_COLLECTIVE},
        {"MPI_Comm_create", ORDEX_TL_COLLECTIVE},
        {"MPI_Cart_create", ORDEX_TL_COLLECTIVE},
        /* Lookalikes that are not collective or not communication. */
        {"MPI_Reduce_local", ORDEX_TL_OTHER},
        {"MPI_Bcast_init", ORDEX_TL_OTHER},
        {"MPI_Icomm_split", ORDEX_TL_OTHER},
        {"MPI_Sendx", ORDEX_TL_OTHER},
        {"MPI_Send_init", ORDEX_TL_OTHER},
        {"MPI_Comm_rank", ORDEX_TL_OTHER},
        {"MPI_Init", ORDEX_TL_OTHER},
        {"MPI_Finalize", ORDEX_TL_OTHER},
        {"MPI_I", ORDEX_TL_OTHER},
        {"MPI_", ORDEX_TL_OTHER},
        {"MPI_c", ORDEX_TL_OTHER},
        {"Send", ORDEX_TL_OTHER},
        {"mpi_send", ORDEX_TL_OTHER},
        {"compute", ORDEX_TL_OTHER},
        {"", ORDEX_TL_OTHER},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        out_tl_kind got = out_tl_kind_of_call(cases[i].call);
        if (got != cases[i].kind)
            fprintf(stderr, "\n%s: expected %s, got %s\n", cases[i].call,
                    out_tl_kind_name(cases[i].kind), out_tl_kind_name(got));
        CU_ASSERT_EQUAL(got, cases[i].kind);
    }
    CU_ASSERT_EQUAL(out_tl_kind_of_call(NULL), ORDEX_TL_OTHER);
}

/* ---------------------------------------------------------------------- */
/* Axes and units                                                          */

static void expect_axis(double min, double max, int max_ticks, double lo, double hi, double step,
                        int nticks, int decimals) {
    out_tl_axis a = out_tl_nice_axis(min, max, max_ticks);
    bool ok = fabs(a.lo - lo) < 1e-12 * fmax(1, fabs(lo)) &&
              fabs(a.hi - hi) < 1e-12 * fmax(1, fabs(hi)) && fabs(a.step - step) < 1e-12 * step &&
              a.nticks == nticks && a.decimals == decimals;
    if (!ok)
        fprintf(stderr, "\naxis(%g, %g, %d): got %g..%g step %g, %d ticks, %d decimals\n", min, max,
                max_ticks, a.lo, a.hi, a.step, a.nticks, a.decimals);
    CU_ASSERT_TRUE(ok);
}

static void test_nice_axis(void) {
    expect_axis(0, 10, 11, 0, 10, 1, 11, 0);
    expect_axis(0, 7.3, 11, 0, 8, 1, 9, 0);
    expect_axis(0, 0.37, 6, 0, 0.4, 0.1, 5, 1);
    expect_axis(0.3, 9.7, 6, 0, 10, 2, 6, 0);
    /* Step 2 would need 0..10 = 6 ticks, one too many. */
    expect_axis(1, 9, 5, 0, 10, 5, 3, 0);
    expect_axis(-3, 7, 6, -5, 10, 5, 4, 0);
    expect_axis(0, 2000, 11, 0, 2000, 200, 11, 0);
    expect_axis(0, 2500, 11, 0, 2500, 500, 6, 0); /* 250 is not nice */
    expect_axis(0, 2500, 6, 0, 2500, 500, 6, 0);
    expect_axis(0, 0.0042, 6, 0, 0.005, 0.001, 6, 3);
    expect_axis(1e6, 1e6, 6, 9e5, 1.1e6, 5e4, 5, 0); /* one value: some room */
    expect_axis(0, 0, 6, 0, 1, 0.2, 6, 1);
    expect_axis(NAN, 3, 6, 0, 1, 0.2, 6, 1);
    expect_axis(10, 0, 11, 0, 10, 1, 11, 0); /* reversed bounds */
    expect_axis(-3, 2, 2, -5, 5, 5, 3, 0);   /* 2 ticks cannot hold 0: 3 */

    /* The promises, on many ranges. */
    GRand *rng = g_rand_new_with_seed(7);
    for (int i = 0; i < 2000; i++) {
        /* Ranges of 1e-12 .. 1e6, anywhere within 1000 widths of 0. */
        double width = g_rand_double_range(rng, 1e-3, 1) * pow(10, g_rand_int_range(rng, -9, 7));
        double min = g_rand_double_range(rng, -1000, 1000) * width;
        double max = min + width;
        int max_ticks = g_rand_int_range(rng, 3, 15);
        out_tl_axis a = out_tl_nice_axis(min, max, max_ticks);
        double mantissa = a.step / pow(10, floor(log10(a.step) + 1e-9));
        bool nice =
            fabs(mantissa - 1) < 1e-9 || fabs(mantissa - 2) < 1e-9 || fabs(mantissa - 5) < 1e-9;
        bool covers = a.lo <= min + 1e-9 * a.step && a.hi >= max - 1e-9 * a.step;
        bool count = a.nticks >= 2 && a.nticks <= max_ticks &&
                     fabs((a.hi - a.lo) / a.step + 1 - a.nticks) < 1e-3;
        /* As many ticks as allowed: the next smaller nice step would not
         * fit (or the range is covered by 2 ticks). */
        if (!(nice && covers && count))
            fprintf(stderr, "\naxis(%.17g, %.17g, %d) = %g..%g step %g n %d\n", min, max, max_ticks,
                    a.lo, a.hi, a.step, a.nticks);
        CU_ASSERT_TRUE(nice && covers && count);
        if (!(nice && covers && count))
            break;
    }
    g_rand_free(rng);
}

static void expect_quantity(double v, const char *unit, const char *want) {
    char *got = out_tl_format_quantity(v, unit);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\n%g %s: expected \"%s\", got \"%s\"\n", v, unit ? unit : "(null)", want,
                got);
    CU_ASSERT_STRING_EQUAL(got, want);
    g_free(got);
}

static void test_units(void) {
    double u = 0;
    CU_ASSERT_STRING_EQUAL(out_tl_time_unit(2.5, &u), "s");
    CU_ASSERT_EQUAL(u, 1.0);
    CU_ASSERT_STRING_EQUAL(out_tl_time_unit(1.0, &u), "s");
    CU_ASSERT_STRING_EQUAL(out_tl_time_unit(0.0025, &u), "ms");
    CU_ASSERT_EQUAL(u, 1e-3);
    CU_ASSERT_STRING_EQUAL(out_tl_time_unit(10 * US, &u), "\xc2\xb5s");
    CU_ASSERT_EQUAL(u, 1e-6);
    CU_ASSERT_STRING_EQUAL(out_tl_time_unit(999e-9, &u), "ns");
    CU_ASSERT_EQUAL(u, 1e-9);
    CU_ASSERT_STRING_EQUAL(out_tl_time_unit(0, NULL), "ns");

    expect_quantity(2.5e-6, "s", "2.5 \xc2\xb5s");
    expect_quantity(1e10, "B/s", "10 GB/s");
    expect_quantity(1.25e9, "B/s", "1.25 GB/s");
    expect_quantity(0, "s", "0 s");
    expect_quantity(1.5e-3, "s", "1.5 ms");
    expect_quantity(2, "s", "2 s");
    expect_quantity(1234567, "B", "1.235 MB");
    expect_quantity(999.99996, "s", "1 ks"); /* rounds up into the next prefix */
    expect_quantity(-2e-9, "s", "-2 ns");
    expect_quantity(3e-15, "s", "0.003 ps"); /* smallest prefix */
    expect_quantity(0.25, NULL, "0.25");
    expect_quantity(1e10, "", "1e+10");
}

/* ---------------------------------------------------------------------- */
/* Chrome trace                                                            */

/* Two ranks: rank 0 computes 0..1.5 us then sends 1.5..4 us; rank 1
 * receives 0.5..4.2 us; one 1024-byte message sent at 2 us, arrived 4 us. */
static out_timeline *small_timeline(void) {
    out_timeline *t = out_tl_new(2);
    CU_ASSERT_TRUE(out_tl_add_span(t, 0, 0, 1.5 * US, ORDEX_TL_COMPUTE, "compute"));
    CU_ASSERT_TRUE(out_tl_add_span(t, 0, 1.5 * US, 4 * US, ORDEX_TL_SEND, "MPI_Send"));
    CU_ASSERT_TRUE(out_tl_add_span(t, 1, 0.5 * US, 4.2 * US, ORDEX_TL_RECV, "MPI_Recv"));
    CU_ASSERT_TRUE(out_tl_add_message(t, 0, 1, 2 * US, 4 * US, 1024));
    return t;
}

static char *write_chrome_text(const out_timeline *t, const char *name) {
    char *path = tmp_path(name);
    GError *e = NULL;
    bool ok = out_tl_write_chrome(t, path, &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_PTR_NULL(e);
    g_clear_error(&e);
    char *text = slurp(path);
    g_free(path);
    return text;
}

static void test_chrome_events(void) {
    out_timeline *t = small_timeline();
    char *text = write_chrome_text(t, "small.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(json_valid(text));
    CU_ASSERT_TRUE(g_str_has_prefix(text, "{\"traceEvents\":[\n"));
    CU_ASSERT_TRUE(g_str_has_suffix(text, "],\n\"displayTimeUnit\":\"ns\"}\n"));

    CONTAINS(text, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
                   "\"args\":{\"name\":\"rank 0\"}}");
    CONTAINS(text, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":1,"
                   "\"args\":{\"name\":\"rank 1\"}}");
    CONTAINS(text, "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":1,"
                   "\"args\":{\"sort_index\":1}}");
    CONTAINS(text, "{\"name\":\"compute\",\"cat\":\"compute\",\"ph\":\"X\",\"ts\":0,\"dur\":1.5,"
                   "\"pid\":0,\"tid\":0}");
    CONTAINS(text, "{\"name\":\"MPI_Send\",\"cat\":\"send\",\"ph\":\"X\",\"ts\":1.5,\"dur\":2.5,"
                   "\"pid\":0,\"tid\":0}");
    CONTAINS(text, "{\"name\":\"MPI_Recv\",\"cat\":\"recv\",\"ph\":\"X\",\"ts\":0.5,\"dur\":3.7,"
                   "\"pid\":0,\"tid\":1}");
    CONTAINS(text, "{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":1,\"ts\":2,"
                   "\"pid\":0,\"tid\":0,\"args\":{\"bytes\":1024,\"src\":0,\"dst\":1}}");
    CONTAINS(text, "{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":1,"
                   "\"ts\":4,\"pid\":0,\"tid\":1,\"args\":{\"bytes\":1024,\"src\":0,\"dst\":1}}");
    /* process name, 2 x (thread name, sort index), 3 spans, 2 flow ends */
    CU_ASSERT_EQUAL(count_of(text, "\"ph\":"), 1 + 4 + 3 + 2);
    CU_ASSERT_EQUAL(count_of(text, "\n{"), 1 + 4 + 3 + 2); /* one event a line */
    g_free(text);

    /* A rank label replaces "rank N"; long and tiny times stay exact. */
    CU_ASSERT_TRUE(out_tl_set_rank_label(t, 1, "rank 1 (node1)"));
    CU_ASSERT_TRUE(out_tl_add_span(t, 1, 12.345678901234, 12.5, ORDEX_TL_WAIT, "MPI_Wait"));
    CU_ASSERT_TRUE(out_tl_add_span(t, 1, 13, 13 + 3e-11, ORDEX_TL_OTHER, "MPI_Comm_rank"));
    text = write_chrome_text(t, "small2.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(json_valid(text));
    CONTAINS(text, "\"tid\":1,\"args\":{\"name\":\"rank 1 (node1)\"}}");
    CONTAINS(text, "\"ts\":12345678.901234,\"dur\":154321.098766,");
    CONTAINS(text, "\"ts\":13000000,\"dur\":0.00003,"); /* to the picosecond */
    g_free(text);
    out_tl_free(t);
}

static void test_chrome_escaping(void) {
    out_timeline *t = out_tl_new(1);
    /* Names come from user programs: quotes, backslashes, control
     * characters and bytes that are not UTF-8. */
    CU_ASSERT_TRUE(out_tl_add_span(t, 0, 0, 1 * US, ORDEX_TL_COMPUTE,
                                   "a\"b\\c\nd\x01"
                                   "e\tf\x1f/\xff"
                                   "\xc3\xa9"));
    CU_ASSERT_TRUE(out_tl_set_rank_label(t, 0, "node \"x\"\r"));
    char *text = write_chrome_text(t, "escape.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(json_valid(text));
    CONTAINS(text, "{\"name\":\"a\\\"b\\\\c\\nd\\u0001e\\tf\\u001f/\xef\xbf\xbd\xc3\xa9\",");
    CONTAINS(text, "\"args\":{\"name\":\"node \\\"x\\\"\\r\"}}");
    g_free(text);
    out_tl_free(t);
}

static void test_chrome_empty(void) {
    out_timeline *t = out_tl_new(0);
    char *text = write_chrome_text(t, "empty.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(json_valid(text));
    CU_ASSERT_EQUAL(count_of(text, "\"ph\":"), 1);
    g_free(text);
    out_tl_free(t);
}

/* ---------------------------------------------------------------------- */
/* Gantt SVG                                                               */

static doc *write_svg_doc(const out_timeline *t, const char *name, const char *title) {
    char *path = tmp_path(name);
    GError *e = NULL;
    bool ok = out_tl_write_svg(t, path, title, &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_TRUE(ok);
    g_clear_error(&e);
    doc *d = ok ? parse_svg(path) : NULL;
    g_free(path);
    return d;
}

/* The x positions of the grid lines (one per tick), left to right. */
static GArray *grid_xs(const doc *d) {
    GArray *xs = g_array_new(FALSE, FALSE, sizeof(double));
    GPtrArray *lines = select_elems(d, "axis", "line");
    for (guint i = 0; i < lines->len; i++) {
        const elem *e = g_ptr_array_index(lines, i);
        if (strcmp(str_attr(e, "class"), "grid") == 0) {
            double x = num_attr(e, "x1");
            g_array_append_val(xs, x);
        }
    }
    g_ptr_array_free(lines, TRUE);
    return xs;
}

static void test_svg_layout(void) {
    /* 10 us makespan: the axis is 0..10 us in steps of 1 us. */
    out_timeline *t = out_tl_new(2);
    CU_ASSERT_TRUE(out_tl_add_span(t, 0, 0, 2 * US, ORDEX_TL_COMPUTE, "compute"));
    CU_ASSERT_TRUE(out_tl_add_span(t, 0, 2 * US, 4 * US, ORDEX_TL_SEND, "MPI_Send"));
    CU_ASSERT_TRUE(out_tl_add_span(t, 1, 1 * US, 10 * US, ORDEX_TL_RECV, "MPI_Recv"));
    CU_ASSERT_TRUE(out_tl_add_message(t, 0, 1, 3 * US, 9 * US, 8));
    doc *d = write_svg_doc(t, "layout.svg", "stencil, 2 ranks");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);

    GArray *xs = grid_xs(d);
    CU_ASSERT_EQUAL_FATAL(xs->len, 11);
    double x0 = g_array_index(xs, double, 0), x10 = g_array_index(xs, double, 10);
    double w = x10 - x0; /* px for 10 us */
    CU_ASSERT_TRUE(x0 > 0 && w > 500);
    for (guint i = 0; i < xs->len; i++) /* evenly spaced */
        CU_ASSERT_DOUBLE_EQUAL(g_array_index(xs, double, i), x0 + w * i / 10, 0.011);
    g_array_free(xs, TRUE);

    /* Tick labels: "0", "1 µs", ... "10 µs". */
    GPtrArray *texts = select_elems(d, "axis", "text");
    CU_ASSERT_EQUAL(texts->len, 11);
    if (texts->len == 11) {
        CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(texts, 0))->text->str, "0");
        CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(texts, 1))->text->str, "1 \xc2\xb5s");
        CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(texts, 10))->text->str, "10 \xc2\xb5s");
    }
    g_ptr_array_free(texts, TRUE);

    GPtrArray *rects = select_elems(d, "spans", "rect");
    CU_ASSERT_EQUAL_FATAL(rects->len, 3);
    const elem *compute = NULL, *send = NULL, *recv = NULL;
    for (guint i = 0; i < rects->len; i++) {
        const elem *e = g_ptr_array_index(rects, i);
        const char *cls = str_attr(e, "class");
        if (strcmp(cls, "k0") == 0)
            compute = e;
        else if (strcmp(cls, "k1") == 0)
            send = e;
        else if (strcmp(cls, "k2") == 0)
            recv = e;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(compute);
    CU_ASSERT_PTR_NOT_NULL_FATAL(send);
    CU_ASSERT_PTR_NOT_NULL_FATAL(recv);
    /* MPI_Send from 2 to 4 us: 20% .. 40% of the axis. */
    CU_ASSERT_DOUBLE_EQUAL(num_attr(send, "x"), x0 + 0.2 * w, 0.011);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(send, "width"), 0.2 * w, 0.011);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(compute, "x"), x0, 0.011);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(recv, "x"), x0 + 0.1 * w, 0.011);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(recv, "width"), 0.9 * w, 0.011);
    /* Rows of 20 px for few ranks; same row for one rank's spans. */
    CU_ASSERT_DOUBLE_EQUAL(num_attr(compute, "y"), num_attr(send, "y"), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(recv, "y") - num_attr(send, "y"), 20, 1e-9);
    CU_ASSERT_STRING_EQUAL(title_of(d, send),
                           "rank 0: MPI_Send, 2 \xc2\xb5s to 4 \xc2\xb5s (2 \xc2\xb5s)");
    g_ptr_array_free(rects, TRUE);

    /* The message: from rank 0's row at 3 us to rank 1's at 9 us. */
    GPtrArray *lines = select_elems(d, "messages", "line");
    CU_ASSERT_EQUAL_FATAL(lines->len, 1);
    const elem *m = g_ptr_array_index(lines, 0);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(m, "x1"), x0 + 0.3 * w, 0.011);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(m, "x2"), x0 + 0.9 * w, 0.011);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(m, "y2") - num_attr(m, "y1"), 20, 1e-9);
    g_ptr_array_free(lines, TRUE);

    /* Legend: the three kinds present, in order; labels: both ranks. */
    GPtrArray *legend = select_elems(d, "legend", "text");
    CU_ASSERT_EQUAL_FATAL(legend->len, 3);
    CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(legend, 0))->text->str, "compute");
    CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(legend, 1))->text->str, "send");
    CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(legend, 2))->text->str, "recv");
    g_ptr_array_free(legend, TRUE);
    CU_ASSERT_EQUAL(count_elems(d, "legend", "rect"), 3);
    CU_ASSERT_EQUAL(count_elems(d, "labels", "text"), 2);
    doc_free(d);
    out_tl_free(t);
}

/* Time in MPI_Sendrecv (mostly waiting for its message) has a colour and a
 * legend entry of its own, neither a send's nor a receive's. */
static void test_svg_sendrecv_legend(void) {
    out_timeline *t = out_tl_new(2);
    CU_ASSERT_TRUE(out_tl_add_span(t, 0, 0, 2 * US, ORDEX_TL_COMPUTE, "compute"));
    CU_ASSERT_TRUE(
        out_tl_add_span(t, 0, 2 * US, 6 * US, out_tl_kind_of_call("MPI_Sendrecv"), "MPI_Sendrecv"));
    CU_ASSERT_TRUE(out_tl_add_span(t, 1, 0, 3 * US, out_tl_kind_of_call("MPI_Send"), "MPI_Send"));
    doc *d = write_svg_doc(t, "sendrecv.svg", "exchange, 2 ranks");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    GPtrArray *legend = select_elems(d, "legend", "text");
    CU_ASSERT_EQUAL_FATAL(legend->len, 3);
    CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(legend, 0))->text->str, "compute");
    CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(legend, 1))->text->str, "send");
    CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(legend, 2))->text->str, "sendrecv");
    g_ptr_array_free(legend, TRUE);
    /* The legend's boxes and the spans share one class per kind, and the
     * Sendrecv's is not the send's. */
    GPtrArray *boxes = select_elems(d, "legend", "rect");
    CU_ASSERT_EQUAL_FATAL(boxes->len, 3);
    const char *send_cls = str_attr(g_ptr_array_index(boxes, 1), "class");
    const char *sr_cls = str_attr(g_ptr_array_index(boxes, 2), "class");
    CU_ASSERT_STRING_NOT_EQUAL(send_cls, sr_cls);
    GPtrArray *rects = select_elems(d, "spans", "rect");
    int with_sr = 0;
    for (guint i = 0; i < rects->len; i++)
        with_sr += strcmp(str_attr(g_ptr_array_index(rects, i), "class"), sr_cls) == 0;
    CU_ASSERT_EQUAL(with_sr, 1);
    g_ptr_array_free(rects, TRUE);
    g_ptr_array_free(boxes, TRUE);
    doc_free(d);
    out_tl_free(t);
}

static void test_svg_escaping(void) {
    static const char *const title = "<b>&amp; \"quoted\" 'x'\x01\xff";
    out_timeline *t = out_tl_new(2);
    CU_ASSERT_TRUE(out_tl_set_rank_label(t, 0, "rank 0 <node&1>"));
    CU_ASSERT_TRUE(
        out_tl_add_span(t, 0, 0, 1 * US, ORDEX_TL_OTHER, "my_call<int>(\"a&b\")\x02\x7f"));
    CU_ASSERT_TRUE(out_tl_set_rank_label(
        t, 1, "a label far longer than anything a row label should ever show in the chart"));
    doc *d = write_svg_doc(t, "escape.svg", title);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    /* Parsed back, the text is what was given, with the characters XML
     * cannot hold replaced by U+FFFD. */
    GPtrArray *texts = select_elems(d, NULL, "text");
    bool title_found = false;
    for (guint i = 0; i < texts->len; i++)
        if (strcmp(((elem *)g_ptr_array_index(texts, i))->text->str,
                   "<b>&amp; \"quoted\" 'x'\xef\xbf\xbd\xef\xbf\xbd") == 0)
            title_found = true;
    CU_ASSERT_TRUE(title_found);
    g_ptr_array_free(texts, TRUE);
    GPtrArray *labels = select_elems(d, "labels", "text");
    CU_ASSERT_EQUAL_FATAL(labels->len, 2);
    CU_ASSERT_STRING_EQUAL(((elem *)g_ptr_array_index(labels, 0))->text->str, "rank 0 <node&1>");
    /* Long labels are cut to 40 characters, the last an ellipsis. */
    const char *cut = ((elem *)g_ptr_array_index(labels, 1))->text->str;
    CU_ASSERT_EQUAL(g_utf8_strlen(cut, -1), 40);
    CU_ASSERT_TRUE(g_str_has_suffix(cut, "\xe2\x80\xa6"));
    g_ptr_array_free(labels, TRUE);
    GPtrArray *rects = select_elems(d, "spans", "rect");
    CU_ASSERT_EQUAL_FATAL(rects->len, 1);
    CU_ASSERT_TRUE(g_str_has_prefix(title_of(d, g_ptr_array_index(rects, 0)),
                                    "rank 0: my_call<int>(\"a&b\")\xef\xbf\xbd\x7f, "));
    g_ptr_array_free(rects, TRUE);
    doc_free(d);
    out_tl_free(t);
}

/* Spans of n ns each, back to back from 0, kinds alternating over nkinds. */
static out_timeline *tiny_spans(int nranks, int n, int nkinds) {
    out_timeline *t = out_tl_new(nranks);
    for (int r = 0; r < nranks; r++)
        for (int i = 0; i < n; i++)
            out_tl_add_span(t, r, i * 1e-9, (i + 1) * 1e-9, (out_tl_kind)(i % nkinds), NULL);
    return t;
}

static void test_svg_merging(void) {
    /* 10000 spans of 1 ns over 10 us: 0.11 px each. */
    out_timeline *t = tiny_spans(1, 10000, 1);
    doc *d = write_svg_doc(t, "merge1.svg", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    GPtrArray *rects = select_elems(d, "spans", "rect");
    /* All of one kind and contiguous: a single rectangle over the run. */
    CU_ASSERT_EQUAL_FATAL(rects->len, 1);
    GArray *xs = grid_xs(d);
    double x0 = g_array_index(xs, double, 0), w = g_array_index(xs, double, xs->len - 1) - x0;
    const elem *one = g_ptr_array_index(rects, 0);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(one, "x"), x0, 0.011);
    CU_ASSERT_DOUBLE_EQUAL(num_attr(one, "width"), w, 0.011);
    CU_ASSERT_STRING_EQUAL(
        title_of(d, one),
        "rank 0: 10000 spans, mostly compute, 0 s to 10 \xc2\xb5s (10 \xc2\xb5s)");
    g_array_free(xs, TRUE);
    g_ptr_array_free(rects, TRUE);
    doc_free(d);
    out_tl_free(t);

    /* Alternating kinds: merged into pieces of about a pixel, each at most
     * a little over 1 px. */
    t = tiny_spans(1, 10000, 2);
    d = write_svg_doc(t, "merge2.svg", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    rects = select_elems(d, "spans", "rect");
    xs = grid_xs(d);
    w = g_array_index(xs, double, xs->len - 1) - g_array_index(xs, double, 0);
    CU_ASSERT_TRUE(rects->len >= w / 1.2 && rects->len <= w + 1);
    double covered = 0;
    for (guint i = 0; i < rects->len; i++) {
        double rw = num_attr(g_ptr_array_index(rects, i), "width");
        /* the last piece is what is left over */
        CU_ASSERT_TRUE((rw >= 0.99 || i == rects->len - 1) && rw < 1.3);
        covered += rw;
    }
    CU_ASSERT_DOUBLE_EQUAL(covered, w, 0.5 + 0.01 * rects->len);
    g_array_free(xs, TRUE);
    g_ptr_array_free(rects, TRUE);
    doc_free(d);
    out_tl_free(t);

    /* Ranks never merge with each other; a gap ends a run; a wide span
     * stays itself among tiny ones. */
    t = out_tl_new(2);
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 100; i++)
            out_tl_add_span(t, r, i * 1e-9, (i + 1) * 1e-9, ORDEX_TL_COMPUTE, NULL);
    out_tl_add_span(t, 0, 1e-6, 2e-6, ORDEX_TL_WAIT, "MPI_Wait");  /* wide */
    out_tl_add_span(t, 0, 2e-6, 2.001e-6, ORDEX_TL_COMPUTE, NULL); /* tiny, after it */
    out_tl_add_span(t, 0, 9e-6, 10e-6, ORDEX_TL_COMPUTE, NULL);    /* wide, after a gap */
    out_tl_add_span(t, 1, 5e-6, 5.001e-6, ORDEX_TL_COMPUTE, NULL); /* tiny, after a gap */
    d = write_svg_doc(t, "merge3.svg", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    /* rank 0: run, MPI_Wait, tiny, wide; rank 1: run, tiny */
    CU_ASSERT_EQUAL(count_elems(d, "spans", "rect"), 6);
    rects = select_elems(d, "spans", "rect");
    for (guint i = 0; i < rects->len; i++) /* tiny ones drawn at 0.5 px */
        CU_ASSERT_TRUE(num_attr(g_ptr_array_index(rects, i), "width") >= 0.5);
    g_ptr_array_free(rects, TRUE);
    doc_free(d);
    out_tl_free(t);
}

static void test_svg_large(void) {
    /* 1024 ranks x 100 steps of compute + allreduce over 0.1 s, and more
     * messages than are drawn. */
    enum { RANKS = 1024, STEPS = 100 };
    out_timeline *t = out_tl_new(RANKS);
    for (int r = 0; r < RANKS; r++) {
        char label[32];
        g_snprintf(label, sizeof label, "rank %d (node%d)", r, r / 16);
        out_tl_set_rank_label(t, r, label);
        for (int s = 0; s < STEPS; s++) {
            double t0 = s * 1e-3, c = t0 + 0.9e-3 - (r % 7) * 1e-5;
            out_tl_add_span(t, r, t0, c, ORDEX_TL_COMPUTE, "compute");
            out_tl_add_span(t, r, c, t0 + 1e-3, ORDEX_TL_COLLECTIVE, "MPI_Allreduce");
        }
    }
    for (int i = 0; i < 2 * RANKS; i++)
        out_tl_add_message(t, i % RANKS, (i + 1) % RANKS, i * 1e-5, i * 1e-5 + 2e-6, 8);
    char *path = tmp_path("large.svg");
    GError *e = NULL;
    CU_ASSERT_TRUE(out_tl_write_svg(t, path, "1024 ranks", &e));
    CU_ASSERT_PTR_NULL(e);
    g_clear_error(&e);
    GStatBuf st;
    CU_ASSERT_EQUAL_FATAL(g_stat(path, &st), 0);
    /* 204800 spans (each at least 1 px wide, so none merge): no tooltips,
     * and about 25 bytes a rectangle. */
    CU_ASSERT_TRUE(st.st_size < 6 * 1024 * 1024);
    doc *d = parse_svg(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(count_elems(d, "spans", "title"), 0);
    CU_ASSERT_EQUAL(count_elems(d, "spans", "rect"), 0);
    CU_ASSERT_EQUAL(count_elems(d, "messages", "line"), 0);
    /* One path per rank and kind, one subpath per span. */
    GPtrArray *paths = select_elems(d, "spans", "path");
    CU_ASSERT_EQUAL(paths->len, RANKS * 2);
    int subpaths = 0;
    for (guint i = 0; i < paths->len; i++)
        subpaths += count_of(str_attr(g_ptr_array_index(paths, i), "d"), "M");
    CU_ASSERT_EQUAL(subpaths, RANKS * STEPS * 2);
    if (paths->len == RANKS * 2) {
        /* rank 0's compute: the first step is 0..0.9 ms of a 100 ms axis,
         * on a 3 px row. */
        const elem *p0 = g_ptr_array_index(paths, 0);
        CU_ASSERT_STRING_EQUAL(str_attr(p0, "class"), "k0");
        double x, y, w, h, w2;
        CU_ASSERT_EQUAL(sscanf(str_attr(p0, "d"), "M%lf %lfh%lfv%lfh-%lfz", &x, &y, &w, &h, &w2),
                        5);
        GArray *xs = grid_xs(d);
        double x0 = g_array_index(xs, double, 0), pw = g_array_index(xs, double, xs->len - 1) - x0;
        CU_ASSERT_DOUBLE_EQUAL(x, x0, 0.011);
        CU_ASSERT_DOUBLE_EQUAL(w, pw * 0.009, 0.011);
        CU_ASSERT_EQUAL(w, w2);
        CU_ASSERT_EQUAL(h, 3);
        g_array_free(xs, TRUE);
    }
    g_ptr_array_free(paths, TRUE);
    /* 3 px rows, labels on every 5th. */
    GPtrArray *labels = select_elems(d, "labels", "text");
    CU_ASSERT_EQUAL(labels->len, (RANKS + 4) / 5);
    if (labels->len >= 2) {
        const elem *l0 = g_ptr_array_index(labels, 0), *l1 = g_ptr_array_index(labels, 1);
        CU_ASSERT_DOUBLE_EQUAL(num_attr(l1, "y") - num_attr(l0, "y"), 15, 1e-9);
        CU_ASSERT_STRING_EQUAL(l1->text->str, "rank 5 (node0)");
    }
    g_ptr_array_free(labels, TRUE);
    doc_free(d);

    char *text = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CONTAINS(text, "1024 ranks, makespan 100 ms, 2048 messages (not drawn: more than 2000)");
    g_free(text);
    g_free(path);
    out_tl_free(t);
}

static void test_svg_empty(void) {
    out_timeline *t = out_tl_new(0);
    doc *d = write_svg_doc(t, "empty.svg", "");
    CU_ASSERT_PTR_NOT_NULL(d);
    if (d)
        CU_ASSERT_EQUAL(count_elems(d, "spans", "rect"), 0);
    doc_free(d);
    out_tl_free(t);
}

/* ---------------------------------------------------------------------- */
/* Sweep plot                                                              */

static doc *write_sweep_doc(const out_sweep_series *s, int n, const char *name) {
    char *path = tmp_path(name);
    GError *e = NULL;
    bool ok = out_tl_write_sweep_svg(s, n, path, "sensitivity", &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_TRUE(ok);
    g_clear_error(&e);
    doc *d = ok ? parse_svg(path) : NULL;
    g_free(path);
    return d;
}

static int count_class(const doc *d, const char *name, const char *cls) {
    GPtrArray *a = select_elems(d, NULL, name);
    int n = 0;
    for (guint i = 0; i < a->len; i++)
        if (strcmp(str_attr(g_ptr_array_index(a, i), "class"), cls) == 0)
            n++;
    g_ptr_array_free(a, TRUE);
    return n;
}

static bool has_text(const doc *d, const char *want) {
    GPtrArray *a = select_elems(d, NULL, "text");
    bool found = false;
    for (guint i = 0; i < a->len; i++)
        if (strcmp(((elem *)g_ptr_array_index(a, i))->text->str, want) == 0)
            found = true;
    g_ptr_array_free(a, TRUE);
    if (!found)
        fprintf(stderr, "\nno text \"%s\"\n", want);
    return found;
}

static void test_sweep_panels(void) {
    /* Bandwidth over 100x (log axis), given out of order; latency linear. */
    static const double bw_x[] = {1e11, 1e9, 1e10};
    static const double bw_y[] = {1.0e-3, 3.0e-3, 1.2e-3};
    static const char *const bw_labels[] = {"100GBps", "1GBps", "10GBps"};
    static const double lat_x[] = {1e-6, 2e-6, 3e-6, NAN};
    static const double lat_y[] = {1.1e-3, 1.3e-3, 1.5e-3, 1.0};
    const out_sweep_series s[] = {
        {"network.bandwidth", "B/s", 3, bw_x, bw_y, bw_labels},
        {"network.latency", "s", 4, lat_x, lat_y, NULL},
    };
    doc *d = write_sweep_doc(s, 2, "sweep2.svg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(count_class(d, "g", "panel"), 2); /* different units */
    CU_ASSERT_EQUAL(count_elems(d, NULL, "polyline"), 2);
    CU_ASSERT_EQUAL(count_elems(d, NULL, "circle"), 6); /* the NaN point is left out */
    CU_ASSERT_TRUE(has_text(d, "sensitivity"));
    CU_ASSERT_TRUE(has_text(d, "network.bandwidth (B/s)"));
    CU_ASSERT_TRUE(has_text(d, "network.latency (s)"));
    /* Ticks at the points, as written; missing labels printed with a
     * prefix. */
    CU_ASSERT_TRUE(has_text(d, "1GBps"));
    CU_ASSERT_TRUE(has_text(d, "10GBps"));
    CU_ASSERT_TRUE(has_text(d, "100GBps"));
    CU_ASSERT_TRUE(has_text(d, "1 \xc2\xb5s"));
    CU_ASSERT_TRUE(has_text(d, "3 \xc2\xb5s"));

    GPtrArray *c = select_elems(d, NULL, "circle");
    CU_ASSERT_EQUAL_FATAL(c->len, 6);
    /* Bandwidth: sorted by x, equally spaced on the log axis; time falls
     * as bandwidth grows. */
    double x1 = num_attr(g_ptr_array_index(c, 0), "cx"),
           x2 = num_attr(g_ptr_array_index(c, 1), "cx"),
           x3 = num_attr(g_ptr_array_index(c, 2), "cx");
    CU_ASSERT_TRUE(x1 < x2 && x2 < x3);
    CU_ASSERT_DOUBLE_EQUAL(x2 - x1, x3 - x2, 0.02);
    double y1 = num_attr(g_ptr_array_index(c, 0), "cy"),
           y3 = num_attr(g_ptr_array_index(c, 2), "cy");
    CU_ASSERT_TRUE(y1 < y3); /* 3 ms is higher up than 1 ms */
    CU_ASSERT_STRING_EQUAL(title_of(d, g_ptr_array_index(c, 0)), "network.bandwidth = 1GBps: 3 ms");
    /* Latency: 1, 2, 3 us evenly spaced on a linear axis. */
    double l1 = num_attr(g_ptr_array_index(c, 3), "cx"),
           l2 = num_attr(g_ptr_array_index(c, 4), "cx"),
           l3 = num_attr(g_ptr_array_index(c, 5), "cx");
    CU_ASSERT_DOUBLE_EQUAL(l2 - l1, l3 - l2, 0.02);
    /* The y axis is shared: 1.1 ms sits at the same height in both panels
     * as it would on one axis; 1 ms (bandwidth) below 1.1 ms (latency). */
    double yb3 = num_attr(g_ptr_array_index(c, 2), "cy"),
           yl1 = num_attr(g_ptr_array_index(c, 3), "cy");
    CU_ASSERT_TRUE(yb3 > yl1);
    g_ptr_array_free(c, TRUE);
    doc_free(d);
}

static void test_sweep_shared_panel(void) {
    static const double a_x[] = {1e-6, 1e-5, 1e-4};
    static const double a_y[] = {1e-3, 2e-3, 9e-3};
    static const double b_x[] = {1e-7, 1e-6};
    static const double b_y[] = {1e-3, 1.5e-3};
    const out_sweep_series s[] = {
        {"network.latency", "s", 3, a_x, a_y, NULL},
        {"network.send_overhead", "s", 2, b_x, b_y, NULL},
    };
    doc *d = write_sweep_doc(s, 2, "sweep_shared.svg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(count_class(d, "g", "panel"), 1);
    CU_ASSERT_EQUAL(count_elems(d, NULL, "polyline"), 2);
    CU_ASSERT_EQUAL(count_elems(d, NULL, "circle"), 5);
    CU_ASSERT_TRUE(has_text(d, "network.latency, network.send_overhead (s)"));
    /* A legend entry per series, and decade ticks 100 ns .. 100 us. */
    CU_ASSERT_TRUE(has_text(d, "network.latency"));
    CU_ASSERT_TRUE(has_text(d, "network.send_overhead"));
    CU_ASSERT_TRUE(has_text(d, "100 ns"));
    CU_ASSERT_TRUE(has_text(d, "1 \xc2\xb5s"));
    CU_ASSERT_TRUE(has_text(d, "100 \xc2\xb5s"));
    doc_free(d);

    /* Nothing swept, and a series without data: still a valid file. */
    d = write_sweep_doc(NULL, 0, "sweep_none.svg");
    CU_ASSERT_PTR_NOT_NULL(d);
    doc_free(d);
    const out_sweep_series empty = {"cluster.speed", NULL, 0, NULL, NULL, NULL};
    d = write_sweep_doc(&empty, 1, "sweep_empty.svg");
    CU_ASSERT_PTR_NOT_NULL(d);
    if (d)
        CU_ASSERT_EQUAL(count_elems(d, NULL, "circle"), 0);
    doc_free(d);
}

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */

/* ok and e: what a writer returned; the error must name the path and the
 * system's reason. */
static void expect_write_error(bool ok, GError *e, const char *path, int code, int err) {
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->domain, G_FILE_ERROR);
    CU_ASSERT_EQUAL(e->code, code);
    char *want = g_strdup_printf("cannot write %s: %s", path, g_strerror(err));
    if (strcmp(e->message, want) != 0)
        fprintf(stderr, "\nexpected: %s\n     got: %s\n", want, e->message);
    CU_ASSERT_STRING_EQUAL(e->message, want);
    g_free(want);
    g_error_free(e);
}

static void test_unwritable(void) {
    char *dir = tmp_path("no-such-dir");
    char *path = g_build_filename(dir, "out.json", NULL);
    out_timeline *t = small_timeline();
    static const double x[] = {1e-6}, y[] = {1e-3};
    const out_sweep_series s = {"network.latency", "s", 1, x, y, NULL};
    GError *e = NULL;
    bool ok;

    ok = out_tl_write_chrome(t, path, &e);
    expect_write_error(ok, e, path, G_FILE_ERROR_NOENT, ENOENT);
    e = NULL;
    ok = out_tl_write_svg(t, path, NULL, &e);
    expect_write_error(ok, e, path, G_FILE_ERROR_NOENT, ENOENT);
    e = NULL;
    ok = out_tl_write_sweep_svg(&s, 1, path, NULL, &e);
    expect_write_error(ok, e, path, G_FILE_ERROR_NOENT, ENOENT);
    e = NULL;
    CU_ASSERT_FALSE(g_file_test(path, G_FILE_TEST_EXISTS));
    /* A directory cannot be written either. */
    ok = out_tl_write_chrome(t, tmpdir, &e);
    expect_write_error(ok, e, tmpdir, G_FILE_ERROR_ISDIR, EISDIR);
    e = NULL;
    CU_ASSERT_TRUE(g_file_test(tmpdir, G_FILE_TEST_IS_DIR));

    /* A write that fails after the open (disk full): reported, and the
     * device is not removed. */
    FILE *probe = fopen("/dev/full", "w");
    if (probe) {
        fclose(probe);
        ok = out_tl_write_chrome(t, "/dev/full", &e);
        expect_write_error(ok, e, "/dev/full", G_FILE_ERROR_NOSPC, ENOSPC);
        e = NULL;
        CU_ASSERT_TRUE(g_file_test("/dev/full", G_FILE_TEST_EXISTS));
    }
    out_tl_free(t);
    g_free(path);
    g_free(dir);
}

static void remove_tree(const char *dir) {
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, name, NULL);
        g_remove(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

int main(void) {
    static const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"JSON checker rejects bad JSON", test_json_checker},
        {"data model", test_model},
        {"kind names", test_kind_names},
        {"kind of MPI call", test_kind_of_call},
        {"nice axis", test_nice_axis},
        {"time units and quantities", test_units},
        {"Chrome trace events", test_chrome_events},
        {"Chrome trace escaping", test_chrome_escaping},
        {"Chrome trace of no ranks", test_chrome_empty},
        {"SVG layout and coordinates", test_svg_layout},
        {"SVG: MPI_Sendrecv has a colour and legend entry", test_svg_sendrecv_legend},
        {"SVG escaping", test_svg_escaping},
        {"SVG merging of tiny spans", test_svg_merging},
        {"SVG of 1024 ranks", test_svg_large},
        {"SVG of no ranks", test_svg_empty},
        {"sweep: a panel per unit", test_sweep_panels},
        {"sweep: shared panel, empty sweeps", test_sweep_shared_panel},
        {"unwritable paths", test_unwritable},
    };
    tmpdir = g_dir_make_tmp("ordex-timeline-XXXXXX", NULL);
    if (!tmpdir)
        return 2;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = CU_add_suite("timeline", NULL, NULL);
    if (!suite) {
        CU_cleanup_registry();
        return 2;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(tests); i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn)) {
            CU_cleanup_registry();
            return 2;
        }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    remove_tree(tmpdir);
    g_free(tmpdir);
    return failed == 0 ? 0 : 1;
}
