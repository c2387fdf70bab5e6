/*
 * test_procstate.c - what a rank has of its own as a process: the C
 * library's state (getopt, rand, strtok, the environment, getpid), its
 * signal dispositions, mask and handlers, and children it forks.  Correct
 * programs must print what real MPICH prints (expected/); crashes must stay
 * crashes of the rank, whatever the program did with its signals; a forked
 * child must not run the simulation a second time.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define P(name) e2e_src("tests/programs/" name)
#define SRC(name) ("tests/programs/" name)

/* The report: the findings and summary, wherever the command prints them. */
static char *report_of(const e2e_result *r) {
    return g_strconcat(r->out, r->err, NULL);
}

static bool report_has(const e2e_result *r, const char *text) {
    char *all = report_of(r);
    bool ok = strstr(all, text) != NULL;
    g_free(all);
    return ok;
}

#define EXPECT_REPORT_HAS(r, text)                                                                 \
    e2e_check(report_has((r), (text)), (r), "report contains " #text, __FILE__, __LINE__)

/* ---------------------------------------------------------------------- */
/* The C library's state                                                   */

/* Every rank parses its own options, also when the others parse theirs in
 * the middle of its parse (every rank but the first used to see none). */
static void test_getopt(void) {
    e2e_result *r = RUN("run", "-n", "4", P("getopt_ranks.c"), "-m", "4", "extra", "-i", "2");
    EXPECT_CLEAN(r);
    for (int k = 0; k < 4; k++) {
        char *l = g_strdup_printf("rank %d: m=4 i=2 optind=5 operand=extra\n", k);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
    }
    EXPECT_MPICH_OUTPUT(r, "getopt_ranks.n4");
    e2e_free(r);
    r = RUN("run", "--threads", "-n", "4", P("getopt_ranks.c"), "-m", "4", "extra", "-i", "2");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "getopt_ranks.n4");
    e2e_free(r);
}

/* Unseeded rand() gives every rank the sequence a new process gets (the
 * C library's, seed 1); a rank's srand and initstate change only its own. */
static void test_rand(void) {
    srand(1); /* what a new process starts with */
    int seq[6];
    for (int i = 0; i < 6; i++)
        seq[i] = rand();
    srand(7);
    int seven[2] = {rand(), rand()};
    struct drand48_data fresh;
    memset(&fresh, 0, sizeof fresh);
    double d[2];
    drand48_r(&fresh, &d[0]);
    drand48_r(&fresh, &d[1]);

    e2e_result *r = RUN("run", "-n", "4", P("rand_ranks.c"));
    EXPECT_CLEAN(r);
    for (int k = 0; k < 4; k++) {
        char *l = g_strdup_printf("rank %d: rand %d %d %d %d\n", k, seq[0], seq[1], seq[2], seq[3]);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
        l = k == 0 ? g_strdup_printf("rank 0: then %d %d\n", seven[0], seven[1])
                   : g_strdup_printf("rank %d: then %d %d\n", k, seq[4], seq[5]);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
        l = g_strdup_printf("rank %d: drand48 %.9f %.9f\n", k, d[0], d[1]);
        EXPECT_OUT_HAS(r, l);
        g_free(l);
    }
    EXPECT_MPICH_OUTPUT(r, "rand_ranks.n4");
    e2e_free(r);
}

/* Explores `prog` (its trigger argument 1 and 2, both snapshot kinds):
 * the state it keeps in the C library decides a later crash, so the
 * crash must be found (two states that differ only there never merge). */
static void expect_state_kept(const char *prog) {
    const char *triggers[] = {"1", "2"};
    const char *modes[] = {"fork", "copy"};
    char *rel = g_strdup_printf("tests/programs/%s", prog);
    for (int t = 0; t < 2; t++)
        for (int m = 0; m < 2; m++) {
            char *ck = g_strdup_printf("--checkpoint=%s", modes[m]);
            e2e_result *r = RUN("explore", ck, "--trace-dir", e2e_tmp("procstate_traces"), "-n",
                                "3", e2e_src(rel), triggers[t]);
            EXPECT_STATUS(r, 1);
            EXPECT_REPORT_HAS(r, "ERROR [crash] rank 0 crashed: SIGABRT");
            char *at = g_strdup_printf("  at %s:%d\n", prog, e2e_marker_line(rel, "/* FAULT */"));
            EXPECT_REPORT_HAS(r, at);
            g_free(at);
            g_free(ck);
            e2e_free(r);
        }
    g_free(rel);
}

