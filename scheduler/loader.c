/*
 * loader.c - loading private copies of the program.
 */
#define _GNU_SOURCE
#include "scheduler/loader.h"

#include "scheduler/access_sites.h"
#include "scheduler/debuginfo.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The program file, read once and shared by all loads and by the readers
 * of its debug information (debuginfo.h). */
static const sched_debuginfo *g_file;
static const char *g_bytes;
static size_t g_len;

static bool read_program(const char *path, char **err) {
    if (g_file && strcmp(g_file->path, path) == 0)
        return true;
    const sched_debuginfo *f = sched_debuginfo_ref(path);
    const char *bytes = f->bytes;
    size_t len = f->len;
    if (!bytes) {
        *err = g_strdup_printf("%s: cannot read program: %s", path, f->error);
        sched_debuginfo_unref(f);
        return false;
    }
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)bytes;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
        *err = g_strdup_printf("%s: not a program built by ordexcc (not an ELF file); build it "
                               "with: ordexcc -o prog.so prog.c",
                               path);
        sched_debuginfo_unref(f);
        return false;
    }
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 || eh->e_type != ET_DYN ||
        eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > len) {
        *err = g_strdup_printf("%s: not a program built by ordexcc (not an x86-64 shared "
                               "object); build it with: ordexcc -o prog.so prog.c",
                               path);
        sched_debuginfo_unref(f);
        return false;
    }
    sched_debuginfo_unref(g_file);
    g_file = f;
    g_bytes = bytes;
    g_len = len;
    return true;
}

/* Whether the program sched_program_check last accepted refers to
 * __tsan_ functions, with the relocations that name its calls of them, and
 * those of its calls that the file has disarmed (access_sites.h). */
static bool g_instrumented;
static GArray *g_sites;

bool sched_program_instrumented(void) {
    return g_instrumented;
}

const GArray *sched_program_access_sites(void) {
    return g_sites;
}

/* Notes the disarmed calls of the program read last; false when its
 * relocations do not name them. */
static bool find_access_sites(void) {
    if (!g_sites)
        g_sites = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_array_set_size(g_sites, 0);
    GArray *all = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GArray *off = g_array_new(FALSE, FALSE, sizeof(gboolean));
    bool ok = sched_access_sites(g_bytes, g_len, all, off);
    for (guint i = 0; i < all->len; i++)
        if (g_array_index(off, gboolean, i))
            g_array_append_val(g_sites, g_array_index(all, uint64_t, i));
    g_array_free(all, TRUE);
    g_array_free(off, TRUE);
    return ok;
}

/* Functions that open a file by name (see sched_program_opens_files). */
static const char *const file_openers[] = {
    "fopen",    "fopen64",    "freopen", "freopen64", "open",          "open64",
    "openat",   "openat64",   "creat",   "creat64",   "mkstemp",       "mkstemp64",
    "mkostemp", "mkostemp64", "tmpfile", "tmpfile64", "MPI_File_open", "PMPI_File_open"};

static bool g_opens_files;

bool sched_program_opens_files(void) {
    return g_opens_files;
}

/* Functions through which code can cancel a send (see
 * sched_program_may_cancel): MPI_Cancel itself, and the dynamic linker's
 * entry points, through which code loaded or looked up at run time could
 * reach it. */
static const char *const cancellers[] = {"MPI_Cancel", "PMPI_Cancel", "dlopen",
                                         "dlmopen",    "dlsym",       "dlvsym"};

static bool g_may_cancel;

bool sched_program_may_cancel(void) {
    return g_may_cancel;
}

static bool is_canceller(const char *name) {
    for (size_t i = 0; i < G_N_ELEMENTS(cancellers); i++)
        if (strcmp(name, cancellers[i]) == 0)
            return true;
    return false;
}

/* Whether the ELF file in `b` refers to a canceller without defining it;
 * true also when its dynamic symbol table cannot be read (it might). */
static bool file_may_cancel(const char *b, size_t len) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
    if (!b || len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len ||
        (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff)
        return true;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(b + eh->e_shoff);
    bool found_table = false;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM)
            continue;
        if (sh[i].sh_link >= eh->e_shnum || sh[i].sh_offset > len ||
            sh[i].sh_size > len - sh[i].sh_offset)
            return true;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (str->sh_offset > len || str->sh_size > len - str->sh_offset || str->sh_size == 0)
            return true;
        found_table = true;
        const Elf64_Sym *sym = (const Elf64_Sym *)(b + sh[i].sh_offset);
        const char *strtab = b + str->sh_offset;
        for (size_t k = 0; k < sh[i].sh_size / sizeof(Elf64_Sym); k++) {
            if (sym[k].st_shndx != SHN_UNDEF || sym[k].st_name >= str->sh_size)
                continue;
            const char *name = strtab + sym[k].st_name;
            if (memchr(name, 0, str->sh_size - sym[k].st_name) && is_canceller(name))
                return true;
        }
    }
    return !found_table;
}

