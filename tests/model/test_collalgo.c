/*
 * test_collalgo.c - unit tests of simulator/collalgo.c: the schedules
 * (every send paired with one receive, for every kind, p = 1..17 and
 * several roots; MPICH's trees, rings and exchanges step by step; empty
 * messages; bad arguments) and the executor against hand-computed times.
 *
 * The executor runs on a fake network without contention: a transfer of n
 * bytes takes L + n / B.  With L = 1 s, B = 1000 bytes/s and S = 1000
 * bytes, one message of S bytes takes T = 2 s and an empty one L = 1 s;
 * every time below is an exact sum of those, so times are compared exactly.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "perfmodel/collalgo.h"

#define LAT 1.0
#define BW 1000.0
#define S UINT64_C(1000)
#define T (LAT + S / BW) /* 2 s */

#define EAGER UINT64_C(4096) /* S goes eager */
#define RNDV UINT64_C(100)   /* S goes by rendezvous */

#define MAXP 17

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */

static pm_ca_schedule *build(pm_ca_args a) {
    GError *e = NULL;
    pm_ca_schedule *s = pm_ca_build(&a, &e);
    if (e)
        fprintf(stderr, "\n%s\n", e->message);
    CU_ASSERT_PTR_NULL(e);
    g_clear_error(&e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    return s;
}

/* Asserts member m's step k. */
static void step_is(const pm_ca_schedule *s, int m, int k, int round, bool send, int peer,
                    uint64_t bytes) {
    CU_ASSERT_FATAL(k < pm_ca_nsteps(s, m));
    const pm_ca_step *st = &pm_ca_steps(s, m)[k];
    bool ok = st->round == round && st->send == send && st->peer == peer && st->bytes == bytes;
    if (!ok)
        fprintf(stderr,
                "\n%s member %d step %d: got round %d %s %d %" G_GUINT64_FORMAT
                ", expected round %d %s %d %" G_GUINT64_FORMAT "\n",
                pm_ca_kind_name(pm_ca_kind_of(s)), m, k, st->round, st->send ? "send" : "recv",
                st->peer, (guint64)st->bytes, round, send ? "send" : "recv", peer, (guint64)bytes);
    CU_ASSERT_TRUE(ok);
}

static int count_sends(const pm_ca_schedule *s, uint64_t *bytes) {
    int n = 0;
    uint64_t b = 0;
    for (int m = 0; m < pm_ca_members(s); m++)
        for (int k = 0; k < pm_ca_nsteps(s, m); k++)
            if (pm_ca_steps(s, m)[k].send) {
                n++;
                b += pm_ca_steps(s, m)[k].bytes;
            }
    if (bytes)
        *bytes = b;
    return n;
}

/* The fake network: every started transfer, in id order (id = index + 1). */
typedef struct xfer {
    int src, dst;
    uint64_t bytes;
    double start, end;
    bool reported;
} xfer;

typedef struct fakenet {
    GArray *x;  /* xfer */
    double now; /* the time of the call in progress */
    int bad_starts;
} fakenet;

static uint64_t fake_start(void *user, int src, int dst, uint64_t bytes, double time) {
    fakenet *n = user;
    /* Every start happens at the time of the call that caused it. */
    if (time != n->now)
        n->bad_starts++;
    xfer x = {.src = src,
              .dst = dst,
              .bytes = bytes,
              .start = time,
              .end = time + LAT + (double)bytes / BW};
    g_array_append_val(n->x, x);
    return n->x->len;
}

static void fakenet_init(fakenet *n) {
    memset(n, 0, sizeof *n);
    n->x = g_array_new(FALSE, FALSE, sizeof(xfer));
}

static const xfer *xf(const fakenet *n, guint i) {
    return &g_array_index(n->x, xfer, i);
}

/* Plays schedule s: member m arrives at arrival[m] (NULL: all at 0).  Events
 * go in time order, arrivals before deliveries at the same time, deliveries
 * by id.  Fills done[m] (-1 when not done) and returns whether the run
 * finished with nothing in flight. */
static bool play(const pm_ca_schedule *s, uint64_t eager, const double *arrival, fakenet *net,
                 double *done) {
    int p = pm_ca_members(s);
    pm_ca_run *r = pm_ca_run_new(s, eager, fake_start, net);
    bool *arrived = g_new0(bool, p);
    int guard = 0;
    for (;;) {
        int who = -1;
        for (int m = 0; m < p; m++)
            if (!arrived[m] && (who < 0 || (arrival ? arrival[m] < arrival[who] : false)))
                who = m;
        int next = -1;
        for (guint i = 0; i < net->x->len; i++)
            if (!xf(net, i)->reported && (next < 0 || xf(net, i)->end < xf(net, next)->end))
                next = (int)i;
        if (who < 0 && next < 0)
            break;
        if (guard++ > 100000)
            break;
        double ta = who >= 0 ? (arrival ? arrival[who] : 0) : 0;
        if (who >= 0 && (next < 0 || ta <= xf(net, next)->end)) {
            net->now = ta;
            arrived[who] = true;
            CU_ASSERT_TRUE(pm_ca_run_arrive(r, who, ta));
        } else {
            xfer *x = &g_array_index(net->x, xfer, next);
            x->reported = true;
            net->now = x->end;
            CU_ASSERT_TRUE(pm_ca_run_transfer_done(r, (uint64_t)next + 1, x->end));
        }
    }
    for (int m = 0; m < p; m++) {
        double t = -1;
        if (!pm_ca_run_member_done(r, m, &t))
            t = -1;
        done[m] = t;
        if (arrival && t >= 0)
            CU_ASSERT_TRUE(t >= arrival[m]);
    }
    bool ok = pm_ca_run_finished(r) && pm_ca_run_in_flight(r) == 0;
    CU_ASSERT_EQUAL(net->bad_starts, 0);
    pm_ca_run_free(r);
    g_free(arrived);
    return ok;
}

static void times_are(const double *got, const double *want, int p, const char *what) {
    for (int m = 0; m < p; m++) {
        if (got[m] != want[m])
            fprintf(stderr, "\n%s: member %d done at %g, expected %g\n", what, m, got[m], want[m]);
        CU_ASSERT_EQUAL(got[m], want[m]);
    }
}

/* ---------------------------------------------------------------------- */
/* Pairing, for every kind and size                                        */

/* The schedule's own promises: rounds from 0 without gaps, peers are other
 * members, no round has two steps of one direction with one peer; and the
 * pairing: for every ordered pair (a, b), the sizes of a's sends to b in a's
 * order equal the sizes of b's receives from a in b's order. */
static bool well_formed(const pm_ca_schedule *s, const char *what) {
    int p = pm_ca_members(s);
    bool ok = true;
    for (int m = 0; m < p; m++) {
        const pm_ca_step *st = pm_ca_steps(s, m);
        int n = pm_ca_nsteps(s, m);
        for (int k = 0; k < n; k++) {
            int prev = k ? st[k - 1].round : 0;
            if (st[k].round != prev && st[k].round != prev + 1)
                ok = false;
            if (st[k].peer < 0 || st[k].peer >= p || st[k].peer == m)
                ok = false;
            for (int j = 0; j < k; j++)
                if (st[j].round == st[k].round && st[j].send == st[k].send &&
                    st[j].peer == st[k].peer)
                    ok = false;
        }
        if (pm_ca_nrounds(s, m) != (n ? st[n - 1].round + 1 : 0))
            ok = false;
    }
    if (!ok)
        fprintf(stderr, "\n%s: badly formed rounds or peers\n", what);
    for (int a = 0; a < p && ok; a++) {
        for (int b = 0; b < p && ok; b++) {
            GArray *out = g_array_new(FALSE, FALSE, sizeof(uint64_t));
            GArray *in = g_array_new(FALSE, FALSE, sizeof(uint64_t));
            for (int k = 0; k < pm_ca_nsteps(s, a); k++) {
                const pm_ca_step *st = &pm_ca_steps(s, a)[k];
                if (st->send && st->peer == b)
                    g_array_append_val(out, st->bytes);
            }
            for (int k = 0; k < pm_ca_nsteps(s, b); k++) {
                const pm_ca_step *st = &pm_ca_steps(s, b)[k];
                if (!st->send && st->peer == a)
                    g_array_append_val(in, st->bytes);
            }
            ok = out->len == in->len &&
                 (out->len == 0 || memcmp(out->data, in->data, out->len * sizeof(uint64_t)) == 0);
            if (!ok)
                fprintf(stderr, "\n%s: %u sends %d -> %d but %u receives\n", what, out->len, a, b,
                        in->len);
            g_array_free(out, TRUE);
            g_array_free(in, TRUE);
        }
    }
    return ok;
}

/* Messages (and their bytes) each kind must have, counted from the
 * algorithm's definition rather than from the code. */
static void expected_volume(const pm_ca_args *a, int *msgs, uint64_t *bytes) {
    int p = a->p;
    int lg = 0;
    while ((1 << lg) < p)
        lg++;
    uint64_t sum = 0;
    int nonzero = 0;
    if (a->block)
        for (int i = 0; i < p; i++) {
            sum += a->block[i];
            nonzero += a->block[i] > 0;
        }
    *msgs = 0;
    *bytes = 0;
    switch (a->kind) {
    case PM_CA_BARRIER:
        *msgs = p * lg;
        break;
    case PM_CA_BCAST:
    case PM_CA_REDUCE:
        *msgs = p - 1;
        *bytes = (uint64_t)(p - 1) * a->bytes;
        break;
    case PM_CA_GATHER:
    case PM_CA_SCATTER:
        *msgs = p - 1;
        /* Every block travels once per tree edge between its owner and the
         * root: the depth of its relative rank = its number of 1 bits. */
        for (int rel = 1; rel < p; rel++)
            *bytes += (uint64_t)__builtin_popcount((unsigned)rel) * a->bytes;
        break;
    case PM_CA_ALLREDUCE: {
        int pof2 = 1 << (p > 1 ? (lg - ((1 << lg) != p)) : 0);
        int rem = p - pof2, steps = 0;
        while ((1 << steps) < pof2)
            steps++;
        *msgs = 2 * rem + pof2 * steps;
        *bytes = (uint64_t)*msgs * a->bytes;
        break;
    }
    case PM_CA_GATHERV:
    case PM_CA_SCATTERV:
        *msgs = nonzero - (a->block[a->root] > 0);
        *bytes = sum - a->block[a->root];
        break;
    case PM_CA_ALLGATHER:
        *msgs = p * (p - 1);
        *bytes = (uint64_t)*msgs * a->bytes;
        break;
    case PM_CA_ALLGATHERV:
        *msgs = (p - 1) * nonzero;
        *bytes = (uint64_t)(p - 1) * sum;
        break;
    case PM_CA_ALLTOALL:
        *msgs = p * (p - 1);
        *bytes = (uint64_t)*msgs * a->bytes;
        break;
    case PM_CA_ALLTOALLV:
        for (int i = 0; i < p; i++)
            for (int j = 0; j < p; j++)
                if (i != j && a->matrix[i * p + j] > 0) {
                    (*msgs)++;
                    *bytes += a->matrix[i * p + j];
                }
        break;
    case PM_CA_REDUCE_SCATTER:
        *msgs = sum > 0 ? p * (p - 1) : 0;
        *bytes = (uint64_t)(p - 1) * sum;
        break;
    case PM_CA_SCAN:
    case PM_CA_EXSCAN:
        for (int i = 0; i < p; i++)
            for (int mask = 1; mask < p; mask <<= 1)
                *msgs += (i ^ mask) < p;
        *bytes = (uint64_t)*msgs * a->bytes;
        break;
    case PM_CA_NKINDS:
        break;
    }
    /* A uniform collective of zero bytes sends nothing (the barrier is not
     * uniform: it always sends its empty messages). */
    bool uniform = a->kind == PM_CA_BCAST || a->kind == PM_CA_REDUCE ||
                   a->kind == PM_CA_ALLREDUCE || a->kind == PM_CA_GATHER ||
                   a->kind == PM_CA_SCATTER || a->kind == PM_CA_ALLGATHER ||
                   a->kind == PM_CA_ALLTOALL || a->kind == PM_CA_SCAN || a->kind == PM_CA_EXSCAN;
    if (uniform && a->bytes == 0) {
        *msgs = 0;
        *bytes = 0;
    }
}

/* Builds one case, checks pairing and volume, and runs it to the end both
 * all-eager and all-rendezvous (a schedule that can deadlock never
 * finishes). */
static void check_case(const pm_ca_args *a, int *cases) {
    char what[96];
    snprintf(what, sizeof what, "%s p=%d root=%d", pm_ca_kind_name(a->kind), a->p, a->root);
    GError *e = NULL;
    pm_ca_schedule *s = pm_ca_build(a, &e);
    CU_ASSERT_PTR_NOT_NULL(s);
    CU_ASSERT_PTR_NULL(e);
    g_clear_error(&e);
    if (!s)
        return;
    CU_ASSERT_TRUE(well_formed(s, what));
    int msgs;
    uint64_t bytes, got_bytes;
    expected_volume(a, &msgs, &bytes);
    int got = count_sends(s, &got_bytes);
    if (got != msgs || got_bytes != bytes)
        fprintf(stderr,
                "\n%s: %d messages of %" G_GUINT64_FORMAT
                " bytes, expected %d of %" G_GUINT64_FORMAT "\n",
                what, got, (guint64)got_bytes, msgs, (guint64)bytes);
    CU_ASSERT_EQUAL(got, msgs);
    CU_ASSERT_EQUAL(got_bytes, bytes);
    static const uint64_t limits[2] = {0, UINT64_MAX};
    for (int l = 0; l < 2; l++) {
        fakenet net;
        fakenet_init(&net);
        double done[MAXP];
        CU_ASSERT_TRUE(play(s, limits[l], NULL, &net, done));
        /* One transfer per send, with the send's endpoints and size. */
        CU_ASSERT_EQUAL((int)net.x->len, msgs);
        uint64_t moved = 0;
        for (guint i = 0; i < net.x->len; i++)
            moved += xf(&net, i)->bytes;
        CU_ASSERT_EQUAL(moved, bytes);
        g_array_free(net.x, TRUE);
    }
    pm_ca_free(s);
    (*cases)++;
}

static void test_pairing_all_kinds(void) {
    uint64_t block[MAXP], holes[MAXP], zeros[MAXP] = {0};
    uint64_t matrix[MAXP * MAXP];
    int cases = 0;
    for (int p = 1; p <= MAXP; p++) {
        for (int i = 0; i < p; i++) {
            block[i] = 100 * (uint64_t)(i + 1);
            holes[i] = i % 3 == 1 ? 0 : 10 * (uint64_t)(i + 1);
            for (int j = 0; j < p; j++)
                matrix[i * p + j] = (i + 2 * j) % 4 == 0 ? 0 : 10 * (uint64_t)(i + 1) + j;
        }
        const int roots[4] = {0, 1 % p, p / 2, p - 1};
        for (int k = 0; k < PM_CA_NKINDS; k++) {
            for (int r = 0; r < 4; r++) {
                pm_ca_args a = {.kind = k, .p = p, .root = roots[r], .bytes = 24, .matrix = matrix};
                a.block = block;
                check_case(&a, &cases);
                a.block = holes;
                check_case(&a, &cases);
                a.block = zeros;
                a.bytes = 0;
                check_case(&a, &cases);
            }
        }
    }
    CU_ASSERT_EQUAL(cases, MAXP * PM_CA_NKINDS * 4 * 3);
}

/* ---------------------------------------------------------------------- */
/* Each algorithm, step by step                                            */

static void test_barrier_steps(void) {
    /* p = 5: rounds at distances 1, 2, 4, empty messages kept. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 5, .bytes = 99});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 1), 6);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 1), 3);
    step_is(s, 1, 0, 0, true, 2, 0);
    step_is(s, 1, 1, 0, false, 0, 0);
    step_is(s, 1, 2, 1, true, 3, 0);
    step_is(s, 1, 3, 1, false, 4, 0);
    step_is(s, 1, 4, 2, true, 0, 0);
    step_is(s, 1, 5, 2, false, 2, 0);
    pm_ca_free(s);

    /* One member: nothing to do. */
    s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 1});
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 0);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 0), 0);
    pm_ca_free(s);
}