/* A rank's rand() state decides its future: exploration must not merge two
 * states that differ only there (rank 0's draw in one ordering of round 1
 * shows only in round 2, after the orderings met again). */
static void test_rand_state_is_state(void) {
    expect_state_kept("rand_merge.c");
}

/* The same for getopt's position: the scheduler keeps a copy of it for
 * its switches, and the rank's state must follow every change. */
static void test_optind_is_state(void) {
    expect_state_kept("getopt_merge.c");
}

static void test_strtok(void) {
    e2e_result *r = RUN("run", "-n", "4", P("strtok_ranks.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: 0.a 0.b 0.c\n");
    EXPECT_OUT_HAS(r, "rank 3: 3.a 3.b 3.c\n");
    EXPECT_MPICH_OUTPUT(r, "strtok_ranks.n4");
    e2e_free(r);
}

static void test_environment(void) {
    e2e_result *r = RUN("run", "-n", "4", P("env_ranks.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: var=rank 0 path=set put=(unset)\n");
    EXPECT_OUT_HAS(r, "rank 1: var=rank 1 path=(unset) put=(unset)\n");
    EXPECT_OUT_HAS(r, "rank 2: var=rank 2 path=set put=two\n");
    EXPECT_MPICH_OUTPUT(r, "env_ranks.n4");
    e2e_free(r);
}

static void test_getpid(void) {
    e2e_result *r = RUN("run", "-n", "4", P("getpid_ranks.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 0: distinct pids: 4 of 4\n");
    EXPECT(r, e2e_count(r->out, "pid stable, kill(pid, 0) = 0\n") == 4);
    EXPECT_MPICH_OUTPUT(r, "getpid_ranks.n4");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* fork                                                                    */

/* Rank 1's child returns from main without _exit: it prints once and ends
 * there; the simulation runs once, with one summary. */
static void test_fork_child(void) {
    e2e_result *r = RUN("run", "-n", "4", P("fork_child.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, e2e_count(r->out, "rank 1: child says hello\n") == 1);
    EXPECT_OUT_HAS(r, "rank 1: child ended with status 5\n");
    EXPECT(r, e2e_count(r->out, ": done\n") == 4);
    EXPECT(r, e2e_count(r->err, " ranks, ") == 1); /* one summary */
    EXPECT_MPICH_OUTPUT(r, "fork_child.n4");
    e2e_free(r);
    r = RUN("run", "--threads", "-n", "4", P("fork_child.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "fork_child.n4");
    e2e_free(r);
    r = RUN("explore", "--trace-dir", e2e_tmp("procstate_traces"), "-n", "4", P("fork_child.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_REPORT_HAS(r, "no error exists");
    char *all = report_of(r);
    EXPECT(r, e2e_count(all, "ordex explore: 4 ranks") == 1);
    g_free(all);
    e2e_free(r);
}

/* A child that goes on into MPI ends at its first MPI call, saying so. */
static void test_fork_child_mpi(void) {
    e2e_result *r = RUN("run", "-n", "4", P("fork_child.c"), "mpi");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "ordex: a process that rank 1 forked called MPI_Barrier at fork_child.c:");
    EXPECT_OUT_HAS(r, "rank 1: child ended with status 1\n");
    EXPECT(r, e2e_count(r->out, ": done\n") == 4);
    EXPECT(r, e2e_count(r->err, " ranks, ") == 1);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Signals                                                                 */

/* Handlers that a process survives: siglongjmp out of one, one that makes
 * the faulting write possible and returns, one for raise(); sigaction's old
 * action and the mask as each rank set them. */
static void test_signal_handlers_survived(void) {
    e2e_result *r = RUN("run", "-n", "4", P("signal_ok.c"));
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 1: recovered from 2 faults\n");
    EXPECT_OUT_HAS(r, "rank 2: wrote 42 after 1 fault, seen from the handler: yes\n");
    EXPECT_OUT_HAS(r, "rank 3: SIGSEGV handler: its own, blocked: SIGSEGV SIGUSR1\n");
    EXPECT_MPICH_OUTPUT(r, "signal_ok.n4");
    e2e_free(r);
    r = RUN("run", "--threads", "-n", "4", P("signal_ok.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "signal_ok.n4");
    e2e_free(r);
    r = RUN("explore", "--trace-dir", e2e_tmp("procstate_traces"), "-n", "4", P("signal_ok.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_REPORT_HAS(r, "no error exists");
    e2e_free(r);
}

typedef struct {
    const char *mode; /* signal_crash.c's argument */
    const char *kind; /* finding kind */
    const char *text; /* start of the message */
    const char *note; /* what the report says of the program's handling, or NULL */
    const char *out;  /* a line the program prints first, or NULL */
    bool end_marker;  /* the location lies between "FAULT mode" and "FAULT mode END" */
} crash_case;

static const crash_case g_crashes[] = {
    {"dfl", "crash", "rank 1 crashed: SIGSEGV", NULL, NULL, false},
    {"ign", "crash", "rank 1 crashed: SIGSEGV",
     "the program set SIGSEGV to SIG_IGN, which a fault overrides", "rank 1: raise ignored\n",
     false},
    {"exit", "crash", "rank 1 crashed: SIGSEGV",
     "the program's own SIGSEGV handler ran, then the rank exited with status 3",
     "rank 1: caught signal 11\n", false},
    {"reraise", "crash", "rank 1 crashed: SIGSEGV",
     "the program's own SIGSEGV handler ran, then SIGSEGV with its default action ended the rank",
     "rank 1: caught signal 11\n", false},
    {"longjmp", "crash", "rank 1 crashed: SIGSEGV",
     "SIGSEGV was still blocked: the program left its SIGSEGV handler with longjmp",
     "rank 1: recovered\n", false},
    {"abort", "crash", "rank 1 crashed: SIGABRT",
     "the program's own SIGABRT handler returned, and abort() then ends the process",
     "rank 1: SIGABRT handler returns\n", false},
    {"barrier", "crash", "rank 1 crashed: SIGSEGV",
     "the program's own SIGSEGV handler ran, then the rank exited with status 2",
     "rank 1: handler passed the barrier\n", false},
    {"overflow", "crash", "rank 1 overflowed its stack",
     "the program's own SIGSEGV handler ran, then the rank exited with status 4",
     "rank 1: overflow handled on the alternate stack\n", true},
    {"mask", "crash", "rank 1 crashed: SIGSEGV",
     "the program blocked SIGSEGV (sigprocmask), which a fault overrides", NULL, false},
};

static void check_crash_run(const crash_case *c, e2e_result *r) {
    char *marker = g_strdup_printf("/* FAULT %s */", c->mode);
    char *end = g_strdup_printf("/* FAULT %s END */", c->mode);
    EXPECT_STATUS(r, 1);
    char *f = e2e_expect_finding(r, 1, c->kind, c->text, SRC("signal_crash.c"), marker,
                                 c->end_marker ? end : NULL, __FILE__, __LINE__);
    if (c->note)
        EXPECT_BLOCK_HAS(r, f, c->note);
    else
        EXPECT_BLOCK_LACKS(r, f, "the program");
    if (c->out)
        EXPECT(r, e2e_count(r->out, c->out) == 1);
    EXPECT_OUT_LACKS(r, "rank 1: survived");
    g_free(f);
    g_free(marker);
    g_free(end);
}

/* Whatever the program set for its signals, a crash of rank 1 is reported
 * where it happened (ordex itself used to die of the signal), with what the
 * program's own handling did. */
static void test_signal_crashes_run(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(g_crashes); i++) {
        const crash_case *c = &g_crashes[i];
        e2e_result *r = RUN("run", "-n", "4", P("signal_crash.c"), c->mode);
        check_crash_run(c, r);
        e2e_free(r);
        r = RUN("run", "--threads", "-n", "4", P("signal_crash.c"), c->mode);
        check_crash_run(c, r);
        e2e_free(r);
    }
}

/* The same under exploration, with both kinds of snapshot (the exploration
 * processes used to fail). */
static void test_signal_crashes_explore(void) {
    const char *modes[] = {"fork", "copy"};
    for (size_t i = 0; i < G_N_ELEMENTS(g_crashes); i++) {
        const crash_case *c = &g_crashes[i];
        for (int m = 0; m < 2; m++) {
            char *ck = g_strdup_printf("--checkpoint=%s", modes[m]);
            e2e_result *r = RUN("explore", ck, "--trace-dir", e2e_tmp("procstate_traces"), "-n",
                                "3", P("signal_crash.c"), c->mode);
            EXPECT_STATUS(r, 1);
            char *head = g_strdup_printf("ERROR [%s] %s", c->kind, c->text);
            EXPECT_REPORT_HAS(r, head);
            if (c->note)
                EXPECT_REPORT_HAS(r, c->note);
            EXPECT(r, !report_has(r, "exploration processes failed"));
            g_free(head);
            g_free(ck);
            e2e_free(r);
        }
    }
}

/* SIGINT and SIGTERM handlers of the program run only for what its ranks
 * raise themselves, each in its own rank; the same signal from outside
 * stops ordex (the program's handler used to take it over: ordex went on
 * for ever, and the handler ran in whichever rank was running). */
static void test_own_sigterm(void) {
    const int sigs[] = {SIGTERM, SIGINT};
    for (int i = 0; i < 2; i++) {
        const char *marker = e2e_tmp(i == 0 ? "own_sigterm.marker" : "own_sigint.marker");
        remove(marker);
        e2e_proc *p = e2e_ordex_start("run", "--step-timeout", "0", "-n", "3", P("own_sigterm.c"),
                                      marker, NULL);
        bool started = e2e_wait_for_file(marker, 60);
        kill(e2e_proc_pid(p), sigs[i]);
        e2e_result *r = e2e_proc_wait(p, 60);
        EXPECT(r, started);
        EXPECT_STATUS(r, 2);
        EXPECT_ERR_HAS(r, i == 0 ? "ordex was interrupted (SIGTERM)"
                                 : "ordex was interrupted (SIGINT)");
        for (int k = 0; k < 3; k++) {
            char *l = g_strdup_printf("rank %d: handler got SIGTERM\n", k);
            EXPECT(r, e2e_count(r->out, l) == 1);
            g_free(l);
        }
        EXPECT(r, e2e_count(r->out, "handler got") == 3);
        e2e_processes_with_arg(marker, true);
        e2e_free(r);
    }
}

static void add(CU_pSuite s) {
    CU_add_test(s, "getopt_ranks.c: each rank parses its options", test_getopt);
    CU_add_test(s, "rand_ranks.c: rand() per rank, as a new process", test_rand);
    CU_add_test(s, "rand_merge.c: rand() state keeps states apart", test_rand_state_is_state);
    CU_add_test(s, "getopt_merge.c: optind keeps states apart", test_optind_is_state);
    CU_add_test(s, "strtok_ranks.c: strtok per rank", test_strtok);
    CU_add_test(s, "env_ranks.c: environment per rank", test_environment);
    CU_add_test(s, "getpid_ranks.c: a pid per rank", test_getpid);
    CU_add_test(s, "fork_child.c: a child returning from main", test_fork_child);
    CU_add_test(s, "fork_child.c mpi: a child calling MPI", test_fork_child_mpi);
    CU_add_test(s, "signal_ok.c: handlers a process survives", test_signal_handlers_survived);
    CU_add_test(s, "signal_crash.c: run", test_signal_crashes_run);
    CU_add_test(s, "signal_crash.c: explore", test_signal_crashes_explore);
    CU_add_test(s, "own_sigterm.c: SIGINT/SIGTERM handlers, ordex still stops", test_own_sigterm);
}

E2E_MAIN("procstate", add)
