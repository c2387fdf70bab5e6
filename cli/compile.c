/*
 * compile.c - ordexcc and the compile cache.
 *
 * A program for ordex is a position-independent shared object with debug
 * information whose MPI symbols stay undefined: the ordex executable
 * provides them when it loads one copy per rank.  -Bsymbolic makes the
 * program's references to its own functions and globals bind inside the
 * program, as they would in an executable, even when a name also exists in
 * ordex or the C library.
 */
#define _GNU_SOURCE
#include "cli/compile.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/datafile.h"
#include "stategraph/rundesc.h"

static const char *mpi_include_dir(void) {
    static const char *dirs[] = {"/usr/include/x86_64-linux-gnu/mpich", "/usr/include/mpich",
                                 "/usr/lib/x86_64-linux-gnu/mpich/include"};
    for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
        char *h = g_build_filename(dirs[i], "mpi.h", NULL);
        bool ok = g_file_test(h, G_FILE_TEST_EXISTS);
        g_free(h);
        if (ok)
            return dirs[i];
    }
    return NULL;
}

/* Where ordex.h is: include/ of the source tree. */
static char *ordex_include_dir(void) {
    char *h = ordex_data_file("include/ordex.h", NULL);
    char *dir = h ? g_path_get_dirname(h) : NULL;
    g_free(h);
    return dir;
}

static char *cache_dir(void) {
    const char *env = g_getenv("ORDEX_CACHE");
    char *dir = env ? g_strdup(env) : g_build_filename(g_get_user_cache_dir(), "ordex", NULL);
    g_mkdir_with_parents(dir, 0755);
    return dir;
}

/* The source that marks a program as built by ordexcc. */
static char *stamp_source(void) {
    char *dir = cache_dir();
    char *path = g_build_filename(dir, "ordex_stamp_v1.c", NULL);
    g_free(dir);
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        char *text = g_strdup_printf("/* Linked into every program built by ordexcc. */\n"
                                     "__attribute__((visibility(\"default\"), used))\n"
                                     "const char %s[] = \"%s\";\n",
                                     SG_PROGRAM_MARKER, SG_PROGRAM_ABI);
        char *tmp = g_strdup_printf("%s.%d", path, (int)getpid());
        g_file_set_contents(tmp, text, -1, NULL);
        g_rename(tmp, path);
        g_free(tmp);
        g_free(text);
    }
    return path;
}

static int run_compiler(GPtrArray *argv, bool quiet) {
    g_ptr_array_add(argv, NULL);
    int status = 0;
    GError *err = NULL;
    char *errout = NULL;
    bool ok = g_spawn_sync(NULL, (char **)argv->pdata, NULL,
                           G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL,
                           quiet ? &errout : NULL, &status, &err);
    if (!ok) {
        fprintf(stderr, "ordexcc: cannot run the C compiler %s: %s (install gcc)\n",
                (char *)argv->pdata[0], err->message);
        g_error_free(err);
        g_free(errout);
        return 2;
    }
    if (errout && *errout && !g_spawn_check_wait_status(status, NULL))
        fputs(errout, stderr);
    g_free(errout);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 2;
    return 0;
}

static void add_common(GPtrArray *a) {
    const char *cc = g_getenv("ORDEX_CC");
    g_ptr_array_add(a, g_strdup(cc ? cc : "gcc"));
    g_ptr_array_add(a, g_strdup("-fPIC"));
    g_ptr_array_add(a, g_strdup("-g"));
    const char *inc = mpi_include_dir();
    if (inc)
        g_ptr_array_add(a, g_strdup_printf("-I%s", inc));
    char *own = ordex_include_dir();
    if (own)
        g_ptr_array_add(a, g_strdup_printf("-I%s", own));
    g_free(own);
}

/* Names the link flags below in the compile cache's key: change it when
 * they change, so that cached programs are linked again. */
#define LINK_FLAGS_VERSION "link-2"

/* A program is a shared object that ordex loads once per rank.  -z now and
 * -Bsymbolic: its calls resolve at load, to its own functions first.
 * -z norelro and -z noseparate-code: two segments (code, data) instead of
 * five, so each rank's copy is two mappings; every mapping costs each fork
 * of `ordex explore` a little. */