static void test_bcast_steps(void) {
    /* p = 8, root 0: 0 -> 4, 2, 1; 4 -> 6, 5; 2 -> 3; 6 -> 7. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 8, .root = 0, .bytes = S});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 3);
    step_is(s, 0, 0, 0, true, 4, S);
    step_is(s, 0, 1, 1, true, 2, S);
    step_is(s, 0, 2, 2, true, 1, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 4), 3);
    step_is(s, 4, 0, 0, false, 0, S);
    step_is(s, 4, 1, 1, true, 6, S);
    step_is(s, 4, 2, 2, true, 5, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 6), 2);
    step_is(s, 6, 0, 0, false, 4, S);
    step_is(s, 6, 1, 1, true, 7, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 7), 1);
    step_is(s, 7, 0, 0, false, 6, S);
    pm_ca_free(s);

    /* Root 3: the same tree on relative ranks: 3 -> 7, 5, 4; 7 -> 1, 0. */
    s = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 8, .root = 3, .bytes = S});
    step_is(s, 3, 0, 0, true, 7, S);
    step_is(s, 3, 1, 1, true, 5, S);
    step_is(s, 3, 2, 2, true, 4, S);
    step_is(s, 7, 0, 0, false, 3, S);
    step_is(s, 7, 1, 1, true, 1, S);
    step_is(s, 7, 2, 2, true, 0, S);
    pm_ca_free(s);

    /* p = 6: subtrees cut at p: 0 -> 4, 2, 1; 4 -> 5 only. */
    s = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 6, .root = 0, .bytes = S});
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 4), 2);
    step_is(s, 4, 1, 1, true, 5, S);
    step_is(s, 0, 0, 0, true, 4, S);
    pm_ca_free(s);
}

