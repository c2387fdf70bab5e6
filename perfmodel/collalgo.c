/*
 * collalgo.c - collective schedules and their executor (see collalgo.h).
 *
 * Building: each algorithm appends a member's steps in the order MPICH
 * issues them, tagged with the algorithm's own round number (which may skip
 * values where a member has nothing to do).  The steps are then flattened
 * into one array, rounds renumbered per member without gaps, and every send
 * paired with its receive (k-th send a -> b with the k-th receive at b from
 * a).  The pairing is checked here, so a schedule that would leave a
 * message unmatched is never handed out.
 *
 * Running: a member is either idle (not arrived), active in one round, or
 * done.  An active member counts what its round still waits for (rendezvous
 * sends and receives not yet delivered) and the latest time among what has
 * completed; when the count reaches zero it moves on at that time.  A
 * delivered transfer marks both its send step and the paired receive step,
 * so a receive delivered early is found complete when its round is entered.
 */
#include "perfmodel/collalgo.h"

#include <glib.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

GQuark pm_ca_error_quark(void) {
    return g_quark_from_static_string("sim-ca-error-quark");
}

struct pm_ca_schedule {
    pm_ca_kind kind;
    int p;
    int *first;        /* p + 1 offsets: member m's steps are [first[m], first[m+1]) */
    pm_ca_step *steps; /* all members' steps */
    int *owner;        /* the member of each step */
    int *match;        /* the index of the paired step (send <-> receive) */
};

static const char *const KIND_NAMES[PM_CA_NKINDS] = {
    [PM_CA_BARRIER] = "barrier",
    [PM_CA_BCAST] = "bcast",
    [PM_CA_REDUCE] = "reduce",
    [PM_CA_ALLREDUCE] = "allreduce",
    [PM_CA_GATHER] = "gather",
    [PM_CA_SCATTER] = "scatter",
    [PM_CA_GATHERV] = "gatherv",
    [PM_CA_SCATTERV] = "scatterv",
    [PM_CA_ALLGATHER] = "allgather",
    [PM_CA_ALLGATHERV] = "allgatherv",
    [PM_CA_ALLTOALL] = "alltoall",
    [PM_CA_ALLTOALLV] = "alltoallv",
    [PM_CA_REDUCE_SCATTER] = "reduce_scatter",
    [PM_CA_SCAN] = "scan",
    [PM_CA_EXSCAN] = "exscan",
};

const char *pm_ca_kind_name(pm_ca_kind kind) {
    if ((int)kind < 0 || kind >= PM_CA_NKINDS)
        return "?";
    return KIND_NAMES[kind];
}

/* ---------------------------------------------------------------------- */
/* Building                                                                */

/* Steps being collected, one GArray of pm_ca_step per member. */
typedef struct builder {
    int p;
    GArray **member;
} builder;

static void add(builder *b, int m, int round, bool send, int peer, uint64_t bytes) {
    pm_ca_step st = {.round = round, .send = send, .peer = peer, .bytes = bytes};
    g_array_append_val(b->member[m], st);
}

/* One Sendrecv: both directions in the same round. */
static void exchange(builder *b, int m, int round, int to, uint64_t out, int from, uint64_t in) {
    add(b, m, round, true, to, out);
    add(b, m, round, false, from, in);
}

static int lowbit(int x) {
    return x & -x;
}

static bool is_pof2(int x) {
    return x > 0 && (x & (x - 1)) == 0;
}

/* Blocks in the binomial subtree rooted at relative rank rel (rel > 0: the
 * ranks rel .. rel + lowbit(rel) - 1 that exist; the root: all p). */
static uint64_t subtree(int rel, int p) {
    if (rel == 0)
        return (uint64_t)p;
    int span = lowbit(rel);
    return (uint64_t)(span < p - rel ? span : p - rel);
}

static void build_barrier(builder *b) {
    int p = b->p;
    for (int i = 0; i < p; i++) {
        int k = 0;
        for (int d = 1; d < p; d <<= 1, k++)
            exchange(b, i, k, (i + d) % p, 0, (i - d + p) % p, 0);
    }
}

