/*
 * access.c - data races on one-sided communication (see access.h and
 * docs/rma.md).
 *
 * Clocks.  Rank r's clock vc[r] counts, for every rank q, how many of q's
 * releases r has synchronised with (FastTrack's epochs: an event of q at
 * counter c happens before r's present iff vc[r][q] >= c).  A release
 * copies the clock and then moves the releasing rank's own counter on, so
 * that what it does afterwards is not covered by the copy.
 *
 * Records.  An access is a record: who made it, which bytes, how (read,
 * write, atomic with its basic type and op), where, and its end: pending
 * while the operation has not completed, else the epoch (rank, counter) of
 * the synchronisation that completed it.  A new access A is checked
 * against every record B before it: they race when they conflict and B's
 * end does not happen before A's start (B still pending, or
 * start(A)[end_rank(B)] < end_clock(B)).  Checking each pair once, when its
 * second access starts, is enough: the first access's end either happens
 * before that moment or it does not happen before it at all.
 *
 * A record is dropped once every rank's clock covers its end: nothing to
 * come can race with it.  Plain accesses of a rank within one epoch from
 * one instruction coalesce into one record (a few instructions per rank
 * stay open at once), so that a loop over a window costs one record per
 * epoch, not one per element.  Its check, too, is paid once: the record
 * keeps the stretch of bytes around its latest access that nothing it may
 * race with touches, and the loop's next element, inside that stretch, is
 * added without a search as long as no operation or buffer was recorded,
 * and no other rank's plain record made or grown, since.
 */
#include "simulator/access.h"

#include <glib.h>
#include <string.h>

#include "scheduler/access_hook.h"
#include "scheduler/sched.h"
#include "simulator/coll.h"
#include "simulator/datatype.h"
#include "simulator/engine.h"
#include "simulator/report.h"
#include "simulator/request.h"
#include "simulator/rma.h"
#include "simulator/sim_internal.h"

/* Keys of records: RMA operations have their issue order + 1, buffers of
 * nonblocking operations BUFFER_KEY and up. */
#define BUFFER_KEY (UINT64_C(1) << 62)

/* How many plain records per rank stay open for coalescing, the most
 * recently made first: a loop's body holds several accesses (the loads of
 * a stencil, the store of its result), and each must find its own record,
 * or every access of the loop would make a new one. */
#define RECENT 8

struct sim_vc {
    uint32_t c[1]; /* [nranks] */
};

typedef struct acc_block {
    uintptr_t lo, hi;
} acc_block;

/* Which side of an RMA operation a record stands for. */
typedef enum acc_side {
    SIDE_PLAIN,  /* a load or store of the program */
    SIDE_BUFFER, /* the buffer of a nonblocking send or receive: ends at its wait */
    SIDE_TARGET, /* the target bytes: ends at remote completion */
    SIDE_LOCAL,  /* origin, compare or result buffer: ends at local completion */
} acc_side;

typedef struct acc_rec {
    uintptr_t lo, hi; /* the bytes' bounds */
    GArray *blocks;   /* acc_block, sorted; NULL when [lo, hi) is all */
    int rank;         /* world rank that made it (the origin of an operation) */
    bool writes, atomic;
    MPI_Datatype basic; /* atomics: the basic type ... */
    MPI_Op op;          /* ... and the op (compare_and_swap: MPI_REPLACE) */
    acc_side side;
    bool fetches;     /* the target side of a get or a fetching accumulate */
    const char *what; /* "MPI_Put", "store", "load" */
    const char *role; /* "origin buffer", "result buffer", ... or NULL */
    void *site;
    uint64_t key; /* the operation (rma issue order + 1), 0 for plain */
    int win;      /* window index of an operation, -1 for plain */
    int wtarget;  /* window rank of the target */
    bool pending;
    bool marked; /* its bytes are tracked for the load/store hooks */
    int end_rank;
    uint32_t end_clock;
    const char *end_call; /* what completed it */
    void *end_site;
    const char *epoch_call; /* what opened the origin's epoch */
    void *epoch_site;
    sim_vc *start;    /* deferred (PSCW) target access: its start clock */
    uint64_t checked; /* plain: A.added when made; it has met the records added before */
    /* Plain, open for coalescing: around its latest access, the bytes that
     * no record it may race with touched when it was checked, and how many
     * changes other ranks had made to plain records then. */
    uintptr_t clear_lo, clear_hi;
    uint64_t others_seen;
} acc_rec;

/* Memory of a window member (or an attached region). */
typedef struct acc_region {
    uintptr_t lo, hi;
    int owner; /* world rank */
} acc_region;

typedef struct lock_clocks {
    sim_vc *after_exclusive; /* releases of exclusive locks on the target */
    sim_vc *after_any;       /* releases of every lock on the target */
} lock_clocks;

static struct {
    bool tracking; /* records and the access hook exist */
    bool on;       /* clocks too: a window exists */
    int n;
    uint32_t *vc;           /* [n * n]: vc[r * n + q] */
    uint32_t *last_release; /* [n]: each rank's counter at its latest release */
    GPtrArray *records;     /* acc_rec *, in start order */
    GPtrArray *deferred;    /* PSCW target accesses waiting for their post */
    acc_rec ***recent;      /* [n]: NULL or [RECENT] open plain records, by instruction */
    guint prune_at;         /* prune when this many records exist */
    GHashTable *locks;      /* "win/target" -> lock_clocks */
    GHashTable *held;       /* "win/origin/target" -> lock type */
    GHashTable *posts;      /* "win/target/origin" -> GQueue of sim_vc (posts not yet met) */
    GHashTable *completes;  /* "win/origin/target" -> GQueue of sim_vc */
    GHashTable *reported;   /* "site|site" pairs reported */
    GArray *regions;        /* acc_region of window memory */
    uint64_t next_buffer;   /* keys of nonblocking buffers, from BUFFER_KEY */
    uint64_t added;         /* how many operation and buffer records were checked in */
    uint64_t plain_changes; /* plain records made or grown, by any rank ... */
    uint64_t *own_changes;  /* [n] ... and by each */
} A;

