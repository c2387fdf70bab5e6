/*
 * shmem.c - OpenSHMEM 1.4 semantics: symmetric memory, one-sided
 * operations, atomics, ordering, point-to-point synchronisation, locks and
 * collectives (see shmem.h and docs/shmem.md).
 *
 * The state lives in ordex's heap and globals, so snapshots of both kinds
 * keep it; what decides what PEs can do next enters the state digest.
 * Nothing is allocated for a program that never calls shmem_init.
 */
#define _GNU_SOURCE
#include "simulator/shmem.h"

#include <limits.h>
#include <shmem.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/units.h"
#include "scheduler/arena.h"
#include "scheduler/sched.h"
#include "scheduler/symbolize.h"
#include "simulator/access.h"
#include "simulator/bufcheck.h"
#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/engine.h"
#include "simulator/report.h"
#include "simulator/request.h"
#include "simulator/rma.h"
#include "simulator/shmem_events.h"
#include "simulator/shmem_psync.h"
#include "simulator/sim_internal.h"
#include "simulator/timed_shmem.h"

/* The symmetric heap's size when SHMEM_SYMMETRIC_SIZE does not say. */
#define DEFAULT_HEAP ((size_t)256 << 20)
/* Writes kept per PE for shmem_wait_until's orderings (the oldest go). */
#define MAX_WRITES 1024
/* Bytes of a write kept to tell whether memory still holds what it wrote. */
#define KEEP_BYTES 64

/* A symmetric heap object: the k-th allocation of every PE. */
typedef struct shm_obj {
    guint index;
    size_t size;
    void **addr;      /* [n]: each PE's copy; NULL before it allocates and after it frees */
    void *site;       /* the first PE's allocating call, for reports */
    const char *call; /* "shmem_malloc", ... */
    int live;         /* PEs holding a copy */
} shm_obj;

/* A PE's copy of a heap object. */
typedef struct shm_ref {
    uintptr_t lo, hi;
    shm_obj *obj;
} shm_ref;

/* Who wrote what some bytes hold: an operation issued after `fences`
 * fences of its PE. */
typedef struct shm_writer {
    int origin;
    uint32_t fences;
    uint64_t key;
    uint64_t timed; /* its operation under predict (timed_shmem.h), 0: none */
    uint32_t ctx;   /* its context */
} shm_writer;

/* The last OpenSHMEM write into some bytes of a PE (for atomics, every
 * atomic since the last other write: the value holds them all). */
typedef struct shm_write {
    uintptr_t lo, hi;
    bool atomic;
    GArray *writers; /* shm_writer */
    sim_vc *vc;      /* the join of their clocks when they wrote */
    guint8 *bytes;   /* what the bytes held after the write; NULL: not kept */
} shm_write;

/* A distributed lock, named by the symmetric location of its variable. */
typedef struct shm_lock {
    uint64_t id;
    int holder;       /* -1: free */
    GArray *waiters;  /* int, in request order */
    sim_vc *released; /* the join of every release */
} shm_lock;

typedef struct shm_pe {
    bool initialized, finalized;
    int thread_level;
    void *init_site, *finalize_site;
    GArray *globals;       /* sched_region: its symmetric data objects */
    GArray *refs;          /* shm_ref, by address */
    uint64_t colls;        /* collective calls so far */
    GHashTable *set_colls; /* active set key -> its collective calls so far (a subset's) */
    /* Blocked in shmem_wait_until on [wait_lo, wait_hi). */
    bool waiting;
    uintptr_t wait_lo, wait_hi;
    /* ... until the element there compares to wait_value as wait_cmp says */
    sim_shmem_kind wait_kind;
    int wait_cmp;
    uint64_t wait_value;
    shm_lock *lock_wait; /* blocked in shmem_set_lock */
    /* The last fetch, to see a loop that polls with it. */
    bool spin_valid;
    void *spin_site;
    uintptr_t spin_addr;
    uint64_t spin_hash, spin_seq;
    GPtrArray *writes; /* shm_write * into its memory */
    /* Contexts: the ids of those it created and has not destroyed, the
     * next id, and the context of the call in progress (0: the default). */
    GArray *ctxs; /* uint32_t */
    uint32_t next_ctx, call_ctx;
} shm_pe;

/* A collective call as its first PE described it; later PEs must agree. */
typedef struct shm_coll {
    uint64_t seq;
    const char *call;
    char *desc; /* "shmem_malloc(size=80)" */
    uint64_t a, b;
    int first;
    void *site;
    shm_obj *obj; /* heap calls: the object (NULL: none, the call returns NULL) */
    int departed;
    int members;       /* PEs that take part */
    GHashTable *table; /* where it is kept (S.colls, or its active set's) */
} shm_coll;

static struct {
    int n;
    shm_pe *pe;         /* [n], NULL until the first shmem_init */
    GPtrArray *objects; /* shm_obj *, by index */
    GHashTable *colls;  /* seq -> shm_coll * */
    GHashTable *sets;   /* active set key -> (seq -> shm_coll *): subsets' collectives */
    GHashTable *locks;  /* id -> shm_lock * */
    sim_comm *comm;     /* OpenSHMEM's collectives */
    size_t heap_limit, heap_used;
    uint64_t write_seq; /* OpenSHMEM writes so far */
} S;

static uint32_t take_ctx(int self);

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */

