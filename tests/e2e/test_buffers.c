/*
 * test_buffers.c - buffers checked against the memory object they point
 * into: every program tests/programs/buf_*.c is one test, named after the
 * file, so that adding a program adds a test.
 *
 * Each program says what ordex must find in a comment that starts with
 * "ordex-expect:" (the comment may span lines):
 *
 *   ranks=N past=A object=NAME bytes=K     the call on the line marked "[A]"
 *                                          (in a comment) reaches K bytes past
 *                                          the end of the object
 *   ranks=N before=A object=NAME bytes=K   ... starts K bytes before it
 *   ranks=N type=A object=NAME byte=K types=MPI,C
 *                                          a basic element of type MPI lies on
 *                                          byte K of the object, whose C type
 *                                          there is C ('+' for a space:
 *                                          long+int; "padding": in a struct's
 *                                          padding)
 *   ranks=N overlap=A byte=K               the receive type's entries overlap
 *                                          at byte K of the buffer
 *   ranks=N overlap=A byte=K blocks=I,J    blocks I and J of a v or w
 *                                          collective's receive buffer overlap
 *                                          at byte K of it
 *   ranks=N clean                          no finding at all
 *
 * NAME is a variable's name, or heap:SIZE for a heap block of SIZE bytes.
 *
 * `ordex run -n N --json` must then give exit status 1, exactly one
 * finding, an MPI error located at the marked line whose message names the
 * object (`NAME`, or "a heap block of SIZE bytes") and the byte count; a
 * type mismatch is also run with --type-check=warn (exit status 0, the same
 * text as one warning of kind type_mismatch) and --type-check=off (clean),
 * and every error with --buffer-checks=off must not report it.  A clean
 * program: exit status 0 and no finding or warning, also under
 * `ordex explore`.
 *
 * No false alarms: every other program of the repository (examples/,
 * tests/programs/, the MPI programs of bench/) is run with the checks on,
 * and no finding may come from them, whatever else the program does.
 */
#include <CUnit/CUnit.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define PROGRAMS "tests/programs"

typedef enum what { W_CLEAN, W_PAST, W_BEFORE, W_TYPE, W_OVERLAP } what;

typedef struct buf_case {
    char *file;  /* base name, the test's name */
    char *ranks; /* N of -n N */
    what what;
    char *mark;
    char *object; /* NAME, or heap:SIZE */
    long bytes;   /* bytes= or byte= */
    char *types;  /* "MPI,C" */
    char *blocks; /* "I,J", or NULL */
    char *header_error;
} buf_case;

static GHashTable *cases; /* file -> buf_case */

static void case_free(gpointer p) {
    buf_case *c = p;
    g_free(c->file);
    g_free(c->ranks);
    g_free(c->mark);
    g_free(c->object);
    g_free(c->types);
    g_free(c->blocks);
    g_free(c->header_error);
    g_free(c);
}

static bool number(const char *s, long *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0)
        return false;
    *out = v;
    return true;
}

