/*
 * reduction.c - partial-order reduction: which events commute, sleep sets,
 * and persistent sets (see explore_internal.h).
 */
#include "stategraph/explore_internal.h"

#include "scheduler/loader.h"

bool sgx_reducing(void) {
    if (!sgx_x.opts->por)
        return false;
    if (!sched_program_may_cancel())
        return true;
    /* Every process of the exploration writes the same words. */
    if (!sgx_sh->por_off_why[0])
        g_strlcpy(sgx_sh->por_off_why,
                  "the program may cancel requests (it calls MPI_Cancel, or looks functions up "
                  "at run time), and a rank that cancels changes what other ranks' events do",
                  sizeof sgx_sh->por_off_why);
    return false;
}

/* Two lock grants conflict when they lock the same target of one window
 * (or every target) and one of them is exclusive: whichever comes first
 * makes the other wait.  Key layout in events.h. */
static bool locks_conflict(const sim_event_key *a, const sim_event_key *b) {
    if (a->kind != SIM_EV_LOCK || b->kind != SIM_EV_LOCK || (a->msg >> 33) != (b->msg >> 33))
        return false;
    uint64_t ta = (a->msg >> 1) & 0xffffffffu, tb = (b->msg >> 1) & 0xffffffffu;
    if (ta && tb && ta != tb)
        return false;
    return (a->msg & 1) || (b->msg & 1);
}

/* Two batches of accumulates conflict when they reach the same target of
 * one window (or every target) and one of them fetches or replaces: then
 * their order is visible (key layout in rma.h). */
static bool atomics_conflict(const sim_event_key *a, const sim_event_key *b) {
    if (a->kind != SIM_EV_ATOMIC || b->kind != SIM_EV_ATOMIC || (a->msg >> 33) != (b->msg >> 33))
        return false;
    uint64_t ta = (a->msg >> 1) & 0xffffffffu, tb = (b->msg >> 1) & 0xffffffffu;
    if (ta && tb && ta != tb)
        return false;
    return (a->msg & 1) || (b->msg & 1);
}

/* Events at different ranks commute: each changes only its receiver's
 * queues and memory.  Collectives and events at the same rank may not, nor
 * conflicting lock grants. */
static bool independent(const sim_event_key *a, const sim_event_key *b) {
    return a->dst != b->dst && a->kind != SIM_EV_COLLECTIVE && b->kind != SIM_EV_COLLECTIVE &&
           !locks_conflict(a, b) && !atomics_conflict(a, b);
}

static bool key_equal(const sim_event_key *a, const sim_event_key *b) {
    return a->kind == b->kind && a->dst == b->dst && a->msg == b->msg && a->recv == b->recv;
}

/* Wakes the sleeping events that depend on k (they may now lead elsewhere). */
void sgx_sleep_after(const sim_event_key *k) {
    GArray *z = sgx_x.sleep;
    for (guint i = z->len; i-- > 0;)
        if (!independent(&g_array_index(z, sim_event_key, i), k))
            g_array_remove_index_fast(z, i);
}

bool sgx_asleep(const sim_event_key *k) {
    for (guint i = 0; i < sgx_x.sleep->len; i++)
        if (key_equal(&g_array_index(sgx_x.sleep, sim_event_key, i), k))
            return true;
    return false;
}

/* How many events of `awake` a persistent set of rank d's deliveries and
 * probes would keep. */
static guint rank_events(GArray *awake, int d) {
    guint k = 0;
    for (guint j = 0; j < awake->len; j++) {
        const sim_event *x = &g_array_index(awake, sim_event, j);
        k += x->rank == d && (x->kind == SIM_EV_DELIVER || x->kind == SIM_EV_PROBE);
    }
    return k;
}

/* Keeps only the events of one rank when they form a persistent set (see
 * sim_engine_rank_persistent): the other ranks' events commute with them and
 * stay enabled, so they are explored afterwards, from the states that follow.
 * Of the ranks whose events qualify, the one with the fewest events awake
 * is taken: every state below branches no more than it must.  Only the rank
 * of awake[0] is tried when `first_only` (so that the default alternative
 * stays). */
void sgx_restrict_to_persistent(GArray *awake, GArray *all, bool first_only) {
    const sim_event *ev = (const sim_event *)(void *)all->data;
    int best = -1;
    guint best_n = G_MAXUINT;
    for (guint i = 0; i < (first_only ? 1 : awake->len); i++) {
        const sim_event *e = &g_array_index(awake, sim_event, i);
        if (e->kind == SIM_EV_CHOICE) {
            /* While a rank waits in a choice only choices are enabled
             * (sim_set_choice_events), and choices of different ranks are
             * independent: one rank's alternatives are a persistent set. */
            guint k = 0;
            for (guint j = 0; j < awake->len; j++) {
                sim_event *x = &g_array_index(awake, sim_event, j);
                if (x->kind == SIM_EV_CHOICE && x->rank == e->rank)
                    g_array_index(awake, sim_event, k++) = *x;
            }
            g_array_set_size(awake, k);
            return;
        }
        if (e->kind != SIM_EV_DELIVER && e->kind != SIM_EV_PROBE)
            continue;
        int d = e->rank;
        bool tried = false; /* d's events came earlier in awake */
        for (guint j = 0; j < i && !tried; j++) {
            const sim_event *x = &g_array_index(awake, sim_event, j);
            tried = x->rank == d && (x->kind == SIM_EV_DELIVER || x->kind == SIM_EV_PROBE);
        }
        if (tried)
            continue;
        guint nd = rank_events(awake, d);
        if (nd >= best_n || !sim_engine_rank_persistent(d, ev, (int)all->len))
            continue;
        best = d;
        best_n = nd;
        if (nd == 1)
            break;
    }
    if (best < 0)
        return;
    guint k = 0;
    for (guint j = 0; j < awake->len; j++) {
        sim_event *x = &g_array_index(awake, sim_event, j);
        if (x->rank == best && (x->kind == SIM_EV_DELIVER || x->kind == SIM_EV_PROBE))
            g_array_index(awake, sim_event, k++) = *x;
    }
    g_array_set_size(awake, k);
}