static void add_link_flags(GPtrArray *a) {
    g_ptr_array_add(a, g_strdup("-shared"));
    g_ptr_array_add(a, g_strdup("-Wl,-z,now"));
    g_ptr_array_add(a, g_strdup("-Wl,-Bsymbolic"));
    g_ptr_array_add(a, g_strdup("-Wl,-z,norelro"));
    g_ptr_array_add(a, g_strdup("-Wl,-z,noseparate-code"));
}

int ordex_cc(int argc, char **argv) {
    if (!mpi_include_dir()) {
        fprintf(stderr, "ordexcc: MPICH's mpi.h is not installed (install the Debian package "
                        "libmpich-dev)\n");
        return 2;
    }
    bool compile_only = false, have_output = false, have_input = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "-S") == 0 || strcmp(argv[i], "-E") == 0)
            compile_only = true;
        else if (strcmp(argv[i], "-o") == 0 || g_str_has_prefix(argv[i], "-o"))
            have_output = true;
        else if (argv[i][0] != '-')
            have_input = true;
    }
    if (!have_input) {
        fprintf(stderr, "ordexcc: no input files (usage: ordexcc [compiler flags] -o prog.so "
                        "prog.c ...)\n");
        return 2;
    }
    GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
    add_common(a);
    if (!compile_only)
        add_link_flags(a);
    for (int i = 0; i < argc; i++)
        g_ptr_array_add(a, g_strdup(argv[i]));
    if (!compile_only) {
        g_ptr_array_add(a, stamp_source());
        if (!have_output) {
            g_ptr_array_add(a, g_strdup("-o"));
            g_ptr_array_add(a, g_strdup("a.out"));
        }
        g_ptr_array_add(a, g_strdup("-lm"));
    }
    int rc = run_compiler(a, false);
    g_ptr_array_free(a, TRUE);
    if (rc != 0)
        fprintf(stderr, "ordexcc: compilation failed (see the compiler's messages above)\n");
    return rc;
}

char *ordex_compile_cached(const char *source, bool quiet, bool optimize) {
    gsize len;
    char *text;
    GError *err = NULL;
    if (!g_file_get_contents(source, &text, &len, &err)) {
        fprintf(stderr, "ordex: %s: cannot read: %s\n", source, err->message);
        g_error_free(err);
        return NULL;
    }
    if (!mpi_include_dir()) {
        fprintf(stderr, "ordex: MPICH's mpi.h is not installed (install the Debian package "
                        "libmpich-dev)\n");
        g_free(text);
        return NULL;
    }
    /* The key covers the source and everything that shapes the result. */
    GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(ck, (const guchar *)text, (gssize)len);
    g_checksum_update(ck, (const guchar *)SG_PROGRAM_ABI, -1);
    const char *cc = g_getenv("ORDEX_CC");
    g_checksum_update(ck, (const guchar *)(cc ? cc : "gcc"), -1);
    char *abs = g_canonicalize_filename(source, NULL);
    g_checksum_update(ck, (const guchar *)abs, -1); /* debug info names the file */
    if (optimize)
        g_checksum_update(ck, (const guchar *)"-O2", -1);
    g_checksum_update(ck, (const guchar *)LINK_FLAGS_VERSION, -1);
    char *dir = cache_dir();
    char *base = g_path_get_basename(source);
    char *dot = strrchr(base, '.');
    if (dot)
        *dot = '\0';
    char *out = g_strdup_printf("%s/%s-%.16s.so", dir, base, g_checksum_get_string(ck));
    g_checksum_free(ck);
    g_free(text);
    g_free(base);
    g_free(dir);
    if (g_file_test(out, G_FILE_TEST_EXISTS)) {
        g_free(abs);
        return out;
    }
    char *tmp = g_strdup_printf("%s.%d.tmp", out, (int)getpid());
    GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
    add_common(a);
    if (optimize)
        g_ptr_array_add(a, g_strdup("-O2"));
    add_link_flags(a);
    g_ptr_array_add(a, g_strdup("-o"));
    g_ptr_array_add(a, g_strdup(tmp));
    g_ptr_array_add(a, abs);
    g_ptr_array_add(a, stamp_source());
    g_ptr_array_add(a, g_strdup("-lm"));
    int rc = run_compiler(a, quiet);
    g_ptr_array_free(a, TRUE);
    if (rc != 0) {
        fprintf(stderr, "ordex: %s: compilation failed (see the compiler's messages above)\n",
                source);
        g_unlink(tmp);
        g_free(tmp);
        g_free(out);
        return NULL;
    }
    g_rename(tmp, out);
    g_free(tmp);
    return out;
}
