/*
 * compile.c - ordexcc and the compile cache.
 *
 * A program for ordex is a position-independent shared object with debug
 * information whose MPI symbols stay undefined: the ordex executable
 * provides them when it loads one copy per rank.  -Bsymbolic makes the
 * program's references to its own functions and globals bind inside the
 * program, as they would in an executable, even when a name also exists in
 * ordex or the C library.
 *
 * By default programs are also compiled with GCC's -fsanitize=thread
 * instrumentation, whose calls at every load and store (and the program's
 * memcpy, memmove and memset, redirected with --wrap) reach the functions
 * of scheduler/access.c in the ordex executable: ordex sees the plain
 * accesses to memory it tracks (MPI windows).  GCC's libtsan is never
 * linked in.  The calls of the hooks that only look at an address are
 * disarmed in the program file after the link, and armed by ordex when
 * memory is first tracked (scheduler/access_sites.h).
 */
#define _GNU_SOURCE
#include "toolchain/compile.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scheduler/access_sites.h"
#include "scheduler/loader.h"
#include "toolchain/datafile.h"
#include "util/files.h"

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
    char *h = tc_data_file("include/ordex.h", NULL);
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
    /* Named by the ABI it declares: a new ABI writes a new file. */
    char *name = g_strdup_printf("ordex_stamp_%s.c", SCHED_PROGRAM_ABI);
    char *path = g_build_filename(dir, name, NULL);
    g_free(name);
    g_free(dir);
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        char *text = g_strdup_printf("/* Linked into every program built by ordexcc. */\n"
                                     "__attribute__((visibility(\"default\"), used))\n"
                                     "const char %s[] = \"%s\";\n",
                                     SCHED_PROGRAM_MARKER, SCHED_PROGRAM_ABI);
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

/* Where Open MPI's OpenSHMEM headers are, or NULL. */
static const char *openshmem_header_dir(void) {
    static const char *dirs[] = {"/usr/lib/x86_64-linux-gnu/openmpi/include",
                                 "/usr/lib/openmpi/include"};
    for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
        char *h = g_build_filename(dirs[i], "shmem.h", NULL);
        bool ok = g_file_test(h, G_FILE_TEST_EXISTS);
        g_free(h);
        if (ok)
            return dirs[i];
    }
    return NULL;
}

/* An include directory that holds OpenSHMEM's headers and nothing else
 * (links to shmem.h, shmem-compat.h and mpp/shmem.h of Open MPI), so that
 * programs including <shmem.h> compile while <mpi.h> stays MPICH's: Open
 * MPI keeps its own mpi.h beside its shmem.h.  NULL when Open MPI's
 * headers are not installed or the directory cannot be made. */
static char *shmem_include_dir(void) {
    const char *sys = openshmem_header_dir();
    if (!sys)
        return NULL;
    char *cache = cache_dir();
    char *dir = g_build_filename(cache, "openshmem-include", NULL);
    g_free(cache);
    static const char *const links[][2] = {
        {"shmem.h", "shmem.h"}, {"shmem-compat.h", "shmem-compat.h"}, {"mpp/shmem.h", "shmem.h"}};
    bool ok = true;
    for (size_t i = 0; ok && i < G_N_ELEMENTS(links); i++) {
        char *link = g_build_filename(dir, links[i][0], NULL);
        char *target = g_build_filename(sys, links[i][1], NULL);
        char *have = g_file_read_link(link, NULL);
        if (!have || strcmp(have, target) != 0) {
            char *parent = g_path_get_dirname(link);
            char *tmp = g_strdup_printf("%s.%d", link, (int)getpid());
            ok = g_mkdir_with_parents(parent, 0755) == 0 && symlink(target, tmp) == 0 &&
                 g_rename(tmp, link) == 0;
            g_unlink(tmp);
            g_free(tmp);
            g_free(parent);
        }
        g_free(have);
        g_free(target);
        g_free(link);
    }
    if (!ok) {
        g_free(dir);
        return NULL;
    }
    return dir;
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
    char *shmem = shmem_include_dir();
    if (shmem)
        g_ptr_array_add(a, g_strdup_printf("-I%s", shmem));
    g_free(shmem);
}

/* ---------------------------------------------------------------------- */
/* The instrumentation of loads and stores                                 */

