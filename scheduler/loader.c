/*
 * loader.c - loading private copies of the program.
 */
#define _GNU_SOURCE
#include "scheduler/loader.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The program file, read once and shared by all loads. */
static char *g_path;
static char *g_bytes;
static size_t g_len;
static size_t g_load_bytes; /* prefix that holds every loadable segment */
static char *g_tmpdir;
static int g_copies;

static bool read_program(const char *path, char **err) {
    if (g_path && strcmp(g_path, path) == 0)
        return true;
    gsize len;
    GError *ge = NULL;
    char *bytes;
    if (!g_file_get_contents(path, &bytes, &len, &ge)) {
        *err = g_strdup_printf("%s: cannot read program: %s", path, ge->message);
        g_error_free(ge);
        return false;
    }
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)bytes;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
        *err = g_strdup_printf("%s: not a program built by ordexcc (not an ELF file); build it "
                               "with: ordexcc -o prog.so prog.c",
                               path);
        g_free(bytes);
        return false;
    }
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 || eh->e_type != ET_DYN ||
        eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > len) {
        *err = g_strdup_printf("%s: not a program built by ordexcc (not an x86-64 shared "
                               "object); build it with: ordexcc -o prog.so prog.c",
                               path);
        g_free(bytes);
        return false;
    }
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(bytes + eh->e_phoff);
    size_t need = eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr);
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD || ph[i].p_type == PT_DYNAMIC || ph[i].p_type == PT_NOTE)
            if (ph[i].p_offset + ph[i].p_filesz > need)
                need = ph[i].p_offset + ph[i].p_filesz;
    g_free(g_path);
    g_free(g_bytes);
    g_path = g_strdup(path);
    g_bytes = bytes;
    g_len = len;
    g_load_bytes = need < len ? need : len;
    return true;
}

bool sched_program_check(const char *path, char **err) {
    if (!read_program(path, err))
        return false;
    /* Look for the marker in the dynamic symbol table without loading. */
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)g_bytes;
    if (eh->e_shoff == 0)
        goto fail;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(g_bytes + eh->e_shoff);
    bool marker = false, has_main = false;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(g_bytes + sh[i].sh_offset);
        const char *strtab = g_bytes + sh[sh[i].sh_link].sh_offset;
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < n; k++) {
            if (sym[k].st_shndx == SHN_UNDEF)
                continue;
            const char *name = strtab + sym[k].st_name;
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
    return true;
fail:
    *err = g_strdup_printf("%s: not a program built by ordexcc (no ordex marker); build it "
                           "with: ordexcc -o prog.so prog.c",
                           path);
    return false;
}

