/*
 * state.c - hashing states.
 */
#include "checkpoint/state.h"

#include <glib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "checkpoint/deadvars.h"
#include "scheduler/sched.h"
#include "simulator/sim.h"

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
        const GArray *dead = ckpt_dead_frame_ranges(f->ip[k] - 1 - sched_image_bias(rank));
        if (!dead)
            return; /* not the program's frame: ordex's own from here on */
        for (guint i = 0; i < dead->len; i++) {
            const ckpt_frame_range *r = &g_array_index(dead, ckpt_frame_range, i);
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

ckpt_hash ckpt_state_hash(void) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    sim_digest(ckpt_hash_feed, &h);
    masker m = {g_array_new(FALSE, FALSE, sizeof(sched_region)),
                g_array_new(FALSE, FALSE, sizeof(sim_span)), g_byte_array_new()};
    for (int r = 0; r < sched_nranks(); r++) {
        g_array_set_size(m.regions, 0);
        sched_rank_regions(r, sim_rank_stack_from(r), m.regions);
        mask_rank(&m, r);
        for (guint i = 0; i < m.regions->len; i++) {
            const sched_region *g = &g_array_index(m.regions, sched_region, i);
            ckpt_hash_u64(&h, g->len);
            ckpt_hash_bytes(&h, g->start, g->len);
        }
        unmask(&m);
    }
    g_array_free(m.regions, TRUE);
    g_array_free(m.spans, TRUE);
    g_byte_array_free(m.saved, TRUE);
    ckpt_hash out = ckpt_hasher_final(&h);
    /* The program's memory may hold bytes it never initialised; hashing them
     * is intended (they are part of its state), so tell memcheck the hash is
     * a defined value.  A no-op when not run under valgrind. */
    VALGRIND_MAKE_MEM_DEFINED(&out, sizeof out);
    return out;
}

ckpt_hash ckpt_outcome_hash(void) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    sim_outcome(ckpt_hash_feed, &h);
    return ckpt_hasher_final(&h);
}
