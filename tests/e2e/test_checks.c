/*
 * test_checks.c - end-to-end tests of ordex's correctness checks on the
 * programs of tests/programs/ that break a rule of MPI (and of their correct
 * twins): a blocking collective matched with its nonblocking twin, handles
 * never freed, arguments that alias, active requests freed, and the
 * deallocation MPI defers while operations are pending.  Each check asserts
 * the verdict, the message and the file:line of the finding, in `run` and
 * in `explore` (one finding, whatever the ordering).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define EX(...) e2e_ordex_run("explore", "--max-time", "60", __VA_ARGS__, NULL)
#define P(name) e2e_src("tests/programs/" name)
#define SRC(name) ("tests/programs/" name)

/* Lines of explore's report that start a finding of the given severity
 * ("ERROR [" or "WARNING ["). */
static int explore_findings(const e2e_result *r, const char *head) {
    char **lines = g_strsplit(r->err, "\n", -1);
    int n = 0;
    for (int i = 0; lines[i]; i++)
        n += g_str_has_prefix(lines[i], head);
    g_strfreev(lines);
    return n;
}

/* "file.c:N" for the line of `marker` in tests/programs/file.c. */
static char *marker_at(const char *file, const char *marker) {
    char *rel = g_strdup_printf("tests/programs/%s", file);
    char *s = g_strdup_printf("%s:%d", file, e2e_marker_line(rel, marker));
    g_free(rel);
    return s;
}

/* ---------------------------------------------------------------------- */
/* A blocking collective never matches a nonblocking one (MPI 3.1 5.12)    */

static const char *const coll_kinds[] = {
    "barrier",  "bcast",     "reduce",    "allreduce",      "gather",
    "gatherv",  "scatter",   "scatterv",  "allgather",      "allgatherv",
    "alltoall", "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block",
    "scan",     "exscan",
};

static bool coll_rooted(const char *kind) {
    return strcmp(kind, "bcast") == 0 || strcmp(kind, "reduce") == 0 ||
           g_str_has_prefix(kind, "gather") || g_str_has_prefix(kind, "scatter");
}

/* Even ranks call the blocking collective, odd ranks its nonblocking twin:
 * an MPI error located at rank 0's blocking call that names rank 1's call
 * and line, for every collective. */
static void test_blocking_nonblocking_mix(void) {
    for (size_t k = 0; k < G_N_ELEMENTS(coll_kinds); k++) {
        const char *kind = coll_kinds[k];
        char *bm = g_strdup_printf("// [B:%s]", kind), *nbm = g_strdup_printf("// [NB:%s]", kind);
        char *blocking = g_strdup_printf("MPI_%c%s", g_ascii_toupper(kind[0]), kind + 1);
        char *nonblocking = g_strdup_printf("MPI_I%s", kind);
        const char *root = coll_rooted(kind) ? "(root=0)" : "";
        char *bl = marker_at("coll_blocking_mix.c", bm),
             *nbl = marker_at("coll_blocking_mix.c", nbm);
        char *text =
            g_strdup_printf("collective mismatch on MPI_COMM_WORLD: as their 1st collective "
                            "there, rank 0 calls %s%s at %s and rank 1 calls %s%s at %s; "
                            "%s is nonblocking and %s blocking: a nonblocking collective "
                            "never matches a blocking one (MPI 3.1 section 5.12)",
                            blocking, root, bl, nonblocking, root, nbl, nonblocking, blocking);
        e2e_result *r = RUN("run", "-n", "2", P("coll_blocking_mix.c"), kind, "mix");
        EXPECT_STATUS(r, 1);
        g_free(EXPECT_FINDING(r, 1, "mpi_error", text, SRC("coll_blocking_mix.c"), bm));
        EXPECT_OUT_LACKS(r, "rank 0:"); /* neither call returned */
        e2e_free(r);
        g_free(text);
        g_free(bl);
        g_free(nbl);
        g_free(blocking);
        g_free(nonblocking);
        g_free(bm);
        g_free(nbm);
    }
}