static void parse_case(buf_case *c, const char *src) {
    char *text = e2e_expect_text(src);
    if (!text) {
        c->header_error = g_strdup("no \"ordex-expect:\" comment");
        return;
    }
    static const struct {
        const char *key;
        what w;
    } kinds[] = {
        {"past=", W_PAST}, {"before=", W_BEFORE}, {"type=", W_TYPE}, {"overlap=", W_OVERLAP}};
    char **words = g_strsplit_set(text, " \t", -1);
    bool kind = false, has_bytes = false;
    for (int i = 0; words[i] && !c->header_error; i++) {
        const char *w = words[i];
        bool known = false;
        if (!*w)
            continue;
        for (size_t k = 0; k < G_N_ELEMENTS(kinds) && !known; k++)
            if (g_str_has_prefix(w, kinds[k].key) && !kind) {
                c->what = kinds[k].w;
                c->mark = g_strdup(w + strlen(kinds[k].key));
                kind = known = true;
            }
        if (known)
            continue;
        if (g_str_has_prefix(w, "ranks=") && atoi(w + 6) > 0 && !c->ranks)
            c->ranks = g_strdup(w + 6);
        else if (strcmp(w, "clean") == 0 && !kind)
            c->what = W_CLEAN, kind = true;
        else if (g_str_has_prefix(w, "object=") && !c->object)
            c->object = g_strdup(w + 7);
        else if ((g_str_has_prefix(w, "bytes=") || g_str_has_prefix(w, "byte=")) && !has_bytes)
            has_bytes = number(strchr(w, '=') + 1, &c->bytes);
        else if (g_str_has_prefix(w, "types=") && strchr(w, ',') && !c->types)
            c->types = g_strdup(w + 6);
        else if (g_str_has_prefix(w, "blocks=") && strchr(w, ',') && !c->blocks)
            c->blocks = g_strdup(w + 7);
        else
            c->header_error = g_strdup_printf("\"%s\" is not understood", w);
    }
    g_strfreev(words);
    g_free(text);
    if (c->header_error)
        return;
    if (!c->ranks || !kind)
        c->header_error = g_strdup("it needs ranks=N and one of past=, before=, type=, "
                                   "overlap= or clean");
    else if (c->what != W_CLEAN && !has_bytes)
        c->header_error = g_strdup("bytes=K (or byte=K) is missing");
    else if ((c->what == W_PAST || c->what == W_BEFORE || c->what == W_TYPE) && !c->object)
        c->header_error = g_strdup("object= is missing");
    else if (c->what == W_TYPE && !c->types)
        c->header_error = g_strdup("types=MPI,C is missing");
}

/* What the message must hold: the object and the byte count. */
static GPtrArray *wanted(const buf_case *c) {
    GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
    if (c->object && g_str_has_prefix(c->object, "heap:"))
        g_ptr_array_add(w, g_strdup_printf("a heap block of %s bytes", c->object + 5));
    else if (c->object)
        g_ptr_array_add(w, g_strdup_printf("`%s`", c->object));
    switch (c->what) {
    case W_PAST:
        g_ptr_array_add(w, g_strdup_printf("reaches %ld bytes past the end of", c->bytes));
        break;
    case W_BEFORE:
        g_ptr_array_add(w, g_strdup_printf("starts %ld bytes before", c->bytes));
        break;
    case W_TYPE: {
        g_ptr_array_add(w, g_strdup_printf("is byte %ld of", c->bytes));
        char *spaced = g_strdelimit(g_strdup(c->types), "+", ' ');
        char **t = g_strsplit(spaced, ",", 2);
        g_ptr_array_add(w, g_strdup_printf(", an %s", t[0])); /* MPI_ names take "an" */
        if (strcmp(t[1], "padding") == 0)                     /* no C type: a struct's padding */
            g_ptr_array_add(w, g_strdup("padding of `"));
        else
            g_ptr_array_add(w, g_strdup_printf("|`, a %s|`, an %s", t[1], t[1]));
        g_strfreev(t);
        g_free(spaced);
        break;
    }
    case W_OVERLAP:
        if (c->blocks) {
            char **ij = g_strsplit(c->blocks, ",", 2);
            g_ptr_array_add(w, g_strdup_printf("blocks %s and %s (", ij[0], ij[1]));
            g_strfreev(ij);
        }
        g_ptr_array_add(w, g_strdup_printf("byte %ld of it belongs to two", c->bytes));
        break;
    default:
        break;
    }
    return w;
}

/* Whether msg holds part; a part that starts with '|' holds alternatives
 * ("|x|y": x or y). */
static bool holds(const char *msg, const char *part) {
    if (!msg)
        return false;
    if (part[0] != '|')
        return strstr(msg, part) != NULL;
    char **alts = g_strsplit(part + 1, "|", -1);
    bool any = false;
    for (int i = 0; alts[i] && !any; i++)
        any = strstr(msg, alts[i]) != NULL;
    g_strfreev(alts);
    return any;
}