/* bcast and scatter: the same tree; scatter's messages carry subtrees. */
static void build_tree_down(builder *b, int root, uint64_t bytes, bool subtrees) {
    int p = b->p;
    for (int i = 0; i < p; i++) {
        int rel = (i - root + p) % p;
        int round = 0;
        int mask = 1;
        while (mask < p) {
            if (rel & mask) {
                uint64_t n = subtrees ? subtree(rel, p) * bytes : bytes;
                add(b, i, round++, false, (rel - mask + root) % p, n);
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (rel + mask < p) {
                uint64_t n = subtrees ? subtree(rel + mask, p) * bytes : bytes;
                add(b, i, round++, true, (rel + mask + root) % p, n);
            }
        }
    }
}

/* reduce and gather: children first, smallest subtree first, then parent. */
static void build_tree_up(builder *b, int root, uint64_t bytes, bool subtrees) {
    int p = b->p;
    for (int i = 0; i < p; i++) {
        int rel = (i - root + p) % p;
        int round = 0;
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((rel & mask) == 0) {
                int child = rel | mask;
                if (child < p) {
                    uint64_t n = subtrees ? subtree(child, p) * bytes : bytes;
                    add(b, i, round++, false, (child + root) % p, n);
                }
            } else {
                uint64_t n = subtrees ? subtree(rel, p) * bytes : bytes;
                add(b, i, round, true, ((rel ^ mask) + root) % p, n);
                break;
            }
        }
    }
}

static void build_allreduce(builder *b, uint64_t bytes) {
    int p = b->p;
    int pof2 = 1;
    while (pof2 * 2 <= p)
        pof2 *= 2;
    int rem = p - pof2;
    for (int i = 0; i < p; i++) {
        int round = 0;
        int newrank;
        if (i < 2 * rem) {
            if (i % 2 == 0) {
                add(b, i, round++, true, i + 1, bytes);
                newrank = -1;
            } else {
                add(b, i, round++, false, i - 1, bytes);
                newrank = i / 2;
            }
        } else {
            newrank = i - rem;
        }
        if (newrank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int nd = newrank ^ mask;
                int dst = nd < rem ? nd * 2 + 1 : nd + rem;
                exchange(b, i, round++, dst, bytes, dst, bytes);
            }
        }
        if (i < 2 * rem) {
            if (i % 2 == 1)
                add(b, i, round, true, i - 1, bytes);
            else
                add(b, i, round, false, i + 1, bytes);
        }
    }
}

/* gatherv (to_root) and scatterv: one round, empty blocks skipped. */
static void build_linear(builder *b, int root, const uint64_t *block, bool to_root) {
    for (int i = 0; i < b->p; i++) {
        if (i == root || block[i] == 0)
            continue;
        add(b, root, 0, !to_root, i, block[i]);
        add(b, i, 0, to_root, root, block[i]);
    }
}

/* Ring; block == NULL: every block is `bytes`. */
static void build_ring(builder *b, uint64_t bytes, const uint64_t *block) {
    int p = b->p;
    for (int i = 0; i < p; i++) {
        for (int k = 0; k < p - 1; k++) {
            int out = ((i - k) % p + p) % p;
            int in = ((i - k - 1) % p + p) % p;
            uint64_t nout = block ? block[out] : bytes;
            uint64_t nin = block ? block[in] : bytes;
            if (nout > 0)
                add(b, i, k, true, (i + 1) % p, nout);
            if (nin > 0)
                add(b, i, k, false, (i - 1 + p) % p, nin);
        }
    }
}

/* Pairwise exchange; matrix == NULL: every message is `bytes`. */
static void build_alltoall(builder *b, uint64_t bytes, const uint64_t *matrix) {
    int p = b->p;
    bool xor = is_pof2(p);
    for (int i = 0; i < p; i++) {
        for (int k = 1; k < p; k++) {
            int dst = xor? i ^ k : (i + k) % p;
            int src = xor? i ^ k : (i - k + p) % p;
            uint64_t out = matrix ? matrix[(size_t)i * p + dst] : bytes;
            uint64_t in = matrix ? matrix[(size_t)src * p + i] : bytes;
            if (out > 0)
                add(b, i, k - 1, true, dst, out);
            if (in > 0)
                add(b, i, k - 1, false, src, in);
        }
    }
}

