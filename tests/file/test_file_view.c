/*
 * test_file_view.c - unit tests of MPI-IO file views (simulator/
 * file_view.c): the file byte of a stream offset and the runs of file
 * bytes an access covers, for the default view, a displacement, strided
 * and indexed filetypes with holes, resized extents, merged runs, and the
 * views MPI 3.1 13.3 forbids.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/datatype.h"
#include "simulator/file_view.h"

#define MADE(call, t)                                                                              \
    do {                                                                                           \
        char *why_ = NULL;                                                                         \
        CU_ASSERT_EQUAL_FATAL((call), MPI_SUCCESS);                                                \
        CU_ASSERT_EQUAL_FATAL(sim_dt_commit(0, (t), &why_), MPI_SUCCESS);                          \
    } while (0)

/* The runs of an access as "off+len@pos ..." (g_free). */
typedef struct runs {
    GString *s;
} runs;

static bool add_run(MPI_Offset off, size_t len, size_t pos, void *user) {
    runs *r = user;
    g_string_append_printf(r->s, "%s%lld+%zu@%zu", r->s->len ? " " : "", (long long)off, len, pos);
    return true;
}

static char *runs_of(const sim_fview *v, MPI_Offset k, size_t n) {
    runs r = {g_string_new(NULL)};
    CU_ASSERT_TRUE(sim_fview_each_run(v, k, n, add_run, &r));
    return g_string_free(r.s, FALSE);
}

#define EXPECT_RUNS(v, k, n, want)                                                                 \
    do {                                                                                           \
        char *got_ = runs_of((v), (k), (n));                                                       \
        if (g_strcmp0(got_, (want)) != 0)                                                          \
            fprintf(stderr, "\n%s:%d: runs %s, want %s\n", __FILE__, __LINE__, got_, (want));      \
        CU_ASSERT_STRING_EQUAL(got_, (want));                                                      \
        g_free(got_);                                                                              \
    } while (0)

static void make_ok(sim_fview *v, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype ftype) {
    char *why = NULL;
    int rc = sim_fview_make(v, disp, sim_dt_get(etype), sim_dt_get(ftype), &why);
    if (rc != MPI_SUCCESS)
        fprintf(stderr, "\nview refused: %s\n", why);
    CU_ASSERT_EQUAL_FATAL(rc, MPI_SUCCESS);
}

static void test_default(void) {
    sim_fview v;
    sim_fview_default(&v);
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 0), 0);
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 12345), 12345);
    /* every byte a copy of MPI_BYTE: runs merge into one */
    EXPECT_RUNS(&v, 10, 100, "10+100@0");
    sim_fview_clear(&v);
}

static void test_disp_contiguous(void) {
    sim_fview v = {0};
    make_ok(&v, 100, MPI_INT, MPI_INT);
    CU_ASSERT_EQUAL(v.esize, 4);
    /* etype 3 of the stream is byte 12 after the displacement */
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 3 * 4), 112);
    EXPECT_RUNS(&v, 4, 16, "104+16@0");
    sim_fview_clear(&v);
}

/* One int of every 4: rank 1's share of a file of ints dealt round-robin
 * to 4 processes (disp one int, filetype resized to 4 ints). */
static void test_strided(void) {
    MPI_Datatype ft;
    char *why = NULL;
    MADE(sim_dt_create_resized(0, MPI_INT, 0, 16, &ft, &why), ft);
    sim_fview v = {0};
    make_ok(&v, 4, MPI_INT, ft);
    CU_ASSERT_EQUAL(v.tsize, 4);
    CU_ASSERT_EQUAL(v.extent, 16);
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 0), 4);
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 2 * 4), 36);
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 2 * 4 + 1), 37);
    /* three ints from the second: bytes 20, 36, 52 */
    EXPECT_RUNS(&v, 4, 12, "20+4@0 36+4@4 52+4@8");
    /* a part of an etype at either end */
    EXPECT_RUNS(&v, 2, 4, "6+2@0 20+2@2");
    sim_fview_clear(&v);
}

/* A vector with holes inside the filetype and at its end: 2 blocks of 2
 * ints at a stride of 3 ints, resized to 8 ints. */
