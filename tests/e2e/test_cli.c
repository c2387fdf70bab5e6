/*
 * test_cli.c - the command line: options of `ordex run`, determinism, JSON,
 * bad input (exit status 2 and a one-line message), and ordexcc.
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define S(rel) e2e_src(rel)

/* ---------------------------------------------------------------------- */
/* Options                                                                 */

static void test_tag_output(void) {
    e2e_result *r = RUN("run", "--tag-output", "-n", "4", S("examples/ring.c"), "3");
    EXPECT_CLEAN(r);
    EXPECT(r, e2e_lines(r->out) == 4);
    /* Every line is "[r] " + the rank's line, and rank r printed "rank r: ...". */
    GString *plain = g_string_new(NULL);
    char **lines = g_strsplit(r->out, "\n", -1);
    for (int i = 0; lines[i] && lines[i][0]; i++) {
        int rank = -1, used = 0;
        bool ok =
            sscanf(lines[i], "[%d] %n", &rank, &used) == 1 && used > 0 && rank >= 0 && rank < 4;
        char *own = g_strdup_printf("[%d] rank %d: ", rank, rank);
        e2e_check(ok && g_str_has_prefix(lines[i], own), r,
                  "every stdout line starts with \"[r] \" of the rank that printed it", __FILE__,
                  __LINE__);
        g_free(own);
        if (ok)
            g_string_append_printf(plain, "%s\n", lines[i] + used);
    }
    g_strfreev(lines);
    EXPECT_OUT_HAS(r, "[0] rank 0: final token 12 after 3 rounds\n");
    /* Without the tags it is the untagged output. */
    g_free(r->out);
    r->out = g_string_free(plain, FALSE);
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    e2e_free(r);
}

/* Everything after the program is the program's, even what looks like an
 * option of ordex; "--" ends ordex's options. */
static void test_program_arguments(void) {
    e2e_result *r = RUN("run", "-n", "2", S("examples/ring.c"), "-n", "5");
    EXPECT_CLEAN(r);
    /* ring reads argv[1] = "-n" as 0 rounds, i.e. 1 round, on 2 ranks. */
    EXPECT_OUT_HAS(r, "rank 0: final token 2 after 1 rounds\n");
    EXPECT_ERR_HAS(r, "ordex: 2 ranks, ");
    e2e_free(r);
    r = RUN("run", "-n", "4", "--", S("examples/ring.c"), "3");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    e2e_free(r);
    r = RUN("run", "-n", "4", S("examples/heat.c"), "64", "10", "--tag-output");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "heat.n4.64.10"); /* untagged: the option was heat's */
    e2e_free(r);
}

