/*
 * state.c - hashing states.
 */
#include "stategraph/state.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "scheduler/sched.h"
#include "simulator/events.h"
#include "simulator/sim.h"
#include "stategraph/deadvars.h"

/* Bytes of a rank's hashed memory that hold nothing live, zeroed while the
 * state is hashed: the outputs of the call it is blocked in (the call
 * overwrites them) and the variables of its frame's blocks that the call is
 * not in (their lifetime has ended).  `saved` keeps the real bytes. */
typedef struct masker {
    GArray *regions; /* sched_region: what is hashed */
    GArray *spans;   /* sim_span zeroed */
    GByteArray *saved;
} masker;

/* Zeroes [start, start+len) if it lies whole inside a hashed region (a bad
 * pointer from the program is left alone: the call will fail on it). */
static void mask_span(masker *m, void *start, size_t len) {
    const char *s = start;
    for (guint j = 0; j < m->regions->len; j++) {
        const sched_region *g = &g_array_index(m->regions, sched_region, j);
        const char *gs = g->start;
        if (s >= gs && s + len <= gs + g->len) {
            sim_span sp = {start, len};
            g_array_append_val(m->spans, sp);
            g_byte_array_append(m->saved, start, (guint)len);
            memset(start, 0, len);
            return;
        }
    }
}

static void mask_rank(masker *m, int rank) {
    sim_span outs[4];
    int n = sim_rank_pending_outputs(rank, outs, 4);
    for (int i = 0; i < n; i++)
        mask_span(m, outs[i].start, outs[i].len);
    const sim_call_frames *f = sim_rank_call_frames(rank);
    for (int k = 0; k < f->n; k++) {
        /* The call instruction, not the return address: that may already be
         * the first instruction after the block. */
        const GArray *dead = sg_dead_frame_ranges(f->ip[k] - 1 - sched_image_bias(rank));
        if (!dead)
            return; /* not the program's frame: ordex's own from here on */
        for (guint i = 0; i < dead->len; i++) {
            const sg_frame_range *r = &g_array_index(dead, sg_frame_range, i);
            mask_span(m, (void *)(f->cfa[k] + (uintptr_t)r->off), r->len);
        }
    }
}

/* Puts back what mask_rank zeroed, last first (spans may overlap). */
static void unmask(masker *m) {
    size_t end = m->saved->len;
    for (guint i = m->spans->len; i-- > 0;) {
        const sim_span *sp = &g_array_index(m->spans, sim_span, i);
        end -= sp->len;
        memcpy(sp->start, m->saved->data + end, sp->len);
    }
    g_array_set_size(m->spans, 0);
    g_byte_array_set_size(m->saved, 0);
}

/* The hash of one rank's share of the state: the simulator's part about it
 * (sim_digest_rank) and its memory (see sched_rank_regions), with the dead
 * bytes masked. */
static ckpt_hash rank_state_hash(masker *m, int rank) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    sim_digest_rank(rank, ckpt_hash_feed, &h);
    g_array_set_size(m->regions, 0);
    sched_rank_regions(rank, sim_rank_stack_from(rank), m->regions);
    mask_rank(m, rank);
    for (guint i = 0; i < m->regions->len; i++) {
        const sched_region *g = &g_array_index(m->regions, sched_region, i);
        ckpt_hash_u64(&h, g->len);
        ckpt_hash_bytes(&h, g->start, g->len);
    }
    unmask(m);
    return ckpt_hasher_final(&h);
}

/* Hashing is incremental: a rank's memory and the simulator's record of it
 * change only while it runs or when an event touches it, so its hash is
 * kept with the two counters that say so and reused while both stay the
 * same.  Usually one
 * or two ranks moved since the last state hashed.  The memo lives in the
 * exploring process's memory, so a checkpoint restores it together with
 * the ranks' memory it describes. */
typedef struct rank_memo {
    uint64_t last_run, touched; /* sched_rank_last_run, sim_rank_touched */
    ckpt_hash h;
} rank_memo;

static rank_memo *g_memo;
static int g_memo_len;

/* ORDEX_CHECK_HASHES set: every reused hash is computed again and compared,
 * and a difference (a write into a rank's memory that the counters missed,
 * which would merge states that differ) ends the process. */
static int check_memo(void) {
    static int on = -1;
    if (on < 0)
        on = getenv("ORDEX_CHECK_HASHES") != NULL;
    return on;
}

static ckpt_hash rank_hash(masker *m, int rank) {
    rank_memo *e = &g_memo[rank];
    uint64_t ran = sched_rank_last_run(rank), touched = sim_rank_touched(rank);
    if (e->last_run == ran && e->touched == touched) {
        if (check_memo() && !ckpt_hash_equal(e->h, rank_state_hash(m, rank))) {
            fprintf(stderr,
                    "ordex: internal error: rank %d's memory or requests changed without the "
                    "scheduler or the simulator saying so\n",
                    rank);
            abort();
        }
        return e->h;
    }
    e->h = rank_state_hash(m, rank);
    e->last_run = ran;
    e->touched = touched;
    return e->h;
}

ckpt_hash sg_state_hash(void) {
    int n = sched_nranks();
    if (n != g_memo_len) { /* counters are never 0: a new entry matches nothing */
        g_free(g_memo);
        g_memo = g_new0(rank_memo, n);
        g_memo_len = n;
    }
    static masker m; /* scratch, kept: this runs at every state */
    if (!m.regions) {
        m.regions = g_array_new(FALSE, FALSE, sizeof(sched_region));
        m.spans = g_array_new(FALSE, FALSE, sizeof(sim_span));
        m.saved = g_byte_array_new();
    }
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    for (int r = 0; r < n; r++) {
        ckpt_hash rh = rank_hash(&m, r);
        ckpt_hash_bytes(&h, &rh, sizeof rh);
    }
    sim_digest_engine(ckpt_hash_feed, &h);
    ckpt_hash out = ckpt_hasher_final(&h);
    /* The program's memory may hold bytes it never initialised; hashing them
     * is intended (they are part of its state), so tell memcheck the hash is
     * a defined value.  A no-op when not run under valgrind. */
    VALGRIND_MAKE_MEM_DEFINED(&out, sizeof out);
    return out;
}

ckpt_hash sg_outcome_hash(void) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    sim_outcome(ckpt_hash_feed, &h);
    return ckpt_hasher_final(&h);
}

bool sg_release_pollers(sg_poll_watch *w) {
    ckpt_hash h = sg_state_hash();
    bool repeated = w->seen && ckpt_hash_equal(h, w->last);
    w->seen = true;
    w->last = h;
    return sim_events_release_pollers(repeated);
}
