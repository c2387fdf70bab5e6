/*
 * symbolize.c - symbolisation through binutils' addr2line.
 *
 * Reports need few addresses, so one addr2line run per new address (cached)
 * is cheap enough and keeps DWARF parsing out of ordex.
 */
#define _GNU_SOURCE
#include "scheduler/symbolize.h"

#include <dlfcn.h>
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "scheduler/sched.h"

typedef struct sym_entry {
    char *full; /* "func (file:line)" */
    char *line; /* "file:line" or NULL */
} sym_entry;

static GHashTable *g_cache; /* file offset or address -> sym_entry */

static void entry_free(gpointer p) {
    sym_entry *e = p;
    g_free(e->full);
    g_free(e->line);
    g_free(e);
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
    return image_of(addr) >= 0;
}

/* Runs addr2line on one offset of a program file; fills e. */
static void addr2line(sym_entry *e, const char *so_path, uintptr_t key) {
    char off[32];
    snprintf(off, sizeof off, "0x%lx", (unsigned long)key);
    const char *argv[] = {"addr2line", "-f", "-C", "-e", so_path, off, NULL};
    char *out = NULL;
    int status = 0;
    if (g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL) &&
        out) {
        char **lines = g_strsplit(out, "\n", 3);
        if (lines[0] && lines[1] && !g_str_has_prefix(lines[1], "??")) {
            char *fl = g_strdup(lines[1]);
            char *disc = strstr(fl, " (discriminator");
            if (disc)
                *disc = '\0';
            e->line = g_path_get_basename(fl);
            e->full = g_strdup_printf("%s (%s)", lines[0], fl);
            g_free(fl);
        } else if (lines[0] && lines[0][0] && strcmp(lines[0], "??") != 0) {
            e->full = g_strdup_printf("%s (%s+0x%lx)", lines[0], so_path, (unsigned long)key);
        }
        g_strfreev(lines);
    }
    g_free(out);
    if (!e->full)
        e->full = g_strdup_printf("%s+0x%lx", so_path, (unsigned long)key);
}

static GHashTable *cache(void) {
    if (!g_cache)
        g_cache = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, entry_free);
    return g_cache;
}

static sym_entry *lookup(const void *addr, bool is_return) {
    uintptr_t a = (uintptr_t)addr - (is_return ? 1 : 0);
    int r = image_of((const void *)a);
    uintptr_t key = r >= 0 ? a - sched_image_bias(r) : a;
    sym_entry *e = g_hash_table_lookup(cache(), (gpointer)key);
    if (e)
        return e;
    e = g_new0(sym_entry, 1);
    if (r >= 0) {
        addr2line(e, sched_program_path(), key);
    } else {
        Dl_info info;
        if (dladdr((const void *)a, &info) && info.dli_sname)
            e->full =
                g_strdup_printf("%s (%s)", info.dli_sname, info.dli_fname ? info.dli_fname : "?");
        else
            e->full = g_strdup_printf("%p", (const void *)a);
    }
    g_hash_table_insert(g_cache, (gpointer)key, e);
    return e;
}

const char *sched_symbolize_offset(const char *so_path, uintptr_t offset, bool is_return) {
    uintptr_t key = offset - (is_return ? 1 : 0);
    sym_entry *e = g_hash_table_lookup(cache(), (gpointer)key);
    if (!e) {
        e = g_new0(sym_entry, 1);
        addr2line(e, so_path, key);
        g_hash_table_insert(g_cache, (gpointer)key, e);
    }
    return e->line;
}

const char *sched_symbolize(const void *addr, bool is_return) {
    return lookup(addr, is_return)->full;
}

const char *sched_symbolize_line(const void *addr, bool is_return) {
    return lookup(addr, is_return)->line;
}

void sched_symbolize_reset(void) {
    if (g_cache)
        g_hash_table_destroy(g_cache);
    g_cache = NULL;
}
