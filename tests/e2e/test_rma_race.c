/*
 * test_rma_race.c - the matrix of RMA data races: every program
 * tests/programs/rma_race_*.c is one test, named after the file, so that
 * adding a program adds a test.
 *
 * Each program says what ordex must find in a comment that starts with
 * "ordex-expect:" (the comment may span lines):
 *
 *   ordex-expect: ranks=N race=A,B     a data race between the call on the
 *                                      line marked "[A]" (in a comment) and
 *                                      the one on the line marked "[B]"
 *                                      (A = B: one line, on two ranks)
 *   ordex-expect: ranks=N clean        no finding at all
 *
 * with "model=separate" among the words to explore under --rma-model
 * separate (the separate memory model's rules),
 * optionally followed by "run": `ordex run`, which follows one ordering,
 * must give the same verdict (a race that the first ordering already holds,
 * where what matters is how the checker meets it there, not which ordering
 * exploration picks);
 *
 * optionally followed by "known-bug: WHY": ordex is known to answer wrongly
 * (the expectation stays the correct answer); the test is then skipped and
 * WHY printed, so that ./test counts it as skipped until ordex is fixed.
 *
 * The test explores the program (`ordex explore -n N --json`) and asserts,
 * for a race: exit status 1, verdict "error", exactly one finding, of kind
 * data_race, whose message names FILE:LINE of both marked lines; and that
 * `ordex replay` of the finding's trace finds the same race again.  For a
 * clean program: exit status 0, verdict "ok" (every ordering explored) and
 * no finding.
 */
#include <CUnit/CUnit.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "tests/skip.h"

#define PROGRAMS "tests/programs"

typedef struct race_case {
    char *file;         /* base name, the test's name */
    char *ranks;        /* N of -n N */
    char *model;        /* --rma-model: "unified" unless model=separate */
    bool clean;         /* expects no finding; else a race between marks a and b */
    bool run;           /* `ordex run` must give the same verdict */
    char *a, *b;        /* the marks' names */
    char *known_bug;    /* why ordex is known to fail it, or NULL */
    char *header_error; /* what is wrong with the header, or NULL */
} race_case;

static GHashTable *cases; /* file -> race_case */

static void case_free(gpointer p) {
    race_case *c = p;
    g_free(c->file);
    g_free(c->model);
    g_free(c->ranks);
    g_free(c->a);
    g_free(c->b);
    g_free(c->known_bug);
    g_free(c->header_error);
    g_free(c);
}