static void test_reduce_steps(void) {
    /* p = 8, root 0: children first, smallest subtree first. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_REDUCE, .p = 8, .root = 0, .bytes = S});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 3);
    step_is(s, 0, 0, 0, false, 1, S);
    step_is(s, 0, 1, 1, false, 2, S);
    step_is(s, 0, 2, 2, false, 4, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 4), 3);
    step_is(s, 4, 0, 0, false, 5, S);
    step_is(s, 4, 1, 1, false, 6, S);
    step_is(s, 4, 2, 2, true, 0, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 7), 1);
    step_is(s, 7, 0, 0, true, 6, S);
    pm_ca_free(s);

    /* Root 5 of 6: relative rank r is member (r + 5) % 6. */
    s = build((pm_ca_args){.kind = PM_CA_REDUCE, .p = 6, .root = 5, .bytes = S});
    step_is(s, 5, 0, 0, false, 0, S); /* rel 1 */
    step_is(s, 5, 1, 1, false, 1, S); /* rel 2 */
    step_is(s, 5, 2, 2, false, 3, S); /* rel 4 */
    step_is(s, 3, 0, 0, false, 4, S); /* rel 4 <- rel 5 */
    step_is(s, 3, 1, 1, true, 5, S);
    pm_ca_free(s);
}

