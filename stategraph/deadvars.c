/*
 * deadvars.c - dead block-scope variables from the program's DWARF (see
 * deadvars.h).
 *
 * For a call site, the scopes containing it (dwarf_getscopes) are live; every
 * other lexical block or inlined call of the same function is dead, and so
 * are its variables.  A variable counts when its location is one
 * DW_OP_fbreg and the function's frame base is DW_OP_call_frame_cfa, as GCC
 * emits for variables kept in memory; anything else (registers, location
 * lists) is simply not left out, which is always safe.  Compilers share
 * stack slots between variables of disjoint blocks, so the live variables'
 * bytes are taken away from the dead ones.
 */
#include "stategraph/deadvars.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/debuginfo.h"
#include "scheduler/sched.h"

static const sched_debuginfo *g_info; /* the program's, shared (held for good) */
static bool g_opened;
static GHashTable *g_cache; /* pc -> GArray of sg_frame_range */

static Dwarf *program_dwarf(void) {
    if (!g_opened) {
        g_opened = true;
        const char *path = sched_program_path();
        if (path)
            g_info = sched_debuginfo_ref(path);
    }
    return g_info ? g_info->dw : NULL; /* no DWARF: nothing is dead */
}

void sg_deadvars_open(void) {
    (void)program_dwarf();
}

/* A single-operation location expression's operation, or -1. */
static int single_op(Dwarf_Die *die, unsigned name, Dwarf_Sword *number) {
    Dwarf_Attribute attr;
    Dwarf_Op *ops;
    size_t n;
    if (!dwarf_attr(die, name, &attr) || dwarf_getlocation(&attr, &ops, &n) != 0 || n != 1)
        return -1;
    *number = (Dwarf_Sword)ops[0].number;
    return ops[0].atom;
}

static bool variable_range(Dwarf_Die *var, sg_frame_range *out) {
    Dwarf_Sword off;
    if (single_op(var, DW_AT_location, &off) != DW_OP_fbreg)
        return false;
    Dwarf_Attribute attr;
    Dwarf_Die type;
    Dwarf_Word size;
    if (!dwarf_attr_integrate(var, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type) ||
        dwarf_aggregate_size(&type, &size) != 0 || size == 0)
        return false;
    out->off = off;
    out->len = size;
    return true;
}

static bool on_chain(Dwarf_Die *die, const Dwarf_Die *chain, int n) {
    Dwarf_Off o = dwarf_dieoffset(die);
    for (int i = 0; i < n; i++)
        if (dwarf_dieoffset((Dwarf_Die *)&chain[i]) == o)
            return true;
    return false;
}

/* Where the call is in the source. */
typedef struct call_site {
    const Dwarf_Die *chain; /* scopes containing it, innermost first */
    int n;
    const char *file; /* NULL: do not use declaration order */
    int line;
} call_site;

/* A variable of a block containing the call, declared after it, has not been
 * reached in this execution of the block (each execution of a block, each
 * loop iteration for a loop body, makes new objects whose values are
 * indeterminate until their declaration is reached: C11 6.2.4p6).  Only a
 * backward goto inside the block could come back to the call after the
 * declaration with the same objects, so functions with labels are left out
 * (see has_label). */
static bool declared_after(Dwarf_Die *var, const call_site *at) {
    int line;
    const char *file = dwarf_decl_file(var);
    return at->file && file && dwarf_decl_line(var, &line) == 0 && line > at->line &&
           strcmp(file, at->file) == 0;
}

/* Sorts the variables under die into live and dead; `live` says whether
 * die itself contains the call. */