static void build_reduce_scatter(builder *b, const uint64_t *block) {
    int p = b->p;
    for (int i = 0; i < p; i++) {
        for (int k = 1; k < p; k++) {
            int dst = (i + k) % p;
            exchange(b, i, k - 1, dst, block[dst], (i - k + p) % p, block[i]);
        }
    }
}

static void build_scan(builder *b, uint64_t bytes) {
    int p = b->p;
    for (int i = 0; i < p; i++) {
        int k = 0;
        for (int mask = 1; mask < p; mask <<= 1, k++) {
            int dst = i ^ mask;
            if (dst < p)
                exchange(b, i, k, dst, bytes, dst, bytes);
        }
    }
}

static bool is_rooted(pm_ca_kind k) {
    return k == PM_CA_BCAST || k == PM_CA_REDUCE || k == PM_CA_GATHER || k == PM_CA_SCATTER ||
           k == PM_CA_GATHERV || k == PM_CA_SCATTERV;
}

static bool needs_block(pm_ca_kind k) {
    return k == PM_CA_GATHERV || k == PM_CA_SCATTERV || k == PM_CA_ALLGATHERV ||
           k == PM_CA_REDUCE_SCATTER;
}

/* An upper bound of the steps a schedule has, so that the flattened arrays
 * can be indexed with int. */
static int64_t max_steps(pm_ca_kind k, int p) {
    int64_t lg = 0;
    while (((int64_t)1 << lg) < p)
        lg++;
    switch (k) {
    case PM_CA_ALLGATHER:
    case PM_CA_ALLGATHERV:
    case PM_CA_ALLTOALL:
    case PM_CA_ALLTOALLV:
    case PM_CA_REDUCE_SCATTER:
        return 2 * (int64_t)p * (p - 1);
    default:
        return 2 * (int64_t)p * (lg + 2);
    }
}

/* The argument checks; false with *error set. */
static bool check_args(const pm_ca_args *a, GError **error) {
    if (!a) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_KIND,
                    "collective schedule: no arguments given (pass a pm_ca_args)");
        return false;
    }
    if ((int)a->kind < 0 || a->kind >= PM_CA_NKINDS) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_KIND,
                    "collective schedule: kind %d is not a collective (use a pm_ca_kind)",
                    (int)a->kind);
        return false;
    }
    const char *name = pm_ca_kind_name(a->kind);
    if (a->p < 1 || a->p > PM_CA_MAX_MEMBERS) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_MEMBERS,
                    "%s: p = %d members; a communicator has 1 to %d members", name, a->p,
                    PM_CA_MAX_MEMBERS);
        return false;
    }
    if (is_rooted(a->kind) && (a->root < 0 || a->root >= a->p)) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_ROOT,
                    "%s: root %d is not a member (p = %d: the root must be 0 to %d)", name, a->root,
                    a->p, a->p - 1);
        return false;
    }
    if (needs_block(a->kind) && !a->block) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_MISSING,
                    "%s: no block sizes (block must point to p = %d sizes)", name, a->p);
        return false;
    }
    if (a->kind == PM_CA_ALLTOALLV && !a->matrix) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_MISSING,
                    "%s: no size matrix (matrix must point to p * p = %d * %d sizes)", name, a->p,
                    a->p);
        return false;
    }
    if ((a->kind == PM_CA_GATHER || a->kind == PM_CA_SCATTER) && a->bytes > UINT64_MAX / a->p) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_TOO_BIG,
                    "%s: %d blocks of %" G_GUINT64_FORMAT " bytes overflow a 64-bit size", name,
                    a->p, (guint64)a->bytes);
        return false;
    }
    if (max_steps(a->kind, a->p) > INT_MAX) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_TOO_BIG,
                    "%s: p = %d members need more steps than a schedule can hold; "
                    "simulate a smaller communicator",
                    name, a->p);
        return false;
    }
    return true;
}