/* explore: the same one error, whatever the ordering (4 ranks: two of each
 * kind of call). */
static void test_blocking_nonblocking_mix_explore(void) {
    e2e_result *r = EX("-n", "4", P("coll_blocking_mix.c"), "allreduce", "mix");
    EXPECT_STATUS(r, 1);
    EXPECT(r, explore_findings(r, "ERROR [") == 1);
    EXPECT_ERR_HAS(r, "ERROR [mpi_error] collective mismatch on MPI_COMM_WORLD: as their 1st "
                      "collective there, rank 0 calls MPI_Allreduce at coll_blocking_mix.c:");
    EXPECT_ERR_HAS(r, "and rank 1 calls MPI_Iallreduce at coll_blocking_mix.c:");
    EXPECT_ERR_HAS(r, "ordex explore: 1 error found\n");
    e2e_free(r);
}

/* The correct twin: every collective blocking on all ranks, then
 * nonblocking on all ranks; the output of real MPICH. */
static void test_blocking_nonblocking_twin(void) {
    const char *ns[] = {"1", "3", "4"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("coll_blocking_mix.c"));
        EXPECT_CLEAN(r);
        char *name = g_strdup_printf("coll_blocking_mix.n%s", ns[i]);
        EXPECT_MPICH_OUTPUT(r, name);
        g_free(name);
        e2e_free(r);
    }
}

/* ---------------------------------------------------------------------- */
/* MPI_Type_free and MPI_Op_free while operations are pending              */

/* The types and ops are freed before the operations that use them
 * complete, and new ones are made meanwhile: no error, MPICH's output (the
 * freed type's handle used to go to the new type, which the pending
 * MPI_Igather then used). */
static void test_free_pending(void) {
    const char *ns[] = {"1", "3", "4"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("free_pending.c"));
        EXPECT_CLEAN(r);
        char *name = g_strdup_printf("free_pending.n%s", ns[i]);
        EXPECT_MPICH_OUTPUT(r, name);
        g_free(name);
        e2e_free(r);
    }
    e2e_result *r = EX("-n", "3", P("free_pending.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "all orderings explored: no error exists for this input");
    e2e_free(r);
}

/* An error of a nonblocking collective names the call the program made. */
static void test_igather_named(void) {
    e2e_result *r = RUN("run", "-n", "3", P("free_pending.c"), "mismatch");
    EXPECT_STATUS(r, 1);
    char *f =
        EXPECT_FINDING(r, 1, "mpi_error",
                       "rank 1: MPI_Igather: root 0 receives 8 bytes (2 x MPI_INT) but rank 1 "
                       "sends 16 bytes (2 x derived type",
                       SRC("free_pending.c"), "// FAULT");
    EXPECT_BLOCK_LACKS(r, f, "MPI_Gather");
    g_free(f);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Leaks: handles never freed before MPI_Finalize                          */

static const struct {
    const char *text, *marker;
} leaks[] = {
    {"3 communicators made by MPI_Comm_dup were never freed (MPI_Comm_free) before MPI_Finalize "
     "(on ranks 0-2)",
     "/* [DUP] */"},
    {"2 communicators made by MPI_Comm_split were never freed (MPI_Comm_free) before "
     "MPI_Finalize (on ranks 0, 2)",
     "/* [SPLIT] */"},
    {"3 groups made by MPI_Comm_group were never freed (MPI_Group_free) before MPI_Finalize (on "
     "ranks 0-2)",
     "/* [GROUP] */"},
    {"2 groups made by MPI_Group_incl were never freed (MPI_Group_free) before MPI_Finalize (on "
     "rank 0)",
     "/* [INCL] */"},
    {"3 datatypes made by MPI_Type_contiguous were never freed (MPI_Type_free) before "
     "MPI_Finalize (on ranks 0-2)",
     "/* [TYPE] */"},
    {"3 user-defined operations made by MPI_Op_create were never freed (MPI_Op_free) before "
     "MPI_Finalize (on ranks 0-2)",
     "/* [OP] */"},
    {"3 persistent requests made by MPI_Recv_init were never freed (MPI_Request_free) before "
     "MPI_Finalize (on ranks 0-2)",
     "/* [PERSIST] */"},
    {"3 windows made by MPI_Win_create were never freed (MPI_Win_free) before MPI_Finalize (on "
     "ranks 0-2)",
     "// [WIN]"},
    {"3 buffers attached by MPI_Buffer_attach were never detached (MPI_Buffer_detach) before "
     "MPI_Finalize (on ranks 0-2)",
     "/* [ATTACH] */"},
};

static const char *json_path(const char *name) {
    static int seq;
    char *n = g_strdup_printf("checks-%s-%d.json", name, ++seq);
    const char *p = e2e_tmp(n);
    g_free(n);
    return p;
}

/* By default every leak is an error, located at the call that made the
 * object, naming the ranks (exit status 1, verdict "error"), as correctness
 * checkers report them; with --leaks=warn a warning, the exit status and the
 * verdict staying "ok". */
static void test_leaks_default(void) {
    const char *json = json_path("leaks-default");
    e2e_result *r = RUN("run", "-n", "3", "--json", json, P("leaks.c"));
    EXPECT_STATUS(r, 1);
    for (size_t i = 0; i < G_N_ELEMENTS(leaks); i++)
        g_free(EXPECT_FINDING(r, (int)G_N_ELEMENTS(leaks), "leak", leaks[i].text, SRC("leaks.c"),
                              leaks[i].marker));
    EXPECT_ERR_HAS(r, "; 9 errors found\n");
    EXPECT_MPICH_OUTPUT(r, "leaks.n3"); /* the same as its twin that frees everything */
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "error"));
    EXPECT(r, e2e_json_count(o, "findings", "kind", "leak") == 9);
    EXPECT(r, e2e_json_count(o, "findings", "severity", "error") == 9);
    e2e_json_free(o);
    e2e_free(r);
}

