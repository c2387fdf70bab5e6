/*
 * test_mpiio.c - MPI-IO end to end (tests/programs/mpiio_*.c): values
 * read back and the file's bytes, error classes through
 * MPI_ERRORS_RETURN, a fatal file error handler, collectives that never
 * complete or do not match, data races on files (both calls, the file and
 * the bytes; found again by replaying the trace) and their correct twins,
 * each ordering of an exploration seeing its own file contents (fork and
 * in-process snapshots), and the time `ordex predict` charges for data.
 * The MPICH cross-check (tests/crosscheck_mpich.sh) compares the same
 * programs' output, the files' bytes included, with real MPICH.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

#define PROG(name) e2e_src("tests/programs/" name)
#define REL(name) "tests/programs/" name

/* 2 ranks: values derived by hand from the program (MPI 3.1 13.3-13.4):
 * section 1 rank r's ints r*100+i at int r*4; section 2 the strided view
 * interleaves 1000+10r+i from int 8; section 3 write_ordered puts -r,
 * -r-50 in rank order from int 16. */
static void test_values(void) {
    const char *file = e2e_tmp("basic2.dat");
    e2e_result *r = e2e_ordex_run("run", "-n", "2", PROG("mpiio_basic.c"), file, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 0: read_at of rank 1: 100 101 102 103 (count 4)\n");
    EXPECT_OUT_HAS(r, "rank 1: read_at of rank 0: 0 1 2 3 (count 4)\n");
    EXPECT_OUT_HAS(r, "rank 1: size 32\n");
    EXPECT_OUT_HAS(r, "rank 1: write_all count 4, position 4, etype 2 at byte 52\n");
    EXPECT_OUT_HAS(r, "rank 0: read_all from 1: 1001 1002 1003 (count 3)\n");
    EXPECT_OUT_HAS(r, "rank 1: shared pointer after write_ordered 20\n");
    EXPECT_OUT_HAS(r, "rank 0: end of file at etype 20\n");
    EXPECT_OUT_HAS(r, "rank 1: read past the end: count 1, value -51\n");
    EXPECT_OUT_HAS(r, "rank 1: the file's group is MPI_COMM_WORLD's: 1\n");
    EXPECT_OUT_HAS(r, "file:\n  0 1 2 3 100 101 102 103\n  1000 1010 1001 1011 1002 1012 1003 "
                      "1013\n  0 -50 -1 -51\n");
    EXPECT(r, access(file, F_OK) != 0); /* MPI_File_delete removed it */
    EXPECT_CLEAN(r);
    e2e_free(r);
    /* 4 ranks: the view of rank 3 starts at int 16 + 3. */
    file = e2e_tmp("basic4.dat");
    r = e2e_ordex_run("run", "-n", "4", PROG("mpiio_basic.c"), file, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 3: write_all count 4, position 4, etype 2 at byte 108\n");
    EXPECT_OUT_HAS(r, "rank 3: read_at of rank 0: 0 1 2 3 (count 4)\n");
    EXPECT_OUT_HAS(r, "rank 2: shared pointer after write_ordered 40\n");
    EXPECT_OUT_HAS(r, "  0 -50 -1 -51 -2 -52 -3 -53\n");
    e2e_free(r);
}

static void test_error_classes(void) {
    e2e_result *r = e2e_ordex_run("run", "-n", "2", PROG("mpiio_errors.c"), e2e_tmp(""), NULL);
    EXPECT_STATUS(r, 0);
    for (int rank = 0; rank < 2; rank++) {
        char line[128];
        g_snprintf(line, sizeof line, "rank %d: open missing file -> MPI_ERR_NO_SUCH_FILE\n", rank);
        EXPECT(r, strstr(r->out, line) != NULL);
        g_snprintf(line, sizeof line, "rank %d: handle is MPI_FILE_NULL: 1\n", rank);
        EXPECT(r, strstr(r->out, line) != NULL);
        g_snprintf(line, sizeof line, "rank %d: open RDONLY|CREATE -> MPI_ERR_AMODE\n", rank);
        EXPECT(r, strstr(r->out, line) != NULL);
        g_snprintf(line, sizeof line, "rank %d: create EXCL existing -> MPI_ERR_FILE_EXISTS\n",
                   rank);
        EXPECT(r, strstr(r->out, line) != NULL);
        g_snprintf(line, sizeof line, "rank %d: write to RDONLY -> MPI_ERR_READ_ONLY\n", rank);
        EXPECT(r, strstr(r->out, line) != NULL);
    }
    EXPECT_OUT_HAS(r, "rank 1: get_errhandler returns it: 1\n");
    EXPECT_OUT_HAS(r, "rank 1: handler called for the file: 1, class MPI_ERR_READ_ONLY\n");
    EXPECT_OUT_HAS(r, "rank 0: handler called for the file: 1, class MPI_ERR_OTHER\n");
    EXPECT_OUT_HAS(r, "rank 0: delete -> MPI_SUCCESS\n");
    EXPECT_OUT_HAS(r, "rank 0: delete again -> MPI_ERR_NO_SUCH_FILE\n");
    EXPECT_CLEAN(r);
    e2e_free(r);
}

/* Collective arguments that must agree, and MPI_SEEK_END of the shared
 * pointer: (40 bytes - disp 8) / 4-byte etypes = 8. */
static void test_not_same(void) {
    e2e_result *r = e2e_ordex_run("run", "-n", "2", PROG("mpiio_not_same.c"), e2e_tmp(""), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 1: different names: MPI_ERR_NOT_SAME, null 1\n");
    EXPECT_OUT_HAS(r, "rank 0: different sizes: MPI_ERR_NOT_SAME\n");
    EXPECT_OUT_HAS(r, "rank 1: shared pointer at the end: 8\n");
    EXPECT_CLEAN(r);
    e2e_free(r);
}

/* A buffer no memory backs is an error of the call, not a crash. */
static void test_bad_buffer(void) {
    e2e_result *r =
        e2e_ordex_run("run", "-n", "1", PROG("mpiio_bad_buffer.c"), e2e_tmp("bad.dat"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "write from a bad buffer: MPI_ERR_BUFFER\n"
                      "read into a bad buffer: MPI_ERR_BUFFER\n"
                      "file still holds 1 2 3 4\n");
    EXPECT_CLEAN(r);
    e2e_free(r);
}

static void test_fatal_handler(void) {
    e2e_result *r =
        e2e_ordex_run("run", "-n", "2", PROG("mpiio_fatal.c"), e2e_tmp("fatal.dat"), NULL);
    EXPECT_STATUS(r, 1);
    char *f =
        EXPECT_FINDING(r, 1, "mpi_error", "MPI_File_write: ", REL("mpiio_fatal.c"), "[WRITE]");
    EXPECT_BLOCK_HAS(r, f, "was opened MPI_MODE_RDONLY");
    g_free(f);
    e2e_free(r);
}

static void test_close_missing(void) {
    e2e_result *r =
        e2e_ordex_run("run", "-n", "2", PROG("mpiio_close_missing.c"), e2e_tmp("close.dat"), NULL);
    EXPECT_STATUS(r, 1);
    char *f = EXPECT_FINDING(r, 1, "deadlock", "deadlock", REL("mpiio_close_missing.c"), "[CLOSE]");
    EXPECT_BLOCKED_AT(r, f, "rank 0: MPI_File_close(", REL("mpiio_close_missing.c"), "[CLOSE]");
    g_free(f);
    e2e_free(r);
}

static void test_coll_mismatch(void) {
    const char *src = REL("mpiio_coll_mismatch.c");
    e2e_result *r = e2e_ordex_run("explore", "-n", "2", PROG("mpiio_coll_mismatch.c"),
                                  e2e_tmp("mm.dat"), "--trace-dir", e2e_tmp("mm-traces"), NULL);
    EXPECT_STATUS(r, 1);
    char *want = g_strdup_printf("rank 0 calls MPI_File_write_all at mpiio_coll_mismatch.c:%d and "
                                 "rank 1 calls MPI_File_write_at_all at mpiio_coll_mismatch.c:%d",
                                 e2e_mark_line(src, "ALL"), e2e_mark_line(src, "AT_ALL"));
    EXPECT(r, strstr(r->err, want) != NULL || strstr(r->out, want) != NULL);
    g_free(want);
    e2e_free(r);
}

/* Explores a race program: exit 1, one finding, a data race on the file
 * naming both marked lines and the bytes; the trace finds it again. */
static void race(const char *name, const char *bytes, const char *extra) {
    char *rel = g_strdup_printf("tests/programs/%s.c", name);
    char *dat = g_strdup_printf("%s.dat", name), *jname = g_strdup_printf("%s.json", name);
    const char *file = e2e_tmp(dat), *json = e2e_tmp(jname);
    e2e_result *r = e2e_ordex_run("explore", "-n", "2", "--json", json, "--trace-dir",
                                  e2e_tmp("race-traces"), e2e_src(rel), file, extra, NULL);
    EXPECT_STATUS(r, 1);
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_str_is(o, "verdict", "error"));
    EXPECT(r, e2e_json_len(o, "findings") == 1);
    EXPECT(r, e2e_json_str_is(o, "findings[0].kind", "data_race"));
    const char *msg = e2e_json_str(o, "findings[0].message");
    char *base = g_path_get_basename(rel);
    char *la = g_strdup_printf("%s:%d", base, e2e_mark_line(rel, "A"));
    char *lb = g_strdup_printf("%s:%d", base, e2e_mark_line(rel, "B"));
    char *on = g_strdup_printf("data race on file '%s' (%s)", file, bytes);
    EXPECT(r, msg && strstr(msg, la) && strstr(msg, lb) && strstr(msg, on));
    EXPECT(r, msg && strstr(msg, "MPI_File_write_at by rank 0") &&
                  strstr(msg, "MPI_File_read_at by rank 1"));
    const char *trace = e2e_json_str(o, "findings[0].trace");
    EXPECT(r, trace && g_file_test(trace, G_FILE_TEST_EXISTS));
    if (trace && msg) {
        const char *rjson = e2e_tmp("replay.json");
        e2e_result *p = e2e_ordex_run("replay", "--json", rjson, trace, NULL);
        EXPECT_STATUS(p, 1);
        JsonObject *q = EXPECT_JSON_FILE(p, rjson);
        EXPECT(p, e2e_json_str_is(q, "findings[0].kind", "data_race"));
        EXPECT(p, e2e_json_str_is(q, "findings[0].message", msg));
        e2e_json_free(q);
        e2e_free(p);
    }
    g_free(on);
    g_free(la);
    g_free(lb);
    g_free(base);
    e2e_json_free(o);
    e2e_free(r);
    g_free(rel);
    g_free(dat);
    g_free(jname);
}

/* Explores a correct program: exit 0, every ordering, no finding. */
static void clean(const char *name, const char *extra) {
    char *rel = g_strdup_printf("tests/programs/%s.c", name);
    char *dat = g_strdup_printf("%s.dat", name);
    e2e_result *r = e2e_ordex_run("explore", "-n", "2", e2e_src(rel), e2e_tmp(dat), extra, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "all orderings explored: no error exists for this input");
    EXPECT_ERR_LACKS(r, "ERROR");
    e2e_free(r);
    g_free(rel);
    g_free(dat);
}

static void test_race_no_sync(void) {
    race("mpiio_race", "bytes 8-15", NULL);
}

static void test_race_reader_without_sync(void) {
    race("mpiio_race_one_sync", "bytes 12-15", NULL);
}

static void test_sync_barrier_sync(void) {
    clean("mpiio_race_ok", NULL);
    clean("mpiio_race_one_sync", "sync");
    clean("mpiio_nonblocking", NULL);
    e2e_result *r =
        e2e_ordex_run("run", "-n", "2", PROG("mpiio_race_ok.c"), e2e_tmp("ok.dat"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 1 read 3 4\n");
    e2e_free(r);
}

static void test_atomic_mode(void) {
    clean("mpiio_atomic_ok", NULL);
    e2e_result *r =
        e2e_ordex_run("run", "-n", "2", PROG("mpiio_atomic_ok.c"), e2e_tmp("at.dat"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_OUT_HAS(r, "rank 1 read 9\n");
    e2e_free(r);
}

/* Rank 0 overwrites bytes of its file in each ordering; every ordering
 * must find the bytes as they were at the snapshot it started from. */
static void test_orderings_see_their_file(void) {
    const char *modes[] = {"fork", "copy"};
    for (int i = 0; i < 2; i++) {
        char *opt = g_strdup_printf("--checkpoint=%s", modes[i]);
        e2e_result *r = e2e_ordex_run("explore", "-n", "3", opt, PROG("mpiio_orderings_ok.c"),
                                      e2e_tmp("orderings.dat"), NULL);
        EXPECT_STATUS(r, 0);
        EXPECT_ERR_HAS(r, "all orderings explored: no error exists for this input (but the "
                          "outcome depends on the ordering)");
        EXPECT_ERR_LACKS(r, "written by another ordering");
        e2e_free(r);
        g_free(opt);
    }
}

/* examples/mpiio_checkpoint.c: rows written, columns read back through a
 * strided view; without sync, barrier, sync the reads race with the other
 * ranks' writes (reported once for the pair of lines). */
static void test_checkpoint_example(void) {
    const char *src = "examples/mpiio_checkpoint.c";
    e2e_result *r = e2e_ordex_run("run", "-n", "4", e2e_src(src), e2e_tmp("ck.dat"), NULL);
    EXPECT_STATUS(r, 0);
    /* column c sums 1000 * (0 + ... + 7) + 8c: rank 3 has columns 3 and 7 */
    EXPECT_OUT_HAS(r, "rank 3: 2 columns read back, all values right, sum 56080\n");
    EXPECT_OUT_HAS(r, "rank 0: 2 columns read back, all values right, sum 56032\n");
    EXPECT_CLEAN(r);
    e2e_free(r);
    r = e2e_ordex_run("explore", "-n", "4", e2e_src(src), e2e_tmp("ck.dat"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input");
    e2e_free(r);
    const char *json = e2e_tmp("ck.json");
    r = e2e_ordex_run("explore", "-n", "4", "--json", json, "--trace-dir", e2e_tmp("ck-traces"),
                      e2e_src(src), "--racy", e2e_tmp("ck2.dat"), NULL);
    EXPECT_STATUS(r, 1);
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    EXPECT(r, e2e_json_len(o, "findings") == 1);
    EXPECT(r, e2e_json_str_is(o, "findings[0].kind", "data_race"));
    const char *msg = e2e_json_str(o, "findings[0].message");
    char *w = g_strdup_printf("mpiio_checkpoint.c:%d", e2e_mark_line(src, "WRITE"));
    char *rd = g_strdup_printf("mpiio_checkpoint.c:%d", e2e_mark_line(src, "READ"));
    EXPECT(r, msg && strstr(msg, w) && strstr(msg, rd) && strstr(msg, "MPI_File_write_all") &&
                  strstr(msg, "MPI_File_read_all"));
    g_free(w);
    g_free(rd);
    e2e_json_free(o);
    e2e_free(r);
}

/* Nothing but the file's contents differs between the orderings. */
static void test_file_in_outcome(void) {
    e2e_result *r =
        e2e_ordex_run("explore", "-n", "3", PROG("mpiio_outcome.c"), e2e_tmp("outcome.dat"), NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "no error exists for this input (but the outcome depends on the ordering)");
    e2e_free(r);
}

/* The distinct outcomes of exploring mpiio_shared_order.c on n ranks. */
static guint64 shared_outcomes(const char *n, const char *how, bool por) {
    const char *json = e2e_tmp("shared.json");
    e2e_result *r =
        e2e_ordex_run("explore", "-n", n, por ? "--strategy=exhaustive" : "--no-por", "--json",
                      json, PROG("mpiio_shared_order.c"), e2e_tmp("shared.dat"), how, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_ERR_HAS(r, "all orderings explored: no error exists for this input");
    JsonObject *o = EXPECT_JSON_FILE(r, json);
    guint64 k = o ? (guint64)e2e_json_num(o, "stats.outcomes[0]") : 0;
    e2e_json_free(o);
    e2e_free(r);
    return k;
}

/* Each rank's one record through the shared file pointer lands in any
 * order of the ranks (MPI 3.1 13.4.4): 2 files for 2 ranks, 6 for 3, with
 * and without partial-order reduction, blocking or not; write_ordered
 * leaves one. */
static void test_shared_pointer_orders(void) {
    CU_ASSERT_EQUAL(shared_outcomes("2", "shared", true), 2);
    CU_ASSERT_EQUAL(shared_outcomes("2", "nonblocking", true), 2);
    CU_ASSERT_EQUAL(shared_outcomes("3", "shared", true), 6);
    CU_ASSERT_EQUAL(shared_outcomes("3", "shared", false), 6);
    CU_ASSERT_EQUAL(shared_outcomes("2", "ordered", true), 1);
    CU_ASSERT_EQUAL(shared_outcomes("3", "ordered", true), 1);
    /* run takes one order: rank 0's record first */
    e2e_result *r = e2e_ordex_run("run", "-n", "2", PROG("mpiio_shared_order.c"),
                                  e2e_tmp("shared-run.dat"), NULL);
    EXPECT_CLEAN(r);
    gchar *bytes = NULL;
    gsize len = 0;
    CU_ASSERT(g_file_get_contents(e2e_tmp("shared-run.dat"), &bytes, &len, NULL));
    int want[2] = {0, 1};
    CU_ASSERT(len == sizeof want && memcmp(bytes, want, sizeof want) == 0);
    g_free(bytes);
    e2e_free(r);
}

/* A store into (or, for a read, a load from) the buffer of a pending
 * nonblocking or split collective access is a data race naming the access
 * (marked A) and the touch (B), under run and explore, found again by
 * replaying the trace; touching the buffers after the completion is clean. */
static void test_pending_io_buffers(void) {
    const char *src = REL("mpiio_ibuf_race.c");
    const char *how[] = {"iwrite", "iread", "split"};
    const char *call[] = {"MPI_File_iwrite_at", "MPI_File_iread_at", "MPI_File_write_at_all_begin"};
    const char *touch[] = {"a store by rank 0", "a load by rank 0", "a store by rank 0"};
    for (int i = 0; i < 3; i++) {
        char *ma = g_strdup_printf("// [A %s]", how[i]), *mb = g_strdup_printf("// [B %s]", how[i]);
        char *la = g_strdup_printf("%s by rank 0 at mpiio_ibuf_race.c:%d (buffer)", call[i],
                                   e2e_marker_line(src, ma));
        char *lb =
            g_strdup_printf("%s at mpiio_ibuf_race.c:%d", touch[i], e2e_marker_line(src, mb));
        const char *json = e2e_tmp("ibuf.json");
        e2e_result *r = e2e_ordex_run("explore", "-n", "2", "--json", json, "--trace-dir",
                                      e2e_tmp("ibuf-traces"), PROG("mpiio_ibuf_race.c"),
                                      e2e_tmp("ibuf.dat"), how[i], NULL);
        EXPECT_STATUS(r, 1);
        JsonObject *o = EXPECT_JSON_FILE(r, json);
        EXPECT(r, e2e_json_len(o, "findings") == 1);
        EXPECT(r, e2e_json_str_is(o, "findings[0].kind", "data_race"));
        const char *msg = e2e_json_str(o, "findings[0].message");
        EXPECT(r, msg && strstr(msg, la) && strstr(msg, lb));
        const char *trace = e2e_json_str(o, "findings[0].trace");
        if (trace && msg) {
            const char *rjson = e2e_tmp("ibuf-replay.json");
            e2e_result *p = e2e_ordex_run("replay", "--json", rjson, trace, NULL);
            EXPECT_STATUS(p, 1);
            JsonObject *q = EXPECT_JSON_FILE(p, rjson);
            EXPECT(p, e2e_json_str_is(q, "findings[0].message", msg));
            e2e_json_free(q);
            e2e_free(p);
        }
        e2e_json_free(o);
        e2e_free(r);
        r = e2e_ordex_run("run", "-n", "2", PROG("mpiio_ibuf_race.c"), e2e_tmp("ibuf.dat"), how[i],
                          NULL);
        EXPECT_STATUS(r, 1);
        EXPECT_ERR_HAS(r, la);
        EXPECT_ERR_HAS(r, lb);
        e2e_free(r);
        g_free(ma);
        g_free(mb);
        g_free(la);
        g_free(lb);
    }
    clean("mpiio_ibuf_race", "ok");
    e2e_result *r =
        e2e_ordex_run("run", "-n", "2", PROG("mpiio_ibuf_race.c"), e2e_tmp("ibuf.dat"), "ok", NULL);
    EXPECT_CLEAN(r);
    EXPECT_OUT_HAS(r, "rank 1 done (12)\n");
    e2e_free(r);
}

/* 4 MB more per rank predict 4 ms more (1 ns per byte, docs/mpiio.md). */
static void test_predict_charges_bytes(void) {
    double t[2];
    const char *sizes[2] = {"0", "4000000"};
    for (int i = 0; i < 2; i++) {
        const char *json = e2e_tmp(i ? "p1.json" : "p0.json");
        e2e_result *r =
            e2e_ordex_run("predict", "-n", "2", "--ignore-compute", "--no-timeline", "--json", json,
                          PROG("mpiio_predict.c"), e2e_tmp("predict.dat"), sizes[i], NULL);
        EXPECT_STATUS(r, 0);
        JsonObject *o = EXPECT_JSON_FILE(r, json);
        t[i] = e2e_json_num(o, "predicted_time_s");
        e2e_json_free(o);
        e2e_free(r);
    }
    double more = t[1] - t[0];
    if (!(more > 3.9e-3 && more < 4.2e-3))
        printf("predicted %g s and %g s\n", t[0], t[1]);
    CU_ASSERT(more > 3.9e-3 && more < 4.2e-3);
}

static void add(CU_pSuite s) {
    CU_add_test(s, "values read back and the file's bytes", test_values);
    CU_add_test(s, "error classes through MPI_ERRORS_RETURN", test_error_classes);
    CU_add_test(s, "a fatal file error handler", test_fatal_handler);
    CU_add_test(s, "buffers that cannot be accessed", test_bad_buffer);
    CU_add_test(s, "arguments that must be the same", test_not_same);
    CU_add_test(s, "MPI_File_close missing on a rank", test_close_missing);
    CU_add_test(s, "write_all against write_at_all", test_coll_mismatch);
    CU_add_test(s, "race: no MPI_File_sync", test_race_no_sync);
    CU_add_test(s, "race: the reader does not sync", test_race_reader_without_sync);
    CU_add_test(s, "sync, barrier, sync: no race", test_sync_barrier_sync);
    CU_add_test(s, "atomic mode: no race", test_atomic_mode);
    CU_add_test(s, "each ordering sees its own file", test_orderings_see_their_file);
    CU_add_test(s, "the file is part of the outcome", test_file_in_outcome);
    CU_add_test(s, "examples/mpiio_checkpoint.c", test_checkpoint_example);
    CU_add_test(s, "predict charges the bytes", test_predict_charges_bytes);
    CU_add_test(s, "every order of shared-pointer accesses", test_shared_pointer_orders);
    CU_add_test(s, "buffers of pending nonblocking and split accesses", test_pending_io_buffers);
}

E2E_MAIN("mpiio", add)
