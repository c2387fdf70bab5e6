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
#include "simulator/coll_inter.h"
#include "simulator/datatype.h"
#include "simulator/engine.h"
#include "simulator/info.h"
#include "simulator/report.h"
#include "simulator/request.h"
#include "simulator/rma.h"
#include "simulator/sim_internal.h"

/* Keys of records: RMA operations have their issue order + 1, OpenSHMEM
 * operations SHMEM_KEY and up, buffers of nonblocking operations BUFFER_KEY
 * and up. */
#define BUFFER_KEY (UINT64_C(1) << 62)
#define SHMEM_KEY (UINT64_C(1) << 61)

/* File records hold file offsets plus this, since byte 0 would read as
 * "no overlap" (see overlap). */
#define FILE_BASE 1

/* The window index of OpenSHMEM's records and symmetric memory. */
#define SHMEM_WIN (-2)

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
    SIDE_FILE,   /* bytes of a file (MPI-IO): ends at its rank's MPI_File_sync or close */
} acc_side;

typedef struct acc_rec {
    uintptr_t lo, hi; /* the bytes' bounds */
    GArray *blocks;   /* acc_block, sorted; NULL when [lo, hi) is all */
    int rank;         /* world rank that made it (the origin of an operation) */
    bool writes, atomic;
    MPI_Datatype basic; /* atomics: the basic type ... */
    MPI_Op op;          /* ... and the op (compare_and_swap: MPI_REPLACE) */
    acc_side side;
    bool fetches;      /* the target side of a get or a fetching accumulate */
    bool same_op_only; /* the target window's accumulate_ops info is same_op */
    /* Separate memory model: a store made visible in the public window copy,
     * or a put or accumulate made visible in process memory, by the window
     * owner's synchronisation at (vis_rank, vis_clock). */
    bool visible;
    int vis_rank;
    uint32_t vis_clock;
    const char *what; /* "MPI_Put", "store", "load" */
    const char *role; /* "origin buffer", "result buffer", ... or NULL */
    void *site;
    uint64_t key;     /* the operation (rma issue order + 1), 0 for plain */
    int file;         /* MPI-IO: the host file (from 1; its bytes are file offsets), else 0 */
    const char *path; /* MPI-IO: the file's name */
    uint32_t fence;   /* OpenSHMEM: the issuer's fences before it (on its context) */
    uint32_t ctx;     /* OpenSHMEM: its context (0: the default one) */
    int win;          /* window index of an operation, -1 for plain, SHMEM_WIN */
    int wtarget;      /* window rank of the target */
    bool pending;
    bool marked; /* its bytes are tracked for the load/store hooks */
    int end_rank;
    uint32_t end_clock;
    /* OpenSHMEM: a second end, for an operation that completed at its PE's
     * quiet and was also seen delivered by its target (whichever an access
     * is ordered after orders it). */
    bool alt;
    int alt_rank;
    uint32_t alt_clock;
    const char *end_call; /* what completed it */
    void *end_site;
    const char *epoch_call; /* what opened the origin's epoch */
    void *epoch_site;
    sim_vc *start;    /* deferred (PSCW) target access: its start clock */
    sim_vc *issue;    /* an accumulate that writes: its origin's clock at the issue */
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
    int win;   /* window index */
} acc_region;

/* What accumulates that wrote a location released (on_applied). */
typedef struct atomic_rel {
    uintptr_t lo, hi;
    sim_vc *vc;
} atomic_rel;

typedef struct lock_clocks {
    sim_vc *after_exclusive; /* releases of exclusive locks on the target */
    sim_vc *after_any;       /* releases of every lock on the target */
} lock_clocks;