/* Fills b from the algorithm of a->kind. */
static void generate(builder *b, const pm_ca_args *a) {
    switch (a->kind) {
    case PM_CA_BARRIER:
        build_barrier(b);
        break;
    case PM_CA_BCAST:
        if (a->bytes > 0)
            build_tree_down(b, a->root, a->bytes, false);
        break;
    case PM_CA_SCATTER:
        if (a->bytes > 0)
            build_tree_down(b, a->root, a->bytes, true);
        break;
    case PM_CA_REDUCE:
        if (a->bytes > 0)
            build_tree_up(b, a->root, a->bytes, false);
        break;
    case PM_CA_GATHER:
        if (a->bytes > 0)
            build_tree_up(b, a->root, a->bytes, true);
        break;
    case PM_CA_ALLREDUCE:
        if (a->bytes > 0)
            build_allreduce(b, a->bytes);
        break;
    case PM_CA_GATHERV:
        build_linear(b, a->root, a->block, true);
        break;
    case PM_CA_SCATTERV:
        build_linear(b, a->root, a->block, false);
        break;
    case PM_CA_ALLGATHER:
        if (a->bytes > 0)
            build_ring(b, a->bytes, NULL);
        break;
    case PM_CA_ALLGATHERV:
        build_ring(b, 0, a->block);
        break;
    case PM_CA_ALLTOALL:
        if (a->bytes > 0)
            build_alltoall(b, a->bytes, NULL);
        break;
    case PM_CA_ALLTOALLV:
        build_alltoall(b, 0, a->matrix);
        break;
    case PM_CA_REDUCE_SCATTER: {
        bool any = false;
        for (int i = 0; i < a->p && !any; i++)
            any = a->block[i] > 0;
        if (any)
            build_reduce_scatter(b, a->block);
        break;
    }
    case PM_CA_SCAN:
    case PM_CA_EXSCAN:
        if (a->bytes > 0)
            build_scan(b, a->bytes);
        break;
    case PM_CA_NKINDS:
        break;
    }
}

/* Flattens b into s, renumbering each member's rounds 0, 1, 2 ... */
static void flatten(pm_ca_schedule *s, builder *b) {
    int p = s->p;
    s->first = g_new(int, p + 1);
    int total = 0;
    for (int m = 0; m < p; m++) {
        s->first[m] = total;
        total += (int)b->member[m]->len;
    }
    s->first[p] = total;
    s->steps = g_new(pm_ca_step, total > 0 ? total : 1);
    s->owner = g_new(int, total > 0 ? total : 1);
    s->match = g_new(int, total > 0 ? total : 1);
    for (int m = 0; m < p; m++) {
        GArray *in = b->member[m];
        int round = -1, raw = 0;
        for (guint k = 0; k < in->len; k++) {
            pm_ca_step st = g_array_index(in, pm_ca_step, k);
            if (k == 0 || st.round != raw) {
                raw = st.round;
                round++;
            }
            st.round = round;
            int at = s->first[m] + (int)k;
            s->steps[at] = st;
            s->owner[at] = m;
            s->match[at] = -1;
        }
    }
}

/* The sends and the receives of one ordered pair, in step order. */
typedef struct pair_queue {
    GArray *sends, *recvs; /* of int: step indices */
} pair_queue;

static void pair_queue_free(gpointer data) {
    pair_queue *q = data;
    g_array_free(q->sends, TRUE);
    g_array_free(q->recvs, TRUE);
    g_free(q);
}

/* Pairs every send with its receive; false with *error if some step has no
 * partner or the sizes differ. */
