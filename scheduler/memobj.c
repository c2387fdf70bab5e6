/*
 * memobj.c - memory objects of a rank: heap blocks, the program's globals
 * and the locals of live frames (see memobj.h).
 *
 * Locals.  A frame is found by unwinding from the pending call with the
 * call frame information (.eh_frame, else .debug_frame): at each return
 * address the rule gives the canonical frame address (CFA) from the stack
 * or frame pointer, and where the caller's return address and frame pointer
 * were saved.  The variables of a frame are those of the scopes that contain
 * the call (dwarf_getscopes), with the location their DWARF gives at that
 * PC: an offset from the frame base (DW_OP_fbreg, the frame base being the
 * CFA as GCC emits it) or from rsp/rbp.  A one-dimensional VLA is found
 * through the two slots GCC keeps for it in the frame (the address of its
 * elements and its upper bound), read at the lookup; its elements have no
 * checked C type.  Variables held in registers (which cannot be passed by
 * address anyway), VLAs of more dimensions and alloca'd memory are no
 * objects.
 *
 * C types are digested into a small tree (sched_ctype): scalars with their
 * class and size, arrays (dimensions flattened), structs with their
 * members' offsets, and unions and everything else as untyped.  Typedefs
 * keep their name for reports; qualifiers are dropped.
 */
#include "scheduler/memobj.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <glib.h>
#include <string.h>

#include "scheduler/arena.h"
#include "scheduler/debuginfo.h"
#include "scheduler/sched.h"
#include "scheduler/symbolize.h"

/* ---------------------------------------------------------------------- */
/* The program's debug information                                         */

typedef enum ct_kind { CT_SCALAR, CT_ARRAY, CT_STRUCT, CT_UNION, CT_OTHER } ct_kind;

typedef struct ct_member {
    size_t off;
    const sched_ctype *type;
    const char *name; /* NULL for an anonymous member */
    bool bitfield;
} ct_member;

struct sched_ctype {
    ct_kind kind;
    bool sized; /* size is known */
    size_t size;
    const char *name;
    sched_cclass cls;        /* CT_SCALAR */
    const sched_ctype *elem; /* CT_ARRAY: the element (never an array) */
    size_t count;            /* CT_ARRAY: elements, all dimensions together */
    ct_member *members;      /* CT_STRUCT, by offset */
    guint nmembers;
    bool alias; /* a typedef's or qualifier's copy: members are the named type's */
};

/* A global or static variable. */
typedef struct gvar {
    uintptr_t addr; /* file address */
    size_t size;
    const char *name, *file;
    int line;
    const sched_ctype *type;
} gvar;

/* How a local is located in its frame. */
enum { LOC_CFA, LOC_SP, LOC_FP };

typedef struct lvar {
    int base; /* LOC_* */
    int64_t off;
    size_t size;
    /* A VLA: at base + off lies the address of its elements, and at
     * ub_base + ub_off its upper bound (a size_t); elem bytes each. */
    bool vla;
    int ub_base;
    int64_t ub_off;
    size_t elem;
    const char *name, *file;
    int line;
    const sched_ctype *type;
} lvar;

/* The locals of the frame a call at one PC is made from. */
typedef struct frame_vars {
    const char *func;
    GArray *vars; /* lvar */
} frame_vars;

/* The unwinding rule at one PC (x86-64 DWARF registers: 6 rbp, 7 rsp). */
typedef struct unwind_rule {
    bool ok;
    int cfa_reg; /* 6 or 7 */
    int64_t cfa_off;
    int64_t ra_off; /* the return address is saved at CFA + ra_off */
    int fp_how;     /* FP_SAME, FP_SAVED (at CFA + fp_off), FP_LOST */
    int64_t fp_off;
} unwind_rule;
enum { FP_SAME, FP_SAVED, FP_LOST };

static struct {
    bool opened;
    char *path;                  /* the program read */
    const sched_debuginfo *info; /* its ELF and DWARF, shared (debuginfo.h) */
    Elf *elf;                    /* info's */
    Dwarf *dw;                   /* info's */
    Dwarf_CFI *cfi_eh;           /* from the ELF's .eh_frame: dwarf_cfi_end */
    Dwarf_CFI *cfi_dbg;          /* from .debug_frame: the Dwarf's */
    uintptr_t text_lo, text_hi;  /* file addresses of the executable segment */
    GHashTable *types;           /* DIE offset -> sched_ctype */
    GArray *globals;             /* gvar, by address; NULL until built */
    GHashTable *frames;          /* file PC -> frame_vars (NULL value: none) */
    GHashTable *rules;           /* file PC -> unwind_rule */
    GStringChunk *strings;
} g;

static const char *intern(const char *s) {
    if (!s)
        return NULL;
    if (!g.strings)
        g.strings = g_string_chunk_new(4096);
    return g_string_chunk_insert_const(g.strings, s);
}

