/*
 * access_sites.c - disarming and arming the program's calls of the load and
 * store hooks (access_sites.h).
 */
#define _GNU_SOURCE
#include "scheduler/access_sites.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const uint8_t ARMED[2] = {0xff, 0x15};    /* call *disp32(%rip) */
static const uint8_t DISARMED[2] = {0x90, 0xa9}; /* nop; test $imm32, %eax */

/* The hooks that only look at an address: a disarmed call changes nothing
 * the program sees. */
static bool disarmable(const char *name) {
    static const char *const prefixes[] = {"__tsan_read",      "__tsan_write", "__tsan_unaligned_",
                                           "__tsan_volatile_", "__tsan_func_", "__tsan_vptr_"};
    for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++)
        if (g_str_has_prefix(name, prefixes[i]))
            return true;
    return false;
}

static bool in_file(size_t len, uint64_t off, uint64_t size) {
    return off <= len && size <= len - off;
}

/* The section headers, or NULL when the file is not a well-formed x86-64
 * ELF file as far as they go. */
static const Elf64_Shdr *sections(const char *b, size_t len, int *n) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !in_file(len, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
        return NULL;
    *n = eh->e_shnum;
    return (const Elf64_Shdr *)(b + eh->e_shoff);
}

/* Symbol `si` of the symbol table sym (its string table str), or NULL. */
static const char *symbol_name(const char *b, size_t len, const Elf64_Shdr *sym,
                               const Elf64_Shdr *str, uint64_t si) {
    if (si == 0 || si >= sym->sh_size / sizeof(Elf64_Sym))
        return NULL;
    const Elf64_Sym *s = (const Elf64_Sym *)(b + sym->sh_offset) + si;
    if (s->st_name >= str->sh_size)
        return NULL;
    const char *name = b + str->sh_offset + s->st_name;
    return memchr(name, '\0', str->sh_size - s->st_name) ? name : NULL;
}

typedef void (*site_fn)(uint64_t vaddr, uint64_t off, void *user);

/* Calls fn for every call of a disarmable hook that a relocation of an
 * executable section names (the call's address and file offset).  True
 * when some relocation names a __tsan_ function. */
static bool each_site(const char *b, size_t len, site_fn fn, void *user) {
    int n = 0;
    const Elf64_Shdr *sh = sections(b, len, &n);
    if (!sh)
        return false;
    bool any = false;
    for (int i = 0; i < n; i++) {
        const Elf64_Shdr *rel = &sh[i];
        if (rel->sh_type != SHT_RELA || rel->sh_info >= (unsigned)n || rel->sh_link >= (unsigned)n)
            continue;
        const Elf64_Shdr *text = &sh[rel->sh_info], *sym = &sh[rel->sh_link];
        if (!(text->sh_flags & SHF_EXECINSTR) || sym->sh_type != SHT_SYMTAB ||
            sym->sh_link >= (unsigned)n)
            continue;
        const Elf64_Shdr *str = &sh[sym->sh_link];
        if (rel->sh_entsize != sizeof(Elf64_Rela) || !in_file(len, rel->sh_offset, rel->sh_size) ||
            !in_file(len, sym->sh_offset, sym->sh_size) ||
            !in_file(len, str->sh_offset, str->sh_size) ||
            !in_file(len, text->sh_offset, text->sh_size))
            continue;
        const Elf64_Rela *r = (const Elf64_Rela *)(b + rel->sh_offset);
        for (size_t k = 0; k < rel->sh_size / sizeof *r; k++) {
            const char *name = symbol_name(b, len, sym, str, ELF64_R_SYM(r[k].r_info));
            if (!name || !g_str_has_prefix(name, "__tsan_"))
                continue;
            any = true;
            uint32_t type = ELF64_R_TYPE(r[k].r_info);
            if ((type != R_X86_64_GOTPCRELX && type != R_X86_64_GOTPCREL) || !disarmable(name))
                continue;
            /* The relocation is the displacement, after the two opcode
             * bytes; linked output names it by virtual address. */
            uint64_t at = r[k].r_offset;
            if (at < text->sh_addr + 2 || at - text->sh_addr + 4 > text->sh_size)
                continue;
            fn(at - 2, text->sh_offset + (at - 2 - text->sh_addr), user);
        }
    }
    return any;
}

typedef struct collect {
    const char *bytes;
    GArray *vaddrs, *disarmed, *offsets; /* offsets: of armed calls */
} collect;

