/*
 * test_rma.c - end-to-end tests of one-sided communication (MPI RMA):
 * values of every operation under every synchronisation mode, the RMA
 * examples against their output under Open MPI, every RMA usage error with
 * its finding and line, deadlocks that involve RMA synchronisation, lock
 * grants explored as choices and replayed from traces, and the state hash
 * of shared-memory windows.
 *
 * Source lines are found through the marker comments of the programs
 * ("/" "* [LOCK1] *" "/"), so editing a program does not break these tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run("run", __VA_ARGS__, NULL)
#define EX(...) e2e_ordex_run("explore", "--max-time", "60", __VA_ARGS__, NULL)
#define PROG(name) e2e_src("tests/programs/" name)
#define EXAMPLE(name) e2e_src("examples/" name)
#define NO_ERROR_LINE "ordex explore: all orderings explored: no error exists for this input\n"

/* explore found no error and the outcome is the same in every ordering. */
static void expect_explored_clean(const e2e_result *r, const char *file, int line) {
    e2e_check(r->status == 0, r, "exit status 0", file, line);
    e2e_check(strstr(r->err, "ERROR [") == NULL && strstr(r->err, "WARNING [") == NULL, r,
              "no finding", file, line);
    e2e_check(strstr(r->err, "INCOMPLETE") == NULL, r, "exploration complete", file, line);
    e2e_check(g_str_has_suffix(r->err, NO_ERROR_LINE), r, "last line: no error exists", file, line);
}
#define EXPECT_EXPLORED_CLEAN(r) expect_explored_clean((r), __FILE__, __LINE__)