static void test_seed_ring(void) {
    e2e_result *r = RUN("run", "--seed", "5", "-n", "4", S("examples/ring.c"), "3");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    e2e_free(r);
    r = RUN("run", "--seed", "5", "-n", "4", S("tests/programs/wildcard.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "wildcard.n4");
    e2e_free(r);
    r = RUN("run", "--seed", "5", "-n", "4", S("tests/programs/collectives.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "collectives.n4");
    e2e_free(r);
}

/* Parses "waitany_race: order A B C result R" and checks that A B C is a
 * permutation of 1 2 3 and R the fold in that order; returns A*100+B*10+C. */
static int check_waitany_line(const e2e_result *r) {
    const char *l = strstr(r->out, "waitany_race: order ");
    int a = 0, b = 0, c = 0;
    unsigned res = 0;
    bool ok = l && sscanf(l, "waitany_race: order %d %d %d result %u", &a, &b, &c, &res) == 4;
    ok = ok && a >= 1 && a <= 3 && b >= 1 && b <= 3 && c >= 1 && c <= 3 && a != b && b != c &&
         a != c;
    unsigned want = 0;
    int order[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        want = want * 31u + (unsigned)(order[k] * order[k] + 7);
    e2e_check(ok && res == want, r, "waitany_race prints a valid completion order and its result",
              __FILE__, __LINE__);
    return ok ? a * 100 + b * 10 + c : -1;
}

static void test_seed_waitany(void) {
    GHashTable *orders = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (int seed = 1; seed <= 10; seed++) {
        char s[16];
        snprintf(s, sizeof s, "%d", seed);
        e2e_result *r = RUN("run", "--seed", s, "-n", "4", S("examples/waitany_race.c"));
        EXPECT_CLEAN(r);
        int o = check_waitany_line(r);
        g_hash_table_add(orders, GINT_TO_POINTER(o));
        /* The same seed gives the same run. */
        e2e_result *again = RUN("run", "--seed", s, "-n", "4", S("examples/waitany_race.c"));
        EXPECT_CLEAN(again);
        EXPECT(again, strcmp(r->out, again->out) == 0);
        e2e_free(again);
        e2e_free(r);
    }
    /* --seed randomises the matching: ten seeds do not all take one order. */
    CU_ASSERT(g_hash_table_size(orders) >= 2);
    g_hash_table_destroy(orders);
}

static void test_determinism(void) {
    struct {
        const char *src, *n, *arg;
    } progs[] = {{"examples/ring.c", "4", "3"},
                 {"examples/heat.c", "4", NULL},
                 {"tests/programs/heap.c", "4", NULL},
                 {"examples/neighbor_exchange.c", "3", "--fixed"}};
    for (size_t i = 0; i < G_N_ELEMENTS(progs); i++) {
        e2e_result *a = RUN("run", "-n", progs[i].n, S(progs[i].src), progs[i].arg);
        e2e_result *b = RUN("run", "-n", progs[i].n, S(progs[i].src), progs[i].arg);
        EXPECT_CLEAN(a);
        EXPECT_CLEAN(b);
        EXPECT(b, a->out[0] != '\0' && strcmp(a->out, b->out) == 0);
        e2e_free(a);
        e2e_free(b);
    }
}

/* A report that cannot be written is an error naming the file (exit 2), and
 * the findings printed are not lost; before, --json /dev/full exited 0. */
static void test_json_write_error(void) {
    const char *cmds[][8] = {
        {"run", "--json", "/dev/full", "-n", "3", NULL, NULL},
        {"explore", "--json", "/dev/full", "--trace-dir", NULL, "-n", "3", NULL},
    };
    for (int i = 0; i < 2; i++) {
        const char *args[10];
        int k = 0;
        for (int j = 0; j < 8 && (cmds[i][j] || j == 4); j++)
            args[k++] = cmds[i][j] ? cmds[i][j] : e2e_tmp("json_full_traces");
        args[k++] = S("examples/deadlock_else.c");
        args[k] = NULL;
        e2e_result *r = e2e_ordex_runv(args);
        EXPECT_STATUS(r, 2);
        EXPECT(r, strstr(r->err, "cannot write /dev/full") != NULL);
        EXPECT(r, strstr(r->err, "[deadlock]") != NULL); /* both report on stderr */
        e2e_free(r);
    }
}

/* Files a user names are read only when they are regular files: a FIFO
 * made replay and predict wait forever, /dev/zero made them read without
 * end (8 GB and more), before any check. */
static void test_special_files(void) {
    const char *fifo = e2e_tmp("a.fifo");
    g_unlink(fifo);
    CU_ASSERT_FATAL(mkfifo(fifo, 0600) == 0);
    /* A trace that is a FIFO or a device. */
    const char *traces[] = {fifo, "/dev/zero"};
    for (int i = 0; i < 2; i++) {
        e2e_result *r = RUN("replay", traces[i]);
        EXPECT_STATUS(r, 2);
        EXPECT(r, strstr(r->err, "not a regular file") != NULL);
        e2e_free(r);
    }
    /* A trace whose program is one. */
    const char *dir = e2e_tmp("special_traces");
    e2e_free(RUN("explore", "--trace-dir", dir, "-n", "4", S("examples/mergesort.c")));
    char *good = g_build_filename(dir, "mergesort-1.trace", NULL);
    char *text = e2e_read_file(good);
    CU_ASSERT_FATAL(text != NULL);
    const char *programs[] = {"/dev/zero", fifo};
    for (int i = 0; i < 2; i++) {
        char *line_start = strstr(text, "\nprogram ");
        CU_ASSERT_FATAL(line_start != NULL);
        char *line_end = strchr(line_start + 1, '\n');
        GString *edited = g_string_new_len(text, line_start - text);
        g_string_append_printf(edited, "\nprogram %s%s", programs[i], line_end);
        char *path = g_strdup_printf("%s/special-%d.trace", dir, i);
        g_file_set_contents(path, edited->str, -1, NULL);
        e2e_result *r = RUN("replay", path);
        EXPECT_STATUS(r, 2);
        EXPECT(r, strstr(r->err, "not a regular file") != NULL ||
                      strstr(r->err, "edited") != NULL); /* format 3 traces carry a digest */
        e2e_free(r);
        g_free(path);
        g_string_free(edited, TRUE);
    }
    g_free(text);
    g_free(good);
    /* A platform file, and a host file, that is one. */
    const char *platforms[] = {fifo, "/dev/zero"};
    for (int i = 0; i < 2; i++) {
        e2e_result *r = RUN("predict", "--platform", platforms[i], "-n", "2", S("examples/ring.c"));
        EXPECT_STATUS(r, 2);
        EXPECT_ONE_LINE_ERROR(r, "not a regular file");
        e2e_free(r);
    }
    const char *ini = e2e_tmp("hostfile_fifo.ini");
    char *conf = g_strdup_printf("[cluster]\nmapping = hostfile\nhostfile = %s\n", fifo);
    g_file_set_contents(ini, conf, -1, NULL);
    e2e_result *r = RUN("predict", "--platform", ini, "-n", "2", S("examples/ring.c"));
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "not a regular file (a FIFO)");
    e2e_free(r);
    g_free(conf);
    /* A program that is one. */
    r = RUN("run", "-n", "2", "/dev/zero");
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "/dev/zero: not a regular file (a character device)");
    e2e_free(r);
    g_unlink(fifo);
}

/* Messages that echo what the user wrote are one printable line: a --set
 * value with a newline gave a two-line error, and control bytes and
 * invalid UTF-8 of a trace went to the terminal as they were. */
static void test_echoes_printable(void) {
    e2e_result *r =
        RUN("predict", "--set", "cluster.nodes=4\nfoo", "-n", "2", S("examples/ring.c"));
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "--set cluster.nodes=4\\nfoo");
    e2e_free(r);
    const char *bad = e2e_tmp("bytes.trace");
    g_file_set_contents(bad,
                        "ordex-trace 2\n\x01\x0c"
                        "bad\xe9line\r\n",
                        -1, NULL);
    r = RUN("replay", bad);
    EXPECT_STATUS(r, 2);
    EXPECT_ONE_LINE_ERROR(r, "unknown line '\\x01\\x0cbad\\xe9line");
    e2e_free(r);
}

/* mpirun's spelling of the rank count. */
static void test_np(void) {
    e2e_result *a = RUN("run", "-np", "3", S("examples/ring.c"), "2");
    e2e_result *b = RUN("run", "-n", "3", S("examples/ring.c"), "2");
    EXPECT_STATUS(a, 0);
    EXPECT(a, strcmp(a->out, b->out) == 0);
    EXPECT(a, strstr(a->err, "3 ranks") != NULL);
    e2e_free(a);
    e2e_free(b);
}

static void test_json(void) {
    const char *path = e2e_tmp("segv.json");
    e2e_result *r = RUN("run", "--json", path, "-n", "4", S("tests/programs/segv.c"));
    EXPECT_STATUS(r, 1);
    JsonObject *doc = EXPECT_JSON_FILE(r, path);
    if (doc) {
        char *loc =
            g_strdup_printf("segv.c:%d", e2e_marker_line("tests/programs/segv.c", "/* FAULT */"));
        char *ranks = e2e_json_compact(doc, "findings[kind=crash].ranks");
        const char *msg = e2e_json_str(doc, "findings[kind=crash].message");
        EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
        EXPECT(r, e2e_json_at(doc, "findings[kind=crash]") != NULL);
        EXPECT(r, ranks && strcmp(ranks, "[1]") == 0);
        EXPECT(r, e2e_json_str_is(doc, "findings[kind=crash].location", loc));
        EXPECT(r, msg && strstr(msg, "SIGSEGV"));
        EXPECT(r, e2e_json_num(doc, "stats.ranks") == 4);
        g_free(ranks);
        g_free(loc);
    }
    e2e_json_free(doc);
    e2e_free(r);

    path = e2e_tmp("deadlock.json");
    r = RUN("run", "--json", path, "-n", "3", S("examples/deadlock_else.c"));
    EXPECT_STATUS(r, 1);
    doc = EXPECT_JSON_FILE(r, path);
    char *ranks = e2e_json_compact(doc, "findings[kind=deadlock].ranks");
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error") && ranks && strcmp(ranks, "[2]") == 0);
    g_free(ranks);
    e2e_json_free(doc);
    e2e_free(r);

    path = e2e_tmp("ring.json");
    r = RUN("run", "--json", path, "-n", "4", S("examples/ring.c"), "3");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    doc = EXPECT_JSON_FILE(r, path);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "ok") && e2e_json_len(doc, "findings") == 0 &&
                  e2e_json_num(doc, "stats.messages") == 12);
    e2e_json_free(doc);
    e2e_free(r);

    /* A JSON file that cannot be written: ordex could not do its job. */
    r = RUN("run", "--json", "/nonexistent-dir/x.json", "-n", "2", S("examples/ring.c"), "1");
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "cannot write /nonexistent-dir/x.json");
    e2e_free(r);
}

