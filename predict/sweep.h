/*
 * sweep.h - a sensitivity sweep: one platform key predicted at several
 * values (`ordex predict --sweep KEY=V1,V2,...`).
 */
#ifndef ORDEX_PRED_SWEEP_H
#define ORDEX_PRED_SWEEP_H

#include <stdbool.h>

#include <glib.h>

/* How a key's values read, for the plot's x axis. */
typedef enum pred_value_kind {
    PRED_V_TIME,
    PRED_V_BANDWIDTH,
    PRED_V_SIZE,
    PRED_V_NUMBER,
    PRED_V_WORD
} pred_value_kind;

typedef struct pred_sweep {
    char *key; /* "network.bandwidth" */
    pred_value_kind kind;
    char **values; /* as written */
    int n;
    double *x; /* [n] the values as numbers (their index for words) */
    double *y; /* [n] the predicted times, for the caller to fill */
} pred_sweep;

/* Parses "KEY=V1,V2,..." into s; KEY may leave out its section when it is
 * one of the usual platform keys.  False with *err set (g_free) to one line
 * naming the problem. */
bool pred_sweep_parse(const char *spec, pred_sweep *s, char **err);
void pred_sweep_clear(pred_sweep *s);

/* The unit of a kind's values ("s", "B/s", "B" or ""). */
const char *pred_sweep_unit(pred_value_kind k);

/* A new NULL-terminated list (g_strfreev): the overrides `sets` (may be
 * NULL) plus key=value. */
char **pred_sweep_overrides(char **sets, const char *key, const char *value);

#endif