static _Noreturn void fail(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static _Noreturn void fail(const char *fmt, ...) {
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    va_list ap;
    va_start(ap, fmt);
    char *text = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    sim_add_finding(SIM_F_MPI_ERROR, &self, 1, sim_location(p->call_site),
                    g_strdup_printf("PE %d: %s: %s", self, p->call, text),
                    sim_report_backtrace_here());
    g_free(text);
    sched_abort_current();
}

static const char *ordinal(uint64_t n) {
    if (n % 100 >= 11 && n % 100 <= 13)
        return "th";
    return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* ---------------------------------------------------------------------- */
/* Symmetric memory                                                        */

typedef struct shm_sym {
    bool heap;     /* a heap object (else a global of segment `index`) */
    guint index;   /* object index or segment */
    shm_obj *obj;  /* heap */
    size_t offset; /* of the address in its object or segment */
    size_t room;   /* bytes from the address to the object's end */
} shm_sym;

static const shm_ref *ref_at(const shm_pe *pe, uintptr_t a) {
    if (!pe->refs) /* the PE has not called shmem_init */
        return NULL;
    guint lo = 0, hi = pe->refs->len;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        const shm_ref *r = &g_array_index(pe->refs, shm_ref, mid);
        if (a < r->lo)
            hi = mid;
        else if (a >= r->hi)
            lo = mid + 1;
        else
            return r;
    }
    return NULL;
}

/* Where a is in PE pe's symmetric memory; false when it is not there. */
static bool sym_of(int pe, uintptr_t a, shm_sym *out) {
    const shm_pe *p = &S.pe[pe];
    const shm_ref *r = ref_at(p, a);
    if (r) {
        *out = (shm_sym){true, r->obj->index, r->obj, a - r->lo, r->hi - a};
        return true;
    }
    for (guint i = 0; p->globals && i < p->globals->len; i++) {
        const sched_region *g = &g_array_index(p->globals, sched_region, i);
        uintptr_t lo = (uintptr_t)g->start;
        if (a >= lo && a < lo + g->len) {
            *out = (shm_sym){false, i, NULL, a - lo, lo + g->len - a};
            return true;
        }
    }
    return false;
}

/* The address of s on PE pe (0 when pe has no copy of it). */
static uintptr_t sym_addr(int pe, const shm_sym *s) {
    if (s->heap)
        return s->obj->addr[pe] ? (uintptr_t)s->obj->addr[pe] + s->offset : 0;
    const GArray *g = S.pe[pe].globals;
    if (!g || s->index >= g->len)
        return 0;
    return (uintptr_t)g_array_index(g, sched_region, s->index).start + s->offset;
}

/* The name of the global or static variable at a (of a program copy),
 * with *start and *size set, or NULL. */
static char *global_name(uintptr_t a, uintptr_t *start, size_t *size) {
    char *name = NULL;
    return sched_symbolize_data((const void *)a, &name, start, size) ? name : NULL;
}

/* Symmetric memory for reports: "symmetric variable 'x' of PE 1 (byte 4
 * of 8)". */
static char *name_memory(uintptr_t a, int owner) {
    shm_sym s;
    if (!S.pe || owner < 0 || owner >= S.n || !sym_of(owner, a, &s))
        return g_strdup_printf("symmetric memory of PE %d", owner);
    if (s.heap)
        return g_strdup_printf("the symmetric heap object of %zu bytes from %s at %s, on PE %d "
                               "(byte %zu)",
                               s.obj->size, s.obj->call, sim_location(s.obj->site), owner,
                               s.offset);
    uintptr_t start;
    size_t size;
    char *name = global_name(a, &start, &size);
    char *text = name ? g_strdup_printf("symmetric variable '%s' of PE %d (byte %zu of %zu)", name,
                                        owner, (size_t)(a - start), size)
                      : g_strdup_printf("a global or static variable of PE %d (byte %zu of "
                                        "its data)",
                                        owner, s.offset);
    g_free(name);
    return text;
}

/* A short name of a's symmetric location, for call descriptions. */
static char *short_name(int pe, const void *a) {
    uintptr_t start;
    size_t size;
    shm_sym s;
    if (!sym_of(pe, (uintptr_t)a, &s))
        return g_strdup_printf("%p", a);
    if (s.heap)
        return g_strdup_printf("%p (heap object %u + %zu)", a, s.index, s.offset);
    char *name = global_name((uintptr_t)a, &start, &size);
    char *text = !name ? g_strdup_printf("%p", a)
                 : (uintptr_t)a == start
                     ? g_strdup_printf("&%s", name)
                     : g_strdup_printf("(char *)&%s + %zu", name, (size_t)((uintptr_t)a - start));
    g_free(name);
    return text;
}

/* The span of n elements of elem bytes, stride elements apart, or fails
 * when it does not fit in the address space. */
static size_t span_of(size_t n, ptrdiff_t stride, size_t elem) {
    size_t step, span;
    if (n == 0)
        return 0;
    if (__builtin_mul_overflow((size_t)stride, elem, &step) ||
        __builtin_mul_overflow(n - 1, step, &span) || __builtin_add_overflow(span, elem, &span))
        fail("%zu elements of %zu bytes%s do not fit in memory", n, elem,
             stride > 1 ? " at that stride" : "");
    return span;
}

/* [addr, addr + span) of the calling PE as PE pe's address; fails the
 * call when it is not symmetric memory or runs past its object. */
static uintptr_t remote_of(const void *addr, size_t span, int pe, const char *arg) {
    int self = sim_self();
    shm_sym s;
    if (!sym_of(self, (uintptr_t)addr, &s))
        fail("%s %p is not a symmetric address: it is neither in the symmetric heap "
             "(shmem_malloc and the like) nor a global or static variable of the program",
             arg, addr);
    if (span > s.room) {
        if (s.heap)
            fail("%s %p + %zu bytes runs past the end of its symmetric heap object (%zu bytes "
                 "from %s at %s; the access starts at byte %zu)",
                 arg, addr, span, s.obj->size, s.obj->call, sim_location(s.obj->site), s.offset);
        fail("%s %p + %zu bytes runs past the end of the program's data", arg, addr, span);
    }
    uintptr_t r = sym_addr(pe, &s);
    if (!r)
        fail("%s %p: PE %d has no copy of its symmetric object", arg, addr, pe);
    return r;
}

/* Fails the call with a message of the buffer checks, which names the call
 * already. */
static _Noreturn void fail_buffer(char *why) {
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    sim_add_finding(SIM_F_MPI_ERROR, &self, 1, sim_location(p->call_site),
                    g_strdup_printf("PE %d: %s", self, why), sim_report_backtrace_here());
    g_free(why);
    sched_abort_current();
}

/* The buffer checks (bufcheck.h) on the argument `arg` (a string literal:
 * it keys the checks' cache) at addr: n elements of elem bytes, stride
 * elements apart, of the basic type `basic` (MPI_BYTE: of no C type, as
 * for the sized routines).  A symmetric address that the call reads or
 * writes on another PE is checked on the calling PE's copy: every PE's
 * copy of an object has the same layout.  Fails the call on an error. */
static void check_buffer(const char *arg, const void *addr, size_t n, ptrdiff_t stride, size_t elem,
                         MPI_Datatype basic, bool writes) {
    if (n == 0 || elem == 0 || sim_g->cfg.no_buffer_checks)
        return;
    bool bytes = basic == MPI_BYTE;
    int per = bytes ? (int)elem : 1;
    sim_buf_part part = {
        .count = per, .type = basic, .repeat = n, .stride = stride * (MPI_Aint)elem};
    if (stride == 1 && n <= (size_t)(INT_MAX / per))
        part = (sim_buf_part){.count = (int)n * per, .type = basic};
    char *why = NULL;
    if (sim_bufcheck(sim_proc_of(sim_self())->call, arg, addr, &part, 1, writes, &why) !=
        MPI_SUCCESS)
        fail_buffer(why);
    g_free(why);
}

/* check_buffer on a symmetric argument, once it is known to be symmetric
 * (what is not fails as remote_of says). */
static void check_symmetric(const char *arg, const void *addr, size_t n, ptrdiff_t stride,
                            size_t elem, MPI_Datatype basic, bool writes) {
    shm_sym s;
    if (sym_of(sim_self(), (uintptr_t)addr, &s))
        check_buffer(arg, addr, n, stride, elem, basic, writes);
}

static void check_pe(int pe) {
    if (pe < 0 || pe >= S.n)
        fail("pe %d is out of range: the program runs %d PE%s (0 to %d)", pe, S.n,
             S.n == 1 ? "" : "s", S.n - 1);
}

/* ---------------------------------------------------------------------- */
/* Writes, and what shmem_wait_until learns from them                      */

static void write_free(shm_write *w) {
    g_array_free(w->writers, TRUE);
    sim_vc_free(w->vc);
    g_free(w->bytes);
    g_free(w);
}

/* An OpenSHMEM write by origin (operation key) into [lo, hi) of PE
 * target has been applied: remember who wrote it, with origin's clock
 * now, wake target if it waits on those bytes, and mark target's memory
 * as changed. */
static void note_write(int target, uintptr_t lo, uintptr_t hi, int origin, uint64_t key,
                       bool atomic, uint64_t timed, uint32_t ctx) {
    shm_pe *t = &S.pe[target];
    shm_write *keep = NULL;
    for (guint i = 0; i < t->writes->len;) {
        shm_write *w = g_ptr_array_index(t->writes, i);
        if (w->hi <= lo || hi <= w->lo) {
            i++;
        } else if (atomic && w->atomic && w->lo == lo && w->hi == hi && !keep) {
            keep = w;
            g_ptr_array_remove_index(t->writes, i);
        } else {
            write_free(w);
            g_ptr_array_remove_index(t->writes, i);
        }
    }
    if (!keep) {
        keep = g_new0(shm_write, 1);
        keep->lo = lo;
        keep->hi = hi;
        keep->atomic = atomic;
        keep->writers = g_array_new(FALSE, FALSE, sizeof(shm_writer));
    }
    sim_vc *vc = sim_access_release(origin);
    keep->vc = sim_vc_join(keep->vc, vc);
    sim_vc_free(vc);
    shm_writer wr = {origin, sim_access_shmem_fences(origin, ctx), key, timed, ctx};
    g_array_append_val(keep->writers, wr);
    g_free(keep->bytes);
    keep->bytes = hi - lo <= KEEP_BYTES ? g_memdup2((const void *)lo, hi - lo) : NULL;
    g_ptr_array_add(t->writes, keep);
    if (t->writes->len > MAX_WRITES) {
        write_free(g_ptr_array_index(t->writes, 0));
        g_ptr_array_remove_index(t->writes, 0);
    }
    S.write_seq++;
    sim_touch_rank(target);
    sim_events_changed();
    if (t->waiting && lo < t->wait_hi && hi > t->wait_lo)
        sched_wake(target);
}

/* PE self saw the bytes [lo, hi) of its memory satisfy a wait: it
 * synchronises with the writes whose values they still hold. */
static void observe(int self, uintptr_t lo, uintptr_t hi) {
    shm_pe *me = &S.pe[self];
    sim_proc *p = sim_proc_of(self);
    for (guint i = 0; i < me->writes->len; i++) {
        const shm_write *w = g_ptr_array_index(me->writes, i);
        if (w->hi <= lo || hi <= w->lo)
            continue;
        if (w->bytes && memcmp(w->bytes, (const void *)w->lo, w->hi - w->lo) != 0)
            continue; /* overwritten since by a store of the PE's own */
        sim_access_acquire(self, w->vc);
        for (guint k = 0; k < w->writers->len; k++) {
            const shm_writer *wr = &g_array_index(w->writers, shm_writer, k);
            sim_access_shmem_observed(self, wr->origin, wr->ctx, wr->fences, wr->key, p->call,
                                      p->call_site);
            /* predict: what the PE saw has arrived by the time it goes on */
            sim_timed_shmem_wait(wr->timed);
        }
    }
}

/* A fetch of [a, a + len) by the calling PE: when the same call read the
 * same bytes last time and no OpenSHMEM write happened since, the PE polls
 * (others go on first), so that a loop waiting for a value with a get or
 * an atomic fetch ends. */
static void spin_check(uintptr_t a, size_t len) {
    int self = sim_self();
    shm_pe *me = &S.pe[self];
    void *site = sim_proc_of(self)->call_site;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len && i < 4096; i++)
        h = (h ^ ((const unsigned char *)a)[i]) * 1099511628211ull;
    bool same = me->spin_valid && me->spin_site == site && me->spin_addr == a &&
                me->spin_hash == h && me->spin_seq == S.write_seq;
    me->spin_valid = true;
    me->spin_site = site;
    me->spin_addr = a;
    me->spin_hash = h;
    if (same)
        sim_poll_block();
    me->spin_seq = S.write_seq;
}

/* ---------------------------------------------------------------------- */
/* Start and end                                                           */

static void pe_free(shm_pe *p) {
    if (p->globals)
        g_array_free(p->globals, TRUE);
    if (p->refs)
        g_array_free(p->refs, TRUE);
    if (p->set_colls)
        g_hash_table_destroy(p->set_colls);
    if (p->ctxs)
        g_array_free(p->ctxs, TRUE);
    if (p->writes) {
        g_ptr_array_foreach(p->writes, (GFunc)(void (*)(void))write_free, NULL);
        g_ptr_array_free(p->writes, TRUE);
    }
}

static void obj_free(gpointer p) {
    shm_obj *o = p;
    g_free(o->addr);
    g_free(o);
}

static void coll_free(gpointer p) {
    shm_coll *c = p;
    g_free(c->desc);
    g_free(c);
}

static void lock_free(gpointer p) {
    shm_lock *l = p;
    g_array_free(l->waiters, TRUE);
    sim_vc_free(l->released);
    g_free(l);
}

void sim_shmem_init(int nranks) {
    memset(&S, 0, sizeof S);
    S.n = nranks;
    sim_shmem_events_init();
    sim_shmem_psync_init(nranks);
}

void sim_shmem_fini(void) {
    if (S.pe) {
        for (int i = 0; i < S.n; i++)
            pe_free(&S.pe[i]);
        g_free(S.pe);
        g_ptr_array_free(S.objects, TRUE);
        g_hash_table_destroy(S.colls);
        g_hash_table_destroy(S.sets);
        g_hash_table_destroy(S.locks);
        sim_access_set_namer(NULL);
    }
    sim_shmem_events_fini();
    sim_shmem_psync_fini();
    memset(&S, 0, sizeof S);
}

static shm_coll *arrive_as(const char *what, uint64_t a, uint64_t b, char *desc);
static void depart(shm_coll *c);
static void barrier(bool with_quiet);

/* The first shmem_init of the job sets up OpenSHMEM's state. */
static void start(void) {
    if (S.pe)
        return;
    const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
    S.heap_limit = DEFAULT_HEAP;
    if (env) {
        uint64_t bytes;
        char *problem = NULL;
        if (!pm_parse_size(env, &bytes, &problem)) {
            char *msg = g_strdup(problem ? problem : "not a size");
            g_free(problem);
            fail("SHMEM_SYMMETRIC_SIZE=%s is not a size of the symmetric heap: %s", env, msg);
        }
        S.heap_limit = (size_t)bytes;
    }
    S.pe = g_new0(shm_pe, (size_t)S.n);
    S.objects = g_ptr_array_new_with_free_func(obj_free);
    S.colls = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, coll_free);
    S.sets = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                   (GDestroyNotify)g_hash_table_destroy);
    S.locks = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, lock_free);
    S.comm = sim_comm_make_private(sim_comm_get(MPI_COMM_WORLD, sim_self()), "OpenSHMEM");
    sim_access_shmem_enable();
    sim_access_set_namer(name_memory);
}