/* A program in a directory whose name is not UTF-8 (byte 0xE9, Latin-1
 * "é"): its path goes into the reports of run and explore, which must still
 * be JSON, with U+FFFD for the byte.  explore's report once carried the raw
 * byte, and parsers refused it. */
static void test_json_non_utf8_path(void) {
    char *dir = g_build_filename(e2e_tmp("json-paths"), "caf\xe9", NULL);
    char *prog = g_build_filename(dir, "deadlock_cycle.c", NULL);
    char *traces = g_build_filename(dir, "traces", NULL);
    char *want_prog = g_utf8_make_valid(prog, -1);
    char *want_traces = g_utf8_make_valid(traces, -1);
    CU_ASSERT_TRUE_FATAL(g_mkdir_with_parents(dir, 0755) == 0);
    const char *src = e2e_read_src("examples/deadlock_cycle.c");
    CU_ASSERT_TRUE_FATAL(src && g_file_set_contents(prog, src, -1, NULL));
    CU_ASSERT_PTR_NOT_NULL(strstr(want_prog, "caf\xef\xbf\xbd/deadlock_cycle.c"));

    const char *json = e2e_tmp("explore-non-utf8.json");
    e2e_result *r = RUN("explore", "--json", json, "--trace-dir", traces, "-n", "2", prog);
    EXPECT_STATUS(r, 1);
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    const char *got = e2e_json_str(doc, "program");
    EXPECT(r, got && strcmp(got, want_prog) == 0);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "error"));
    EXPECT(r, e2e_json_at(doc, "findings[0]") != NULL);
    EXPECT(r, e2e_json_str_is(doc, "findings[0].kind", "deadlock"));
    got = e2e_json_str(doc, "findings[0].trace");
    EXPECT(r, got && g_str_has_prefix(got, want_traces) && g_str_has_suffix(got, ".trace"));
    e2e_json_free(doc);
    e2e_free(r);

    json = e2e_tmp("run-non-utf8.json");
    r = RUN("run", "--json", json, "--send-mode", "rendezvous", "-n", "2", prog);
    EXPECT_STATUS(r, 1);
    doc = EXPECT_JSON_FILE(r, json);
    got = e2e_json_str(doc, "program");
    EXPECT(r, got && strcmp(got, want_prog) == 0);
    EXPECT(r, e2e_json_str_is(doc, "findings[0].kind", "deadlock"));
    got = e2e_json_str(doc, "findings[0].location");
    EXPECT(r, got && g_str_has_prefix(got, "deadlock_cycle.c:"));
    e2e_json_free(doc);
    e2e_free(r);

    g_free(want_traces);
    g_free(want_prog);
    g_free(traces);
    g_free(prog);
    g_free(dir);
}