static bool pair_up(pm_ca_schedule *s, GError **error) {
    GHashTable *pairs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, pair_queue_free);
    int total = s->first[s->p];
    for (int at = 0; at < total; at++) {
        const pm_ca_step *st = &s->steps[at];
        int src = st->send ? s->owner[at] : st->peer;
        int dst = st->send ? st->peer : s->owner[at];
        gint64 key = (gint64)src * s->p + dst;
        pair_queue *q = g_hash_table_lookup(pairs, &key);
        if (!q) {
            q = g_new(pair_queue, 1);
            q->sends = g_array_new(FALSE, FALSE, sizeof(int));
            q->recvs = g_array_new(FALSE, FALSE, sizeof(int));
            g_hash_table_insert(pairs, g_memdup2(&key, sizeof key), q);
        }
        g_array_append_val(st->send ? q->sends : q->recvs, at);
    }
    bool ok = true;
    GHashTableIter it;
    gpointer value;
    g_hash_table_iter_init(&it, pairs);
    while (ok && g_hash_table_iter_next(&it, NULL, &value)) {
        const pair_queue *q = value;
        ok = q->sends->len == q->recvs->len;
        for (guint k = 0; ok && k < q->sends->len; k++) {
            int snd = g_array_index(q->sends, int, k);
            int rcv = g_array_index(q->recvs, int, k);
            ok = s->steps[snd].bytes == s->steps[rcv].bytes;
            s->match[snd] = rcv;
            s->match[rcv] = snd;
        }
    }
    g_hash_table_destroy(pairs);
    if (!ok)
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_INTERNAL,
                    "%s: internal error: the schedule for p = %d has an unmatched message",
                    pm_ca_kind_name(s->kind), s->p);
    return ok;
}

pm_ca_schedule *pm_ca_build(const pm_ca_args *a, GError **error) {
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    if (!check_args(a, error))
        return NULL;
    builder b = {.p = a->p, .member = g_new(GArray *, a->p)};
    for (int m = 0; m < a->p; m++)
        b.member[m] = g_array_new(FALSE, FALSE, sizeof(pm_ca_step));
    generate(&b, a);

    pm_ca_schedule *s = g_new0(pm_ca_schedule, 1);
    s->kind = a->kind;
    s->p = a->p;
    flatten(s, &b);
    for (int m = 0; m < a->p; m++)
        g_array_free(b.member[m], TRUE);
    g_free(b.member);
    if (!pair_up(s, error)) {
        pm_ca_free(s);
        return NULL;
    }
    return s;
}

/* Checks a part's map: members distinct and within 0 .. p-1. */
static bool part_map_ok(const pm_ca_part *part, int p, GError **error) {
    int n = part->s->p;
    bool *seen = g_new0(bool, p);
    bool ok = part->map != NULL;
    for (int i = 0; ok && i < n; i++) {
        int m = part->map[i];
        ok = m >= 0 && m < p && !seen[m];
        if (ok)
            seen[m] = true;
    }
    g_free(seen);
    if (!ok)
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_MEMBERS,
                    "composed schedule: a part of %d members maps one outside 0 .. %d or two "
                    "onto the same member",
                    n, p - 1);
    return ok;
}

pm_ca_schedule *pm_ca_compose(pm_ca_kind kind, int p, const pm_ca_part *parts, int nparts,
                              GError **error) {
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    if (p < 1 || p > PM_CA_MAX_MEMBERS) {
        g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_MEMBERS,
                    "composed schedule: p = %d members; a communicator has 1 to %d members", p,
                    PM_CA_MAX_MEMBERS);
        return NULL;
    }
    for (int k = 0; k < nparts; k++)
        if (!parts[k].s || !part_map_ok(&parts[k], p, error)) {
            if (!parts[k].s)
                g_set_error(error, PM_CA_ERROR, PM_CA_ERROR_MEMBERS,
                            "composed schedule: part %d has no schedule", k);
            return NULL;
        }
    builder b = {.p = p, .member = g_new(GArray *, p)};
    int *rounds = g_new0(int, p); /* rounds each member has so far */
    for (int m = 0; m < p; m++)
        b.member[m] = g_array_new(FALSE, FALSE, sizeof(pm_ca_step));
    for (int k = 0; k < nparts; k++) {
        const pm_ca_schedule *s = parts[k].s;
        const int *map = parts[k].map;
        for (int i = 0; i < s->p; i++) {
            int m = map[i];
            for (int at = s->first[i]; at < s->first[i + 1]; at++) {
                const pm_ca_step *st = &s->steps[at];
                add(&b, m, rounds[m] + st->round, st->send, map[st->peer], st->bytes);
            }
            rounds[m] += pm_ca_nrounds(s, i);
        }
    }
    g_free(rounds);
    pm_ca_schedule *s = g_new0(pm_ca_schedule, 1);
    s->kind = kind;
    s->p = p;
    flatten(s, &b);
    for (int m = 0; m < p; m++)
        g_array_free(b.member[m], TRUE);
    g_free(b.member);
    if (!pair_up(s, error)) {
        pm_ca_free(s);
        return NULL;
    }
    return s;
}