/* Compiler flags of an instrumented build.  Function entry and exit are
 * of no use to ordex (and cost a call each); builtin memcpy, memmove and
 * memset would be expanded inline, unseen, where the calls are wrapped;
 * a sibling call of them would report the caller's caller as the call
 * site; -fno-plt calls through the GOT directly, one jump less per access
 * (every call is bound at load anyway: -z now).  -Wno-tsan: GCC's warning
 * that atomic_thread_fence is not supported concerns libtsan, which ordex
 * replaces. */
static void add_access_compile_flags(GPtrArray *a) {
    static const char *const flags[] = {"-fsanitize=thread",
                                        "--param=tsan-instrument-func-entry-exit=0",
                                        "-fno-builtin-memcpy",
                                        "-fno-builtin-memmove",
                                        "-fno-builtin-memset",
                                        "-fno-optimize-sibling-calls",
                                        "-fno-plt",
                                        "-Wno-tsan"};
    for (size_t i = 0; i < G_N_ELEMENTS(flags); i++)
        g_ptr_array_add(a, g_strdup(flags[i]));
}

/* The directory of an empty libtsan.so (a linker script with nothing in
 * it): the compiler driver adds -ltsan to every link with
 * -fsanitize=thread, and this directory, searched first, makes that link
 * nothing, so that the program's __tsan_ calls stay undefined until ordex
 * provides them.  NULL (with a message) when it cannot be written. */
static char *no_libtsan_dir(const char *who) {
    char *cache = cache_dir();
    char *dir = g_build_filename(cache, "no-libtsan", NULL);
    g_free(cache);
    char *lib = g_build_filename(dir, "libtsan.so", NULL);
    static const char text[] =
        "/* Empty: programs built by ordexcc call the __tsan_ functions of the\n"
        "   ordex executable, never GCC's libtsan. */\n";
    bool ok = g_file_test(lib, G_FILE_TEST_IS_REGULAR);
    if (!ok && g_mkdir_with_parents(dir, 0755) == 0) {
        char *tmp = g_strdup_printf("%s.%d", lib, (int)getpid());
        ok = g_file_set_contents(tmp, text, -1, NULL) && g_rename(tmp, lib) == 0;
        g_unlink(tmp);
        g_free(tmp);
    }
    g_free(lib);
    if (!ok) {
        fprintf(stderr,
                "%s: cannot write %s/libtsan.so, which instrumented programs are linked with "
                "(set ORDEX_CACHE to a writable directory, or build with --no-access-checks)\n",
                who, dir);
        g_free(dir);
        return NULL;
    }
    return dir;
}

/* Link flags of an instrumented build; false (with a message) when they
 * cannot be had.  --emit-relocs keeps the relocations that name each call
 * of a hook, which the link's output then has disarmed (access_sites.h). */
static bool add_access_link_flags(GPtrArray *a, const char *who) {
    char *dir = no_libtsan_dir(who);
    if (!dir)
        return false;
    g_ptr_array_add(a, g_strdup_printf("-L%s", dir));
    g_free(dir);
    g_ptr_array_add(a, g_strdup("-Wl,--wrap=memcpy,--wrap=memmove,--wrap=memset,"
                                "--wrap=__memcpy_chk,--wrap=__memmove_chk,--wrap=__memset_chk"));
    g_ptr_array_add(a, g_strdup("-Wl,--emit-relocs"));
    return true;
}

/* Names what is done to an instrumented program after its link (the
 * disarmed calls) in the compile cache's key: change it when that changes. */
#define ACCESS_BUILD_VERSION "access-1"

/* Disarms the calls of the hooks in the program just linked at path;
 * false after printing why. */
static bool disarm(const char *path, const char *who) {
    char *err = NULL;
    if (sched_access_disarm_file(path, &err) >= 0)
        return true;
    fprintf(stderr, "%s: %s\n", who, err);
    g_free(err);
    return false;
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

int tc_cc(int argc, char **argv) {
    if (!mpi_include_dir()) {
        fprintf(stderr, "ordexcc: MPICH's mpi.h is not installed (install the Debian package "
                        "libmpich-dev)\n");
        return 2;
    }
    bool compile_only = false, have_input = false, access = true;
    const char *output = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], TC_NO_ACCESS_CHECKS) == 0)
            access = false;
        else if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "-S") == 0 ||
                 strcmp(argv[i], "-E") == 0)
            compile_only = true;
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            output = argv[++i];
        else if (g_str_has_prefix(argv[i], "-o"))
            output = argv[i] + 2;
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
    if (access)
        add_access_compile_flags(a);
    if (!compile_only) {
        add_link_flags(a);
        if (access && !add_access_link_flags(a, "ordexcc")) {
            g_ptr_array_free(a, TRUE);
            return 2;
        }
    }
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], TC_NO_ACCESS_CHECKS) != 0)
            g_ptr_array_add(a, g_strdup(argv[i]));
    if (!compile_only) {
        g_ptr_array_add(a, stamp_source());
        if (!output) {
            output = "a.out";
            g_ptr_array_add(a, g_strdup("-o"));
            g_ptr_array_add(a, g_strdup(output));
        }
        g_ptr_array_add(a, g_strdup("-lm"));
    }
    int rc = run_compiler(a, false);
    g_ptr_array_free(a, TRUE);
    if (rc != 0)
        fprintf(stderr, "ordexcc: compilation failed (see the compiler's messages above)\n");
    else if (access && !compile_only && !disarm(output, "ordexcc"))
        rc = 2;
    return rc;
}