static void collect(Dwarf_Die *die, bool live, const call_site *at, GArray *live_out,
                    GArray *dead_out) {
    Dwarf_Die child;
    if (dwarf_child(die, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        sg_frame_range r;
        if (tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) {
            bool unreached = tag == DW_TAG_variable && declared_after(&child, at);
            if (variable_range(&child, &r))
                g_array_append_val(live && !unreached ? live_out : dead_out, r);
        } else if (tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) {
            collect(&child, live && on_chain(&child, at->chain, at->n), at, live_out, dead_out);
        }
    } while (dwarf_siblingof(&child, &child) == 0);
}

static gint by_offset(gconstpointer a, gconstpointer b) {
    const sg_frame_range *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int64_t range_end(const sg_frame_range *r) {
    return r->off + (int64_t)r->len;
}

/* Sorts ranges and joins those that overlap or touch, in place. */
static void normalise(GArray *ranges) {
    g_array_sort(ranges, by_offset);
    guint k = 0;
    for (guint i = 0; i < ranges->len; i++) {
        sg_frame_range r = g_array_index(ranges, sg_frame_range, i);
        sg_frame_range *last = k ? &g_array_index(ranges, sg_frame_range, k - 1) : NULL;
        if (last && r.off <= range_end(last))
            last->len = (uint64_t)(MAX(range_end(last), range_end(&r)) - last->off);
        else
            g_array_index(ranges, sg_frame_range, k++) = r;
    }
    g_array_set_size(ranges, k);
}

/* dead minus live, as sorted disjoint ranges: one sweep over both. */
static GArray *subtract(GArray *dead, GArray *live) {
    normalise(dead);
    normalise(live);
    GArray *out = g_array_new(FALSE, FALSE, sizeof(sg_frame_range));
    guint j = 0;
    for (guint i = 0; i < dead->len; i++) {
        const sg_frame_range *d = &g_array_index(dead, sg_frame_range, i);
        int64_t lo = d->off, hi = range_end(d);
        while (j < live->len && range_end(&g_array_index(live, sg_frame_range, j)) <= lo)
            j++;
        for (guint k = j; k < live->len; k++) {
            const sg_frame_range *l = &g_array_index(live, sg_frame_range, k);
            if (l->off >= hi)
                break;
            if (l->off > lo) {
                sg_frame_range piece = {lo, (uint64_t)(l->off - lo)};
                g_array_append_val(out, piece);
            }
            lo = MAX(lo, range_end(l));
        }
        if (lo < hi) {
            sg_frame_range piece = {lo, (uint64_t)(hi - lo)};
            g_array_append_val(out, piece);
        }
    }
    return out;
}

/* Whether the function has a goto label anywhere. */
static bool has_label(Dwarf_Die *die) {
    Dwarf_Die child;
    if (dwarf_child(die, &child) != 0)
        return false;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_label)
            return true;
        if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) && has_label(&child))
            return true;
    } while (dwarf_siblingof(&child, &child) == 0);
    return false;
}

/* NULL when pc is not in the program's code (as far as its DWARF tells). */
static GArray *analyse(uintptr_t pc) {
    Dwarf *dw = program_dwarf();
    Dwarf_Die cu, *scopes = NULL;
    if (!dw || !dwarf_addrdie(dw, pc, &cu))
        return NULL;
    GArray *none = g_array_new(FALSE, FALSE, sizeof(sg_frame_range));
    int n = dwarf_getscopes(&cu, pc, &scopes);
    int sub = -1;
    for (int i = 0; i < n && sub < 0; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
            sub = i;
    Dwarf_Sword unused;
    if (sub < 0 || single_op(&scopes[sub], DW_AT_frame_base, &unused) != DW_OP_call_frame_cfa) {
        free(scopes);
        return none;
    }
    GArray *live = g_array_new(FALSE, FALSE, sizeof(sg_frame_range));
    GArray *dead = g_array_new(FALSE, FALSE, sizeof(sg_frame_range));
    call_site at = {scopes, sub, NULL, 0};
    Dwarf_Line *src = dwarf_getsrc_die(&cu, pc);
    if (src && dwarf_lineno(src, &at.line) == 0 && !has_label(&scopes[sub]))
        at.file = dwarf_linesrc(src, NULL, NULL);
    collect(&scopes[sub], true, &at, live, dead);
    GArray *out = subtract(dead, live);
    g_array_free(live, TRUE);
    g_array_free(dead, TRUE);
    g_array_free(none, TRUE);
    free(scopes);
    return out;
}

static void free_ranges(gpointer p) {
    if (p)
        g_array_free(p, TRUE);
}

const GArray *sg_dead_frame_ranges(uintptr_t pc) {
    if (!g_cache)
        g_cache = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_ranges);
    gpointer r;
    if (!g_hash_table_lookup_extended(g_cache, GSIZE_TO_POINTER(pc), NULL, &r)) {
        r = analyse(pc);
        g_hash_table_insert(g_cache, GSIZE_TO_POINTER(pc), r);
    }
    return r;
}
