/*
 * symbolize.c - code addresses to source lines, read in process with libdw.
 *
 * Every rank runs its own copy of the program, loaded at its own bias, but
 * all copies are the bytes of one file: an address is first turned into an
 * address of that file (minus the bias of the copy that holds it), then
 * looked up in the file's DWARF, read once per file.  Answers are cached per
 * file address.
 *
 * The file is read into memory rather than mapped or kept open: lookups
 * happen while in-process snapshots are live, and those cannot restore
 * across a new mapping, and a descriptor of ordex's would shift the numbers
 * of the descriptors the program opens.
 *
 * The texts follow binutils' addr2line (-f, without -i), which this module
 * used to run, so that reports read as before: the innermost function at
 * the address (an inlined one included), the line of the line table's last
 * row at or before the address, "?" for line 0, and the symbol table's
 * function when the DWARF has none.
 */
#define _GNU_SOURCE
#include "scheduler/symbolize.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "scheduler/context.h"
#include "scheduler/debuginfo.h"
#include "scheduler/loader.h"
#include "scheduler/sched.h"

#ifndef __SANITIZE_ADDRESS__
/* Client requests tell valgrind about the side stack (no-ops otherwise). */
#include <valgrind/valgrind.h>
#endif

typedef struct sym_entry {
    char *full; /* "func (file:line)" */
    char *line; /* "file:line" or NULL */
} sym_entry;

/* A symbol of the symbol table that may name code. */
typedef struct sym_func {
    GElf_Addr value, size;
    size_t shndx;
    bool is_func;     /* STT_FUNC or STT_GNU_IFUNC */
    const char *name; /* in the file's bytes */
    const char *file; /* for a local symbol, the source file symbol before it */
} sym_func;

/* One program file and what is known of its addresses. */
typedef struct sym_object {
    char *path;
    const sched_debuginfo *info; /* shared with the other readers of the file */
    Elf *elf;                    /* info's: NULL when unreadable, or not ELF */
    Dwarf *dw;                   /* info's: NULL when no DWARF */
    GArray *funcs;               /* of sym_func, by value; NULL until first needed */
    GArray *data;        /* of sym_func, the data objects, by value; NULL until first needed */
    GHashTable *entries; /* file address -> sym_entry */
} sym_object;

static GHashTable *g_objects; /* path -> sym_object */
static GHashTable *g_other;   /* address outside the program -> sym_entry */

static void entry_free(gpointer p) {
    sym_entry *e = p;
    g_free(e->full);
    g_free(e->line);
    g_free(e);
}

static void object_free(gpointer p) {
    sym_object *o = p;
    sched_debuginfo_unref(o->info);
    if (o->funcs)
        g_array_free(o->funcs, TRUE);
    if (o->data)
        g_array_free(o->data, TRUE);
    g_hash_table_destroy(o->entries);
    g_free(o->path);
    g_free(o);
}

static sym_object *object(const char *path) {
    if (!g_objects)
        g_objects = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, object_free);
    sym_object *o = g_hash_table_lookup(g_objects, path);
    if (o)
        return o;
    o = g_new0(sym_object, 1);
    o->path = g_strdup(path);
    o->entries = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, entry_free);
    o->info = sched_debuginfo_ref(path);
    o->elf = o->info->elf;
    o->dw = o->info->dw;
    g_hash_table_insert(g_objects, o->path, o);
    return o;
}

/* Rank whose program copy holds addr, or -1. */
static int image_of(const void *addr) {
    Dl_info info;
    if (!dladdr(addr, &info) || !info.dli_fbase)
        return -1;
    for (int r = 0; r < sched_nranks(); r++)
        if (sched_image_bias(r) == (uintptr_t)info.dli_fbase)
            return r;
    return -1;
}

bool sched_is_program_code(const void *addr) {
    return image_of(addr) >= 0 || sched_rank_library_of(addr, NULL, NULL);
}

/* The compilation unit holding a, also when .debug_aranges leaves it out
 * (some compilers do not emit it). */
static bool unit_of(Dwarf *dw, Dwarf_Addr a, Dwarf_Die *cu) {
    if (dwarf_addrdie(dw, a, cu))
        return true;
    Dwarf_Off off = 0, next;
    size_t header;
    while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(dw, off + header, cu) && dwarf_haspc(cu, a) > 0)
            return true;
        off = next;
    }
    return false;
}