static void test_allreduce_steps(void) {
    /* p = 3: pof2 = 2, rem = 1.  0 hands its vector to 1, 1 exchanges with
     * 2, 1 hands the result back to 0. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLREDUCE, .p = 3, .bytes = S});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 2);
    step_is(s, 0, 0, 0, true, 1, S);
    step_is(s, 0, 1, 1, false, 1, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 1), 4);
    step_is(s, 1, 0, 0, false, 0, S);
    step_is(s, 1, 1, 1, true, 2, S);
    step_is(s, 1, 2, 1, false, 2, S);
    step_is(s, 1, 3, 2, true, 0, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 2), 2);
    step_is(s, 2, 0, 0, true, 1, S);
    step_is(s, 2, 1, 0, false, 1, S);
    pm_ca_free(s);

    /* p = 6: pof2 = 4, rem = 2; reduced ranks 1->0, 3->1, 4->2, 5->3.
     * Member 1: pre-step, exchange with 3 (reduced 1), with 4 (reduced 2),
     * post-step.  Member 5 (reduced 3): exchanges with 4 (2), 3 (1). */
    s = build((pm_ca_args){.kind = PM_CA_ALLREDUCE, .p = 6, .bytes = S});
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 1), 6);
    step_is(s, 1, 0, 0, false, 0, S);
    step_is(s, 1, 1, 1, true, 3, S);
    step_is(s, 1, 3, 2, true, 4, S);
    step_is(s, 1, 5, 3, true, 0, S);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 5), 4);
    step_is(s, 5, 0, 0, true, 4, S);
    step_is(s, 5, 2, 1, true, 3, S);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 2), 2);
    pm_ca_free(s);
}

static void test_gather_scatter_steps(void) {
    /* p = 5, root 0, 10-byte blocks: 0 <- 1 (1 block), 2 (2: itself and
     * 3), 4 (1). */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_GATHER, .p = 5, .root = 0, .bytes = 10});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 3);
    step_is(s, 0, 0, 0, false, 1, 10);
    step_is(s, 0, 1, 1, false, 2, 20);
    step_is(s, 0, 2, 2, false, 4, 10);
    step_is(s, 2, 0, 0, false, 3, 10);
    step_is(s, 2, 1, 1, true, 0, 20);
    pm_ca_free(s);

    /* p = 8, root 0: 4 carries 4 blocks. */
    s = build((pm_ca_args){.kind = PM_CA_GATHER, .p = 8, .root = 0, .bytes = 10});
    step_is(s, 0, 2, 2, false, 4, 40);
    step_is(s, 4, 1, 1, false, 6, 20);
    pm_ca_free(s);

    /* Scatter is the reverse: 0 -> 4 (1 block), 2 (2), 1 (1). */
    s = build((pm_ca_args){.kind = PM_CA_SCATTER, .p = 5, .root = 0, .bytes = 10});
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 3);
    step_is(s, 0, 0, 0, true, 4, 10);
    step_is(s, 0, 1, 1, true, 2, 20);
    step_is(s, 0, 2, 2, true, 1, 10);
    step_is(s, 2, 0, 0, false, 0, 20);
    step_is(s, 2, 1, 1, true, 3, 10);
    pm_ca_free(s);

    /* Root 2 of 5: member 4 is relative rank 2. */
    s = build((pm_ca_args){.kind = PM_CA_GATHER, .p = 5, .root = 2, .bytes = 10});
    step_is(s, 4, 0, 0, false, 0, 10);
    step_is(s, 4, 1, 1, true, 2, 20);
    pm_ca_free(s);
}

static void test_linear_steps(void) {
    /* gatherv to root 1 of 4, member 2's block empty: skipped both ways;
     * the root posts its receives in one round. */
    const uint64_t block[4] = {5, 6, 0, 8};
    pm_ca_schedule *s =
        build((pm_ca_args){.kind = PM_CA_GATHERV, .p = 4, .root = 1, .block = block});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 1), 2);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 1), 1);
    step_is(s, 1, 0, 0, false, 0, 5);
    step_is(s, 1, 1, 0, false, 3, 8);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 2), 0);
    step_is(s, 3, 0, 0, true, 1, 8);
    pm_ca_free(s);

    s = build((pm_ca_args){.kind = PM_CA_SCATTERV, .p = 4, .root = 1, .block = block});
    step_is(s, 1, 0, 0, true, 0, 5);
    step_is(s, 1, 1, 0, true, 3, 8);
    step_is(s, 0, 0, 0, false, 1, 5);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 2), 0);
    pm_ca_free(s);
}

static void test_ring_steps(void) {
    /* allgather p = 4: member 2 sends blocks 2, 1, 0 to 3 and receives
     * blocks 1, 0, 3 from 1. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLGATHER, .p = 4, .bytes = S});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 2), 3);
    for (int k = 0; k < 3; k++) {
        step_is(s, 2, 2 * k, k, true, 3, S);
        step_is(s, 2, 2 * k + 1, k, false, 1, S);
    }
    pm_ca_free(s);

    /* allgatherv with distinct sizes shows which block moves when; block 2
     * is empty and never moves. */
    const uint64_t block[4] = {10, 11, 0, 13};
    s = build((pm_ca_args){.kind = PM_CA_ALLGATHERV, .p = 4, .block = block});
    /* Member 3: round 0 sends block 3 (receives block 2: empty); round 1
     * sends block 2 (empty), receives block 1; round 2 sends block 1,
     * receives block 0. */
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 3), 4);
    step_is(s, 3, 0, 0, true, 0, 13);
    step_is(s, 3, 1, 1, false, 2, 11);
    step_is(s, 3, 2, 2, true, 0, 11);
    step_is(s, 3, 3, 2, false, 2, 10);
    pm_ca_free(s);
}