static void test_quiet(void) {
    e2e_result *r = RUN("run", "-q", "-n", "4", S("examples/ring.c"), "3");
    EXPECT_STATUS(r, 0);
    EXPECT(r, r->err[0] == '\0');
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    e2e_free(r);
    r = RUN("run", "-q", "-n", "3", S("examples/deadlock_else.c"));
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "deadlock", "blocked", NULL, NULL));
    e2e_free(r);
}

static void test_sizes(void) {
    /* A small stack is enough for ring; a small heap makes a big malloc fail. */
    e2e_result *r = RUN("run", "--stack-size", "64KiB", "-n", "4", S("examples/ring.c"), "3");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    e2e_free(r);
    r = RUN("run", "-n", "2", S("tests/programs/heap_limit.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "heap_limit.n2");
    e2e_free(r);
    r = RUN("run", "--heap-size", "1MiB", "-n", "2", S("tests/programs/heap_limit.c"));
    EXPECT_CLEAN(r);
    char *got = e2e_sorted_lines(r->out);
    EXPECT(r, strcmp(got, "rank 0: malloc returned NULL\nrank 1: malloc returned NULL\n") == 0);
    g_free(got);
    e2e_free(r);
    r = RUN("run", "--heap-size", "1MiB", "-n", "4", S("tests/programs/heap.c"));
    EXPECT_CLEAN(r);
    e2e_expect_mpich_output(r, "heap.n4", " contents ", __FILE__, __LINE__);
    e2e_free(r);
}

/* --eager-limit reads sizes as platform files do: "64k", "64kB" and "64KiB"
 * are all accepted ("64kB" was refused, and "64k" refused in platform
 * files).  With little to send they behave alike; a 64001-byte exchange,
 * correct only when both sends are buffered, tells the byte counts apart:
 * 64k and 64KiB are 65536 (buffered), 64kB is 64000 (not buffered). */
static void test_eager_limit_units(void) {
    const char *src = S("tests/programs/exchange_bytes.c");
    const char *limits[] = {"64kB", "64k", "64KiB"};
    for (size_t i = 0; i < G_N_ELEMENTS(limits); i++) {
        e2e_result *r = RUN("run", "--eager-limit", limits[i], "-n", "2", src, "1000");
        EXPECT_CLEAN(r);
        char *got = e2e_sorted_lines(r->out);
        EXPECT(r, strcmp(got, "rank 0: received 1000 bytes\nrank 1: received 1000 bytes\n") == 0);
        g_free(got);
        e2e_free(r);

        r = RUN("run", "--eager-limit", limits[i], "-n", "2", src, "64001");
        if (strcmp(limits[i], "64kB") == 0) {
            EXPECT_STATUS(r, 1);
            g_free(EXPECT_FINDING(r, 1, "deadlock", "when MPI_Send is not buffered",
                                  "tests/programs/exchange_bytes.c", "/* FAULT */"));
        } else {
            EXPECT_CLEAN(r);
            got = e2e_sorted_lines(r->out);
            EXPECT(r, strcmp(got, "rank 0: received 64001 bytes\n"
                                  "rank 1: received 64001 bytes\n") == 0);
            g_free(got);
        }
        e2e_free(r);
    }
}

static void test_help(void) {
    e2e_result *r = RUN("--help");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "usage: ordex");
    EXPECT_OUT_HAS(r, "run -n N");
    e2e_free(r);
    r = RUN("run", "--help");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "--step-timeout");
    EXPECT_OUT_HAS(r, "--send-mode");
    e2e_free(r);
    /* The version, as mpirun and compilers print theirs. */
    const char *version[] = {"--version", "version"};
    for (int i = 0; i < 2; i++) {
        r = RUN(version[i]);
        EXPECT_STATUS(r, 0);
        EXPECT(r, g_regex_match_simple("^ordex [0-9]+\\.[0-9]+\\.[0-9]+\n$", r->out, 0, 0));
        EXPECT(r, r->err[0] == '\0');
        e2e_free(r);
    }
    /* No command at all: usage on stderr, status 2. */
    r = RUN(NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "usage: ordex");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Bad input: exit status 2 and one line naming the problem                */

static void test_bad_options(void) {
    const char *ring = S("examples/ring.c");
    struct {
        const char *args[8];
        const char *text;
    } cases[] = {
        {{"run", "--bogus", "-n", "2", ring}, "--bogus"},
        {{"run", "-n", "2"}, "missing program"},
        {{"run", ring}, "missing -n"},
        {{"run", "-n", "0", ring}, "-n 0"},
        {{"run", "-n", "abc", ring}, "-n abc"},
        {{"run", "-n", "-3", ring}, "-n -3"},
        {{"run", "--send-mode", "fast", "-n", "2", ring}, "--send-mode fast"},
        {{"run", "--step-timeout", "-1", "-n", "2", ring}, "--step-timeout"},
        {{"run", "--step-timeout", "soon", "-n", "2", ring}, "--step-timeout"},
        {{"run", "--stack-size", "1K", "-n", "2", ring}, "--stack-size"},
        {{"run", "--stack-size", "big", "-n", "2", ring}, "--stack-size big"},
        {{"run", "--heap-size", "1K", "-n", "2", ring}, "--heap-size"},
        {{"run", "--eager-limit", "lots", "-n", "2", ring}, "--eager-limit lots"},
        /* Once cast from a double without a check: accepted, undefined. */
        {{"run", "--eager-limit", "nan", "-n", "2", ring}, "--eager-limit nan: not a finite"},
        {{"run", "--eager-limit", "inf", "-n", "2", ring}, "--eager-limit inf: not a finite"},
        {{"run", "--eager-limit", "1e20", "-n", "2", ring}, "--eager-limit 1e20: too large"},
        {{"run", "--eager-limit", "-1", "-n", "2", ring}, "--eager-limit -1: must not be neg"},
        {{"run", "--eager-limit", "64KiB!", "-n", "2", ring}, "unknown size unit \"KiB!\""},
        {{"run", "--eager-limit=", "-n", "2", ring}, "--eager-limit : empty value"},
        /* Once wrapped to 0 and reported as too small. */
        {{"run", "--stack-size", "18446744073709551615", "-n", "2", ring},
         "--stack-size 18446744073709551615: must be at most 1TiB"},
        {{"run", "--stack-size", "18446744073709551616", "-n", "2", ring},
         "--stack-size 18446744073709551616: too large"},
        {{"run", "--heap-size", "2TiB", "-n", "2", ring}, "--heap-size 2TiB: must be at most 1TiB"},
        /* Stacks and heaps of all ranks past the address space: once a
         * crash of the dynamic linker (exit 127) after loading 125 ranks. */
        {{"run", "-n", "200", "--stack-size", "1TiB", ring},
         "-n 200 ranks with --stack-size 1TiB and --heap-size 1GiB need 200.2 TiB of address "
         "space, more than the 128 TiB"},
        {{"run", "-n", "1000000", "--heap-size", "1TiB", ring}, "more than the 128 TiB"},
        {{"explore", "-n", "200000", ring}, "need 196.8 TiB of address space"},
        {{"explore", "--max-memory", "nan", "-n", "2", ring}, "--max-memory nan: not a finite"},
        {{"run", "--seed", "-3", "-n", "2", ring}, "--seed -3"},
        {{"frobnicate", "-n", "2", ring}, "unknown command 'frobnicate'"},
        {{"calibrate"}, "missing -o FILE"},
        {{"replay", "/nonexistent/x.trace"}, "cannot read the trace"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        e2e_result *r = e2e_ordex_runv(cases[i].args);
        e2e_expect_one_line_error(r, cases[i].text, __FILE__, __LINE__);
        e2e_free(r);
    }
}

static void test_bad_files(void) {
    e2e_result *r = RUN("run", "-n", "2", "/nonexistent/prog.so");
    EXPECT_ONE_LINE_ERROR(r, "/nonexistent/prog.so");
    EXPECT_ERR_HAS(r, "no such file");
    e2e_free(r);
    r = RUN("run", "-n", "2", "/nonexistent/prog.c");
    EXPECT_ONE_LINE_ERROR(r, "/nonexistent/prog.c");
    e2e_free(r);

    /* A shared object that ordexcc did not build. */
    const char *plain_c = e2e_tmp("plain.c");
    const char *plain_so = e2e_tmp("plain.so");
    g_file_set_contents(plain_c, "int main(void) { return 0; }\n", -1, NULL);
    const char *gcc[] = {"gcc", "-shared", "-fPIC", "-o", plain_so, plain_c, NULL};
    e2e_result *cc = e2e_exec(gcc);
    EXPECT_STATUS(cc, 0);
    e2e_free(cc);
    r = RUN("run", "-n", "2", plain_so);
    EXPECT_ONE_LINE_ERROR(r, "not a program built by ordexcc");
    EXPECT_ERR_HAS(r, "plain.so");
    e2e_free(r);

    /* Not an ELF file at all. */
    const char *text_so = e2e_tmp("text.so");
    g_file_set_contents(text_so, "hello\n", -1, NULL);
    r = RUN("run", "-n", "2", text_so);
    EXPECT_ONE_LINE_ERROR(r, "not a program built by ordexcc");
    e2e_free(r);

    /* A C file with a syntax error: the compiler's messages, then ordex's line. */
    const char *bad_c = e2e_tmp("syntax_error.c");
    g_file_set_contents(bad_c,
                        "#include <mpi.h>\nint main(int argc, char **argv) {\n"
                        "    MPI_Init(&argc, &argv)\n    return 0;\n}\n",
                        -1, NULL);
    r = RUN("run", "-n", "2", bad_c);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "syntax_error.c:3:"); /* the compiler says where */
    EXPECT(r, g_str_has_suffix(r->err, "syntax_error.c: compilation failed (see the compiler's "
                                       "messages above)\n"));
    EXPECT_ERR_LACKS(r, "ordex: ERROR");
    EXPECT(r, r->out[0] == '\0');
    e2e_free(r);
}

/* Ranks whose stacks cannot all be mapped (here under a limit of 7.6 GiB
 * of address space, which 1000 stacks of 8 MiB exceed): the one-line error
 * and exit status 2.  It was followed by the dynamic linker's assertion
 * "_dl_fini: Assertion `ns != LM_ID_BASE || i == nloaded' failed" and exit
 * status 127, the loaded copies having been left off its list. */
static void test_stacks_past_the_limit(void) {
    char *cmd = g_strdup_printf("ulimit -v 8000000 && exec %s run -n 1000 --heap-size 64KiB %s 3",
                                e2e_ordex(), S("examples/ring.c"));
    const char *argv[] = {"sh", "-c", cmd, NULL};
    e2e_result *r = e2e_exec(argv);
    EXPECT_ONE_LINE_ERROR(r, "cannot map a 8388608-byte stack for rank");
    EXPECT_ERR_LACKS(r, "Assertion");
    e2e_free(r);
    g_free(cmd);
}

/* Number of entries of dir whose name starts with prefix. */
static int count_entries(const char *dir, const char *prefix) {
    int n = 0;
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d)))
        n += g_str_has_prefix(name, prefix);
    if (d)
        g_dir_close(d);
    return n;
}