static bool is_file_opener(const char *name) {
    for (size_t i = 0; i < G_N_ELEMENTS(file_openers); i++)
        if (strcmp(name, file_openers[i]) == 0)
            return true;
    return false;
}

bool sched_program_check(const char *path, char **err) {
    g_instrumented = false;
    g_opens_files = false;
    g_may_cancel = true;
    if (!read_program(path, err))
        return false;
    /* Look for the marker in the dynamic symbol table without loading. */
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)g_bytes;
    if (eh->e_shoff == 0)
        goto fail;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(g_bytes + eh->e_shoff);
    bool marker = false, has_main = false, instrumented = false, opens = false;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(g_bytes + sh[i].sh_offset);
        const char *strtab = g_bytes + sh[sh[i].sh_link].sh_offset;
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < n; k++) {
            const char *name = strtab + sym[k].st_name;
            if (sym[k].st_shndx == SHN_UNDEF) {
                /* GCC's -fsanitize=thread: every object calls __tsan_init. */
                instrumented = instrumented || g_str_has_prefix(name, "__tsan_");
                opens = opens || is_file_opener(name);
                continue;
            }
            if (strcmp(name, SCHED_PROGRAM_MARKER) == 0)
                marker = true;
            else if (strcmp(name, "main") == 0 && ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC)
                has_main = true;
        }
    }
    if (!marker)
        goto fail;
    if (!has_main) {
        *err = g_strdup_printf("%s: the program has no main function (ordex runs main() of "
                               "every rank)",
                               path);
        return false;
    }
    /* A stripped program has lost the relocations that name its calls: its
     * disarmed calls could not be armed, so it counts as not instrumented. */
    g_instrumented = find_access_sites() && instrumented;
    g_opens_files = opens;
    g_may_cancel = file_may_cancel(g_bytes, g_len);
    return true;
fail:
    *err = g_strdup_printf("%s: not a program built by ordexcc (no ordex marker); build it "
                           "with: ordexcc -o prog.so prog.c",
                           path);
    return false;
}

/* ----------------------------------------------------------------------- */
/* System libraries                                                        */

/* The directories of the distribution's libraries (with merged /usr, /lib
 * is /usr/lib).  /usr/local/lib, /opt and home directories hold the user's
 * own. */
static const char *const system_dirs[] = {"/lib/",       "/lib64/",     "/lib32/",
                                          "/libx32/",    "/usr/lib/",   "/usr/lib64/",
                                          "/usr/lib32/", "/usr/libx32/"};

static bool under_system_dir(const char *path) {
    for (size_t i = 0; i < G_N_ELEMENTS(system_dirs); i++)
        if (g_str_has_prefix(path, system_dirs[i]))
            return true;
    return false;
}

bool sched_is_system_library(const char *path) {
    if (!path || !*path)
        return true; /* the main program or the vDSO: never loaded by a rank */
    /* Resolved, so that /usr/lib/../../home/x is not a system library. */
    char *real = realpath(path, NULL);
    bool sys = under_system_dir(real ? real : path);
    free(real);
    return sys;
}

/* Answers for the names the dynamic linker gave loaded objects: the same
 * library comes once per rank. */
static GHashTable *g_system_of;

static bool is_system_object(const struct link_map *lm) {
    if (!g_system_of)
        g_system_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gpointer v;
    if (g_hash_table_lookup_extended(g_system_of, lm->l_name, NULL, &v))
        return GPOINTER_TO_INT(v);
    bool sys = sched_is_system_library(lm->l_name);
    g_hash_table_insert(g_system_of, g_strdup(lm->l_name), GINT_TO_POINTER(sys));
    return sys;
}

/* ----------------------------------------------------------------------- */
/* Per-rank objects and the dynamic linker's list                          */

/*
 * The dynamic linker finds an object it has loaded before (by path, by the
 * name a DT_NEEDED entry asked for, by soname or by device and inode) by
 * walking its list of loaded objects, and then shares it.  A rank's copies
 * must not be found by the next rank's dlopen, so while a batch of copies
 * loads, every per-rank object (the program's copies, the copies of its own
 * libraries, from this batch and from earlier ones) is taken off that list
 * (struct link_map's l_next/l_prev are public ABI); system libraries stay on
 * it and are shared.  Walking a short list also keeps loading linear in the
 * number of ranks (with the whole list, 10,000 ranks took over 10 s).
 * sched_images_loaded puts them all back, in order, before anything else can
 * look at the list (unwinding, dladdr, exit).  Objects stay loaded for the
 * life of the process (pending atexit handlers may point into them).
 */