static void test_leaks_warn(void) {
    const char *json = json_path("leaks");
    e2e_result *r = RUN("run", "-n", "3", "--leaks=warn", "--json", json, P("leaks.c"));
    EXPECT_STATUS(r, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(leaks); i++)
        g_free(EXPECT_WARNING(r, (int)G_N_ELEMENTS(leaks), "leak", leaks[i].text, SRC("leaks.c"),
                              leaks[i].marker));
    EXPECT_ERR_LACKS(r, "ordex: ERROR");
    EXPECT_ERR_HAS(r, "; no error found, 9 warnings\n");
    EXPECT_MPICH_OUTPUT(r, "leaks.n3");
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "ok"));
    EXPECT(r, e2e_json_count(o, "findings", "kind", "leak") == 9);
    EXPECT(r, e2e_json_count(o, "findings", "severity", "warning") == 9);
    EXPECT(r, e2e_json_str_is(o, "findings[0].location", "leaks.c:35"));
    EXPECT(r, e2e_json_str_is(o, "findings[kind=leak].severity", "warning"));
    e2e_json_free(o);
    e2e_free(r);
}

/* --leaks=error: the same findings as errors; --leaks=off: none. */
static void test_leaks_options(void) {
    const char *json = json_path("leaks-error");
    e2e_result *r = RUN("run", "-n", "3", "--leaks=error", "--json", json, P("leaks.c"));
    EXPECT_STATUS(r, 1);
    for (size_t i = 0; i < G_N_ELEMENTS(leaks); i++)
        g_free(EXPECT_FINDING(r, (int)G_N_ELEMENTS(leaks), "leak", leaks[i].text, SRC("leaks.c"),
                              leaks[i].marker));
    EXPECT_ERR_HAS(r, "; 9 errors found\n");
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "error"));
    EXPECT(r, e2e_json_count(o, "findings", "severity", "error") == 9);
    e2e_json_free(o);
    e2e_free(r);

    r = RUN("run", "-n", "3", "--leaks=off", P("leaks.c"));
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "leaks.n3");
    e2e_free(r);

    r = RUN("run", "-n", "3", "--leaks=sometimes", P("leaks.c"));
    EXPECT_ONE_LINE_ERROR(r, "--leaks sometimes: expected error, warn or off");
    e2e_free(r);
}