void sim_shmem_do_init(int thread_level) {
    start();
    int self = sim_self();
    shm_pe *me = &S.pe[self];
    if (me->initialized)
        fail("called twice (shmem_init first at %s): OpenSHMEM may be initialised only once",
             sim_location(me->init_site));
    me->initialized = true;
    me->thread_level = thread_level;
    me->init_site = sim_proc_of(self)->call_site;
    me->refs = g_array_new(FALSE, FALSE, sizeof(shm_ref));
    me->set_colls = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    me->ctxs = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    me->writes = g_ptr_array_new();
    me->globals = g_array_new(FALSE, FALSE, sizeof(sched_region));
    sched_rank_globals(self, me->globals);
    for (guint i = 0; i < me->globals->len; i++) {
        const sched_region *g = &g_array_index(me->globals, sched_region, i);
        sim_access_shmem_region(g->start, g->len, self, true);
    }
    /* Collective: no PE accesses another's memory before that one has
     * started (programs put right after shmem_init). */
    sim_call_args("all PEs");
    depart(arrive_as("shmem_init", 0, 0, g_strdup(sim_proc_of(self)->call)));
    barrier(false);
}

int sim_shmem_thread_level(void) {
    return S.pe[sim_self()].thread_level;
}

void sim_shmem_check_active(void) {
    int self = sim_self();
    shm_pe *me = S.pe ? &S.pe[self] : NULL;
    if (!me || !me->initialized)
        fail("called before shmem_init");
    if (me->finalized)
        fail("called after shmem_finalize (at %s)", sim_location(me->finalize_site));
}

int sim_shmem_npes(void) {
    return S.n;
}

int sim_shmem_mype(void) {
    return sim_self();
}

bool sim_shmem_pe_valid(int pe) {
    return pe >= 0 && pe < S.n;
}

bool sim_shmem_addr_symmetric(const void *addr) {
    shm_sym s;
    return sym_of(sim_self(), (uintptr_t)addr, &s);
}

void *sim_shmem_ptr(const void *addr, int pe) {
    if (pe != sim_self() || !sim_shmem_addr_symmetric(addr))
        return NULL;
    return (void *)addr;
}

_Noreturn void sim_shmem_global_exit(int status) {
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    sim_add_finding(SIM_F_ABORT, &self, 1, sim_location(p->call_site),
                    g_strdup_printf("PE %d called %s with status %d, which ends every PE", self,
                                    p->call, status),
                    sim_report_backtrace_here());
    sched_abort_current();
}

bool sim_shmem_rank_ended(int rank, int code) {
    if (!S.pe)
        return false;
    shm_pe *me = &S.pe[rank];
    if (!me->initialized || me->finalized)
        return false;
    sim_proc *p = sim_proc_of(rank);
    sim_add_finding(SIM_F_NO_FINALIZE, &rank, 1,
                    p->call_site ? sim_location(p->call_site) : sim_location(me->init_site),
                    g_strdup_printf("PE %d ended (status %d) without calling shmem_finalize; its "
                                    "last call is shown (OpenSHMEM 1.4: every shmem_init is "
                                    "matched by a shmem_finalize)",
                                    rank, code),
                    NULL);
    return true;
}

/* ---------------------------------------------------------------------- */
/* Collectives                                                             */

static bool set_is_all(const shm_set *set) {
    return set->start == 0 && set->size == S.n && (set->logstride == 0 || set->size == 1);
}

/* An active set's name: the same for every way of writing it. */
static uint64_t set_key(const shm_set *set) {
    int stride = set->size == 1 ? 0 : set->logstride;
    return ((uint64_t)(uint32_t)set->start << 32) | ((uint64_t)stride << 24) | (uint32_t)set->size;
}

/* The k-th PE of an active set. */
static int set_pe(const shm_set *set, int k) {
    return set->start + (k << set->logstride);
}

/* shmem_free or its old name. */
static bool is_free(const char *call) {
    return strcmp(call, "shmem_free") == 0 || strcmp(call, "shfree") == 0;
}

/* The calling PE's next collective call: it must be what the first PE to
 * reach that collective called (what: its call, or a name that several
 * calls share), with the same arguments a and b (desc describes them).
 * Returns the collective (the first arrival creates it); depart() when done
 * with it. */
static shm_coll *arrive_in(const shm_set *set, const char *what, uint64_t a, uint64_t b,
                           char *desc) {
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    GHashTable *table = S.colls;
    int members = S.n;
    uint64_t seq;
    if (set && !set_is_all(set)) {
        uint64_t key = set_key(set);
        uint64_t *n = g_hash_table_lookup(S.pe[self].set_colls, &key);
        if (!n) {
            uint64_t *k = g_new(uint64_t, 1);
            *k = key;
            n = g_new0(uint64_t, 1);
            g_hash_table_insert(S.pe[self].set_colls, k, n);
        }
        seq = (*n)++;
        table = g_hash_table_lookup(S.sets, &key);
        if (!table) {
            uint64_t *k = g_new(uint64_t, 1);
            *k = key;
            table = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, coll_free);
            g_hash_table_insert(S.sets, k, table);
        }
        members = set->size;
    } else {
        seq = S.pe[self].colls++;
    }
    shm_coll *c = g_hash_table_lookup(table, &seq);
    if (!c) {
        c = g_new0(shm_coll, 1);
        c->seq = seq;
        c->call = what;
        c->desc = desc;
        c->a = a;
        c->b = b;
        c->first = self;
        c->site = p->call_site;
        c->members = members;
        c->table = table;
        g_hash_table_insert(table, &c->seq, c);
        return c;
    }
    if (strcmp(c->call, what) != 0 || c->a != a || c->b != b) {
        int ranks[2] = {MIN(c->first, self), MAX(c->first, self)};
        bool first_low = c->first < self;
        char *loc = g_strdup(sim_location(c->site));
        char *msg = g_strdup_printf(
            "OpenSHMEM collective mismatch: as their %" G_GUINT64_FORMAT
            "%s collective call%s, PE %d calls %s at %s and PE %d calls %s at %s; every PE must "
            "make the same collective calls in the same order, with the same arguments%s",
            seq + 1, ordinal(seq + 1), set && !set_is_all(set) ? " on this active set" : "",
            ranks[0], first_low ? c->desc : desc, first_low ? loc : sim_location(p->call_site),
            ranks[1], first_low ? desc : c->desc, first_low ? sim_location(p->call_site) : loc,
            is_free(c->call) || is_free(what)
                ? " (shmem_free is collective: every PE frees the object, OpenSHMEM 1.4 "
                  "section 9.3.1)"
                : "");
        g_free(loc);
        g_free(desc);
        sim_add_finding(SIM_F_MPI_ERROR, ranks, 2, sim_location(first_low ? c->site : p->call_site),
                        msg, sim_report_backtrace_here());
        sched_abort_current();
    }
    g_free(desc);
    return c;
}

static shm_coll *arrive_as(const char *what, uint64_t a, uint64_t b, char *desc) {
    return arrive_in(NULL, what, a, b, desc);
}

/* arrive() for a collective on an active set. */
static shm_coll *arrive_set(const shm_set *set, uint64_t a, uint64_t b, char *desc) {
    return arrive_in(set, sim_proc_of(sim_self())->call, a, b, desc);
}

static shm_coll *arrive(uint64_t a, uint64_t b, char *desc) {
    return arrive_as(sim_proc_of(sim_self())->call, a, b, desc);
}

static void depart(shm_coll *c) {
    if (++c->departed == c->members)
        g_hash_table_remove(c->table, &c->seq);
}

static sim_coll_args args_init(void) {
    sim_coll_args a;
    memset(&a, 0, sizeof a);
    a.sendtype = a.recvtype = MPI_DATATYPE_NULL;
    a.op = MPI_OP_NULL;
    return a;
}

/* Posts the calling PE's part of a collective of kind on OpenSHMEM's
 * communicator and waits for it. */
static void post_on(sim_comm *comm, sim_coll_kind kind, const sim_coll_args *a) {
    sim_request *req = sim_coll_post(comm, kind, a);
    if (req)
        sim_request_wait(req, MPI_STATUS_IGNORE);
}

/* Completes the PE's operations on context ctx: shmem_quiet and every
 * call that implies one (barriers, shmem_clear_lock, shmem_finalize, the
 * heap's) on the default context 0 only, shmem_ctx_quiet and
 * shmem_ctx_destroy on theirs (OpenSHMEM 1.4 9.4: other contexts need
 * their own quiet). */
static void quiet_ctx(int self, uint32_t ctx) {
    sim_proc *p = sim_proc_of(self);
    sim_access_shmem_quiet(self, ctx, p->call, p->call_site);
    sim_timed_shmem_quiet(self);
}

static void quiet(int self) {
    quiet_ctx(self, 0);
}

/* The communicator of an active set's collectives: OpenSHMEM's own for
 * every PE, else one of the set's PEs in set order (made by the first of
 * them to need it). */
static sim_comm *set_comm(const shm_set *set) {
    if (set_is_all(set))
        return S.comm;
    int *members = g_new(int, (size_t)set->size);
    for (int k = 0; k < set->size; k++)
        members[k] = set_pe(set, k);
    sim_group g = {.size = set->size, .members = members};
    sim_comm *c = sim_comm_for_group(S.comm, &g, 0);
    g_free(members);
    return c;
}

/* A barrier of an active set; with_quiet: one that completes the PE's
 * operations first (shmem_barrier_all, shmem_barrier and the implicit
 * barriers). */
static void barrier_on(sim_comm *comm, bool with_quiet) {
    int self = sim_self();
    if (with_quiet)
        quiet(self);
    sim_coll_args a = args_init();
    post_on(comm, SIM_COLL_BARRIER, &a);
}

/* A barrier of every PE. */
static void barrier(bool with_quiet) {
    barrier_on(S.comm, with_quiet);
}

void sim_shmem_barrier_all(void) {
    sim_shmem_check_active();
    sim_call_args("all PEs");
    depart(arrive(0, 0, g_strdup(sim_proc_of(sim_self())->call)));
    barrier(true);
}

void sim_shmem_sync_all(void) {
    sim_shmem_check_active();
    sim_call_args("all PEs");
    depart(arrive(0, 0, g_strdup(sim_proc_of(sim_self())->call)));
    barrier(false);
}