/* ---------------------------------------------------------------------- */
/* Vector clocks                                                           */

static uint32_t *vc_of(int rank) {
    return &A.vc[(size_t)rank * (size_t)A.n];
}

sim_vc *sim_vc_join(sim_vc *into, const sim_vc *x) {
    if (!x)
        return into;
    if (!into)
        return g_memdup2(x, sizeof(uint32_t) * (size_t)A.n);
    for (int q = 0; q < A.n; q++)
        if (into->c[q] < x->c[q])
            into->c[q] = x->c[q];
    return into;
}

void sim_vc_free(sim_vc *vc) {
    g_free(vc);
}

static void prune(void);
static void forget_recent(const acc_rec *r);
static bool settled(const acc_rec *r);
static void drop_buffer(sim_request *req, bool waited);
static void start_tracking(void);

sim_vc *sim_access_release(int rank) {
    if (!A.on || rank < 0)
        return NULL;
    uint32_t *me = vc_of(rank);
    sim_vc *copy = g_memdup2(me, sizeof(uint32_t) * (size_t)A.n);
    A.last_release[rank] = me[rank];
    me[rank]++;
    if (A.recent[rank]) /* a new epoch: no more coalescing */
        memset(A.recent[rank], 0, RECENT * sizeof(acc_rec *));
    if (A.records->len >= A.prune_at)
        prune();
    return copy;
}

static void acquire(int rank, const sim_vc *x) {
    if (!x)
        return;
    uint32_t *me = vc_of(rank);
    for (int q = 0; q < A.n; q++)
        if (me[q] < x->c[q])
            me[q] = x->c[q];
}

/* ---------------------------------------------------------------------- */
/* Records                                                                 */

/* Tracks r's bytes: a buffer of the program's own memory that an operation
 * reads or writes is seen by the hooks only while it is tracked. */
static void rec_mark(acc_rec *r) {
    sched_access_mark((const void *)r->lo, r->hi - r->lo);
    r->marked = true;
}

static void rec_unmark(acc_rec *r) {
    if (!r->marked)
        return;
    sched_access_unmark((const void *)r->lo, r->hi - r->lo);
    r->marked = false;
}

static void rec_free(acc_rec *r) {
    rec_unmark(r);
    if (r->blocks)
        g_array_free(r->blocks, TRUE);
    sim_vc_free(r->start);
    g_free(r);
}