/* The number of orderings explore ran to the end ("N orderings run to the end"). */
static long orderings(const e2e_result *r) {
    const char *p = strstr(r->err, " orderings run to the end");
    if (!p)
        return -1;
    while (p > r->err && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return strtol(p, NULL, 10);
}

/* ---------------------------------------------------------------------- */
/* Values                                                                  */

static void test_ring_every_mode(void) {
    e2e_result *r = RUN("-n", "4", PROG("rma_ring.c"));
    EXPECT_CLEAN(r);
    /* rank R's left neighbour is L: it wrote L*10 + phase into R's slots. */
    EXPECT_OUT_HAS(r, "rank 0: fence 30 pscw 31 lock 32 rput 33 get 20 rget 2\n");
    EXPECT_OUT_HAS(r, "rank 1: fence 0 pscw 1 lock 2 rput 3 get 30 rget 12\n");
    EXPECT_OUT_HAS(r, "rank 2: fence 10 pscw 11 lock 12 rput 13 get 0 rget 22\n");
    EXPECT_OUT_HAS(r, "rank 3: fence 20 pscw 21 lock 22 rput 23 get 10 rget 32\n");
    EXPECT_OPENMPI_OUTPUT(r, "rma_ring.n4");
    e2e_free(r);
    r = RUN("-n", "2", PROG("rma_ring.c"));
    EXPECT_CLEAN(r);
    EXPECT_OPENMPI_OUTPUT(r, "rma_ring.n2");
    e2e_free(r);
    /* One rank: every operation targets the rank itself. */
    r = RUN("-n", "1", PROG("rma_ring.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: fence 0 pscw 1 lock 2 rput 3 get 0 rget 2\n");
    e2e_free(r);
    /* Every order of the lock grants, MPI_Win_test polling: the same output. */
    r = EX("-n", "3", PROG("rma_ring.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
}

static void test_accumulates(void) {
    e2e_result *r = RUN("-n", "4", PROG("rma_acc.c"));
    EXPECT_CLEAN(r);
    for (int k = 0; k < 4; k++) {
        char *l = g_strdup_printf("rank %d: noop fetched 1000\n", k);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
        l = g_strdup_printf("rank %d: rget_accumulate fetched 42\n", k);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
    }
    /* every flush variant made the fetched values available */
    EXPECT_OUT_LACKS(r, "not ready");
    EXPECT_OUT_HAS(r, "raccumulate 6\n"); /* 0 + 1 + 2 + 3 */
    /* SUM of 1..4, MAX of r*7%5 = 0,2,4,1, MIN with 100, BOR of r and r<<4,
     * REPLACE, 8 tickets, one CAS winner, distinct get_accumulate values;
     * w[0] got 1 from each get_accumulate. */
    EXPECT_OUT_HAS(r, "sum 10 max 4 min 0 bor 3/48 replace 42 counter 8 fop-ok yes "
                      "cas-winners 1 gacc-ok yes\n");
    EXPECT_OUT_HAS(r, "final sum 14\n");
    e2e_free(r);
    /* The same in every order of the lock grants and of the accumulates (two
     * ranks: with three, the orders of their 18 fetching accumulates make
     * 40,000 states, half a minute). */
    r = EX("-n", "2", PROG("rma_acc.c"));
    EXPECT_EXPLORED_CLEAN(r);
    e2e_free(r);
}

static void test_types_units_attributes(void) {
    e2e_result *r = RUN("-n", "3", PROG("rma_types.c"));
    EXPECT_CLEAN(r);
    /* rank 1's column 0 was put by rank 0 (a vector on the target side);
     * rank 1 got rank 0's row 1, whose column 2 rank 2 had put (1 + 2.5) */
    EXPECT_OUT_HAS(r, "rank 1: column 0 = 0.5 1.5 2.5 3.5; row of 0 = 4 5 3.5 7 (gaps 0)\n");
    /* rank 2 got rank 1's row 1, whose column 0 rank 0 had put */
    EXPECT_OUT_HAS(r, "rank 2: column 1 = 1.5 2.5 3.5 4.5; row of 1 = 1.5 105 106 107 (gaps 0)\n");
    EXPECT_OUT_HAS(r, "rank 0: base ok 1 size 128 unit 8 allocate 1 unified 1 group ident 1\n");
    EXPECT_OUT_HAS(r, "rank 1: ints 0 0 0 7 0 0\n"); /* displacement 3 x 4 bytes */
    EXPECT_OUT_HAS(r, "rank 0: dynamic sum 3\n");
    EXPECT_OPENMPI_OUTPUT(r, "rma_types.n3");
    e2e_free(r);
    r = RUN("-n", "2", PROG("rma_types.c"));
    EXPECT_CLEAN(r);
    EXPECT_OPENMPI_OUTPUT(r, "rma_types.n2");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* The examples: `run` as Open MPI, `explore` without error                */

typedef struct example_case {
    const char *file, *n, *arg, *expected;
} example_case;

static const example_case examples[] = {
    {"rma_halo.c", "4", NULL, "rma_halo.n4"},
    {"rma_halo.c", "3", NULL, "rma_halo.n3"},
    {"rma_counter.c", "3", NULL, "rma_counter.n3"},
    {"rma_counter.c", "4", "3", "rma_counter.n4.k3"},
    {"rma_pscw.c", "4", NULL, "rma_pscw.n4"},
    {"rma_pscw.c", "2", "6", "rma_pscw.n2.6"},
    {"rma_shared.c", "4", NULL, "rma_shared.n4"},
    {"rma_shared.c", "1", NULL, "rma_shared.n1"},
    {"rma_lockq.c", "3", NULL, "rma_lockq.n3"},
    {"rma_lockq.c", "4", "6", "rma_lockq.n4.6"},
};

static void test_examples_as_openmpi(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(examples); i++) {
        const example_case *c = &examples[i];
        char *path = g_strdup_printf("examples/%s", c->file);
        const char *args[] = {"run", "-n", c->n, e2e_src(path), c->arg, NULL};
        g_free(path);
        e2e_result *r = e2e_ordex_runv(args);
        EXPECT_CLEAN(r);
        EXPECT_OPENMPI_OUTPUT(r, c->expected);
        e2e_free(r);
    }
    /* Arguments that change the work, against their own recordings. */
    e2e_result *r = RUN("-n", "2", EXAMPLE("rma_halo.c"), "100", "30");
    EXPECT_OPENMPI_OUTPUT(r, "rma_halo.n2.100.30");
    e2e_free(r);
    r = RUN("-n", "3", EXAMPLE("rma_shared.c"), "16", "25");
    EXPECT_OPENMPI_OUTPUT(r, "rma_shared.n3.16.25");
    e2e_free(r);
}

static void test_examples_explored(void) {
    /* rma_counter draws one ticket per rank: with its default two, the
     * orders of the six fetch-and-ops of each counter make 17,440 states. */
    static const char *const files[][3] = {
        {"rma_halo.c", "4", NULL},   {"rma_counter.c", "3", "1"}, {"rma_pscw.c", "4", NULL},
        {"rma_shared.c", "4", NULL}, {"rma_lockq.c", "3", NULL},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
        char *path = g_strdup_printf("examples/%s", files[i][0]);
        e2e_result *r = EX("-n", files[i][1], e2e_src(path), files[i][2]);
        EXPECT_EXPLORED_CLEAN(r);
        g_free(path);
        e2e_free(r);
    }
    /* The contended exclusive locks of the counter are granted in every
     * order: 3 ranks drawing 2 tickets each, 6!/(2!2!2!) = 90 orders of the
     * exclusive phase alone, in each of the two passes (buffered and
     * unbuffered sends). */
    e2e_result *r = EX("-n", "3", EXAMPLE("rma_counter.c"));
    EXPECT(r, orderings(r) >= 180);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* The racy twins of the examples                                          */

/* One race between the lines of two markers ("/" "* [A] *" "/"); a == b for
 * two ranks at the same line. */
typedef struct race_pair {
    const char *a, *b;
} race_pair;

typedef struct racy_case {
    const char *cmd, *file, *n, *arg1, *arg2;
    int nerrors; /* ordex reports each pair of lines (and ranks) once */
    race_pair races[2];
} racy_case;

static const racy_case racy[] = {
    {"run", "rma_halo_racy.c", "4", NULL, NULL, 2, {{"PUTR", "READ"}, {"PUTL", "READ"}}},
    {"explore", "rma_halo_racy.c", "4", NULL, NULL, 2, {{"PUTR", "READ"}, {"PUTL", "READ"}}},
    {"run", "rma_pscw_racy.c", "4", NULL, NULL, 1, {{"PUT", "READ"}}},
    {"explore", "rma_pscw_racy.c", "4", NULL, NULL, 1, {{"PUT", "READ"}}},
    {"run", "rma_shared_racy.c", "4", NULL, NULL, 2, {{"LOAD", "STORE"}, {"LOADR", "STORE"}}},
    {"explore", "rma_shared_racy.c", "4", NULL, NULL, 2, {{"LOAD", "STORE"}, {"LOADR", "STORE"}}},
    {"run", "rma_counter.c", "3", "--racy", NULL, 2, {{"GET", "PUT"}, {"PUT", "PUT"}}},
    /* every pair of the 3 ranks, in both orders for get and put */
    {"explore", "rma_counter.c", "3", "1", "--racy", 7, {{"GET", "PUT"}, {"PUT", "PUT"}}},
    {"run", "rma_lockq.c", "3", "--racy", NULL, 2, {{"GET", "TAKE"}, {"TAKE", "TAKE"}}},
    {"explore", "rma_lockq.c", "3", "--racy", NULL, 4, {{"GET", "TAKE"}, {"TAKE", "TAKE"}}},
};

/* How often "BASE:N " (N the line of `marker` in rel) occurs in text. */
static int names_line(const char *text, const char *rel, const char *marker) {
    char *base = g_path_get_basename(rel);
    char *m = g_strdup_printf("/* [%s] */", marker);
    char *at = g_strdup_printf("%s:%d ", base, e2e_marker_line(rel, m));
    int n = e2e_count(text, at);
    g_free(at);
    g_free(m);
    g_free(base);
    return n;
}

/* The finding's first line names both accesses of the pair. */
static bool names_pair(const char *head, const char *rel, const race_pair *p) {
    if (strcmp(p->a, p->b) == 0)
        return names_line(head, rel, p->a) >= 2;
    return names_line(head, rel, p->a) >= 1 && names_line(head, rel, p->b) >= 1;
}

/* Each twin: exit status 1, exactly the errors listed, all data races,
 * each naming the two marked lines of one of the listed races, and each
 * listed race reported. */
static void test_racy_twins(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(racy); i++) {
        const racy_case *c = &racy[i];
        char *rel = g_strdup_printf("examples/%s", c->file);
        const char *args[9] = {c->cmd};
        int a = 1;
        if (strcmp(c->cmd, "explore") == 0) {
            args[a++] = "--max-time";
            args[a++] = "60";
        }
        args[a++] = "-n";
        args[a++] = c->n;
        args[a++] = e2e_src(rel);
        args[a++] = c->arg1;
        args[a++] = c->arg2;
        args[a] = NULL;
        e2e_result *r = e2e_ordex_runv(args);
        EXPECT_STATUS(r, 1);
        char **lines = g_strsplit(r->err, "\n", -1);
        int errors = 0, races = 0;
        bool seen[2] = {false, false};
        for (int l = 0; lines[l]; l++) {
            const char *h = lines[l];
            if (g_str_has_prefix(h, "ordex: "))
                h += strlen("ordex: ");
            if (!g_str_has_prefix(h, "ERROR ["))
                continue;
            errors++;
            if (!g_str_has_prefix(h, "ERROR [data_race] "))
                continue;
            races++;
            bool known = false;
            for (int k = 0; k < 2 && c->races[k].a; k++) {
                if (names_pair(h, rel, &c->races[k])) {
                    seen[k] = true;
                    known = true;
                }
            }
            char *what = g_strdup_printf("%s %s: \"%s\" names the lines of a listed race", c->cmd,
                                         c->file, h);
            e2e_check(known, r, what, __FILE__, __LINE__);
            g_free(what);
        }
        g_strfreev(lines);
        char *what =
            g_strdup_printf("%s %s: %d errors, all data races", c->cmd, c->file, c->nerrors);
        e2e_check(errors == c->nerrors && races == c->nerrors, r, what, __FILE__, __LINE__);
        g_free(what);
        for (int k = 0; k < 2 && c->races[k].a; k++) {
            what = g_strdup_printf("%s %s: a data race between [%s] and [%s]", c->cmd, c->file,
                                   c->races[k].a, c->races[k].b);
            e2e_check(seen[k], r, what, __FILE__, __LINE__);
            g_free(what);
        }
        e2e_free(r);
        g_free(rel);
    }
}

/* ---------------------------------------------------------------------- */
/* Usage errors                                                            */

typedef struct error_case {
    const char *arg, *marker, *text;
} error_case;

static const error_case errors[] = {
    {"noepoch", "/* [NOEPOCH] */", "MPI_Put: rank 1 is not in an access epoch"},
    {"othertarget", "/* [OTHERTARGET] */", "holds locks on other ranks only"},
    {"unlock", "/* [UNLOCK] */", "MPI_Win_unlock without MPI_Win_lock"},
    {"relock", "/* [RELOCK] */", "MPI_Win_lock: this rank already holds a lock on rank 1"},
    {"mixfence", "/* [MIXFENCE] */", "may not be mixed on one window"},
    {"mixlock", "/* [MIXLOCK] */", "may not be mixed on one window"},
    {"complete", "/* [COMPLETE] */", "MPI_Win_complete without MPI_Win_start"},
    {"waitnopost", "/* [WAITNOPOST] */", "MPI_Win_wait without MPI_Win_post"},
    {"range", "/* [RANGE] */", "lie outside rank 1's window of 16 bytes"},
    {"disp", "/* [DISP] */", "target_disp -1 is negative"},
    {"userop", "/* [USEROP] */", "user-defined operation"},
    {"acctype", "/* [ACCTYPE] */",
     "origin elements are MPI_INT but the target elements are "
     "MPI_DOUBLE"},
    {"freeopen", "/* [FREEOPEN] */", "MPI_Win_free: this rank holds a lock on rank 1"},
    {"freepending", "/* [FREEPENDING] */",
     "MPI_Win_free: 1 operation of this rank is not "
     "completed"},
    {"winnull", "/* [WINNULL] */", "is MPI_WIN_NULL"},
    {"freed", "/* [FREED] */", "was freed by MPI_Win_free"},
    {"nullbase", "/* [NULLBASE] */", "base is NULL but size is 16 bytes"},
    {"negsize", "/* [NEGSIZE] */", "size -8 is negative"},
    {"assert", "/* [ASSERT] */", "assert 0x1 has bits"},
    {"locktype", "/* [LOCKTYPE] */", "lock_type 17 is neither MPI_LOCK_SHARED"},
    {"rput", "/* [RPUT] */", "valid only in a passive-target epoch"},
    {"noprecede", "/* [NOPRECEDE] */", "MPI_MODE_NOPRECEDE asserts"},
    {"freemem", "/* [FREEMEM] */", "is not memory that this rank got from MPI_Alloc_mem"},
    {"nolocks", "/* [NOLOCKS] */", "window rank 1 (world rank 1) gave the info no_locks=true"},
    {"samesize", "/* [SAMESIZE] */",
     "MPI_Win_create: this rank's info says same_size=true, but window rank 1 gave size 8 and "
     "window rank 0 gave 16"},
};

static void test_usage_errors(void) {
    const char *src = "tests/programs/rma_errors.c";
    for (size_t i = 0; i < G_N_ELEMENTS(errors); i++) {
        const error_case *c = &errors[i];
        e2e_result *r = RUN("-n", "3", e2e_src(src), c->arg);
        EXPECT_STATUS(r, 1);
        g_free(EXPECT_FINDING(r, 1, "mpi_error", c->text, src, c->marker));
        EXPECT_ERR_HAS(r, "rank 0: ");
        e2e_free(r);
    }
}

static void test_errors_return(void) {
    e2e_result *r = RUN("-n", "3", PROG("rma_errors.c"), "errreturn");
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: MPI_Win_unlock returned MPI_ERR_RMA_SYNC\n");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Deadlocks                                                               */

static void test_deadlock_fence(void) {
    const char *src = "tests/programs/rma_deadlock.c";
    e2e_result *r = RUN("-n", "3", e2e_src(src), "fence");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "3 ranks blocked", src, "/* [FENCE] */");
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_Win_fence(", src, "/* [FENCE] */");
    EXPECT_BLOCKED_AT(r, f, "rank 1: MPI_Win_fence(", src, "/* [FENCE] */");
    EXPECT_BLOCKED_AT(r, f, "rank 2: MPI_Recv(", src, "/* [SKIP] */");
    g_free(f);
    e2e_free(r);
}

static void test_deadlock_wait(void) {
    const char *src = "tests/programs/rma_deadlock.c";
    e2e_result *r = RUN("-n", "3", e2e_src(src), "wait");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "blocked", src, "/* [NOCOMPLETE] */");
    EXPECT_BLOCKED_AT(r, f,
                      "rank 1: MPI_Win_wait(win=0xa0000000; waits for the MPI_Win_complete of "
                      "rank 0)",
                      src, "/* [WAIT] */");
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_Recv(", src, "/* [NOCOMPLETE] */");
    EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 1 -> rank 0");
    g_free(f);
    e2e_free(r);
}

static void test_deadlock_complete(void) {
    const char *src = "tests/programs/rma_deadlock.c";
    e2e_result *r = RUN("-n", "3", e2e_src(src), "complete");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "blocked", src, "/* [COMPLETE] */");
    EXPECT_BLOCKED_AT(r, f,
                      "rank 0: MPI_Win_complete(win=0xa0000000; waits for the MPI_Win_post of "
                      "rank 1)",
                      src, "/* [COMPLETE] */");
    EXPECT_BLOCKED_AT(r, f, "rank 1: MPI_Recv(", src, "/* [NOPOST] */");
    g_free(f);
    e2e_free(r);
}

static void test_deadlock_lock(void) {
    const char *src = "tests/programs/rma_deadlock.c";
    e2e_result *r = RUN("-n", "3", e2e_src(src), "lock");
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "blocked", src, "/* [HOLD] */");
    EXPECT_BLOCKED_AT(r, f, "rank 2: MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank=1", src,
                      "/* [LOCK2] */");
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_Recv(source=2", src, "/* [HOLD] */");
    EXPECT_BLOCK_HAS(r, f, "wait-for cycle: rank 0 -> rank 2 -> rank 0");
    g_free(f);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Lock grants: explored, traced, replayed                                 */

static void test_lock_order_explored_and_replayed(void) {
    const char *src = "tests/programs/rma_lock_order.c";
    /* The order of the requests: rank 1 first, no deadlock. */
    e2e_result *r = RUN("-n", "3", e2e_src(src));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 2: got 1\n");
    e2e_free(r);
    /* Exploring grants rank 2 first too. */
    const char *dir = e2e_tmp("rma_traces");
    r = EX("--trace-dir", dir, "-n", "3", e2e_src(src));
    EXPECT_STATUS(r, 1);
    EXPECT(r, strstr(r->err, "ERROR [deadlock]") != NULL);
    char *line = g_strdup_printf("  rank 1: MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank=0, assert=0x0, "
                                 "win=0xa0000000) at rma_lock_order.c:%d\n",
                                 e2e_marker_line(src, "/* [LOCK1] */"));
    EXPECT(r, strstr(r->err, line) != NULL);
    EXPECT(r, strstr(r->err, "rank 2 gets the exclusive lock on rank 0") != NULL);
    e2e_free(r);
    char *trace = g_build_filename(dir, "rma_lock_order-1.trace", NULL);
    char *text = e2e_read_file(trace);
    EXPECT(r, text && strstr(text, " lock dst=2 src=0 tag=1 comm=") != NULL);
    g_free(text);
    /* Replaying the trace takes the same grant and finds the same deadlock,
     * with the same blocked calls. */
    e2e_result *a = e2e_ordex_run("replay", trace, NULL);
    EXPECT_STATUS(a, 1);
    EXPECT(a, strstr(a->err, "[deadlock]") != NULL);
    EXPECT(a, strstr(a->err, line + 2) != NULL);
    int hold = e2e_marker_line(src, "/* [HOLD] */");
    char *recv = g_strdup_printf("rank 2: MPI_Recv(source=1, tag=0, count=1, MPI_INT, "
                                 "MPI_COMM_WORLD) at rma_lock_order.c:%d",
                                 hold);
    EXPECT(a, strstr(a->err, recv) != NULL);
    g_free(recv);
    e2e_free(a);
    g_free(trace);
    g_free(line);
}

/* Every order of contended exclusive grants is tried: which rank draws
 * which ticket differs between them, what the program prints does not. */
static void test_lock_grant_orders(void) {
    e2e_result *r = EX("-n", "3", EXAMPLE("rma_counter.c"), "1");
    EXPECT_EXPLORED_CLEAN(r);
    /* 3 exclusive draws: 3! orders, per pass */
    EXPECT(r, orderings(r) >= 12);
    e2e_free(r);
}

/* The N of "N different outcomes" of a message race warning, 1 without one. */
static long outcomes(const e2e_result *r) {
    const char *p = strstr(r->err, " different outcomes");
    if (!p)
        return strstr(r->err, "WARNING [") ? -1 : 1;
    while (p > r->err && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return strtol(p, NULL, 10);
}

/* Which grants commute (shared with shared, different targets) is the
 * reduction's business: it must still reach every outcome that exploring
 * without it reaches. */
static void test_lock_grants_reduced(void) {
    e2e_result *a = EX("-n", "4", PROG("rma_lock_mix.c"));
    /* copy snapshots: without the reduction there are 37,000 transitions,
     * which fork snapshots take half a minute for on a busy machine */
    e2e_result *b = EX("--no-por", "--checkpoint=copy", "-n", "4", PROG("rma_lock_mix.c"));
    EXPECT_STATUS(a, 0);
    EXPECT_STATUS(b, 0);
    EXPECT(a, strstr(a->err, "WARNING [message_race]") != NULL);
    EXPECT(a, outcomes(a) == 9); /* each reader: 0, 1 or 3 */
    EXPECT(b, outcomes(b) == 9);
    EXPECT(a, orderings(a) < orderings(b)); /* and it does save work */
    e2e_free(a);
    e2e_free(b);
}

/* Concurrent fetch-and-ops apply in every order (SIM_EV_ATOMIC): each
 * assignment of tickets is an outcome, with and without the reduction. */
static void test_atomic_orders(void) {
    e2e_result *a = EX("-n", "4", PROG("rma_atomic_order.c"));
    e2e_result *b = EX("--no-por", "-n", "4", PROG("rma_atomic_order.c"));
    EXPECT_STATUS(a, 0);
    EXPECT_STATUS(b, 0);
    EXPECT(a, strstr(a->err, "WARNING [message_race]") != NULL);
    EXPECT(a, strstr(a->err, "ERROR [") == NULL);
    EXPECT(a, outcomes(a) == 6); /* 3 drawers: 3! assignments of tickets 0..2 */
    EXPECT(b, outcomes(b) == 6);
    EXPECT_ERR_HAS(a, "the accumulates of rank ");
    e2e_free(a);
    e2e_free(b);
    /* The same inside one fence epoch. */
    a = EX("-n", "4", PROG("rma_atomic_fence_order.c"));
    EXPECT_STATUS(a, 0);
    EXPECT(a, outcomes(a) == 6);
    EXPECT(a, strstr(a->err, "ERROR [") == NULL);
    e2e_free(a);
    /* run takes the first: the ranks in order. */
    e2e_result *r = RUN("-n", "3", PROG("rma_atomic_order.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 1 got ticket 0\n");
    EXPECT_OUT_HAS(r, "rank 2 got ticket 1\n");
    e2e_free(r);
}

/* MPI_Win_test that could succeed may say "not yet" (as MPI_Test). */
static void test_win_test_later(void) {
    e2e_result *a = EX("-n", "2", PROG("rma_win_test_later.c"));
    EXPECT_STATUS(a, 0);
    EXPECT(a, outcomes(a) == 2);
    EXPECT_ERR_HAS(a, "more than one test: yes");
    EXPECT_ERR_HAS(a, "more than one test: no");
    e2e_free(a);
    e2e_result *b = EX("--no-test-later", "-n", "2", PROG("rma_win_test_later.c"));
    EXPECT_EXPLORED_CLEAN(b);
    e2e_free(b);
    e2e_result *r = RUN("-n", "2", PROG("rma_win_test_later.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: buf 7, more than one test: no\n");
    e2e_free(r);
}

/* --rma-model chooses what MPI_WIN_MODEL says; anything else is refused. */
static void test_rma_model(void) {
    e2e_result *r = RUN("-n", "2", PROG("rma_model_attr.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 1: flag 1 model unified\n");
    e2e_free(r);
    r = RUN("--rma-model", "separate", "-n", "2", PROG("rma_model_attr.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: flag 1 model separate\n");
    e2e_free(r);
    r = RUN("--rma-model", "weak", "-n", "2", PROG("rma_model_attr.c"));
    EXPECT_ONE_LINE_ERROR(r, "--rma-model weak: expected unified or separate");
    EXPECT_STATUS(r, 2);
    e2e_free(r);
}

/* An accumulate that writes a flag releases what its origin completed
 * before (a flush), to a fetch-and-op that reads the flag later: the get
 * after the poll follows the put.  Without the flush between put and flag,
 * the get races with the put.  (Under run: explore of these polling loops
 * does not end, see docs/rma.md.) */
static void test_atomic_flag(void) {
    e2e_result *r = RUN("-n", "3", PROG("rma_atomic_flag_ok.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 1 got 42\n");
    e2e_free(r);
    r = RUN("-n", "3", PROG("rma_atomic_flag.c"));
    EXPECT_STATUS(r, 1);
    const char *src = "tests/programs/rma_atomic_flag.c";
    char *f = EXPECT_FINDING(r, 1, "data_race", "MPI_Put by rank 0", src, "/* [B] */");
    char *put = g_strdup_printf("rma_atomic_flag.c:%d", e2e_marker_line(src, "/* [A] */"));
    EXPECT_BLOCK_HAS(r, f, put);
    g_free(put);
    g_free(f);
    e2e_free(r);
}

/* Exploring the flag's polling loop ends: its states repeat with the
 * accumulates' events asleep, and are stored with their sleep sets. */
static void test_atomic_flag_explore(void) {
    e2e_result *r = EX("-n", "3", PROG("rma_atomic_flag_ok.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "all orderings explored: no error exists for this input");
    e2e_free(r);
    r = EX("-n", "3", PROG("rma_atomic_flag.c"));
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "[data_race]");
    EXPECT_ERR_LACKS(r, "incomplete");
    e2e_free(r);
}

/* Start and post groups that do not match: a deadlock whose blocked
 * MPI_Win_complete names the post that leaves its rank out. */
static void test_pscw_mismatch(void) {
    const char *src = "tests/programs/rma_pscw_mismatch.c";
    e2e_result *r = RUN("-n", "3", PROG("rma_pscw_mismatch.c"));
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "3 ranks blocked", NULL, NULL);
    char *why = g_strdup_printf("rank 0's MPI_Win_post at rma_pscw_mismatch.c:%d leaves this rank "
                                "out of its group: the start and post groups do not match",
                                e2e_marker_line(src, "/* [POST] */"));
    EXPECT_BLOCK_HAS(r, f, why);
    char *at =
        g_strdup_printf(") at rma_pscw_mismatch.c:%d", e2e_marker_line(src, "/* [COMPLETE] */"));
    EXPECT_BLOCK_HAS(r, f, at);
    g_free(at);
    g_free(why);
    g_free(f);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* State hashing with shared-memory windows                                */

/* Ranks store into another rank's segment of a shared window without MPI
 * knowing: that rank's memory changes while it does not run.  With
 * ORDEX_CHECK_HASHES, every state hash reused from the memo is computed
 * again; a stale one is an ordex error (exit 2, "internal error"). */
static void test_shared_window_hashes(void) {
    const char *argv[] = {"env", "ORDEX_CHECK_HASHES=1",     e2e_ordex(), "explore", "-n",
                          "4",   PROG("rma_shared_store.c"), NULL};
    e2e_result *r = e2e_exec(argv);
    EXPECT_STATUS(r, 0);
    EXPECT(r, strstr(r->err, "INCOMPLETE") == NULL);
    EXPECT(r, strstr(r->err, "internal error") == NULL);
    EXPECT(r, g_str_has_suffix(r->err, NO_ERROR_LINE));
    EXPECT(r, orderings(r) > 2); /* wildcard receives: states were hashed and compared */
    e2e_free(r);
}

static void add(CU_pSuite s) {
    CU_add_test(s, "every synchronisation mode around a ring", test_ring_every_mode);
    CU_add_test(s, "accumulates, fetch_and_op, compare_and_swap", test_accumulates);
    CU_add_test(s, "datatypes, units, attributes, dynamic windows", test_types_units_attributes);
    CU_add_test(s, "examples print what Open MPI prints", test_examples_as_openmpi);
    CU_add_test(s, "examples explored without error", test_examples_explored);
    CU_add_test(s, "racy twins of the examples: data races at their lines", test_racy_twins);
    CU_add_test(s, "usage errors", test_usage_errors);
    CU_add_test(s, "MPI_ERRORS_RETURN on a window", test_errors_return);
    CU_add_test(s, "deadlock: a fence never reached", test_deadlock_fence);
    CU_add_test(s, "deadlock: MPI_Win_wait without complete", test_deadlock_wait);
    CU_add_test(s, "deadlock: MPI_Win_complete without post", test_deadlock_complete);
    CU_add_test(s, "deadlock: a lock held across a receive", test_deadlock_lock);
    CU_add_test(s, "lock grants explored, traced and replayed",
                test_lock_order_explored_and_replayed);
    CU_add_test(s, "lock grant orders", test_lock_grant_orders);
    CU_add_test(s, "lock grants under partial-order reduction", test_lock_grants_reduced);
    CU_add_test(s, "concurrent accumulates apply in every order", test_atomic_orders);
    CU_add_test(s, "MPI_Win_test may say not yet", test_win_test_later);
    CU_add_test(s, "--rma-model and MPI_WIN_MODEL", test_rma_model);
    CU_add_test(s, "an atomic flag orders what its writer flushed before", test_atomic_flag);
    CU_add_test(s, "exploring a polling loop on an atomic flag ends", test_atomic_flag_explore);
    CU_add_test(s, "start and post groups that do not match", test_pscw_mismatch);
    CU_add_test(s, "shared windows and the state hash", test_shared_window_hashes);
}

E2E_MAIN("rma", add)