static GPtrArray *g_private;    /* every per-rank object ever loaded, in load order */
static GPtrArray *g_hidden;     /* those off the list now, in load order */
static bool g_batch;            /* a batch is loading: g_private are all hidden */
static GPtrArray *g_regions;    /* the rw_start/rw_len arrays handed out */
static bool g_announce;         /* keep_files: a debugger may watch the list */
static GHashTable *g_libraries; /* load bias -> file of the ranks' copies of libraries */

static struct link_map *list_head(void) {
    static struct link_map *head;
    if (!head) {
        void *self = dlopen(NULL, RTLD_NOW);
        if (self)
            dlinfo(self, RTLD_DI_LINKMAP, &head);
    }
    return head;
}

static struct link_map *list_tail(void) {
    struct link_map *l = list_head();
    while (l && l->l_next)
        l = l->l_next;
    return l;
}

/* Takes lm off the list; never the head (the main program). */
static void unlink_object(struct link_map *lm) {
    if (lm->l_prev)
        lm->l_prev->l_next = lm->l_next;
    if (lm->l_next)
        lm->l_next->l_prev = lm->l_prev;
    lm->l_next = lm->l_prev = NULL;
    g_ptr_array_add(g_hidden, lm);
}

static void restore_at_exit(void) {
    sched_loader_cleanup();
}

/* Called when a batch starts and when it has ended, if a debugger may watch
 * (keep_files): tools/gdb/ordex.py keeps breakpoints here (the names are
 * exported, cli/exports.lds) and reads the copies' symbols only once they
 * are all back on the list.  A debugger that looked at them while they were
 * off it would take them for unloaded and leave its breakpoints in their
 * code. */