static void open_program(void) {
    if (g.opened)
        return;
    g.opened = true;
    g.path = g_strdup(sched_program_path());
    g.types = g_hash_table_new(g_direct_hash, g_direct_equal);
    g.frames = g_hash_table_new(g_direct_hash, g_direct_equal);
    g.rules = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    const char *path = sched_program_path();
    if (!path)
        return;
    g.info = sched_debuginfo_ref(path);
    g.elf = g.info->elf;
    if (!g.elf)
        return;
    size_t nph = 0;
    elf_getphdrnum(g.elf, &nph);
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(g.elf, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
            g.text_lo = ph.p_vaddr;
            g.text_hi = ph.p_vaddr + ph.p_memsz;
        }
    }
    g.dw = g.info->dw;
    g.cfi_eh = dwarf_getcfi_elf(g.elf);
    if (g.dw)
        g.cfi_dbg = dwarf_getcfi(g.dw);
}

static void open_on_side(void *unused) {
    open_program();
}

/* Whether what was read is still the program's: a process may run one
 * program after another (tests do). */
static void same_program(void) {
    const char *now = sched_program_path();
    if (g.opened && g_strcmp0(now, g.path) != 0)
        sched_memobj_reset();
}

void sched_memobj_open(void) {
    same_program();
    if (!g.opened)
        sched_on_side_stack(open_on_side, NULL);
}

static void free_frame(gpointer p) {
    frame_vars *f = p;
    if (f) {
        g_array_free(f->vars, TRUE);
        g_free(f);
    }
}

static void free_type(gpointer p) {
    sched_ctype *t = p;
    if (!t->alias)
        g_free(t->members);
    g_free(t);
}

void sched_memobj_reset(void) {
    if (g.frames) {
        GHashTableIter it;
        gpointer v;
        g_hash_table_iter_init(&it, g.frames);
        while (g_hash_table_iter_next(&it, NULL, &v))
            free_frame(v);
        g_hash_table_destroy(g.frames);
    }
    if (g.types) {
        /* Typedef copies share members with what they name: free each
         * distinct object once. */
        GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
        GHashTableIter it;
        gpointer v;
        g_hash_table_iter_init(&it, g.types);
        while (g_hash_table_iter_next(&it, NULL, &v))
            g_hash_table_add(seen, v);
        g_hash_table_iter_init(&it, seen);
        while (g_hash_table_iter_next(&it, &v, NULL))
            free_type(v);
        g_hash_table_destroy(seen);
        g_hash_table_destroy(g.types);
    }
    if (g.rules)
        g_hash_table_destroy(g.rules);
    if (g.globals)
        g_array_free(g.globals, TRUE);
    if (g.cfi_eh)
        dwarf_cfi_end(g.cfi_eh);
    sched_debuginfo_unref(g.info); /* after the CFI, which reads from it */
    g_free(g.path);
    if (g.strings)
        g_string_chunk_free(g.strings);
    memset(&g, 0, sizeof g);
}

/* ---------------------------------------------------------------------- */
/* C types                                                                 */

static bool die_type(Dwarf_Die *die, Dwarf_Die *out) {
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, out);
}

static bool die_udata(Dwarf_Die *die, unsigned name, Dwarf_Word *out) {
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, name, &attr) && dwarf_formudata(&attr, out) == 0;
}

static const char *die_name(Dwarf_Die *die) {
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, DW_AT_name, &attr) ? dwarf_formstring(&attr) : NULL;
}

static sched_ctype *new_type(ct_kind kind, const char *name) {
    sched_ctype *t = g_new0(sched_ctype, 1);
    t->kind = kind;
    t->name = intern(name);
    return t;
}

static const sched_ctype *digest_type(Dwarf_Die *die, int depth);

static sched_cclass scalar_class(Dwarf_Word enc) {
    switch (enc) {
    case DW_ATE_signed:
        return SCHED_CC_SIGNED;
    case DW_ATE_unsigned:
        return SCHED_CC_UNSIGNED;
    case DW_ATE_signed_char:
    case DW_ATE_unsigned_char:
        return SCHED_CC_CHAR;
    case DW_ATE_float:
        return SCHED_CC_FLOAT;
    case DW_ATE_complex_float:
        return SCHED_CC_COMPLEX;
    case DW_ATE_boolean:
        return SCHED_CC_BOOL;
    default:
        return SCHED_CC_NONE;
    }
}

/* A constant bound or count of a subrange; false for a VLA's (an
 * expression or a variable) and when there is none. */
static bool subrange_value(Dwarf_Die *die, unsigned name, Dwarf_Sword *out) {
    Dwarf_Attribute attr;
    if (!dwarf_attr(die, name, &attr))
        return false;
    switch (dwarf_whatform(&attr)) {
    case DW_FORM_data1:
    case DW_FORM_data2:
    case DW_FORM_data4:
    case DW_FORM_data8:
    case DW_FORM_udata: {
        Dwarf_Word w;
        if (dwarf_formudata(&attr, &w) != 0 || w > (Dwarf_Word)INT64_MAX)
            return false;
        *out = (Dwarf_Sword)w;
        return true;
    }
    case DW_FORM_sdata:
    case DW_FORM_implicit_const:
        return dwarf_formsdata(&attr, out) == 0;
    default:
        return false;
    }
}