/* ---------------------------------------------------------------------- */
/* The compile cache                                                       */

/*
 * An entry is a manifest, DIR/BASE-KEY.deps, where KEY hashes the compiler's
 * command line (but for the output paths), the source's path among it.  The
 * manifest names the object and the compiler's file (its path, size and
 * time: an update changes what it makes) and lists every file the compiler
 * read (its -MD output: the source and each header) with the SHA-256 of its
 * content then; it holds while every listed file still has that content and
 * the compiler found on the PATH is the same file (or none is found: then
 * nothing else could be built).  Content, not modification time: an edit that keeps a
 * header's size and time (a restored backup, a file system with coarse
 * times) must still rebuild.  The object's name holds a hash of those
 * contents, so that a manifest replaced by a concurrent compile of other
 * contents never pairs with this compile's object.
 */
#define MANIFEST_MAGIC "ordex-compile-cache 1"
#define DEP_TARGET "ordex-object"

/* The object every cached program is linked with: ordex's marker, built
 * once per program ABI. */
static char *stamp_object(void) {
    char *dir = cache_dir();
    char *path = g_strdup_printf("%s/ordex_stamp_%s.o", dir, SCHED_PROGRAM_ABI);
    g_free(dir);
    if (g_file_test(path, G_FILE_TEST_EXISTS))
        return path;
    char *src = stamp_source();
    char *tmp = g_strdup_printf("%s.%d.tmp", path, (int)getpid());
    GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
    add_common(a);
    g_ptr_array_add(a, g_strdup("-c"));
    g_ptr_array_add(a, g_strdup("-o"));
    g_ptr_array_add(a, g_strdup(tmp));
    g_ptr_array_add(a, src);
    int rc = run_compiler(a, true);
    g_ptr_array_free(a, TRUE);
    if (rc != 0 || g_rename(tmp, path) != 0) {
        g_unlink(tmp);
        g_free(tmp);
        g_free(path);
        return NULL;
    }
    g_free(tmp);
    return path;
}

/* Hex SHA-256 of a file's content, or NULL when it cannot be read. */
static char *file_digest(const char *path) {
    gchar *data;
    gsize len;
    if (!g_file_get_contents(path, &data, &len, NULL))
        return NULL;
    char *d = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
    g_free(data);
    return d;
}

/* The files a make rule "ordex-object: a b \<newline> c" (gcc's -MD output
 * with -MT ordex-object) names, unescaped; NULL when the text is not such a
 * rule. */
static GPtrArray *parse_deps(const char *text) {
    const char *p = strstr(text, DEP_TARGET ":");
    if (!p)
        return NULL;
    p += strlen(DEP_TARGET ":");
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    GString *cur = g_string_new(NULL);
    for (;; p++) {
        bool end = *p == '\0';
        if (!end && p[0] == '\\' && p[1] == '\n') { /* a continuation line */
            p++;
            continue;
        }
        if (!end && p[0] == '\\' && (p[1] == ' ' || p[1] == '#' || p[1] == '\\')) {
            g_string_append_c(cur, p[1]);
            p++;
            continue;
        }
        if (!end && p[0] == '$' && p[1] == '$') {
            g_string_append_c(cur, '$');
            p++;
            continue;
        }
        if (end || *p == ' ' || *p == '\t' || *p == '\n') {
            if (cur->len)
                g_ptr_array_add(files, g_strdup(cur->str));
            g_string_truncate(cur, 0);
            if (end || *p == '\n') /* one rule: the phony targets of -MP do not follow */
                break;
            continue;
        }
        g_string_append_c(cur, *p);
    }
    g_string_free(cur, TRUE);
    if (files->len == 0) {
        g_ptr_array_free(files, TRUE);
        return NULL;
    }
    return files;
}

