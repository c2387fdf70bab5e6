/*
 * oneshot.h - the one-path strategy of `ordex run`: whenever no rank can
 * run, fire one enabled event (the first posted, or a random one with a
 * seed), until the program ends, gets stuck or fails.
 */
#ifndef ORDEX_SG_ONESHOT_H
#define ORDEX_SG_ONESHOT_H

#include <stdint.h>

#include "scheduler/sched.h"

typedef struct sg_oneshot_stats {
    uint64_t events; /* events fired */
} sg_oneshot_stats;

/* Runs the loaded program along one path.  seed 0: deterministic. */
sched_run_result sg_run_oneshot(uint64_t seed, sg_oneshot_stats *stats);

/* Runs it along the path simulated time selects (`ordex predict`; the
 * simulator's time model must be on, see simulator/timed.h): events happen
 * in the order of their simulated times. */
sched_run_result sg_run_timed(sg_oneshot_stats *stats);

#endif