static struct {
    bool tracking; /* records and the access hook exist */
    bool on;       /* clocks too: a window exists */
    bool separate; /* the separate memory model's rules (--rma-model separate) */
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
    GArray *atomic_rels;    /* atomic_rel: what accumulates released, by location */
    uint64_t next_shmem;    /* keys of OpenSHMEM operations, from SHMEM_KEY */
    uint32_t *fences;       /* [n]: shmem_fence calls of each PE on its default context */
    GHashTable *ctx_fences; /* rank << 32 | context -> its shmem_ctx_fence calls (others) */
    const char *unit;       /* what reports call a rank: "rank", "PE" */
    sim_access_namer namer; /* names symmetric memory */
    uint64_t added;         /* how many operation and buffer records were checked in */
    uint64_t plain_changes; /* plain records made or grown, by any rank ... */
    uint64_t *own_changes;  /* [n] ... and by each */
    GHashTable *file_seen;  /* MPI-IO: file * n + rank -> sim_vc, the rank's clock at its latest
                               sync (or open) of the file: where its next accesses start */
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

/* Ends the coalescing of rank's open plain records (a new epoch). */
static void close_recent(int rank) {
    if (A.recent && A.recent[rank])
        memset(A.recent[rank], 0, RECENT * sizeof(acc_rec *));
}
static bool settled(const acc_rec *r);
static void drop_buffer(sim_request *req, bool waited);
static void start_tracking(void);
static const struct acc_region *region_of(uintptr_t addr);

sim_vc *sim_access_release(int rank) {
    if (!A.on || rank < 0)
        return NULL;
    uint32_t *me = vc_of(rank);
    sim_vc *copy = g_memdup2(me, sizeof(uint32_t) * (size_t)A.n);
    A.last_release[rank] = me[rank];
    me[rank]++;
    close_recent(rank); /* a new epoch: no more coalescing */
    if (A.records->len >= A.prune_at)
        prune();
    return copy;
}

bool sim_vc_before(const sim_vc *x, int owner, int rank) {
    if (!A.on || !x || owner < 0 || rank < 0)
        return true;
    return vc_of(rank)[owner] >= x->c[owner];
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
    sim_vc_free(r->issue);
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

/* Appends the bytes of count elements of type at buf to blocks. */
static void collect_bytes(GArray *blocks, const void *buf, int count, MPI_Datatype type) {
    const sim_datatype *dt = sim_dt_get(type);
    if (!dt || !buf || buf == MPI_IN_PLACE || count <= 0)
        return;
    block_ctx b = {(uintptr_t)buf, blocks};
    sim_dt_each_block(dt, count, add_block, &b);
}

/* Makes the collected blocks r's bytes (false, blocks freed: none). */
static bool rec_take_blocks(acc_rec *r, GArray *blocks) {
    block_ctx b = {0, blocks};
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

/* The bytes of count elements of type at buf into r (false: none). */
static bool rec_set_bytes(acc_rec *r, const void *buf, int count, MPI_Datatype type) {
    GArray *blocks = g_array_new(FALSE, FALSE, sizeof(acc_block));
    collect_bytes(blocks, buf, count, type);
    return rec_take_blocks(r, blocks);
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

/* Which concurrent accumulates are atomic with each other: the window's
 * accumulate_ops info (MPI 3.1 11.2.1) says same_op_no_op (the default:
 * the same op, or MPI_NO_OP) or same_op (the same op only). */
static bool ops_compatible(const acc_rec *a, const acc_rec *b) {
    if (a->same_op_only || b->same_op_only)
        return a->op == b->op;
    return a->op == b->op || a->op == MPI_NO_OP || b->op == MPI_NO_OP;
}

static bool conflict(const acc_rec *a, const acc_rec *b) {
    if (!a->writes && !b->writes)
        return false;
    if (a->atomic && b->atomic)
        return a->basic != b->basic || a->basic == MPI_DATATYPE_NULL || !ops_compatible(a, b);
    return true;
}

/* Whether b's end happens before an access that starts at clock start
 * (NULL while there are no clocks: only pending buffers are recorded then). */
static bool ordered_before(const acc_rec *b, const uint32_t *start) {
    return !b->pending && (!start || start[b->end_rank] >= b->end_clock ||
                           (b->alt && start[b->alt_rank] >= b->alt_clock));
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                 */

static int window_owner(uintptr_t addr, uintptr_t *base, uintptr_t *end);

static char *describe(const acc_rec *r) {
    GString *s = g_string_new(NULL);
    if (r->side == SIDE_FILE)
        g_string_append_printf(s, "%s by %s %d at %s (%s)", r->what, A.unit, r->rank,
                               sim_location(r->site), r->writes ? "writes" : "reads");
    else if (r->side == SIDE_PLAIN)
        g_string_append_printf(s, "a %s by %s %d at %s", r->what, A.unit, r->rank,
                               sim_location(r->site));
    else
        g_string_append_printf(s, "%s by %s %d at %s (%s)", r->what, A.unit, r->rank,
                               sim_location(r->site), r->role);
    return g_string_free(s, FALSE);
}

/* describe() and, for an RMA operation, its epoch: the call that opened it
 * and the one that completed the operation (for the details). */
static char *describe_long(const acc_rec *r) {
    GString *s = g_string_new(NULL);
    char *d = describe(r);
    g_string_append(s, d);
    g_free(d);
    if (r->side == SIDE_TARGET || r->side == SIDE_LOCAL) {
        if (r->epoch_call)
            g_string_append_printf(s, "; in the epoch of %s at %s", r->epoch_call,
                                   sim_location(r->epoch_site));
        if (!r->pending && r->end_call)
            g_string_append_printf(s, "; completed by %s at %s", r->end_call,
                                   sim_location(r->end_site));
        else if (r->pending)
            g_string_append(s, "; still pending then");
    }
    return g_string_free(s, FALSE);
}

/* The run of r's bytes that holds `where` ([where, where+1) if none). */
static void run_at(const acc_rec *r, uintptr_t where, uintptr_t *lo, uintptr_t *hi) {
    acc_block one;
    guint n;
    const acc_block *v = rec_blocks(r, &n, &one);
    for (guint i = 0; i < n; i++)
        if (where >= v[i].lo && where < v[i].hi) {
            *lo = v[i].lo;
            *hi = v[i].hi;
            return;
        }
    *lo = where;
    *hi = where + 1;
}

/* Why b (earlier) does not happen before a (later). */
static char *why_unordered(const acc_rec *b, const acc_rec *a) {
    if (b->side == SIDE_FILE && b->pending)
        return g_strdup_printf("rank %d had not called MPI_File_sync (or MPI_File_close) after %s "
                               "at %s when %s at %s started; in nonatomic mode MPI 3.1 13.6.1 "
                               "orders conflicting accesses only by MPI_File_sync, a barrier (or "
                               "other synchronisation), then MPI_File_sync",
                               b->rank, b->what, sim_location(b->site), a->what,
                               sim_location(a->site));
    if (b->side == SIDE_FILE)
        return g_strdup_printf("rank %d synchronised the file after %s at %s (%s at %s), but no "
                               "synchronisation from there followed by an MPI_File_sync of rank "
                               "%d came before %s at %s (MPI 3.1 13.6.1: sync, barrier, sync)",
                               b->rank, b->what, sim_location(b->site), b->end_call,
                               sim_location(b->end_site), a->rank, a->what, sim_location(a->site));
    if (b->side == SIDE_BUFFER && b->pending)
        return g_strdup_printf("%s at %s had not completed (%s) when %s at %s started", b->what,
                               sim_location(b->site),
                               g_str_has_suffix(b->what, "_begin")
                                   ? "the split collective's _end call had not returned"
                                   : "no wait or test had returned its request",
                               a->what, sim_location(a->site));
    if (b->win == SHMEM_WIN && b->pending) {
        bool target = b->side == SIDE_TARGET;
        return g_strdup_printf(
            "%s at %s had not completed %s when %s at %s started (only %s on PE %d completes "
            "it%s)",
            b->what, sim_location(b->site), target ? "at its target" : "locally", a->what,
            sim_location(a->site),
            b->ctx ? "shmem_ctx_quiet or shmem_ctx_destroy of its context"
                   : "shmem_quiet or shmem_barrier_all",
            b->rank,
            target ? ", or the target seeing in shmem_wait_until or shmem_test a value that PE "
                     "wrote after it and a shmem_fence"
                   : "");
    }
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

/* Why b (earlier) was not visible to a (later) in the separate model. */
static char *why_not_visible(const acc_rec *b, const acc_rec *a, int owner) {
    bool store = b->side == SIDE_PLAIN;
    return g_strdup_printf("separate memory model: the %s at %s was not made visible in the %s "
                           "window copy by a synchronisation of the owner, rank %d (%s), before "
                           "%s at %s (MPI 3.1 11.7)",
                           b->what, sim_location(b->site), store ? "public" : "private", owner,
                           store ? "MPI_Win_sync, MPI_Win_fence, MPI_Win_post or MPI_Win_unlock"
                                 : "MPI_Win_sync, MPI_Win_fence, MPI_Win_wait or MPI_Win_lock",
                           a->what, sim_location(a->site));
}

static void report_race(const acc_rec *b, const acc_rec *a, uintptr_t where, bool separate) {
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
    int owner = a->file ? -1 : window_owner(where, &base, &end);
    char *da = describe(a), *db = describe(b);
    char *why = separate ? why_not_visible(b, a, owner) : why_unordered(b, a);
    const acc_rec *busy = b->side != SIDE_PLAIN ? b : a; /* the operation's side */
    /* The bytes both touch around `where` (for the separate model's
     * whole-window conflicts, the operation's). */
    uintptr_t alo, ahi, blo, bhi;
    run_at(a, where, &alo, &ahi);
    run_at(b, where, &blo, &bhi);
    uintptr_t lo = MAX(alo, blo), hi = MIN(ahi, bhi);
    if (hi <= lo)
        run_at(busy, where, &lo, &hi);
    const acc_region *where_region = a->file ? NULL : region_of(where);
    char *mem =
        a->file
            ? g_strdup_printf("file '%s' (bytes %" G_GUINTPTR_FORMAT "-%" G_GUINTPTR_FORMAT ")",
                              a->path, (guintptr)(lo - FILE_BASE), (guintptr)(hi - 1 - FILE_BASE))
        : where_region && where_region->win == SHMEM_WIN && A.namer ? A.namer(where, owner)
        : owner >= 0 ? g_strdup_printf("the window memory of rank %d (bytes %" G_GUINTPTR_FORMAT
                                       "-%" G_GUINTPTR_FORMAT " of its window)",
                                       owner, (guintptr)(lo - base), (guintptr)(hi - 1 - base))
                     : g_strdup_printf("the %s of %s at %s", busy->role, busy->what,
                                       sim_location(busy->site));
    /* The same race reached in either order reads the same. */
    bool swap = strcmp(db, da) > 0;
    char *msg =
        g_strdup_printf("data race on %s: %s and %s conflict", mem, swap ? da : db, swap ? db : da);
    char *ldb = describe_long(b), *lda = describe_long(a);
    char *details = g_strdup_printf("    first:  %s\n    second: %s\n    %s\n", ldb, lda, why);
    g_free(ldb);
    g_free(lda);
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

/* Whether shmem_fence orders b (earlier) before a: both written by one PE
 * to one target PE with a fence between them, b not a fetch (a fence does
 * not order the delivery of gets, OpenSHMEM 1.4 9.11.1). */
static bool shmem_fenced(const acc_rec *a, const acc_rec *b) {
    return a->win == SHMEM_WIN && b->win == SHMEM_WIN && a->side == SIDE_TARGET &&
           b->side == SIDE_TARGET && a->rank == b->rank && a->ctx == b->ctx &&
           a->wtarget == b->wtarget && !b->fetches && b->fence < a->fence;
}

/* The fences of rank on context ctx so far (a fence orders only the
 * operations of its own context). */
static uint32_t *fence_slot(int rank, uint32_t ctx) {
    if (ctx == 0)
        return &A.fences[rank];
    if (!A.ctx_fences)
        A.ctx_fences = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    uint64_t key = ((uint64_t)(uint32_t)rank << 32) | ctx;
    uint32_t *n = g_hash_table_lookup(A.ctx_fences, &key);
    if (!n) {
        uint64_t *k = g_new(uint64_t, 1);
        *k = key;
        n = g_new0(uint32_t, 1);
        g_hash_table_insert(A.ctx_fences, k, n);
    }
    return n;
}

/* ---------------------------------------------------------------------- */
/* The separate memory model (--rma-model separate)                        */

/* MPI 3.1 11.7: in the separate model a window has a public copy (what RMA
 * operations access) and a private one (what loads and stores access),
 * reconciled only by the owner's synchronisation.  A put or accumulate and
 * a store of the owner's process memory conflict anywhere in the window
 * (rule 5's last paragraph), a store and a later RMA access or a put and a
 * later load where their bytes overlap, and such a pair is ordered only
 * when the first one was made visible (rules 5 and 6, marked by
 * mark_visible) before the second started.  Whether the separate rules
 * decide the pair (b before a); if so *races and *where say the verdict. */
static bool separate_decides(const acc_rec *b, const acc_rec *a, const uint32_t *start, bool *races,
                             uintptr_t *where) {
    if (!A.separate)
        return false;
    const acc_rec *p = b->side == SIDE_PLAIN ? b : a, *r = b->side == SIDE_PLAIN ? a : b;
    if (p->side != SIDE_PLAIN || r->side != SIDE_TARGET)
        return false;
    bool store_first = b == p && p->writes, remote_first = b == r && r->writes;
    if (!store_first && !remote_first)
        return false; /* a load before, or a get before a store: as unified */
    const acc_region *gp = region_of(p->lo), *gr = region_of(r->lo);
    if (!gp || gp != gr)
        return false;
    bool whole_window = store_first ? r->writes : p->writes; /* a store and a put/accumulate */
    *where = whole_window ? r->lo : overlap(a, b);
    if (!*where) {
        *races = false;
        return true;
    }
    *races = !(b->visible && start && start[b->vis_rank] >= b->vis_clock);
    return true;
}

/* The owner (window rank me) of window w's memory synchronised: stores of
 * its memory become visible in the public copy (MPI_Win_post, fence,
 * unlock, MPI_Win_sync: rule 5), puts and accumulates to it in process
 * memory (MPI_Win_wait, fence, lock, MPI_Win_sync: rule 6), provided they
 * happened before.  At a fence every access of the epoch did. */
static void mark_visible(const sim_win *w, int me, bool stores, bool updates, bool fence) {
    if (!A.separate)
        return;
    int owner = sim_comm_world(w->comm, me);
    uint32_t clock = fence ? A.last_release[owner] : vc_of(owner)[owner];
    const uint32_t *known = vc_of(owner);
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (r->visible || !r->writes)
            continue;
        bool want = (stores && r->side == SIDE_PLAIN) || (updates && r->side == SIDE_TARGET);
        if (!want)
            continue;
        const acc_region *g = region_of(r->lo);
        if (!g || g->owner != owner || g->win != w->index)
            continue;
        if (!fence && (r->pending || known[r->end_rank] < r->end_clock))
            continue;
        r->visible = true;
        r->vis_rank = owner;
        r->vis_clock = clock;
    }
    close_recent(owner); /* later stores are not visible yet */
}

/* Checks a new access against the records and adds it. */
static void check_and_add(acc_rec *a, const uint32_t *start) {
    for (guint i = 0; i < A.records->len; i++) {
        const acc_rec *b = g_ptr_array_index(A.records, i);
        if (b->key && b->key == a->key) /* two sides of one operation */
            continue;
        if (a->file != b->file) /* file offsets and addresses never meet */
            continue;
        /* One process's accesses of a file are in program order, and
         * atomic mode makes other processes' sequentially consistent (MPI
         * 3.1 13.6.1). */
        if (a->file && (a->rank == b->rank || (a->atomic && b->atomic)))
            continue;
        if (accumulates_ordered(a, b) || shmem_fenced(a, b))
            continue;
        bool races;
        uintptr_t at;
        if (separate_decides(b, a, start, &races, &at)) {
            if (races)
                report_race(b, a, at, true);
            continue;
        }
        if (!conflict(a, b) || ordered_before(b, start))
            continue;
        uintptr_t where = overlap(a, b);
        if (where)
            report_race(b, a, where, false);
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

/* Moves rank's own counter on and returns it: the epoch at which a
 * completion ends operations, after everything the rank did before it, the
 * issue of the operations it completes included (an accumulate issued
 * before a flush does not cover what that flush completes). */
static uint32_t bump(int rank) {
    close_recent(rank);
    return ++vc_of(rank)[rank];
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

static const acc_region *region_of(uintptr_t addr) {
    for (guint i = 0; i < A.regions->len; i++) {
        const acc_region *g = &g_array_index(A.regions, acc_region, i);
        if (addr >= g->lo && addr < g->hi)
            return g;
    }
    return NULL;
}

static void region_add(const void *base, MPI_Aint size, int owner, int win) {
    if (!base || size <= 0)
        return;
    acc_region g = {(uintptr_t)base, (uintptr_t)base + (uintptr_t)size, owner, win};
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
    for (guint i = A.on ? A.atomic_rels->len : 0; i-- > 0;) {
        atomic_rel *e = &g_array_index(A.atomic_rels, atomic_rel, i);
        if (e->lo >= (uintptr_t)base && e->hi <= (uintptr_t)base + (uintptr_t)size) {
            sim_vc_free(e->vc);
            g_array_remove_index_fast(A.atomic_rels, i);
        }
    }
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
        if ((b->rank == rank && b->side == SIDE_PLAIN) || b->file)
            continue; /* program order; a file's bytes are no memory */
        bool races;
        uintptr_t at;
        if (separate_decides(b, &probe, start, &races, &at)) {
            if (races)
                report_race(b, &probe, at, true);
            continue;
        }
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
            report_race(b, &probe, where, false);
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
        const sim_info *hints =
            sim_hints_get(sim_comm_world(w->comm, op->target), SIM_HINT_WIN, w->handle);
        const char *ops = hints ? sim_info_get(hints, "accumulate_ops") : NULL;
        t->same_op_only = ops && strcmp(ops, "same_op") == 0;
        if (t->writes)
            t->issue = g_memdup2(vc_of(t->rank), sizeof(uint32_t) * (size_t)A.n);
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

/* An accumulate that writes a location releases what its origin had done
 * before issuing it, to any fetching accumulate (fetch_and_op,
 * compare_and_swap, get_accumulate) that applies at that location later and
 * so reads its value: a flag set with MPI_Accumulate after MPI_Win_flush and
 * polled with MPI_Fetch_and_op orders what the flush completed before what
 * the poller does next, as a release/acquire pair of atomics does. */
static acc_rec *target_rec_of(const sim_rma_op *op) {
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (r->key == op->seq + 1 && r->side == SIDE_TARGET)
            return r;
    }
    for (guint i = 0; i < A.deferred->len; i++) {
        acc_rec *r = g_ptr_array_index(A.deferred, i);
        if (r->key == op->seq + 1)
            return r;
    }
    return NULL;
}

static void on_applied(const sim_win *w, const sim_rma_op *op, void *user) {
    (void)w;
    (void)user;
    if (!A.on || op->target < 0)
        return;
    acc_rec *t = target_rec_of(op);
    if (!t || !t->atomic)
        return;
    if (t->fetches)
        for (guint i = 0; i < A.atomic_rels->len; i++) {
            const atomic_rel *e = &g_array_index(A.atomic_rels, atomic_rel, i);
            if (e->lo < t->hi && t->lo < e->hi)
                acquire(t->rank, e->vc);
        }
    if (!t->issue)
        return;
    for (guint i = 0; i < A.atomic_rels->len; i++) {
        atomic_rel *e = &g_array_index(A.atomic_rels, atomic_rel, i);
        if (e->lo == t->lo && e->hi == t->hi) {
            e->vc = sim_vc_join(e->vc, t->issue);
            return;
        }
    }
    atomic_rel e = {t->lo, t->hi, sim_vc_join(NULL, t->issue)};
    g_array_append_val(A.atomic_rels, e);
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
        mark_visible(w, me, true, true, true);
        break;
    case SIM_RMA_SYNC_POST: {
        mark_visible(w, me, true, false, false);
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
        end_ops(w->index, world, peer, END_LOCAL, "MPI_Win_complete", site, world, bump(world));
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
                    "MPI_Win_wait", site, world, bump(world));
        mark_visible(w, me, false, true, false);
        break;
    case SIM_RMA_SYNC_LOCK: {
        int from = peer < 0 ? 0 : peer, to = peer < 0 ? w->size : peer + 1;
        for (int t = from; t < to; t++) {
            bool excl = peer >= 0 && m->lock[t] == SIM_LK_EXCLUSIVE;
            lock_acquire(w, world, t, excl);
            g_hash_table_insert(A.held, key3(w->index, me, t), GINT_TO_POINTER(excl ? 2 : 1));
        }
        mark_visible(w, me, false, true, false);
        break;
    }
    case SIM_RMA_SYNC_UNLOCK: {
        end_ops(w->index, world, peer, END_BOTH, peer < 0 ? "MPI_Win_unlock_all" : "MPI_Win_unlock",
                site, world, bump(world));
        mark_visible(w, me, true, false, false);
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
                bump(world));
        break;
    }
    case SIM_RMA_SYNC_WIN_SYNC:
        mark_visible(w, me, true, true, false);
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
            region_add(m->base, m->size, sim_comm_world(w->comm, r), w->index);
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
        region_add(base, size, sim_comm_world(w->comm, me), w->index);
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
    /* On an intercommunicator roots are roles (coll_inter.h): every member
     * is taken to learn of every other, which may hide a race but never
     * makes one up. */
    if (c->comm->inter)
        return true;
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
    if (req->vc_acq) { /* free(NULL) is not free here: ordex's free asks whose it is */
        sim_vc_free(req->vc_acq);
        req->vc_acq = NULL;
    }
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
                r->end_clock = bump(req->owner);
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
static void drop_key(uint64_t key, bool waited) {
    guint k = 0;
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (r->key != key) {
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
}

static void drop_buffer(sim_request *req, bool waited) {
    drop_key(req->access_key, waited);
    req->access_key = 0;
}

/* The bytes member me of a nonblocking collective reads (writes false) or
 * writes (true), from its arguments (coll.h's contract on sim_coll_args). */
static void coll_bytes(const sim_coll *c, int me, bool writes, GArray *blocks) {
    const sim_coll_args *a = &c->args[me];
    int n = c->comm->size;
    bool root = me == a->root;
    if (c->comm->inter) {
        /* Blocks per member of the other group; the root passes MPI_ROOT,
         * the rest of its group MPI_PROC_NULL and touches nothing. */
        if (a->root == MPI_PROC_NULL)
            return;
        n = sim_coll_inter_peers(c, me);
        root = a->root == MPI_ROOT;
    }
    const sim_datatype *st = sim_dt_get(a->sendtype), *rt = sim_dt_get(a->recvtype);
    MPI_Aint sx = st ? sim_dt_extent(st) : 0, rx = rt ? sim_dt_extent(rt) : 0;
    switch (c->kind) {
    case SIM_COLL_BCAST:
        if (writes != root)
            collect_bytes(blocks, a->recvbuf, a->recvcount, a->recvtype);
        return;
    case SIM_COLL_REDUCE:
    case SIM_COLL_GATHER:
    case SIM_COLL_GATHERV:
        if (!writes)
            collect_bytes(blocks, a->sendbuf, a->sendcount, a->sendtype);
        else if (root && c->kind == SIM_COLL_REDUCE)
            collect_bytes(blocks, a->recvbuf, a->recvcount, a->recvtype);
        else if (root && c->kind == SIM_COLL_GATHER)
            collect_bytes(blocks, a->recvbuf, a->recvcount * n, a->recvtype);
        else if (root && a->recvcounts && a->rdispls)
            for (int i = 0; i < n; i++)
                collect_bytes(blocks, (char *)a->recvbuf + a->rdispls[i] * rx, a->recvcounts[i],
                              a->recvtype);
        return;
    case SIM_COLL_SCATTER:
    case SIM_COLL_SCATTERV:
        if (writes)
            collect_bytes(blocks, a->recvbuf, a->recvcount, a->recvtype);
        else if (root && c->kind == SIM_COLL_SCATTER)
            collect_bytes(blocks, a->sendbuf, a->sendcount * n, a->sendtype);
        else if (root && a->sendcounts && a->sdispls)
            for (int i = 0; i < n; i++)
                collect_bytes(blocks, (const char *)a->sendbuf + a->sdispls[i] * sx,
                              a->sendcounts[i], a->sendtype);
        return;
    case SIM_COLL_ALLREDUCE:
    case SIM_COLL_SCAN:
    case SIM_COLL_EXSCAN:
        if (writes)
            collect_bytes(blocks, a->recvbuf, a->recvcount, a->recvtype);
        else
            collect_bytes(blocks, a->sendbuf, a->sendcount, a->sendtype);
        return;
    case SIM_COLL_ALLGATHER:
    case SIM_COLL_ALLTOALL:
        if (writes)
            collect_bytes(blocks, a->recvbuf, a->recvcount * n, a->recvtype);
        else
            collect_bytes(blocks, a->sendbuf,
                          c->kind == SIM_COLL_ALLTOALL ? a->sendcount * n : a->sendcount,
                          a->sendtype);
        return;
    case SIM_COLL_ALLGATHERV:
        if (writes && a->recvcounts && a->rdispls)
            for (int i = 0; i < n; i++)
                collect_bytes(blocks, (char *)a->recvbuf + a->rdispls[i] * rx, a->recvcounts[i],
                              a->recvtype);
        else if (!writes)
            collect_bytes(blocks, a->sendbuf, a->sendcount, a->sendtype);
        return;
    default: /* the v and w all-to-alls, reduce_scatter: not tracked */
        return;
    }
}

static void track_coll(sim_request *req) {
    const sim_coll *c = req->coll;
    int me = sim_comm_rank(c->comm, req->owner);
    uint64_t key = BUFFER_KEY + A.next_buffer++;
    for (int writes = 0; writes < 2; writes++) {
        GArray *blocks = g_array_new(FALSE, FALSE, sizeof(acc_block));
        coll_bytes(c, me, writes, blocks);
        acc_rec *r = g_new0(acc_rec, 1);
        r->rank = req->owner;
        r->writes = writes;
        r->side = SIDE_BUFFER;
        r->what = req->call;
        r->role = writes ? "receive buffer" : "send buffer";
        r->site = req->call_site;
        r->key = key;
        r->win = -1;
        r->wtarget = -1;
        r->pending = true;
        if (!rec_take_blocks(r, blocks)) {
            rec_free(r);
            continue;
        }
        req->access_key = key;
        sched_access_mark((const void *)r->lo, r->hi - r->lo);
        check_and_add(r, A.on ? vc_of(r->rank) : NULL);
    }
}

void sim_access_request_started(sim_request *req) {
    if (!sched_access_instrumented())
        return;
    if (req->kind == SIM_REQ_COLL && req->coll && req->coll->kind < SIM_COLL_COMM_DUP) {
        start_tracking();
        track_coll(req);
        return;
    }
    if ((req->kind != SIM_REQ_SEND && req->kind != SIM_REQ_RECV) || req->peer == MPI_PROC_NULL)
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

uint64_t sim_access_buffer_begin(int rank, const void *buf, int count, MPI_Datatype type,
                                 bool writes, const char *call, const char *role, void *site) {
    if (!sched_access_instrumented() || !buf || count <= 0)
        return 0;
    start_tracking();
    acc_rec *r = g_new0(acc_rec, 1);
    r->rank = rank;
    r->writes = writes;
    r->side = SIDE_BUFFER;
    r->what = call;
    r->role = role;
    r->site = site;
    r->key = BUFFER_KEY + A.next_buffer++;
    r->win = -1;
    r->wtarget = -1;
    r->pending = true;
    if (!rec_set_bytes(r, buf, count, type)) {
        rec_free(r);
        return 0;
    }
    uint64_t key = r->key;
    rec_mark(r);
    check_and_add(r, A.on ? vc_of(r->rank) : NULL);
    return key;
}

void sim_access_buffer_end(uint64_t key) {
    if (A.tracking && key >= BUFFER_KEY)
        drop_key(key, true);
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

void sim_access_init(int nranks, bool separate) {
    memset(&A, 0, sizeof A);
    A.n = nranks;
    A.separate = separate;
    A.unit = "rank";
    sim_rma_observer obs = {.issued = on_issued,
                            .applied = on_applied,
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
    A.fences = g_new0(uint32_t, (size_t)A.n);
    for (int r = 0; r < A.n; r++)
        vc_of(r)[r] = 1; /* counter 0 stands for "before the checks began" */
    A.locks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, locks_free);
    A.held = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    A.posts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, queue_free);
    A.completes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, queue_free);
    A.atomic_rels = g_array_new(FALSE, FALSE, sizeof(atomic_rel));
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
        for (guint i = 0; i < A.atomic_rels->len; i++)
            sim_vc_free(g_array_index(A.atomic_rels, atomic_rel, i).vc);
        g_array_free(A.atomic_rels, TRUE);
    }
    g_hash_table_destroy(A.reported);
    if (A.file_seen)
        g_hash_table_destroy(A.file_seen);
    g_array_free(A.regions, TRUE);
    g_free(A.vc);
    g_free(A.last_release);
    g_free(A.fences);
    if (A.ctx_fences)
        g_hash_table_destroy(A.ctx_fences);
    for (int r = 0; r < A.n; r++)
        g_free(A.recent[r]);
    g_free(A.recent);
    g_free(A.own_changes);
    memset(&A, 0, sizeof A);
}

/* ---------------------------------------------------------------------- */
/* State digest                                                            */

/* Whether every rank is ordered after r's end: nothing to come can race
 * with it (a deferred access may still start earlier). */
static bool file_seen_by(const acc_rec *r, int q);

static bool settled(const acc_rec *r) {
    if (r->pending || !A.on)
        return false;
    if (r->file) {
        for (int q = 0; q < A.n; q++)
            if (q != r->rank && !file_seen_by(r, q))
                return false;
        return true;
    }
    for (int q = 0; q < A.n; q++)
        if (!ordered_before(r, vc_of(q)))
            return false;
    for (guint d = 0; d < A.deferred->len; d++)
        if (((acc_rec *)g_ptr_array_index(A.deferred, d))->start->c[r->end_rank] < r->end_clock)
            return false;
    return true;
}

/* What of r decides the races to come, as bytes: where, how, by whom,
 * whether pending, made visible or fenced, and which ranks are already
 * ordered after it (whatever the counters' values). */
static void rec_image(const acc_rec *r, GByteArray *out) {
    g_byte_array_set_size(out, 0);
    /* A pending OpenSHMEM write that a fence orders before what its PE
     * issues next races with less. */
    bool fenced = r->win == SHMEM_WIN && r->pending && r->fence < *fence_slot(r->rank, r->ctx);
    int64_t f[12] = {(int64_t)r->lo, (int64_t)r->hi, r->rank, r->writes,
                     r->atomic,      (int64_t)r->op, r->side, (int64_t)(intptr_t)r->site,
                     r->pending,     r->visible,     fenced,  r->file};
    g_byte_array_append(out, (const guint8 *)f, sizeof f);
    for (int q = 0; A.on && q < A.n; q++) {
        uint8_t known = ordered_before(r, vc_of(q));
        g_byte_array_append(out, &known, 1);
    }
}

static gint image_order(gconstpointer pa, gconstpointer pb) {
    const GByteArray *a = *(const GByteArray *const *)pa, *b = *(const GByteArray *const *)pb;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return memcmp(a->data, b->data, a->len);
}

void sim_access_digest(sim_digest_feed feed, void *user) {
    if (!A.tracking)
        return;
    GPtrArray *images = g_ptr_array_new_with_free_func((GDestroyNotify)g_byte_array_unref);
    for (guint i = 0; i < A.records->len + A.deferred->len; i++) {
        const acc_rec *r = i < A.records->len ? g_ptr_array_index(A.records, i)
                                              : g_ptr_array_index(A.deferred, i - A.records->len);
        if (i < A.records->len && settled(r)) /* records not pruned yet */
            continue;
        GByteArray *b = g_byte_array_new();
        rec_image(r, b);
        g_ptr_array_add(images, b);
    }
    /* A set, in a canonical order: a record just like another (a polling
     * loop's accesses, one per pass) races with exactly what the other
     * does, so states that differ only in how many there are merge. */
    g_ptr_array_sort(images, image_order);
    for (guint i = 0; i < images->len; i++) {
        const GByteArray *b = g_ptr_array_index(images, i);
        if (i == 0 || image_order(&images->pdata[i - 1], &images->pdata[i]) != 0)
            feed(user, b->data, b->len);
    }
    g_ptr_array_free(images, TRUE);
}

/* ---------------------------------------------------------------------- */
/* OpenSHMEM                                                               */

void sim_access_shmem_enable(void) {
    sim_access_enable();
    A.unit = "PE";
}

void sim_access_shmem_region(const void *base, size_t size, int owner, bool add) {
    if (!A.tracking)
        return;
    if (add)
        region_add(base, (MPI_Aint)size, owner, SHMEM_WIN);
    else
        region_remove(base, (MPI_Aint)size);
}

void sim_access_set_namer(sim_access_namer namer) {
    A.namer = namer;
}

/* Marks (or unmarks) the bytes of the buffer of a pending nonblocking
 * operation. */
static void shmem_mark_local(const acc_rec *r, bool mark) {
    acc_block one;
    guint n;
    const acc_block *b = rec_blocks(r, &n, &one);
    for (guint i = 0; i < n; i++) {
        if (mark)
            sched_access_mark((const void *)b[i].lo, b[i].hi - b[i].lo);
        else
            sched_access_unmark((const void *)b[i].lo, b[i].hi - b[i].lo);
    }
}

/* Whether r, a read that has ended, is the same as one of its PE's in
 * the same epoch: everything recorded since was checked against that one,
 * so r would find nothing new (a loop polling with shmem_g adds one
 * record, not one per turn). */
static bool shmem_repeated(const acc_rec *r) {
    if (r->pending || r->writes || r->blocks)
        return false;
    for (guint i = A.records->len; i-- > 0;) {
        const acc_rec *b = g_ptr_array_index(A.records, i);
        if (b->win == SHMEM_WIN && b->rank == r->rank && b->site == r->site && b->lo == r->lo &&
            b->hi == r->hi && !b->blocks && b->side == r->side && !b->writes && !b->pending &&
            b->atomic == r->atomic && b->basic == r->basic && b->fetches == r->fetches &&
            b->end_rank == r->end_rank && b->end_clock == r->end_clock && !b->alt)
            return true;
    }
    return false;
}

uint64_t sim_access_shmem_key(void) {
    return SHMEM_KEY + A.next_shmem++;
}

void sim_access_shmem_add(const sim_shmem_access *d) {
    if (!A.on || !d->len || !d->count)
        return;
    acc_rec *r = g_new0(acc_rec, 1);
    r->rank = d->rank;
    r->writes = d->writes;
    r->atomic = d->atomic;
    r->basic = d->atomic ? d->basic : MPI_DATATYPE_NULL;
    /* Every OpenSHMEM atomic is atomic with every other of its type
     * (OpenSHMEM 1.4 9.8): MPI_NO_OP is compatible with every op. */
    r->op = MPI_NO_OP;
    r->side = d->target >= 0 ? SIDE_TARGET : SIDE_LOCAL;
    r->fetches = d->fetches;
    r->what = d->what;
    r->role = d->role;
    r->site = d->site;
    r->key = d->key;
    r->ctx = d->ctx;
    r->fence = *fence_slot(d->rank, d->ctx);
    r->win = SHMEM_WIN;
    r->wtarget = d->target;
    r->pending = d->pending;
    r->end_rank = d->rank;
    r->end_clock = vc_of(d->rank)[d->rank];
    r->end_call = "its return";
    r->end_site = d->site;
    GArray *blocks = g_array_new(FALSE, FALSE, sizeof(acc_block));
    for (size_t i = 0; i < d->count; i++) {
        uintptr_t lo = (uintptr_t)d->addr + (uintptr_t)((ptrdiff_t)i * d->stride);
        acc_block b = {lo, lo + d->len};
        g_array_append_val(blocks, b);
    }
    if (!rec_take_blocks(r, blocks)) {
        rec_free(r);
        return;
    }
    if (shmem_repeated(r)) { /* a loop that polls: checked already */
        rec_free(r);
        return;
    }
    if (r->side == SIDE_LOCAL && r->pending)
        shmem_mark_local(r, true); /* the PE's own accesses to it are seen until its quiet */
    check_and_add(r, vc_of(r->rank));
}

void sim_access_shmem_fence(int rank, uint32_t ctx) {
    if (A.on)
        (*fence_slot(rank, ctx))++;
}

uint32_t sim_access_shmem_fences(int rank, uint32_t ctx) {
    return A.on ? *fence_slot(rank, ctx) : 0;
}

void sim_access_shmem_quiet(int rank, uint32_t ctx, const char *call, void *site) {
    if (!A.on)
        return;
    uint32_t clock = vc_of(rank)[rank];
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (r->win != SHMEM_WIN || r->rank != rank || r->ctx != ctx || !r->pending)
            continue;
        if (r->side == SIDE_LOCAL)
            shmem_mark_local(r, false);
        r->pending = false;
        rec_unmark(r);
        r->end_rank = rank;
        r->end_clock = clock;
        r->end_call = call;
        r->end_site = site;
    }
}

void sim_access_shmem_observed(int observer, int origin, uint32_t ctx, uint32_t fences,
                               uint64_t key, const char *call, void *site) {
    if (!A.on)
        return;
    for (guint i = 0; i < A.records->len; i++) {
        acc_rec *r = g_ptr_array_index(A.records, i);
        if (r->win != SHMEM_WIN || r->rank != origin || r->side != SIDE_TARGET ||
            r->wtarget != observer || (r->key != key && r->ctx != ctx))
            continue;
        if (r->key != key && (r->fence >= fences || r->fetches))
            continue;
        if (!r->pending) { /* its PE's quiet ended it: another way to be ordered after it */
            if (!ordered_before(r, vc_of(observer))) {
                r->alt = true;
                r->alt_rank = observer;
                r->alt_clock = vc_of(observer)[observer];
            }
            continue;
        }
        r->pending = false;
        r->end_rank = observer;
        r->end_clock = vc_of(observer)[observer];
        r->end_call = call;
        r->end_site = site;
    }
}

void sim_access_acquire(int rank, const sim_vc *x) {
    if (A.on)
        acquire(rank, x);
}

/* ---------------------------------------------------------------------- */
/* MPI-IO                                                                  */

static gint64 file_key(int file, int rank) {
    return (gint64)file * A.n + rank;
}

/* The clock rank's accesses of file start at (NULL: it never opened it). */
static const sim_vc *file_seen(int file, int rank) {
    if (!A.file_seen)
        return NULL;
    gint64 k = file_key(file, rank);
    return g_hash_table_lookup(A.file_seen, &k);
}

/* Whether rank q's next access of r's file is ordered after r. */
static bool file_seen_by(const acc_rec *r, int q) {
    const sim_vc *s = file_seen(r->file, q);
    return s && ordered_before(r, s->c);
}

void sim_access_file_sync(int rank, int file, const char *call, void *site) {
    if (!A.on)
        return;
    if (call) {
        uint32_t clock = bump(rank);
        for (guint i = 0; i < A.records->len; i++) {
            acc_rec *r = g_ptr_array_index(A.records, i);
            if (!r->pending || r->file != file || r->rank != rank)
                continue;
            r->pending = false;
            r->end_rank = rank;
            r->end_clock = clock;
            r->end_call = call;
            r->end_site = site;
        }
    }
    if (!A.file_seen)
        A.file_seen = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    gint64 *k = g_new(gint64, 1);
    *k = file_key(file, rank);
    g_hash_table_replace(A.file_seen, k, g_memdup2(vc_of(rank), sizeof(uint32_t) * (size_t)A.n));
}

void sim_access_file_add(const sim_file_access *d) {
    if (!A.on || d->n == 0)
        return;
    acc_rec *a = g_new0(acc_rec, 1);
    GArray *blocks = g_array_new(FALSE, FALSE, sizeof(acc_block));
    for (size_t i = 0; i < d->n; i++) {
        acc_block b = {(uintptr_t)d->runs[2 * i] + FILE_BASE,
                       (uintptr_t)d->runs[2 * i + 1] + FILE_BASE};
        if (b.hi > b.lo)
            g_array_append_val(blocks, b);
    }
    if (!rec_take_blocks(a, blocks)) {
        g_free(a);
        return;
    }
    a->rank = d->rank;
    a->writes = d->writes;
    a->atomic = d->atomic;
    a->basic = MPI_DATATYPE_NULL;
    a->op = MPI_OP_NULL;
    a->side = SIDE_FILE;
    a->what = d->what;
    a->role = "file";
    a->site = d->site;
    a->win = -1;
    a->file = d->file;
    a->path = d->path;
    a->pending = true;
    const sim_vc *seen = file_seen(d->file, d->rank);
    check_and_add(a, seen ? seen->c : vc_of(d->rank));
}
