/*
 * replay_gdb.c - replay stepping under gdb (see replay.h).
 */
#include "stategraph/replay.h"

#include <glib.h>
#include <string.h>

#include "simulator/sim.h"

/*
 * `ordex replay --gdb TRACE` validates the trace, then turns into gdb running
 * `ordex replay --gdb-inferior TRACE`: the same replay, with every rank in a
 * thread named "rank N" and the program copies in real files (gdb reads
 * their debug information).  That replay stops before every step and calls
 * ordex_gdb_stop; tools/gdb/ordex.py keeps a breakpoint there and decides
 * which stop the user sees.  The ordex_gdb_* names are exported (exports.lds)
 * for it; they are read and called from gdb, never from ordex.
 */

/* The step about to fire at the latest stop (1-based; steps + 1 once the trace
 * is used up, steps + 2 at the end of the run), the trace's length, the rank
 * count, whether the replay sits in ordex_gdb_stop right now (otherwise it is
 * somewhere after that stop's step, running ranks), and whether that is the
 * stop at the end of the run (which every `ordex step` or `ordex goto` that
 * gets that far stops at). */
int ordex_gdb_step, ordex_gdb_nsteps, ordex_gdb_nranks, ordex_gdb_at_stop, ordex_gdb_ended;

static const sg_replay *g_gdb_rp;
static sched_run_result g_gdb_result;
static char *g_gdb_text; /* the string handed to gdb last */

/* Where gdb's breakpoint sits.  noinline and the asm: the call must stay, although the
 * function visibly does nothing. */
__attribute__((noinline)) void ordex_gdb_stop(int step) {
    __asm__ volatile("" ::: "memory");
}

/* Returns s as the one string gdb reads (until the next call). */
static const char *gdb_text(char *s) {
    g_free(g_gdb_text);
    g_gdb_text = s;
    return s;
}

/* "STATE<tab>what the rank does": its pending MPI call with arguments and
 * file:line, or how it ended. */
const char *ordex_gdb_describe(int rank) {
    if (rank < 0 || rank >= sched_nranks())
        return "";
    /* gdb may call this while a rank is stopped in its own code: allocate
     * from ordex's heap, not the rank's. */
    sched_enter_sim();
    static const char *const names[] = {"ready", "running", "blocked", "ended", "failed"};
    sched_state st = sched_rank_state(rank);
    char *line = sim_describe_rank(rank);
    char *prefix = g_strdup_printf("rank %d: ", rank);
    const char *what = g_str_has_prefix(line, prefix) ? line + strlen(prefix) : line;
    if (st == SCHED_FAILED) {
        static const char *const why[] = {"failed",
                                          "crashed (signal)",
                                          "overflowed its stack",
                                          "ran past the step timeout",
                                          "was aborted (MPI_Abort or a fatal MPI error)",
                                          "ran out of heap"};
        unsigned k = (unsigned)sched_rank_fault(rank)->kind;
        what = k < G_N_ELEMENTS(why) ? why[k] : why[0];
    } else if (st == SCHED_RUNNING && rank == ordex_rank) {
        what = "running (the rank gdb stopped in)";
    }
    const char *r = gdb_text(
        g_strdup_printf("%s\t%s", (unsigned)st < G_N_ELEMENTS(names) ? names[st] : "?", what));
    g_free(prefix);
    g_free(line);
    sched_leave_sim();
    return r;
}

/* One step of the trace for people, with its number. */
static char *step_text(const sg_trace_step *st, int number) {
    sg_step_view v;
    sg_trace_step_view(st, &v);
    char *text = sg_step_describe(&v);
    char *s = g_strdup_printf("step %d: %s", number, text);
    g_free(text);
    return s;
}

/* Where the replay is and what comes next, a few lines. */
const char *ordex_gdb_where(void) {
    if (!g_gdb_rp)
        return "not replaying a trace";
    sched_enter_sim();
    const sg_trace *t = g_gdb_rp->trace;
    unsigned n = t->steps->len, pos = g_gdb_rp->pos;
    GString *s = g_string_new(NULL);
    if (ordex_gdb_ended) {
        g_string_printf(s, "the run has ended after step %u of %u: %s", pos, n,
                        g_gdb_rp->divergence                 ? g_gdb_rp->divergence
                        : g_gdb_result == SCHED_RUN_COMPLETE ? "every rank ended"
                        : g_gdb_result == SCHED_RUN_STUCK
                            ? "ranks wait and nothing can happen any more (a deadlock)"
                            : "an error stopped it");
        g_string_append(s, "\n`continue` prints ordex's report");
        const char *r = gdb_text(g_string_free(s, FALSE));
        sched_leave_sim();
        return r;
    }
    if (ordex_gdb_at_stop)
        g_string_printf(s, "before step %u of %u (every rank waits in MPI or has ended)", pos + 1,
                        n);
    else if (ordex_rank >= 0)
        g_string_printf(s, "after step %u of %u: rank %d is running", pos, n, ordex_rank);
    else
        g_string_printf(s, "after step %u of %u: the scheduler runs", pos, n);
    if (pos < n) {
        char *next = step_text(&g_array_index(t->steps, sg_trace_step, pos), (int)pos + 1);
        g_string_append_printf(s, "\nnext: %s", next);
        g_free(next);
    } else {
        g_string_append(s, "\nthe trace is used up: the rest of the run follows the default "
                           "schedule");
    }
    const char *r = gdb_text(g_string_free(s, FALSE));
    sched_leave_sim();
    return r;
}

/* The replay of --gdb-inferior: stops (calls ordex_gdb_stop) before every
 * step, once more when the trace is used up, and at the end of the run
 * (before the report), where every rank can still be looked at. */
sched_run_result sg_replay_stepwise(sg_replay *rp) {
    g_gdb_rp = rp;
    ordex_gdb_nsteps = (int)rp->trace->steps->len;
    ordex_gdb_nranks = rp->trace->nranks;
    rp->stop_at = 1;
    for (;;) {
        sched_run_result r = sg_replay_run(rp);
        if (!rp->stopped || rp->divergence) {
            ordex_gdb_ended = 1;
            g_gdb_result = r;
            ordex_gdb_step = ordex_gdb_nsteps + 2;
            ordex_gdb_at_stop = 1;
            ordex_gdb_stop(ordex_gdb_step);
            ordex_gdb_at_stop = 0;
            return r;
        }
        ordex_gdb_step = (int)rp->pos + 1;
        ordex_gdb_at_stop = 1;
        ordex_gdb_stop(ordex_gdb_step);
        ordex_gdb_at_stop = 0;
        rp->stopped = false;
        rp->stop_at = (int)rp->pos + 2; /* past the trace: never reached, runs to the end */
        sched_clear_stop();
    }
}
