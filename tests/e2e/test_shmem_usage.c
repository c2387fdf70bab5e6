/*
 * test_shmem_usage.c - OpenSHMEM usage errors that depend on more than one
 * call: the pSync and pWrk rules of the collectives (initialised to
 * SHMEM_SYNC_VALUE on every PE before any PE calls, not reused before
 * every PE is done with the previous collective), shmem_free by some
 * PEs only, and contexts misused.  Each error program has a correct twin; the expected verdicts
 * are derived by hand in each program's header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define NO_ERROR_LINE "ordex explore: all orderings explored: no error exists for this input\n"

/* "base.c:N", N the line of the mark [marker] of tests/programs/name
 * (name: a usage_case's file, its argument left out). */
static char *at(const char *name, const char *marker) {
    char *base = g_strndup(name, strcspn(name, " "));
    char *rel = g_strdup_printf("tests/programs/%s", base);
    char *s = g_strdup_printf("%s:%d", base, e2e_mark_line(rel, marker));
    g_free(rel);
    g_free(base);
    return s;
}

typedef struct usage_case {
    const char *file; /* the program, then its argument if any ("prog.c mode") */
    const char *ranks;
    const char *mark;  /* where the error is */
    const char *text;  /* in its message */
    const char *text2; /* also, or NULL */
    const char *other; /* a mark whose line the message names too, or NULL */
    bool explore;      /* explore must find it too */
} usage_case;

static const usage_case cases[] = {
    {"shmem_psync_uninit.c", "3", "BCAST",
     "PE 0: shmem_broadcast64: pSync[0] is 0, not SHMEM_SYNC_VALUE (-1)", NULL, NULL, true},
    {"shmem_psync_nobarrier.c", "2", "BCAST",
     "PE 0: shmem_broadcast64: PE 1's pSync[0] is 0, not SHMEM_SYNC_VALUE (-1), as PE 0 enters",
     NULL, NULL, true},
    {"shmem_psync_reuse.c", "3", "SECOND", "PE 0: shmem_broadcast64: pSync is still in use: PE 1",
     "has not returned from shmem_broadcast64 at ", "FIRST", true},
    {"shmem_pwrk_reuse.c", "3", "SECOND",
     "PE 0: shmem_int_sum_to_all: pWrk is still in use: PE 1 has not returned from "
     "shmem_int_sum_to_all at ",
     NULL, "FIRST", true},
    {"shmem_ctx_errors.c destroyed", "2", "USE",
     "PE 0: shmem_ctx_int_p: ctx 0x100000001 was destroyed (shmem_ctx_destroy)", NULL, NULL, false},
    {"shmem_ctx_errors.c default", "2", "DEFAULT",
     "PE 0: shmem_ctx_destroy: ctx is SHMEM_CTX_DEFAULT, which cannot be destroyed", NULL, NULL,
     false},
    {"shmem_ctx_errors.c options", "2", "OPTIONS",
     "PE 0: shmem_ctx_create: options 1048576 has bits that are none of SHMEM_CTX_SERIALIZED", NULL,
     NULL, false},
    {"shmem_free_partial.c", "2", "FREE",
     "OpenSHMEM collective mismatch: as their 4th collective call, PE 0 calls shmem_free",
     "(shmem_free is collective: every PE frees the object", "FINALIZE", true},
};

static const char *const twins[] = {"shmem_psync_init_ok.c", "shmem_psync_reuse_ok.c",
                                    "shmem_pwrk_reuse_ok.c", "shmem_free_all_ok.c"};

static void expect_case(const usage_case *c, e2e_result *r, bool explore) {
    EXPECT_STATUS(r, 1);
    EXPECT(r, e2e_count(r->err, "ERROR [") == 1);
    EXPECT_ERR_HAS(r, "ERROR [mpi_error]");
    EXPECT_ERR_HAS(r, c->text);
    if (c->text2)
        EXPECT_ERR_HAS(r, c->text2);
    char *line = at(c->file, c->mark);
    char *loc = g_strdup_printf("  at %s\n", line);
    EXPECT_ERR_HAS(r, loc);
    if (c->other) {
        char *o = at(c->file, c->other);
        EXPECT_ERR_HAS(r, o);
        g_free(o);
    }
    if (explore)
        EXPECT_ERR_HAS(r, "ordex explore: 1 error found");
    g_free(loc);
    g_free(line);
}

static void test_errors(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const usage_case *c = &cases[i];
        size_t len = strcspn(c->file, " ");
        char *rel = g_strdup_printf("tests/programs/%.*s", (int)len, c->file);
        const char *arg = c->file[len] ? c->file + len + 1 : NULL; /* NULL ends the list */
        e2e_result *r = e2e_ordex_run("run", "-n", c->ranks, e2e_src(rel), arg, NULL);
        expect_case(c, r, false);
        e2e_free(r);
        if (c->explore) {
            r = e2e_ordex_run("explore", "--max-time", "60", "-n", c->ranks, e2e_src(rel), arg,
                              NULL);
            expect_case(c, r, true);
            e2e_free(r);
        }
        g_free(rel);
    }
}

static void test_twins(void) {
    for (size_t i = 0; i < G_N_ELEMENTS(twins); i++) {
        char *rel = g_strdup_printf("tests/programs/%s", twins[i]);
        e2e_result *r = e2e_ordex_run("run", "-n", "3", e2e_src(rel), NULL);
        EXPECT_CLEAN(r);
        e2e_free(r);
        r = e2e_ordex_run("explore", "--max-time", "60", "-n", "3", e2e_src(rel), NULL);
        EXPECT_STATUS(r, 0);
        EXPECT(r, g_str_has_suffix(r->err, NO_ERROR_LINE));
        e2e_free(r);
        g_free(rel);
    }
    /* What the twins compute. */
    e2e_result *r =
        e2e_ordex_run("run", "-n", "3", e2e_src("tests/programs/shmem_pwrk_reuse_ok.c"), NULL);
    EXPECT_OUT_HAS(r, "PE 2: 3 6\n");
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "3", e2e_src("tests/programs/shmem_psync_reuse_ok.c"), NULL);
    EXPECT_OUT_HAS(r, "PE 1: 1 2\n");
    EXPECT_OUT_HAS(r, "PE 2: 1 2\n");
    e2e_free(r);
    r = e2e_ordex_run("run", "-n", "3", e2e_src("tests/programs/shmem_free_all_ok.c"), NULL);
    EXPECT_OUT_HAS(r, "PE 0: got 2\n");
    EXPECT_OUT_HAS(r, "PE 1: got 0\n");
    e2e_free(r);
}

static void add(CU_pSuite s) {
    CU_add_test(s, "pSync, pWrk and shmem_free errors", test_errors);
    CU_add_test(s, "their correct twins", test_twins);
}

E2E_MAIN("shmem_usage", add)
