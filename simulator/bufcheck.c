/*
 * bufcheck.c - buffers checked against their memory objects: bounds, C
 * types and receive types that overlap themselves (see bufcheck.h).
 */
#include "simulator/bufcheck.h"

#include <string.h>

#include "scheduler/memobj.h"
#include "simulator/datatype.h"
#include "simulator/report.h"
#include "simulator/sim_internal.h"

/* ---------------------------------------------------------------------- */
/* Caches                                                                  */

/* One buffer argument at one call site, as last checked. */
typedef struct site_key {
    const void *site; /* the call's return address (each rank has its own copy) */
    const char *arg;
} site_key;

enum { SLOTS = 2 }; /* heat's alternating arrays pass through one call site */

typedef struct site_slot {
    bool used;
    const void *buf;
    uint64_t layout;     /* hash of the parts and the direction */
    sched_obj obj;       /* the object it lies in: checked, no finding */
    sched_call_point at; /* the call point it was checked at */
    bool sp_framed;      /* its frame is found from sp alone (sched_call_point_sp_framed) */
} site_slot;

typedef struct site_entry {
    site_key key;
    site_slot slot[SLOTS];
    int next; /* the slot to replace */
} site_entry;

static GHashTable *g_sites; /* site_key -> site_entry (the key inside) */
/* The arg of the target side of RMA operations in g_sites. */
static const char TARGET_ARG[] = "target_datatype";
static GHashTable *g_overlaps; /* overlap_key -> overlap_entry (the key inside) */
static GHashTable *g_warned;   /* "location|message" -> warned */

static guint site_hash(gconstpointer p) {
    const site_key *k = p;
    return g_direct_hash(k->site) * 31u + g_direct_hash(k->arg);
}

static gboolean site_equal(gconstpointer a, gconstpointer b) {
    const site_key *x = a, *y = b;
    return x->site == y->site && x->arg == y->arg;
}

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

/* ---------------------------------------------------------------------- */
/* Describing objects and accesses                                        */

static char *object_text(const sched_obj *o) {
    char *where = o->file && o->line > 0 ? g_strdup_printf(", declared at %s:%d", o->file, o->line)
                                         : g_strdup("");
    char *s;
    switch (o->kind) {
    case SCHED_OBJ_HEAP:
        s = g_strdup_printf("a heap block of %zu bytes", o->size);
        break;
    case SCHED_OBJ_LOCAL:
        s = g_strdup_printf("local variable `%s` of %s() (%s, %zu bytes%s)", o->name,
                            o->func ? o->func : "?", sched_ctype_name(o->type), o->size, where);
        break;
    default:
        s = g_strdup_printf("variable `%s` (%s, %zu bytes%s)", o->name, sched_ctype_name(o->type),
                            o->size, where);
        break;
    }
    g_free(where);
    return s;
}

/* How many times a part is laid down. */
static size_t reps(const sim_buf_part *p) {
    return p->repeat > 1 ? p->repeat : 1;
}

/* "2000 x MPI_INT", "3 blocks of MPI_DOUBLE", "3 blocks", "4 x MPI_INT, 12
 * bytes apart" */
static char *parts_text(const sim_buf_part *parts, int n) {
    int used = 0, first = -1;
    bool one_type = true;
    for (int i = 0; i < n; i++) {
        if (parts[i].count <= 0)
            continue;
        used++;
        if (first < 0)
            first = i;
        else if (parts[i].type != parts[first].type)
            one_type = false;
    }
    if (first < 0)
        return g_strdup("nothing");
    const sim_buf_part *f = &parts[first];
    if (used == 1 && reps(f) > 1 && f->count == 1)
        return g_strdup_printf("%zu x %s, %td bytes apart", reps(f), sim_dt_name(f->type),
                               (ptrdiff_t)f->stride);
    if (used == 1 && reps(f) > 1)
        return g_strdup_printf("%zu blocks of %d x %s, %td bytes apart", reps(f), f->count,
                               sim_dt_name(f->type), (ptrdiff_t)f->stride);
    if (used == 1)
        return g_strdup_printf("%d x %s", f->count, sim_dt_name(f->type));
    if (one_type)
        return g_strdup_printf("%d blocks of %s", used, sim_dt_name(f->type));
    return g_strdup_printf("%d blocks", used);
}

/* ---------------------------------------------------------------------- */
/* C types against basic types                                             */

