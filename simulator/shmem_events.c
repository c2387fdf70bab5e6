/*
 * shmem_events.c - OpenSHMEM's own choices as events (see shmem_events.h).
 *
 * The turns waiting live in a queue in ordex's heap (each one on its PE's
 * stack), so snapshots keep them; they enter the state digest without their
 * sequence numbers, which differ between orderings that reach one state.
 */
#include "simulator/shmem_events.h"

#include "scheduler/sched.h"
#include "simulator/sim_internal.h"

static GQueue g_turns; /* shm_turn *, in issue order */
static uint64_t g_seq;
/* What the events' b points to: tells them from RMA's. */
static const char g_owner;

void sim_shmem_events_init(void) {
    g_queue_init(&g_turns);
    g_seq = 0;
}

void sim_shmem_events_fini(void) {
    g_queue_clear(&g_turns);
    g_seq = 0;
}

void sim_shmem_turn_wait(shm_turn *t) {
    t->seq = g_seq++;
    t->done = false;
    g_queue_push_tail(&g_turns, t);
    sim_events_changed();
    while (!t->done)
        sched_block();
}

const shm_turn *sim_shmem_turn_of(int rank) {
    for (GList *l = g_turns.head; l; l = l->next) {
        const shm_turn *t = l->data;
        if (t->rank == rank)
            return t;
    }
    return NULL;
}

bool sim_shmem_event_owns(const sim_event *ev) {
    return ev->b == &g_owner;
}

static bool can_come(const shm_turn *t) {
    return !t->ready || t->ready(t);
}

static sim_event event_of(shm_turn *t) {
    return (sim_event){t->kind, t->rank, t->peer, t->seq, t, (void *)&g_owner};
}

void sim_shmem_events(GArray *out) {
    for (GList *l = g_turns.head; l; l = l->next)
        if (can_come(l->data)) {
            sim_event ev = event_of(l->data);
            g_array_append_val(out, ev);
        }
}

bool sim_shmem_first_event(sim_event *out) {
    for (GList *l = g_turns.head; l; l = l->next)
        if (can_come(l->data)) {
            *out = event_of(l->data);
            return true;
        }
    return false;
}

void sim_shmem_fire(const sim_event *ev) {
    shm_turn *t = ev->a;
    g_queue_remove(&g_turns, t);
    if (t->apply)
        t->apply(t);
    t->done = true;
    sim_events_changed();
    sched_wake(t->rank);
}

void sim_shmem_describe_event(const sim_event *ev, sim_event_info *out) {
    const shm_turn *t = ev->a;
    out->src = t->peer;
    /* Lock names are stable from run to run; addresses may not be. */
    out->tag = t->kind == SIM_EV_LOCK ? (int)t->object : 0;
    out->comm = -1;
    out->site_a = t->site;
    out->what = t->call;
}

void sim_shmem_event_key(const sim_event *ev, sim_event_key *k) {
    const shm_turn *t = ev->a;
    /* RMA's layout: window, target + 1 (here: the location, the target's
     * address of an atomic or the lock), and whether the order shows
     * (every grant of a lock excludes the others). */
    uint32_t where = t->object;
    bool shows = t->kind == SIM_EV_LOCK || t->observes;
    k->msg = ((uint64_t)SIM_SHMEM_WINDOW << 33) | ((uint64_t)where << 1) | shows;
    k->recv = t->seq + 1;
}

void sim_shmem_events_digest(void (*feed)(void *user, const void *p, size_t n), void *user) {
    /* As a set: the order in which turns were issued does not decide what
     * can happen next (every turn that can come is an event). */
    uint64_t sum = 0;
    for (GList *l = g_turns.head; l; l = l->next) {
        const shm_turn *t = l->data;
        uint64_t f[5] = {t->kind, (uint64_t)t->rank, (uint64_t)t->peer, t->object, t->digest};
        uint64_t h = 0;
        for (int i = 0; i < 5; i++)
            h = (h ^ f[i]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
        sum += h ^ (h >> 29);
    }
    feed(user, &sum, sizeof sum);
}