static bool is_mark(const char *s) {
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

/* Reads the expectation of a program into c (header_error when it cannot). */
static void parse_case(race_case *c, const char *src) {
    char *text = e2e_expect_text(src);
    if (!text) {
        c->header_error = g_strdup("no \"ordex-expect:\" comment");
        return;
    }
    char *bug = strstr(text, "known-bug");
    if (bug) {
        const char *why = bug + strlen("known-bug");
        while (*why == ':' || *why == ' ')
            why++;
        c->known_bug = g_strdup(*why ? why : "known bug");
        *bug = '\0';
    }
    char **words = g_strsplit_set(g_strstrip(text), " \t", -1);
    bool kind = false;
    for (int i = 0; words[i] && !c->header_error; i++) {
        const char *w = words[i];
        if (!*w)
            continue;
        if (g_str_has_prefix(w, "ranks=") && atoi(w + 6) > 0 && !c->ranks) {
            c->ranks = g_strdup(w + 6);
        } else if ((strcmp(w, "model=separate") == 0 || strcmp(w, "model=unified") == 0) &&
                   !c->model) {
            c->model = g_strdup(w + 6);
        } else if (strcmp(w, "run") == 0 && !c->run) {
            c->run = true;
        } else if (strcmp(w, "clean") == 0 && !kind) {
            c->clean = kind = true;
        } else if (g_str_has_prefix(w, "race=") && !kind) {
            char **ab = g_strsplit(w + 5, ",", -1);
            if (g_strv_length(ab) == 2 && is_mark(ab[0]) && is_mark(ab[1])) {
                c->a = g_strdup(ab[0]);
                c->b = g_strdup(ab[1]);
                kind = true;
            } else {
                c->header_error = g_strdup_printf("\"%s\": race= wants two marks, A,B", w);
            }
            g_strfreev(ab);
        } else {
            c->header_error = g_strdup_printf("\"%s\" is not ranks=N, model=M, race=A,B, "
                                              "clean, run or known-bug",
                                              w);
        }
    }
    if (!c->header_error && (!c->ranks || !kind))
        c->header_error = g_strdup("it needs ranks=N and one of race=A,B or clean");
    g_strfreev(words);
    g_free(text);
}

/* How many times text holds "loc" not followed by a digit (so that
 * "f.c:3" does not match "f.c:31"). */
static int count_loc(const char *text, const char *loc) {
    int n = 0;
    size_t len = strlen(loc);
    for (const char *p = text ? strstr(text, loc) : NULL; p; p = strstr(p + 1, loc))
        if (!isdigit((unsigned char)p[len]))
            n++;
    return n;
}

/* The message names both marked lines (one line twice when A = B). */
static void expect_lines_named(const e2e_result *r, const char *msg, const char *file, int la,
                               int lb) {
    char *a = g_strdup_printf("%s:%d", file, la), *b = g_strdup_printf("%s:%d", file, lb);
    bool ok = la == lb ? count_loc(msg, a) >= 2 : count_loc(msg, a) >= 1 && count_loc(msg, b) >= 1;
    char *what = g_strdup_printf("the finding names %s and %s: \"%s\"", a, b, msg ? msg : "");
    e2e_check(ok, r, what, __FILE__, __LINE__);
    g_free(what);
    g_free(a);
    g_free(b);
}

/* The findings of severity "error" (warnings such as a freed active
 * request or a leak are not what a race program is about): their count,
 * and in *first the path of the first one ("findings[N]"). */
static int errors_in(JsonObject *o, char *first, size_t room) {
    int n = 0, len = e2e_json_len(o, "findings");
    first[0] = '\0';
    for (int i = 0; i < len; i++) {
        char path[64];
        g_snprintf(path, sizeof path, "findings[%d].severity", i);
        const char *sev = e2e_json_str(o, path);
        if (sev && strcmp(sev, "warning") == 0)
            continue;
        if (n++ == 0)
            g_snprintf(first, room, "findings[%d]", i);
    }
    return n;
}

/* `ordex run` of the program (one ordering): for a race (la > 0), exit
 * status 1 and exactly one finding, the race between lines la and lb; for
 * a clean program, status 0 and none. */
static void check_run(const race_case *c, const char *src, const char *json, int la, int lb) {
    char *rjson = g_strdup_printf("%s.run.json", json);
    e2e_result *r = e2e_ordex_run("run", "-n", c->ranks, "--rma-model",
                                  c->model ? c->model : "unified", "--json", rjson, src, NULL);
    EXPECT_STATUS(r, la > 0 ? 1 : 0);
    JsonObject *o = EXPECT_JSON_FILE(r, rjson);
    EXPECT(r, e2e_json_str_is(o, "verdict", la > 0 ? "error" : "ok"));
    char f0[32], at[64];
    EXPECT(r, errors_in(o, f0, sizeof f0) == (la > 0 ? 1 : 0));
    if (la > 0) {
        g_snprintf(at, sizeof at, "%s.kind", f0);
        EXPECT(r, e2e_json_str_is(o, at, "data_race"));
        g_snprintf(at, sizeof at, "%s.message", f0);
        expect_lines_named(r, e2e_json_str(o, at), c->file, la, lb);
    }
    e2e_json_free(o);
    e2e_free(r);
    g_free(rjson);
}

static void run_race(const race_case *c, const char *rel, const char *src, const char *json,
                     const char *dir) {
    int la = e2e_mark_line(rel, c->a), lb = e2e_mark_line(rel, c->b);
    char *what = g_strdup_printf("marks [%s] and [%s] are each on exactly one line of %s", c->a,
                                 c->b, c->file);
    bool marked = e2e_check(la > 0 && lb > 0 && (la != lb || strcmp(c->a, c->b) == 0), NULL, what,
                            __FILE__, __LINE__);
    g_free(what);
    if (!marked)
        return;
    e2e_result *r =
        e2e_ordex_run("explore", "-n", c->ranks, "--rma-model", c->model ? c->model : "unified",
                      "--json", json, "--trace-dir", dir, "--max-time", "60", src, NULL);
    EXPECT_STATUS(r, 1);
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "error"));
    char f0[32], at[64];
    EXPECT(r, errors_in(o, f0, sizeof f0) == 1);
    g_snprintf(at, sizeof at, "%s.kind", f0);
    EXPECT(r, e2e_json_str_is(o, at, "data_race"));
    g_snprintf(at, sizeof at, "%s.message", f0);
    const char *msg = e2e_json_str(o, at);
    expect_lines_named(r, msg, c->file, la, lb);
    g_snprintf(at, sizeof at, "%s.trace", f0);
    const char *trace = e2e_json_str(o, at);
    EXPECT(r, trace && g_file_test(trace, G_FILE_TEST_EXISTS));
    if (trace && msg) {
        /* The trace leads to the same race again. */
        char *rjson = g_strdup_printf("%s.replay.json", json);
        e2e_result *p = e2e_ordex_run("replay", "--json", rjson, trace, NULL);
        EXPECT_STATUS(p, 1);
        JsonObject *q = EXPECT_JSON_FILE(p, rjson);
        char q0[32], qat[64];
        EXPECT(p, errors_in(q, q0, sizeof q0) == 1);
        g_snprintf(qat, sizeof qat, "%s.kind", q0);
        EXPECT(p, e2e_json_str_is(q, qat, "data_race"));
        g_snprintf(qat, sizeof qat, "%s.message", q0);
        EXPECT(p, e2e_json_str_is(q, qat, msg));
        e2e_json_free(q);
        e2e_free(p);
        g_free(rjson);
    }
    e2e_json_free(o);
    e2e_free(r);
    if (c->run)
        check_run(c, src, json, la, lb);
}