/* What a basic MPI type stands for in C. */
typedef struct mpi_kind {
    bool any;   /* MPI_BYTE, MPI_PACKED: matches every C type */
    bool known; /* a C type of the table; false: not checked (Fortran types, ...) */
    sched_cclass cls;
    size_t size;
} mpi_kind;

static mpi_kind kind_of(MPI_Datatype b) {
    mpi_kind k = {false, true, SCHED_CC_NONE, sim_dt_basic_size(b)};
    if (b == MPI_BYTE || b == MPI_PACKED)
        k.any = true;
    else if (b == MPI_CHAR || b == MPI_SIGNED_CHAR || b == MPI_UNSIGNED_CHAR)
        k.cls = SCHED_CC_CHAR;
    else if (b == MPI_SHORT || b == MPI_INT || b == MPI_LONG || b == MPI_LONG_LONG_INT ||
             b == MPI_LONG_LONG || b == MPI_INT8_T || b == MPI_INT16_T || b == MPI_INT32_T ||
             b == MPI_INT64_T || b == MPI_WCHAR || b == MPI_AINT || b == MPI_OFFSET ||
             b == MPI_COUNT)
        k.cls = SCHED_CC_SIGNED;
    else if (b == MPI_UNSIGNED_SHORT || b == MPI_UNSIGNED || b == MPI_UNSIGNED_LONG ||
             b == MPI_UNSIGNED_LONG_LONG || b == MPI_UINT8_T || b == MPI_UINT16_T ||
             b == MPI_UINT32_T || b == MPI_UINT64_T)
        k.cls = SCHED_CC_UNSIGNED;
    else if (b == MPI_FLOAT || b == MPI_DOUBLE || b == MPI_LONG_DOUBLE)
        k.cls = SCHED_CC_FLOAT;
    else if (b == MPI_C_FLOAT_COMPLEX || b == MPI_C_COMPLEX || b == MPI_C_DOUBLE_COMPLEX ||
             b == MPI_C_LONG_DOUBLE_COMPLEX)
        k.cls = SCHED_CC_COMPLEX;
    else if (b == MPI_C_BOOL)
        k.cls = SCHED_CC_BOOL;
    else
        k.known = false;
    return k;
}

static bool compatible(const mpi_kind *k, const sched_cscalar *c) {
    if (k->any)
        return true;
    if (c->size != k->size)
        return false;
    if (c->cls == k->cls)
        return true;
    bool integer = k->cls == SCHED_CC_SIGNED || k->cls == SCHED_CC_UNSIGNED;
    /* An enum is an integer of either signedness; a pointer travels as an
     * address-sized integer (MPI_AINT). */
    return integer && (c->cls == SCHED_CC_ENUM || c->cls == SCHED_CC_POINTER);
}

/* The state of a type check over one buffer argument. */
typedef struct type_walk {
    uintptr_t base;       /* the address parts are relative to */
    const sched_obj *obj; /* the object (NULL: find one per element: MPI_BOTTOM) */
    int rank;
    const sched_call_point *at;
    sched_obj found; /* MPI_BOTTOM: the object of the last element */
    size_t element;  /* basic elements before the current run */
    size_t budget;   /* elements still worth looking at */
    char *problem;   /* the mismatch, once found */
} type_walk;

/* The article of a C type's name ("an int", "a double", "a uint64_t"). */
static const char *article(const char *name) {
    if (!name || !name[0] || g_str_has_prefix(name, "uint"))
        return "a";
    return strchr("aeiouAEIOU", name[0]) ? "an" : "a";
}

static void mismatch(type_walk *w, const sched_obj *o, MPI_Datatype basic, size_t index, size_t at,
                     sched_ctype_where where, const sched_cscalar *c) {
    char *path = sched_ctype_path(o->type, o->name, at);
    char *obj = object_text(o);
    const char *mpi = sim_dt_name(basic);
    size_t msize = sim_dt_basic_size(basic);
    char *elem = c->size != msize && where == SCHED_CT_SCALAR && c->start == at
                     ? g_strdup_printf("its element %zu, an %s of %zu byte%s", index, mpi, msize,
                                       msize == 1 ? "" : "s")
                     : g_strdup_printf("its element %zu, an %s", index, mpi);
    if (where == SCHED_CT_PADDING)
        w->problem = g_strdup_printf("%s, is byte %zu of %s: padding of `%s`", elem, at, obj, path);
    else if (c->start != at)
        w->problem = g_strdup_printf("%s, is byte %zu of %s: %zu bytes into `%s`, %s %s", elem, at,
                                     obj, at - c->start, path, article(c->name), c->name);
    else if (c->size != msize)
        w->problem =
            g_strdup_printf("%s, is byte %zu of %s: `%s`, %s %s of %zu byte%s", elem, at, obj, path,
                            article(c->name), c->name, c->size, c->size == 1 ? "" : "s");
    else
        w->problem = g_strdup_printf("%s, is byte %zu of %s: `%s`, %s %s", elem, at, obj, path,
                                     article(c->name), c->name);
    g_free(elem);
    g_free(path);
    g_free(obj);
}