static void collect_site(uint64_t vaddr, uint64_t off, void *user) {
    collect *c = user;
    const uint8_t *p = (const uint8_t *)c->bytes + off;
    gboolean off_now = memcmp(p, DISARMED, 2) == 0;
    if (!off_now && memcmp(p, ARMED, 2) != 0)
        return; /* not a call through the GOT */
    if (c->vaddrs)
        g_array_append_val(c->vaddrs, vaddr);
    if (c->disarmed)
        g_array_append_val(c->disarmed, off_now);
    if (c->offsets && !off_now)
        g_array_append_val(c->offsets, off);
}

bool sched_access_sites(const char *bytes, size_t len, GArray *vaddrs, GArray *disarmed) {
    collect c = {bytes, vaddrs, disarmed, NULL};
    return each_site(bytes, len, collect_site, &c);
}

/* Whether the dynamic symbol table defines main. */
static bool defines_main(const char *b, size_t len) {
    int n = 0;
    const Elf64_Shdr *sh = sections(b, len, &n);
    for (int i = 0; sh && i < n; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= (unsigned)n ||
            !in_file(len, sh[i].sh_offset, sh[i].sh_size) ||
            !in_file(len, sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size))
            continue;
        for (uint64_t k = 1; k < sh[i].sh_size / sizeof(Elf64_Sym); k++) {
            const Elf64_Sym *s = (const Elf64_Sym *)(b + sh[i].sh_offset) + k;
            const char *name = symbol_name(b, len, &sh[i], &sh[sh[i].sh_link], k);
            if (name && s->st_shndx != SHN_UNDEF && strcmp(name, "main") == 0)
                return true;
        }
    }
    return false;
}

int sched_access_disarm_file(const char *path, char **err) {
    gchar *bytes = NULL;
    gsize len = 0;
    GError *ge = NULL;
    if (!g_file_get_contents(path, &bytes, &len, &ge)) {
        *err = g_strdup_printf("%s: cannot read the program: %s", path, ge->message);
        g_error_free(ge);
        return -1;
    }
    if (!defines_main(bytes, len)) {
        g_free(bytes);
        return 0;
    }
    GArray *offsets = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    collect c = {bytes, NULL, NULL, offsets};
    each_site(bytes, len, collect_site, &c);
    g_free(bytes);
    int done = 0;
    int fd = offsets->len ? open(path, O_WRONLY | O_CLOEXEC) : -1;
    if (offsets->len && fd < 0) {
        *err = g_strdup_printf("%s: cannot open the program to write: %s", path, g_strerror(errno));
        done = -1;
    }
    for (guint i = 0; fd >= 0 && i < offsets->len; i++) {
        uint64_t off = g_array_index(offsets, uint64_t, i);
        if (pwrite(fd, DISARMED, 2, (off_t)off) != 2) {
            *err = g_strdup_printf("%s: cannot write the program: %s", path, g_strerror(errno));
            done = -1;
            break;
        }
        done++;
    }
    if (fd >= 0 && close(fd) != 0 && done >= 0) {
        *err = g_strdup_printf("%s: cannot write the program: %s", path, g_strerror(errno));
        done = -1;
    }
    g_array_free(offsets, TRUE);
    return done;
}

bool sched_access_arm_copy(uintptr_t base, const GArray *vaddrs) {
    if (!vaddrs || vaddrs->len == 0)
        return true;
    /* One change of protection for the span of the calls: code pages of
     * this copy alone (the file's mapping is private).  Writable without
     * being executable meanwhile (no rank runs the program now): an
     * emulator that translates code (valgrind) drops its translations of
     * pages that lose execution. */
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (guint i = 0; i < vaddrs->len; i++) {
        uintptr_t a = base + (uintptr_t)g_array_index(vaddrs, uint64_t, i);
        lo = a < lo ? a : lo;
        hi = a + 2 > hi ? a + 2 : hi;
    }
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = lo & ~(page - 1), to = (hi + page - 1) & ~(page - 1);
    if (mprotect((void *)from, to - from, PROT_READ | PROT_WRITE) != 0)
        return false;
    for (guint i = 0; i < vaddrs->len; i++) {
        uint8_t *p = (uint8_t *)(base + (uintptr_t)g_array_index(vaddrs, uint64_t, i));
        if (memcmp(p, DISARMED, 2) == 0)
            memcpy(p, ARMED, 2);
    }
    return mprotect((void *)from, to - from, PROT_READ | PROT_EXEC) == 0;
}