/* Name of the innermost function, inlined or not, whose code holds a. */
static char *dwarf_function(Dwarf_Die *cu, Dwarf_Addr a) {
    Dwarf_Die *scopes = NULL;
    int n = dwarf_getscopes(cu, a, &scopes);
    char *name = NULL;
    for (int i = 0; i < n && !name; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
            const char *s = dwarf_diename(&scopes[i]);
            if (s)
                name = g_strdup(s);
        }
    }
    free(scopes);
    return name;
}

static gint by_value(gconstpointer a, gconstpointer b) {
    const sym_func *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* The symbols that may name code, from the symbol table (the dynamic one
 * when the file has no other), sorted by address.  Like addr2line, any
 * symbol that names no data, file, section or thread-local counts. */
static GArray *functions(sym_object *o) {
    if (o->funcs)
        return o->funcs;
    o->funcs = g_array_new(FALSE, FALSE, sizeof(sym_func));
    Elf_Scn *symtab = NULL, *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(o->elf, scn)))
        if (gelf_getshdr(scn, &sh) &&
            (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symtab)))
            symtab = scn;
    Elf_Data *data = symtab ? elf_getdata(symtab, NULL) : NULL;
    if (!data || !gelf_getshdr(symtab, &sh) || sh.sh_entsize == 0)
        return o->funcs;
    const char *file = NULL;
    for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            continue;
        const char *name = elf_strptr(o->elf, sh.sh_link, sym.st_name);
        int type = GELF_ST_TYPE(sym.st_info), bind = GELF_ST_BIND(sym.st_info);
        if (type == STT_FILE) {
            file = name;
            continue;
        }
        if (type == STT_OBJECT || type == STT_SECTION || type == STT_TLS || type == STT_COMMON ||
            sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE || !name)
            continue;
        /* Markers of no size that annotation plugins leave: not functions. */
        if (sym.st_size == 0 && bind == STB_LOCAL && type == STT_NOTYPE &&
            GELF_ST_VISIBILITY(sym.st_other) == STV_HIDDEN)
            continue;
        sym_func f = {sym.st_value, sym.st_size,
                      sym.st_shndx, type == STT_FUNC || type == STT_GNU_IFUNC,
                      name,         bind == STB_LOCAL ? file : NULL};
        g_array_append_val(o->funcs, f);
    }
    g_array_sort(o->funcs, by_value);
    return o->funcs;
}

/* Section index of the allocated section holding a, or 0. */
static size_t section_of(Elf *elf, GElf_Addr a) {
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(elf, scn)))
        if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && a >= sh.sh_addr &&
            a < sh.sh_addr + sh.sh_size)
            return elf_ndxscn(scn);
    return 0;
}

/* Whether f is a better answer for a than best: closer below a; at the same
 * address, one that reaches a, then a function, then the smaller. */
static bool better(const sym_func *f, const sym_func *best, GElf_Addr a) {
    if (!best || f->value > best->value)
        return true;
    GElf_Addr fsize = f->size ? f->size : 1, bsize = best->size ? best->size : 1;
    if (best->value + bsize <= a)
        return fsize > bsize;
    if (f->value + fsize <= a)
        return false;
    if (f->is_func != best->is_func)
        return f->is_func;
    return fsize < bsize;
}

/* The symbol table's answer for a: the symbol closest below it in its
 * section, or NULL. */
static const sym_func *symbol_at(sym_object *o, GElf_Addr a) {
    size_t shndx = section_of(o->elf, a);
    if (!shndx)
        return NULL;
    GArray *fs = functions(o);
    const sym_func *best = NULL;
    for (guint i = 0; i < fs->len; i++) {
        const sym_func *f = &g_array_index(fs, sym_func, i);
        if (f->value > a)
            break;
        if (f->shndx == shndx && better(f, best, a))
            best = f;
    }
    return best;
}