static void expect_message(const e2e_result *r, const char *msg, GPtrArray *w) {
    for (guint i = 0; i < w->len; i++) {
        const char *part = g_ptr_array_index(w, i);
        char *what = g_strdup_printf("the message holds \"%s\": \"%s\"", part, msg ? msg : "");
        e2e_check(holds(msg, part), r, what, __FILE__, __LINE__);
        g_free(what);
    }
}

/* One run: `status`, and exactly one finding of `kind` with `severity` at
 * file:line, holding every wanted text; or (kind NULL) no finding. */
static void run_expect(const buf_case *c, const char *src, const char *json, const char *option,
                       int status, const char *kind, const char *severity, int line, GPtrArray *w) {
    const char *args[16];
    int n = 0;
    args[n++] = "run";
    args[n++] = "-n";
    args[n++] = c->ranks;
    args[n++] = "--json";
    args[n++] = json;
    if (option)
        args[n++] = option;
    args[n++] = src;
    args[n] = NULL;
    e2e_result *r = e2e_ordex_runv(args);
    EXPECT_STATUS(r, status);
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    if (!kind) {
        EXPECT(r, e2e_json_len(o, "findings") == 0);
    } else {
        EXPECT(r, e2e_json_len(o, "findings") == 1);
        EXPECT(r, e2e_json_str_is(o, "findings[0].kind", kind));
        EXPECT(r, e2e_json_str_is(o, "findings[0].severity", severity));
        char *loc = g_strdup_printf("%s:%d", c->file, line);
        EXPECT(r, e2e_json_str_is(o, "findings[0].location", loc));
        g_free(loc);
        expect_message(r, e2e_json_str(o, "findings[0].message"), w);
    }
    e2e_json_free(o);
    e2e_free(r);
}

static void run_error(const buf_case *c, const char *rel, const char *src, const char *json) {
    int line = e2e_mark_line(rel, c->mark);
    char *what = g_strdup_printf("mark [%s] is on exactly one line of %s", c->mark, c->file);
    bool marked = e2e_check(line > 0, NULL, what, __FILE__, __LINE__);
    g_free(what);
    if (!marked)
        return;
    GPtrArray *w = wanted(c);
    run_expect(c, src, json, NULL, 1, "mpi_error", "error", line, w);
    if (c->what == W_TYPE) {
        run_expect(c, src, json, "--type-check=warn", 0, "type_mismatch", "warning", line, w);
        run_expect(c, src, json, "--type-check=off", 0, NULL, NULL, 0, NULL);
    } else {
        /* Without the checks, the finding is not this one (the program may
         * still go wrong in some other way). */
        e2e_result *r = e2e_ordex_run("run", "-n", c->ranks, "--buffer-checks=off", src, NULL);
        const char *part = g_ptr_array_index(w, w->len - 1);
        EXPECT(r, !holds(r->err, part));
        e2e_free(r);
    }
    g_ptr_array_free(w, TRUE);
}