/* Running the program leaves nothing in the temporary directory, whether
 * it stops at an MPI function ordex does not implement, is refused (a
 * library that cannot be found) or ordex dies while it loads: each once
 * left an ordex-ranks-* directory there. */
static void test_refused_leaves_no_files(void) {
    const char *tmp = e2e_tmp("refused_tmpdir");
    g_mkdir_with_parents(tmp, 0755);
    char *env_tmp = g_strdup_printf("TMPDIR=%s", tmp);
    const char *src = e2e_tmp("uses_io.c");
    g_file_set_contents(src,
                        "#include <mpi.h>\n"
                        "int main(int argc, char **argv) {\n"
                        "    MPI_Init(&argc, &argv);\n"
                        "    char port[MPI_MAX_PORT_NAME];\n"
                        "\n"
                        "    MPI_Open_port(MPI_INFO_NULL,\n"
                        "                  port);\n"
                        "    MPI_Finalize();\n"
                        "    return 0;\n"
                        "}\n",
                        -1, NULL);
    const char *argv[] = {"env", env_tmp, e2e_ordex(), "run", "-n", "2", src, NULL};
    e2e_result *r = e2e_exec(argv);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "rank 0 called MPI_Open_port, which ordex does not implement\n"
                      "  at uses_io.c:6\n");
    EXPECT(r, count_entries(tmp, "ordex-ranks-") == 0);
    e2e_free(r);
    /* A program that needs a library nobody can find. */
    const char *lib_c = e2e_tmp("libgone.c");
    const char *lib_so = e2e_tmp("libgone.so");
    const char *prog_c = e2e_tmp("needs_gone.c");
    const char *prog_so = e2e_tmp("needs_gone.so");
    g_file_set_contents(lib_c, "int gone(void) { return 1; }\n", -1, NULL);
    g_file_set_contents(prog_c,
                        "#include <mpi.h>\nint gone(void);\n"
                        "int main(int argc, char **argv) {\n"
                        "    MPI_Init(&argc, &argv);\n    MPI_Finalize();\n    return gone();\n}\n",
                        -1, NULL);
    r = RUN("cc", "-o", lib_so, lib_c);
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    char *ldir = g_strdup_printf("-L%s", e2e_tmp(""));
    r = RUN("cc", "-o", prog_so, prog_c, ldir, "-lgone");
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    g_unlink(lib_so);
    const char *argv2[] = {"env", env_tmp, e2e_ordex(), "run", "-n", "2", prog_so, NULL};
    r = e2e_exec(argv2);
    EXPECT_ONE_LINE_ERROR(r, "libgone.so: cannot open shared object file");
    EXPECT(r, count_entries(tmp, "ordex-ranks-") == 0);
    e2e_free(r);
    g_free(ldir);
    /* ordex ended by a signal while it loads (here the program's constructor
     * crashes, before any rank runs): the directory of the program copies
     * stayed behind, with a copy in it. */
    const char *ctor_c = e2e_tmp("constructor_crash.c");
    g_file_set_contents(ctor_c,
                        "#include <mpi.h>\n"
                        "__attribute__((constructor)) static void broken(void) {\n"
                        "    *(volatile int *)0 = 1;\n"
                        "}\n"
                        "int main(int argc, char **argv) {\n"
                        "    MPI_Init(&argc, &argv);\n    MPI_Finalize();\n    return 0;\n}\n",
                        -1, NULL);
    const char *argv3[] = {"env", env_tmp, e2e_ordex(), "run", "-n", "2", ctor_c, NULL};
    r = e2e_exec(argv3);
    EXPECT(r, r->status != 0);
    EXPECT(r, count_entries(tmp, "ordex-ranks-") == 0);
    e2e_free(r);
    g_free(env_tmp);
}