/* An active set must be valid and hold the calling PE. */
static shm_set check_set(int start, int logstride, int size) {
    if (size < 1 || start < 0 || logstride < 0 || logstride > 30)
        fail("the active set PE_start=%d, logPE_stride=%d, PE_size=%d is not valid (PE_start and "
             "logPE_stride at least 0, PE_size at least 1)",
             start, logstride, size);
    int64_t last = (int64_t)start + ((int64_t)(size - 1) << logstride);
    if (last >= S.n)
        fail("the active set PE_start=%d, logPE_stride=%d, PE_size=%d names PE %" G_GINT64_FORMAT
             ", but the program runs %d PEs",
             start, logstride, size, last, S.n);
    shm_set set = {start, logstride, size};
    int self = sim_self(), k = self - start;
    if (k < 0 || (k & ((1 << logstride) - 1)) || (k >> logstride) >= size)
        fail("PE %d is not in the active set PE_start=%d, logPE_stride=%d, PE_size=%d: only its "
             "PEs may call a collective on it",
             self, start, logstride, size);
    return set;
}

/* pSync of a collective: `longs` elements of long, symmetric, that the
 * implementation writes. */
static void check_psync(long *psync, size_t longs) {
    check_buffer("pSync", psync, longs, 1, sizeof(long), MPI_LONG, true);
}

static uint64_t sym_id(const shm_sym *s) {
    return ((uint64_t)s->heap << 63) | ((uint64_t)s->index << 40) | (uint64_t)s->offset;
}

/* The calling PE enters collective seq (of every PE in `set`; barrier: a
 * barrier or sync) with pSync of `longs` elements and pWrk (NULL: none):
 * every PE's pSync must hold SHMEM_SYNC_VALUE, and neither array may still
 * be in use by a collective before (shmem_psync.h).  Fails the call. */
static void psync_enter(long *psync, size_t longs, void *pwrk, uint64_t seq, bool barrier,
                        shm_set set) {
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    shm_sym s;
    if (!sym_of(self, (uintptr_t)psync, &s))
        fail("pSync %p is not a symmetric address: it must be a symmetric array of "
             "SHMEM_*_SYNC_SIZE longs",
             (void *)psync);
    longs = MIN(longs, s.room / sizeof(long));
    /* OpenSHMEM 1.4 9.9: every element on every PE of the active set is
     * SHMEM_SYNC_VALUE before any PE of it calls (the implementation puts it
     * back on return). */
    for (int k = 0; k < set.size; k++) {
        int q = set.start + (k << set.logstride);
        const long *a = (const long *)sym_addr(q, &s);
        for (size_t i = 0; a && i < longs; i++) {
            if (a[i] == SHMEM_SYNC_VALUE)
                continue;
            if (q == self)
                fail("pSync[%zu] is %ld, not SHMEM_SYNC_VALUE (%ld): every element of pSync "
                     "must be initialised to SHMEM_SYNC_VALUE before a collective uses it "
                     "(OpenSHMEM 1.4 section 9.9)",
                     i, a[i], (long)SHMEM_SYNC_VALUE);
            fail("PE %d's pSync[%zu] is %ld, not SHMEM_SYNC_VALUE (%ld), as PE %d enters: every "
                 "PE of the active set must initialise its pSync before any of them calls the "
                 "collective (OpenSHMEM 1.4 section 9.9: a barrier between the initialisation "
                 "and the call)",
                 q, i, a[i], (long)SHMEM_SYNC_VALUE, self);
        }
    }
    char *why =
        sim_shmem_psync_enter(self, "pSync", sym_id(&s), seq, barrier, set, p->call, p->call_site);
    shm_sym w;
    if (!why && pwrk && sym_of(self, (uintptr_t)pwrk, &w))
        why =
            sim_shmem_psync_enter(self, "pWrk", sym_id(&w), seq, false, set, p->call, p->call_site);
    if (why) {
        char *text = g_strdup(why);
        g_free(why);
        fail("%s", text);
    }
}

/* The calling PE returns from collective seq. */
static void psync_leave(long *psync, void *pwrk, uint64_t seq) {
    int self = sim_self();
    shm_sym s;
    if (sym_of(self, (uintptr_t)psync, &s))
        sim_shmem_psync_leave(self, sym_id(&s), seq);
    if (pwrk && sym_of(self, (uintptr_t)pwrk, &s))
        sim_shmem_psync_leave(self, sym_id(&s), seq);
}

/* The race checker: a collective of the calling PE read (writes: wrote)
 * n elements of elem bytes, stride elements apart, at addr of its own
 * memory, between its entry and its return. */
static void coll_access(const char *role, const void *addr, size_t n, ptrdiff_t stride, size_t elem,
                        bool writes) {
    if (n == 0 || elem == 0)
        return;
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    bool contiguous = stride == 1;
    sim_shmem_access a = {.rank = self,
                          .target = -1,
                          .addr = addr,
                          .len = contiguous ? n * elem : elem,
                          .count = contiguous ? 1 : n,
                          .stride = stride * (ptrdiff_t)elem,
                          .writes = writes,
                          .pending = false,
                          .what = p->call,
                          .role = role,
                          .site = p->call_site,
                          .key = sim_access_shmem_key()};
    sim_access_shmem_add(&a);
}

/* A collective's number for the pSync rules: its number on its active
 * set, mixed with the set's name for a subset (the same on every PE). */
static uint64_t set_seq(const shm_set *set, uint64_t seq) {
    return set_is_all(set) ? seq : (set_key(set) * 0x9e3779b97f4a7c15ull) ^ (seq + 1);
}

/* The sequence number of the collective c, departing from it. */
static uint64_t depart_seq(shm_coll *c) {
    uint64_t seq = c->seq;
    depart(c);
    return seq;
}

void sim_shmem_barrier_set(int start, int logstride, int size, long *psync, bool sync) {
    sim_shmem_check_active();
    sim_call_args("PE_start=%d, logPE_stride=%d, PE_size=%d", start, logstride, size);
    shm_set set = check_set(start, logstride, size);
    check_psync(psync, SHMEM_BARRIER_SYNC_SIZE);
    uint64_t seq = set_seq(&set, depart_seq(arrive_set(&set, (uint64_t)start, (uint64_t)size,
                                                       g_strdup(sim_proc_of(sim_self())->call))));
    psync_enter(psync, SHMEM_BARRIER_SYNC_SIZE, NULL, seq, true, set);
    barrier_on(set_comm(&set), !sync);
    psync_leave(psync, NULL, seq);
}

void sim_shmem_do_finalize(void) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("all PEs");
    depart(arrive(0, 0, g_strdup("shmem_finalize")));
    barrier(true);
    shm_pe *me = &S.pe[self];
    me->finalized = true;
    me->finalize_site = sim_proc_of(self)->call_site;
    sim_proc *p = sim_proc_of(self);
    if (!p->initialized) /* a program of OpenSHMEM alone: its values are final now */
        sim_observe_snapshot(p);
}

static int bytes_count(size_t nelems, size_t elem) {
    size_t n;
    if (__builtin_mul_overflow(nelems, elem, &n) || n > INT32_MAX)
        fail("%zu elements of %zu bytes are more than ordex moves in one collective (2 GiB)",
             nelems, elem);
    return (int)n;
}

void sim_shmem_broadcast(void *dest, const void *source, size_t nelems, size_t elem, int root,
                         int start, int logstride, int size, long *psync) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("PE_root=%d, PE_start=%d, logPE_stride=%d, PE_size=%d", root, start, logstride,
                  size);
    shm_set set = check_set(start, logstride, size);
    if (root < 0 || root >= size)
        fail("PE_root %d is not an index of the active set (0 to %d)", root, size - 1);
    int root_pe = set_pe(&set, root);
    int count = bytes_count(nelems, elem);
    if (count) {
        remote_of(dest, (size_t)count, self, "dest");
        remote_of(source, (size_t)count, self, "source");
        /* The root's source is read, every other PE's dest written. */
        if (self == root_pe)
            check_buffer("source", source, nelems, 1, elem, MPI_BYTE, false);
        else
            check_buffer("dest", dest, nelems, 1, elem, MPI_BYTE, true);
    }
    check_psync(psync, SHMEM_BCAST_SYNC_SIZE);
    char *desc =
        g_strdup_printf("%s(nelems=%zu, PE_root=%d)", sim_proc_of(self)->call, nelems, root);
    uint64_t seq = set_seq(&set, depart_seq(arrive_set(&set, nelems, (uint64_t)root, desc)));
    psync_enter(psync, SHMEM_BCAST_SYNC_SIZE, NULL, seq, false, set);
    sim_coll_args a = args_init();
    /* The root's dest is left alone (OpenSHMEM 1.4 9.9.4). */
    a.sendbuf = a.recvbuf = self == root_pe ? (void *)source : dest;
    a.sendcount = a.recvcount = count;
    a.sendtype = a.recvtype = MPI_BYTE;
    a.root = root;
    post_on(set_comm(&set), SIM_COLL_BCAST, &a);
    if (self == root_pe)
        coll_access("source", source, nelems, 1, elem, false);
    else
        coll_access("dest", dest, nelems, 1, elem, true);
    psync_leave(psync, NULL, seq);
}

void sim_shmem_fcollect(void *dest, const void *source, size_t nelems, size_t elem, int start,
                        int logstride, int size, long *psync) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("PE_start=%d, logPE_stride=%d, PE_size=%d", start, logstride, size);
    shm_set set = check_set(start, logstride, size);
    int count = bytes_count(nelems, elem);
    if (count) {
        remote_of(source, (size_t)count, self, "source");
        remote_of(dest, (size_t)count * (size_t)size, self, "dest");
        check_buffer("source", source, nelems, 1, elem, MPI_BYTE, false);
        check_buffer("dest", dest, nelems * (size_t)size, 1, elem, MPI_BYTE, true);
    }
    check_psync(psync, SHMEM_COLLECT_SYNC_SIZE);
    char *desc = g_strdup_printf("%s(nelems=%zu)", sim_proc_of(self)->call, nelems);
    uint64_t seq = set_seq(&set, depart_seq(arrive_set(&set, nelems, 0, desc)));
    psync_enter(psync, SHMEM_COLLECT_SYNC_SIZE, NULL, seq, false, set);
    sim_coll_args a = args_init();
    a.sendbuf = source;
    a.recvbuf = dest;
    a.sendcount = a.recvcount = count;
    a.sendtype = a.recvtype = MPI_BYTE;
    post_on(set_comm(&set), SIM_COLL_ALLGATHER, &a);
    coll_access("source", source, nelems, 1, elem, false);
    coll_access("dest", dest, nelems * (size_t)size, 1, elem, true);
    psync_leave(psync, NULL, seq);
}

