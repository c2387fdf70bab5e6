/*
 * replay.c - following a trace.
 */
#include "stategraph/replay.h"

#include <stdarg.h>
#include <string.h>

#include "simulator/events.h"
#include "stategraph/state.h"

static sg_replay *g_r;

static void diverge(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static void diverge(const char *fmt, ...) {
    if (g_r->divergence)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_r->divergence =
        g_strdup_printf("%s:%d: step %u: %s", g_r->trace->path,
                        g_r->pos < g_r->trace->steps->len
                            ? g_array_index(g_r->trace->steps, sg_trace_step, g_r->pos).line
                            : 0,
                        g_r->pos + 1, why);
    g_free(why);
    sched_request_stop();
}

static const sg_trace_step *next_step(void) {
    return g_r->pos < g_r->trace->steps->len
               ? &g_array_index(g_r->trace->steps, sg_trace_step, g_r->pos)
               : NULL;
}

static bool matches(const sim_event *ev, const sg_trace_step *st) {
    sim_event_info info;
    sim_event_describe(ev, &info);
    if (info.kind != st->kind || (info.dst != st->dst && st->kind != SIM_EV_COLLECTIVE))
        return false;
    if (st->kind == SIM_EV_COLLECTIVE)
        return info.comm == st->comm;
    if (st->kind == SIM_EV_RESUME)
        return true;
    return info.src == st->src && info.tag == st->tag && info.comm == st->comm;
}

/* The state at the last release of pollers, as exploring keeps it. */
static sg_poll_watch g_polls;

static bool choose(void *user) {
    if (g_r->divergence)
        return false;
    if (sim_events_wake_pollers())
        return true;
    const sg_trace_step *st = next_step();
    if (g_r->stop_at && (int)g_r->pos + 1 >= g_r->stop_at) {
        g_r->stopped = true;
        sched_request_stop();
        return true;
    }
    GArray *evs = g_array_new(FALSE, FALSE, sizeof(sim_event));
    sim_events_all(evs);
    /* As when exploring: with nothing else to do, ranks that said "not yet"
     * ask again (the trace has no step for that). */
    if (evs->len == 0 && (sim_engine_wake_later() || sg_release_pollers(&g_polls))) {
        g_array_free(evs, TRUE);
        return true;
    }
    bool fired = false;
    if (!st) { /* past the trace: the deterministic schedule of `ordex run` */
        if (evs->len) {
            sim_event ev;
            if (sim_events_first(&ev, NULL)) {
                sim_fire(&ev);
                fired = true;
            }
        }
    } else if (st->kind == SG_STEP_CHOICE) {
        /* Choices are events (sim_set_choice_events): the rank waits in its
         * call until the trace's alternative is fired. */
        for (guint i = 0; i < evs->len && !fired; i++) {
            const sim_event *ev = &g_array_index(evs, sim_event, i);
            if (ev->kind == SIM_EV_CHOICE && ev->rank == st->dst &&
                (int)ev->order == st->choice - 1) {
                g_r->pos++;
                sim_fire(ev);
                fired = true;
            }
        }
        if (!fired) {
            int n = st->dst >= 0 && st->dst < sched_nranks() ? sim_rank_choice_alternatives(st->dst)
                                                             : 0;
            if (n > 0)
                diverge("the program makes a choice at rank %d with %d alternatives, but the "
                        "trace takes alternative %d of %s",
                        st->dst, n, st->choice, st->call ? st->call : "an MPI call");
            else
                diverge("the trace expects a choice in %s at rank %d, but every rank waits",
                        st->call ? st->call : "an MPI call", st->dst);
            fired = true; /* stop requested */
        }
    } else {
        for (guint i = 0; i < evs->len && !fired; i++) {
            const sim_event *ev = &g_array_index(evs, sim_event, i);
            if (matches(ev, st)) {
                g_r->pos++;
                sim_fire(ev);
                fired = true;
            }
        }
        if (!fired) {
            diverge("the recorded event (%s to rank %d from rank %d, tag %d) is not enabled: "
                    "the program did not behave as when the trace was made",
                    st->kind == SIM_EV_DELIVER  ? "delivery"
                    : st->kind == SIM_EV_PROBE  ? "probe"
                    : st->kind == SIM_EV_LOCK   ? "lock grant"
                    : st->kind == SIM_EV_ATOMIC ? "accumulates applying"
                                                : "collective",
                    st->dst, st->src, st->tag);
            fired = true;
        }
    }
    g_array_free(evs, TRUE);
    return fired;
}

sched_run_result sg_replay_run(sg_replay *r) {
    g_r = r;
    g_polls.seen = false;
    sim_set_choice_events(true);
    sched_run_result res = sched_run(choose, NULL);
    sim_set_choice_events(false);
    return res;
}