static void run_clean(const buf_case *c, const char *src, const char *json) {
    run_expect(c, src, json, NULL, 0, NULL, NULL, 0, NULL);
    e2e_result *r = e2e_ordex_run("explore", "-n", c->ranks, "--max-time", "60", src, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_LACKS(r, "ERROR");
    EXPECT_ERR_LACKS(r, "WARNING");
    e2e_free(r);
}

static void test_program(void) {
    CU_pTest t = CU_get_current_test();
    const buf_case *c = t && cases ? g_hash_table_lookup(cases, t->pName) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    if (c->header_error) {
        printf("%s: bad ordex-expect comment: %s\n", c->file, c->header_error);
        CU_FAIL("the program's ordex-expect comment is well formed");
        return;
    }
    char *rel = g_build_filename(PROGRAMS, c->file, NULL);
    char *stem = g_strndup(c->file, strlen(c->file) - 2);
    char *jname = g_strdup_printf("%s.json", stem);
    const char *src = e2e_src(rel), *json = e2e_tmp(jname);
    if (c->what == W_CLEAN)
        run_clean(c, src, json);
    else
        run_error(c, rel, src, json);
    g_free(jname);
    g_free(stem);
    g_free(rel);
}

/* Heap blocks found after a snapshot is restored are those of the restored
 * ordering, whatever the kind of snapshot: with each, every ordering of
 * buf_heap_orderings_ok.c is clean, and with one int too many each is an
 * error against its own block (12 bytes in one, 20000 in another). */
static void test_heap_across_snapshots(void) {
    static const char *const kinds[] = {"fork", "copy", "replay"};
    const char *src = e2e_src(PROGRAMS "/buf_heap_orderings_ok.c");
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
        e2e_result *r = e2e_ordex_run("explore", "-n", "3", "--checkpoint", kinds[i], src, NULL);
        EXPECT_STATUS(r, 0);
        EXPECT_ERR_HAS(r, "all orderings explored: no error exists");
        e2e_free(r);
        r = e2e_ordex_run("explore", "-n", "3", "--checkpoint", kinds[i], src, "1", NULL);
        EXPECT_STATUS(r, 1);
        EXPECT_ERR_HAS(r, "reaches 4 bytes past the end of a heap block of 12 bytes");
        EXPECT_ERR_HAS(r, "reaches 4 bytes past the end of a heap block of 20000 bytes");
        e2e_free(r);
    }
}

/* Bad values of the options: one line naming the option and the value,
 * exit status 2; the trace of a finding records them and replay applies
 * them again. */
static void test_options(void) {
    const char *src = e2e_src(PROGRAMS "/buf_type_int_unsigned.c");
    e2e_result *r = e2e_ordex_run("run", "-n", "2", "--type-check=maybe", src, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "--type-check maybe: expected error, warn or off");
    e2e_free(r);
    r = e2e_ordex_run("explore", "-n", "2", "--buffer-checks=yes", src, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "--buffer-checks yes: expected on or off");
    e2e_free(r);
    const char *dir = e2e_tmp("traces-options");
    r = e2e_ordex_run("explore", "-n", "2", "--type-check=warn", "--trace-dir", dir, src, NULL);
    EXPECT_STATUS(r, 0); /* a warning only */
    EXPECT_ERR_HAS(r, "WARNING [type_mismatch]");
    e2e_free(r);
    /* A trace made with the checks on (its finding an error) replays to the
     * same error. */
    r = e2e_ordex_run("explore", "-n", "2", "--trace-dir", dir, src, NULL);
    EXPECT_STATUS(r, 1);
    e2e_free(r);
    char *trace = g_build_filename(dir, "buf_type_int_unsigned-1.trace", NULL);
    char *text = e2e_read_file(trace);
    e2e_check(text && strstr(text, "\nbuffer-checks on\n") && strstr(text, "\ntype-check error\n"),
              NULL, "the trace records the checks", __FILE__, __LINE__);
    r = e2e_ordex_run("replay", trace, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "is byte 0 of local variable `x`");
    e2e_free(r);
    g_free(text);
    g_free(trace);
}

static gint by_name(gconstpointer a, gconstpointer b);

/* ---------------------------------------------------------------------- */
/* Every program of the repository, with the checks on                     */

/* Arguments that keep the benchmarks short; other programs run with none. */
static const char *const bench_args[][2] = {
    {"bench/stencil.c", "64 2"},
    {"bench/struct_send.c", "struct 3 50"},
    {"bench/struct_send.c", "hindexed 3 50"},
    {"bench/struct_send.c", "mixed 3 50"},
    {"bench/predict/heat.c", "256 20"},
    {"bench/predict/mergesort.c", "65536"},
    {"bench/predict/overlap.c", "65536 5 1"},
    {"bench/predict/pingpong.c", "65536 10"},
    {"bench/predict/ring.c", "100 8"},
};

/* What the checks' findings say, one of which any of them holds. */
static const char *const check_phrases[] = {
    "bytes past the end of", "bytes before ",   "is byte ",
    "entries that overlap",  "[type_mismatch]", "belongs to two",
};

