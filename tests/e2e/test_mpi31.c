/*
 * test_mpi31.c - end-to-end tests of the last MPI 3.1 functions outside
 * dynamic processes: datatype decoding (MPI_Type_get_envelope,
 * MPI_Type_get_contents and their `_c` forms), size-specific types
 * (MPI_Type_match_size, MPI_Type_create_f90_*), MPI_Aint_add/diff,
 * MPI_DUP_FN, the handle and status conversions of section 17.2, the
 * tool information interface (MPI_T_*) and user data representations
 * of MPI-IO (MPI_Register_datarep).  The programs
 * (tests/programs/mpi31_*.c) check values against the standard and print
 * "ok" lines; tests/crosscheck_mpich.sh compares them with real MPICH's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define RUN(...) e2e_ordex_run(__VA_ARGS__, NULL)
#define P(name) e2e_src("tests/programs/" name)
#define SRC(name) ("tests/programs/" name)

/* stdout is exactly n lines, each "rank R: ... ok". */
static void expect_all_ok(const e2e_result *r, int n) {
    EXPECT(r, e2e_lines(r->out) == n);
    EXPECT(r, e2e_count(r->out, " ok\n") == n);
    EXPECT_OUT_LACKS(r, "WRONG");
}

enum { ENVELOPE_CHECKS = 26, SIZES_CHECKS = 8, INTEROP_CHECKS = 3, TOOL_CHECKS = 9 };

static void test_envelope(void) {
    const char *ns[] = {"1", "3"};
    for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
        e2e_result *r = RUN("run", "-n", ns[i], P("mpi31_envelope.c"));
        EXPECT_CLEAN(r);
        expect_all_ok(r, ENVELOPE_CHECKS * atoi(ns[i]));
        e2e_free(r);
    }
    e2e_result *r = RUN("explore", "-n", "2", P("mpi31_envelope.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
    r = RUN("predict", "-n", "2", P("mpi31_envelope.c"));
    EXPECT_STATUS(r, 0);
    expect_all_ok(r, ENVELOPE_CHECKS * 2);
    e2e_free(r);
}

/* The types MPI_Type_get_contents returns are the program's to free: the
 * leak check names that call; a named type has no contents. */
static void test_envelope_errors(void) {
    e2e_result *r = RUN("run", "-n", "2", P("mpi31_envelope.c"), "leak");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "leak",
                          "2 datatypes made by MPI_Type_get_contents were never freed "
                          "(MPI_Type_free) before MPI_Finalize (on ranks 0, 1)",
                          SRC("mpi31_envelope.c"), "[LEAK]"));
    e2e_free(r);
    r = RUN("run", "-n", "2", P("mpi31_envelope.c"), "named");
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 1: contents of a named type refused ok\n");
    e2e_free(r);
}