static bool check_elements(MPI_Datatype basic, MPI_Aint off, size_t n, void *data) {
    type_walk *w = data;
    mpi_kind k = kind_of(basic);
    size_t index = w->element;
    w->element += n;
    if (k.any || !k.known || k.size == 0)
        return true;
    if (n > w->budget)
        return false; /* a type this large is not worth its time here */
    uintptr_t addr = w->base + (uintptr_t)off;
    for (size_t i = 0; i < n;) {
        uintptr_t a = addr + i * k.size;
        const sched_obj *o = w->obj;
        if (!o) { /* absolute addresses: the object each element is in */
            if (!(w->found.kind != SCHED_OBJ_NONE && a >= w->found.start &&
                  a - w->found.start < w->found.size) &&
                !sched_obj_find(w->rank, w->at, a, &w->found, NULL))
                w->found.kind = SCHED_OBJ_NONE;
            o = w->found.kind != SCHED_OBJ_NONE ? &w->found : NULL;
        }
        if (!o || !o->type || a < o->start) {
            i++;
            w->budget--;
            continue;
        }
        size_t at = a - o->start;
        sched_cscalar c;
        sched_ctype_where where = sched_ctype_at(o->type, at, &c);
        if (where == SCHED_CT_PADDING ||
            (where == SCHED_CT_SCALAR && (c.start != at || !compatible(&k, &c)))) {
            mismatch(w, o, basic, index + i, at, where, &c);
            return false;
        }
        size_t step = 1;
        if (where == SCHED_CT_SCALAR && c.size == k.size)
            step = MIN(n - i, (c.run_end - at) / k.size); /* the rest of an array of them */
        i += MAX(step, (size_t)1);
        w->budget -= MIN(w->budget, (size_t)1);
    }
    return true;
}

/* ---------------------------------------------------------------------- */
/* The check                                                               */

/* Bytes [lo, hi) relative to the buffer that count elements of dt touch;
 * false when none. */
static bool part_span(const sim_buf_part *p, __int128 *lo, __int128 *hi) {
    const sim_datatype *dt = p->count > 0 ? sim_dt_get(p->type) : NULL;
    if (!dt || sim_dt_size(dt) == 0)
        return false;
    __int128 ext = sim_dt_extent(dt), last = (__int128)(p->count - 1) * ext;
    __int128 tlb = sim_dt_true_lb(dt), tub = tlb + sim_dt_true_extent(dt);
    __int128 rep = (__int128)(reps(p) - 1) * p->stride;
    *lo = p->off + tlb + (last < 0 ? last : 0) + (rep < 0 ? rep : 0);
    *hi = p->off + tub + (last > 0 ? last : 0) + (rep > 0 ? rep : 0);
    return true;
}

typedef struct overlap_key {
    uint64_t serial;
    int count;
} overlap_key;

typedef struct overlap_entry {
    overlap_key key;
    bool yes;
    MPI_Aint at;
} overlap_entry;

static guint overlap_hash(gconstpointer p) {
    const overlap_key *k = p;
    return (guint)mix(k->serial, (uint64_t)k->count);
}

static gboolean overlap_equal(gconstpointer a, gconstpointer b) {
    const overlap_key *x = a, *y = b;
    return x->serial == y->serial && x->count == y->count;
}

/* sim_dt_overlaps_itself, once per type and count. */
static bool overlaps_itself(const sim_datatype *dt, int count, MPI_Aint *at) {
    overlap_key k = {sim_dt_serial(dt), count};
    overlap_entry *e = g_hash_table_lookup(g_overlaps, &k);
    if (!e) {
        e = g_new0(overlap_entry, 1);
        e->key = k;
        e->yes = sim_dt_overlaps_itself(dt, count, &e->at);
        g_hash_table_insert(g_overlaps, &e->key, e);
    }
    *at = e->at;
    return e->yes;
}