/* The twin that frees everything: clean, MPICH's output. */
static void test_leaks_freed(void) {
    const char *ns[] = {"1", "3", "4"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], "--leaks=error", P("leaks.c"), "free");
        EXPECT_CLEAN(r);
        char *name = g_strdup_printf("leaks.n%s", ns[i]);
        EXPECT_MPICH_OUTPUT(r, name);
        g_free(name);
        e2e_free(r);
    }
}

/* explore with --leaks=warn: each leak once (not once per pass or
 * ordering), without an ordering or a trace; the verdict stays "no error".
 * By default (errors) each leak once too. */
static void test_leaks_explore(void) {
    const char *dir = e2e_tmp("leak-traces");
    const char *json = json_path("leaks-explore");
    e2e_result *r = EX("-n", "3", "--leaks=warn", "--trace-dir", dir, "--json", json, P("leaks.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, explore_findings(r, "WARNING [leak] ") == 9);
    EXPECT(r, explore_findings(r, "ERROR [") == 0);
    for (size_t i = 0; i < G_N_ELEMENTS(leaks); i++) {
        char *line = g_strdup_printf("WARNING [leak] %s\n  at ", leaks[i].text);
        EXPECT_ERR_HAS(r, line);
        g_free(line);
    }
    EXPECT_ERR_LACKS(r, "ordering (");
    EXPECT_ERR_LACKS(r, "trace:");
    EXPECT_ERR_HAS(r, "all orderings explored: no error exists for this input (9 warnings)\n");
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "ok"));
    EXPECT(r, e2e_json_count(o, "findings", "severity", "warning") == 9);
    EXPECT(r, e2e_json_is_null(o, "findings[0].trace"));
    e2e_json_free(o);
    e2e_free(r);

    const char *modes[] = {"--leaks=error", NULL};
    for (size_t m = 0; m < G_N_ELEMENTS(modes); m++) {
        r = modes[m] ? EX("-n", "3", "--trace-dir", dir, modes[m], P("leaks.c"))
                     : EX("-n", "3", "--trace-dir", dir, P("leaks.c"));
        EXPECT_STATUS(r, 1);
        EXPECT(r, explore_findings(r, "ERROR [leak] ") == 9);
        EXPECT_ERR_HAS(r, "ordex explore: 9 errors found\n");
        e2e_free(r);
    }
}

/* predict reports them too: errors by default, warnings that leave its
 * exit status alone with --leaks=warn. */
