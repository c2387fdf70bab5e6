/*
 * e2e.h - helpers of the end-to-end tests: running the ordex binary from the
 * Bazel runfiles, and checking its exit status, output and findings.
 */
#ifndef ORDEX_TESTS_E2E_H
#define ORDEX_TESTS_E2E_H

#include <CUnit/CUnit.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdbool.h>

/* One run of a command. */
typedef struct {
    char *cmd;   /* the command line, for messages */
    int status;  /* exit status; 128 + signal number if killed by a signal */
    char *out;   /* everything written to stdout */
    char *err;   /* everything written to stderr */
    double secs; /* wall-clock time */
    bool dumped; /* already printed after a failed check */
} e2e_result;

/* Seconds any single command may take before it is killed (status 124). */
#define E2E_TIME_LIMIT "120"

/* Sets up the paths and the environment; false (with a message) if the
 * runfiles are missing. */
bool e2e_init(void);
void e2e_fini(void);
/* Sets (value NULL: removes) a variable in the environment of the commands
 * run from now on (the test's own environment is read once, by e2e_init). */
void e2e_setenv(const char *name, const char *value);

/* Absolute path of a file of the workspace in the runfiles, e.g.
 * e2e_src("examples/ring.c").  The string lives until e2e_fini. */
const char *e2e_src(const char *rel);
/* A path under the test's scratch directory ($TEST_TMPDIR); lives until e2e_fini. */
const char *e2e_tmp(const char *name);
/* The ordex binary. */
const char *e2e_ordex(void);

/* Runs ordex with the given arguments (NULL-terminated). */
e2e_result *e2e_ordex_run(const char *arg, ...) G_GNUC_NULL_TERMINATED;
e2e_result *e2e_ordex_runv(const char *const *args);
/* ordex started in the background, for tests that signal it: not under
 * `timeout` (whose process group would receive the signal too), with its
 * stdout and stderr in files of the scratch directory. */
typedef struct e2e_proc e2e_proc;
e2e_proc *e2e_ordex_start(const char *arg, ...) G_GNUC_NULL_TERMINATED;
int e2e_proc_pid(const e2e_proc *p);
/* Waits up to limit_s seconds for it to end (then kills it, status 124) and
 * returns the run as e2e_ordex_run would; p is freed. */
e2e_result *e2e_proc_wait(e2e_proc *p, double limit_s);
/* Waits up to limit_s seconds for a file to exist. */
bool e2e_wait_for_file(const char *path, double limit_s);
/* Processes whose command line has an argument equal to `arg` (ordex and
 * every process it forked, when arg is unique to the command); with
 * kill_them, they are killed (SIGKILL). */
int e2e_processes_with_arg(const char *arg, bool kill_them);

/* Runs any command (argv[0] searched in PATH), same environment. */
e2e_result *e2e_exec(const char *const *argv);
void e2e_free(e2e_result *r);

/* 1-based number of the only line of workspace file `rel` that contains
 * `marker`; -1 if no line or several lines contain it. */
int e2e_marker_line(const char *rel, const char *marker);
/* The line of the mark "/" "* [NAME] *" "/" in a workspace file (-1: none). */
int e2e_mark_line(const char *rel, const char *name);

/* Programs that state their expected verdict: the text of the comment that
 * holds "ordex-expect:", from after it to the comment's end, on one line
 * (the " * " that begin its continuation lines become single spaces);
 * NULL when there is none.  g_free. */
char *e2e_expect_text(const char *src);
/* The base names of the files DIR/PREFIX*.c of the workspace, sorted (a
 * suite that runs each as a test of its own). */
GPtrArray *e2e_list_programs(const char *dir, const char *prefix);
/* Contents of a workspace file (NULL if unreadable); lives until e2e_fini. */
const char *e2e_read_src(const char *rel);
/* Contents of any file, newly allocated (NULL if unreadable). */
char *e2e_read_file(const char *path);

/* The lines of `text` sorted bytewise (as LC_ALL=C sort), newly allocated. */
char *e2e_sorted_lines(const char *text);
/* Lines of `text` that contain `needle`, in order, newly allocated. */
char *e2e_grep(const char *text, const char *needle);
/* Number of (non-overlapping) occurrences of needle in hay. */
int e2e_count(const char *hay, const char *needle);
/* Number of lines in text. */
int e2e_lines(const char *text);

/* Prints the failed check and (once per run) the command, status and output
 * of the run to stdout, the test log. */
void e2e_dump(const e2e_result *r, const char *what, const char *file, int line);

/* Records a CUnit assertion; on failure also dumps the run. */
bool e2e_check(bool ok, const e2e_result *r, const char *what, const char *file, int line);