void sim_shmem_alltoall(void *dest, const void *source, size_t nelems, size_t elem, int start,
                        int logstride, int size, long *psync) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("PE_start=%d, logPE_stride=%d, PE_size=%d", start, logstride, size);
    shm_set set = check_set(start, logstride, size);
    int count = bytes_count(nelems, elem);
    if (count) {
        remote_of(source, (size_t)count * (size_t)size, self, "source");
        remote_of(dest, (size_t)count * (size_t)size, self, "dest");
        check_buffer("source", source, nelems * (size_t)size, 1, elem, MPI_BYTE, false);
        check_buffer("dest", dest, nelems * (size_t)size, 1, elem, MPI_BYTE, true);
    }
    check_psync(psync, SHMEM_ALLTOALL_SYNC_SIZE);
    char *desc = g_strdup_printf("%s(nelems=%zu)", sim_proc_of(self)->call, nelems);
    uint64_t seq = set_seq(&set, depart_seq(arrive_set(&set, nelems, 0, desc)));
    psync_enter(psync, SHMEM_ALLTOALL_SYNC_SIZE, NULL, seq, false, set);
    sim_coll_args a = args_init();
    a.sendbuf = source;
    a.recvbuf = dest;
    a.sendcount = a.recvcount = count;
    a.sendtype = a.recvtype = MPI_BYTE;
    post_on(set_comm(&set), SIM_COLL_ALLTOALL, &a);
    coll_access("source", source, nelems * (size_t)size, 1, elem, false);
    coll_access("dest", dest, nelems * (size_t)size, 1, elem, true);
    psync_leave(psync, NULL, seq);
}

void sim_shmem_collect(void *dest, const void *source, size_t nelems, size_t elem, int start,
                       int logstride, int size, long *psync) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("nelems=%zu, PE_start=%d, logPE_stride=%d, PE_size=%d", nelems, start, logstride,
                  size);
    shm_set set = check_set(start, logstride, size);
    int count = bytes_count(nelems, elem);
    if (count) {
        remote_of(source, (size_t)count, self, "source");
        check_buffer("source", source, nelems, 1, elem, MPI_BYTE, false);
    }
    check_psync(psync, SHMEM_COLLECT_SYNC_SIZE);
    /* nelems may differ from PE to PE: only the element size must agree. */
    char *desc = g_strdup_printf("%s(%zu-byte elements)", sim_proc_of(self)->call, elem);
    uint64_t seq = set_seq(&set, depart_seq(arrive_set(&set, elem, 0, desc)));
    psync_enter(psync, SHMEM_COLLECT_SYNC_SIZE, NULL, seq, false, set);
    sim_comm *comm = set_comm(&set);
    /* Every PE's count first, then the blocks in PE order. */
    int *counts = g_new(int, (size_t)size), *displs = g_new(int, (size_t)size);
    sim_coll_args a = args_init();
    a.sendbuf = &count;
    a.recvbuf = counts;
    a.sendcount = a.recvcount = 1;
    a.sendtype = a.recvtype = MPI_INT;
    post_on(comm, SIM_COLL_ALLGATHER, &a);
    int64_t total = 0;
    for (int k = 0; k < size; k++) {
        displs[k] = (int)MIN(total, INT32_MAX);
        total += counts[k];
    }
    if (total > INT32_MAX) {
        g_free(counts);
        g_free(displs);
        fail("the blocks of every PE add up to %" G_GINT64_FORMAT
             " bytes, more than ordex moves in one collective (2 GiB)",
             total);
    }
    if (total) {
        remote_of(dest, (size_t)total, self, "dest");
        check_buffer("dest", dest, (size_t)total / elem, 1, elem, MPI_BYTE, true);
    }
    a = args_init();
    a.sendbuf = source;
    a.sendcount = count;
    a.sendtype = MPI_BYTE;
    a.recvbuf = dest;
    a.recvcounts = counts;
    a.rdispls = displs;
    a.recvtype = MPI_BYTE;
    post_on(comm, SIM_COLL_ALLGATHERV, &a);
    coll_access("source", source, nelems, 1, elem, false);
    coll_access("dest", dest, (size_t)total / elem, 1, elem, true);
    g_free(counts);
    g_free(displs);
    psync_leave(psync, NULL, seq);
}

void sim_shmem_alltoalls(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                         size_t nelems, size_t elem, int start, int logstride, int size,
                         long *psync) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("dst=%td, sst=%td, nelems=%zu, PE_start=%d, logPE_stride=%d, PE_size=%d", dst,
                  sst, nelems, start, logstride, size);
    shm_set set = check_set(start, logstride, size);
    if (dst < 1 || sst < 1)
        fail("a stride below 1 (dst=%td, sst=%td): strides count elements forward, 1 for "
             "contiguous data",
             dst, sst);
    int count = bytes_count(nelems, elem);
    size_t all = nelems * (size_t)size;
    if (count) {
        bytes_count(all, elem);
        remote_of(source, span_of(all, sst, elem), self, "source");
        remote_of(dest, span_of(all, dst, elem), self, "dest");
        check_buffer("source", source, all, sst, elem, MPI_BYTE, false);
        check_buffer("dest", dest, all, dst, elem, MPI_BYTE, true);
    }
    check_psync(psync, SHMEM_ALLTOALLS_SYNC_SIZE);
    char *desc = g_strdup_printf("%s(dst=%td, sst=%td, nelems=%zu)", sim_proc_of(self)->call, dst,
                                 sst, nelems);
    uint64_t seq = set_seq(
        &set, depart_seq(arrive_set(&set, nelems, ((uint64_t)dst << 32) ^ (uint64_t)sst, desc)));
    psync_enter(psync, SHMEM_ALLTOALLS_SYNC_SIZE, NULL, seq, false, set);
    /* Block j of source (its elements sst apart) goes to PE j, whose dest
     * receives it as block i of PE i (its elements dst apart): packed and
     * unpacked around an all-to-all of contiguous blocks. */
    char *out = g_malloc(all * elem + 1), *in = g_malloc(all * elem + 1);
    for (size_t i = 0; i < all; i++)
        memcpy(out + i * elem, (const char *)source + i * (size_t)sst * elem, elem);
    sim_coll_args a = args_init();
    a.sendbuf = out;
    a.recvbuf = in;
    a.sendcount = a.recvcount = count;
    a.sendtype = a.recvtype = MPI_BYTE;
    post_on(set_comm(&set), SIM_COLL_ALLTOALL, &a);
    for (size_t i = 0; i < all; i++)
        memcpy((char *)dest + i * (size_t)dst * elem, in + i * elem, elem);
    coll_access("source", source, all, sst, elem, false);
    coll_access("dest", dest, all, dst, elem, true);
    g_free(out);
    g_free(in);
    psync_leave(psync, NULL, seq);
}

void sim_shmem_reduce(void *dest, const void *source, int nreduce, MPI_Datatype type, MPI_Op op,
                      int start, int logstride, int size, void *pwrk, long *psync) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("nreduce=%d, PE_start=%d, logPE_stride=%d, PE_size=%d", nreduce, start, logstride,
                  size);
    shm_set set = check_set(start, logstride, size);
    if (nreduce < 0)
        fail("nreduce %d is negative", nreduce);
    const sim_datatype *dt = sim_dt_get(type);
    size_t esize = dt ? sim_dt_size(dt) : 0;
    if (nreduce) {
        remote_of(source, (size_t)nreduce * esize, self, "source");
        remote_of(dest, (size_t)nreduce * esize, self, "dest");
        check_buffer("source", source, (size_t)nreduce, 1, esize, type, false);
        check_buffer("dest", dest, (size_t)nreduce, 1, esize, type, true);
    }
    /* pWrk: max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements
     * (OpenSHMEM 1.4 9.9.8). */
    check_buffer("pWrk", pwrk, MAX((size_t)nreduce / 2 + 1, (size_t)SHMEM_REDUCE_MIN_WRKDATA_SIZE),
                 1, esize, type, true);
    check_psync(psync, SHMEM_REDUCE_SYNC_SIZE);
    char *desc = g_strdup_printf("%s(nreduce=%d)", sim_proc_of(self)->call, nreduce);
    uint64_t seq = set_seq(&set, depart_seq(arrive_set(&set, (uint64_t)nreduce, 0, desc)));
    psync_enter(psync, SHMEM_REDUCE_SYNC_SIZE, pwrk, seq, false, set);
    sim_coll_args a = args_init();
    /* Nothing is written before everything is read: source may be dest. */
    a.sendbuf = source;
    a.recvbuf = dest;
    a.sendcount = a.recvcount = nreduce;
    a.sendtype = a.recvtype = type;
    a.op = op;
    post_on(set_comm(&set), SIM_COLL_ALLREDUCE, &a);
    coll_access("source", source, (size_t)nreduce, 1, esize, false);
    coll_access("dest", dest, (size_t)nreduce, 1, esize, true);
    psync_leave(psync, pwrk, seq);
}

/* ---------------------------------------------------------------------- */
/* The symmetric heap                                                      */

