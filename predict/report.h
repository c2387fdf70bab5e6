/*
 * report.h - what a prediction looks like: the text report of `ordex
 * predict` and the members of its JSON report.  Text goes into a GString
 * the caller prints.
 */
#ifndef ORDEX_PRED_REPORT_H
#define ORDEX_PRED_REPORT_H

#include <glib.h>

#include "output/json.h"
#include "predict/predict.h"

/* How reports name the platform ("the built-in platform (...)" or
 * "FILE (N nodes x C cores)"); g_free. */
char *pred_platform_text(const pm_platform *p);

/* A time or size with its unit for people ("12.000 us"); g_free. */
char *pred_qty(double v, const char *unit);

/* The report of one prediction: the time (the mean over the placements,
 * with their range, when they matter), the per-rank table, the shares of
 * rank time, the critical resource, the most loaded links, the timeline
 * files, the measurement note, the simulation's own time.  The findings
 * are the caller's to print first. */
void pred_report_text(GString *out, const pred_result *r, const pred_placements *pl,
                      const pm_platform *p, const char *prog, const char *trace_path,
                      const char *svg_path, const sim_timed_measure *measure);

/* A note when the program was built with the instrumentation of loads and
 * stores, and one when the machine was busy while the computation was
 * measured (nothing otherwise). */
void pred_report_measure_note(GString *out, const sim_timed_measure *m);

/* The prediction's members of the report's top-level JSON object. */
void pred_json_prediction(out_json *w, const pred_result *r, const pred_placements *pl,
                          const pm_platform *p, const char *trace_path, const char *svg_path);

/* The "measurement" member: CPU and wall-clock time of the computation,
 * and whether the program was instrumented. */
void pred_json_measure(out_json *w, const sim_timed_measure *m);

#endif