static gint block_cmp(gconstpointer a, gconstpointer b) {
    const acc_block *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

typedef struct block_ctx {
    uintptr_t base;
    GArray *blocks;
} block_ctx;

static void add_block(MPI_Aint off, size_t len, void *data) {
    block_ctx *b = data;
    if (!len)
        return;
    acc_block k = {b->base + (uintptr_t)off, b->base + (uintptr_t)off + len};
    g_array_append_val(b->blocks, k);
}

/* The bytes of count elements of type at buf into r (false: none). */
static bool rec_set_bytes(acc_rec *r, const void *buf, int count, MPI_Datatype type) {
    const sim_datatype *dt = sim_dt_get(type);
    if (!dt || !buf || count <= 0)
        return false;
    block_ctx b = {(uintptr_t)buf, g_array_new(FALSE, FALSE, sizeof(acc_block))};
    sim_dt_each_block(dt, count, add_block, &b);
    if (b.blocks->len == 0) {
        g_array_free(b.blocks, TRUE);
        return false;
    }
    g_array_sort(b.blocks, block_cmp);
    /* Merge touching and overlapping stretches. */
    guint k = 0;
    acc_block *v = (acc_block *)(void *)b.blocks->data;
    for (guint i = 1; i < b.blocks->len; i++) {
        if (v[i].lo <= v[k].hi) {
            if (v[i].hi > v[k].hi)
                v[k].hi = v[i].hi;
        } else {
            v[++k] = v[i];
        }
    }
    g_array_set_size(b.blocks, k + 1);
    r->lo = v[0].lo;
    r->hi = v[k].hi;
    if (k == 0)
        g_array_free(b.blocks, TRUE);
    else
        r->blocks = b.blocks;
    return true;
}

static const acc_block *rec_blocks(const acc_rec *r, guint *n, acc_block *one) {
    if (r->blocks) {
        *n = r->blocks->len;
        return (const acc_block *)(const void *)r->blocks->data;
    }
    one->lo = r->lo;
    one->hi = r->hi;
    *n = 1;
    return one;
}

/* The first byte both touch, or 0 when they share none. */
static uintptr_t overlap(const acc_rec *a, const acc_rec *b) {
    if (a->hi <= b->lo || b->hi <= a->lo)
        return 0;
    acc_block oa, ob;
    guint na, nb;
    const acc_block *x = rec_blocks(a, &na, &oa), *y = rec_blocks(b, &nb, &ob);
    guint i = 0, j = 0;
    while (i < na && j < nb) {
        uintptr_t lo = MAX(x[i].lo, y[j].lo), hi = MIN(x[i].hi, y[j].hi);
        if (lo < hi)
            return lo;
        if (x[i].hi < y[j].hi)
            i++;
        else
            j++;
    }
    return 0;
}

static bool ops_compatible(MPI_Op a, MPI_Op b) {
    /* accumulate_ops = same_op_no_op, MPI's default (MPI 3.1 11.2.1). */
    return a == b || a == MPI_NO_OP || b == MPI_NO_OP;
}

static bool conflict(const acc_rec *a, const acc_rec *b) {
    if (!a->writes && !b->writes)
        return false;
    if (a->atomic && b->atomic)
        return a->basic != b->basic || a->basic == MPI_DATATYPE_NULL ||
               !ops_compatible(a->op, b->op);
    return true;
}

/* Whether b's end happens before an access that starts at clock start
 * (NULL while there are no clocks: only pending buffers are recorded then). */
static bool ordered_before(const acc_rec *b, const uint32_t *start) {
    return !b->pending && (!start || start[b->end_rank] >= b->end_clock);
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                 */

static int window_owner(uintptr_t addr, uintptr_t *base, uintptr_t *end);

static char *describe(const acc_rec *r) {
    GString *s = g_string_new(NULL);
    if (r->side == SIDE_PLAIN)
        g_string_append_printf(s, "a %s by rank %d at %s", r->what, r->rank, sim_location(r->site));
    else
        g_string_append_printf(s, "%s by rank %d at %s (%s)", r->what, r->rank,
                               sim_location(r->site), r->role);
    return g_string_free(s, FALSE);
}

/* Why b (earlier) does not happen before a (later). */
static char *why_unordered(const acc_rec *b, const acc_rec *a) {
    if (b->side == SIDE_BUFFER && b->pending)
        return g_strdup_printf("%s at %s had not completed (no wait or test had returned its "
                               "request) when %s at %s started",
                               b->what, sim_location(b->site), a->what, sim_location(a->site));
    if (b->side != SIDE_PLAIN && b->pending) {
        const char *how = b->side == SIDE_TARGET ? "remotely" : "locally";
        /* MPI_Win_complete does not complete an operation at its target,
         * which surprises: say what does. */
        const char *pscw = b->side == SIDE_TARGET && g_strcmp0(b->epoch_call, "MPI_Win_start") == 0
                               ? "; only the target's MPI_Win_wait completes it there"
                               : "";
        if (b->epoch_call)
            return g_strdup_printf("%s at %s had not completed %s (its epoch opened with %s at "
                                   "%s%s) when %s at %s started",
                                   b->what, sim_location(b->site), how, b->epoch_call,
                                   sim_location(b->epoch_site), pscw, a->what,
                                   sim_location(a->site));
        return g_strdup_printf("%s at %s had not completed %s when %s at %s started", b->what,
                               sim_location(b->site), how, a->what, sim_location(a->site));
    }
    if (b->side != SIDE_PLAIN && b->end_call)
        return g_strdup_printf("no happens-before from the completion of %s at %s (%s at %s) to "
                               "%s at %s",
                               b->what, sim_location(b->site), b->end_call,
                               sim_location(b->end_site), a->what, sim_location(a->site));
    return g_strdup_printf("no happens-before between the %s at %s and %s at %s", b->what,
                           sim_location(b->site), a->what, sim_location(a->site));
}

static void report_race(const acc_rec *b, const acc_rec *a, uintptr_t where) {
    const char *la = sim_location(a->site), *lb = sim_location(b->site);
    char *key = strcmp(la, lb) < 0 ? g_strdup_printf("%s|%s|%s|%s", la, lb, a->what, b->what)
                                   : g_strdup_printf("%s|%s|%s|%s", lb, la, b->what, a->what);
    if (g_hash_table_contains(A.reported, key)) {
        g_free(key);
        return;
    }
    g_hash_table_add(A.reported, key);
    uintptr_t base = 0;
    uintptr_t end;
    int owner = window_owner(where, &base, &end);
    char *da = describe(a), *db = describe(b), *why = why_unordered(b, a);
    const acc_rec *busy = b->side != SIDE_PLAIN ? b : a; /* the operation's side */
    char *mem = owner >= 0
                    ? g_strdup_printf("the window memory of rank %d (byte %" G_GUINTPTR_FORMAT
                                      " of its window)",
                                      owner, (guintptr)(where - base))
                    : g_strdup_printf("the %s of %s at %s", busy->role, busy->what,
                                      sim_location(busy->site));
    /* The same race reached in either order reads the same. */
    bool swap = strcmp(db, da) > 0;
    char *msg =
        g_strdup_printf("data race on %s: %s and %s conflict", mem, swap ? da : db, swap ? db : da);
    char *details = g_strdup_printf("    %s\n    %s\n    %s\n", db, da, why);
    int ranks[2] = {b->rank, a->rank};
    sim_add_finding(SIM_F_DATA_RACE, ranks, b->rank == a->rank ? 1 : 2, swap ? la : lb, msg,
                    details);
    g_free(da);
    g_free(db);
    g_free(why);
    g_free(mem);
}

/* Whether a and b are accumulates of one origin to the same location
 * through one window, with one basic type: MPI orders those in issue order
 * (MPI 3.1 11.7.2, accumulate_ordering rar,raw,war,waw by default; ordex
 * takes no info key that relaxes it), so they cannot race whatever their
 * ops. */
static bool accumulates_ordered(const acc_rec *a, const acc_rec *b) {
    return a->side == SIDE_TARGET && b->side == SIDE_TARGET && a->atomic && b->atomic &&
           a->rank == b->rank && a->win == b->win && a->basic == b->basic &&
           a->basic != MPI_DATATYPE_NULL;
}

/* Checks a new access against the records and adds it. */
static void check_and_add(acc_rec *a, const uint32_t *start) {
    for (guint i = 0; i < A.records->len; i++) {
        const acc_rec *b = g_ptr_array_index(A.records, i);
        if (b->key && b->key == a->key) /* two sides of one operation */
            continue;
        if (accumulates_ordered(a, b))
            continue;
        if (!conflict(a, b) || ordered_before(b, start))
            continue;
        uintptr_t where = overlap(a, b);
        if (where)
            report_race(b, a, where);
    }
    g_ptr_array_add(A.records, a);
    A.added++; /* plain accesses that coalesced before it must meet it */
}

static void prune(void) {
    guint k = 0;
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (settled(r)) {
            forget_recent(r);
            rec_free(r);
        } else {
            A.records->pdata[k++] = r;
        }
    }
    g_ptr_array_set_size(A.records, k);
    A.prune_at = MAX(64u, 2 * k);
}

/* Which sides of an operation a completion ends. */
enum {
    END_LOCAL = 1,  /* local completion: origin, compare and result buffers */
    END_TARGET = 2, /* the target bytes */
    END_BOTH = 3,   /* remote completion, which implies local completion */
};

/* The completions that end r: a fetching operation's target access is
 * over once its result has arrived (MPI 3.1 11.3.5: a completed MPI_Rget
 * holds the data), so local completion ends it too. */
static int sides_of(const acc_rec *r) {
    if (r->side != SIDE_TARGET)
        return END_LOCAL;
    return r->fetches ? END_TARGET | END_LOCAL : END_TARGET;
}

/* Ends the pending accesses of origin (world rank) on window win to
 * target (window rank, -1 every one), the sides that `which` names, at
 * (end_rank, clock). */
static void end_ops(int win, int origin, int target, int which, const char *call, void *site,
                    int end_rank, uint32_t clock) {
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (!r->pending || r->win != win || r->rank != origin ||
            (target >= 0 && r->wtarget != target) || !(which & sides_of(r)))
            continue;
        r->pending = false;
        rec_unmark(r); /* a buffer of the program's is its own again */
        r->end_rank = end_rank;
        r->end_clock = clock;
        r->end_call = call;
        r->end_site = site;
    }
}

