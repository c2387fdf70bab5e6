/*
 * predict.h - one performance prediction: the program run once (or once per
 * placement of its polling ranks on the cores) under simulated time on a
 * platform, and what the run says about where the time goes.
 *
 * Everything here returns structures; printing them (text, JSON, timelines)
 * is the front end's job.  Each simulation loads the program afresh through
 * the run description (stategraph/rundesc.h), so a prediction runs exactly
 * the program `ordex run` runs; simulated time is simulator/timed.h's.
 */
#ifndef ORDEX_PRED_PREDICT_H
#define ORDEX_PRED_PREDICT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "output/timeline.h"
#include "perfmodel/netmodel.h"
#include "perfmodel/platform.h"
#include "simulator/timed.h"
#include "stategraph/rundesc.h"

/* What is predicted, and how. */
typedef struct pred_options {
    /* The program.  Its send mode and eager limit are replaced by the
     * platform's (network.eager_limit decides what is eager). */
    sg_rundesc run;
    bool ignore_compute; /* only ordex_compute() and ORDEX_SAMPLE charges are computation */
    int placements;      /* random placements of polling ranks sharing cores; 0: median delay */
} pred_options;

/* What one simulation gives. */
typedef struct pred_result {
    bool finished;   /* every rank ended: the time is a prediction */
    double makespan; /* seconds */
    int nranks;
    sim_timed_rank *ranks;
    GPtrArray *findings; /* copies of the run's findings (sim_finding *) */
    char *busiest_link;
    double busiest_bytes, busiest_busy, busiest_capacity;
    GArray *links; /* pm_net_link_stats of the most loaded links (names copied) */
    uint64_t messages;
    double elapsed_s;
    out_timeline *timeline;    /* when recorded */
    sim_timed_measure measure; /* how its computation was measured */
} pred_result;

/* The placements simulated for one prediction when ranks that poll share
 * cores (docs/platform.md): where the OS puts them decides how long a rank
 * waits for its core, so each is one possible run. */
typedef struct pred_placements {
    int count;                 /* placements simulated; 0 when the placement did not matter */
    double *times;             /* [count] each one's time, NAN when the program did not finish */
    int finished;              /* how many finished */
    double mean, min, max;     /* over those */
    double std_error;          /* of the mean: how far another draw of placements may land */
    unsigned shown;            /* the placement (1 to count) closest to the mean */
    double elapsed_s;          /* what simulating them took */
    sim_timed_measure measure; /* their measurements, summed */
} pred_placements;

/* Whether a measurement was disturbed: the OS took the CPU from the ranks
 * (involuntary context switches) for a noticeable part of their computation
 * (its wall-clock time exceeds its CPU time by a tenth and a millisecond,
 * and the OS took the CPU from it more often than it blocked itself).
 * Computation is charged as CPU time, which leaves those gaps out, but a
 * machine busy enough for them also slows the CPU time itself (shared
 * caches, memory bandwidth, clock frequency). */
bool pred_measure_disturbed(const sim_timed_measure *m);

/* Rank time summed over the ranks, seconds. */
typedef struct pred_totals {
    double compute, comm, blocked, all;
    double core_wait; /* of blocked */
} pred_totals;

/* Simulates o's program once on platform p, in placement `placement` (see
 * sim_timed_start), keeping the timeline when `record`, discarding the
 * program's output when `quiet`.  False with *err set (g_free) when ordex
 * could not do it; a program that fails is a result with findings. */
bool pred_simulate(const pred_options *o, const pm_platform *p, bool record, bool quiet,
                   unsigned placement, pred_result *out, char **err);
void pred_result_clear(pred_result *r);

/* Simulates placements 1 to o->placements, each in a child process, when
 * the placement matters on p; *out stays empty (count 0) when it does not.
 * False when ordex failed. */
bool pred_simulate_placements(const pred_options *o, const pm_platform *p, pred_placements *out);
void pred_placements_clear(pred_placements *pl);

/* The predicted time of o's program on p, simulated in child processes: the
 * mean over the placements when they matter.  NAN when the program did not
 * finish (in some placement), -1 when ordex failed.  The simulations'
 * measurements are added to *measure (when not NULL). */
double pred_time(const pred_options *o, const pm_platform *p, sim_timed_measure *measure);

/* Stops the prediction under way because of signal `sig`
 * (sg_run_interrupt), and ends the child process simulating a placement, if
 * one runs: the functions above then return what they return when ordex
 * fails, and sg_run_interrupted() says why.  Async-signal-safe, for a
 * SIGINT/SIGTERM handler. */
void pred_interrupt(int sig);

pred_totals pred_totals_of(const pred_result *r);

/* One sentence (g_free) on what limits the run: computation, communication
 * (with the busiest link), waits for a core, or waits for other ranks. */
char *pred_critical_resource(const pred_result *r, const pm_platform *p);

#endif