/* An array: its dimensions multiply into one count of its element type. */
static sched_ctype *digest_array(Dwarf_Die *die, int depth) {
    Dwarf_Die et;
    const sched_ctype *elem = die_type(die, &et) ? digest_type(&et, depth + 1) : NULL;
    sched_ctype *t = new_type(CT_ARRAY, NULL);
    GString *dims = g_string_new(NULL);
    size_t count = 1;
    bool known = elem != NULL;
    Dwarf_Die child;
    if (dwarf_child(die, &child) == 0) {
        do {
            if (dwarf_tag(&child) != DW_TAG_subrange_type)
                continue;
            Dwarf_Sword n, ub;
            if (subrange_value(&child, DW_AT_count, &n)) {
                /* n as is */
            } else if (subrange_value(&child, DW_AT_upper_bound, &ub)) {
                n = ub + 1; /* C arrays start at 0; [0] has the bound -1 */
            } else {
                n = -1; /* [] or a VLA */
            }
            if (n < 0) {
                known = false;
                g_string_append(dims, "[]");
            } else {
                g_string_append_printf(dims, "[%lld]", (long long)n);
                if (__builtin_mul_overflow(count, (size_t)n, &count))
                    known = false;
            }
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    char *name = g_strdup_printf("%s%s", elem && elem->name ? elem->name : "?", dims->str);
    t->name = intern(name);
    g_free(name);
    g_string_free(dims, TRUE);
    /* An array of arrays (through a typedef) keeps its elements flat. */
    if (elem && elem->kind == CT_ARRAY) {
        if (!elem->sized || __builtin_mul_overflow(count, elem->count, &count))
            known = false;
        elem = elem->elem;
    }
    t->elem = elem;
    t->count = count;
    t->sized = known && elem && elem->sized;
    if (t->sized && __builtin_mul_overflow(count, elem->size, &t->size))
        t->sized = false;
    return t;
}

static gint member_cmp(gconstpointer a, gconstpointer b) {
    const ct_member *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

static sched_ctype *digest_struct(Dwarf_Die *die, int depth, const char *what) {
    const char *tag = die_name(die);
    char *name = g_strdup_printf("%s %s", what, tag ? tag : "<anonymous>");
    sched_ctype *t = new_type(CT_STRUCT, name);
    g_free(name);
    Dwarf_Word size;
    Dwarf_Attribute attr;
    if (dwarf_attr_integrate(die, DW_AT_declaration, &attr) ||
        !die_udata(die, DW_AT_byte_size, &size))
        return t; /* incomplete: unsized, untyped */
    t->sized = true;
    t->size = size;
    GArray *ms = g_array_new(FALSE, FALSE, sizeof(ct_member));
    bool ok = true;
    Dwarf_Die child;
    if (dwarf_child(die, &child) == 0) {
        do {
            if (dwarf_tag(&child) != DW_TAG_member)
                continue;
            ct_member m = {0};
            Dwarf_Word off;
            Dwarf_Die mt;
            if (!die_udata(&child, DW_AT_data_member_location, &off)) {
                ok = false; /* a location expression (virtual bases): not C */
                break;
            }
            m.off = off;
            m.name = intern(die_name(&child));
            m.bitfield = dwarf_hasattr(&child, DW_AT_bit_size);
            m.type = die_type(&child, &mt) ? digest_type(&mt, depth + 1) : NULL;
            if (!m.type || !m.type->sized)
                m.bitfield = true; /* untyped bytes, e.g. a flexible array member */
            g_array_append_val(ms, m);
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    if (!ok) {
        g_array_free(ms, TRUE);
        t->kind = CT_OTHER;
        return t;
    }
    g_array_sort(ms, member_cmp);
    t->nmembers = ms->len;
    t->members = (ct_member *)(void *)g_array_free(ms, FALSE);
    return t;
}

static const sched_ctype *digest_type(Dwarf_Die *die, int depth) {
    Dwarf_Off key = dwarf_dieoffset(die);
    sched_ctype *t = g_hash_table_lookup(g.types, GSIZE_TO_POINTER(key));
    if (t)
        return t;
    if (depth > 64)
        return NULL;
    Dwarf_Die inner;
    Dwarf_Word size = 0;
    switch (dwarf_tag(die)) {
    case DW_TAG_base_type: {
        Dwarf_Word enc = 0;
        die_udata(die, DW_AT_encoding, &enc);
        t = new_type(CT_SCALAR, die_name(die));
        t->cls = scalar_class(enc);
        t->sized = die_udata(die, DW_AT_byte_size, &size);
        t->size = size;
        if (t->cls == SCHED_CC_NONE)
            t->kind = CT_OTHER;
        break;
    }
    case DW_TAG_enumeration_type:
        t = new_type(CT_SCALAR, NULL);
        {
            const char *tag = die_name(die);
            char *name = g_strdup_printf("enum %s", tag ? tag : "<anonymous>");
            t->name = intern(name);
            g_free(name);
        }
        t->cls = SCHED_CC_ENUM;
        t->sized = die_udata(die, DW_AT_byte_size, &size);
        t->size = size;
        break;
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type: {
        const sched_ctype *to = die_type(die, &inner) ? digest_type(&inner, depth + 1) : NULL;
        char *name = g_strdup_printf("%s *", to && to->name ? to->name : "void");
        t = new_type(CT_SCALAR, name);
        g_free(name);
        t->cls = SCHED_CC_POINTER;
        t->sized = true;
        t->size = die_udata(die, DW_AT_byte_size, &size) ? size : sizeof(void *);
        break;
    }
    case DW_TAG_typedef: {
        const sched_ctype *to = die_type(die, &inner) ? digest_type(&inner, depth + 1) : NULL;
        t = new_type(CT_OTHER, die_name(die));
        if (to) {
            const char *name = t->name;
            *t = *to; /* the members, if any, stay the named type's */
            t->name = name;
            t->alias = true;
        }
        break;
    }
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type: {
        const sched_ctype *to = die_type(die, &inner) ? digest_type(&inner, depth + 1) : NULL;
        t = new_type(CT_OTHER, to && to->name ? to->name : NULL);
        if (to) {
            const char *name = t->name;
            *t = *to;
            t->name = name;
            t->alias = true;
        }
        break;
    }
    case DW_TAG_array_type:
        t = digest_array(die, depth);
        break;
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
        t = digest_struct(die, depth, "struct");
        break;
    case DW_TAG_union_type: {
        const char *tag = die_name(die);
        char *name = g_strdup_printf("union %s", tag ? tag : "<anonymous>");
        t = new_type(CT_UNION, name);
        g_free(name);
        t->sized = die_udata(die, DW_AT_byte_size, &size);
        t->size = size;
        break;
    }
    default:
        t = new_type(CT_OTHER, die_name(die));
        t->sized = die_udata(die, DW_AT_byte_size, &size);
        t->size = size;
        break;
    }
    g_hash_table_insert(g.types, GSIZE_TO_POINTER(key), t);
    return t;
}

const char *sched_ctype_name(const sched_ctype *t) {
    return t && t->name ? t->name : "?";
}

sched_ctype_where sched_ctype_at(const sched_ctype *t, size_t off, sched_cscalar *out) {
    size_t base = 0;
    for (int depth = 0; t && depth < 64; depth++) {
        if (t->sized && off >= t->size)
            return depth == 0 ? SCHED_CT_OUTSIDE : SCHED_CT_PADDING;
        switch (t->kind) {
        case CT_SCALAR:
            if (!t->sized || t->cls == SCHED_CC_CHAR)
                return SCHED_CT_UNTYPED; /* chars are raw storage */
            out->cls = t->cls;
            out->size = t->size;
            out->start = base;
            out->run_end = base + t->size;
            out->name = t->name;
            return SCHED_CT_SCALAR;
        case CT_ARRAY: {
            const sched_ctype *e = t->elem;
            if (!t->sized || !e || !e->size)
                return SCHED_CT_UNTYPED;
            size_t i = off / e->size;
            if (i >= t->count)
                return SCHED_CT_PADDING;
            if (e->kind == CT_SCALAR) {
                if (!e->sized || e->cls == SCHED_CC_CHAR)
                    return SCHED_CT_UNTYPED;
                out->cls = e->cls;
                out->size = e->size;
                out->start = base + i * e->size;
                out->run_end = base + t->count * e->size;
                out->name = e->name;
                return SCHED_CT_SCALAR;
            }
            base += i * e->size;
            off -= i * e->size;
            t = e;
            break;
        }
        case CT_STRUCT: {
            if (!t->sized)
                return SCHED_CT_UNTYPED;
            const ct_member *m = NULL;
            for (guint k = 0; k < t->nmembers; k++) {
                const ct_member *c = &t->members[k];
                if (c->off > off)
                    break;
                if (c->type && c->type->sized && off < c->off + c->type->size)
                    m = c;
                else if (c->bitfield && (!m || m->off < c->off))
                    m = c; /* bit-fields: the bytes from it on are untyped */
            }
            if (!m)
                return SCHED_CT_PADDING;
            if (m->bitfield)
                return SCHED_CT_UNTYPED;
            base += m->off;
            off -= m->off;
            t = m->type;
            break;
        }
        default:
            return SCHED_CT_UNTYPED;
        }
    }
    return SCHED_CT_UNTYPED;
}

char *sched_ctype_path(const sched_ctype *t, const char *name, size_t off) {
    GString *s = g_string_new(name ? name : "");
    for (int depth = 0; t && depth < 64; depth++) {
        if (t->kind == CT_ARRAY && t->elem && t->elem->size) {
            size_t i = off / t->elem->size;
            g_string_append_printf(s, "[%zu]", i);
            off -= i * t->elem->size;
            t = t->elem;
        } else if (t->kind == CT_STRUCT) {
            const ct_member *m = NULL;
            for (guint k = 0; k < t->nmembers; k++) {
                const ct_member *c = &t->members[k];
                if (c->off > off)
                    break;
                if (c->type && c->type->sized && off < c->off + c->type->size)
                    m = c;
            }
            if (!m)
                break;
            g_string_append_printf(s, ".%s", m->name ? m->name : "<anonymous>");
            off -= m->off;
            t = m->type;
        } else {
            break;
        }
    }
    return g_string_free(s, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Variables                                                               */

static const char *decl_file(Dwarf_Die *die) {
    const char *f = dwarf_decl_file(die);
    if (!f)
        return NULL;
    const char *slash = strrchr(f, '/');
    return intern(slash ? slash + 1 : f);
}

static int decl_line(Dwarf_Die *die) {
    int line = 0;
    return dwarf_decl_line(die, &line) == 0 ? line : 0;
}

/* The size and digested type of a variable; false when it has none that
 * fixes its size. */
static bool var_type(Dwarf_Die *var, const sched_ctype **type, size_t *size) {
    Dwarf_Die td;
    if (!die_type(var, &td))
        return false;
    const sched_ctype *t = digest_type(&td, 0);
    if (!t || !t->sized || t->size == 0)
        return false;
    *type = t;
    *size = t->size;
    return true;
}

static void add_global(Dwarf_Die *die) {
    Dwarf_Attribute attr;
    Dwarf_Op *ops;
    size_t n;
    if (!dwarf_attr(die, DW_AT_location, &attr) || dwarf_getlocation(&attr, &ops, &n) != 0 ||
        n != 1 || ops[0].atom != DW_OP_addr)
        return; /* a declaration, thread-local, or optimised away */
    gvar v = {0};
    v.addr = (uintptr_t)ops[0].number;
    if (!var_type(die, &v.type, &v.size))
        return;
    v.name = intern(die_name(die));
    v.file = decl_file(die);
    v.line = decl_line(die);
    g_array_append_val(g.globals, v);
}

/* Variables with a static address anywhere under die (statics of functions
 * and blocks included); types hold none. */
static void scan_globals(Dwarf_Die *die, int depth) {
    Dwarf_Die child;
    if (depth > 32 || dwarf_child(die, &child) != 0)
        return;
    do {
        switch (dwarf_tag(&child)) {
        case DW_TAG_variable:
            add_global(&child);
            break;
        case DW_TAG_subprogram:
        case DW_TAG_lexical_block:
        case DW_TAG_inlined_subroutine:
        case DW_TAG_namespace:
            scan_globals(&child, depth + 1);
            break;
        default:
            break;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
}

static gint gvar_cmp(gconstpointer a, gconstpointer b) {
    const gvar *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void build_globals(void *unused) {
    open_program();
    g.globals = g_array_new(FALSE, FALSE, sizeof(gvar));
    if (!g.dw)
        return;
    Dwarf_Off off = 0, next;
    size_t header;
    while (dwarf_nextcu(g.dw, off, &next, &header, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(g.dw, off + header, &cu))
            scan_globals(&cu, 0);
        off = next;
    }
    g_array_sort(g.globals, gvar_cmp);
}

static const gvar *find_global(uintptr_t faddr) {
    if (!g.globals)
        sched_on_side_stack(build_globals, NULL);
    /* The last variable starting at or before faddr. */
    guint lo = 0, hi = g.globals->len;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(g.globals, gvar, mid).addr <= faddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const gvar *v = &g_array_index(g.globals, gvar, lo - 1);
    return faddr < v->addr + v->size ? v : NULL;
}

/* The compilation unit holding pc, also when .debug_aranges leaves it out. */
static bool unit_of(Dwarf_Addr pc, Dwarf_Die *cu) {
    if (dwarf_addrdie(g.dw, pc, cu))
        return true;
    Dwarf_Off off = 0, next;
    size_t header;
    while (dwarf_nextcu(g.dw, off, &next, &header, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(g.dw, off + header, cu) && dwarf_haspc(cu, pc) > 0)
            return true;
        off = next;
    }
    return false;
}

/* How a frame base expression locates: the CFA, or a register plus an
 * offset. */
static bool frame_base(Dwarf_Die *sub, int *base, int64_t *off) {
    Dwarf_Attribute attr;
    Dwarf_Op *ops;
    size_t n;
    if (!dwarf_attr_integrate(sub, DW_AT_frame_base, &attr) ||
        dwarf_getlocation(&attr, &ops, &n) != 0 || n != 1)
        return false;
    if (ops[0].atom == DW_OP_call_frame_cfa) {
        *base = LOC_CFA;
        *off = 0;
        return true;
    }
    if (ops[0].atom == DW_OP_breg6 || ops[0].atom == DW_OP_breg7) {
        *base = ops[0].atom == DW_OP_breg6 ? LOC_FP : LOC_SP;
        *off = (int64_t)ops[0].number;
        return true;
    }
    return false;
}

/* A slot of the frame that one operation locates (DW_OP_fbreg, or rbp or
 * rsp plus an offset); false for anything else. */
static bool frame_slot(const Dwarf_Op *op, bool have_fb, int fb_base, int64_t fb_off, int *base,
                       int64_t *off) {
    switch (op->atom) {
    case DW_OP_fbreg:
        if (!have_fb)
            return false;
        *base = fb_base;
        *off = fb_off + (int64_t)op->number;
        return true;
    case DW_OP_breg6:
        *base = LOC_FP;
        *off = (int64_t)op->number;
        return true;
    case DW_OP_breg7:
        *base = LOC_SP;
        *off = (int64_t)op->number;
        return true;
    default:
        return false;
    }
}

/* A one-dimensional VLA whose elements' address GCC keeps in a slot of the
 * frame (the variable's location: the slot, then DW_OP_deref) and whose
 * upper bound is the value of another slot (the subrange's bound: a slot
 * and DW_OP_deref): v gets the bound's slot and the element size. */
static bool vla_bound(Dwarf_Die *var, bool have_fb, int fb_base, int64_t fb_off, lvar *v) {
    Dwarf_Die at, elem, sub;
    Dwarf_Word esize;
    if (!die_type(var, &at) || dwarf_tag(&at) != DW_TAG_array_type || !die_type(&at, &elem) ||
        dwarf_aggregate_size(&elem, &esize) != 0 || esize == 0 || dwarf_child(&at, &sub) != 0 ||
        dwarf_tag(&sub) != DW_TAG_subrange_type)
        return false;
    Dwarf_Die next = sub;
    if (dwarf_siblingof(&next, &next) == 0) /* two dimensions or more */
        return false;
    Dwarf_Attribute attr;
    Dwarf_Op *ops;
    size_t n;
    if (!dwarf_attr(&sub, DW_AT_upper_bound, &attr) || dwarf_whatform(&attr) != DW_FORM_exprloc ||
        dwarf_getlocation(&attr, &ops, &n) != 0 || n != 2 || ops[1].atom != DW_OP_deref ||
        !frame_slot(&ops[0], have_fb, fb_base, fb_off, &v->ub_base, &v->ub_off))
        return false;
    v->vla = true;
    v->elem = esize;
    /* Its name in reports ("int[]"); an array of no fixed size is untyped,
     * so its elements' C types are not checked. */
    v->type = digest_type(&at, 0);
    return true;
}

static void add_local(Dwarf_Die *var, Dwarf_Addr pc, bool have_fb, int fb_base, int64_t fb_off,
                      GArray *out) {
    Dwarf_Attribute attr;
    Dwarf_Op *expr;
    size_t len;
    if (!dwarf_attr(var, DW_AT_location, &attr) ||
        dwarf_getlocation_addr(&attr, pc, &expr, &len, 1) != 1 || len < 1 || len > 2)
        return;
    lvar v = {0};
    /* a register, a static (a global), or composed pieces are no objects */
    if (!frame_slot(&expr[0], have_fb, fb_base, fb_off, &v.base, &v.off))
        return;
    if (len == 2) {
        if (expr[1].atom != DW_OP_deref || !vla_bound(var, have_fb, fb_base, fb_off, &v))
            return;
    } else if (!var_type(var, &v.type, &v.size)) {
        return;
    }
    v.name = intern(die_name(var));
    v.file = decl_file(var);
    v.line = decl_line(var);
    g_array_append_val(out, v);
}

typedef struct frame_job {
    uintptr_t pc; /* file address inside the call instruction */
    frame_vars *out;
} frame_job;

static void build_frame(void *p) {
    frame_job *job = p;
    open_program();
    Dwarf_Die cu, *scopes = NULL;
    if (!g.dw || !unit_of(job->pc, &cu))
        return;
    int n = dwarf_getscopes(&cu, job->pc, &scopes);
    /* The concrete function: the outermost subprogram that holds the pc
     * (an inlined function's abstract scopes follow its inlined call). */
    int sub = -1;
    for (int i = 0; i < n; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram && dwarf_haspc(&scopes[i], job->pc) > 0)
            sub = i;
    if (sub < 0) {
        free(scopes);
        return;
    }
    int fb_base = 0;
    int64_t fb_off = 0;
    bool have_fb = frame_base(&scopes[sub], &fb_base, &fb_off);
    frame_vars *f = g_new0(frame_vars, 1);
    f->vars = g_array_new(FALSE, FALSE, sizeof(lvar));
    f->func = intern(die_name(&scopes[sub]));
    for (int i = 0; i <= sub; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if ((tag != DW_TAG_lexical_block && tag != DW_TAG_inlined_subroutine &&
             tag != DW_TAG_subprogram) ||
            dwarf_haspc(&scopes[i], job->pc) <= 0)
            continue;
        Dwarf_Die child;
        if (dwarf_child(&scopes[i], &child) != 0)
            continue;
        do {
            int ct = dwarf_tag(&child);
            if (ct == DW_TAG_variable || ct == DW_TAG_formal_parameter)
                add_local(&child, job->pc, have_fb, fb_base, fb_off, f->vars);
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    free(scopes);
    job->out = f;
}

static const frame_vars *frame_at(uintptr_t fpc) {
    gpointer v;
    if (g_hash_table_lookup_extended(g.frames, GSIZE_TO_POINTER(fpc), NULL, &v))
        return v;
    frame_job job = {fpc, NULL};
    sched_on_side_stack(build_frame, &job);
    g_hash_table_insert(g.frames, GSIZE_TO_POINTER(fpc), job.out);
    return job.out;
}

/* ---------------------------------------------------------------------- */
/* Unwinding                                                               */

/* A register rule's location: CFA + offset (memory, or the value itself
 * with DW_OP_stack_value). */
static bool cfa_offset_rule(const Dwarf_Op *ops, size_t n, int64_t *off, bool *value) {
    if (n < 1 || ops[0].atom != DW_OP_call_frame_cfa)
        return false;
    *off = 0;
    *value = false;
    for (size_t i = 1; i < n; i++) {
        switch (ops[i].atom) {
        case DW_OP_plus_uconst:
            *off += (int64_t)ops[i].number;
            break;
        case DW_OP_consts:
        case DW_OP_constu:
        case DW_OP_const1s:
        case DW_OP_const2s:
        case DW_OP_const4s:
        case DW_OP_const8s:
            if (i + 1 >= n || ops[i + 1].atom != DW_OP_plus)
                return false;
            *off += (int64_t)ops[i].number;
            i++;
            break;
        case DW_OP_stack_value:
            *value = true;
            break;
        default:
            return false;
        }
    }
    return true;
}

static void rule_from(Dwarf_CFI *cfi, uintptr_t fpc, unwind_rule *r) {
    Dwarf_Frame *frame = NULL;
    if (!cfi || dwarf_cfi_addrframe(cfi, fpc, &frame) != 0)
        return;
    Dwarf_Op *ops, mem[3];
    size_t n;
    int ra = dwarf_frame_info(frame, NULL, NULL, NULL);
    if (dwarf_frame_cfa(frame, &ops, &n) != 0 || n != 1 || ops[0].atom != DW_OP_bregx ||
        (ops[0].number != 6 && ops[0].number != 7))
        goto out;
    r->cfa_reg = (int)ops[0].number;
    r->cfa_off = (int64_t)ops[0].number2;
    bool value;
    if (ra < 0 || dwarf_frame_register(frame, ra, mem, &ops, &n) != 0 ||
        !cfa_offset_rule(ops, n, &r->ra_off, &value) || value)
        goto out;
    if (dwarf_frame_register(frame, 6, mem, &ops, &n) != 0) {
        r->fp_how = FP_LOST;
    } else if (n == 0) {
        r->fp_how = ops ? FP_LOST : FP_SAME;
    } else if (cfa_offset_rule(ops, n, &r->fp_off, &value) && !value) {
        r->fp_how = FP_SAVED;
    } else {
        r->fp_how = FP_LOST;
    }
    r->ok = true;
out:
    free(frame);
}

typedef struct rule_job {
    uintptr_t pc;
    unwind_rule *out;
} rule_job;

static void build_rule(void *p) {
    rule_job *job = p;
    open_program();
    rule_from(g.cfi_eh, job->pc, job->out);
    if (!job->out->ok)
        rule_from(g.cfi_dbg, job->pc, job->out);
}

static const unwind_rule *rule_at(uintptr_t fpc) {
    unwind_rule *r = g_hash_table_lookup(g.rules, GSIZE_TO_POINTER(fpc));
    if (r)
        return r;
    r = g_new0(unwind_rule, 1);
    rule_job job = {fpc, r};
    sched_on_side_stack(build_rule, &job);
    g_hash_table_insert(g.rules, GSIZE_TO_POINTER(fpc), r);
    return r;
}

/* One frame while unwinding: the return address into it, its CFA, and the
 * stack and frame pointers its code had at the call. */
typedef struct frame {
    uintptr_t pc, cfa, sp, fp;
    bool fp_known;
} frame;

typedef struct unwinder {
    int rank;
    uintptr_t bias, lo, hi; /* the program copy's bias, the rank's stack */
    frame cur;
    int index;
    bool done;
} unwinder;

static bool in_stack(const unwinder *u, uintptr_t a, size_t n) {
    return a >= u->lo && a + n <= u->hi;
}

static bool program_pc(uintptr_t fpc) {
    return fpc >= g.text_lo && fpc < g.text_hi;
}

/* Fills u->cur.cfa for the current frame; false when it cannot be known. */
static bool frame_cfa(unwinder *u, const unwind_rule **rule) {
    uintptr_t fpc = u->cur.pc - 1 - u->bias;
    if (!program_pc(fpc))
        return false;
    const unwind_rule *r = rule_at(fpc);
    if (!r->ok || (r->cfa_reg == 6 && !u->cur.fp_known))
        return false;
    u->cur.cfa = (uintptr_t)((int64_t)(r->cfa_reg == 7 ? u->cur.sp : u->cur.fp) + r->cfa_off);
    *rule = r;
    return in_stack(u, u->cur.cfa, 0);
}

static bool unwinder_start(unwinder *u, int rank, const sched_call_point *at) {
#if defined(__x86_64__)
    memset(u, 0, sizeof *u);
    uintptr_t sp;
    if (!g.elf || !at || !sched_rank_stack(rank, &u->lo, &u->hi, &sp))
        return false;
    u->rank = rank;
    u->bias = sched_image_bias(rank);
    u->cur = (frame){at->pc, 0, at->sp, at->fp, true};
    const unwind_rule *r;
    return in_stack(u, at->sp, 0) && frame_cfa(u, &r);
#else
    return false;
#endif
}

/* Moves to the caller of the current frame. */
static bool unwinder_next(unwinder *u) {
    uintptr_t fpc = u->cur.pc - 1 - u->bias;
    const unwind_rule *r = rule_at(fpc);
    uintptr_t ra_at = (uintptr_t)((int64_t)u->cur.cfa + r->ra_off);
    if (u->index >= 256 || !in_stack(u, ra_at, sizeof(uintptr_t)))
        return false;
    frame next = {*(const uintptr_t *)ra_at, 0, u->cur.cfa, 0, false};
    if (r->fp_how == FP_SAME) {
        next.fp = u->cur.fp;
        next.fp_known = u->cur.fp_known;
    } else if (r->fp_how == FP_SAVED) {
        uintptr_t fp_at = (uintptr_t)((int64_t)u->cur.cfa + r->fp_off);
        if (in_stack(u, fp_at, sizeof(uintptr_t))) {
            next.fp = *(const uintptr_t *)fp_at;
            next.fp_known = true;
        }
    }
    u->cur = next;
    u->index++;
    const unwind_rule *nr;
    return frame_cfa(u, &nr);
}

static uintptr_t slot_addr(const frame *f, int base_of, int64_t off) {
    uintptr_t base = base_of == LOC_CFA ? f->cfa : base_of == LOC_SP ? f->sp : f->fp;
    return (uintptr_t)((int64_t)base + off);
}

static uintptr_t local_addr(const frame *f, const lvar *v) {
    return slot_addr(f, v->base, v->off);
}

/* Where a VLA's elements lie now: [*start, *start + *size).  Its slots are
 * read from the frame; elements that are not between the frame's stack
 * pointer and its CFA (the slots not set yet: the call comes before the
 * declaration) make it no object. */
static bool vla_extent(const unwinder *u, const lvar *v, uintptr_t *start, size_t *size) {
    if ((v->base == LOC_FP || v->ub_base == LOC_FP) && !u->cur.fp_known)
        return false;
    uintptr_t at = local_addr(&u->cur, v), ub_at = slot_addr(&u->cur, v->ub_base, v->ub_off);
    if (!in_stack(u, at, sizeof(uintptr_t)) || !in_stack(u, ub_at, sizeof(uint64_t)))
        return false;
    uintptr_t p = *(const uintptr_t *)at;
    uint64_t ub = *(const uint64_t *)ub_at, n;
    if (ub >= (uint64_t)1 << 40 || __builtin_mul_overflow(ub + 1, (uint64_t)v->elem, &n))
        return false;
    if (p < u->cur.sp || p > u->cur.cfa || n > u->cur.cfa - p)
        return false;
    *start = p;
    *size = (size_t)n;
    return true;
}

/* The local of the current frame that holds addr, if any. */
static bool local_in_frame(const unwinder *u, uintptr_t addr, sched_obj *out) {
    const frame_vars *fv = frame_at(u->cur.pc - 1 - u->bias);
    if (!fv)
        return false;
    for (guint i = 0; i < fv->vars->len; i++) {
        const lvar *v = &g_array_index(fv->vars, lvar, i);
        if (v->base == LOC_FP && !u->cur.fp_known)
            continue;
        uintptr_t start = local_addr(&u->cur, v);
        size_t size = v->size;
        if (v->vla && !vla_extent(u, v, &start, &size))
            continue;
        if (addr >= start && addr - start < size) {
            *out = (sched_obj){SCHED_OBJ_LOCAL, start,    size,    v->name, v->file,
                               v->line,         fv->func, v->type, u->index};
            return true;
        }
    }
    return false;
}

/* ---------------------------------------------------------------------- */
/* Lookups                                                                 */

bool sched_obj_find(int rank, const sched_call_point *at, uintptr_t addr, sched_obj *out,
                    bool *freed) {
    memset(out, 0, sizeof *out);
    if (freed)
        *freed = false;
    sched_heap_block b;
    switch (sched_arena_block_of((const void *)addr, &b)) {
    case SCHED_HEAP_BLOCK:
        out->kind = SCHED_OBJ_HEAP;
        out->start = (uintptr_t)b.start;
        out->size = b.size;
        return true;
    case SCHED_HEAP_FREED:
        if (freed)
            *freed = true;
        return false;
    default:
        break;
    }
    if (sched_arena_owning((const void *)addr))
        return false;
    sched_memobj_open();
    if (!g.elf)
        return false;
    unwinder u;
    uintptr_t lo, hi, sp;
    if (sched_rank_stack(rank, &lo, &hi, &sp) && addr >= lo && addr < hi) {
        if (!at || addr < at->sp || !unwinder_start(&u, rank, at))
            return false;
        do {
            if (local_in_frame(&u, addr, out))
                return true;
        } while (unwinder_next(&u));
        return false;
    }
    uintptr_t bias = sched_image_bias(rank);
    const gvar *v = addr >= bias ? find_global(addr - bias) : NULL;
    if (!v)
        return false;
    *out = (sched_obj){SCHED_OBJ_GLOBAL, v->addr + bias, v->size, v->name, v->file,
                       v->line,          NULL,           v->type, 0};
    return true;
}

bool sched_call_point_sp_framed(int rank, const sched_call_point *at) {
#if defined(__x86_64__)
    sched_memobj_open();
    if (!g.elf || !at)
        return false;
    uintptr_t fpc = at->pc - 1 - sched_image_bias(rank);
    if (!program_pc(fpc))
        return false;
    const unwind_rule *r = rule_at(fpc);
    return r->ok && r->cfa_reg == 7;
#else
    (void)rank;
    (void)at;
    return false;
#endif
}

bool sched_obj_still(int rank, const sched_call_point *at, const sched_obj *obj) {
    switch (obj->kind) {
    case SCHED_OBJ_HEAP:
        return sched_arena_block_is((const void *)obj->start, obj->size);
    case SCHED_OBJ_GLOBAL:
        return true;
    case SCHED_OBJ_LOCAL: {
        unwinder u;
        if (!unwinder_start(&u, rank, at))
            return false;
        while (u.index < obj->frame)
            if (!unwinder_next(&u))
                return false;
        sched_obj again;
        return local_in_frame(&u, obj->start, &again) && again.start == obj->start &&
               again.size == obj->size && again.type == obj->type;
    }
    default:
        return false;
    }
}