/* ---------------------------------------------------------------------- */
/* Window memory                                                           */

static int window_owner(uintptr_t addr, uintptr_t *base, uintptr_t *end) {
    for (guint i = 0; i < A.regions->len; i++) {
        const acc_region *g = &g_array_index(A.regions, acc_region, i);
        if (addr >= g->lo && addr < g->hi) {
            *base = g->lo;
            *end = g->hi;
            return g->owner;
        }
    }
    return -1;
}

static void region_add(const void *base, MPI_Aint size, int owner) {
    if (!base || size <= 0)
        return;
    acc_region g = {(uintptr_t)base, (uintptr_t)base + (uintptr_t)size, owner};
    g_array_append_val(A.regions, g);
    sched_access_mark(base, (size_t)size);
}

static void region_remove(const void *base, MPI_Aint size) {
    if (!base || size <= 0)
        return;
    for (guint i = 0; i < A.regions->len; i++) {
        const acc_region *g = &g_array_index(A.regions, acc_region, i);
        if (g->lo == (uintptr_t)base && g->hi == (uintptr_t)base + (uintptr_t)size) {
            g_array_remove_index(A.regions, i);
            sched_access_unmark(base, (size_t)size);
            break;
        }
    }
    /* Accesses to memory that is no longer a window's cannot race any more. */
    guint k = 0;
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (r->lo >= (uintptr_t)base && r->hi <= (uintptr_t)base + (uintptr_t)size && !r->pending) {
            forget_recent(r);
            rec_free(r);
        } else {
            A.records->pdata[k++] = r;
        }
    }
    g_ptr_array_set_size(A.records, k);
}

/* ---------------------------------------------------------------------- */
/* Plain loads and stores                                                  */

/* Rank's open record of the accesses from site of this kind, or NULL. */
static acc_rec *recent_find(int rank, const void *site, bool writes) {
    acc_rec **open = A.recent[rank];
    for (int i = 0; open && i < RECENT; i++)
        if (open[i] && open[i]->site == site && open[i]->writes == writes)
            return open[i];
    return NULL;
}

/* r becomes its rank's open record for its instruction, in place of the
 * one before it, or of the oldest. */
static void recent_add(acc_rec *r) {
    if (!A.recent[r->rank])
        A.recent[r->rank] = g_new0(acc_rec *, RECENT);
    acc_rec **open = A.recent[r->rank];
    int at = RECENT - 1;
    for (int i = 0; i < RECENT; i++)
        if (!open[i] || (open[i]->site == r->site && open[i]->writes == r->writes)) {
            at = i;
            break;
        }
    memmove(open + 1, open, (size_t)at * sizeof *open);
    open[0] = r;
}

static void forget_recent(const acc_rec *r) {
    acc_rec **open = r->side == SIDE_PLAIN ? A.recent[r->rank] : NULL;
    for (int i = 0; open && i < RECENT; i++)
        if (open[i] == r)
            open[i] = NULL;
}

/* A plain record of rank was made or grew: the clear ranges of the other
 * ranks' open records no longer hold. */
static void plain_changed(int rank) {
    A.plain_changes++;
    A.own_changes[rank]++;
}