static gint ref_cmp(gconstpointer a, gconstpointer b) {
    const shm_ref *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void ref_add(int pe, shm_obj *o, void *p, size_t size) {
    shm_ref r = {(uintptr_t)p, (uintptr_t)p + size, o};
    g_array_append_val(S.pe[pe].refs, r);
    g_array_sort(S.pe[pe].refs, ref_cmp);
    o->addr[pe] = p;
    sim_access_shmem_region(p, size, pe, true);
}

static void ref_remove(int pe, shm_obj *o) {
    GArray *refs = S.pe[pe].refs;
    for (guint i = 0; i < refs->len; i++)
        if (g_array_index(refs, shm_ref, i).obj == o) {
            const shm_ref *r = &g_array_index(refs, shm_ref, i);
            sim_access_shmem_region((const void *)r->lo, r->hi - r->lo, pe, false);
            g_array_remove_index(refs, i);
            break;
        }
    o->addr[pe] = NULL;
}

/* The heap object that ptr starts on the calling PE, or fails. */
static shm_obj *object_at(void *ptr) {
    const shm_ref *r = ref_at(&S.pe[sim_self()], (uintptr_t)ptr);
    if (!r || r->lo != (uintptr_t)ptr)
        fail("ptr %p was not returned by shmem_malloc, shmem_calloc, shmem_align or "
             "shmem_realloc%s",
             ptr, r ? " (it points inside such an object)" : ", or was freed already");
    return r->obj;
}

/* A block of size bytes in the calling PE's own heap, or fails. */
static void *arena_block(size_t align, size_t size) {
    int self = sim_self();
    void *p = sched_arena_memalign(sched_arena_of(self), align < 16 ? 16 : align, size);
    if (!p)
        fail("PE %d's heap (--heap-size) has no room for %zu more bytes of symmetric heap", self,
             size);
    return p;
}

/* A warning at the calling PE's allocation that the symmetric heap cannot
 * hold: OpenSHMEM returns NULL on every PE, which a program that does not
 * look goes on to dereference far from the cause. */
static void heap_full(const sim_proc *p, const char *what, size_t size) {
    int self = sim_self();
    sim_add_finding(SIM_F_SYMMETRIC_HEAP_FULL, &self, 1, sim_location(p->call_site),
                    g_strdup_printf("PE %d: %s returns NULL on every PE: %zu bytes do not fit in "
                                    "the symmetric heap, which holds %zu bytes with %zu in use "
                                    "(SHMEM_SYMMETRIC_SIZE sets its size)",
                                    self, what, size, S.heap_limit, S.heap_used),
                    NULL);
}

void *sim_shmem_alloc(size_t align, size_t size, bool zero) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    if (align)
        sim_call_args("align=%zu, size=%zu", align, size);
    else
        sim_call_args("size=%zu", size);
    if (align & (align - 1))
        fail("alignment %zu is not a power of two", align);
    if (size == 0) /* no action, no barrier (OpenSHMEM 1.4 9.3.1) */
        return NULL;
    char *desc = align ? g_strdup_printf("%s(align=%zu, size=%zu)", p->call, align, size)
                       : g_strdup_printf("%s(size=%zu)", p->call, size);
    shm_coll *c = arrive(size, align, desc);
    if (c->first == self && S.heap_limit - S.heap_used >= size) {
        shm_obj *o = g_new0(shm_obj, 1);
        o->index = S.objects->len;
        o->size = size;
        o->addr = g_new0(void *, (size_t)S.n);
        o->site = p->call_site;
        o->call = p->call;
        g_ptr_array_add(S.objects, o);
        S.heap_used += size;
        c->obj = o;
    }
    shm_obj *o = c->obj;
    if (!o && c->first == self)
        heap_full(p, desc, size);
    depart(c);
    void *ptr = NULL;
    if (o) {
        ptr = arena_block(align, size);
        if (zero)
            memset(ptr, 0, size);
        ref_add(self, o, ptr, size);
        o->live++;
    }
    barrier(true); /* on exit: every PE has its copy before any returns */
    return ptr;
}

static void drop_copy(int self, shm_obj *o) {
    void *old = o->addr[self];
    ref_remove(self, o);
    sched_arena_free(old);
    o->live--;
}

void sim_shmem_free(void *ptr) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    sim_call_args("ptr=%p", ptr);
    if (!ptr)
        return;
    shm_obj *o = object_at(ptr);
    char *desc =
        g_strdup_printf("%s(the object of %s at %s)", p->call, o->call, sim_location(o->site));
    shm_coll *c = arrive(o->index, 0, desc);
    /* The next allocation is decided after every PE has come here. */
    if (c->first == self)
        S.heap_used -= o->size;
    depart(c);
    barrier(true); /* on entry: no PE accesses it any more */
    drop_copy(self, o);
}

void *sim_shmem_realloc(void *ptr, size_t size) {
    if (!ptr)
        return sim_shmem_alloc(0, size, false);
    sim_shmem_check_active();
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    sim_call_args("ptr=%p, size=%zu", ptr, size);
    shm_obj *o = object_at(ptr);
    char *desc = g_strdup_printf("%s(the object of %s at %s, size=%zu)", p->call, o->call,
                                 sim_location(o->site), size);
    shm_coll *c = arrive(o->index, size, desc);
    if (c->first == self && size == 0)
        S.heap_used -= o->size;
    if (c->first == self && size) {
        size_t others = S.heap_used - o->size;
        if (S.heap_limit - others >= size) {
            S.heap_used = others + size;
            o->size = size;
            c->obj = o;
        }
    }
    bool resize = c->obj != NULL;
    if (!resize && size && c->first == self)
        heap_full(p, desc, size);
    depart(c);
    barrier(true); /* on entry: no PE accesses the old copies any more */
    if (size == 0) {
        drop_copy(self, o);
        return NULL;
    }
    if (resize) {
        const shm_ref *r = ref_at(&S.pe[self], (uintptr_t)ptr);
        size_t old = r->hi - r->lo;
        void *block = arena_block(0, size);
        memcpy(block, ptr, MIN(old, size));
        ref_remove(self, o);
        sched_arena_free(ptr);
        ref_add(self, o, block, size);
        ptr = block;
    }
    barrier(true); /* on exit: every PE has its new copy */
    /* Without room the object stays as it was (OpenSHMEM 1.4 9.3.3). */
    return resize ? ptr : NULL;
}

/* ---------------------------------------------------------------------- */
/* Puts and gets                                                           */

typedef struct copy_job {
    char *to;
    const char *from;
    size_t elem, n;
    ptrdiff_t dst, sst; /* in elements */
} copy_job;

static void copy_cb(void *p) {
    copy_job *j = p;
    if (j->dst == 1 && j->sst == 1) {
        memmove(j->to, j->from, j->elem * j->n);
        return;
    }
    for (size_t i = 0; i < j->n; i++)
        memmove(j->to + (ptrdiff_t)i * j->dst * (ptrdiff_t)j->elem,
                j->from + (ptrdiff_t)i * j->sst * (ptrdiff_t)j->elem, j->elem);
}

void sim_shmem_xfer(bool get, void *dest, const void *src, size_t elem, size_t n, ptrdiff_t dst,
                    ptrdiff_t sst, MPI_Datatype basic, int pe, unsigned flags) {
    sim_shmem_check_active();
    bool nbi = flags & SIM_XFER_NBI;
    int self = sim_self();
    uint32_t ctx = take_ctx(self);
    sim_proc *p = sim_proc_of(self);
    check_pe(pe);
    if (dst < 0 || sst < 0)
        fail("a negative stride (dst=%td, sst=%td): strides count elements forward", dst, sst);
    if (n == 0)
        return;
    size_t dspan = span_of(n, dst, elem), sspan = span_of(n, sst, elem);
    /* The target's object first (it is the one that must be symmetric),
     * then the PE's own buffer. */
    if (get)
        check_symmetric("source", src, n, sst, elem, basic, false);
    else
        check_symmetric("dest", dest, n, dst, elem, basic, true);
    if (!(flags & SIM_XFER_VALUE)) {
        if (get)
            check_buffer("dest", dest, n, dst, elem, basic, true);
        else
            check_buffer("source", src, n, sst, elem, basic, false);
    }
    uintptr_t r = remote_of(get ? src : dest, get ? sspan : dspan, pe, get ? "source" : "dest");
    copy_job j = {get ? dest : (char *)r, get ? (const char *)r : src, elem, n, dst, sst};
    sched_fault fault;
    if (!sched_protected(copy_cb, &j, &fault))
        fail("the %s buffer %p cannot be %s (invalid address %p)", get ? "destination" : "source",
             get ? dest : (void *)src, get ? "written" : "read", fault.addr);
    /* The race checker: the PE's own buffer, then the target's bytes. */
    uint64_t key = sim_access_shmem_key();
    bool contiguous = (get ? dst : sst) == 1;
    sim_shmem_access loc = {.rank = self,
                            .target = -1,
                            .addr = get ? dest : src,
                            .len = contiguous ? elem * n : elem,
                            .count = contiguous ? 1 : n,
                            .stride = (get ? dst : sst) * (ptrdiff_t)elem,
                            .writes = get,
                            .pending = nbi,
                            .what = p->call,
                            .role = get ? "destination buffer" : "source buffer",
                            .site = p->call_site,
                            .key = key,
                            .ctx = ctx};
    if (!(flags & SIM_XFER_VALUE))
        sim_access_shmem_add(&loc);
    bool tcontig = (get ? sst : dst) == 1;
    sim_shmem_access tgt = {.rank = self,
                            .target = pe,
                            .addr = (const void *)r,
                            .len = tcontig ? elem * n : elem,
                            .count = tcontig ? 1 : n,
                            .stride = (get ? sst : dst) * (ptrdiff_t)elem,
                            .writes = !get,
                            .fetches = get,
                            .pending = get ? nbi : true,
                            .what = p->call,
                            .role = "target",
                            .site = p->call_site,
                            .key = key,
                            .ctx = ctx};
    sim_access_shmem_add(&tgt);
    /* predict: a put is a message, a get a request and a reply */
    uint64_t bytes = elem * n;
    uint64_t timed = sim_timed_shmem_issue(self, pe, get ? 0 : bytes, get ? bytes : 0, get, 0);
    if (get && !nbi)
        sim_timed_shmem_wait(timed);
    if (get)
        spin_check(r, get ? sspan : dspan);
    else
        note_write(pe, r, r + dspan, self, key, false, timed, ctx);
}

/* ---------------------------------------------------------------------- */
/* Atomics                                                                 */

static uint64_t load_n(const void *p, size_t size) {
    uint64_t v = 0;
    memcpy(&v, p, size); /* little-endian: the low bytes */
    return v;
}

static bool amo_fetches(sim_shmem_amo op) {
    switch (op) {
    case SIM_AMO_SET:
    case SIM_AMO_INC:
    case SIM_AMO_ADD:
    case SIM_AMO_AND:
    case SIM_AMO_OR:
    case SIM_AMO_XOR:
        return false;
    default:
        return true;
    }
}

/* An atomic waiting for its turn (shmem_events.h). */
typedef struct amo_job {
    sim_shmem_amo op;
    uintptr_t r;
    size_t size;
    uint64_t v, cond, old;
    bool writes;
} amo_job;

/* The atomic applies: at its event, so that every order of concurrent
 * atomics is tried. */