static void test_pairwise_steps(void) {
    /* Power of two: partner i ^ k. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLTOALL, .p = 4, .bytes = 7});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    step_is(s, 1, 0, 0, true, 0, 7);
    step_is(s, 1, 1, 0, false, 0, 7);
    step_is(s, 1, 2, 1, true, 3, 7);
    step_is(s, 1, 4, 2, true, 2, 7);
    pm_ca_free(s);

    /* Otherwise shifts: send to i + k, receive from i - k. */
    s = build((pm_ca_args){.kind = PM_CA_ALLTOALL, .p = 3, .bytes = 7});
    step_is(s, 1, 0, 0, true, 2, 7);
    step_is(s, 1, 1, 0, false, 0, 7);
    step_is(s, 1, 2, 1, true, 0, 7);
    step_is(s, 1, 3, 1, false, 2, 7);
    pm_ca_free(s);

    /* alltoallv p = 3: sizes from the matrix, empty entries skipped. */
    const uint64_t m[9] = {0, 1, 2, /**/ 3, 0, 0, /**/ 6, 7, 0};
    s = build((pm_ca_args){.kind = PM_CA_ALLTOALLV, .p = 3, .matrix = m});
    /* Member 1: round 0 sends m[1][2] = 0 (skipped), receives m[0][1] = 1;
     * round 1 sends m[1][0] = 3, receives m[2][1] = 7. */
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 1), 3);
    step_is(s, 1, 0, 0, false, 0, 1);
    step_is(s, 1, 1, 1, true, 0, 3);
    step_is(s, 1, 2, 1, false, 2, 7);
    pm_ca_free(s);

    /* reduce_scatter p = 3: member i receives block[i] from everyone; empty
     * blocks still travel. */
    const uint64_t block[3] = {0, 5, 9};
    s = build((pm_ca_args){.kind = PM_CA_REDUCE_SCATTER, .p = 3, .block = block});
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 4);
    step_is(s, 0, 0, 0, true, 1, 5);
    step_is(s, 0, 1, 0, false, 2, 0);
    step_is(s, 0, 2, 1, true, 2, 9);
    step_is(s, 0, 3, 1, false, 1, 0);
    pm_ca_free(s);
}

static void test_scan_steps(void) {
    /* p = 5: partners i ^ 1, i ^ 2, i ^ 4 when they exist. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_SCAN, .p = 5, .bytes = 8});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 0), 3);
    step_is(s, 0, 0, 0, true, 1, 8);
    step_is(s, 0, 2, 1, true, 2, 8);
    step_is(s, 0, 4, 2, true, 4, 8);
    step_is(s, 0, 5, 2, false, 4, 8);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 1), 2); /* 1 ^ 4 = 5 does not exist */
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 4), 1); /* only 4 ^ 4 = 0 exists */
    step_is(s, 4, 0, 0, true, 0, 8);
    pm_ca_free(s);
    s = build((pm_ca_args){.kind = PM_CA_EXSCAN, .p = 5, .bytes = 8});
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 0), 3);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 4), 1);
    pm_ca_free(s);
}

static void test_empty_collectives(void) {
    /* Zero bytes: no message at all, except the barrier's. */
    static const pm_ca_kind kinds[] = {
        PM_CA_BCAST,     PM_CA_REDUCE,     PM_CA_ALLREDUCE, PM_CA_GATHER,        PM_CA_SCATTER,
        PM_CA_ALLGATHER, PM_CA_ALLTOALL,   PM_CA_SCAN,      PM_CA_EXSCAN,        PM_CA_GATHERV,
        PM_CA_SCATTERV,  PM_CA_ALLGATHERV, PM_CA_ALLTOALLV, PM_CA_REDUCE_SCATTER};
    const uint64_t zeros[16] = {0};
    for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
        pm_ca_schedule *s = build(
            (pm_ca_args){.kind = kinds[k], .p = 4, .root = 2, .block = zeros, .matrix = zeros});
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(count_sends(s, NULL), 0);
        pm_ca_free(s);
    }
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 4});
    uint64_t bytes = 1;
    CU_ASSERT_EQUAL(count_sends(s, &bytes), 8);
    CU_ASSERT_EQUAL(bytes, 0);
    pm_ca_free(s);
}

/* ---------------------------------------------------------------------- */
/* Bad arguments                                                           */

static void bad(const pm_ca_args *a, int code, const char *needle) {
    GError *e = NULL;
    pm_ca_schedule *s = pm_ca_build(a, &e);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_TRUE(g_error_matches(e, PM_CA_ERROR, code));
    if (!strstr(e->message, needle))
        fprintf(stderr, "\nmessage \"%s\" lacks \"%s\"\n", e->message, needle);
    CU_ASSERT_PTR_NOT_NULL(strstr(e->message, needle));
    g_error_free(e);
    pm_ca_free(s);
}