static sched_call_point call_point(const sim_proc *p) {
    sched_call_point cp = {(uintptr_t)p->call_site, 0, 0};
    if (p->entry_sp) {
        /* entry_sp is where the return address lies, and below it the MPI
         * function saved the caller's frame pointer (SIM_ENTER's frame). */
        cp.sp = (uintptr_t)p->entry_sp + sizeof(void *);
        cp.fp = *(const uintptr_t *)((const char *)p->entry_sp - sizeof(void *));
    }
    return cp;
}

/* The entries last used, by a hash of their key: a message loop comes back
 * to a few sites per rank, found here without the table's lookup.  Entries
 * live until sim_bufcheck_fini, which clears this too. */
enum { SITE_CACHE_BITS = 10 };
static site_entry *g_site_cache[1u << SITE_CACHE_BITS];

static site_entry *site_of(const void *site, const char *arg) {
    uint64_t h =
        ((uint64_t)(uintptr_t)site ^ ((uint64_t)(uintptr_t)arg << 17)) * 0x9e3779b97f4a7c15ull;
    site_entry **slot = &g_site_cache[h >> (64 - SITE_CACHE_BITS)];
    site_entry *e = *slot;
    if (e && e->key.site == site && e->key.arg == arg)
        return e;
    site_key k = {site, arg};
    e = g_hash_table_lookup(g_sites, &k);
    if (!e) {
        e = g_new0(site_entry, 1);
        e->key = k;
        g_hash_table_insert(g_sites, &e->key, e);
    }
    *slot = e;
    return e;
}

/* A type mismatch as --type-check=warn has it: one warning per call site
 * and argument, naming every rank that made it. */
typedef struct warned {
    sim_finding *f;
    char *message; /* without the ranks */
} warned;

static void warned_free(gpointer p) {
    warned *w = p;
    g_free(w->message);
    g_free(w);
}

static char *warning_text(const warned *w) {
    char *who = sim_ranks_text(w->f->ranks, w->f->nranks);
    char *text = g_strdup_printf("%s (on %s)", w->message, who);
    g_free(who);
    return text;
}

static void warn_type(char *message) {
    int self = sim_self();
    const char *loc = sim_location(sim_proc_of(self)->call_site);
    /* By source line: every rank runs its own copy of the program. */
    char *key = g_strdup_printf("%s|%s", loc, message);
    warned *w = g_hash_table_lookup(g_warned, key);
    if (!w) {
        int ranks[1] = {self};
        w = g_new0(warned, 1);
        w->message = message;
        w->f = sim_add_finding(SIM_F_TYPE_MISMATCH, ranks, 1, loc, NULL, NULL);
        w->f->message = warning_text(w);
        g_hash_table_insert(g_warned, key, w);
        return;
    }
    g_free(key);
    g_free(message);
    sim_finding *f = w->f;
    for (int i = 0; i < f->nranks; i++)
        if (f->ranks[i] == self)
            return;
    /* Ranks in ascending order, as the message lists them. */
    f->ranks = g_renew(int, f->ranks, f->nranks + 1);
    int at = f->nranks;
    while (at > 0 && f->ranks[at - 1] > self) {
        f->ranks[at] = f->ranks[at - 1];
        at--;
    }
    f->ranks[at] = self;
    f->nranks++;
    g_free(f->message);
    f->message = warning_text(w);
}

/* MPI_BOTTOM: every block is checked against the object it starts in
 * (objects that follow one another without a gap may share a block: a
 * type built from the addresses of two neighbouring variables). */
typedef struct bottom_walk {
    int rank;
    const sched_call_point *at;
    MPI_Aint base;
    char *problem;
    size_t budget;
} bottom_walk;

static void bottom_block(MPI_Aint off, size_t len, void *data) {
    bottom_walk *w = data;
    if (w->problem || w->budget == 0)
        return;
    w->budget--;
    uintptr_t a = (uintptr_t)(w->base + off), end = a + len;
    sched_obj o;
    if (!sched_obj_find(w->rank, w->at, a, &o, NULL))
        return;
    while (end > o.start + o.size) {
        sched_obj next;
        uintptr_t past = o.start + o.size;
        if (!sched_obj_find(w->rank, w->at, past, &next, NULL) || next.start != past) {
            char *obj = object_text(&o);
            w->problem = g_strdup_printf("the block of %zu bytes at address %p reaches %zu bytes "
                                         "past the end of %s",
                                         len, (void *)a, (size_t)(end - past), obj);
            g_free(obj);
            return;
        }
        o = next;
    }
}