/* ---------------------------------------------------------------------- */
/* ordexcc                                                                 */

static bool elf_type_is(const char *path, int type) {
    char *bytes = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &bytes, &len, NULL))
        return false;
    bool ok = len > 18 && memcmp(bytes, "\177ELF", 4) == 0 && bytes[16] == type;
    g_free(bytes);
    return ok;
}

static void test_ordexcc_build_and_run(void) {
    const char *so = e2e_tmp("ring_cc.so");
    e2e_result *r = RUN("cc", "-O2", "-o", so, S("examples/ring.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, elf_type_is(so, 3)); /* ET_DYN */
    e2e_free(r);
    r = RUN("run", "-n", "4", so, "3");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "ring.n4.k3");
    e2e_free(r);

    /* Invoked under the name ordexcc, the binary is the compiler. */
    const char *link = e2e_tmp("ordexcc");
    unlink(link);
    EXPECT(NULL, symlink(e2e_ordex(), link) == 0);
    const char *so2 = e2e_tmp("heat_cc.so");
    const char *argv[] = {link, "-o", so2, S("examples/heat.c"), NULL};
    r = e2e_exec(argv);
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    r = RUN("run", "-n", "3", so2);
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "heat.n3");
    e2e_free(r);
}

static void test_ordexcc_object(void) {
    const char *obj = e2e_tmp("ring_cc.o");
    e2e_result *r = RUN("cc", "-c", "-o", obj, S("examples/ring.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, elf_type_is(obj, 1)); /* ET_REL */
    e2e_free(r);
    /* An object file is not a loadable program. */
    r = RUN("run", "-n", "2", obj);
    EXPECT_ONE_LINE_ERROR(r, "not a program built by ordexcc");
    e2e_free(r);
}

static void test_ordexcc_errors(void) {
    const char *bad_c = e2e_tmp("cc_error.c");
    g_file_set_contents(bad_c, "int main(void) { return undeclared_name; }\n", -1, NULL);
    e2e_result *r = RUN("cc", "-o", e2e_tmp("cc_error.so"), bad_c);
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "undeclared_name");
    EXPECT(r, strstr(r->err, "\nordexcc: compilation failed") ||
                  g_str_has_prefix(r->err, "ordexcc: compilation failed"));
    EXPECT(r, !g_file_test(e2e_tmp("cc_error.so"), G_FILE_TEST_EXISTS));
    e2e_free(r);
    r = RUN("cc");
    EXPECT_ONE_LINE_ERROR(r, "no input files");
    e2e_free(r);
    /* ordexcc output without main is refused by run. */
    const char *so = e2e_tmp("nomain_cc.so");
    r = RUN("cc", "-o", so, S("tests/programs/nomain.c"));
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    r = RUN("run", "-n", "2", so);
    EXPECT_ONE_LINE_ERROR(r, "no main function");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Counts in words                                                         */

/* Nothing ordex printed says "1 ranks", "1 steps", ...: a count of one
 * takes the singular. */
static void expect_no_one_plural(const e2e_result *r, const char *file, int line) {
    static const char pattern[] =
        "(^|[^0-9.])1 (ranks|steps|messages|states|branching states|transitions|orderings|"
        "snapshots|errors|placements|cores|nodes|alternatives|members|rounds|sizes|departures)\\b";
    char *both = g_strconcat(r->out, r->err, NULL);
    GMatchInfo *m = NULL;
    GRegex *re = g_regex_new(pattern, G_REGEX_MULTILINE, 0, NULL);
    bool bad = g_regex_match(re, both, 0, &m);
    char *what = bad ? g_strdup_printf("no count of one in the plural (found \"%s\")",
                                       g_match_info_fetch(m, 0))
                     : g_strdup("no count of one in the plural");
    e2e_check(!bad, r, what, file, line);
    g_free(what);
    g_match_info_free(m);
    g_regex_unref(re);
    g_free(both);
}
#define EXPECT_NO_ONE_PLURAL(r) expect_no_one_plural((r), __FILE__, __LINE__)

static void test_plurals(void) {
    e2e_result *r = RUN("run", "-n", "1", S("examples/ring.c"), "2");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "ordex: 1 rank, ");
    EXPECT_NO_ONE_PLURAL(r);
    e2e_free(r);
    r = RUN("run", "-n", "2", S("tests/programs/predict_p2p.c"), "overhead");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, " 1 message delivered");
    EXPECT_NO_ONE_PLURAL(r);
    e2e_free(r);
    r = RUN("explore", "--trace-dir", e2e_tmp("plural_traces"), "-n", "1", S("examples/ring.c"),
            "2");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "ordex explore: 1 rank, ");
    EXPECT_NO_ONE_PLURAL(r);
    e2e_free(r);
    /* One blocked rank, an ordering of one step. */
    r = RUN("explore", "--trace-dir", e2e_tmp("plural_traces"), "-n", "3",
            S("examples/wildcard_deadlock.c"));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "deadlock: 1 rank blocked");
    EXPECT_ERR_HAS(r, "  ordering (1 step):\n");
    EXPECT_ERR_HAS(r, "ordex explore: 1 error found\n");
    EXPECT_NO_ONE_PLURAL(r);
    e2e_free(r);
    r = RUN("predict", "-n", "1", "--no-timeline", "--set", "cluster.cores_per_node=1",
            S("examples/ring.c"), "2");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, ", 1 rank on the built-in platform (this machine: 1 node x 1 core,");
    EXPECT_NO_ONE_PLURAL(r);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* The compile cache                                                       */

