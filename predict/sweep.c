/*
 * sweep.c - sensitivity sweeps: platform keys and their values (see sweep.h).
 */
#include "predict/sweep.h"

#include <string.h>

#include "perfmodel/platform.h"
#include "perfmodel/units.h"

/* Platform keys a sweep may name without their section, and how their values
 * read (for the plot's x axis). */
static const struct {
    const char *key, *section;
    pred_value_kind kind;
} sweep_keys[] = {
    {"latency", "network", PRED_V_TIME},
    {"bandwidth", "network", PRED_V_BANDWIDTH},
    {"eager_limit", "network", PRED_V_SIZE},
    {"rendezvous_handshake", "network", PRED_V_TIME},
    {"send_overhead", "network", PRED_V_TIME},
    {"send_overhead_per_byte", "network", PRED_V_TIME},
    {"recv_overhead", "network", PRED_V_TIME},
    {"recv_overhead_per_byte", "network", PRED_V_TIME},
    {"topology", "network", PRED_V_WORD},
    {"nodes", "cluster", PRED_V_NUMBER},
    {"cores_per_node", "cluster", PRED_V_NUMBER},
    {"speed", "cluster", PRED_V_NUMBER},
    {"mapping", "cluster", PRED_V_WORD},
    {"oversubscribe", "cluster", PRED_V_WORD},
    {"nodes_per_leaf", "fattree", PRED_V_NUMBER},
    {"uplink_bandwidth", "fattree", PRED_V_BANDWIDTH},
};

void pred_sweep_clear(pred_sweep *s) {
    g_free(s->key);
    g_strfreev(s->values);
    g_free(s->x);
    g_free(s->y);
}

bool pred_sweep_parse(const char *spec, pred_sweep *s, char **err) {
    memset(s, 0, sizeof *s);
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) {
        *err = g_strdup_printf("--sweep %s: expected KEY=V1,V2,... (e.g. "
                               "--sweep bandwidth=1GBps,10GBps)",
                               spec);
        return false;
    }
    char *key = g_strndup(spec, (gsize)(eq - spec));
    const char *dot = strchr(key, '.');
    const char *bare = dot ? dot + 1 : key;
    int found = -1;
    for (size_t i = 0; i < G_N_ELEMENTS(sweep_keys) && found < 0; i++)
        if (strcmp(bare, sweep_keys[i].key) == 0 &&
            (!dot || strncmp(key, sweep_keys[i].section, (size_t)(dot - key)) == 0))
            found = (int)i;
    s->kind = found >= 0 ? sweep_keys[found].kind : PRED_V_WORD;
    if (dot) {
        s->key = key; /* any section.key: the platform loader checks it */
    } else if (found >= 0) {
        s->key = g_strdup_printf("%s.%s", sweep_keys[found].section, key);
        g_free(key);
    } else {
        *err = g_strdup_printf("--sweep %s: unknown key '%s' (give it as SECTION.KEY, "
                               "e.g. network.latency)",
                               spec, key);
        g_free(key);
        return false;
    }
    s->values = g_strsplit(eq + 1, ",", -1);
    s->n = (int)g_strv_length(s->values);
    s->x = g_new(double, s->n);
    s->y = g_new(double, s->n);
    for (int i = 0; i < s->n; i++) {
        char *problem = NULL;
        uint64_t size = 0;
        bool ok = true;
        g_strstrip(s->values[i]);
        s->x[i] = i;
        switch (s->kind) {
        case PRED_V_TIME:
            ok = pm_parse_time(s->values[i], &s->x[i], &problem);
            break;
        case PRED_V_BANDWIDTH:
            ok = pm_parse_bandwidth(s->values[i], &s->x[i], &problem);
            break;
        case PRED_V_SIZE:
            ok = pm_parse_size(s->values[i], &size, &problem);
            s->x[i] = (double)size;
            break;
        case PRED_V_NUMBER: {
            char *end;
            s->x[i] = g_ascii_strtod(s->values[i], &end);
            ok = end != s->values[i] && !*end;
            if (!ok)
                problem = g_strdup_printf("\"%s\" is not a number", s->values[i]);
            break;
        }
        case PRED_V_WORD:
            break;
        }
        if (!ok || !*s->values[i]) {
            *err = g_strdup_printf("--sweep %s: %s", spec, problem ? problem : "empty value");
            g_free(problem);
            pred_sweep_clear(s);
            return false;
        }
    }
    return true;
}

const char *pred_sweep_unit(pred_value_kind k) {
    switch (k) {
    case PRED_V_TIME:
        return "s";
    case PRED_V_BANDWIDTH:
        return "B/s";
    case PRED_V_SIZE:
        return "B";
    default:
        return "";
    }
}

char **pred_sweep_overrides(char **sets, const char *key, const char *value) {
    int n = sets ? (int)g_strv_length(sets) : 0;
    char **all = g_new0(char *, n + 2);
    for (int i = 0; i < n; i++)
        all[i] = g_strdup(sets[i]);
    all[n] = g_strdup_printf("%s=%s", key, value);
    return all;
}
