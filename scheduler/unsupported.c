/*
 * unsupported.c - the MPI functions a program needs that ordex does not
 * define, and the instructions that call them.
 *
 * A program built by ordexcc (-fPIC, -z now) calls an outside function
 * through its PLT entry (call/jmp rel32 to the entry, which jumps through
 * the function's GOT slot), or, built with -fno-plt, through the GOT slot
 * itself (call/jmp *slot(%rip)); taking its address loads the slot (mov
 * slot(%rip), reg).  The slots are the targets of the dynamic relocations
 * naming the function.  The scan decodes no instruction stream: it looks
 * for those encodings at every byte of the code, and a match must land
 * exactly on an entry or a slot of one of the functions, which leaves a
 * false site very unlikely.
 */
#define _GNU_SOURCE
#include "scheduler/unsupported.h"

#include <dlfcn.h>
#include <elf.h>
#include <stdbool.h>
#include <string.h>

typedef struct elf_file {
    const uint8_t *bytes;
    size_t len;
    const Elf64_Ehdr *eh;
    const Elf64_Shdr *sh; /* e_shnum entries */
    int nsh;
    const char *shstr;
    size_t shstr_len;
} elf_file;

/* Whether [off, off + size) lies inside the file. */
static bool in_file(const elf_file *f, uint64_t off, uint64_t size) {
    return off <= f->len && size <= f->len - off;
}

static const char *section_name(const elf_file *f, const Elf64_Shdr *s) {
    if (!f->shstr || s->sh_name >= f->shstr_len ||
        !memchr(f->shstr + s->sh_name, '\0', f->shstr_len - s->sh_name))
        return "";
    return f->shstr + s->sh_name;
}

static bool open_elf(const uint8_t *bytes, size_t len, elf_file *f) {
    memset(f, 0, sizeof *f);
    f->bytes = bytes;
    f->len = len;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)bytes;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !in_file(f, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
        return false;
    f->eh = eh;
    f->sh = (const Elf64_Shdr *)(bytes + eh->e_shoff);
    f->nsh = eh->e_shnum;
    if (eh->e_shstrndx < f->nsh) {
        const Elf64_Shdr *s = &f->sh[eh->e_shstrndx];
        if (s->sh_type != SHT_NOBITS && in_file(f, s->sh_offset, s->sh_size)) {
            f->shstr = (const char *)bytes + s->sh_offset;
            f->shstr_len = s->sh_size;
        }
    }
    return true;
}

/* The section's bytes, or NULL (NOBITS or outside the file). */
static const uint8_t *section_bytes(const elf_file *f, const Elf64_Shdr *s) {
    if (s->sh_type == SHT_NOBITS || !in_file(f, s->sh_offset, s->sh_size))
        return NULL;
    return f->bytes + s->sh_offset;
}