static void test_sizes(void) {
    e2e_result *r = RUN("run", "-n", "3", P("mpi31_sizes.c"));
    EXPECT_CLEAN(r);
    expect_all_ok(r, SIZES_CHECKS * 3);
    e2e_free(r);
    r = RUN("explore", "-n", "2", P("mpi31_sizes.c"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
    /* f90 types are predefined: freeing one is an error. */
    r = RUN("run", "-n", "2", P("mpi31_sizes.c"), "free");
    EXPECT_STATUS(r, 1);
    g_free(EXPECT_FINDING(r, 1, "mpi_error",
                          "MPI_Type_free: datatype MPI_Type_create_f90_integer(9) is predefined "
                          "and cannot be freed",
                          SRC("mpi31_sizes.c"), "[FREE]"));
    e2e_free(r);
}

static void test_interop(void) {
    const char *dir = e2e_tmp("");
    e2e_result *r = RUN("run", "-n", "3", P("mpi31_interop.c"), dir);
    EXPECT_CLEAN(r);
    expect_all_ok(r, INTEROP_CHECKS * 3);
    e2e_free(r);
}

/* The tools interface, with ordex's message counter, in run and explore. */
static void test_tool(void) {
    e2e_result *r = RUN("run", "-n", "2", P("mpi31_tool.c"));
    EXPECT_CLEAN(r);
    expect_all_ok(r, TOOL_CHECKS * 2);
    e2e_free(r);
    r = RUN("run", "-n", "3", P("mpi31_tool.c"), "strict");
    EXPECT_CLEAN(r);
    expect_all_ok(r, (TOOL_CHECKS + 12) * 3);
    EXPECT_OUT_HAS(r, "rank 2: counts delivered messages ok\n");
    EXPECT_OUT_HAS(r, "rank 2: after MPI_Finalize ok\n");
    e2e_free(r);
    r = RUN("explore", "-n", "2", P("mpi31_tool.c"), "strict");
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
}

/* MPI_Register_datarep (MPI 3.1 13.5.3) and "external32" views: values
 * derived by hand from the program (see tests/programs/mpi31_datarep.c):
 * rank 1's ints start at 1000001 = 0x000f4241, stored big-endian; the
 * conversion of 40000 ints goes in 64 KiB chunks of 16384 elements, and
 * 20000 pairs of ints are 40000 data items, in the same chunks. */
static void test_datarep(void) {
    const char *file = e2e_tmp("datarep.dat");
    e2e_result *r = RUN("run", "-n", "2", P("mpi31_datarep.c"), file, "calls");
    EXPECT_CLEAN(r);
    for (int k = 0; k < 2; k++) {
        char *want[] = {
            g_strdup_printf("rank %d bigend again: MPI_ERR_DUP_DATAREP\n", k),
            g_strdup_printf("rank %d native again: MPI_ERR_DUP_DATAREP\n", k),
            g_strdup_printf("rank %d bigend wrote 40000 ints; conversions covered 40000 elements "
                            "in order\n",
                            k),
            g_strdup_printf("rank %d write conversion calls: 3 at 0 16384 32768\n", k),
            g_strdup_printf("rank %d bigend wrote 20000 pairs; conversions covered 40000 data "
                            "items in order\n",
                            k),
            g_strdup_printf("rank %d pair conversion calls: 3 at 0 16384 32768\n", k),
            g_strdup_printf("rank %d bigend read back 40000 ints: all equal\n", k),
            g_strdup_printf("rank %d nullconv bytes: 01 00 00 00 02 00 00 00\n", k),
            g_strdup_printf("rank %d wide with MPI_CONVERSION_FN_NULL: MPI_ERR_CONVERSION\n", k),
            g_strdup_printf("rank %d external32 read back 3 -2\n", k),
            g_strdup_printf("rank %d external32 bytes: 00 00 00 03 ff ff ff fe\n", k),
            g_strdup_printf("rank %d external32 long: extent 4, 2 longs take 8 bytes\n", k),
        };
        for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
            EXPECT_OUT_HAS(r, want[i]);
            g_free(want[i]);
        }
    }
    EXPECT_OUT_HAS(r, "rank 0 bigend bytes: 00 00 00 01 00 00 00 02\n");
    EXPECT_OUT_HAS(r, "rank 1 bigend bytes: 00 0f 42 41 00 0f 42 42\n");
    e2e_free(r);
    r = RUN("explore", "-n", "2", P("mpi31_datarep.c"), e2e_tmp("datarep2.dat"));
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
}

static void e2e_add_mpi31_tests(CU_pSuite s) {
    CU_add_test(s, "mpi31_envelope.c: every combiner's envelope and contents", test_envelope);
    CU_add_test(s, "mpi31_envelope.c: returned types leak, named types have no contents",
                test_envelope_errors);
    CU_add_test(s, "mpi31_sizes.c: match_size, f90 types, Aint arithmetic, MPI_DUP_FN", test_sizes);
    CU_add_test(s, "mpi31_interop.c: c2f/f2c of files, infos and statuses", test_interop);
    CU_add_test(s, "mpi31_tool.c: the tools interface and its message counter", test_tool);
    CU_add_test(s, "mpi31_datarep.c: user data representations and external32", test_datarep);
}

E2E_MAIN("mpi31", e2e_add_mpi31_tests)