static void plain_access(int rank, void *addr, size_t size, bool is_write, void *pc, void *user) {
    (void)user;
    if (!A.tracking || rank < 0 || rank >= A.n || !size)
        return;
    uintptr_t lo = (uintptr_t)addr, hi = lo + size;
    acc_rec *last = recent_find(rank, pc, is_write);
    if (last && last->checked == A.added) {
        if (lo >= last->lo && hi <= last->hi)
            return; /* this epoch's record covers it, and nothing came since: checked already */
        /* A loop's next element: if no record that it may race with touched
         * its bytes when the record was last checked, and none came or grew
         * since, it races with nothing. */
        if (lo >= last->clear_lo && hi <= last->clear_hi && lo <= last->hi && hi >= last->lo &&
            last->others_seen == A.plain_changes - A.own_changes[rank]) {
            last->lo = MIN(last->lo, lo);
            last->hi = MAX(last->hi, hi);
            plain_changed(rank);
            return;
        }
    }
    uintptr_t base, end;
    bool in_window = window_owner(lo, &base, &end) >= 0;
    acc_rec probe = {.lo = lo,
                     .hi = hi,
                     .rank = rank,
                     .writes = is_write,
                     .side = SIDE_PLAIN,
                     .what = is_write ? "store" : "load",
                     .site = pc,
                     .win = -1,
                     .wtarget = -1,
                     .end_rank = rank,
                     .end_clock = A.on ? vc_of(rank)[rank] : 0,
                     .checked = A.added,
                     .clear_lo = in_window ? base : lo,
                     .clear_hi = in_window ? end : hi,
                     .others_seen = A.plain_changes - A.own_changes[rank]};
    const uint32_t *start = A.on ? vc_of(rank) : NULL;
    for (guint i = 0; i < A.records->len; i++) {
        const acc_rec *b = g_ptr_array_index(A.records, i);
        if (b->rank == rank && b->side == SIDE_PLAIN)
            continue; /* program order */
        if (!conflict(&probe, b) || ordered_before(b, start))
            continue;
        /* The clear range stops at b's bounds (its blocks' gaps aside). */
        if (b->hi <= lo) {
            probe.clear_lo = MAX(probe.clear_lo, b->hi);
        } else if (b->lo >= hi) {
            probe.clear_hi = MIN(probe.clear_hi, b->lo);
        } else {
            probe.clear_lo = MAX(probe.clear_lo, lo);
            probe.clear_hi = MIN(probe.clear_hi, hi);
        }
        uintptr_t where = overlap(&probe, b);
        if (where)
            report_race(b, &probe, where);
    }
    /* Later operations need to see it only where they can reach it.  A
     * record grows only while every byte of it has met every record: one
     * that an operation issued since has not met begins a new one. */
    if (in_window) {
        if (last && lo <= last->hi && hi >= last->lo && last->checked == A.added) {
            last->lo = MIN(last->lo, lo);
            last->hi = MAX(last->hi, hi);
            last->clear_lo = probe.clear_lo;
            last->clear_hi = probe.clear_hi;
            last->others_seen = probe.others_seen;
        } else {
            acc_rec *r = g_memdup2(&probe, sizeof probe);
            g_ptr_array_add(A.records, r);
            recent_add(r);
        }
        plain_changed(rank);
    }
}

/* ---------------------------------------------------------------------- */
/* RMA operations and synchronisation (rma.c's observer)                   */

static char *key3(int a, int b, int c) {
    return g_strdup_printf("%d/%d/%d", a, b, c);
}

static GQueue *queue_of(GHashTable *t, int a, int b, int c) {
    char *k = key3(a, b, c);
    GQueue *q = g_hash_table_lookup(t, k);
    if (!q) {
        q = g_queue_new();
        g_hash_table_insert(t, k, q);
    } else {
        g_free(k);
    }
    return q;
}

static void epoch_of(const sim_win *w, int me, int target, acc_rec *r) {
    const sim_win_member *m = &w->m[me];
    if (m->lock_all) {
        r->epoch_call = "MPI_Win_lock_all";
        r->epoch_site = m->lock_all_site;
    } else if (target >= 0 && m->lock[target]) {
        r->epoch_call = "MPI_Win_lock";
        r->epoch_site = m->lock_site[target];
    } else if (m->started) {
        r->epoch_call = "MPI_Win_start";
        r->epoch_site = m->start_site;
    } else if (m->fence != SIM_FENCE_NONE) {
        r->epoch_call = "MPI_Win_fence";
        r->epoch_site = m->fence_site;
    }
}

static acc_rec *op_rec(const sim_win *w, const sim_rma_op *op, acc_side side, const char *role) {
    acc_rec *r = g_new0(acc_rec, 1);
    r->rank = sim_comm_world(w->comm, op->origin);
    r->side = side;
    r->what = op->call;
    r->role = role;
    r->site = op->call_site;
    r->key = op->seq + 1;
    r->win = w->index;
    r->wtarget = op->target;
    r->pending = true;
    epoch_of(w, op->origin, op->target, r);
    return r;
}

static void add_local(const sim_win *w, const sim_rma_op *op, const char *role, const void *buf,
                      int count, MPI_Datatype type, bool writes) {
    acc_rec *r = op_rec(w, op, SIDE_LOCAL, role);
    r->writes = writes;
    if (!rec_set_bytes(r, buf, count, type)) {
        rec_free(r);
        return;
    }
    /* Plain loads and stores of the buffer race with the operation until
     * its local completion (MPI 3.1 11.3: an origin buffer must not be
     * changed, a result buffer not read, before it). */
    rec_mark(r);
    check_and_add(r, vc_of(r->rank));
}

static void on_issued(const sim_win *w, const sim_rma_op *op, void *user) {
    (void)user;
    if (!A.on || op->target < 0)
        return;
    const sim_rma_xfer *x = &op->x;
    bool no_op = x->op == MPI_NO_OP;
    switch (x->kind) {
    case SIM_RMA_PUT:
    case SIM_RMA_ACC:
        add_local(w, op, "origin buffer", x->origin, x->ocount, x->otype, false);
        break;
    case SIM_RMA_GET:
        add_local(w, op, "origin buffer", x->origin, x->ocount, x->otype, true);
        break;
    case SIM_RMA_GET_ACC:
        if (!no_op)
            add_local(w, op, "origin buffer", x->origin, x->ocount, x->otype, false);
        add_local(w, op, "result buffer", x->result, x->rcount, x->rtype, true);
        break;
    case SIM_RMA_FOP:
        if (!no_op)
            add_local(w, op, "origin buffer", x->origin, 1, x->ttype, false);
        add_local(w, op, "result buffer", x->result, 1, x->ttype, true);
        break;
    case SIM_RMA_CAS:
        add_local(w, op, "origin buffer", x->origin, 1, x->ttype, false);
        add_local(w, op, "compare buffer", x->compare, 1, x->ttype, false);
        add_local(w, op, "result buffer", x->result, 1, x->ttype, true);
        break;
    }
    acc_rec *t = op_rec(w, op, SIDE_TARGET, "target");
    switch (x->kind) {
    case SIM_RMA_PUT:
        t->writes = true;
        break;
    case SIM_RMA_GET:
        t->writes = false;
        break;
    default:
        t->atomic = true;
        t->basic = sim_rma_element_type(x->ttype);
        t->op = x->kind == SIM_RMA_CAS ? MPI_REPLACE : x->op;
        t->writes = !(x->kind != SIM_RMA_CAS && no_op);
        break;
    }
    t->fetches = x->kind != SIM_RMA_PUT && x->kind != SIM_RMA_ACC;
    if (!rec_set_bytes(t, x->target, x->tcount, x->ttype)) {
        rec_free(t);
        return;
    }
    if (w->m[op->origin].started) {
        /* PSCW: the target bytes are accessed only after the matching
         * post, which may come later; check at MPI_Win_complete. */
        t->start = g_memdup2(vc_of(t->rank), sizeof(uint32_t) * (size_t)A.n);
        g_ptr_array_add(A.deferred, t);
        return;
    }
    check_and_add(t, vc_of(t->rank));
}

