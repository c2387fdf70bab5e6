/*
 * driver.c - the regression run of a fuzz harness: every file of the
 * corpus directories named on the command line (or in FUZZ_CORPUS, colon
 * separated) goes through LLVMFuzzerTestOneInput once.  A crash or a
 * violated property ends the process (the test fails, naming the file on
 * stderr); the CUnit test asserts that every file was read and run.
 */
#include <CUnit/Basic.h>
#include <glib.h>

#include "tests/fuzz/fuzz.h"

static GPtrArray *g_dirs;

static void test_corpus(void) {
    int files = 0, run = 0;
    for (guint i = 0; i < g_dirs->len; i++) {
        const char *dir = g_ptr_array_index(g_dirs, i);
        GDir *d = g_dir_open(dir, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        const char *name;
        while ((name = g_dir_read_name(d))) {
            char *path = g_build_filename(dir, name, NULL);
            gchar *data = NULL;
            gsize len = 0;
            files++;
            if (g_file_get_contents(path, &data, &len, NULL)) {
                fprintf(stderr, "input %s\n", path);
                LLVMFuzzerTestOneInput((const uint8_t *)data, len);
                run++;
            }
            g_free(data);
            g_free(path);
        }
        g_dir_close(d);
    }
    CU_ASSERT(files > 0); /* an empty corpus would test nothing */
    CU_ASSERT_EQUAL(run, files);
    printf("\n%d inputs run\n", run);
}

int main(int argc, char **argv) {
    g_dirs = g_ptr_array_new();
    for (int i = 1; i < argc; i++)
        g_ptr_array_add(g_dirs, argv[i]);
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("fuzz corpus", NULL, NULL);
    CU_add_test(s, "every input of the corpus runs", test_corpus);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed != 0;
}
