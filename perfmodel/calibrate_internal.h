/*
 * calibrate_internal.h - what the files of the calibration module
 * (calibrate_fit.c, calibrate_report.c, calibrate_write.c) share.  Private
 * to perfmodel/: calibrate_fit.h is the module's interface.
 */
#ifndef ORDEX_PM_CALIBRATE_INTERNAL_H
#define ORDEX_PM_CALIBRATE_INTERNAL_H

#include <stdint.h>

#include "perfmodel/calibrate_fit.h"

/* The fitted line of segment s at `bytes` (whatever range it falls in). */
static inline double pm_fit_segment_time(const pm_fit_segment *s, uint64_t bytes) {
    return s->latency + (double)bytes / s->bandwidth;
}

#endif