static void lock_release(const sim_win *w, int target, bool exclusive, const sim_vc *c) {
    char *k = g_strdup_printf("%d/%d", w->index, target);
    lock_clocks *l = g_hash_table_lookup(A.locks, k);
    if (!l) {
        l = g_new0(lock_clocks, 1);
        g_hash_table_insert(A.locks, k, l);
    } else {
        g_free(k);
    }
    l->after_any = sim_vc_join(l->after_any, c);
    if (exclusive)
        l->after_exclusive = sim_vc_join(l->after_exclusive, c);
}

static void lock_acquire(const sim_win *w, int world, int target, bool exclusive) {
    char *k = g_strdup_printf("%d/%d", w->index, target);
    const lock_clocks *l = g_hash_table_lookup(A.locks, k);
    g_free(k);
    if (l)
        acquire(world, exclusive ? l->after_any : l->after_exclusive);
}

static void on_sync(const sim_win *w, int me, sim_rma_sync_kind kind, int peer, void *user) {
    (void)user;
    if (!A.on)
        return;
    int world = sim_comm_world(w->comm, me);
    const sim_win_member *m = &w->m[me];
    void *site = sim_proc_of(world)->call_site;
    switch (kind) {
    case SIM_RMA_SYNC_FENCE:
        /* Operations complete at the fence every member has entered: their
         * end is this member's arrival, which the fence releases to all. */
        end_ops(w->index, world, -1, END_BOTH, "MPI_Win_fence", m->fence_site, world,
                A.last_release[world]);
        break;
    case SIM_RMA_SYNC_POST: {
        sim_vc *c = sim_access_release(world);
        for (int i = 0; i < m->npost; i++)
            g_queue_push_tail(queue_of(A.posts, w->index, me, m->post_group[i]),
                              sim_vc_join(NULL, c));
        sim_vc_free(c);
        break;
    }
    case SIM_RMA_SYNC_START:
        break;
    case SIM_RMA_SYNC_COMPLETE: {
        sim_vc *post = g_queue_pop_head(queue_of(A.posts, w->index, peer, me));
        /* The deferred target accesses to peer start after its post. */
        guint k = 0;
        for (guint i = 0; i < A.deferred->len; i++) {
            acc_rec *r = g_ptr_array_index(A.deferred, i);
            if (r->win == w->index && r->rank == world && r->wtarget == peer) {
                r->start = sim_vc_join(r->start, post);
                check_and_add(r, r->start->c);
            } else {
                A.deferred->pdata[k++] = r;
            }
        }
        g_ptr_array_set_size(A.deferred, k);
        sim_vc_free(post);
        /* Complete ends the operations at the origin only; they are
         * complete at the target when its MPI_Win_wait returns (MPI 3.1
         * 11.7, rule 3), which ends their target sides. */
        end_ops(w->index, world, peer, END_LOCAL, "MPI_Win_complete", site, world,
                vc_of(world)[world]);
        sim_vc *c = sim_access_release(world);
        g_queue_push_tail(queue_of(A.completes, w->index, me, peer), c);
        break;
    }
    case SIM_RMA_SYNC_WAIT:
        for (int i = 0; i < m->npost; i++) {
            sim_vc *c = g_queue_pop_head(queue_of(A.completes, w->index, m->post_group[i], me));
            acquire(world, c);
            sim_vc_free(c);
        }
        /* The origins' operations of this exposure epoch are complete here
         * now.  An origin's operations of its next epoch to this rank are
         * still deferred (they wait for the next post), so the pending
         * target sides are exactly this epoch's. */
        for (int i = 0; i < m->npost; i++)
            end_ops(w->index, sim_comm_world(w->comm, m->post_group[i]), me, END_TARGET,
                    "MPI_Win_wait", site, world, vc_of(world)[world]);
        break;
    case SIM_RMA_SYNC_LOCK: {
        int from = peer < 0 ? 0 : peer, to = peer < 0 ? w->size : peer + 1;
        for (int t = from; t < to; t++) {
            bool excl = peer >= 0 && m->lock[t] == SIM_LK_EXCLUSIVE;
            lock_acquire(w, world, t, excl);
            g_hash_table_insert(A.held, key3(w->index, me, t), GINT_TO_POINTER(excl ? 2 : 1));
        }
        break;
    }
    case SIM_RMA_SYNC_UNLOCK: {
        end_ops(w->index, world, peer, END_BOTH, peer < 0 ? "MPI_Win_unlock_all" : "MPI_Win_unlock",
                site, world, vc_of(world)[world]);
        sim_vc *c = sim_access_release(world);
        int from = peer < 0 ? 0 : peer, to = peer < 0 ? w->size : peer + 1;
        for (int t = from; t < to; t++) {
            char *k = key3(w->index, me, t);
            bool excl = GPOINTER_TO_INT(g_hash_table_lookup(A.held, k)) == 2;
            g_hash_table_remove(A.held, k);
            g_free(k);
            lock_release(w, t, excl, c);
        }
        sim_vc_free(c);
        break;
    }
    case SIM_RMA_SYNC_FLUSH:
    case SIM_RMA_SYNC_FLUSH_LOCAL: {
        bool remote = kind == SIM_RMA_SYNC_FLUSH;
        const char *call = remote ? (peer < 0 ? "MPI_Win_flush_all" : "MPI_Win_flush")
                                  : (peer < 0 ? "MPI_Win_flush_local_all" : "MPI_Win_flush_local");
        end_ops(w->index, world, peer, remote ? END_BOTH : END_LOCAL, call, site, world,
                vc_of(world)[world]);
        break;
    }
    case SIM_RMA_SYNC_WIN_SYNC:
        break;
    }
}