static void amo_apply(shm_turn *t) {
    amo_job *j = t->data;
    size_t size = j->size;
    uint64_t old = load_n((const void *)j->r, size), v = j->v, nv = old;
    bool writes = true;
    switch (j->op) {
    case SIM_AMO_FETCH:
        writes = false;
        break;
    case SIM_AMO_SET:
    case SIM_AMO_SWAP:
        nv = v;
        break;
    case SIM_AMO_CSWAP:
        writes = old == j->cond;
        nv = writes ? v : old;
        break;
    case SIM_AMO_FINC:
    case SIM_AMO_INC:
        nv = old + 1;
        break;
    case SIM_AMO_FADD:
    case SIM_AMO_ADD:
        nv = old + v;
        break;
    case SIM_AMO_FAND:
    case SIM_AMO_AND:
        nv = old & v;
        break;
    case SIM_AMO_FOR:
    case SIM_AMO_OR:
        nv = old | v;
        break;
    case SIM_AMO_FXOR:
    case SIM_AMO_XOR:
        nv = old ^ v;
        break;
    }
    if (writes)
        memcpy((void *)j->r, &nv, size);
    j->old = old;
    j->writes = writes;
}

/* Whether the order of atomic op relative to others at one place shows:
 * it fetches, or it does not commute with an add (the only ones that
 * commute with each other are adds and increments). */
static bool amo_observes(sim_shmem_amo op) {
    return op != SIM_AMO_INC && op != SIM_AMO_ADD;
}

void sim_shmem_atomic(sim_shmem_amo op, void *dest, const void *value, const void *cond,
                      void *result, size_t size, MPI_Datatype basic, int pe) {
    sim_shmem_check_active();
    int self = sim_self();
    uint32_t ctx = take_ctx(self);
    sim_proc *p = sim_proc_of(self);
    check_pe(pe);
    check_symmetric("dest", dest, 1, 1, size, basic, op != SIM_AMO_FETCH);
    uintptr_t r = remote_of(dest, size, pe, "dest");
    if (r % size)
        fail("dest %p is not aligned to its %zu-byte type", dest, size);
    amo_job job = {op, r,    size, value ? load_n(value, size) : 0, cond ? load_n(cond, size) : 0,
                   0,  false};
    shm_turn turn = {.kind = SIM_EV_ATOMIC,
                     .rank = self,
                     .peer = pe,
                     .object = (uint32_t)(r ^ (r >> 32)) | 1u,
                     .observes = amo_observes(op),
                     .digest = ((uint64_t)op << 56) ^ (uint64_t)r,
                     .call = p->call,
                     .site = p->call_site,
                     .apply = amo_apply,
                     .data = &job};
    sim_shmem_turn_wait(&turn);
    uint64_t old = job.old;
    bool writes = job.writes;
    bool fetches = amo_fetches(op);
    if (fetches && result)
        memcpy(result, &old, size);
    uint64_t key = sim_access_shmem_key();
    sim_shmem_access tgt = {.rank = self,
                            .target = pe,
                            .addr = (const void *)r,
                            .len = size,
                            .count = 1,
                            .stride = 0,
                            .writes = op != SIM_AMO_FETCH,
                            .atomic = true,
                            .basic = basic,
                            .fetches = fetches,
                            .pending = !fetches,
                            .what = p->call,
                            .role = "target",
                            .site = p->call_site,
                            .key = key,
                            .ctx = ctx};
    sim_access_shmem_add(&tgt);
    /* predict: the operands go to the target, which computes, and a
     * fetching atomic waits for the old value */
    uint64_t out = op == SIM_AMO_FETCH ? 0 : op == SIM_AMO_CSWAP ? 2 * size : size;
    uint64_t timed = sim_timed_shmem_issue(self, pe, out, fetches ? size : 0, fetches,
                                           SIM_TIMED_ACC_ELEMENT_WORK);
    if (fetches)
        sim_timed_shmem_wait(timed);
    if (writes)
        note_write(pe, r, r + size, self, key, true, timed, ctx);
    else if (op == SIM_AMO_FETCH || op == SIM_AMO_CSWAP)
        spin_check(r, size);
}

/* ---------------------------------------------------------------------- */
/* Ordering and point-to-point synchronisation                             */

void sim_shmem_fence(void) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_access_shmem_fence(self, take_ctx(self));
}

void sim_shmem_quiet(void) {
    sim_shmem_check_active();
    int self = sim_self();
    quiet_ctx(self, take_ctx(self));
}

/* ---------------------------------------------------------------------- */
/* Contexts                                                                */

/* A context's handle names its PE and its id: a PE cannot use another's. */
static void *ctx_handle(int pe, uint32_t id) {
    return (void *)(uintptr_t)(((uint64_t)(uint32_t)(pe + 1) << 32) | id);
}

/* The id of the calling PE's context h, or fails. */
static uint32_t ctx_id(const void *h) {
    int self = sim_self();
    uint64_t v = (uint64_t)(uintptr_t)h;
    int pe = (int)(v >> 32) - 1;
    uint32_t id = (uint32_t)v;
    if (pe != self || id == 0) {
        if (pe >= 0 && pe < S.n && id)
            fail("ctx %p is a context of PE %d: a context serves only the PE that created it", h,
                 pe);
        fail("ctx %p is neither SHMEM_CTX_DEFAULT nor a context that shmem_ctx_create made", h);
    }
    const GArray *c = S.pe[self].ctxs;
    for (guint i = 0; i < c->len; i++)
        if (g_array_index(c, uint32_t, i) == id)
            return id;
    fail("ctx %p was destroyed (shmem_ctx_destroy)", h);
}

void sim_shmem_ctx_use(const void *ctx, bool is_default) {
    sim_shmem_check_active();
    int self = sim_self();
    S.pe[self].call_ctx = is_default ? 0 : ctx_id(ctx);
}

/* The context of the call in progress, which the next call will not have
 * unless it says so. */
static uint32_t take_ctx(int self) {
    uint32_t c = S.pe[self].call_ctx;
    S.pe[self].call_ctx = 0;
    return c;
}

int sim_shmem_ctx_create(long options, void **ctx) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("options=%ld", options);
    long known = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
    if (options & ~known)
        fail("options %ld has bits that are none of SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE and "
             "SHMEM_CTX_NOSTORE",
             options);
    if (!ctx)
        fail("ctx is NULL: shmem_ctx_create stores the new context there");
    shm_pe *me = &S.pe[self];
    uint32_t id = ++me->next_ctx;
    g_array_append_val(me->ctxs, id);
    *ctx = ctx_handle(self, id);
    return 0;
}

void sim_shmem_ctx_destroy(const void *ctx, bool is_default) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_call_args("ctx=%p", ctx);
    if (is_default)
        fail("ctx is SHMEM_CTX_DEFAULT, which cannot be destroyed (OpenSHMEM 1.4 9.4.2)");
    uint32_t id = ctx_id(ctx);
    /* Its operations complete first. */
    quiet_ctx(self, id);
    GArray *c = S.pe[self].ctxs;
    for (guint i = 0; i < c->len; i++)
        if (g_array_index(c, uint32_t, i) == id) {
            g_array_remove_index(c, i);
            break;
        }
}

static const char *cmp_name(int cmp) {
    switch (cmp) {
    case SHMEM_CMP_EQ:
        return "SHMEM_CMP_EQ";
    case SHMEM_CMP_NE:
        return "SHMEM_CMP_NE";
    case SHMEM_CMP_GT:
        return "SHMEM_CMP_GT";
    case SHMEM_CMP_GE:
        return "SHMEM_CMP_GE";
    case SHMEM_CMP_LT:
        return "SHMEM_CMP_LT";
    case SHMEM_CMP_LE:
        return "SHMEM_CMP_LE";
    }
    return NULL;
}

/* Whether the element at p compares to value as cmp says. */
static bool holds(const volatile void *p, size_t size, sim_shmem_kind kind, int cmp,
                  const void *value) {
    uint64_t a = load_n((const void *)p, size), b = load_n(value, size);
    int c;
    if (kind == SIM_SHMEM_SIGNED) {
        int shift = 64 - 8 * (int)size;
        int64_t x = (int64_t)(a << shift) >> shift, y = (int64_t)(b << shift) >> shift;
        c = x < y ? -1 : x > y;
    } else {
        c = a < b ? -1 : a > b;
    }
    switch (cmp) {
    case SHMEM_CMP_EQ:
        return c == 0;
    case SHMEM_CMP_NE:
        return c != 0;
    case SHMEM_CMP_GT:
        return c > 0;
    case SHMEM_CMP_GE:
        return c >= 0;
    case SHMEM_CMP_LT:
        return c < 0;
    default:
        return c <= 0;
    }
}

bool sim_shmem_wait(volatile void *ivar, size_t size, sim_shmem_kind kind, int cmp,
                    const void *value, bool test) {
    sim_shmem_check_active();
    int self = sim_self();
    shm_pe *me = &S.pe[self];
    const char *cn = cmp_name(cmp);
    if (!cn)
        fail("cmp %d is not one of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE", cmp);
    /* The MPI type of the C type the call names, for the buffer checks. */
    MPI_Datatype basic = MPI_BYTE;
    if (size == 2)
        basic = kind == SIM_SHMEM_SIGNED ? MPI_SHORT : MPI_UNSIGNED_SHORT;
    else if (size == 4)
        basic = kind == SIM_SHMEM_SIGNED ? MPI_INT : MPI_UNSIGNED;
    else if (size == 8)
        basic = kind == SIM_SHMEM_SIGNED ? MPI_LONG : MPI_UNSIGNED_LONG;
    check_symmetric("ivar", (const void *)ivar, 1, 1, size, basic, false);
    remote_of((const void *)ivar, size, self, "ivar");
    uint64_t v = load_n(value, size);
    char *where = short_name(self, (const void *)ivar);
    if (kind == SIM_SHMEM_SIGNED) {
        int shift = 64 - 8 * (int)size;
        sim_call_args("ivar=%s, cmp=%s, value=%" G_GINT64_FORMAT, where, cn,
                      (int64_t)(v << shift) >> shift);
    } else {
        sim_call_args("ivar=%s, cmp=%s, value=%" G_GUINT64_FORMAT, where, cn, v);
    }
    g_free(where);
    uintptr_t lo = (uintptr_t)ivar, hi = lo + size;
    for (;;) {
        if (holds(ivar, size, kind, cmp, value)) {
            /* A test that could succeed may say "not yet" (as MPI_Test). */
            if (test && sim_test_later("shmem_test:now-or-later")) {
                sim_poll_later();
                return false;
            }
            observe(self, lo, hi);
            return true;
        }
        if (test) {
            sim_poll_block();
            return false;
        }
        me->waiting = true;
        me->wait_lo = lo;
        me->wait_hi = hi;
        me->wait_kind = kind;
        me->wait_cmp = cmp;
        me->wait_value = load_n(value, size);
        sched_block();
        me->waiting = false;
    }
}

