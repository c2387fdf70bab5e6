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
}

E2E_MAIN("checks", e2e_add_check_tests)
