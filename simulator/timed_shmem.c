/*
 * timed_shmem.c - OpenSHMEM's puts, gets and atomics in simulated time
 * (see timed_shmem.h).  The engine (shmem.c) decides what the program
 * sees; this file only makes the calls take time, with the network model
 * of timed.c, as timed_rma.c does for MPI's windows.
 */
#include "simulator/timed_shmem.h"

#include <glib.h>
#include <string.h>

#include "perfmodel/platform.h"
#include "simulator/engine.h"
#include "simulator/sim_internal.h"
#include "simulator/timed.h"
#include "simulator/timed_internal.h"

typedef struct sop {
    uint64_t id;
    int o, t;
    uint64_t out, back;
    bool reply;
    double work;
} sop;

static struct {
    GHashTable *live; /* id -> sop *: not done */
    int *pending;     /* [rank]: its operations not done */
    int n;
    uint64_t next;
} TS;

void sim_timed_shmem_reset(void) {
    if (TS.live)
        g_hash_table_destroy(TS.live);
    g_free(TS.pending);
    memset(&TS, 0, sizeof TS);
}

static void start(void) {
    if (TS.live)
        return;
    TS.live = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    TS.n = sim_g->nranks;
    TS.pending = g_new0(int, (size_t)TS.n);
    TS.next = 1;
}

static void done(sop *s) {
    TS.pending[s->o]--;
    sim_timed_wake(s->o);
    sim_timed_wake(s->t); /* a PE that saw its value waits for its arrival */
    sim_events_changed();
    g_hash_table_remove(TS.live, &s->id);
}

static void reply_arrived(void *user) {
    sop *s = user;
    sim_timed_charge(s->o, pm_platform_recv_overhead(sim_timed_platform(), s->back));
    done(s);
}

static void target_done(void *user) {
    sop *s = user;
    if (!s->reply) {
        done(s);
        return;
    }
    sim_timed_charge(s->t, pm_platform_send_overhead(sim_timed_platform(), s->back));
    sim_timed_send(s->t, s->o, s->back, reply_arrived, s);
}

static void request_arrived(void *user) {
    sop *s = user;
    sim_timed_charge(s->t, pm_platform_recv_overhead(sim_timed_platform(), s->out));
    sim_timed_serve(s->t, s->work, target_done, s);
}

uint64_t sim_timed_shmem_issue(int origin, int target, uint64_t out, uint64_t back, bool reply,
                               double work) {
    if (!sim_timed_active())
        return 0;
    start();
    sop *s = g_new0(sop, 1);
    *s = (sop){TS.next++, origin, target, out, back, reply, work};
    g_hash_table_insert(TS.live, &s->id, s);
    TS.pending[origin]++;
    sim_timed_send_overhead(out);
    sim_timed_send(origin, target, out, request_arrived, s);
    return s->id;
}

static bool is_done(void *user) {
    uint64_t id = *(const uint64_t *)user;
    return !TS.live || !g_hash_table_contains(TS.live, &id);
}

void sim_timed_shmem_wait(uint64_t id) {
    if (!id || !sim_timed_active())
        return;
    sim_timed_wait_until(is_done, &id, true);
}

static bool none_pending(void *user) {
    int pe = *(const int *)user;
    return !TS.pending || TS.pending[pe] == 0;
}

void sim_timed_shmem_quiet(int pe) {
    if (!sim_timed_active() || !TS.pending)
        return;
    sim_timed_wait_until(none_pending, &pe, true);
}