static void test_leaks_predict(void) {
    e2e_result *r = RUN("predict", "-n", "3", "--no-timeline", P("leaks.c"));
    EXPECT_STATUS(r, 1);
    EXPECT(r, e2e_count(r->err, "ordex: ERROR [leak] ") == 9);
    e2e_free(r);
    r = RUN("predict", "-n", "3", "--no-timeline", "--leaks=warn", P("leaks.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, e2e_count(r->err, "ordex: WARNING [leak] ") == 9);
    e2e_free(r);
}

/* A leak leaves an ordering's outcome comparable: the race of a leaking
 * program is still found (orderings with an error finding are not
 * compared). */
static void test_leak_race(void) {
    e2e_result *r = EX("-n", "3", "--leaks=warn", P("leak_race.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, explore_findings(r, "WARNING [leak] 3 communicators made by MPI_Comm_dup") == 1);
    EXPECT(r, explore_findings(r, "WARNING [message_race] ") == 1);
    EXPECT_ERR_HAS(r, "no error exists for this input (but the outcome depends on the ordering) "
                      "(1 warning)\n");
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* MPI_Request_free on active requests                                     */

static void test_request_free_active(void) {
    char *isend = marker_at("request_free_active.c", "/* [ISEND] */");
    char *irecv = marker_at("request_free_active.c", "/* [IRECV] */");
    char *send_text = g_strdup_printf(
        "MPI_Request_free freed the active request of MPI_Isend at %s: the operation goes on, "
        "but the program can no longer learn when it completes (when the buffer may be reused) "
        "(on ranks 0-2)",
        isend);
    char *recv_text = g_strdup_printf(
        "MPI_Request_free freed the active request of MPI_Irecv at %s: the operation goes on, "
        "but the program can no longer learn when it completes (when the received data is in "
        "the buffer) (on ranks 0-2)",
        irecv);
    e2e_result *r = RUN("run", "-n", "3", P("request_free_active.c"));
    EXPECT_STATUS(r, 0);
    g_free(EXPECT_WARNING(r, 2, "freed_active_request", send_text, SRC("request_free_active.c"),
                          "/* [FREE_SEND] */"));
    g_free(EXPECT_WARNING(r, 2, "freed_active_request", recv_text, SRC("request_free_active.c"),
                          "/* [FREE_RECV] */"));
    EXPECT_ERR_HAS(r, "; no error found, 2 warnings\n");
    EXPECT_MPICH_OUTPUT(r, "request_free_active.n3");
    e2e_free(r);

    r = EX("-n", "3", P("request_free_active.c"));
    EXPECT_STATUS(r, 0);
    EXPECT(r, explore_findings(r, "WARNING [freed_active_request] ") == 2);
    EXPECT_ERR_HAS(r, send_text);
    EXPECT_ERR_HAS(r, recv_text);
    e2e_free(r);

    /* The twin waits for its requests. */
    r = RUN("run", "-n", "3", P("request_free_active.c"), "wait");
    EXPECT_CLEAN(r);
    EXPECT_MPICH_OUTPUT(r, "request_free_active.n3");
    e2e_free(r);
    g_free(send_text);
    g_free(recv_text);
    g_free(isend);
    g_free(irecv);
}

/* ---------------------------------------------------------------------- */
/* Buffers that must not alias                                             */

static const struct {
    const char *mode, *rank, *text, *marker;
} aliases[] = {
    {"sendrecv", "0",
     "MPI_Sendrecv: the send and receive buffers overlap (recvbuf + 0 is also sendbuf + 8); they "
     "must be disjoint (MPI 3.1 section 3.10)",
     "// [SENDRECV]"},
    {"allreduce", "0",
     "MPI_Allreduce: sendbuf and recvbuf overlap (recvbuf + 0 is also sendbuf + 4); a buffer "
     "that a call writes must not alias another argument (MPI 3.1 section 2.3): pass "
     "MPI_IN_PLACE to use one buffer",
     "// [ALLREDUCE]"},
    {"gather", "2", "MPI_Gather: sendbuf and recvbuf overlap (recvbuf + 16 is also sendbuf + 0)",
     "// [GATHER]"},
    {"alltoallv", "0",
     "MPI_Alltoallv: sendbuf and recvbuf overlap (recvbuf + 32 is also sendbuf + 32)",
     "// [ALLTOALLV]"},
};

/* Overlapping buffers: an MPI error at the call, in run and explore. */
static void test_alias(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++) {
        e2e_result *r = RUN("run", "-n", "3", P("alias.c"), aliases[i].mode);
        EXPECT_STATUS(r, 1);
        char *text = g_strdup_printf("rank %s: %s", aliases[i].rank, aliases[i].text);
        g_free(EXPECT_FINDING(r, 1, "mpi_error", text, SRC("alias.c"), aliases[i].marker));
        g_free(text);
        e2e_free(r);
    }
    e2e_result *r = EX("-n", "3", P("alias.c"), "allreduce");
    EXPECT_STATUS(r, 1);
    EXPECT(r, explore_findings(r, "ERROR [mpi_error] rank 0: MPI_Allreduce: sendbuf and recvbuf "
                                  "overlap") == 1);
    e2e_free(r);
}

/* The twin: interleaved strided buffers, halves of one array, MPI_IN_PLACE:
 * nothing overlaps; MPICH's output. */
static void test_alias_twin(void) {
    const char *ns[] = {"1", "3", "4"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("alias.c"));
        EXPECT_CLEAN(r);
        char *name = g_strdup_printf("alias.n%s", ns[i]);
        EXPECT_MPICH_OUTPUT(r, name);
        g_free(name);
        e2e_free(r);
    }
}

/* ---------------------------------------------------------------------- */
/* A request twice in one completion call's array                          */

static void test_dup_request(void) {
    const char *kinds[] = {"waitall", "testall", "waitany", "testany", "waitsome", "testsome"};
    const char *calls[] = {"MPI_Waitall", "MPI_Testall",  "MPI_Waitany",
                           "MPI_Testany", "MPI_Waitsome", "MPI_Testsome"};
    char *irecv = marker_at("dup_request.c", "[IRECV]");
    for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
        e2e_result *r = RUN("run", "-n", "2", P("dup_request.c"), kinds[k]);
        EXPECT_STATUS(r, 1);
        char *text = g_strdup_printf("rank 0: %s: array_of_requests[0] and [2] are the same "
                                     "request (of MPI_Irecv at %s)",
                                     calls[k], irecv);
        /* The call's line: the [CALL] marker of its branch. */
        char *f = EXPECT_FINDING(r, 1, "mpi_error", text, NULL, NULL);
        char **lines = g_strsplit(e2e_read_src(SRC("dup_request.c")), "\n", -1);
        int line = 0;
        for (int i = 0; lines[i] && !line; i++)
            if (strstr(lines[i], calls[k]) && strstr(lines[i], "[CALL]"))
                line = i + 1;
        g_strfreev(lines);
        char *at = g_strdup_printf("\n  at dup_request.c:%d\n", line);
        EXPECT(r, f && strstr(f, at + 1));
        g_free(at);
        g_free(f);
        g_free(text);
        e2e_free(r);
    }
    g_free(irecv);
    e2e_result *r = RUN("explore", "-n", "2", P("dup_request.c"), "waitall");
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, "ordex explore: 1 error found\n");
    e2e_free(r);
}

/* The twin: MPI_REQUEST_NULL in the third slot; MPICH's output. */
static void test_dup_request_twin(void) {
    const char *ns[] = {"1", "2", "3"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("dup_request.c"));
        EXPECT_CLEAN(r);
        EXPECT(r, e2e_count(r->out, " got ") == 6 * atoi(ns[i]));
        e2e_free(r);
    }
}

