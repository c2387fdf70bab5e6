/*
 * datafile.c - files of the source tree (see datafile.h).
 */
#include "toolchain/datafile.h"

#include <glib.h>

char *tc_data_file(const char *rel, char **where) {
    GPtrArray *cand = g_ptr_array_new_with_free_func(g_free);
    const char *home = g_getenv("ORDEX_HOME");
    if (home) {
        g_ptr_array_add(cand, g_build_filename(home, rel, NULL));
    } else {
        char *exe = g_file_read_link("/proc/self/exe", NULL);
        if (exe) {
            char *dir = g_path_get_dirname(exe);
            char *runfiles = g_strconcat(exe, ".runfiles", NULL);
            g_ptr_array_add(cand, g_build_filename(dir, "..", "..", rel, NULL));
            g_ptr_array_add(cand, g_build_filename(dir, "..", rel, NULL));
            g_ptr_array_add(cand, g_build_filename(runfiles, "ordex", rel, NULL));
            g_free(runfiles);
            g_free(dir);
            g_free(exe);
        }
    }
    char *found = NULL;
    for (guint i = 0; i < cand->len && !found; i++)
        if (g_file_test(g_ptr_array_index(cand, i), G_FILE_TEST_IS_REGULAR))
            found = g_canonicalize_filename(g_ptr_array_index(cand, i), NULL);
    if (!found && where)
        *where = home ? g_strdup_printf("%s: no such file (ORDEX_HOME=%s does not hold the "
                                        "ordex source tree)",
                                        (char *)g_ptr_array_index(cand, 0), home)
                      : g_strdup("the ordex source tree was not found beside the binary; set "
                                 "ORDEX_HOME to that tree");
    g_ptr_array_free(cand, TRUE);
    return found;
}