static void test_bad_args(void) {
    const uint64_t block[4] = {1, 2, 3, 4};
    bad(NULL, PM_CA_ERROR_KIND, "no arguments");
    bad(&(pm_ca_args){.kind = PM_CA_NKINDS, .p = 4}, PM_CA_ERROR_KIND, "not a collective");
    bad(&(pm_ca_args){.kind = (pm_ca_kind)-1, .p = 4}, PM_CA_ERROR_KIND, "kind -1");
    bad(&(pm_ca_args){.kind = PM_CA_BARRIER, .p = 0}, PM_CA_ERROR_MEMBERS, "barrier: p = 0");
    bad(&(pm_ca_args){.kind = PM_CA_ALLTOALL, .p = -3}, PM_CA_ERROR_MEMBERS, "p = -3");
    bad(&(pm_ca_args){.kind = PM_CA_BCAST, .p = PM_CA_MAX_MEMBERS + 1}, PM_CA_ERROR_MEMBERS,
        "members");
    bad(&(pm_ca_args){.kind = PM_CA_BCAST, .p = 4, .root = 4, .bytes = 1}, PM_CA_ERROR_ROOT,
        "bcast: root 4 is not a member");
    bad(&(pm_ca_args){.kind = PM_CA_GATHERV, .p = 4, .root = -1, .block = block}, PM_CA_ERROR_ROOT,
        "root -1");
    bad(&(pm_ca_args){.kind = PM_CA_GATHERV, .p = 4}, PM_CA_ERROR_MISSING,
        "gatherv: no block sizes");
    bad(&(pm_ca_args){.kind = PM_CA_SCATTERV, .p = 4}, PM_CA_ERROR_MISSING, "scatterv");
    bad(&(pm_ca_args){.kind = PM_CA_ALLGATHERV, .p = 4}, PM_CA_ERROR_MISSING, "allgatherv");
    bad(&(pm_ca_args){.kind = PM_CA_REDUCE_SCATTER, .p = 4}, PM_CA_ERROR_MISSING, "reduce_scatter");
    bad(&(pm_ca_args){.kind = PM_CA_ALLTOALLV, .p = 4, .block = block}, PM_CA_ERROR_MISSING,
        "alltoallv: no size matrix");
    bad(&(pm_ca_args){.kind = PM_CA_GATHER, .p = 4, .bytes = UINT64_MAX / 2}, PM_CA_ERROR_TOO_BIG,
        "overflow");
    bad(&(pm_ca_args){.kind = PM_CA_ALLTOALL, .p = 1 << 20, .bytes = 1}, PM_CA_ERROR_TOO_BIG,
        "steps");
    /* A root is not checked where there is none. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLREDUCE, .p = 4, .root = 9, .bytes = 1});
    CU_ASSERT_PTR_NOT_NULL(s);
    pm_ca_free(s);
    CU_ASSERT_STRING_EQUAL(pm_ca_kind_name(PM_CA_REDUCE_SCATTER), "reduce_scatter");
    CU_ASSERT_STRING_EQUAL(pm_ca_kind_name(PM_CA_NKINDS), "?");
}

/* ---------------------------------------------------------------------- */
/* Executor times                                                          */

static void test_run_barrier(void) {
    double done[8];
    fakenet net;
    /* p = 4: two rounds of empty messages, 2L. */
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 4});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, 0, NULL, &net, done));
    times_are(done, (const double[]){2 * LAT, 2 * LAT, 2 * LAT, 2 * LAT}, 4, "barrier 4");
    CU_ASSERT_EQUAL(net.x->len, 8);
    g_array_free(net.x, TRUE);
    pm_ca_free(s);

    /* p = 5: three rounds. */
    s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 5});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, 0, NULL, &net, done));
    times_are(done, (const double[]){3, 3, 3, 3, 3}, 5, "barrier 5");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);

    /* One member: done when it arrives. */
    s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 1});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, 0, (const double[]){7}, &net, done));
    CU_ASSERT_EQUAL(done[0], 7);
    CU_ASSERT_EQUAL(net.x->len, 0);
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* bcast of S from root 0 on 8.  Eager: the root's three sends all start at
 * 0; 4, 2, 1 have the data at T and forward at once; 6, 5, 3 at 2T; 7 at 3T.
 * A member is done when its last send is locally complete, i.e. when it
 * has the data.  Rendezvous: every send holds its sender until delivered;
 * the root sends at 0, T, 2T and everyone is done at 3T. */
static void test_run_bcast(void) {
    double done[8];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 8, .root = 0, .bytes = S});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);

    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, NULL, &net, done));
    times_are(done, (const double[]){0, T, T, 2 * T, T, 2 * T, 2 * T, 3 * T}, 8, "bcast eager");
    CU_ASSERT_EQUAL_FATAL(net.x->len, 7);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(xf(&net, i)->src, 0);
        CU_ASSERT_EQUAL(xf(&net, i)->dst, 4 >> i);
        CU_ASSERT_EQUAL(xf(&net, i)->start, 0);
    }
    g_array_free(net.x, TRUE);

    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, RNDV, NULL, &net, done));
    times_are(done, (const double[]){3 * T, 3 * T, 3 * T, 3 * T, 3 * T, 3 * T, 3 * T, 3 * T}, 8,
              "bcast rendezvous");
    int k = 0;
    for (guint i = 0; i < net.x->len; i++)
        if (xf(&net, i)->src == 0) {
            CU_ASSERT_EQUAL(xf(&net, i)->dst, 4 >> k);
            CU_ASSERT_EQUAL(xf(&net, i)->start, k * T);
            k++;
        }
    CU_ASSERT_EQUAL(k, 3);
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* reduce of S to root 0 on 8, eager.  Leaves 1, 3, 5, 7 send at 0 and are
 * done.  2 and 6 have their child's vector at T and send on: done at T.
 * 4 has 5's at T, 6's at 2T, sends at 2T: done 2T.  The root has 1's at T,
 * 2's at 2T, 4's at 3T. */
static void test_run_reduce(void) {
    double done[8];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_REDUCE, .p = 8, .root = 0, .bytes = S});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, NULL, &net, done));
    times_are(done, (const double[]){3 * T, 0, T, 0, 2 * T, 0, T, 0}, 8, "reduce eager");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* allreduce on 4: two exchange rounds, 2T, eager or not (a send and the
 * receive of its round are delivered at the same time). */
static void test_run_allreduce_pof2(void) {
    double done[4];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLREDUCE, .p = 4, .bytes = S});
    const uint64_t limits[2] = {EAGER, RNDV};
    for (int l = 0; l < 2; l++) {
        fakenet_init(&net);
        CU_ASSERT_TRUE(play(s, limits[l], NULL, &net, done));
        times_are(done, (const double[]){2 * T, 2 * T, 2 * T, 2 * T}, 4, "allreduce 4");
        CU_ASSERT_EQUAL(net.x->len, 8);
        g_array_free(net.x, TRUE);
    }
    pm_ca_free(s);
}

/* allreduce on 3 (pre-step 0 -> 1, exchange 1 <-> 2, post-step 1 -> 0).
 * Rendezvous: 1 has 0's vector at T, its exchange send is delivered at 2T,
 * the result reaches 0 at 3T; 2 is done when 1's vector arrives, 2T.
 * Eager: 1 leaves the exchange at T (2's vector was delivered at T, its
 * own send is eager) and is done then; 0 and 2 get their data at 2T. */
static void test_run_allreduce_odd(void) {
    double done[3];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLREDUCE, .p = 3, .bytes = S});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, RNDV, NULL, &net, done));
    times_are(done, (const double[]){3 * T, 3 * T, 2 * T}, 3, "allreduce 3 rendezvous");
    g_array_free(net.x, TRUE);
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, NULL, &net, done));
    times_are(done, (const double[]){2 * T, T, 2 * T}, 3, "allreduce 3 eager");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* Ring allgather on 5: p - 1 = 4 rounds of T. */