static void test_holes(void) {
    MPI_Datatype vec, ft;
    char *why = NULL;
    MADE(sim_dt_create_vector(0, 2, 2, 3, MPI_INT, &vec, &why), vec);
    MADE(sim_dt_create_resized(0, vec, 0, 32, &ft, &why), ft);
    sim_fview v = {0};
    make_ok(&v, 0, MPI_INT, ft);
    CU_ASSERT_EQUAL(v.tsize, 16);
    CU_ASSERT_EQUAL(v.nblocks, 2);
    /* the data ints of two copies lie at int 0 1 3 4, 8 9 11 12 */
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 2 * 4), 12);
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 5 * 4), 36);
    EXPECT_RUNS(&v, 0, 32, "0+8@0 12+8@8 32+8@16 44+8@24");
    EXPECT_RUNS(&v, 12, 8, "16+4@0 32+4@4");
    sim_fview_clear(&v);
}

/* Indexed blocks that touch merge; the etype is a pair of ints. */
static void test_indexed_pairs(void) {
    MPI_Datatype pair, ft;
    char *why = NULL;
    MADE(sim_dt_create_contiguous(0, 2, MPI_INT, &pair, &why), pair);
    int lens[3] = {1, 1, 2}, displs[3] = {0, 1, 5};
    MADE(sim_dt_create_indexed(0, 3, lens, displs, pair, &ft, &why), ft);
    sim_fview v = {0};
    make_ok(&v, 8, pair, ft);
    CU_ASSERT_EQUAL(v.esize, 8);
    CU_ASSERT_EQUAL(v.nblocks, 2); /* pairs 0 and 1 are one stretch */
    CU_ASSERT_EQUAL(v.extent, 56);
    /* pairs at 0, 1, 5, 6, then the next copy's 7, 8, ... */
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 2 * 8), 8 + 40);
    CU_ASSERT_EQUAL(sim_fview_byte(&v, 4 * 8), 8 + 56);
    /* the copies' last pair and next first pair are adjacent: one run */
    EXPECT_RUNS(&v, 16, 32, "48+32@0");
    sim_fview_clear(&v);
}

static void refused(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype ftype, int want,
                    const char *needle) {
    sim_fview v = {0};
    char *why = NULL;
    int rc = sim_fview_make(&v, disp, sim_dt_get(etype), sim_dt_get(ftype), &why);
    CU_ASSERT_EQUAL(rc, want);
    CU_ASSERT_PTR_NOT_NULL(why);
    if (why && !strstr(why, needle))
        fprintf(stderr, "\nreason \"%s\" lacks \"%s\"\n", why, needle);
    CU_ASSERT_PTR_NOT_NULL(why ? strstr(why, needle) : NULL);
    g_free(why);
    CU_ASSERT_PTR_NULL(v.blocks);
}

static void test_refusals(void) {
    char *why = NULL;
    MPI_Datatype three, back, empty;
    /* 3 bytes are no whole number of ints */
    MADE(sim_dt_create_contiguous(0, 3, MPI_BYTE, &three, &why), three);
    refused(0, MPI_INT, three, MPI_ERR_TYPE, "whole number of etypes");
    /* a type map that goes backwards */
    int lens[2] = {1, 1}, displs[2] = {4, 0};
    MADE(sim_dt_create_indexed(0, 2, lens, displs, MPI_INT, &back, &why), back);
    refused(0, MPI_INT, back, MPI_ERR_TYPE, "nondecreasing");
    MADE(sim_dt_create_contiguous(0, 0, MPI_INT, &empty, &why), empty);
    refused(0, MPI_INT, empty, MPI_ERR_TYPE, "holds no data");
    refused(-4, MPI_INT, MPI_INT, MPI_ERR_ARG, "negative");
}

int main(void) {
    sim_dt_init();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("file_view", NULL, NULL);
    CU_add_test(s, "the default view", test_default);
    CU_add_test(s, "a displacement, contiguous ints", test_disp_contiguous);
    CU_add_test(s, "one int of every four", test_strided);
    CU_add_test(s, "holes inside and after the filetype", test_holes);
    CU_add_test(s, "indexed pairs, merged runs", test_indexed_pairs);
    CU_add_test(s, "views MPI 3.1 13.3 forbids", test_refusals);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    sim_dt_fini();
    return failed ? 1 : 0;
}