static void run_clean(const race_case *c, const char *src, const char *json, const char *dir) {
    e2e_result *r =
        e2e_ordex_run("explore", "-n", c->ranks, "--rma-model", c->model ? c->model : "unified",
                      "--json", json, "--trace-dir", dir, "--max-time", "60", src, NULL);
    EXPECT_STATUS(r, 0);
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "ok"));
    char f0[32];
    EXPECT(r, errors_in(o, f0, sizeof f0) == 0);
    e2e_json_free(o);
    e2e_free(r);
    if (c->run)
        check_run(c, src, json, 0, 0);
}

/* The test of every program: which one, it learns from its own name. */
static void test_program(void) {
    CU_pTest t = CU_get_current_test();
    const race_case *c = t && cases ? g_hash_table_lookup(cases, t->pName) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    if (c->header_error) {
        printf("%s: bad ordex-expect comment: %s\n", c->file, c->header_error);
        CU_FAIL("the program's ordex-expect comment is well formed");
        return;
    }
    char *rel = g_build_filename(PROGRAMS, c->file, NULL);
    char *stem = g_strndup(c->file, strlen(c->file) - 2);
    const char *src = e2e_src(rel);
    char *jname = g_strdup_printf("%s.json", stem), *dname = g_strdup_printf("traces-%s", stem);
    const char *json = e2e_tmp(jname), *dir = e2e_tmp(dname);
    if (c->clean)
        run_clean(c, src, json, dir);
    else
        run_race(c, rel, src, json, dir);
    g_free(jname);
    g_free(dname);
    g_free(stem);
    g_free(rel);
}

static void add(CU_pSuite s) {
    if (cases)
        g_hash_table_destroy(cases);
    cases = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, case_free);
    GPtrArray *files = e2e_list_programs(PROGRAMS, "rma_race_");
    for (guint i = 0; i < files->len; i++) {
        race_case *c = g_new0(race_case, 1);
        c->file = g_strdup(g_ptr_array_index(files, i));
        char *rel = g_build_filename(PROGRAMS, c->file, NULL);
        parse_case(c, e2e_read_src(rel));
        g_free(rel);
        g_hash_table_insert(cases, c->file, c);
        char *why = c->known_bug ? g_strdup_printf("known bug: %s", c->known_bug) : NULL;
        test_add_unless(s, c->file, test_program, why);
        g_free(why);
    }
    g_ptr_array_free(files, TRUE);
}

E2E_MAIN("rma_race", add)
