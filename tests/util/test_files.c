/*
 * test_files.c - bounded reads of regular files and printable echoes
 * (util/files.h).
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/files.h"

static char *g_dir;

static void test_printable(void) {
    char *p = util_printable("plain café\n\r\t\x01\x0c\x7f end \xe9\xff");
    CU_ASSERT_STRING_EQUAL(p, "plain café\\n\\r\\t\\x01\\x0c\\x7f end \\xe9\\xff");
    g_free(p);
    p = util_printable("");
    CU_ASSERT_STRING_EQUAL(p, "");
    g_free(p);
    /* What comes out is printable: printing it again changes nothing. */
    char *q = util_printable("a\nb\xc3");
    char *r = util_printable(q);
    CU_ASSERT_STRING_EQUAL(q, r);
    g_free(q);
    g_free(r);
}

static void test_read_regular(void) {
    char *path = g_build_filename(g_dir, "f.txt", NULL);
    g_file_set_contents(path, "0123456789", -1, NULL);
    char *text = NULL, *why = NULL;
    size_t len = 0;
    CU_ASSERT_TRUE(util_read_regular(path, 10, &text, &len, &why));
    CU_ASSERT_EQUAL(len, 10);
    CU_ASSERT_STRING_EQUAL(text, "0123456789");
    g_free(text);
    CU_ASSERT_FALSE(util_read_regular(path, 9, &text, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "larger than 9 bytes");
    g_free(why);
    why = NULL;
    CU_ASSERT_FALSE(util_read_regular("/nonexistent/x", 9, &text, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "no such file");
    g_free(why);
    g_unlink(path);
    g_free(path);
}

static void test_special_files(void) {
    char *fifo = g_build_filename(g_dir, "fifo", NULL);
    CU_ASSERT_FATAL(mkfifo(fifo, 0600) == 0);
    char *why = NULL;
    CU_ASSERT_EQUAL(util_open_regular(fifo, &why), -1); /* at once: no writer needed */
    CU_ASSERT_STRING_EQUAL(why, "not a regular file (a FIFO)");
    g_free(why);
    why = NULL;
    char *text = NULL;
    size_t len = 0;
    CU_ASSERT_FALSE(util_read_regular("/dev/zero", 1 << 20, &text, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "not a regular file (a character device)");
    g_free(why);
    why = NULL;
    CU_ASSERT_EQUAL(util_open_regular(g_dir, &why), -1);
    CU_ASSERT_STRING_EQUAL(why, "not a regular file (a directory)");
    g_free(why);
    g_unlink(fifo);
    g_free(fifo);
}

int main(void) {
    g_dir = g_dir_make_tmp("ordex-util-test-XXXXXX", NULL);
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("util files", NULL, NULL);
    CU_add_test(s, "echoes are one printable line", test_printable);
    CU_add_test(s, "regular files read within a bound", test_read_regular);
    CU_add_test(s, "FIFOs, devices and directories refused at once", test_special_files);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    g_rmdir(g_dir);
    return failed != 0;
}