__attribute__((noinline)) void ordex_gdb_loading(void) {
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void ordex_gdb_loaded(void) {
    __asm__ volatile("" ::: "memory");
}

static void begin_batch(bool debugger) {
    if (g_batch)
        return;
    g_announce = debugger;
    if (debugger)
        ordex_gdb_loading();
    if (!g_private) {
        g_private = g_ptr_array_new();
        g_hidden = g_ptr_array_new();
        g_regions = g_ptr_array_new_with_free_func(g_free);
        /* The dynamic linker's exit-time check counts the objects on its
         * list: a batch that a failure left open must still be closed. */
        atexit(restore_at_exit);
    }
    g_batch = true;
    for (guint i = 0; i < g_private->len; i++)
        unlink_object(g_ptr_array_index(g_private, i));
}

/* A debugger that follows the dynamic linker's events (gdb, through the
 * dynamic linker's probes) reads only the objects added since its last
 * look, and re-reads the whole list when the dynamic linker says objects
 * were removed.  Objects that were off the list when it looked are unknown
 * to it: loading and unloading a library it has not seen makes it read the
 * whole list again.  The candidates are glibc's empty compatibility
 * libraries (their functions moved into libc), whose loading does nothing. */
static void announce_to_debugger(void) {
    static const char *const stubs[] = {"libanl.so.1", "libutil.so.1", "libdl.so.2", "librt.so.1",
                                        "libpthread.so.0"};
    for (size_t i = 0; i < G_N_ELEMENTS(stubs); i++) {
        void *h = dlopen(stubs[i], RTLD_NOW | RTLD_NOLOAD);
        if (h) { /* loaded already: unloading it would say nothing */
            dlclose(h);
            continue;
        }
        h = dlopen(stubs[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            dlclose(h);
            return;
        }
    }
}

void sched_images_loaded(void) {
    if (!g_batch)
        return;
    struct link_map *tail = list_tail();
    for (guint i = 0; tail && i < g_hidden->len; i++) {
        struct link_map *lm = g_ptr_array_index(g_hidden, i);
        tail->l_next = lm;
        lm->l_prev = tail;
        lm->l_next = NULL;
        tail = lm;
    }
    g_ptr_array_set_size(g_hidden, 0);
    g_batch = false;
    if (g_announce) {
        announce_to_debugger();
        ordex_gdb_loaded();
    }
    g_announce = false;
}

/* The writable PT_LOAD segments of the objects in `want`, found while they
 * are on the list. */
typedef struct region_scan {
    GPtrArray *want; /* struct link_map * */
    GArray *start, *len;
} region_scan;

static int scan_object(struct dl_phdr_info *info, size_t size, void *data) {
    region_scan *rs = data;
    for (guint i = 0; i < rs->want->len; i++) {
        const struct link_map *lm = g_ptr_array_index(rs->want, i);
        if (lm->l_addr != info->dlpi_addr || lm->l_name != info->dlpi_name)
            continue;
        for (int k = 0; k < info->dlpi_phnum; k++) {
            const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
            if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
                continue;
            uintptr_t start = info->dlpi_addr + ph->p_vaddr;
            size_t len = ph->p_memsz;
            g_array_append_val(rs->start, start);
            g_array_append_val(rs->len, len);
        }
    }
    return 0;
}

/* Message for a failed dlopen of the program at path. */
static char *load_error(const char *path) {
    const char *why = dlerror();
    const char *undef = why ? strstr(why, "undefined symbol: ") : NULL;
    if (undef && (g_str_has_prefix(undef + 18, "MPI_") || g_str_has_prefix(undef + 18, "PMPI_")))
        return g_strdup_printf("%s: the program calls %s, which ordex does not implement", path,
                               undef + 18);
    if (undef)
        return g_strdup_printf("%s: the program needs %s, which neither ordex nor the libraries "
                               "it was linked with define",
                               path, undef + 18);
    if (why && strstr(why, "cannot open shared object file"))
        return g_strdup_printf("%s: cannot load the program: %s (give the library's directory "
                               "in LD_LIBRARY_PATH, or link the program with -Wl,-rpath,DIR)",
                               path, why);
    return g_strdup_printf("%s: cannot load the program: %s", path, why ? why : "unknown");
}

bool sched_image_load(const char *path, bool keep_files, sched_image *img, char **err) {
    if (!read_program(path, err))
        return false;
    begin_batch(keep_files);
    /* A path with a slash, so that dlopen does not search for it. */
    char *file = g_canonicalize_filename(path, NULL);
    struct link_map *before = list_tail();
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    g_free(file);
    if (!h) {
        *err = load_error(path);
        return false;
    }
    struct link_map *lm = NULL;
    dlinfo(h, RTLD_DI_LINKMAP, &lm);
    /* Everything after the old tail is new: the program's copy first, then
     * the libraries it needed that no visible object provided. */
    bool fresh = false;
    GPtrArray *mine = g_ptr_array_new();
    for (struct link_map *l = before ? before->l_next : NULL; l; l = l->l_next) {
        if (l == lm)
            fresh = true;
        if (l == lm || !is_system_object(l))
            g_ptr_array_add(mine, l);
    }
    img->main = fresh ? (sched_main_fn)dlsym(h, "main") : NULL;
    if (!img->main) {
        *err = fresh ? g_strdup_printf("%s: the program has no main function", path)
                     : g_strdup_printf("%s: cannot make a private copy for a rank: the dynamic "
                                       "linker shared a copy already loaded",
                                       path);
        g_ptr_array_free(mine, TRUE);
        dlclose(h); /* still on the list: the dynamic linker takes it off */
        return false;
    }
    region_scan rs = {mine, g_array_new(FALSE, FALSE, sizeof(uintptr_t)),
                      g_array_new(FALSE, FALSE, sizeof(size_t))};
    dl_iterate_phdr(scan_object, &rs);
    img->handle = h;
    img->base = lm->l_addr;
    img->n_rw = (int)rs.start->len;
    img->rw_start = (uintptr_t *)(void *)g_array_free(rs.start, FALSE);
    img->rw_len = (size_t *)(void *)g_array_free(rs.len, FALSE);
    g_ptr_array_add(g_regions, img->rw_start);
    g_ptr_array_add(g_regions, img->rw_len);
    for (guint i = 0; i < mine->len; i++) {
        struct link_map *l = g_ptr_array_index(mine, i);
        if (l != lm) {
            /* A library of the program's own may cancel sends too. */
            if (!g_may_cancel) {
                const sched_debuginfo *f = sched_debuginfo_ref(l->l_name);
                g_may_cancel = file_may_cancel(f->bytes, f->len);
                sched_debuginfo_unref(f);
            }
            if (!g_libraries)
                g_libraries = g_hash_table_new(g_direct_hash, g_direct_equal);
            g_hash_table_insert(g_libraries, GSIZE_TO_POINTER(l->l_addr), l->l_name);
        }
        g_ptr_array_add(g_private, l);
        unlink_object(l);
    }
    g_ptr_array_free(mine, TRUE);
    return true;
}

void sched_loader_cleanup(void) {
    sched_images_loaded();
}

bool sched_rank_library_of(const void *addr, const char **path, uintptr_t *base) {
    Dl_info info;
    if (!g_libraries || !dladdr(addr, &info) || !info.dli_fbase)
        return false;
    const char *file = g_hash_table_lookup(g_libraries, info.dli_fbase);
    if (!file)
        return false;
    if (path)
        *path = file;
    if (base)
        *base = (uintptr_t)info.dli_fbase;
    return true;
}
