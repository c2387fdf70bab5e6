/*
 * test_shmem.c - end-to-end tests of OpenSHMEM programs: what every
 * implemented call computes (expected values derived by hand in each
 * program, as no OpenSHMEM runs here), the examples' outputs and verdicts
 * under run, explore and replay, usage errors, deadlocks and refusals with
 * their lines, loops that poll, the symmetric heap's size, and that such
 * programs build with ordexcc and keep MPICH's mpi.h.  The race matrix of
 * OpenSHMEM programs (tests/programs/rma_race_shmem_*.c) runs in
 * test_rma_race.c.
 *
 * Source lines are found through the marker comments of the programs
 * ("[WAIT]" in a comment of its own), so editing a program does not break
 * these tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run("run", __VA_ARGS__, NULL)
#define EX(...) e2e_ordex_run("explore", "--max-time", "60", __VA_ARGS__, NULL)
#define PROG(name) e2e_src("tests/programs/" name)
#define EXAMPLE(name) e2e_src("examples/" name)
#define NO_ERROR_LINE "ordex explore: all orderings explored: no error exists for this input\n"

/* The N of "N orderings run to the end". */
static long orderings(const e2e_result *r) {
    const char *p = strstr(r->err, " orderings run to the end");
    if (!p)
        return -1;
    while (p > r->err && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return strtol(p, NULL, 10);
}

/* explore found no error, every ordering explored. */
static void expect_explored_clean(const e2e_result *r, const char *file, int line) {
    e2e_check(r->status == 0, r, "exit status 0", file, line);
    e2e_check(strstr(r->err, "ERROR [") == NULL, r, "no finding", file, line);
    e2e_check(g_str_has_suffix(r->err, NO_ERROR_LINE), r, "last line: no error exists", file, line);
}
#define EXPECT_EXPLORED_CLEAN(r) expect_explored_clean((r), __FILE__, __LINE__)

/* "base.c:N", N the line of `marker` in the workspace file rel. */
static char *at(const char *rel, const char *marker) {
    char *base = g_path_get_basename(rel);
    char *m = g_strdup_printf("/* [%s] */", marker);
    char *s = g_strdup_printf("%s:%d", base, e2e_marker_line(rel, m));
    g_free(m);
    g_free(base);
    return s;
}

/* The report has a data race whose message names the lines of markers a
 * and b of rel. */
static void expect_race(const e2e_result *r, const char *rel, const char *a, const char *b,
                        const char *file, int line) {
    char *la = at(rel, a), *lb = at(rel, b);
    const char *f = strstr(r->err, "ERROR [data_race]");
    const char *end = f ? strchr(f, '\n') : NULL;
    char *msg = f ? g_strndup(f, end ? (size_t)(end - f) : strlen(f)) : g_strdup("");
    char *what = g_strdup_printf("a data race naming %s and %s", la, lb);
    e2e_check(f && strstr(msg, la) && strstr(msg, lb), r, what, file, line);
    g_free(what);
    g_free(msg);
    g_free(la);
    g_free(lb);
}
#define EXPECT_RACE(r, rel, a, b) expect_race((r), (rel), (a), (b), __FILE__, __LINE__)

/* ---------------------------------------------------------------------- */
/* What the calls compute                                                  */

static void test_api_values(void) {
    e2e_result *r = RUN("-n", "3", PROG("shmem_api.c"));
    EXPECT_CLEAN(r);
    for (int p = 0; p < 3; p++) {
        int l = (p + 2) % 3;
        char *lines[] = {
            g_strdup_printf("PE %d: npes 3 pe_accessible 1 0 addr_accessible 1 0 ptr 1 0\n", p),
            g_strdup_printf("PE %d: put %d %d %d %d\n", p, 10 * l, 10 * l + 1, 10 * l + 2,
                            10 * l + 3),
            g_strdup_printf("PE %d: p/g %d\n", p, 1000 + p),
            g_strdup_printf("PE %d: iput %d 0 %d iget %d %d\n", p, l + 50, l + 60, 10 * p,
                            10 * p + 2),
            g_strdup_printf("PE %d: nbi %d.50 %d.25 get_nbi %d\n", p, l, l, 1000 + p),
            g_strdup_printf("PE %d: sized 77 78 hello-%d 16-bit 0x1234 128-bit %d %d\n", p, l, l,
                            l + 1),
            g_strdup_printf("PE %d: heap %d %d %d %d calloc 0 0 0 0 align 1\n", p, 10 * l,
                            10 * l + 1, 10 * l + 2, 10 * l + 3),
            g_strdup_printf("PE %d: realloc %d %d %d %d 100\n", p, 10 * l, 10 * l + 1, 10 * l + 2,
                            10 * l + 3),
            g_strdup_printf("PE %d: wait 1 test 0 1\n", p),
            g_strdup_printf("PE %d: bcast %s fcollect 0 1 2 alltoall %d %d %d\n", p,
                            p == 1 ? "0 0" : "201 202", 10 * p, 10 * p + 1, 10 * p + 2),
            g_strdup_printf("PE %d: sum 3 max 2 min 0 prod 0 and 0 or 3 xor 3 dsum 4.50\n", p),
        };
        for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
            e2e_check(strstr(r->out, lines[i]) != NULL, r, lines[i], __FILE__, __LINE__);
            g_free(lines[i]);
        }
    }
    EXPECT_OUT_HAS(r, "PE 0: amo 7 9 11 11 11 12 15 6 14 15 old 2 3 2 2.50\n");
    EXPECT_OUT_HAS(r, "PE 0: shared acc 6 cnt 3 and 0xf8 or 0x7 xor 0x70\n");
    EXPECT_OUT_HAS(r, "PE 0: lock counter 3 test_lock 0 1\n");
    EXPECT(r, e2e_lines(r->out) == 3 * 11 + 3);
    e2e_free(r);
    r = EX("--no-test-later", "-n", "3", PROG("shmem_api.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
    /* A shmem_test_lock that could get the lock may say "not yet": then
     * "test_lock 1 0", an outcome of its own, and still no error. */
    r = EX("-n", "3", PROG("shmem_api.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, strstr(r->err, "ERROR [") == NULL);
    EXPECT_ERR_HAS(r, "WARNING [message_race]");
    EXPECT_ERR_HAS(r, "PE 0: lock counter 3 test_lock 1 0");
    EXPECT_ERR_HAS(r, "all orderings explored");
    e2e_free(r);
}

/* ordex run with SHMEM_SYMMETRIC_SIZE=size in its environment. */
static e2e_result *run_with_heap(const char *size, const char *n) {
    char *var = g_strdup_printf("SHMEM_SYMMETRIC_SIZE=%s", size);
    const char *argv[] = {"env", var, e2e_ordex(), "run", "-n", n, PROG("shmem_heap_limit.c"),
                          NULL};
    e2e_result *r = e2e_exec(argv);
    g_free(var);
    return r;
}

static void test_heap_limit(void) {
    e2e_result *r = run_with_heap("4KiB", "3");
    EXPECT_STATUS(r, 0); /* NULL is the standard's answer: a warning, once */
    g_free(EXPECT_WARNING(r, 1, "symmetric_heap_full",
                          "shmem_malloc(size=3000) returns NULL on every PE: 3000 bytes do not "
                          "fit in the symmetric heap, which holds 4096 bytes with 3000 in use",
                          "tests/programs/shmem_heap_limit.c", "/* [FULL] */"));
    for (int p = 0; p < 3; p++) {
        char *l = g_strdup_printf("PE %d: 1 0 1\n", p);
        e2e_check(strstr(r->out, l) != NULL, r, l, __FILE__, __LINE__);
        g_free(l);
    }
    e2e_free(r);
    r = RUN("-n", "2", PROG("shmem_heap_limit.c")); /* the default is far larger */
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 1: 1 1 1\n");
    e2e_free(r);
    r = run_with_heap("lots", "2");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error", "SHMEM_SYMMETRIC_SIZE=lots is not a size",
                          "tests/programs/shmem_heap_limit.c", "/* [INIT] */"));
    e2e_free(r);
}

/* A program with MPI and OpenSHMEM gets MPICH's mpi.h (Open MPI keeps its
 * own beside its shmem.h), also when built with ordexcc. */
static void test_mpi_header(void) {
    const char *so = e2e_tmp("shmem_mpi_header.so");
    e2e_result *r = e2e_ordex_run("cc", "-o", so, PROG("shmem_mpi_header.c"), NULL);
    EXPECT_STATUS(r, 0);
    e2e_free(r);
    r = RUN("-n", "2", so);
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 0: MPI_COMM_WORLD 0x44000000 OpenSHMEM 1.4 x 42\n");
    EXPECT_OUT_HAS(r, "PE 1: MPI_COMM_WORLD 0x44000000 OpenSHMEM 1.4 x 42\n");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Examples                                                                */

static void test_stencil(void) {
    e2e_result *r = RUN("-n", "4", EXAMPLE("shmem_stencil.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 0: 20 15 6 1 0 0 0 0 sum 42\n");
    EXPECT_OUT_HAS(r, "PE 1: 0 0 0 0 0 0 0 0 sum 0\n");
    EXPECT_OUT_HAS(r, "PE 2: 0 0 0 0 0 0 0 0 sum 0\n");
    EXPECT_OUT_HAS(r, "PE 3: 0 0 0 0 0 1 6 15 sum 22\n");
    EXPECT_OUT_HAS(r, "total 64 after 3 steps\n");
    EXPECT(r, e2e_lines(r->out) == 5);
    e2e_free(r);
    /* 2 PEs, 5 steps: C(10, 5 + d) at ring distance d of 16 cells. */
    r = RUN("-n", "2", EXAMPLE("shmem_stencil.c"), "5");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 0: 252 210 120 45 10 1 0 0 sum 638\n");
    EXPECT_OUT_HAS(r, "PE 1: 0 0 0 1 10 45 120 210 sum 386\n");
    EXPECT_OUT_HAS(r, "total 1024 after 5 steps\n");
    e2e_free(r);
    r = EX("-n", "4", EXAMPLE("shmem_stencil.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
    /* The twin without the second barrier: a put of the next step lands
     * in a ghost cell the neighbour is still reading. */
    r = EX("-n", "4", EXAMPLE("shmem_stencil.c"), "3", "racy");
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [data_race] data race on symmetric variable 'u' of PE ");
    char *read = at("examples/shmem_stencil.c", "READ");
    char *left = at("examples/shmem_stencil.c", "PUT_LEFT");
    char *right = at("examples/shmem_stencil.c", "PUT_RIGHT");
    EXPECT(r, strstr(r->err, read) != NULL);
    EXPECT(r, strstr(r->err, left) != NULL || strstr(r->err, right) != NULL);
    g_free(read);
    g_free(left);
    g_free(right);
    e2e_free(r);
}

static void test_flag(void) {
    e2e_result *r = RUN("-n", "3", EXAMPLE("shmem_flag.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 1: block sum 828\n");
    EXPECT_OUT_HAS(r, "PE 2: block sum 1628\n");
    EXPECT(r, e2e_lines(r->out) == 2);
    e2e_free(r);
    r = EX("-n", "3", EXAMPLE("shmem_flag.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
    /* Without the fence: the race, in run, explore and the trace's replay. */
    const char *rel = "examples/shmem_flag_nofence.c";
    r = RUN("-n", "3", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_RACE(r, rel, "PUT", "READ");
    EXPECT_ERR_HAS(r, "symmetric variable 'block' of PE 1");
    EXPECT_ERR_HAS(r, "shmem_long_put by PE 0 at");
    EXPECT_ERR_HAS(r, "a load by PE 1 at");
    e2e_free(r);
    const char *json = e2e_tmp("shmem_flag_nofence.json"), *dir = e2e_tmp("traces-shmem-flag");
    r = EX("-n", "3", "--json", json, "--trace-dir", dir, e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_RACE(r, rel, "PUT", "READ");
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "error"));
    EXPECT(r, e2e_json_len(o, "findings") == 1);
    EXPECT(r, e2e_json_str_is(o, "findings[0].kind", "data_race"));
    EXPECT(r, e2e_json_num(o, "findings[0].ranks[0]") == 0);
    EXPECT(r, e2e_json_num(o, "findings[0].ranks[1]") == 1);
    const char *trace = e2e_json_str(o, "findings[0].trace");
    EXPECT(r, trace != NULL);
    if (trace) {
        e2e_result *p = e2e_ordex_run("replay", trace, NULL);
        EXPECT_STATUS(p, 1);
        EXPECT_RACE(p, rel, "PUT", "READ");
        EXPECT_OUT_HAS(p, "PE 1: block sum 828\n");
        e2e_free(p);
    }
    e2e_json_free(o);
    e2e_free(r);
}

static void test_counter(void) {
    e2e_result *r = RUN("-n", "4", EXAMPLE("shmem_counter.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "counter 12 tally 12 ticket sum 66 (expected 66)\n");
    EXPECT(r, e2e_lines(r->out) == 1);
    e2e_free(r);
    r = RUN("-n", "3", EXAMPLE("shmem_counter.c"), "5");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "counter 15 tally 15 ticket sum 105 (expected 105)\n");
    e2e_free(r);
    /* Every order of the draws (90): the tickets differ, the output not. */
    r = EX("-n", "3", EXAMPLE("shmem_counter.c"), "2");
    EXPECT_EXPLORED_CLEAN(r);
    EXPECT(r, orderings(r) >= 90);
    e2e_free(r);
    /* predict runs OpenSHMEM programs too (times: test_predict.c). */
    r = e2e_ordex_run("predict", "-n", "4", "--no-timeline", EXAMPLE("shmem_counter.c"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "counter 12 tally 12 ticket sum 66 (expected 66)\n");
    EXPECT_ERR_HAS(r, "predicted time:");
    e2e_free(r);
}

/* The lock-protected queue and its twin without the lock. */
static void test_lockq(void) {
    e2e_result *r = RUN("-n", "3", EXAMPLE("shmem_lockq.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "queue: 6 items, sum 603 (expected 603)\n");
    EXPECT(r, e2e_lines(r->out) == 1);
    e2e_free(r);
    r = EX("-n", "3", EXAMPLE("shmem_lockq.c"));
    EXPECT_EXPLORED_CLEAN(r);
    EXPECT(r, orderings(r) >= 90); /* every order of the 6 grants of 3 PEs' pairs */
    e2e_free(r);
    const char *rel = "examples/shmem_lockq_racy.c";
    r = RUN("-n", "3", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_RACE(r, rel, "GET_TAIL", "PUT_TAIL");
    EXPECT_ERR_HAS(r, "symmetric variable 'tail' of PE 0");
    EXPECT_ERR_HAS(r, "shmem_int_g by PE 1 at");
    EXPECT_ERR_HAS(r, "shmem_int_p by PE 0 at");
    e2e_free(r);
    r = EX("-n", "3", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_RACE(r, rel, "GET_TAIL", "PUT_TAIL");
    e2e_free(r);
}

/* The _to_all reductions, and a reduction by hand without a barrier. */
static void test_reduce(void) {
    e2e_result *r = RUN("-n", "4", EXAMPLE("shmem_reduce.c"));
    EXPECT_CLEAN(r);
    for (int p = 0; p < 4; p++) {
        char *line = g_strdup_printf("PE %d: sums 256 272 max 32\n", p);
        EXPECT_OUT_HAS(r, line);
        g_free(line);
    }
    EXPECT(r, e2e_lines(r->out) == 4);
    e2e_free(r);
    r = EX("-n", "3", EXAMPLE("shmem_reduce.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
    const char *rel = "examples/shmem_reduce_racy.c";
    r = RUN("-n", "4", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_RACE(r, rel, "ADD", "PUT");
    EXPECT_ERR_HAS(r, "symmetric variable 'rows' of PE 0");
    EXPECT_ERR_HAS(r, "shmem_long_put by PE 1 at");
    EXPECT_ERR_HAS(r, "a load by PE 0 at");
    e2e_free(r);
    r = EX("-n", "3", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_RACE(r, rel, "ADD", "PUT");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Usage errors, deadlocks, refusals                                       */

typedef struct error_case {
    const char *name;   /* argv[1] of shmem_errors.c */
    const char *text;   /* in the finding's message */
    const char *marker; /* where it is */
} error_case;

static void test_errors(void) {
    static const error_case cases[] = {
        {"before_init", "PE 0: shmem_int_put: called before shmem_init", "/* [BEFORE_INIT] */"},
        {"after_finalize", "PE 0: shmem_int_put: called after shmem_finalize",
         "/* [AFTER_FINALIZE] */"},
        {"init_twice", "PE 0: shmem_init: called twice", "/* [INIT_TWICE] */"},
        {"nonsym", "is not a symmetric address", "/* [NONSYM] */"},
        {"pe_range", "PE 0: shmem_int_put: pe 2 is out of range: the program runs 2 PEs (0 to 1)",
         "/* [PE_RANGE] */"},
        {"stride", "PE 0: shmem_int_iput: a negative stride (dst=-1, sst=1)", "/* [STRIDE] */"},
        {"past_end",
         "PE 0: shmem_int_put: dest (4 x MPI_INT, bytes 0 to 15 of it) reaches 8 bytes past the "
         "end of a heap block of 16 bytes",
         "/* [PAST_END] */"},
        {"free", "PE 0: shmem_free: ptr", "/* [FREE] */"},
        {"clear_lock", "PE 0: shmem_clear_lock: PE 0 does not hold this lock (no PE does)",
         "/* [CLEAR_LOCK] */"},
        {"cmp", "PE 0: shmem_int_wait_until: cmp 42 is not one of SHMEM_CMP_EQ", "/* [CMP] */"},
    };
    const char *rel = "tests/programs/shmem_errors.c";
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        e2e_result *r = RUN("-n", "2", e2e_src(rel), cases[i].name);
        EXPECT_STATUS(r, 1);
        g_free(EXPECT_FINDING(r, 1, "mpi_error", cases[i].text, rel, cases[i].marker));
        e2e_free(r);
    }
    /* Without the buffer checks, the symmetric heap object still bounds a
     * remote access. */
    e2e_result *off = RUN("-n", "2", "--buffer-checks=off", e2e_src(rel), "past_end");
    EXPECT_STATUS(off, 1);
    g_free(EXPECT_FINDING(off, 1, "mpi_error",
                          "runs past the end of its symmetric heap object (16 bytes from "
                          "shmem_malloc",
                          rel, "/* [PAST_END] */"));
    e2e_free(off);
    /* Collective calls that do not match name both PEs and lines. */
    char *m = at(rel, "MISMATCH");
    char *text = g_strdup_printf("OpenSHMEM collective mismatch: as their 2nd collective call, PE "
                                 "0 calls shmem_malloc(size=16) at %s and PE 1 calls "
                                 "shmem_malloc(size=32) at %s",
                                 m, m);
    e2e_result *r = RUN("-n", "2", e2e_src(rel), "mismatch");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error", text, rel, "/* [MISMATCH] */"));
    e2e_free(r);
    g_free(text);
    g_free(m);
    char *o0 = at(rel, "ORDER0"), *o1 = at(rel, "ORDER1");
    text = g_strdup_printf("PE 0 calls shmem_barrier_all at %s and PE 1 calls shmem_sync_all at %s",
                           o0, o1);
    r = EX("-n", "2", e2e_src(rel), "order");
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [mpi_error] OpenSHMEM collective mismatch");
    e2e_check(strstr(r->err, text) != NULL, r, text, __FILE__, __LINE__);
    e2e_free(r);
    g_free(text);
    g_free(o0);
    g_free(o1);
    /* Every PE that ends without shmem_finalize. */
    r = RUN("-n", "2", e2e_src(rel), "no_finalize");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 2, "mpi_error", "PE 1 ended (status 0) without calling shmem_finalize",
                          rel, "/* [LAST] */"));
    EXPECT_ERR_HAS(r, "PE 0 ended (status 0) without calling shmem_finalize");
    e2e_free(r);
}

/* "  rank R: CALL at base.c:N\n" as a deadlock report lists a blocked PE. */
static char *blocked(int rank, const char *call, const char *rel, const char *marker) {
    char *name = g_strndup(marker + 4, strlen(marker) - 8); /* the X of the marker [X] */
    char *l = at(rel, name);
    g_free(name);
    char *s = g_strdup_printf("  rank %d: %s at %s\n", rank, call, l);
    g_free(l);
    return s;
}

static void test_deadlocks(void) {
    const char *rel = "tests/programs/shmem_deadlock.c";
    /* A flag nobody sets. */
    e2e_result *r = RUN("-n", "3", e2e_src(rel), "wait");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "3 ranks blocked", rel, "/* [BARRIER] */");
    char *w = blocked(1, "shmem_int_wait_until(ivar=&flag, cmp=SHMEM_CMP_EQ, value=1)", rel,
                      "/* [WAIT] */");
    char *b0 = blocked(0, "shmem_barrier_all(all PEs)", rel, "/* [BARRIER] */");
    EXPECT_BLOCK_HAS(r, f, w);
    EXPECT_BLOCK_HAS(r, f, b0);
    EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 1 -> rank 0");
    g_free(f);
    e2e_free(r);
    r = EX("-n", "3", e2e_src(rel), "wait");
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [deadlock]");
    EXPECT_ERR_HAS(r, w);
    e2e_free(r);
    g_free(w);
    /* A lock never released. */
    r = RUN("-n", "3", e2e_src(rel), "lock");
    EXPECT_STATUS(r, 1);
    f = EXPECT_FINDING(r, 1, "deadlock", "3 ranks blocked", rel, "/* [BARRIER] */");
    char *l1 = blocked(1, "shmem_set_lock(lock=&lock)", rel, "/* [LOCK1] */");
    EXPECT_BLOCK_HAS(r, f, l1);
    EXPECT_BLOCK_HAS(r, f, b0);
    EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 1 -> rank 0");
    g_free(l1);
    g_free(f);
    e2e_free(r);
    /* A missing barrier. */
    r = RUN("-n", "3", e2e_src(rel), "barrier");
    EXPECT_STATUS(r, 1);
    f = EXPECT_FINDING(r, 1, "deadlock", "3 ranks blocked", rel, "/* [WAIT0] */");
    char *w0 = blocked(0, "shmem_int_wait_until(ivar=&flag, cmp=SHMEM_CMP_EQ, value=1)", rel,
                       "/* [WAIT0] */");
    char *b1 = blocked(1, "shmem_barrier_all(all PEs)", rel, "/* [BARRIER] */");
    EXPECT_BLOCK_HAS(r, f, w0);
    EXPECT_BLOCK_HAS(r, f, b1);
    g_free(w0);
    g_free(b1);
    g_free(f);
    e2e_free(r);
    g_free(b0);
}

static void test_unsupported(void) {
    const char *rel = "tests/programs/shmem_unsupported.c";
    static const char *const cases[][3] = {
        {"broadcast", "rank 0 called shmem_broadcast, which ordex does not implement", "BROADCAST"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *json = e2e_tmp("shmem_unsupported.json");
        e2e_result *r = RUN("-n", "3", "--json", json, e2e_src(rel), cases[i][0]);
        EXPECT_STATUS(r, 2);
        char *l = at(rel, cases[i][2]);
        char *want = g_strdup_printf("ordex: UNSUPPORTED %s", cases[i][1]);
        char *where = g_strdup_printf("\n  at %s\n", l);
        e2e_check(strstr(r->err, want) != NULL, r, want, __FILE__, __LINE__);
        e2e_check(strstr(r->err, where) != NULL, r, where, __FILE__, __LINE__);
        g_free(where);
        JsonObject *o = EXPECT_JSON_FILE(r, json);
        EXPECT(r, e2e_json_str_is(o, "verdict", "unsupported"));
        EXPECT(r, e2e_json_str_is(o, "findings[0].kind", "unsupported"));
        e2e_json_free(o);
        g_free(want);
        g_free(l);
        e2e_free(r);
    }
}

/* Collectives on active sets other than all PEs, shmem_collect and
 * shmem_alltoalls (once refused); a PE outside the set; a set's barrier
 * that one member never calls. */
static void test_active_sets(void) {
    e2e_result *r = RUN("-n", "3", PROG("shmem_active_set.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 0: even sum 4 bcast 102\n");
    EXPECT_OUT_HAS(r, "PE 2: even sum 4 bcast 0\n");
    EXPECT_OUT_HAS(r, "PE 1: pair 1 2\n");
    EXPECT_OUT_HAS(r, "PE 2: pair 1 2\n");
    for (int p = 0; p < 3; p++) {
        char *c = g_strdup_printf("PE %d: collect 0 10 11 20 21 22\n", p);
        char *a = g_strdup_printf("PE %d: alltoalls %d %d %d\n", p, p, 100 + p, 200 + p);
        EXPECT_OUT_HAS(r, c);
        EXPECT_OUT_HAS(r, a);
        g_free(c);
        g_free(a);
    }
    EXPECT(r, e2e_lines(r->out) == 10);
    e2e_free(r);
    r = EX("-n", "3", PROG("shmem_active_set.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
    const char *rel = "tests/programs/shmem_set_member.c";
    r = RUN("-n", "3", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [mpi_error] PE 2: shmem_barrier: PE 2 is not in the active set "
                      "PE_start=0, logPE_stride=0, PE_size=2");
    char *l = at(rel, "BARRIER");
    char *where = g_strdup_printf("\n  at %s\n", l);
    EXPECT_ERR_HAS(r, where);
    g_free(where);
    g_free(l);
    e2e_free(r);
    rel = "tests/programs/shmem_set_deadlock.c";
    r = EX("-n", "3", e2e_src(rel));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [deadlock]");
    l = at(rel, "BARRIER");
    char *blocked = g_strdup_printf("rank 0: shmem_barrier(PE_start=0, logPE_stride=0, "
                                    "PE_size=2) at %s\n",
                                    l);
    EXPECT_ERR_HAS(r, blocked);
    g_free(blocked);
    g_free(l);
    l = at(rel, "ALL");
    blocked = g_strdup_printf("rank 1: shmem_barrier_all(all PEs) at %s\n", l);
    EXPECT_ERR_HAS(r, blocked);
    g_free(blocked);
    g_free(l);
    e2e_free(r);
}

/* shmem_wait_until woken by MPI data: a message, a nonblocking broadcast,
 * an MPI_Put into a window (which used to be a deadlock). */
static void test_wait_mpi(void) {
    const char *modes[] = {"send", "ibcast", "put"};
    for (size_t i = 0; i < G_N_ELEMENTS(modes); i++) {
        e2e_result *r = RUN("-n", "2", PROG("shmem_wait_mpi.c"), modes[i]);
        EXPECT_CLEAN(r);
        EXPECT_OUT_HAS(r, "PE 1: flag 1\n");
        e2e_free(r);
        r = EX("-n", "2", PROG("shmem_wait_mpi.c"), modes[i]);
        EXPECT_EXPLORED_CLEAN(r);
        e2e_free(r);
    }
}

/* Contexts: what their calls compute (their races are in the race
 * matrix, rma_race_shmem_ctx_*.c; their misuse in test_shmem_usage.c). */
static void test_contexts(void) {
    e2e_result *r = RUN("-n", "2", PROG("shmem_ctx_api.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 0: got 11 12 p 7 def 8 counter 2 getmem 1 fetch 1\n");
    EXPECT_OUT_HAS(r, "PE 1: got 1 2 p 7 def 8 counter 1 getmem 11 fetch 2\n");
    EXPECT(r, e2e_lines(r->out) == 2);
    e2e_free(r);
    r = EX("-n", "2", PROG("shmem_ctx_api.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Polling loops                                                           */

static void test_spin(void) {
    const char *rel = "tests/programs/shmem_spin.c";
    e2e_result *r = RUN("-n", "2", e2e_src(rel));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "PE 1: flag 1\n");
    e2e_free(r);
    r = EX("-n", "2", e2e_src(rel));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
    /* Polling with gets ends too, but races with the put. */
    r = RUN("-n", "2", e2e_src(rel), "get");
    EXPECT_STATUS(r, 1);
    EXPECT_OUT_HAS(r, "PE 1: flag 1\n");
    EXPECT_RACE(r, rel, "SPIN_G", "SET_P");
    e2e_free(r);
    /* A flag that never comes: a livelock at the loop. */
    r = EX("-n", "2", "--step-timeout", "5", e2e_src(rel), "forever");
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ERROR [livelock] livelock: rank 1 polls with shmem_int_atomic_fetch "
                      "forever");
    EXPECT_ERR_HAS(r, "its loop came back to the same state");
    char *spin = at(rel, "SPIN");
    char *loc = g_strdup_printf("  at %s\n", spin);
    EXPECT_ERR_HAS(r, loc);
    g_free(loc);
    g_free(spin);
    e2e_free(r);
}

static void add(CU_pSuite s) {
    CU_add_test(s, "values of the calls", test_api_values);
    CU_add_test(s, "SHMEM_SYMMETRIC_SIZE", test_heap_limit);
    CU_add_test(s, "MPICH's mpi.h beside shmem.h", test_mpi_header);
    CU_add_test(s, "shmem_stencil", test_stencil);
    CU_add_test(s, "shmem_flag and shmem_flag_nofence", test_flag);
    CU_add_test(s, "shmem_counter", test_counter);
    CU_add_test(s, "shmem_lockq and shmem_lockq_racy", test_lockq);
    CU_add_test(s, "shmem_reduce and shmem_reduce_racy", test_reduce);
    CU_add_test(s, "usage errors", test_errors);
    CU_add_test(s, "deadlocks", test_deadlocks);
    CU_add_test(s, "unsupported calls", test_unsupported);
    CU_add_test(s, "active sets, collect, alltoalls", test_active_sets);
    CU_add_test(s, "contexts", test_contexts);
    CU_add_test(s, "polling loops", test_spin);
    CU_add_test(s, "shmem_wait_until woken by MPI", test_wait_mpi);
}

E2E_MAIN("shmem", add)