/* ---------------------------------------------------------------------- */
/* A datatype before MPI_Type_commit and after MPI_Type_free               */

static void test_type_lifecycle(void) {
    e2e_result *r = RUN("run", "-n", "2", P("type_lifecycle.c"), "uncommitted");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error", "rank 0: MPI_Bcast: datatype derived type ",
                          SRC("type_lifecycle.c"), "[UNCOMMITTED]"));
    EXPECT_ERR_HAS(r, "is not committed; call MPI_Type_commit first");
    e2e_free(r);
    r = RUN("run", "-n", "2", P("type_lifecycle.c"), "freed");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error", "rank 0: MPI_Sendrecv: datatype 0x",
                          SRC("type_lifecycle.c"), "[FREED]"));
    EXPECT_ERR_HAS(r, "is not a valid datatype (freed or never created)");
    e2e_free(r);
    const char *ns[] = {"1", "2", "3"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        r = RUN("run", "-n", ns[i], P("type_lifecycle.c"));
        EXPECT_CLEAN(r);
        EXPECT(r, e2e_count(r->out, ": got 0 10\n") == atoi(ns[i]));
        e2e_free(r);
    }
}

/* ---------------------------------------------------------------------- */
/* MPI_Finalize with collectives pending                                   */

static void test_finalize_pending(void) {
    const struct {
        const char *mode, *marker, *text;
        int n;
    } cases[] = {
        {"ibarrier", "[IBARRIER]",
         "rank 1: the collective of MPI_Ibarrier was still pending at the end (complete, but "
         "never waited for); MPI_Finalize needs every collective completed",
         3},
        {"unmatched", "[IBCAST]",
         "rank 0: the collective of MPI_Ibcast was still pending at the end (not all members "
         "took part)",
         1},
        {"persistent", "[START]",
         "rank 2: the collective of MPI_Allreduce_init was still pending at the end", 3},
    };
    for (size_t k = 0; k < G_N_ELEMENTS(cases); k++) {
        e2e_result *r = RUN("run", "-n", "3", P("finalize_pending.c"), cases[k].mode);
        EXPECT_STATUS(r, 1);
        g_free(EXPECT_FINDING(r, cases[k].n, "pending_request", cases[k].text,
                              SRC("finalize_pending.c"), cases[k].marker));
        e2e_free(r);
    }
    e2e_result *r = RUN("run", "-n", "3", P("finalize_pending.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, e2e_count(r->out, ": done 3\n") == 3);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* MPI calls from a thread other than the main one                         */

static void test_thread_calls(void) {
    const struct {
        const char *mode, *text;
    } errors[] = {
        {"funneled", "rank 0: MPI_Allreduce called from a thread other than the rank's main thread "
                     "(the one that called MPI_Init_thread at thread_calls.c:"},
        {"single", "rank 0: MPI_Allreduce called from a thread other than the rank's main thread "
                   "(the one that called MPI_Init at thread_calls.c:"},
    };
    for (size_t k = 0; k < G_N_ELEMENTS(errors); k++) {
        const char *cmds[] = {"run", "explore"};
        for (size_t c = 0; c < G_N_ELEMENTS(cmds); c++) {
            e2e_result *r = RUN(cmds[c], "-n", "2", P("thread_calls.c"), errors[k].mode);
            EXPECT_STATUS(r, 1);
            if (c == 0)
                g_free(EXPECT_FINDING(r, 2, "mpi_error", errors[k].text, SRC("thread_calls.c"),
                                      "[CALL]")); /* one per rank */
            else
                EXPECT_ERR_HAS(r, errors[k].text);
            e2e_free(r);
        }
    }
    /* The same with every rank on a thread of its own. */
    e2e_result *r = RUN("run", "--threads", "-n", "2", P("thread_calls.c"), "funneled");
    EXPECT_STATUS(r, 1);
    EXPECT_ERR_HAS(r, errors[0].text);
    e2e_free(r);
    /* Asked for MPI_THREAD_MULTIPLE, given FUNNELED, calling anyway: ordex's limit. */
    const char *json = e2e_tmp("thread_calls.json");
    r = RUN("run", "--json", json, "-n", "2", P("thread_calls.c"), "multiple");
    EXPECT_STATUS(r, 2);
    EXPECT_ERR_HAS(r, "UNSUPPORTED rank 0: MPI_Allreduce from a thread other than the rank's main "
                      "one (the program asked MPI_Init_thread at thread_calls.c:");
    EXPECT_ERR_HAS(r, "for MPI_THREAD_MULTIPLE; ordex provides MPI_THREAD_FUNNELED");
    JsonObject *doc = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(doc, "verdict", "unsupported"));
    e2e_json_free(doc);
    e2e_free(r);
    /* The twin: only the main thread calls MPI; MPI_Is_thread_main answers
     * 0 in the other thread, 1 in the main one. */
    r = RUN("run", "-n", "3", P("thread_calls.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, e2e_count(r->out, ": sum 3, thread main 0, main 1\n") == 3);
    e2e_free(r);
}

/* ---------------------------------------------------------------------- */
/* Reductions the standard forbids and MPICH accepts                       */

static void test_op_forbidden(void) {
    const struct {
        const char *mode, *marker, *text;
    } cases[] = {
        {"sum_char", "[SUM_CHAR]", "rank 0: MPI_Allreduce: MPI_SUM is not defined for MPI_CHAR"},
        {"land_aint", "[LAND_AINT]", "rank 0: MPI_Reduce: MPI_LAND is not defined for MPI_AINT"},
        {"lxor_double", "[LXOR_DOUBLE]",
         "rank 0: MPI_Allreduce: MPI_LXOR is not defined for MPI_DOUBLE"},
    };
    for (size_t k = 0; k < G_N_ELEMENTS(cases); k++) {
        e2e_result *r = RUN("run", "-n", "3", P("op_forbidden.c"), cases[k].mode);
        EXPECT_STATUS(r, 1);
        char *f = EXPECT_FINDING(r, 1, "mpi_error", cases[k].text, SRC("op_forbidden.c"),
                                 cases[k].marker);
        EXPECT(r, f && strstr(f, "the standard forbids it (MPI 3.1 section 5.9.2), though MPICH "
                                 "accepts it: the program is not portable"));
        g_free(f);
        e2e_free(r);
    }
    e2e_result *r = RUN("run", "-n", "3", P("op_forbidden.c"));
    EXPECT_CLEAN(r);
    EXPECT(r, e2e_count(r->out, ": sum 3 band 0 lxor 1\n") == 3);
    e2e_free(r);
}

static void e2e_add_check_tests(CU_pSuite s) {
    CU_add_test(s,
                "coll_blocking_mix.c: a blocking collective and its nonblocking twin, every kind",
                test_blocking_nonblocking_mix);
    CU_add_test(s, "coll_blocking_mix.c: explore finds the one mismatch",
                test_blocking_nonblocking_mix_explore);
    CU_add_test(s, "coll_blocking_mix.c: blocking then nonblocking on all ranks is correct",
                test_blocking_nonblocking_twin);
    CU_add_test(s, "free_pending.c: types and ops freed while operations use them",
                test_free_pending);
    CU_add_test(s, "free_pending.c mismatch: the error names MPI_Igather", test_igather_named);
    CU_add_test(s, "leaks.c: every kind of leak, errors by default", test_leaks_default);
    CU_add_test(s, "leaks.c: --leaks=warn makes them warnings", test_leaks_warn);
    CU_add_test(s, "leaks.c: --leaks=error, --leaks=off", test_leaks_options);
    CU_add_test(s, "leaks.c free: everything freed, no finding", test_leaks_freed);
    CU_add_test(s, "leaks.c: explore reports each leak once", test_leaks_explore);
    CU_add_test(s, "leaks.c: predict", test_leaks_predict);
    CU_add_test(s, "leak_race.c: a leaking program's race is still found", test_leak_race);
    CU_add_test(s, "request_free_active.c: active requests freed, warnings",
                test_request_free_active);
    CU_add_test(s, "alias.c: overlapping send and receive buffers", test_alias);
    CU_add_test(s, "alias.c: buffers that interleave or are in place do not overlap",
                test_alias_twin);
    CU_add_test(s, "dup_request.c: a request twice in one array, every completion call",
                test_dup_request);
    CU_add_test(s, "dup_request.c: null handles beside the requests are fine",
                test_dup_request_twin);
    CU_add_test(s, "type_lifecycle.c: a datatype before commit and after free",
                test_type_lifecycle);
    CU_add_test(s, "finalize_pending.c: MPI_Finalize with collectives pending",
                test_finalize_pending);
    CU_add_test(s, "thread_calls.c: MPI calls from a thread other than the main one",
                test_thread_calls);
    CU_add_test(s, "op_forbidden.c: reductions the standard forbids and MPICH accepts",
                test_op_forbidden);
}

E2E_MAIN("checks", e2e_add_check_tests)
