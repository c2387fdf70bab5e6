/*
 * oneshot.c - one execution path.
 */
#include "stategraph/oneshot.h"

#include <glib.h>

#include "simulator/events.h"
#include "simulator/timed.h"

typedef struct oneshot {
    GRand *rng;
    sg_oneshot_stats *stats;
} oneshot;

static bool choose(void *user) {
    oneshot *o = user;
    /* Ranks polling with MPI_Test/MPI_Iprobe look again once something changed. */
    if (sim_events_wake_pollers())
        return true;
    sim_event ev;
    if (!sim_events_first(&ev, o->rng))
        return false;
    sim_fire(&ev);
    o->stats->events++;
    return true;
}

sched_run_result sg_run_oneshot(uint64_t seed, sg_oneshot_stats *stats) {
    oneshot o = {seed ? g_rand_new_with_seed((guint32)(seed ^ 0x9e3779b9u)) : NULL, stats};
    stats->events = 0;
    sched_run_result r = sched_run(choose, &o);
    if (o.rng)
        g_rand_free(o.rng);
    return r;
}

static bool choose_timed(void *user) {
    sg_oneshot_stats *stats = user;
    if (!sim_timed_step())
        return false;
    stats->events++;
    return true;
}

sched_run_result sg_run_timed(sg_oneshot_stats *stats) {
    stats->events = 0;
    return sched_run(choose_timed, stats);
}