static void on_window(const sim_win *w, bool created, void *user) {
    (void)user;
    if (created)
        sim_access_enable();
    for (int r = 0; r < w->size; r++) {
        const sim_win_member *m = &w->m[r];
        if (created) {
            region_add(m->base, m->size, sim_comm_world(w->comm, r));
            continue;
        }
        region_remove(m->base, m->size);
        for (guint i = 0; m->regions && i < m->regions->len; i++) {
            const sim_win_region *g = &g_array_index(m->regions, sim_win_region, i);
            region_remove(g->base, g->size);
        }
    }
}

static void on_region(const sim_win *w, int me, void *base, MPI_Aint size, bool attached,
                      void *user) {
    (void)user;
    if (attached)
        region_add(base, size, sim_comm_world(w->comm, me));
    else
        region_remove(base, size);
}

static void on_request(const sim_win *w, const sim_rma_op *op, sim_request *req, void *user) {
    (void)w;
    (void)user;
    req->access_key = op->seq + 1;
}

/* ---------------------------------------------------------------------- */
/* Messages, collectives, requests                                         */

/* Whether the data of member `from` reaches member `to` in a collective of
 * this kind (rooted ones move data one way only). */
static bool flows(const sim_coll *c, int from, int to) {
    int root = c->args[to].root;
    switch (c->kind) {
    case SIM_COLL_BCAST:
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        return from == root || from == to;
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
    case SIM_COLL_REDUCE:
        return to == root || from == to;
    default:
        return true;
    }
}

void sim_access_coll_fired(sim_coll *c) {
    if (!A.on || !c->vcs)
        return;
    int n = c->comm->size;
    for (int to = 0; to < n; to++) {
        sim_request *r = c->reqs[to];
        if (!r)
            continue;
        for (int from = 0; from < n; from++)
            if (c->vcs[from] && flows(c, from, to))
                r->vc_acq = sim_vc_join(r->vc_acq, c->vcs[from]);
    }
}

void sim_access_request_finished(sim_request *req) {
    if (A.on)
        acquire(req->owner, req->vc_acq);
    sim_vc_free(req->vc_acq);
    req->vc_acq = NULL;
    if (req->access_key >= BUFFER_KEY) {
        drop_buffer(req, true);
        return;
    }
    if (req->access_key) {
        for (guint i = 0; i < A.records->len; i++) {
            acc_rec *r = g_ptr_array_index(A.records, i);
            if (r->key == req->access_key && (sides_of(r) & END_LOCAL) && r->pending) {
                r->pending = false;
                rec_unmark(r);
                r->end_rank = req->owner;
                r->end_clock = vc_of(req->owner)[req->owner];
                r->end_call = "the wait of its request";
                r->end_site = sim_proc_of(req->owner)->call_site;
            }
        }
        req->access_key = 0;
    }
}

/* ---------------------------------------------------------------------- */
/* Buffers of nonblocking point-to-point operations                        */

/* Whether any byte of r lies in window memory. */
static bool in_windows(const acc_rec *r) {
    for (guint i = 0; i < A.regions->len; i++) {
        const acc_region *g = &g_array_index(A.regions, acc_region, i);
        if (r->lo < g->hi && g->lo < r->hi)
            return true;
    }
    return false;
}

/* The request's operation is over (waited: a wait or test of its owner
 * returned it; else it was freed): its buffer is the program's again.  A
 * buffer in window memory stays a record, ended now: the message wrote or
 * read it as its owner's access, which other ranks' RMA operations and
 * loads and stores must still be ordered with. */
static void drop_buffer(sim_request *req, bool waited) {
    guint k = 0;
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (r->key != req->access_key) {
            A.records->pdata[k++] = r;
        } else if (A.on && in_windows(r)) {
            rec_unmark(r);
            r->key = 0;
            r->pending = false;
            r->end_rank = r->rank;
            r->end_clock = vc_of(r->rank)[r->rank];
            const sim_proc *p = sim_proc_of(r->rank);
            r->end_call = waited && p->call ? p->call : "its completion";
            r->end_site = waited ? p->call_site : r->site;
            A.records->pdata[k++] = r;
        } else {
            rec_free(r);
        }
    }
    g_ptr_array_set_size(A.records, k);
    req->access_key = 0;
}

void sim_access_request_started(sim_request *req) {
    if (!sched_access_instrumented() || (req->kind != SIM_REQ_SEND && req->kind != SIM_REQ_RECV) ||
        req->peer == MPI_PROC_NULL)
        return;
    start_tracking();
    acc_rec *r = g_new0(acc_rec, 1);
    r->rank = req->owner;
    r->writes = req->kind == SIM_REQ_RECV;
    r->side = SIDE_BUFFER;
    r->what = req->call;
    r->role = r->writes ? "receive buffer" : "send buffer";
    if (req->persistent) {
        /* The access begins at the MPI_Start(all) whose site the request
         * now has: name that call, with the one that made the request. */
        const char *call = sim_proc_of(req->owner)->call;
        char *what = g_strdup_printf("%s (of %s)", call ? call : "MPI_Start", req->call);
        r->what = g_intern_string(what);
        g_free(what);
    }
    r->site = req->call_site;
    r->key = BUFFER_KEY + A.next_buffer++;
    r->win = -1;
    r->wtarget = -1;
    r->pending = true;
    if (!rec_set_bytes(r, req->buf, req->count, req->type)) {
        rec_free(r);
        return;
    }
    req->access_key = r->key;
    rec_mark(r);
    check_and_add(r, A.on ? vc_of(r->rank) : NULL);
}