void pm_ca_free(pm_ca_schedule *s) {
    if (!s)
        return;
    g_free(s->first);
    g_free(s->steps);
    g_free(s->owner);
    g_free(s->match);
    g_free(s);
}

pm_ca_kind pm_ca_kind_of(const pm_ca_schedule *s) {
    return s->kind;
}

int pm_ca_members(const pm_ca_schedule *s) {
    return s->p;
}

int pm_ca_nsteps(const pm_ca_schedule *s, int member) {
    g_return_val_if_fail(s && member >= 0 && member < s->p, 0);
    return s->first[member + 1] - s->first[member];
}

const pm_ca_step *pm_ca_steps(const pm_ca_schedule *s, int member) {
    g_return_val_if_fail(s && member >= 0 && member < s->p, NULL);
    return s->steps + s->first[member];
}

int pm_ca_nrounds(const pm_ca_schedule *s, int member) {
    g_return_val_if_fail(s && member >= 0 && member < s->p, 0);
    int last = s->first[member + 1] - 1;
    return last < s->first[member] ? 0 : s->steps[last].round + 1;
}

/* ---------------------------------------------------------------------- */
/* Executor                                                                */

typedef enum { MEMBER_IDLE, MEMBER_ACTIVE, MEMBER_DONE } member_state;

typedef struct run_member {
    member_state state;
    int begin, end;    /* while active: the current round's steps [begin, end) */
    int pending;       /* rendezvous sends and receives of the round not yet delivered */
    double round_time; /* the latest completion in the round so far (>= entry) */
    double done_time;
} run_member;

struct pm_ca_run {
    const pm_ca_schedule *s;
    uint64_t eager_limit;
    pm_ca_start_fn start;
    void *user;
    run_member *m;
    bool *delivered;       /* per step: its transfer has arrived */
    uint64_t *id;          /* per send step, once started: the caller's id */
    GHashTable *in_flight; /* &id[step] -> step + 1 */
    int ndone;
    double now;
};

pm_ca_run *pm_ca_run_new(const pm_ca_schedule *s, uint64_t eager_limit, pm_ca_start_fn start,
                         void *user) {
    g_return_val_if_fail(s && start, NULL);
    int total = s->first[s->p];
    int cells = total > 0 ? total : 1;
    pm_ca_run *r = g_new0(pm_ca_run, 1);
    r->s = s;
    r->eager_limit = eager_limit;
    r->start = start;
    r->user = user;
    r->m = g_new0(run_member, s->p);
    r->delivered = g_new0(bool, cells);
    r->id = g_new0(uint64_t, cells);
    r->in_flight = g_hash_table_new(g_int64_hash, g_int64_equal);
    r->now = -G_MAXDOUBLE;
    return r;
}

void pm_ca_run_free(pm_ca_run *r) {
    if (!r)
        return;
    g_free(r->m);
    g_free(r->delivered);
    g_free(r->id);
    g_hash_table_destroy(r->in_flight);
    g_free(r);
}

static bool is_rendezvous(const pm_ca_run *r, const pm_ca_step *st) {
    return st->bytes > r->eager_limit;
}