static int32_t rel32(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static bool is_plt(const char *name) {
    return strcmp(name, ".plt") == 0 || strcmp(name, ".plt.sec") == 0 ||
           strcmp(name, ".plt.got") == 0;
}

/* One missing function while scanning: its GOT slots and PLT entries. */
typedef struct scan_fn {
    sched_missing_fn *fn;
    GArray *slots;   /* uint64_t */
    GArray *entries; /* uint64_t */
    GArray *sites;   /* uint64_t */
} scan_fn;

static bool holds(const GArray *a, uint64_t v) {
    for (guint i = 0; i < a->len; i++)
        if (g_array_index(a, uint64_t, i) == v)
            return true;
    return false;
}

/* The function whose slot (slot = true) or PLT entry is at addr, or NULL. */
static scan_fn *owner(scan_fn *fns, int n, uint64_t addr, bool slot) {
    for (int i = 0; i < n; i++)
        if (holds(slot ? fns[i].slots : fns[i].entries, addr))
            return &fns[i];
    return NULL;
}

/* PLT entries jump through the slots: `jmp *disp32(%rip)` (ff 25), with a
 * bnd or endbr64 prefix in some forms.  An entry is the sh_entsize-sized
 * piece of its section that holds the jump. */
static void find_plt_entries(const elf_file *f, scan_fn *fns, int n) {
    for (int k = 0; k < f->nsh; k++) {
        const Elf64_Shdr *s = &f->sh[k];
        const uint8_t *b = section_bytes(f, s);
        if (!b || !(s->sh_flags & SHF_EXECINSTR) || !is_plt(section_name(f, s)))
            continue;
        uint64_t ent = s->sh_entsize ? s->sh_entsize : 16;
        for (uint64_t i = 0; i + 6 <= s->sh_size; i++) {
            if (b[i] != 0xff || b[i + 1] != 0x25)
                continue;
            uint64_t target = s->sh_addr + i + 6 + (int64_t)rel32(b + i + 2);
            scan_fn *o = owner(fns, n, target, true);
            if (o) {
                uint64_t entry = s->sh_addr + (i / ent) * ent;
                g_array_append_val(o->entries, entry);
            }
        }
    }
}

static void add_site(scan_fn *o, uint64_t addr) {
    if (o && !holds(o->sites, addr))
        g_array_append_val(o->sites, addr);
}

/* The program's own code: calls and jumps to the entries and through the
 * slots, and loads of the slots. */
static void find_sites(const elf_file *f, scan_fn *fns, int n) {
    for (int k = 0; k < f->nsh; k++) {
        const Elf64_Shdr *s = &f->sh[k];
        const uint8_t *b = section_bytes(f, s);
        if (!b || !(s->sh_flags & SHF_EXECINSTR) || is_plt(section_name(f, s)))
            continue;
        for (uint64_t i = 0; i < s->sh_size; i++) {
            uint64_t at = s->sh_addr + i;
            uint64_t left = s->sh_size - i;
            if (left >= 5 && (b[i] == 0xe8 || b[i] == 0xe9)) /* call/jmp rel32 */
                add_site(owner(fns, n, at + 5 + (int64_t)rel32(b + i + 1), false), at);
            if (left >= 6 && b[i] == 0xff && (b[i + 1] == 0x15 || b[i + 1] == 0x25))
                add_site(owner(fns, n, at + 6 + (int64_t)rel32(b + i + 2), true), at);
            /* mov disp32(%rip), r64: REX.W 8b, ModRM mod 00 rm 101 */
            if (left >= 7 && (b[i] & 0xf8) == 0x48 && b[i + 1] == 0x8b && (b[i + 2] & 0xc7) == 0x05)
                add_site(owner(fns, n, at + 7 + (int64_t)rel32(b + i + 3), true), at);
        }
    }
}

/* The order of the report: the run starts in main, so a function main
 * calls comes before one only other functions call, each in code order
 * (the first site in main, else the first site); those without a site last,
 * by name. */
typedef struct order_key {
    int group; /* 0: called in main, 1: elsewhere, 2: no site */
    uint64_t at;
} order_key;

static order_key key_of(const scan_fn *s, uint64_t main_lo, uint64_t main_hi) {
    if (s->sites->len == 0)
        return (order_key){2, 0};
    for (guint i = 0; i < s->sites->len; i++) {
        uint64_t a = g_array_index(s->sites, uint64_t, i);
        if (a >= main_lo && a < main_hi)
            return (order_key){0, a};
    }
    return (order_key){1, g_array_index(s->sites, uint64_t, 0)};
}

static gint by_order(gconstpointer a, gconstpointer b, gpointer main_range) {
    const scan_fn *x = a, *y = b;
    const uint64_t *m = main_range;
    order_key kx = key_of(x, m[0], m[1]), ky = key_of(y, m[0], m[1]);
    if (kx.group != ky.group)
        return kx.group < ky.group ? -1 : 1;
    if (kx.at != ky.at)
        return kx.at < ky.at ? -1 : 1;
    return strcmp(x->fn->name, y->fn->name);
}

static gint by_value(gconstpointer a, gconstpointer b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void missing_free(gpointer p) {
    sched_missing_fn *m = p;
    g_free(m->name);
    g_free(m->sites);
    g_free(m);
}

GPtrArray *sched_missing_mpi_functions(const char *path, char **err) {
    gchar *bytes;
    gsize len;
    GError *ge = NULL;
    if (!g_file_get_contents(path, &bytes, &len, &ge)) {
        *err = g_strdup_printf("%s: cannot read program: %s", path, ge->message);
        g_error_free(ge);
        return NULL;
    }
    elf_file f;
    if (!open_elf((const uint8_t *)bytes, len, &f)) {
        *err = g_strdup_printf("%s: not an x86-64 ELF file", path);
        g_free(bytes);
        return NULL;
    }
    GPtrArray *out = g_ptr_array_new_with_free_func(missing_free);
    /* The dynamic symbols: index -> missing function (or none). */
    int dynsym = -1;
    for (int k = 0; k < f.nsh && dynsym < 0; k++)
        if (f.sh[k].sh_type == SHT_DYNSYM)
            dynsym = k;
    const Elf64_Shdr *ds = dynsym >= 0 ? &f.sh[dynsym] : NULL;
    const Elf64_Sym *syms = ds ? (const Elf64_Sym *)section_bytes(&f, ds) : NULL;
    const Elf64_Shdr *ss = ds && ds->sh_link < (Elf64_Word)f.nsh ? &f.sh[ds->sh_link] : NULL;
    const char *strs = ss ? (const char *)section_bytes(&f, ss) : NULL;
    if (!syms || !strs || ds->sh_entsize != sizeof(Elf64_Sym)) {
        g_free(bytes);
        return out; /* no dynamic references at all */
    }
    size_t nsyms = ds->sh_size / sizeof(Elf64_Sym);
    int *which = g_new(int, nsyms); /* index into fns, or -1 */
    GArray *fns = g_array_new(FALSE, TRUE, sizeof(scan_fn));
    uint64_t main_lo = 0, main_hi = 0;
    for (size_t i = 0; i < nsyms; i++) {
        which[i] = -1;
        const Elf64_Sym *sym = &syms[i];
        if (sym->st_shndx != SHN_UNDEF && ELF64_ST_TYPE(sym->st_info) == STT_FUNC &&
            sym->st_name < ss->sh_size && ss->sh_size - sym->st_name >= 5 &&
            memcmp(strs + sym->st_name, "main", 5) == 0) {
            main_lo = sym->st_value;
            main_hi = sym->st_value + sym->st_size;
        }
        if (sym->st_shndx != SHN_UNDEF || ELF64_ST_BIND(sym->st_info) == STB_WEAK ||
            sym->st_name >= ss->sh_size ||
            !memchr(strs + sym->st_name, '\0', ss->sh_size - sym->st_name))
            continue;
        const char *name = strs + sym->st_name;
        if (!g_str_has_prefix(name, "MPI_") && !g_str_has_prefix(name, "PMPI_"))
            continue;
        if (dlsym(RTLD_DEFAULT, name))
            continue;
        sched_missing_fn *m = g_new0(sched_missing_fn, 1);
        m->name = g_strdup(name);
        scan_fn s = {m, g_array_new(FALSE, FALSE, sizeof(uint64_t)),
                     g_array_new(FALSE, FALSE, sizeof(uint64_t)),
                     g_array_new(FALSE, FALSE, sizeof(uint64_t))};
        which[i] = (int)fns->len;
        g_array_append_val(fns, s);
    }
    scan_fn *fv = (scan_fn *)(void *)fns->data;
    int n = (int)fns->len;
    if (n > 0) {
        /* Their GOT slots: what the dynamic relocations naming them fill. */
        for (int k = 0; k < f.nsh; k++) {
            const Elf64_Shdr *rs = &f.sh[k];
            const Elf64_Rela *r = (const Elf64_Rela *)section_bytes(&f, rs);
            if (rs->sh_type != SHT_RELA || rs->sh_link != (Elf64_Word)dynsym || !r ||
                rs->sh_entsize != sizeof(Elf64_Rela))
                continue;
            for (size_t i = 0; i < rs->sh_size / sizeof(Elf64_Rela); i++) {
                uint64_t sym = ELF64_R_SYM(r[i].r_info), type = ELF64_R_TYPE(r[i].r_info);
                if (sym < nsyms && which[sym] >= 0 &&
                    (type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT)) {
                    uint64_t slot = r[i].r_offset;
                    g_array_append_val(fv[which[sym]].slots, slot);
                }
            }
        }
        find_plt_entries(&f, fv, n);
        find_sites(&f, fv, n);
    }
    for (int i = 0; i < n; i++)
        g_array_sort(fv[i].sites, by_value);
    uint64_t main_range[2] = {main_lo, main_hi};
    g_array_sort_with_data(fns, by_order, main_range);
    fv = (scan_fn *)(void *)fns->data;
    for (int i = 0; i < n; i++) {
        fv[i].fn->nsites = (int)fv[i].sites->len;
        fv[i].fn->sites = g_new(uintptr_t, fv[i].sites->len + 1);
        for (guint k = 0; k < fv[i].sites->len; k++)
            fv[i].fn->sites[k] = (uintptr_t)g_array_index(fv[i].sites, uint64_t, k);
        g_ptr_array_add(out, fv[i].fn);
        g_array_free(fv[i].slots, TRUE);
        g_array_free(fv[i].entries, TRUE);
        g_array_free(fv[i].sites, TRUE);
    }
    g_array_free(fns, TRUE);
    g_free(which);
    g_free(bytes);
    return out;
}