void sim_access_request_released(sim_request *req) {
    if (A.tracking && req->access_key >= BUFFER_KEY)
        drop_buffer(req, false);
}

/* ---------------------------------------------------------------------- */
/* The module                                                              */

static void queue_free(gpointer p) {
    g_queue_free_full(p, g_free);
}

static void locks_free(gpointer p) {
    lock_clocks *l = p;
    sim_vc_free(l->after_any);
    sim_vc_free(l->after_exclusive);
    g_free(l);
}

void sim_access_init(int nranks) {
    memset(&A, 0, sizeof A);
    A.n = nranks;
    sim_rma_observer obs = {.issued = on_issued,
                            .sync = on_sync,
                            .window = on_window,
                            .region = on_region,
                            .request = on_request};
    sim_rma_set_observer(&obs);
}

static void start_tracking(void) {
    if (A.tracking)
        return;
    A.tracking = true;
    A.recent = g_new0(acc_rec **, (size_t)A.n);
    A.own_changes = g_new0(uint64_t, (size_t)A.n);
    A.records = g_ptr_array_new();
    A.deferred = g_ptr_array_new();
    A.prune_at = 64;
    A.reported = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    A.regions = g_array_new(FALSE, FALSE, sizeof(acc_region));
    sched_access_set_hook(plain_access, NULL);
}

void sim_access_enable(void) {
    if (A.on)
        return;
    start_tracking();
    A.on = true;
    A.vc = g_new0(uint32_t, (size_t)A.n * (size_t)A.n);
    A.last_release = g_new0(uint32_t, (size_t)A.n);
    for (int r = 0; r < A.n; r++)
        vc_of(r)[r] = 1; /* counter 0 stands for "before the checks began" */
    A.locks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, locks_free);
    A.held = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    A.posts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, queue_free);
    A.completes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, queue_free);
}

bool sim_access_enabled(void) {
    return A.on;
}

void sim_access_fini(void) {
    sim_rma_set_observer(NULL);
    if (!A.tracking) {
        memset(&A, 0, sizeof A);
        return;
    }
    sched_access_set_hook(NULL, NULL);
    for (guint i = 0; i < A.regions->len; i++) {
        const acc_region *g = &g_array_index(A.regions, acc_region, i);
        sched_access_unmark((const void *)g->lo, g->hi - g->lo);
    }
    g_ptr_array_foreach(A.records, (GFunc)(void (*)(void))rec_free, NULL);
    g_ptr_array_free(A.records, TRUE);
    g_ptr_array_foreach(A.deferred, (GFunc)(void (*)(void))rec_free, NULL);
    g_ptr_array_free(A.deferred, TRUE);
    if (A.on) {
        g_hash_table_destroy(A.locks);
        g_hash_table_destroy(A.held);
        g_hash_table_destroy(A.posts);
        g_hash_table_destroy(A.completes);
    }
    g_hash_table_destroy(A.reported);
    g_array_free(A.regions, TRUE);
    g_free(A.vc);
    g_free(A.last_release);
    for (int r = 0; r < A.n; r++)
        g_free(A.recent[r]);
    g_free(A.recent);
    g_free(A.own_changes);
    memset(&A, 0, sizeof A);
}

/* ---------------------------------------------------------------------- */
/* State digest                                                            */

static gint rec_order(gconstpointer pa, gconstpointer pb) {
    const acc_rec *a = *(const acc_rec *const *)pa, *b = *(const acc_rec *const *)pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank - b->rank;
    if (a->site != b->site)
        return (uintptr_t)a->site < (uintptr_t)b->site ? -1 : 1;
    if (a->side != b->side)
        return (int)a->side - (int)b->side;
    return a->writes - b->writes;
}

/* Whether every rank is ordered after r's end: nothing to come can race
 * with it (a deferred access may still start earlier). */
static bool settled(const acc_rec *r) {
    if (r->pending || !A.on)
        return false;
    for (int q = 0; q < A.n; q++)
        if (vc_of(q)[r->end_rank] < r->end_clock)
            return false;
    for (guint d = 0; d < A.deferred->len; d++)
        if (((acc_rec *)g_ptr_array_index(A.deferred, d))->start->c[r->end_rank] < r->end_clock)
            return false;
    return true;
}

static void digest_rec(const acc_rec *r, sim_digest_feed feed, void *user) {
    int64_t f[9] = {(int64_t)r->lo, (int64_t)r->hi, r->rank, r->writes,
                    r->atomic,      (int64_t)r->op, r->side, (int64_t)(intptr_t)r->site,
                    r->pending};
    feed(user, f, sizeof f);
    /* Which ranks it is ordered before already: what decides whether it
     * can race with what comes next, whatever the counters' values. */
    for (int q = 0; A.on && q < A.n; q++) {
        uint8_t known = !r->pending && vc_of(q)[r->end_rank] >= r->end_clock;
        feed(user, &known, 1);
    }
}

void sim_access_digest(sim_digest_feed feed, void *user) {
    if (!A.tracking)
        return;
    GPtrArray *all = g_ptr_array_new();
    for (guint i = 0; i < A.records->len; i++)
        if (!settled(g_ptr_array_index(A.records, i))) /* records not pruned yet */
            g_ptr_array_add(all, g_ptr_array_index(A.records, i));
    for (guint i = 0; i < A.deferred->len; i++)
        g_ptr_array_add(all, g_ptr_array_index(A.deferred, i));
    g_ptr_array_sort(all, rec_order);
    int64_t n = all->len;
    feed(user, &n, sizeof n);
    for (guint i = 0; i < all->len; i++)
        digest_rec(g_ptr_array_index(all, i), feed, user);
    g_ptr_array_free(all, TRUE);
}
