/*
 * test_symbolize.c - code addresses of every rank's copy of a program (each
 * loaded at its own address) give the function and line of the source, from
 * the scheduler and from rank code with a small stack, and file offsets give
 * the same lines without the program loaded.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/debuginfo.h"
#include "scheduler/memobj.h"
#include "scheduler/sched.h"
#include "scheduler/symbolize.h"

/* Loading ranks replaces their malloc, which a sanitizer forbids. */
#ifndef __SANITIZE_ADDRESS__

#define RANKS 3

static char *g_src; /* symbolize_program.c, as given to the compiler */
static char *g_so;
static int g_leaf_line, g_main_line;

/* What the ranks noted: return addresses into main (0) and leaf (1), and
 * the line of the latter as symbolised by the rank itself. */
static void *g_ret[RANKS][2];
static char *g_line_in_rank[RANKS];

/* Called by the program's ranks (exported: linked with -rdynamic). */
void test_note(int which) {
    int r = sched_current();
    if (r < 0 || r >= RANKS)
        return;
    void *ret = __builtin_return_address(0);
    g_ret[r][which] = ret;
    if (which == 1) {
        /* As the simulator does in an MPI call: ordex's heap, the rank's stack. */
        sched_enter_sim();
        const char *l = sched_symbolize_line(ret, true);
        g_line_in_rank[r] = g_strdup(l ? l : "(none)");
        sched_leave_sim();
    }
}