static void test_run_allgather(void) {
    double done[5];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLGATHER, .p = 5, .bytes = S});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, NULL, &net, done));
    times_are(done, (const double[]){4 * T, 4 * T, 4 * T, 4 * T, 4 * T}, 5, "allgather 5");
    CU_ASSERT_EQUAL(net.x->len, 20);
    /* Round k of every member starts at kT. */
    for (guint i = 0; i < net.x->len; i++)
        CU_ASSERT_EQUAL(xf(&net, i)->start, (double)(int)(i / 5) * T);
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* alltoall on 4 and on 3: p - 1 rounds of T (no contention). */
static void test_run_alltoall(void) {
    double done[4];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLTOALL, .p = 4, .bytes = S});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, RNDV, NULL, &net, done));
    times_are(done, (const double[]){3 * T, 3 * T, 3 * T, 3 * T}, 4, "alltoall 4");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
    s = build((pm_ca_args){.kind = PM_CA_ALLTOALL, .p = 3, .bytes = S});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, RNDV, NULL, &net, done));
    times_are(done, (const double[]){2 * T, 2 * T, 2 * T}, 3, "alltoall 3");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* scatterv from 0 to 1 (S bytes: T) and 2 (2S bytes: L + 2S/B = 3 s), both
 * sends posted at once.  Eager: the root is done at once.  Rendezvous: the
 * root waits for the longer one.  A send at exactly the limit is eager. */
static void test_run_rendezvous_waits(void) {
    double done[3];
    fakenet net;
    const uint64_t block[3] = {0, S, 2 * S};
    pm_ca_schedule *s =
        build((pm_ca_args){.kind = PM_CA_SCATTERV, .p = 3, .root = 0, .block = block});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, 2 * S, NULL, &net, done));
    times_are(done, (const double[]){0, T, 3}, 3, "scatterv eager");
    CU_ASSERT_EQUAL(xf(&net, 1)->start, 0);
    g_array_free(net.x, TRUE);
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, 2 * S - 1, NULL, &net, done));
    times_are(done, (const double[]){3, T, 3}, 3, "scatterv one rendezvous");
    g_array_free(net.x, TRUE);
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, S - 1, NULL, &net, done));
    times_are(done, (const double[]){3, T, 3}, 3, "scatterv rendezvous");
    CU_ASSERT_EQUAL(xf(&net, 1)->start, 0); /* both posted together */
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* Member 3 of a 4-member barrier arrives at 10.  0 waits for 3's round-0
 * message (11) and is done once 2's round-1 message, delivered at 2, is
 * found: 11.  1 waits for 3's round-1 message: 11.  2 waits for 0's round-1
 * message, sent at 11: 12.  3 finds both its messages waiting: done at 10. */
static void test_run_late_barrier(void) {
    double done[4];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 4});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, 0, (const double[]){0, 0, 0, 10}, &net, done));
    times_are(done, (const double[]){11, 11, 12, 10}, 4, "late barrier");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* Member 4 of the 8-member eager bcast arrives at 10: its subtree (6, 5, 7)
 * shifts, everyone else keeps the times of test_run_bcast. */
static void test_run_late_bcast(void) {
    double done[8];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 8, .root = 0, .bytes = S});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, (const double[]){0, 0, 0, 0, 10, 0, 0, 0}, &net, done));
    times_are(done, (const double[]){0, T, T, 2 * T, 10, 10 + T, 10 + T, 10 + 2 * T}, 8,
              "late bcast");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* Member 3 of an eager allreduce on 4 arrives at 10.  Round 0 pairs (0,1),
 * (2,3); round 1 pairs (0,2), (1,3).  2 gets 3's vector at 12 and sends to
 * 0, which has it at 14; 3 sends to 1 at 10, which has it at 12; 3 finds
 * both its messages waiting and is done at 10. */
static void test_run_late_allreduce(void) {
    double done[4];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_ALLREDUCE, .p = 4, .bytes = S});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, (const double[]){0, 0, 0, 10}, &net, done));
    times_are(done, (const double[]){10 + 2 * T, 10 + T, 10 + T, 10}, 4, "late allreduce");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

/* Members with nothing to do are done at their own arrival. */
static void test_run_no_steps(void) {
    double done[4];
    fakenet net;
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 4, .bytes = 0});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, (const double[]){1, 2, 3, 4}, &net, done));
    times_are(done, (const double[]){1, 2, 3, 4}, 4, "empty bcast");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);

    /* gatherv: an eager sender is done when it arrives, the root when the
     * last block is in. */
    const uint64_t block[3] = {S, S, S};
    s = build((pm_ca_args){.kind = PM_CA_GATHERV, .p = 3, .root = 0, .block = block});
    fakenet_init(&net);
    CU_ASSERT_TRUE(play(s, EAGER, (const double[]){0, 1, 5}, &net, done));
    times_are(done, (const double[]){5 + T, 1, 5}, 3, "gatherv");
    g_array_free(net.x, TRUE);
    pm_ca_free(s);
}

static int criticals;

static void count_log(const gchar *domain, GLogLevelFlags level, const gchar *message,
                      gpointer data) {
    if (level & G_LOG_LEVEL_CRITICAL)
        criticals++;
}

/* Member m arrives at t, with the fake network's clock at t. */
static bool arrive_at(pm_ca_run *r, fakenet *net, int m, double t) {
    net->now = t;
    return pm_ca_run_arrive(r, m, t);
}

