/*
 * timed.h - simulated time for `ordex predict`: the ranks' real code runs
 * (direct execution) while a discrete-event simulation on a platform
 * (platform.h) decides when each MPI call happens.
 *
 * How time advances.  There is one global clock.  A rank runs only "at" the
 * current time: when it enters an MPI call, the CPU time it spent computing
 * since it left the previous one (measured on this machine, scaled by the
 * platform's speed, shared with the other computing ranks of its node; see
 * cpumodel.h) becomes a job, and the call takes effect only when that job
 * finishes in simulated time.  Messages are transfers in the network model
 * (netmodel.h):
 *   - an eager message (buffered: small standard sends up to the platform's
 *     eager_limit, MPI_Bsend) starts its transfer when it is sent; the
 *     receiver can match it only once it has arrived, so a wildcard receive
 *     gets the message that arrives first;
 *   - a rendezvous message (larger standard sends, MPI_Ssend) is matched as
 *     soon as a receive is posted, then transfers with the rendezvous
 *     handshake; both the send and the receive complete when the data has
 *     arrived.  Without the platform's async_progress the transfer starts
 *     only while the receiver is inside an MPI call that progresses (not
 *     MPI_Wtime nor a local call): a receive posted with MPI_Irecv before a
 *     computation gets its data from the receiver's next call.
 * The sender's CPU overhead comes before its message leaves; the receiver's
 * overhead is charged to its next computation.  Collectives run as the
 * point-to-point algorithms of collalgo.h, each member starting its part
 * when it calls; a member completes when its part of the algorithm is done
 * (a Bcast root or a Reduce contributor can leave before the others arrive,
 * as MPI allows; a member that needs others' data waits at least until every
 * member has called, because the data moves only then).  One-sided
 * operations are messages too, and the calls that synchronise windows wait
 * for them (timed_rma.c; the model is in rma.h, "simulated time").
 *
 * With the platform's busy_wait, a rank inside a blocking call polls: it
 * takes a share of its node's cores like a computing rank, and on a node
 * with more ranks than cores it returns only when it would get a core again
 * (platform.h, docs/platform.md).  The receiver moves a rendezvous message,
 * so one whose receive was already waiting there moves only once the
 * receiver would have its core again; the receiver then keeps it.  When it
 * gets its core again depends on the placement (sim_timed_start): either
 * every such wait costs the median delay of the platform's formula, or the
 * ranks of a node are placed on its cores, each core runs its ranks in turn
 * for a time slice (the slices of all cores aligned, from time 0), and a
 * rank goes on at the start of its next turn.
 *
 * MPI_Wtime returns the simulated time; ordex_compute adds simulated
 * computation.  The matching rules of MPI are those of the engine, so a
 * prediction is one correct MPI execution: the one the timing selects.
 */
#ifndef ORDEX_SIM_TIMED_H
#define ORDEX_SIM_TIMED_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfmodel/cpumodel.h"
#include "perfmodel/netmodel.h"
#include "perfmodel/platform.h"

/* Where one rank's time went, in simulated seconds. */
typedef struct sim_timed_rank {
    int node;
    double end;     /* when it ended (after its last computation), or -1 if it did not */
    double compute; /* computing: its CPU time scaled by speed and core sharing */
    double comm;    /* in MPI calls: CPU overheads, and waiting while its data moved */
    double blocked; /* in MPI calls waiting for another rank to get there */
    /* Of blocked: waits that ended only when the rank had a core again (an
     * oversubscribed node whose ranks poll while they wait, see wake_delay
     * and pull_delay in timed.c). */
    double core_wait;
    uint64_t calls; /* MPI calls that took simulated time */
    uint64_t messages_sent, bytes_sent;
} sim_timed_rank;

/* A span of one rank's timeline: computing ("compute") or inside an MPI
 * call (its name).  Names are static strings. */
typedef struct sim_timed_span {
    int rank;
    double start, end;
    const char *name;
} sim_timed_span;

/* One point-to-point message or collective step, when it left and arrived. */
typedef struct sim_timed_message {
    int src, dst;
    double sent, arrived;
    uint64_t bytes;
} sim_timed_message;

/* Turns simulated time on for the job sim_create set up (call before any
 * rank runs; the simulator must be configured with early_collectives and
 * async_progress off).  Places the ranks on the platform's nodes; fails with
 * the platform's error when they do not fit.  `record`: keep the timeline
 * (spans and messages) for sim_timed_spans / sim_timed_messages. */
bool sim_timed_start(const pm_platform *platform, bool record, unsigned placement, GError **error);

/* `placement` of sim_timed_start: 0 charges every wait for a core the
 * median delay; k > 0 places the ranks of every node on its cores and their
 * turns at random, drawn from seed k (the same k, the same placement).  A
 * rank that has ended leaves its core's turns. */

/* Whether the placement changes anything: busy_wait and some node with more
 * ranks than cores when nranks ranks run on platform p (false if they do
 * not fit). */
bool sim_timed_placement_matters(const pm_platform *p, int nranks);

/* Ignore the measured CPU time of the ranks (only ordex_compute counts);
 * call right after sim_timed_start. */
void sim_timed_ignore_measured(bool ignore);

/* Turns it off and frees everything (after the run and its reports). */
void sim_timed_stop(void);

/* Why the simulation stopped short, or NULL: simulated time would have
 * become infinite (an ordex_compute argument, or a platform value far past
 * any machine's); the run loop was stopped (sched_request_stop) and no
 * prediction can be made.  Valid until sim_timed_stop. */
const char *sim_timed_failure(void);

/* Whether the timed engine runs (between sim_timed_start and
 * sim_timed_stop).  Inline: every MPI call asks. */
extern bool sim_timed_on;
static inline bool sim_timed_active(void) {
    return sim_timed_on;
}

/* The run loop's strategy: fires the next thing in simulated-time order (an
 * arrived message matching a receive, a complete collective, a computation
 * or transfer that ends).  Returns false when nothing is left to happen. */
bool sim_timed_step(void);

/* The clock that measures the ranks' computation (seconds of this thread's
 * CPU time), for anything else that measures it (ORDEX_SAMPLE). */
double sim_timed_clock(void);

/* How the computation was measured during the run so far: what tells that
 * the machine was busy. */
typedef struct sim_timed_measure {
    double compute_cpu_s;      /* CPU time of the ranks' measured computations */
    double compute_wall_s;     /* wall-clock time of the same computations */
    long involuntary_switches; /* times the OS took the CPU from this thread
                                * (getrusage's ru_nivcsw) since the run started */
    long voluntary_switches;   /* times it gave the CPU up itself: it blocked, e.g. a
                                * rank sleeping or waiting for a file (ru_nvcsw) */
    bool instrumented;         /* the program was compiled with the instrumentation of
                                * loads and stores, which slows its computation even
                                * with the hooks' calls disarmed (the caller sets it) */
} sim_timed_measure;

/* The measurement of the current run (call before sim_timed_stop). */
void sim_timed_measurement(sim_timed_measure *m);

/* The global clock, seconds. */
double sim_timed_now(void);

/* The latest end over the ranks (the predicted run time), seconds. */
double sim_timed_makespan(void);

const sim_timed_rank *sim_timed_rank_stats(int rank);

/* The recorded timeline (arrays of sim_timed_span / sim_timed_message), or
 * NULL when not recording. */
GArray *sim_timed_spans(void);
GArray *sim_timed_messages(void);

/* The models, for utilisation reports (valid until sim_timed_stop). */
const pm_net *sim_timed_net(void);
const pm_cpu *sim_timed_cpu(void);

#endif