static int marker_line(const char *text, const char *marker) {
    const char *at = strstr(text, marker);
    if (!at)
        return -1;
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Builds the program with debug information and loads it as RANKS ranks
 * with 16 KiB stacks, then runs them. */
static int suite_init(void) {
    const char *srcdir = getenv("TEST_SRCDIR"), *tmp = getenv("TEST_TMPDIR");
    if (!srcdir || !tmp)
        return 1;
    g_src = g_build_filename(srcdir, "ordex", "tests", "scheduler", "symbolize_program.c", NULL);
    g_so = g_build_filename(tmp, "symbolize_program.so", NULL);
    char *text = NULL;
    if (!g_file_get_contents(g_src, &text, NULL, NULL))
        return 1;
    g_leaf_line = marker_line(text, "/* NOTE_LEAF */");
    g_main_line = marker_line(text, "/* NOTE_MAIN */");
    g_free(text);
    const char *cc[] = {"gcc",        "-g", "-O0", "-fPIC", "-shared",
                        "-Wl,-z,now", "-o", g_so,  g_src,   NULL};
    int status = 1;
    if (!g_spawn_sync(NULL, (char **)cc, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                      NULL) ||
        !g_spawn_check_wait_status(status, NULL)) {
        fprintf(stderr, "cannot compile %s\n", g_src);
        return 1;
    }
    static char *argv[2];
    argv[0] = g_so;
    sched_options o = {0};
    o.nranks = RANKS;
    o.stack_size = (size_t)16 << 10;
    o.heap_size = (size_t)1 << 24;
    o.step_timeout_s = 10;
    o.program = g_so;
    o.argc = 1;
    o.argv = argv;
    o.out = stdout;
    o.err = stderr;
    char *err = NULL;
    if (!sched_init(&o, &err)) {
        fprintf(stderr, "sched_init: %s\n", err);
        g_free(err);
        return 1;
    }
    return 0;
}

static bool no_event(void *user) {
    (void)user;
    return false;
}

static void test_ranks_run(void) {
    CU_ASSERT_EQUAL_FATAL(sched_run(no_event, NULL), SCHED_RUN_COMPLETE);
    for (int r = 0; r < RANKS; r++) {
        CU_ASSERT_EQUAL(sched_rank_state(r), SCHED_DONE);
        CU_ASSERT_PTR_NOT_NULL(g_ret[r][0]);
        CU_ASSERT_PTR_NOT_NULL(g_ret[r][1]);
    }
    CU_ASSERT(g_leaf_line > 0 && g_main_line > 0);
}

/* Every rank's copy: the call's function and line, whoever asks. */
static void test_each_copy(void) {
    char *leaf = g_strdup_printf("leaf (%s:%d)", g_src, g_leaf_line);
    char *main_ = g_strdup_printf("main (%s:%d)", g_src, g_main_line);
    char *leaf_line = g_strdup_printf("symbolize_program.c:%d", g_leaf_line);
    char *main_line = g_strdup_printf("symbolize_program.c:%d", g_main_line);
    for (int r = 0; r < RANKS; r++) {
        if (!g_ret[r][0] || !g_ret[r][1])
            continue;
        CU_ASSERT(sched_is_program_code((char *)g_ret[r][0] - 1));
        CU_ASSERT_STRING_EQUAL(sched_symbolize(g_ret[r][1], true), leaf);
        CU_ASSERT_STRING_EQUAL(sched_symbolize(g_ret[r][0], true), main_);
        const char *l = sched_symbolize_line(g_ret[r][1], true);
        CU_ASSERT(l && strcmp(l, leaf_line) == 0);
        l = sched_symbolize_line(g_ret[r][0], true);
        CU_ASSERT(l && strcmp(l, main_line) == 0);
        /* From rank code, on a 16 KiB stack. */
        CU_ASSERT(g_line_in_rank[r] && strcmp(g_line_in_rank[r], leaf_line) == 0);
        if (r > 0) /* the copies are apart: the same call, another address */
            CU_ASSERT_PTR_NOT_EQUAL(g_ret[r][1], g_ret[0][1]);
    }
    g_free(leaf);
    g_free(main_);
    g_free(leaf_line);
    g_free(main_line);
}

/* File offsets: the same lines, also with nothing cached. */
static void test_offsets(void) {
    char *leaf_line = g_strdup_printf("symbolize_program.c:%d", g_leaf_line);
    for (int pass = 0; pass < 2; pass++) {
        for (int r = 0; r < RANKS; r++) {
            uintptr_t off = (uintptr_t)g_ret[r][1] - sched_image_bias(r);
            const char *l = sched_symbolize_offset(g_so, off, true);
            CU_ASSERT(l && strcmp(l, leaf_line) == 0);
        }
        sched_symbolize_reset();
    }
    CU_ASSERT_PTR_NULL(sched_symbolize_offset("/nonexistent/program.so", 0x1000, true));
    g_free(leaf_line);
}

/* Code outside the program: not the program's, named by the dynamic linker. */
static void test_outside(void) {
    CU_ASSERT_FALSE(sched_is_program_code((const void *)test_note));
    CU_ASSERT(g_str_has_prefix(sched_symbolize((const void *)test_note, false), "test_note ("));
    CU_ASSERT_PTR_NULL(sched_symbolize_line((const void *)test_note, false));
}

/* One parsed ELF and DWARF handle per file, whoever reads it: the memory
 * objects' reader finds the program already read by symbolisation, and a
 * file is read again only once nobody holds it. */
static void test_one_handle(void) {
    CU_ASSERT_PTR_NOT_NULL(sched_symbolize(g_ret[0][1], true)); /* holds the program */
    unsigned before = sched_debuginfo_reads();
    sched_memobj_open();
    CU_ASSERT_EQUAL(sched_debuginfo_reads(), before);
    const sched_debuginfo *a = sched_debuginfo_ref(g_so), *b = sched_debuginfo_ref(g_so);
    CU_ASSERT_PTR_EQUAL(a, b);
    CU_ASSERT_PTR_NOT_NULL(a->elf);
    CU_ASSERT_PTR_NOT_NULL(a->dw);
    CU_ASSERT_EQUAL(sched_debuginfo_reads(), before);
    sched_debuginfo_unref(a);
    sched_debuginfo_unref(b);
    const sched_debuginfo *none = sched_debuginfo_ref("/nonexistent/unread.so");
    CU_ASSERT_PTR_NULL(none->elf);
    CU_ASSERT_PTR_NULL(none->dw);
    CU_ASSERT_EQUAL(sched_debuginfo_reads(), before + 1);
    sched_debuginfo_unref(none);
    none = sched_debuginfo_ref("/nonexistent/unread.so"); /* freed: read again */
    CU_ASSERT_EQUAL(sched_debuginfo_reads(), before + 2);
    sched_debuginfo_unref(none);
    /* Symbolisation lets go of the program; memobj still holds it. */
    sched_symbolize_reset();
    CU_ASSERT_PTR_NOT_NULL(sched_symbolize(g_ret[0][1], true));
    CU_ASSERT_EQUAL(sched_debuginfo_reads(), before + 2);
    sched_memobj_reset();
}

#endif

int main(void) {
    CU_initialize_registry();
#ifndef __SANITIZE_ADDRESS__
    CU_pSuite s = CU_add_suite("symbolize", suite_init, NULL);
    CU_add_test(s, "the ranks run and note their addresses", test_ranks_run);
    CU_add_test(s, "each rank's copy: function and line", test_each_copy);
    CU_add_test(s, "file offsets", test_offsets);
    CU_add_test(s, "code outside the program", test_outside);
    CU_add_test(s, "one parsed handle per file", test_one_handle);
#endif
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)(CU_get_number_of_failures() + CU_get_number_of_suites_failed());
    CU_cleanup_registry();
    return failed != 0;
}
