/*
 * debuginfo.c - one parsed ELF and DWARF handle per file, shared (see
 * debuginfo.h).
 */
#include "scheduler/debuginfo.h"

#include <glib.h>

typedef struct entry {
    sched_debuginfo pub; /* first: the public handle is the entry */
    char *path;
    char *bytes; /* the whole file: libelf reads from it */
    char *error;
    unsigned refs;
} entry;

static GHashTable *g_files; /* path -> entry */
static unsigned g_reads;

static entry *read_file(const char *path) {
    entry *e = g_new0(entry, 1);
    e->path = g_strdup(path);
    e->pub.path = e->path;
    gsize len;
    GError *ge = NULL;
    g_reads++;
    if (!g_file_get_contents(path, &e->bytes, &len, &ge)) {
        e->error = g_strdup(ge->message);
        e->pub.error = e->error;
        g_error_free(ge);
        return e;
    }
    e->pub.bytes = e->bytes;
    e->pub.len = len;
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory(e->bytes, len);
    if (elf && elf_kind(elf) != ELF_K_ELF) {
        elf_end(elf);
        elf = NULL;
    }
    e->pub.elf = elf;
    if (elf)
        e->pub.dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    return e;
}

const sched_debuginfo *sched_debuginfo_ref(const char *path) {
    if (!g_files)
        g_files = g_hash_table_new(g_str_hash, g_str_equal);
    entry *e = g_hash_table_lookup(g_files, path);
    if (!e) {
        e = read_file(path);
        g_hash_table_insert(g_files, e->path, e);
    }
    e->refs++;
    return &e->pub;
}

void sched_debuginfo_unref(const sched_debuginfo *d) {
    if (!d)
        return;
    entry *e = (entry *)d;
    if (--e->refs > 0)
        return;
    g_hash_table_remove(g_files, e->path);
    if (e->pub.dw)
        dwarf_end(e->pub.dw);
    if (e->pub.elf)
        elf_end(e->pub.elf);
    g_free(e->bytes);
    g_free(e->error);
    g_free(e->path);
    g_free(e);
}

unsigned sched_debuginfo_reads(void) {
    return g_reads;
}