static int bufcheck_full(const char *call, const char *arg, const void *buf,
                         const sim_buf_part *parts, int n, bool writes, char **why, int self,
                         sched_call_point cp, site_entry *e, uint64_t layout);

int sim_bufcheck(const char *call, const char *arg, const void *buf, const sim_buf_part *parts,
                 int n, bool writes, char **why) {
    *why = NULL;
    if (sim_g->cfg.no_buffer_checks || buf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    int self = sim_self();
    if (self < 0)
        return MPI_SUCCESS;
    sim_proc *p = sim_proc_of(self);
    if (p->call_depth != 1) /* MPI calling itself: its own buffers */
        return MPI_SUCCESS;
    uint64_t layout = mix(writes, (uint64_t)(uintptr_t)buf);
    for (int i = 0; i < n; i++) {
        const sim_datatype *dt = parts[i].count > 0 ? sim_dt_get(parts[i].type) : NULL;
        layout = mix(mix(mix(layout, (uint64_t)parts[i].off), (uint64_t)parts[i].count),
                     dt ? sim_dt_serial(dt) : 0);
        layout = mix(mix(layout, reps(&parts[i])), (uint64_t)parts[i].stride);
    }
    site_entry *e = site_of(p->call_site, arg);
    sched_call_point cp = call_point(p);
    for (int s = 0; s < SLOTS; s++) {
        const site_slot *sl = &e->slot[s];
        if (!sl->used || sl->buf != buf || sl->layout != layout)
            continue;
        /* A local of the calling frame, at the same call with the same stack
         * and frame pointers: the same frame, so the same variable (a loop
         * that passes a local again needs no walk of its frames). */
        if (sl->obj.kind == SCHED_OBJ_LOCAL && sl->obj.frame == 0 && sl->at.sp == cp.sp &&
            (sl->at.fp == cp.fp || sl->sp_framed))
            return MPI_SUCCESS;
        if (sched_obj_still(self, &cp, &sl->obj))
            return MPI_SUCCESS;
    }
    return bufcheck_full(call, arg, buf, parts, n, writes, why, self, cp, e, layout);
}

/* The check proper, for a call site, buffer and layout not seen at this
 * frame before (apart from sim_bufcheck so that its frame, large with the
 * object descriptions and walks below, is made only when needed). */
static __attribute__((noinline)) int bufcheck_full(const char *call, const char *arg,
                                                   const void *buf, const sim_buf_part *parts,
                                                   int n, bool writes, char **why, int self,
                                                   sched_call_point cp, site_entry *e,
                                                   uint64_t layout) {
    char *what = parts_text(parts, n);
    int rc = MPI_SUCCESS;
    /* A receive type whose entries overlap: which byte gets which value is
     * undefined, and MPI forbids it. */
    for (int i = 0; writes && i < n && rc == MPI_SUCCESS; i++) {
        const sim_datatype *dt = parts[i].count > 0 ? sim_dt_get(parts[i].type) : NULL;
        MPI_Aint at;
        if (dt && overlaps_itself(dt, parts[i].count, &at)) {
            *why = g_strdup_printf("%s: the receive buffer %s (%s) has entries that overlap: "
                                   "byte %td of it belongs to two of them (a receive buffer's "
                                   "entries must be distinct, MPI 3.1 section 3.2.2)",
                                   call, arg, what, (ptrdiff_t)(parts[i].off + at));
            rc = MPI_ERR_TYPE;
        }
    }
    if (rc != MPI_SUCCESS) {
        g_free(what);
        return rc;
    }
    if (buf == MPI_BOTTOM) {
        bottom_walk bw = {self, &cp, 0, NULL, 1u << 16};
        for (int i = 0; i < n && !bw.problem; i++) {
            const sim_datatype *dt = parts[i].count > 0 ? sim_dt_get(parts[i].type) : NULL;
            for (size_t r = 0; dt && r < reps(&parts[i]) && !bw.problem && bw.budget; r++) {
                bw.base = parts[i].off + (MPI_Aint)r * parts[i].stride;
                sim_dt_each_block(dt, parts[i].count, bottom_block, &bw);
            }
        }
        if (bw.problem) {
            *why = g_strdup_printf("%s: %s (MPI_BOTTOM, %s): %s", call, arg, what, bw.problem);
            rc = MPI_ERR_BUFFER;
            g_free(bw.problem);
        } else if (sim_g->cfg.type_check != SIM_TYPE_CHECK_OFF) {
            type_walk tw = {0, NULL, self, &cp, {0}, 0, 1u << 20, NULL};
            for (int i = 0; i < n && !tw.problem; i++) {
                const sim_datatype *dt = parts[i].count > 0 ? sim_dt_get(parts[i].type) : NULL;
                for (size_t r = 0; dt && r < reps(&parts[i]) && !tw.problem && tw.budget; r++) {
                    tw.base = (uintptr_t)(parts[i].off + (MPI_Aint)r * parts[i].stride);
                    sim_dt_each_element(dt, parts[i].count, check_elements, &tw);
                }
            }
            if (tw.problem) {
                char *msg =
                    g_strdup_printf("%s: %s (MPI_BOTTOM, %s): %s", call, arg, what, tw.problem);
                g_free(tw.problem);
                if (sim_g->cfg.type_check == SIM_TYPE_CHECK_WARN) {
                    warn_type(msg);
                } else {
                    *why = msg;
                    rc = MPI_ERR_TYPE;
                }
            }
        }
        g_free(what);
        return rc;
    }
    __int128 lo = 0, hi = 0;
    bool any = false;
    for (int i = 0; i < n; i++) {
        __int128 l, h;
        if (!part_span(&parts[i], &l, &h))
            continue;
        lo = any ? MIN(lo, l) : l;
        hi = any ? MAX(hi, h) : h;
        any = true;
    }
    sched_obj obj;
    bool found = any && sched_obj_find(self, &cp, (uintptr_t)buf, &obj, NULL);
    if (!found && any && lo != 0 && lo > -(__int128)(uintptr_t)buf)
        found = sched_obj_find(self, &cp, (uintptr_t)((__int128)(uintptr_t)buf + lo), &obj, NULL);
    if (!found) {
        g_free(what);
        return MPI_SUCCESS;
    }
    __int128 first = (__int128)(uintptr_t)buf + lo, last = (__int128)(uintptr_t)buf + hi;
    __int128 start = obj.start, end = (__int128)obj.start + obj.size;
    if (first < start || last > end) {
        char *o = object_text(&obj);
        char before[64] = "", past[64] = "";
        if (first < start)
            g_snprintf(before, sizeof before, "starts %zu bytes before", (size_t)(start - first));
        if (last > end)
            g_snprintf(past, sizeof past, "reaches %zu bytes past the end of",
                       (size_t)(last - end));
        *why = g_strdup_printf("%s: %s (%s, bytes %lld to %lld of it) %s%s%s %s", call, arg, what,
                               (long long)lo, (long long)hi - 1, before,
                               *before && *past ? " and " : "", past, o);
        g_free(o);
        g_free(what);
        return MPI_ERR_BUFFER;
    }
    if (sim_g->cfg.type_check != SIM_TYPE_CHECK_OFF && obj.type) {
        type_walk tw = {(uintptr_t)buf, &obj, self, &cp, {0}, 0, 1u << 20, NULL};
        for (int i = 0; i < n && !tw.problem; i++) {
            const sim_datatype *dt = parts[i].count > 0 ? sim_dt_get(parts[i].type) : NULL;
            for (size_t r = 0; dt && r < reps(&parts[i]) && !tw.problem && tw.budget; r++) {
                tw.base =
                    (uintptr_t)buf + (uintptr_t)(parts[i].off + (MPI_Aint)r * parts[i].stride);
                sim_dt_each_element(dt, parts[i].count, check_elements, &tw);
            }
        }
        if (tw.problem) {
            char *msg = g_strdup_printf("%s: %s (%s): %s", call, arg, what, tw.problem);
            g_free(tw.problem);
            if (sim_g->cfg.type_check == SIM_TYPE_CHECK_ERROR) {
                *why = msg;
                g_free(what);
                return MPI_ERR_TYPE;
            }
            warn_type(msg);
        }
    }
    g_free(what);
    site_slot *sl = &e->slot[e->next];
    e->next = (e->next + 1) % SLOTS;
    *sl = (site_slot){
        true,
        buf,
        layout,
        obj,
        cp,
        obj.kind == SCHED_OBJ_LOCAL && obj.frame == 0 && sched_call_point_sp_framed(self, &cp)};
    return MPI_SUCCESS;
}

int sim_bufcheck_comm(MPI_Comm comm, const char *call, const char *arg, const void *buf, int count,
                      MPI_Datatype type, bool writes) {
    if (sim_g->cfg.no_buffer_checks || count <= 0)
        return MPI_SUCCESS;
    sim_buf_part part = {.count = count, .type = type};
    char *why = NULL;
    int rc = sim_bufcheck(call, arg, buf, &part, 1, writes, &why);
    if (rc != MPI_SUCCESS) {
        rc = sim_error(comm, rc, "%s", why);
        g_free(why);
    }
    return rc;
}

int sim_bufcheck_target(const char *call, int owner, const void *addr, int count, MPI_Datatype type,
                        char **why) {
    *why = NULL;
    if (sim_g->cfg.no_buffer_checks || sim_g->cfg.type_check == SIM_TYPE_CHECK_OFF || count <= 0)
        return MPI_SUCCESS;
    int self = sim_self();
    const sim_datatype *dt = sim_dt_get(type);
    if (self < 0 || !dt || owner < 0 || owner >= sim_g->nranks)
        return MPI_SUCCESS;
    sim_proc *p = sim_proc_of(self), *o = sim_proc_of(owner);
    if (p->call_depth != 1)
        return MPI_SUCCESS;
    /* The owner's live frames, for a window in its locals: it waits in an
     * MPI call (or makes this one), so it has a call point. */
    sched_call_point cp = {0};
    bool frames = o->call_depth > 0 && o->entry_sp;
    if (frames)
        cp = call_point(o);
    uint64_t layout = mix(mix(mix((uint64_t)owner, (uint64_t)(uintptr_t)addr), (uint64_t)count),
                          sim_dt_serial(dt));
    site_entry *e = site_of(p->call_site, TARGET_ARG);
    for (int s = 0; s < SLOTS; s++) {
        const site_slot *sl = &e->slot[s];
        if (sl->used && sl->buf == addr && sl->layout == layout &&
            sched_obj_still(owner, frames ? &cp : NULL, &sl->obj))
            return MPI_SUCCESS;
    }
    sched_obj obj;
    if (!sched_obj_find(owner, frames ? &cp : NULL, (uintptr_t)addr, &obj, NULL))
        return MPI_SUCCESS; /* memory of no known object */
    type_walk tw = {(uintptr_t)addr, &obj, owner, frames ? &cp : NULL, {0}, 0, 1u << 20, NULL};
    if (obj.type) /* a heap block has none: nothing to check, but remembered */
        sim_dt_each_element(dt, count, check_elements, &tw);
    if (tw.problem) {
        sim_buf_part part = {.count = count, .type = type};
        char *what = parts_text(&part, 1);
        char *msg = g_strdup_printf("%s: target_datatype (%s, in rank %d's window): %s", call, what,
                                    owner, tw.problem);
        g_free(what);
        g_free(tw.problem);
        if (sim_g->cfg.type_check == SIM_TYPE_CHECK_ERROR) {
            *why = msg;
            return MPI_ERR_TYPE;
        }
        warn_type(msg);
    }
    site_slot *sl = &e->slot[e->next];
    e->next = (e->next + 1) % SLOTS;
    *sl = (site_slot){true, addr, layout, obj, cp, false};
    return MPI_SUCCESS;
}

void sim_bufcheck_init(void) {
    sim_bufcheck_fini();
    g_sites = g_hash_table_new_full(site_hash, site_equal, NULL, g_free);
    g_overlaps = g_hash_table_new_full(overlap_hash, overlap_equal, NULL, g_free);
    g_warned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, warned_free);
}

void sim_bufcheck_fini(void) {
    memset(g_site_cache, 0, sizeof g_site_cache);
    if (g_sites)
        g_hash_table_destroy(g_sites);
    if (g_overlaps)
        g_hash_table_destroy(g_overlaps);
    if (g_warned)
        g_hash_table_destroy(g_warned);
    g_sites = g_overlaps = g_warned = NULL;
}
