/*
 * state.c - hashing states.
 */
#include "checkpoint/state.h"

#include <glib.h>

#include "scheduler/sched.h"
#include "simulator/sim.h"

ckpt_hash ckpt_state_hash(void) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    sim_digest(ckpt_hash_feed, &h);
    GArray *regions = g_array_new(FALSE, FALSE, sizeof(sched_region));
    for (int r = 0; r < sched_nranks(); r++) {
        g_array_set_size(regions, 0);
        sched_rank_regions(r, sim_rank_stack_from(r), regions);
        for (guint i = 0; i < regions->len; i++) {
            const sched_region *g = &g_array_index(regions, sched_region, i);
            ckpt_hash_u64(&h, g->len);
            ckpt_hash_bytes(&h, g->start, g->len);
        }
    }
    g_array_free(regions, TRUE);
    return ckpt_hasher_final(&h);
}

ckpt_hash ckpt_outcome_hash(void) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    sim_outcome(ckpt_hash_feed, &h);
    return ckpt_hasher_final(&h);
}