typedef struct sweep_case {
    char *name; /* the test's name: "every program: DIR/FILE.c ARGS" */
    char *rel;
    char *args; /* or NULL */
} sweep_case;

static GPtrArray *sweeps; /* sweep_case */

static void sweep_free(gpointer p) {
    sweep_case *c = p;
    g_free(c->name);
    g_free(c->rel);
    g_free(c->args);
    g_free(c);
}

static void test_sweep(void) {
    CU_pTest t = CU_get_current_test();
    const sweep_case *c = NULL;
    for (guint i = 0; t && sweeps && i < sweeps->len && !c; i++)
        if (strcmp(((sweep_case *)g_ptr_array_index(sweeps, i))->name, t->pName) == 0)
            c = g_ptr_array_index(sweeps, i);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const char *argv[24] = {"run", "-q", "-n", "4", "--step-timeout", "2", e2e_src(c->rel)};
    int n = 7;
    char **extra = c->args ? g_strsplit(c->args, " ", -1) : NULL;
    for (int i = 0; extra && extra[i] && n < 23; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    e2e_result *r = e2e_ordex_runv(argv);
    for (size_t i = 0; i < G_N_ELEMENTS(check_phrases); i++) {
        char *what = g_strdup_printf("no finding of the buffer checks (\"%s\")", check_phrases[i]);
        e2e_check(!strstr(r->err, check_phrases[i]), r, what, __FILE__, __LINE__);
        g_free(what);
    }
    e2e_free(r);
    g_strfreev(extra);
}

static void add_sweep(CU_pSuite s, const char *rel, const char *args) {
    sweep_case *c = g_new0(sweep_case, 1);
    c->rel = g_strdup(rel);
    c->args = args ? g_strdup(args) : NULL;
    c->name = g_strdup_printf("every program: %s%s%s", rel, args ? " " : "", args ? args : "");
    g_ptr_array_add(sweeps, c);
    CU_add_test(s, c->name, test_sweep);
}

static void add_sweeps(CU_pSuite s) {
    if (sweeps)
        g_ptr_array_free(sweeps, TRUE);
    sweeps = g_ptr_array_new_with_free_func(sweep_free);
    static const char *const dirs[] = {"examples", PROGRAMS};
    for (size_t d = 0; d < G_N_ELEMENTS(dirs); d++) {
        GDir *dir = g_dir_open(e2e_src(dirs[d]), 0, NULL);
        GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
        for (const char *n; dir && (n = g_dir_read_name(dir));)
            if (g_str_has_suffix(n, ".c") && !g_str_has_prefix(n, "buf_"))
                g_ptr_array_add(files, g_build_filename(dirs[d], n, NULL));
        if (dir)
            g_dir_close(dir);
        g_ptr_array_sort(files, by_name);
        for (guint i = 0; i < files->len; i++)
            add_sweep(s, g_ptr_array_index(files, i), NULL);
        g_ptr_array_free(files, TRUE);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(bench_args); i++)
        add_sweep(s, bench_args[i][0], bench_args[i][1]);
}

static gint by_name(gconstpointer a, gconstpointer b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add(CU_pSuite s) {
    if (cases)
        g_hash_table_destroy(cases);
    cases = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, case_free);
    GPtrArray *files = e2e_list_programs(PROGRAMS, "buf_");
    for (guint i = 0; i < files->len; i++) {
        buf_case *c = g_new0(buf_case, 1);
        c->file = g_strdup(g_ptr_array_index(files, i));
        char *rel = g_build_filename(PROGRAMS, c->file, NULL);
        parse_case(c, e2e_read_src(rel));
        g_free(rel);
        g_hash_table_insert(cases, c->file, c);
        CU_add_test(s, c->file, test_program);
    }
    g_ptr_array_free(files, TRUE);
    CU_add_test(s, "heap blocks across snapshots", test_heap_across_snapshots);
    CU_add_test(s, "options and traces", test_options);
    add_sweeps(s);
}

E2E_MAIN("buffers", add)