static int copy_to_memfd(void) {
    int fd = memfd_create("ordex-rank", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < g_load_bytes) {
        ssize_t w = write(fd, g_bytes + off, g_load_bytes - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    return fd;
}

static char *copy_to_file(void) {
    if (!g_tmpdir) {
        g_tmpdir = g_dir_make_tmp("ordex-ranks-XXXXXX", NULL);
        if (!g_tmpdir)
            return NULL;
    }
    char *base = g_path_get_basename(g_path);
    char *dest = g_strdup_printf("%s/rank%d-%s", g_tmpdir, g_copies++, base);
    g_free(base);
    if (!g_file_set_contents(dest, g_bytes, (gssize)g_len, NULL)) {
        g_free(dest);
        return NULL;
    }
    return dest;
}

/*
 * The dynamic linker walks its whole list of loaded objects several times
 * per dlopen, which makes loading thousands of copies quadratic (10,000
 * ranks: over 10 s).  While a batch of copies loads, each new copy is taken
 * off the end of that list (struct link_map's l_next/l_prev are public ABI),
 * and sched_images_loaded puts them all back, in order, before anything else
 * can look at the list (unwinding, dladdr, exit).
 */
static GPtrArray *g_hidden;

static void hide(struct link_map *lm) {
    if (!lm || lm->l_next || !lm->l_prev)
        return; /* not the tail: leave the list alone */
    lm->l_prev->l_next = NULL;
    if (!g_hidden)
        g_hidden = g_ptr_array_new();
    g_ptr_array_add(g_hidden, lm);
}

void sched_images_loaded(void) {
    if (!g_hidden || g_hidden->len == 0)
        return;
    struct link_map *tail = g_ptr_array_index(g_hidden, 0);
    tail = tail->l_prev;
    while (tail->l_next)
        tail = tail->l_next;
    for (guint i = 0; i < g_hidden->len; i++) {
        struct link_map *lm = g_ptr_array_index(g_hidden, i);
        tail->l_next = lm;
        lm->l_prev = tail;
        lm->l_next = NULL;
        tail = lm;
    }
    g_ptr_array_set_size(g_hidden, 0);
}

bool sched_image_load(const char *path, bool keep_files, sched_image *img, char **err) {
    if (!read_program(path, err))
        return false;
    char *file = NULL;
    char *link = NULL;
    int fd = -1;
    if (keep_files) {
        file = copy_to_file();
    } else {
        /* The dynamic linker takes a path it has loaded before for the same
         * object, and fd numbers are reused once closed: reach each copy
         * through a path of its own, a symbolic link to its memfd. */
        fd = copy_to_memfd();
        if (fd >= 0 && (g_tmpdir || (g_tmpdir = g_dir_make_tmp("ordex-ranks-XXXXXX", NULL)))) {
            char *target = g_strdup_printf("/proc/%d/fd/%d", (int)getpid(), fd);
            link = g_strdup_printf("%s/copy%d.so", g_tmpdir, g_copies++);
            if (symlink(target, link) == 0)
                file = g_strdup(link);
            g_free(target);
        }
    }
    if (!file) {
        *err = g_strdup_printf("%s: cannot make a private copy for a rank: %s", path,
                               g_strerror(errno));
        return false;
    }
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (fd >= 0)
        close(fd);
    if (link) {
        unlink(link);
        g_free(link);
    }
    g_free(file);
    if (!h) {
        const char *why = dlerror();
        const char *undef = why ? strstr(why, "undefined symbol: ") : NULL;
        if (undef &&
            (g_str_has_prefix(undef + 18, "MPI_") || g_str_has_prefix(undef + 18, "PMPI_")))
            *err = g_strdup_printf("%s: the program calls %s, which ordex does not implement", path,
                                   undef + 18);
        else if (undef)
            *err = g_strdup_printf("%s: the program needs %s, which neither ordex nor the "
                                   "libraries it was linked with define",
                                   path, undef + 18);
        else
            *err = g_strdup_printf("%s: cannot load the program: %s", path, why ? why : "unknown");
        return false;
    }
    struct link_map *lm = NULL;
    dlinfo(h, RTLD_DI_LINKMAP, &lm);
    if (!keep_files)
        hide(lm);
    img->handle = h;
    img->base = lm ? lm->l_addr : 0;
    img->n_rw = 0;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)g_bytes;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(g_bytes + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum && img->n_rw < 4; i++)
        if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_W)) {
            img->rw_start[img->n_rw] = img->base + ph[i].p_vaddr;
            img->rw_len[img->n_rw] = ph[i].p_memsz;
            img->n_rw++;
        }
    img->main = (sched_main_fn)dlsym(h, "main");
    if (!img->main) {
        *err = g_strdup_printf("%s: the program has no main function", path);
        dlclose(h);
        return false;
    }
    return true;
}

void sched_loader_cleanup(void) {
    if (!g_tmpdir)
        return;
    GDir *d = g_dir_open(g_tmpdir, 0, NULL);
    if (d) {
        const char *name;
        while ((name = g_dir_read_name(d))) {
            char *f = g_build_filename(g_tmpdir, name, NULL);
            unlink(f);
            g_free(f);
        }
        g_dir_close(d);
    }
    rmdir(g_tmpdir);
    g_free(g_tmpdir);
    g_tmpdir = NULL;
}