bool sim_shmem_wake_satisfied(void) {
    if (!S.pe)
        return false;
    /* MPI may have written the watched bytes (a put into a window, a
     * message, a collective); OpenSHMEM's own writes wake the PE in
     * note_write. */
    bool any = false;
    for (int r = 0; r < S.n; r++) {
        const shm_pe *p = &S.pe[r];
        if (p->waiting && holds((const void *)p->wait_lo, p->wait_hi - p->wait_lo, p->wait_kind,
                                p->wait_cmp, &p->wait_value)) {
            sched_wake(r);
            any = true;
        }
    }
    return any;
}

/* ---------------------------------------------------------------------- */
/* Locks                                                                   */

static shm_lock *lock_of(volatile long *lock) {
    int self = sim_self();
    shm_sym s;
    if (sym_of(self, (uintptr_t)lock, &s))
        check_buffer("lock", (const void *)lock, 1, 1, sizeof(long), MPI_LONG, true);
    if (!sym_of(self, (uintptr_t)lock, &s) || s.room < sizeof(long))
        fail("lock %p is not a symmetric long: a lock must be a symmetric data object", lock);
    uint64_t id = ((uint64_t)s.heap << 63) | ((uint64_t)s.index << 40) | (uint64_t)s.offset;
    shm_lock *l = g_hash_table_lookup(S.locks, &id);
    if (!l) {
        l = g_new0(shm_lock, 1);
        l->id = id;
        l->holder = -1;
        l->waiters = g_array_new(FALSE, FALSE, sizeof(int));
        g_hash_table_insert(S.locks, &l->id, l);
    }
    char *name = short_name(self, (const void *)lock);
    sim_call_args("lock=%s", name);
    g_free(name);
    return l;
}

/* A waiting set_lock's turn comes when the lock is free: any waiter may
 * get it (OpenSHMEM does not say which), so exploring tries each. */
static bool lock_is_free(const shm_turn *t) {
    return ((const shm_lock *)t->data)->holder < 0;
}

static void lock_grant(shm_turn *t) {
    shm_lock *l = t->data;
    l->holder = t->rank;
    for (guint i = 0; i < l->waiters->len; i++)
        if (g_array_index(l->waiters, int, i) == t->rank) {
            g_array_remove_index(l->waiters, i);
            break;
        }
}

void sim_shmem_set_lock(volatile long *lock) {
    sim_shmem_check_active();
    int self = sim_self();
    sim_proc *p = sim_proc_of(self);
    shm_lock *l = lock_of(lock);
    if (l->holder == self)
        fail("PE %d holds this lock already: it would wait for itself for ever", self);
    g_array_append_val(l->waiters, self);
    S.pe[self].lock_wait = l;
    shm_turn turn = {.kind = SIM_EV_LOCK,
                     .rank = self,
                     .peer = -1,
                     .object = (uint32_t)(l->id ^ (l->id >> 32)) | 1u,
                     .digest = l->id,
                     .call = p->call,
                     .site = p->call_site,
                     .ready = lock_is_free,
                     .apply = lock_grant,
                     .data = l};
    sim_shmem_turn_wait(&turn);
    S.pe[self].lock_wait = NULL;
    sim_access_acquire(self, l->released);
    /* predict: the request and the grant, a round trip to PE 0 */
    sim_timed_shmem_wait(sim_timed_shmem_issue(self, 0, sizeof(long), sizeof(long), true, 0));
}

void sim_shmem_clear_lock(volatile long *lock) {
    sim_shmem_check_active();
    int self = sim_self();
    shm_lock *l = lock_of(lock);
    if (l->holder != self) {
        if (l->holder >= 0)
            fail("PE %d does not hold this lock (PE %d does)", self, l->holder);
        fail("PE %d does not hold this lock (no PE does)", self);
    }
    /* Everything done in the critical section completes first. */
    quiet(self);
    sim_vc *c = sim_access_release(self);
    l->released = sim_vc_join(l->released, c);
    sim_vc_free(c);
    /* A waiter's turn (lock_grant) hands it over; predict: the release is
     * a message to PE 0 that nobody waits for. */
    sim_timed_shmem_issue(self, 0, sizeof(long), 0, false, 0);
    l->holder = -1;
    sim_events_changed();
}

int sim_shmem_test_lock(volatile long *lock) {
    sim_shmem_check_active();
    int self = sim_self();
    shm_lock *l = lock_of(lock);
    if (l->holder < 0) {
        /* It could get the lock; like MPI_Test, it may say "not yet"
         * (exploring, with --test-later). */
        if (sim_test_later("shmem_test_lock:now-or-later")) {
            sim_poll_later();
            return 1;
        }
        l->holder = self;
        sim_events_changed(); /* the waiters' turns cannot come now */
        sim_access_acquire(self, l->released);
        return 0;
    }
    sim_poll_block();
    return 1;
}

/* ---------------------------------------------------------------------- */
/* Reports and state                                                       */

void sim_shmem_waits_of(int rank, GArray *to) {
    if (!S.pe || rank < 0 || rank >= S.n)
        return;
    const shm_pe *me = &S.pe[rank];
    if (me->waiting) {
        for (int r = 0; r < S.n; r++)
            if (r != rank)
                g_array_append_val(to, r);
    } else if (me->lock_wait && me->lock_wait->holder >= 0) {
        g_array_append_val(to, me->lock_wait->holder);
    }
}

/* A 64-bit mixer (splitmix64's finaliser): sums of mixed values hash sets. */
static uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static gint u64_cmp(gconstpointer a, gconstpointer b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void sim_shmem_digest(sim_digest_feed feed, void *user) {
    if (!S.pe)
        return;
    uint64_t min_colls = UINT64_MAX;
    for (int r = 0; r < S.n; r++)
        min_colls = MIN(min_colls, S.pe[r].colls);
    for (int r = 0; r < S.n; r++) {
        const shm_pe *p = &S.pe[r];
        int64_t f[7] = {p->initialized,
                        p->finalized,
                        (int64_t)(p->colls - min_colls),
                        p->waiting,
                        (int64_t)p->wait_lo,
                        (int64_t)p->wait_hi,
                        p->lock_wait ? (int64_t)p->lock_wait->id : -1};
        feed(user, f, sizeof f);
        if (p->ctxs) { /* the live contexts */
            uint32_t nc = p->ctxs->len;
            feed(user, &nc, sizeof nc);
            feed(user, p->ctxs->data, sizeof(uint32_t) * nc);
        }
        for (guint i = 0; p->refs && i < p->refs->len; i++) {
            const shm_ref *ref = &g_array_index(p->refs, shm_ref, i);
            int64_t g[2] = {(int64_t)ref->lo, (int64_t)ref->hi};
            feed(user, g, sizeof g);
        }
        /* The writes as a set (a sum of their hashes), the writers of one
         * as a multiset: atomics at different places, or adds at one place,
         * that came in another order leave the same state. */
        uint64_t sum = 0;
        for (guint i = 0; p->writes && i < p->writes->len; i++) {
            const shm_write *w = g_ptr_array_index(p->writes, i);
            uint64_t h = mix((uint64_t)w->lo) ^ mix((uint64_t)w->hi + 1);
            uint64_t ws = 0;
            for (guint k = 0; k < w->writers->len; k++)
                ws += mix((uint64_t)g_array_index(w->writers, shm_writer, k).origin + 7);
            sum += mix(h ^ ws);
        }
        feed(user, &sum, sizeof sum);
    }
    /* Collectives in progress, by position relative to the slowest PE. */
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, S.colls);
    while (g_hash_table_iter_next(&it, &k, &v))
        g_array_append_val(keys, ((shm_coll *)v)->seq);
    g_array_sort(keys, u64_cmp);
    for (guint i = 0; i < keys->len; i++) {
        const shm_coll *c = g_hash_table_lookup(S.colls, &g_array_index(keys, uint64_t, i));
        int64_t g[6] = {(int64_t)(c->seq - min_colls),
                        (int64_t)(intptr_t)c->call,
                        (int64_t)c->a,
                        (int64_t)c->b,
                        c->first,
                        c->departed};
        feed(user, g, sizeof g);
    }
    /* Subsets' collectives (as sets: hash tables have no stable order):
     * each PE's count per active set, and the collectives in progress. */
    uint64_t sets = 0;
    for (int r = 0; r < S.n; r++) {
        if (!S.pe[r].set_colls)
            continue;
        g_hash_table_iter_init(&it, S.pe[r].set_colls);
        while (g_hash_table_iter_next(&it, &k, &v))
            sets += mix(mix(*(uint64_t *)k + (uint64_t)r) ^ *(uint64_t *)v);
    }
    g_hash_table_iter_init(&it, S.sets);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        GHashTableIter ci;
        gpointer ck, cv;
        g_hash_table_iter_init(&ci, v);
        while (g_hash_table_iter_next(&ci, &ck, &cv)) {
            const shm_coll *c = cv;
            sets +=
                mix(mix(mix(*(uint64_t *)k ^ c->seq) ^ (uint64_t)(intptr_t)c->call) ^
                    mix(c->a ^ (c->b << 1)) ^ ((uint64_t)c->first << 32 | (uint32_t)c->departed));
        }
    }
    feed(user, &sets, sizeof sets);
    g_array_set_size(keys, 0);
    g_hash_table_iter_init(&it, S.locks);
    while (g_hash_table_iter_next(&it, &k, &v))
        g_array_append_val(keys, ((shm_lock *)v)->id);
    g_array_sort(keys, u64_cmp);
    for (guint i = 0; i < keys->len; i++) {
        const shm_lock *l = g_hash_table_lookup(S.locks, &g_array_index(keys, uint64_t, i));
        int64_t g[3] = {(int64_t)l->id, l->holder, l->waiters->len};
        feed(user, g, sizeof g);
        feed(user, l->waiters->data, sizeof(int) * l->waiters->len);
    }
    g_array_free(keys, TRUE);
    int64_t heap = (int64_t)S.heap_used;
    feed(user, &heap, sizeof heap);
    sim_shmem_events_digest(feed, user);
    sim_shmem_psync_digest(feed, user);
}
