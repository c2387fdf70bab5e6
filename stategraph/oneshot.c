/*
 * oneshot.c - one execution path (see oneshot.h).
 */
#include "stategraph/oneshot.h"

#include <stdio.h>

#include "simulator/events.h"
#include "simulator/sim.h"
#include "stategraph/state.h"

typedef struct oneshot {
    GRand *rng;
    uint64_t *events;
    sg_poll_watch polls;
} oneshot;

static bool choose(void *user) {
    oneshot *o = user;
    /* Ranks polling with MPI_Test/MPI_Iprobe look again once something changed. */
    if (sim_events_wake_pollers())
        return true;
    sim_event ev;
    if (!sim_events_first(&ev, o->rng))
        return sg_release_pollers(&o->polls);
    sim_fire(&ev);
    (*o->events)++;
    return true;
}

bool sg_oneshot_begin(const sg_rundesc *d, char **why) {
    if (!sg_rundesc_load(d, why))
        return false;
    sim_config cfg;
    sg_rundesc_sim_config(d, &cfg);
    sim_create(&cfg);
    return true;
}

sched_run_result sg_oneshot_run(uint64_t seed, uint64_t *events) {
    oneshot o = {seed ? g_rand_new_with_seed((guint32)(seed ^ 0x9e3779b9u)) : NULL, events, {0}};
    *events = 0;
    sched_run_result r = sched_run(choose, &o);
    *events += sim_deliveries_at_once();
    if (o.rng)
        g_rand_free(o.rng);
    return r;
}

void sg_oneshot_conclude(sched_run_result end, sg_oneshot_result *r) {
    if (end != SCHED_RUN_STOPPED)
        sim_conclude(end == SCHED_RUN_STUCK);
    sched_flush_output();
    fflush(stdout);
    r->findings = sim_findings();
    r->messages = sim_messages_delivered();
    r->switches = sched_switches();
    r->predicted_s = sim_predicted_time();
}

char *sg_oneshot_describe_rank(int rank) {
    return sim_describe_rank(rank);
}

void sg_oneshot_end(void) {
    sim_destroy();
    sched_fini();
}