/* Writes `text` to `path` and gives it the modification time `mtime`
 * (seconds and nanoseconds of a stat), so that only the content differs. */
static void set_file(const char *path, const char *text, const struct timespec *mtime) {
    CU_ASSERT(g_file_set_contents(path, text, -1, NULL));
    if (mtime) {
        struct timespec times[2] = {*mtime, *mtime};
        CU_ASSERT(utimensat(AT_FDCWD, path, times, 0) == 0);
    }
}

/* `ordex run prog.c` compiles into the cache; editing a header the program
 * includes (same size, same modification time) rebuilds it, and so does
 * editing a header of a header. */
static void test_cache_headers(void) {
    const char *dir = e2e_tmp("cache_headers");
    g_mkdir_with_parents(dir, 0755);
    char *prog = g_build_filename(dir, "prog.c", NULL);
    char *value = g_build_filename(dir, "value.h", NULL);
    char *inner = g_build_filename(dir, "inner.h", NULL);
    set_file(prog,
             "#include <mpi.h>\n#include <stdio.h>\n#include \"value.h\"\n"
             "int main(int argc, char **argv) {\n    MPI_Init(&argc, &argv);\n"
             "    printf(\"value %d inner %d\\n\", VALUE, INNER);\n"
             "    MPI_Finalize();\n    return 0;\n}\n",
             NULL);
    set_file(value, "#include \"inner.h\"\n#define VALUE 1\n", NULL);
    set_file(inner, "#define INNER 5\n", NULL);
    struct stat st;
    CU_ASSERT_FATAL(stat(value, &st) == 0);
    struct timespec vtime = st.st_mtim;
    CU_ASSERT_FATAL(stat(inner, &st) == 0);
    struct timespec itime = st.st_mtim;

    e2e_result *r = RUN("run", "-n", "1", prog);
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "value 1 inner 5\n");
    e2e_free(r);
    r = RUN("run", "-n", "1", prog); /* from the cache, the same */
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "value 1 inner 5\n");
    e2e_free(r);

    set_file(value, "#include \"inner.h\"\n#define VALUE 2\n", &vtime);
    r = RUN("run", "-n", "1", prog);
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "value 2 inner 5\n");
    e2e_free(r);

    set_file(inner, "#define INNER 6\n", &itime);
    r = RUN("run", "-n", "1", prog);
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "value 2 inner 6\n");
    e2e_free(r);

    /* Back to an earlier content: right again (from the cache or not). */
    set_file(value, "#include \"inner.h\"\n#define VALUE 1\n", &vtime);
    r = RUN("run", "-n", "1", prog);
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "value 1 inner 6\n");
    e2e_free(r);

    /* The flags are part of the key: predict builds with -O2, run without;
     * each sees the current header. */
    r = RUN("predict", "-n", "1", "--no-timeline", prog);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "value 1 inner 6\n");
    e2e_free(r);
    g_free(prog);
    g_free(value);
    g_free(inner);
}