/* Member m (active, its previous round left at t) enters its next round,
 * and keeps going while rounds complete at once. */
static void enter_rounds(pm_ca_run *r, int m, double t) {
    const pm_ca_schedule *s = r->s;
    run_member *mb = &r->m[m];
    int last = s->first[m + 1];
    while (mb->begin < last) {
        int round = s->steps[mb->begin].round;
        int end = mb->begin;
        while (end < last && s->steps[end].round == round)
            end++;
        mb->end = end;
        mb->pending = 0;
        mb->round_time = t;
        for (int at = mb->begin; at < end; at++) {
            const pm_ca_step *st = &s->steps[at];
            if (st->send) {
                uint64_t id = r->start(r->user, m, st->peer, st->bytes, t);
                r->id[at] = id;
                if (id == 0 || g_hash_table_contains(r->in_flight, &r->id[at]))
                    g_critical("pm_ca_run: the start callback returned id %" G_GUINT64_FORMAT
                               ", which is 0 or already in flight",
                               (guint64)id);
                else
                    g_hash_table_insert(r->in_flight, &r->id[at], GINT_TO_POINTER(at + 1));
                if (is_rendezvous(r, st))
                    mb->pending++;
            } else if (!r->delivered[at]) {
                mb->pending++;
            }
            /* A receive delivered before the round was entered adds
             * nothing: it was delivered by an earlier call, so no later
             * than t. */
        }
        if (mb->pending > 0)
            return;
        t = mb->round_time;
        mb->begin = end;
    }
    mb->state = MEMBER_DONE;
    mb->done_time = t;
    r->ndone++;
}

/* Step `at` of member m was delivered at t: if it belongs to the round m is
 * in, that round may be over. */
static void step_complete(pm_ca_run *r, int m, int at, double t) {
    run_member *mb = &r->m[m];
    if (mb->state != MEMBER_ACTIVE || at < mb->begin || at >= mb->end)
        return;
    if (t > mb->round_time)
        mb->round_time = t;
    if (--mb->pending == 0) {
        mb->begin = mb->end;
        enter_rounds(r, m, mb->round_time);
    }
}

bool pm_ca_run_arrive(pm_ca_run *r, int member, double time) {
    g_return_val_if_fail(r && member >= 0 && member < r->s->p, false);
    g_return_val_if_fail(r->m[member].state == MEMBER_IDLE, false);
    g_return_val_if_fail(time >= r->now, false);
    r->now = time;
    run_member *mb = &r->m[member];
    mb->state = MEMBER_ACTIVE;
    mb->begin = r->s->first[member];
    enter_rounds(r, member, time);
    return true;
}

bool pm_ca_run_transfer_done(pm_ca_run *r, uint64_t id, double time) {
    g_return_val_if_fail(r, false);
    gint64 key = (gint64)id;
    gpointer v = g_hash_table_lookup(r->in_flight, &key);
    if (!v)
        return false;
    g_return_val_if_fail(time >= r->now, false);
    r->now = time;
    int snd = GPOINTER_TO_INT(v) - 1;
    g_hash_table_remove(r->in_flight, &key);
    int rcv = r->s->match[snd];
    r->delivered[snd] = r->delivered[rcv] = true;
    if (is_rendezvous(r, &r->s->steps[snd]))
        step_complete(r, r->s->owner[snd], snd, time);
    step_complete(r, r->s->owner[rcv], rcv, time);
    return true;
}

bool pm_ca_run_member_done(const pm_ca_run *r, int member, double *time) {
    g_return_val_if_fail(r && member >= 0 && member < r->s->p, false);
    if (r->m[member].state != MEMBER_DONE)
        return false;
    if (time)
        *time = r->m[member].done_time;
    return true;
}

bool pm_ca_run_finished(const pm_ca_run *r) {
    g_return_val_if_fail(r, false);
    return r->ndone == r->s->p;
}

int pm_ca_run_in_flight(const pm_ca_run *r) {
    g_return_val_if_fail(r, 0);
    return (int)g_hash_table_size(r->in_flight);
}