/* Contract breaches are refused and change nothing. */
static void test_run_protocol(void) {
    fakenet net;
    fakenet_init(&net);
    pm_ca_schedule *s = build((pm_ca_args){.kind = PM_CA_BARRIER, .p = 2});
    pm_ca_run *r = pm_ca_run_new(s, 0, fake_start, &net);
    /* Not one of this run's transfers: refused quietly. */
    CU_ASSERT_FALSE(pm_ca_run_transfer_done(r, 42, 0));
    CU_ASSERT_TRUE(arrive_at(r, &net, 0, 1));
    CU_ASSERT_EQUAL(pm_ca_run_in_flight(r), 1);
    CU_ASSERT_FALSE(pm_ca_run_member_done(r, 0, NULL));

    GLogFunc old = g_log_set_default_handler(count_log, NULL);
    criticals = 0;
    CU_ASSERT_FALSE(pm_ca_run_arrive(r, 0, 2));   /* twice */
    CU_ASSERT_FALSE(pm_ca_run_arrive(r, 2, 2));   /* not a member */
    CU_ASSERT_FALSE(pm_ca_run_arrive(r, 1, 0.5)); /* back in time */
    CU_ASSERT_FALSE(pm_ca_run_transfer_done(r, 1, 0.5));
    CU_ASSERT_EQUAL(criticals, 4);
    g_log_set_default_handler(old, NULL);

    CU_ASSERT_EQUAL(pm_ca_run_in_flight(r), 1);
    CU_ASSERT_TRUE(pm_ca_run_transfer_done(r, 1, 2));
    CU_ASSERT_FALSE(pm_ca_run_transfer_done(r, 1, 2)); /* already reported */
    CU_ASSERT_FALSE(pm_ca_run_finished(r));
    CU_ASSERT_TRUE(arrive_at(r, &net, 1, 3));
    double t = -1;
    CU_ASSERT_TRUE(pm_ca_run_member_done(r, 1, &t));
    CU_ASSERT_EQUAL(t, 3); /* 0's message was waiting */
    CU_ASSERT_TRUE(pm_ca_run_transfer_done(r, 2, 4));
    CU_ASSERT_TRUE(pm_ca_run_member_done(r, 0, &t));
    CU_ASSERT_EQUAL(t, 4);
    CU_ASSERT_TRUE(pm_ca_run_finished(r));
    CU_ASSERT_EQUAL(pm_ca_run_in_flight(r), 0);
    CU_ASSERT_EQUAL(net.bad_starts, 0);
    pm_ca_run_free(r);
    pm_ca_free(s);
    g_array_free(net.x, TRUE);
}

/* pm_ca_compose: an intercommunicator bcast as MPICH runs it.  Members 0-1
 * are one group, 2-4 the other; the root (member 1) sends to the other
 * group's leader (2), which broadcasts to its group (a bcast of 3 mapped on
 * 2, 3, 4).  Each member's rounds follow one another across the parts. */
static void test_compose(void) {
    pm_ca_schedule *pair = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 2, .root = 0, .bytes = S});
    pm_ca_schedule *grp = build((pm_ca_args){.kind = PM_CA_BCAST, .p = 3, .root = 0, .bytes = S});
    int pair_map[2] = {1, 2}, grp_map[3] = {2, 3, 4};
    pm_ca_part parts[2] = {{pair, pair_map}, {grp, grp_map}};
    GError *e = NULL;
    pm_ca_schedule *s = pm_ca_compose(PM_CA_BCAST, 5, parts, 2, &e);
    CU_ASSERT_PTR_NULL(e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(pm_ca_kind_of(s), PM_CA_BCAST);
    CU_ASSERT_EQUAL(pm_ca_members(s), 5);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 0), 0);
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 1), 1);
    step_is(s, 1, 0, 0, true, 2, S);
    /* The leader receives, then sends to 3's tree children: 0 -> 2, 1 in
     * the group's numbering, that is 4 then 3. */
    CU_ASSERT_EQUAL(pm_ca_nsteps(s, 2), 3);
    step_is(s, 2, 0, 0, false, 1, S);
    step_is(s, 2, 1, 1, true, 4, S);
    step_is(s, 2, 2, 2, true, 3, S);
    step_is(s, 3, 0, 0, false, 2, S);
    step_is(s, 4, 0, 0, false, 2, S);
    CU_ASSERT_EQUAL(pm_ca_nrounds(s, 2), 3);
    pm_ca_free(s);

    /* A map that leaves the whole or sends two members to one fails. */
    int bad_map[2] = {1, 5}, twice[2] = {2, 2};
    pm_ca_part bad[1] = {{pair, bad_map}};
    CU_ASSERT_PTR_NULL(pm_ca_compose(PM_CA_BCAST, 5, bad, 1, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PM_CA_ERROR, PM_CA_ERROR_MEMBERS));
    g_clear_error(&e);
    bad[0].map = twice;
    CU_ASSERT_PTR_NULL(pm_ca_compose(PM_CA_BCAST, 5, bad, 1, &e));
    CU_ASSERT_TRUE(g_error_matches(e, PM_CA_ERROR, PM_CA_ERROR_MEMBERS));
    g_clear_error(&e);
    CU_ASSERT_PTR_NULL(pm_ca_compose(PM_CA_BCAST, 0, parts, 2, &e));
    g_clear_error(&e);
    pm_ca_free(pair);
    pm_ca_free(grp);
}

/* ---------------------------------------------------------------------- */

typedef struct {
    const char *name;
    CU_TestFunc fn;
} test_entry;

static bool add_suite(const char *name, const test_entry *tests, size_t n) {
    CU_pSuite suite = CU_add_suite(name, NULL, NULL);
    if (!suite)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn))
            return false;
    return true;
}

int main(void) {
    static const test_entry schedule_tests[] = {
        {"every send has one receive: all kinds, p = 1..17", test_pairing_all_kinds},
        {"barrier: dissemination", test_barrier_steps},
        {"bcast: binomial tree", test_bcast_steps},
        {"compose: parts in sequence per member, mapped peers", test_compose},
        {"reduce: binomial tree towards the root", test_reduce_steps},
        {"allreduce: recursive doubling, odd p", test_allreduce_steps},
        {"gather and scatter: subtrees", test_gather_scatter_steps},
        {"gatherv and scatterv: linear", test_linear_steps},
        {"allgather(v): ring", test_ring_steps},
        {"alltoall(v), reduce_scatter: pairwise", test_pairwise_steps},
        {"scan and exscan: recursive doubling", test_scan_steps},
        {"empty collectives send nothing but the barrier", test_empty_collectives},
        {"bad arguments", test_bad_args},
    };
    static const test_entry run_tests[] = {
        {"barrier", test_run_barrier},
        {"bcast, eager and rendezvous", test_run_bcast},
        {"reduce", test_run_reduce},
        {"allreduce on a power of two", test_run_allreduce_pof2},
        {"allreduce on 3", test_run_allreduce_odd},
        {"ring allgather", test_run_allgather},
        {"pairwise alltoall", test_run_alltoall},
        {"rendezvous holds the sender", test_run_rendezvous_waits},
        {"late member: barrier", test_run_late_barrier},
        {"late member: bcast subtree", test_run_late_bcast},
        {"late member: allreduce", test_run_late_allreduce},
        {"members without steps", test_run_no_steps},
        {"protocol", test_run_protocol},
    };
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    if (!add_suite("collalgo schedules", schedule_tests, G_N_ELEMENTS(schedule_tests)) ||
        !add_suite("collalgo executor", run_tests, G_N_ELEMENTS(run_tests))) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed == 0 ? 0 : 1;
}