/* Fills e for a file address of object o. */
static void describe(sym_object *o, uintptr_t key, sym_entry *e) {
    char *func = NULL, *file_line = NULL;
    Dwarf_Die cu;
    if (o->dw && unit_of(o->dw, key, &cu)) {
        func = dwarf_function(&cu, key);
        Dwarf_Line *l = dwarf_getsrc_die(&cu, key);
        const char *src = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
        int line = 0;
        if (src && dwarf_lineno(l, &line) == 0) {
            /* A file named relative to a relative directory (the source
             * compiled as dir/prog.c) is relative to the compilation's
             * directory: name it from there, as addr2line does. */
            Dwarf_Attribute attr;
            const char *dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
            char *path =
                !g_path_is_absolute(src) && dir ? g_strconcat(dir, "/", src, NULL) : g_strdup(src);
            file_line =
                line > 0 ? g_strdup_printf("%s:%d", path, line) : g_strdup_printf("%s:?", path);
            g_free(path);
        }
    }
    if (!func && o->elf) {
        /* As addr2line: the symbol's name, and for a local symbol the
         * source file that the symbol table places it in, without a line. */
        const sym_func *f = symbol_at(o, key);
        if (f) {
            func = g_strdup(f->name);
            if (!file_line && f->file)
                file_line = g_strdup_printf("%s:?", f->file);
        }
    }
    if (file_line) {
        e->line = g_path_get_basename(file_line);
        e->full = g_strdup_printf("%s (%s)", func ? func : "??", file_line);
    } else if (func) {
        e->full = g_strdup_printf("%s (%s+0x%lx)", func, o->path, (unsigned long)key);
    } else {
        e->full = g_strdup_printf("%s+0x%lx", o->path, (unsigned long)key);
    }
    g_free(func);
    g_free(file_line);
}

/* libdw decodes a line table in one frame of about 150 KiB (with no probe
 * of the pages it skips, so that an overflow lands silently in whatever
 * lies below), more than a rank's stack may have left (--stack-size goes
 * down to 16 KiB), and lookups come from rank code inside MPI calls: they
 * run on a stack of their own.  It is static rather than mapped when first
 * needed, because in-process snapshots cannot be restored across a new
 * mapping; its pages are handed back after every use, so that snapshots
 * need not copy them.  Sanitizer builds, whose runtime would have to be
 * told of the switch, load no ranks: they stay on the caller's stack. */
#ifndef __SANITIZE_ADDRESS__
#define SIDE_STACK_SIZE ((size_t)512 << 10)
static char g_side_stack[SIDE_STACK_SIZE] __attribute__((aligned(4096)));
/* A context over the static stack: sched_ctx_prepare needs only its bounds. */
static sched_ctx g_side;
static void *g_caller_sp;
static bool g_on_side;

/* The fiber switch of switch_x86_64.S, used directly rather than through
 * sched_ctx_switch: the side stack is entered from whatever context runs,
 * a rank's own OS thread included (--threads), and left back to it. */
void sched_ctx_switch_sp(void **save_sp, void *new_sp);

typedef struct side_call {
    void (*fn)(void *);
    void *arg;
} side_call;

/* The side stack's first frame: never returns, switches back instead. */
static void side_main(void *p) {
    side_call *c = p;
    c->fn(c->arg);
    sched_ctx_switch_sp(&g_side.sp, g_caller_sp);
    __builtin_unreachable();
}

void sched_on_side_stack(void (*fn)(void *), void *arg) {
    if (g_on_side) {
        fn(arg);
        return;
    }
    if (!g_side.stack_base) {
        g_side.stack_base = g_side_stack;
        g_side.stack_size = sizeof g_side_stack;
        g_side.valgrind_id = VALGRIND_STACK_REGISTER(g_side_stack, g_side_stack + SIDE_STACK_SIZE);
    }
    side_call c = {fn, arg};
    sched_ctx_prepare(&g_side, side_main, &c);
    g_on_side = true;
    sched_ctx_switch_sp(&g_caller_sp, g_side.sp);
    g_on_side = false;
    madvise(g_side_stack, sizeof g_side_stack, MADV_DONTNEED);
}
#else
void sched_on_side_stack(void (*fn)(void *), void *arg) {
    fn(arg);
}
#endif

typedef struct lookup_call {
    const char *path;
    uintptr_t key;
    sym_entry *e;
} lookup_call;

static void lookup_on_side(void *p) {
    lookup_call *l = p;
    sym_object *o = object(l->path);
    l->e = g_hash_table_lookup(o->entries, (gpointer)l->key);
    if (!l->e) {
        l->e = g_new0(sym_entry, 1);
        describe(o, l->key, l->e);
        g_hash_table_insert(o->entries, (gpointer)l->key, l->e);
    }
}