static void e2e_add_cli_tests(CU_pSuite s) {
    CU_add_test(s, "--tag-output", test_tag_output);
    CU_add_test(s, "arguments after the program are the program's", test_program_arguments);
    CU_add_test(s, "--seed 5 keeps deterministic outputs", test_seed_ring);
    CU_add_test(s, "--seed: valid, reproducible, randomised", test_seed_waitany);
    CU_add_test(s, "determinism: identical stdout twice", test_determinism);
    CU_add_test(s, "--json", test_json);
    CU_add_test(s, "--json with a path that is not UTF-8", test_json_non_utf8_path);
    CU_add_test(s, "--json to a file that cannot be written: exit 2", test_json_write_error);
    CU_add_test(s, "-np N as mpirun spells it", test_np);
    CU_add_test(s, "FIFOs and devices are refused, never read", test_special_files);
    CU_add_test(s, "echoed input is one printable line", test_echoes_printable);
    CU_add_test(s, "-q", test_quiet);
    CU_add_test(s, "--stack-size and --heap-size", test_sizes);
    CU_add_test(s, "--eager-limit 64kB, 64k, 64KiB", test_eager_limit_units);
    CU_add_test(s, "--help and usage", test_help);
    CU_add_test(s, "bad options: exit 2, one line", test_bad_options);
    CU_add_test(s, "bad program files: exit 2", test_bad_files);
    CU_add_test(s, "stacks that cannot all be mapped: exit 2, one line",
                test_stacks_past_the_limit);
    CU_add_test(s, "a program refused at load leaves no temporary files",
                test_refused_leaves_no_files);
    CU_add_test(s, "ordexcc builds a program ordex runs", test_ordexcc_build_and_run);
    CU_add_test(s, "ordexcc -c makes an object", test_ordexcc_object);
    CU_add_test(s, "ordexcc errors", test_ordexcc_errors);
    CU_add_test(s, "the compile cache sees edited headers", test_cache_headers);
    CU_add_test(s, "counts of one in the singular", test_plurals);
}

E2E_MAIN("command line", e2e_add_cli_tests)