#define EXPECT(r, cond) e2e_check((cond), (r), #cond, __FILE__, __LINE__)
#define EXPECT_STATUS(r, st)                                                                       \
    e2e_check((r)->status == (st), (r), "exit status " #st, __FILE__, __LINE__)
#define EXPECT_OUT_HAS(r, s)                                                                       \
    e2e_check(strstr((r)->out, (s)) != NULL, (r), "stdout contains " #s, __FILE__, __LINE__)
/* `block` (a finding's text, may be NULL) contains / lacks `text`. */
bool e2e_check_block(const e2e_result *r, const char *block, const char *text, bool want,
                     const char *file, int line);
#define EXPECT_BLOCK_HAS(r, block, text)                                                           \
    e2e_check_block((r), (block), (text), true, __FILE__, __LINE__)
#define EXPECT_BLOCK_LACKS(r, block, text)                                                         \
    e2e_check_block((r), (block), (text), false, __FILE__, __LINE__)
#define EXPECT_OUT_LACKS(r, s)                                                                     \
    e2e_check(strstr((r)->out, (s)) == NULL, (r), "stdout lacks " #s, __FILE__, __LINE__)
#define EXPECT_ERR_HAS(r, s)                                                                       \
    e2e_check(strstr((r)->err, (s)) != NULL, (r), "stderr contains " #s, __FILE__, __LINE__)
#define EXPECT_ERR_LACKS(r, s)                                                                     \
    e2e_check(strstr((r)->err, (s)) == NULL, (r), "stderr lacks " #s, __FILE__, __LINE__)

/* ordex's verdict line "ordex: ... no error found", no finding and no
 * warning. */
void e2e_expect_clean(const e2e_result *r, const char *file, int line);
#define EXPECT_CLEAN(r) e2e_expect_clean((r), __FILE__, __LINE__)

/* stdout, sorted by line, equals tests/e2e/expected/NAME.out (recorded from
 * real MPICH by record_expected.sh).  `only` != NULL: compare only the lines
 * of stdout containing it. */
void e2e_expect_mpich_output(const e2e_result *r, const char *name, const char *only,
                             const char *file, int line);
#define EXPECT_MPICH_OUTPUT(r, name) e2e_expect_mpich_output((r), (name), NULL, __FILE__, __LINE__)
/* The same for a file recorded with another MPI (`mpi` names it for the
 * message): the RMA programs are recorded with Open MPI by
 * record_expected_openmpi.sh. */
void e2e_expect_recorded_output(const e2e_result *r, const char *name, const char *only,
                                const char *mpi, const char *file, int line);
#define EXPECT_OPENMPI_OUTPUT(r, name)                                                             \
    e2e_expect_recorded_output((r), (name), NULL, "Open MPI", __FILE__, __LINE__)

/* The report holds exactly `nfindings` findings, and one of them reads
 *   ordex: ERROR [KIND] ...TEXT...
 * followed, when src is not NULL, by "  at BASENAME(src):LINE" where LINE is the
 * line of `marker` in src, or (when end_marker is not NULL) any line from the
 * marker's to end_marker's.  Returns that finding's full text (message,
 * location and details up to the next finding or the summary), newly
 * allocated, or NULL. */
/* The finding that starts at lines[at] (the line and its indented lines
 * after it, newly allocated; NULL when at < 0).  When src is not NULL, also
 * checks that the next line is "  at BASENAME(src):N" with N the line of
 * `marker` in src (or between marker's and end_marker's lines). */
char *e2e_finding_at(const char *const *lines, int at, const char *src, const char *marker,
                     const char *end_marker, const e2e_result *r, const char *file, int line);

char *e2e_expect_finding(const e2e_result *r, int nfindings, const char *kind, const char *text,
                         const char *src, const char *marker, const char *end_marker,
                         const char *file, int line);
/* The same for warnings: exactly `nwarnings` lines "ordex: WARNING [...",
 * one of them of `kind` with `text`, located at `marker`'s line of src. */
char *e2e_expect_warning(const e2e_result *r, int nwarnings, const char *kind, const char *text,
                         const char *src, const char *marker, const char *file, int line);
#define EXPECT_WARNING(r, n, kind, text, src, marker)                                              \
    e2e_expect_warning((r), (n), (kind), (text), (src), (marker), __FILE__, __LINE__)
#define EXPECT_FINDING(r, n, kind, text, src, marker)                                              \
    e2e_expect_finding((r), (n), (kind), (text), (src), (marker), NULL, __FILE__, __LINE__)
#define EXPECT_FINDING_IN(r, n, kind, text, src, marker, end)                                      \
    e2e_expect_finding((r), (n), (kind), (text), (src), (marker), (end), __FILE__, __LINE__)

/* stderr is exactly one line that contains `text` (a usage error). */
void e2e_expect_one_line_error(const e2e_result *r, const char *text, const char *file, int line);
#define EXPECT_ONE_LINE_ERROR(r, text) e2e_expect_one_line_error((r), (text), __FILE__, __LINE__)

/*
 * JSON documents that ordex writes, checked as documents: a test asserts
 * values found by their place in the tree, so that whitespace and key order
 * do not matter, while a document that is not strict JSON always fails.
 */

/* The JSON object in file `path` (or in `text`), newly referenced (free with
 * e2e_json_free), or NULL.  Records one assertion: the file is readable,
 * its text is UTF-8 and strict RFC 8259 JSON with no key twice in an object,
 * and its top level is an object; on failure the reason, the text and the run
 * are dumped. */
JsonObject *e2e_json_file(const e2e_result *r, const char *path, const char *file, int line);
JsonObject *e2e_json_text(const e2e_result *r, const char *text, const char *file, int line);
#define EXPECT_JSON_FILE(r, path) e2e_json_file((r), (path), __FILE__, __LINE__)
#define EXPECT_JSON_TEXT(r, text) e2e_json_text((r), (text), __FILE__, __LINE__)
/* Drops a reference from e2e_json_file or e2e_json_text; NULL is fine. */
void e2e_json_free(JsonObject *o);

/* NULL when `text` is strict JSON (RFC 8259: UTF-8, one value and nothing
 * after it but whitespace), with no object holding a key twice; otherwise
 * the first problem and its byte offset, newly allocated. */
char *e2e_json_problem(const char *text);

/*
 * The node at `path` under `o`, or NULL when o is NULL or a step is missing.
 * A path is a sequence of steps: NAME (a member; "." before it unless it comes
 * first), [N] (element N of an array, from 0) and [KEY=VALUE] (the first
 * element of an array that is an object whose member KEY is the string VALUE
 * or a number equal to VALUE).  Examples: "totals.core_wait_s",
 * "ranks[rank=1].core_wait_s", "stats.outcomes[0]", "findings[kind=crash]".
 */
JsonNode *e2e_json_at(JsonObject *o, const char *path);
/* The number (integer or not) at path; NAN when there is none. */
double e2e_json_num(JsonObject *o, const char *path);
/* The string at path; NULL when there is none.  Lives as long as o. */
const char *e2e_json_str(JsonObject *o, const char *path);
/* Whether path holds a string equal to `want`. */
bool e2e_json_str_is(JsonObject *o, const char *path, const char *want);
/* 1 when path holds true, 0 when it holds false, -1 otherwise. */
int e2e_json_bool(JsonObject *o, const char *path);
/* Whether path holds null (false when it is missing). */
bool e2e_json_is_null(JsonObject *o, const char *path);
/* Whether path holds an array (of any length). */
bool e2e_json_is_array(JsonObject *o, const char *path);
/* Number of elements of the array at path; -1 when it is no array. */
int e2e_json_len(JsonObject *o, const char *path);
/* Number of elements of the array at path that are objects whose member
 * `key` is the string `value`; -1 when path holds no array. */
int e2e_json_count(JsonObject *o, const char *path, const char *key, const char *value);
/* The value at path written as compact JSON (e.g. "[1, 2]" is "[1,2]"),
 * newly allocated; NULL when there is none. */
char *e2e_json_compact(JsonObject *o, const char *path);

/* The finding's details hold a line "  WHO... at BASENAME(src):LINE" where
 * LINE is the line of `marker` in `src` (e.g. who = "rank 1: MPI_Recv("). */
void e2e_expect_blocked_at(const e2e_result *r, const char *block, const char *who, const char *src,
                           const char *marker, const char *file, int line);
#define EXPECT_BLOCKED_AT(r, block, who, src, marker)                                              \
    e2e_expect_blocked_at((r), (block), (who), (src), (marker), __FILE__, __LINE__)

/* Runs the CUnit suite `name` whose tests `add` registers, in verbose mode:
 * the body of an end-to-end test binary's main.  Under Bazel's sharding
 * (TEST_TOTAL_SHARDS, TEST_SHARD_INDEX) only the shard's share of the tests
 * is registered and run: those at positions index, index + total, ...
 * A test that `add` registers inactive (tests/skip.h) stays inactive: skipped,
 * not failed.  `add` runs once, after e2e_init.  Returns the exit status: 0 when every test passed,
 * 1 when one failed, 2 when the suite could not start. */
int e2e_main(const char *name, void (*add)(CU_pSuite));
#define E2E_MAIN(name, add)                                                                        \
    int main(void) {                                                                               \
        return e2e_main((name), (add));                                                            \
    }

#endif