static sym_entry *object_entry(const char *path, uintptr_t key) {
    sym_object *o = g_objects ? g_hash_table_lookup(g_objects, path) : NULL;
    sym_entry *e = o ? g_hash_table_lookup(o->entries, (gpointer)key) : NULL;
    if (e)
        return e;
    lookup_call l = {path, key, NULL};
    sched_on_side_stack(lookup_on_side, &l);
    return l.e;
}

static sym_entry *lookup(const void *addr, bool is_return) {
    uintptr_t a = (uintptr_t)addr - (is_return ? 1 : 0);
    int r = image_of((const void *)a);
    if (r >= 0)
        return object_entry(sched_program_path(), a - sched_image_bias(r));
    const char *lib;
    uintptr_t base;
    if (sched_rank_library_of((const void *)a, &lib, &base)) /* the user's own, with its lines */
        return object_entry(lib, a - base);
    if (!g_other)
        g_other = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, entry_free);
    sym_entry *e = g_hash_table_lookup(g_other, (gpointer)a);
    if (e)
        return e;
    e = g_new0(sym_entry, 1);
    Dl_info info;
    if (dladdr((const void *)a, &info) && info.dli_sname)
        e->full = g_strdup_printf("%s (%s)", info.dli_sname, info.dli_fname ? info.dli_fname : "?");
    else
        e->full = g_strdup_printf("%p", (const void *)a);
    g_hash_table_insert(g_other, (gpointer)a, e);
    return e;
}

/* The data objects of the symbol table (STT_OBJECT, locals included),
 * sorted by address. */
static GArray *data_objects(sym_object *o) {
    if (o->data)
        return o->data;
    o->data = g_array_new(FALSE, FALSE, sizeof(sym_func));
    Elf_Scn *symtab = NULL, *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(o->elf, scn)))
        if (gelf_getshdr(scn, &sh) &&
            (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symtab)))
            symtab = scn;
    Elf_Data *data = symtab ? elf_getdata(symtab, NULL) : NULL;
    if (!data || !gelf_getshdr(symtab, &sh) || sh.sh_entsize == 0)
        return o->data;
    for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
            sym.st_size == 0 || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
            continue;
        const char *name = elf_strptr(o->elf, sh.sh_link, sym.st_name);
        if (!name)
            continue;
        sym_func f = {sym.st_value, sym.st_size, sym.st_shndx, false, name, NULL};
        g_array_append_val(o->data, f);
    }
    g_array_sort(o->data, by_value);
    return o->data;
}

typedef struct data_call {
    const char *path;
    uintptr_t key;
    char *name;
    uintptr_t value;
    size_t size;
} data_call;

static void data_on_side(void *p) {
    data_call *d = p;
    sym_object *o = object(d->path);
    if (!o->elf)
        return;
    GArray *ds = data_objects(o);
    guint lo = 0, hi = ds->len;
    while (lo < hi) { /* the last object starting at or below key */
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(ds, sym_func, mid).value <= d->key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return;
    const sym_func *f = &g_array_index(ds, sym_func, lo - 1);
    if (d->key >= f->value + f->size)
        return;
    d->name = g_strdup(f->name);
    d->value = f->value;
    d->size = f->size;
}

bool sched_symbolize_data(const void *addr, char **name, uintptr_t *start, size_t *size) {
    const char *path;
    uintptr_t bias;
    int r = image_of(addr);
    if (r >= 0) {
        path = sched_program_path();
        bias = sched_image_bias(r);
    } else if (!sched_rank_library_of(addr, &path, &bias)) {
        return false;
    }
    data_call d = {path, (uintptr_t)addr - bias, NULL, 0, 0};
    sched_on_side_stack(data_on_side, &d);
    if (!d.name)
        return false;
    *name = d.name;
    *start = d.value + bias;
    *size = d.size;
    return true;
}

const char *sched_symbolize_offset(const char *so_path, uintptr_t offset, bool is_return) {
    return object_entry(so_path, offset - (is_return ? 1 : 0))->line;
}

const char *sched_symbolize(const void *addr, bool is_return) {
    return lookup(addr, is_return)->full;
}

const char *sched_symbolize_line(const void *addr, bool is_return) {
    return lookup(addr, is_return)->line;
}

void sched_symbolize_reset(void) {
    if (g_objects)
        g_hash_table_destroy(g_objects);
    if (g_other)
        g_hash_table_destroy(g_other);
    g_objects = NULL;
    g_other = NULL;
}