/* "SIZE MTIME PATH" of the compiler command `cc` as the PATH finds it (g_free),
 * or NULL when it is not found. */
static char *compiler_id(const char *cc) {
    char *path = g_find_program_in_path(cc);
    GStatBuf st;
    char *id = NULL;
    if (path && g_stat(path, &st) == 0)
        id = g_strdup_printf("%lld %lld.%09ld %s", (long long)st.st_size,
                             (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, path);
    g_free(path);
    return id;
}

/* The object a manifest names when every file it lists still has the
 * content it had (g_free), else NULL. */
static char *manifest_object(const char *manifest, const char *dir, const char *cc) {
    gchar *text;
    if (!g_file_get_contents(manifest, &text, NULL, NULL))
        return NULL;
    char **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    char *object = NULL;
    bool ok = lines[0] && strcmp(lines[0], MANIFEST_MAGIC) == 0;
    int nfiles = 0;
    for (int i = 1; ok && lines[i]; i++) {
        const char *l = lines[i];
        if (!*l)
            continue;
        if (g_str_has_prefix(l, "object ") && !object && !strchr(l + 7, '/')) {
            object = g_build_filename(dir, l + 7, NULL);
        } else if (g_str_has_prefix(l, "compiler ")) {
            char *now = compiler_id(cc);
            ok = !now || strcmp(now, l + 9) == 0;
            g_free(now);
        } else if (g_str_has_prefix(l, "file ") && strlen(l) > 5 + 64 + 1 && l[5 + 64] == ' ') {
            char *want = g_strndup(l + 5, 64);
            char *have = file_digest(l + 5 + 64 + 1);
            ok = have && strcmp(want, have) == 0;
            g_free(want);
            g_free(have);
            nfiles++;
        } else {
            ok = false;
        }
    }
    g_strfreev(lines);
    if (!ok || !object || nfiles == 0 || !g_file_test(object, G_FILE_TEST_EXISTS)) {
        g_free(object);
        return NULL;
    }
    return object;
}

/* Writes the manifest of a compile whose dependency output is `dfile` and
 * whose object is `tmp`, started at `began` (wall-clock seconds); returns
 * the object's cached path (g_free).  Without a usable dependency list, or
 * when a file the compiler read changed while it ran, nothing is recorded
 * and the object is still used, this once, under a name of its own. */
static char *record_entry(const char *dir, const char *stem, const char *manifest,
                          const char *dfile, const char *tmp, double began, const char *cc) {
    gchar *dtext = NULL;
    GPtrArray *files = g_file_get_contents(dfile, &dtext, NULL, NULL) ? parse_deps(dtext) : NULL;
    g_free(dtext);
    GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
    GString *m = g_string_new(MANIFEST_MAGIC "\n");
    char *id = compiler_id(cc);
    if (id)
        g_string_append_printf(m, "compiler %s\n", id);
    g_free(id);
    bool stable = files != NULL;
    for (guint i = 0; stable && i < files->len; i++) {
        const char *f = g_ptr_array_index(files, i);
        GStatBuf st;
        char *d = strchr(f, '\n') ? NULL : file_digest(f);
        /* A change made while the compiler ran may or may not be in the
         * object: such a compile is not cached. */
        stable = d && g_stat(f, &st) == 0 &&
                 (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9 < began;
        if (stable) {
            g_string_append_printf(m, "file %s %s\n", d, f);
            g_checksum_update(ck, (const guchar *)d, -1);
            g_checksum_update(ck, (const guchar *)f, (gssize)strlen(f) + 1);
        }
        g_free(d);
    }
    if (files)
        g_ptr_array_free(files, TRUE);
    char *object;
    if (stable) {
        object = g_strdup_printf("%s/%s-%.16s.so", dir, stem, g_checksum_get_string(ck));
        char *name = g_path_get_basename(object);
        g_string_append_printf(m, "object %s\n", name);
        g_free(name);
    } else {
        object = g_strdup_printf("%s/%s-uncached.so", dir, stem);
    }
    g_checksum_free(ck);
    if (g_rename(tmp, object) != 0) {
        g_free(object);
        g_string_free(m, TRUE);
        return g_strdup(tmp);
    }
    if (stable) {
        char *mtmp = g_strdup_printf("%s.%d.tmp", manifest, (int)getpid());
        if (g_file_set_contents(mtmp, m->str, (gssize)m->len, NULL))
            g_rename(mtmp, manifest);
        g_unlink(mtmp);
        g_free(mtmp);
    }
    g_string_free(m, TRUE);
    return object;
}

static double wall_now(void) {
    return (double)g_get_real_time() * 1e-6;
}

char *tc_compile_cached(const char *source, bool quiet, bool optimize, bool access_checks) {
    char *text = NULL, *why = NULL;
    size_t len = 0;
    /* A regular file only (a FIFO would block), within a bound. */
    if (!util_read_regular(source, (size_t)256 << 20, &text, &len, &why)) {
        char *shown = util_printable(source); /* the user's path, on one line */
        fprintf(stderr, "ordex: %s: cannot read: %s\n", shown, why);
        g_free(shown);
        g_free(why);
        return NULL;
    }
    g_free(text);
    if (!mpi_include_dir()) {
        fprintf(stderr, "ordex: MPICH's mpi.h is not installed (install the Debian package "
                        "libmpich-dev)\n");
        return NULL;
    }
    char *stamp = stamp_object();
    if (!stamp) {
        fprintf(stderr, "ordex: cannot build ordex's marker object in the compile cache (is the "
                        "C compiler installed?)\n");
        return NULL;
    }
    GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
    add_common(a);
    if (optimize)
        g_ptr_array_add(a, g_strdup("-O2"));
    add_link_flags(a);
    /* The flags are part of the key: an instrumented build and a plain one
     * of the same source are two entries. */
    if (access_checks) {
        add_access_compile_flags(a);
        if (!add_access_link_flags(a, "ordex")) {
            g_ptr_array_free(a, TRUE);
            g_free(stamp);
            return NULL;
        }
    }
    char *abs = g_canonicalize_filename(source, NULL); /* debug info names the file */
    g_ptr_array_add(a, abs);
    g_ptr_array_add(a, stamp);
    g_ptr_array_add(a, g_strdup("-lm"));
    /* The key: the command as it will run (the flags, the source's path). */
    GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
    for (guint i = 0; i < a->len; i++) {
        const char *s = g_ptr_array_index(a, i);
        g_checksum_update(ck, (const guchar *)s, (gssize)strlen(s) + 1);
    }
    g_checksum_update(ck, (const guchar *)LINK_FLAGS_VERSION, -1);
    if (access_checks)
        g_checksum_update(ck, (const guchar *)ACCESS_BUILD_VERSION, -1);
    char *dir = cache_dir();
    char *base = g_path_get_basename(source);
    char *dot = strrchr(base, '.');
    if (dot)
        *dot = '\0';
    char *stem = g_strdup_printf("%s-%.16s", base, g_checksum_get_string(ck));
    g_checksum_free(ck);
    g_free(base);
    char *manifest = g_strdup_printf("%s/%s.deps", dir, stem);
    const char *cc = g_ptr_array_index(a, 0);
    char *out = manifest_object(manifest, dir, cc);
    if (out)
        goto done;
    char *tmp = g_strdup_printf("%s/%s.%d.tmp", dir, stem, (int)getpid());
    char *dfile = g_strdup_printf("%s.d", tmp);
    g_ptr_array_add(a, g_strdup("-o"));
    g_ptr_array_add(a, g_strdup(tmp));
    g_ptr_array_add(a, g_strdup("-MD"));
    g_ptr_array_add(a, g_strdup("-MF"));
    g_ptr_array_add(a, g_strdup(dfile));
    g_ptr_array_add(a, g_strdup("-MT"));
    g_ptr_array_add(a, g_strdup(DEP_TARGET));
    double began = wall_now();
    int rc = run_compiler(a, quiet);
    if (rc == 0 && access_checks && !disarm(tmp, "ordex")) {
        g_unlink(tmp);
    } else if (rc != 0) {
        fprintf(stderr, "ordex: %s: compilation failed (see the compiler's messages above)\n",
                source);
        g_unlink(tmp);
    } else {
        out = record_entry(dir, stem, manifest, dfile, tmp, began, cc);
    }
    g_unlink(dfile);
    g_free(dfile);
    g_free(tmp);
done:
    g_ptr_array_free(a, TRUE);
    g_free(manifest);
    g_free(stem);
    g_free(dir);
    return out;
}
