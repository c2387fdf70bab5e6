/*
 * platform.c - loading and validating platform files (see platform.h and
 * docs/platform.md).  What a loaded platform answers is platform_query.c's.
 *
 * Loading goes in four passes over one GKeyFile:
 *  1. our own scan of the text, which GKeyFile cannot do for us: it records
 *     the line of every key (GKeyFile keeps no line numbers, and every
 *     message must name one), and rejects malformed lines, unknown sections,
 *     unknown keys and duplicate keys with their line;
 *  2. GKeyFile parses the text;
 *  3. each --set override is checked the same way and written into the key
 *     file, remembering that the key's location is now the override;
 *  4. every key is converted and range-checked, then the keys that depend on
 *     each other are checked together.
 * Reading every value from the one key file means an override and the file
 * go through exactly the same checks.
 */
#include "perfmodel/platform.h"
#include "util/files.h"

#include <errno.h>
#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/units.h"

GQuark pm_platform_error_quark(void) {
    return g_quark_from_static_string("sim-platform-error-quark");
}

/* Largest node and core counts accepted: far beyond any simulation, small
 * enough that nodes * cores never overflows. */
#define MAX_NODES 1000000
#define MAX_CORES 1000000

/* Default time slice of an oversubscribed core: one scheduler tick of a
 * Linux kernel built with HZ=250, the common distribution setting, which is
 * when a task that never sleeps (a polling rank) is first preempted. */
#define DEFAULT_TIMESLICE 4e-3

/* Default eager limit: the order of MPICH's eager thresholds. */
#define DEFAULT_EAGER_LIMIT 65536

/* What a platform can describe (docs/platform.md, "Ranges").  Past these a
 * value describes no machine, and the simulation's sums of times stop
 * meaning anything: bounded, they stay finite for any run (2^64 bytes at
 * 1 B/s is 1.8e19 s; a double goes to 1.8e308). */
#define MAX_TIME 1000.0       /* s: a latency, an overhead, a time slice */
#define MAX_TIME_PER_BYTE 1.0 /* s per byte */
#define MIN_BANDWIDTH 1.0     /* B/s */
#define MAX_BANDWIDTH 1e15    /* B/s: 1000 TB/s */
#define MIN_SPEED 1e-6
#define MAX_SPEED 1e6
#define MAX_EAGER_LIMIT ((uint64_t)1 << 40) /* 1 TiB */

static const char *const known_sections[] = {"cluster", "network", "intranode", "fattree"};

static const char *const cluster_keys[] = {"nodes",     "cores_per_node", "mapping",
                                           "hostfile",  "speed",          "oversubscribe",
                                           "busy_wait", "timeslice",      NULL};
static const char *const network_keys[] = {"topology",
                                           "latency",
                                           "bandwidth",
                                           "eager_limit",
                                           "rendezvous_handshake",
                                           "send_overhead",
                                           "send_overhead_per_byte",
                                           "recv_overhead",
                                           "recv_overhead_per_byte",
                                           "async_progress",
                                           NULL};
static const char *const intranode_keys[] = {"latency", "bandwidth", NULL};
static const char *const fattree_keys[] = {"nodes_per_leaf", "uplink_bandwidth", NULL};

#define SEGMENT_PREFIX "segment."

static const char *const *keys_of(const char *section) {
    if (strcmp(section, "cluster") == 0)
        return cluster_keys;
    if (strcmp(section, "network") == 0)
        return network_keys;
    if (strcmp(section, "intranode") == 0)
        return intranode_keys;
    if (strcmp(section, "fattree") == 0)
        return fattree_keys;
    return NULL;
}

/* "segment.N" with N a positive decimal number. */
static bool is_segment_key(const char *key) {
    if (!g_str_has_prefix(key, SEGMENT_PREFIX))
        return false;
    const char *n = key + strlen(SEGMENT_PREFIX);
    if (*n == '\0' || strlen(n) > 9)
        return false;
    for (const char *c = n; *c; c++)
        if (!g_ascii_isdigit(*c))
            return false;
    return true;
}

static bool known_key(const char *section, const char *key) {
    const char *const *keys = keys_of(section);
    for (int i = 0; keys && keys[i]; i++)
        if (strcmp(keys[i], key) == 0)
            return true;
    return strcmp(section, "network") == 0 && is_segment_key(key);
}

/* "a, b, c" for the "unknown key" message. */
static char *key_list(const char *section) {
    GString *s = g_string_new(NULL);
    const char *const *keys = keys_of(section);
    for (int i = 0; keys[i]; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", keys[i]);
    if (strcmp(section, "network") == 0)
        g_string_append(s, ", segment.N");
    return g_string_free(s, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Loading                                                                 */

typedef struct loader {
    const char *name; /* file name for messages */
    char *dir;        /* for relative hostfile paths */
    GKeyFile *kf;
    GHashTable *where;         /* "section\nkey" -> "FILE:LINE" or "--set ..." */
    GHashTable *overrides;     /* "section\nkey" set by --set */
    GHashTable *section_where; /* section -> "FILE:LINE" of its first header */
    pm_platform *p;
    GError **error;
} loader;

static char *slot(const char *section, const char *key) {
    return g_strdup_printf("%s\n%s", section, key);
}

static const char *where_of(loader *l, const char *section, const char *key) {
    char *k = slot(section, key);
    const char *w = g_hash_table_lookup(l->where, k);
    g_free(k);
    return w ? w : l->name;
}

static bool overridden(loader *l, const char *section, const char *key) {
    char *k = slot(section, key);
    bool o = g_hash_table_contains(l->overrides, k);
    g_free(k);
    return o;
}

/* Reports "WHERE: [section] key: problem" (or "WHERE: [section]: problem"
 * without a key) and returns false so callers can `return fail(...)`. */
G_GNUC_PRINTF(5, 6)
static bool fail(loader *l, int code, const char *section, const char *key, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (key)
        g_set_error(l->error, PM_PLATFORM_ERROR, code, "%s: [%s] %s: %s", where_of(l, section, key),
                    section, key, what);
    else
        g_set_error(l->error, PM_PLATFORM_ERROR, code, "%s: [%s]: %s", l->name, section, what);
    g_free(what);
    return false;
}

static bool known_section(const char *name) {
    for (size_t i = 0; i < G_N_ELEMENTS(known_sections); i++)
        if (strcmp(known_sections[i], name) == 0)
            return true;
    return false;
}

static bool unknown_section(loader *l, const char *where, const char *section) {
    g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_UNKNOWN,
                "%s: [%s]: unknown section (sections are: cluster, network, intranode, fattree)",
                where, section);
    return false;
}

static bool unknown_key(loader *l, const char *where, const char *section, const char *key) {
    char *keys = key_list(section);
    g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_UNKNOWN,
                "%s: [%s] %s: unknown key (keys of [%s] are: %s)", where, section, key, section,
                keys);
    g_free(keys);
    return false;
}

/* Pass 1: our own line scan (see the top of the file).  GKeyFile's rules:
 * leading white space is ignored, '#' starts a comment line, "[name]" opens
 * a group, anything else must be key=value with white space around both
 * trimmed. */
static bool scan(loader *l, const char *text) {
    char **lines = g_strsplit(text, "\n", -1);
    char *section = NULL;
    bool ok = true;
    for (int i = 0; ok && lines[i]; i++) {
        int lineno = i + 1;
        char *line = g_strstrip(lines[i]); /* also drops a '\r' */
        if (*line == '\0' || *line == '#')
            continue;
        char *here = g_strdup_printf("%s:%d", l->name, lineno);
        if (*line == '[') {
            size_t n = strlen(line);
            if (line[n - 1] != ']' || n < 3) {
                g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                            "%s: malformed section header \"%s\" (write e.g. [network])", here,
                            line);
                ok = false;
            } else {
                g_free(section);
                section = g_strndup(line + 1, n - 2);
                if (!known_section(section))
                    ok = unknown_section(l, here, section);
                else if (!g_hash_table_contains(l->section_where, section))
                    g_hash_table_insert(l->section_where, g_strdup(section), g_strdup(here));
            }
            g_free(here);
            continue;
        }
        char *eq = strchr(line, '=');
        if (eq == NULL || eq == line) {
            g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                        "%s: expected \"key = value\", a [section] header or a # comment, got "
                        "\"%s\"",
                        here, line);
            ok = false;
        } else {
            char *key = g_strstrip(g_strndup(line, (gsize)(eq - line)));
            if (section == NULL) {
                g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                            "%s: key \"%s\" before any [section] header", here, key);
                ok = false;
            } else if (!known_key(section, key)) {
                ok = unknown_key(l, here, section, key);
            } else {
                char *k = slot(section, key);
                const char *first = g_hash_table_lookup(l->where, k);
                if (first) {
                    g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                                "%s: [%s] %s: given twice (first at %s)", here, section, key,
                                first);
                    ok = false;
                    g_free(k);
                } else {
                    g_hash_table_insert(l->where, k, g_strdup(here));
                }
            }
            g_free(key);
        }
        g_free(here);
    }
    g_free(section);
    g_strfreev(lines);
    return ok;
}

/* Pass 3: one "section.key=value" override. */
static bool apply_override(loader *l, const char *arg) {
    char *where = g_strdup_printf("--set %s", arg);
    const char *eq = strchr(arg, '=');
    const char *dot = strchr(arg, '.');
    bool ok = false;
    if (eq == NULL || dot == NULL || dot > eq || dot == arg || dot + 1 == eq) {
        g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                    "%s: expected SECTION.KEY=VALUE, e.g. --set network.latency=5us", where);
        goto out;
    }
    char *section = g_strstrip(g_strndup(arg, (gsize)(dot - arg)));
    char *key = g_strstrip(g_strndup(dot + 1, (gsize)(eq - dot - 1)));
    char *value = g_strstrip(g_strdup(eq + 1));
    if (!known_section(section))
        unknown_section(l, where, section);
    else if (!known_key(section, key))
        unknown_key(l, where, section, key);
    else if (strchr(value, '\n'))
        g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                    "%s: [%s] %s: the value must be on one line", where, section, key);
    else {
        g_key_file_set_value(l->kf, section, key, value);
        g_hash_table_replace(l->where, slot(section, key), g_strdup(where));
        g_hash_table_add(l->overrides, slot(section, key));
        ok = true;
    }
    g_free(section);
    g_free(key);
    g_free(value);
out:
    g_free(where);
    return ok;
}

/* Raw value of a key, or NULL when absent.  Raw (not g_key_file_get_string)
 * because no value of ours needs GKeyFile's escapes, and a backslash in a
 * hostfile path must stay a backslash. */
static char *raw(loader *l, const char *section, const char *key) {
    if (!g_key_file_has_key(l->kf, section, key, NULL))
        return NULL;
    return g_key_file_get_value(l->kf, section, key, NULL);
}

/* true/yes or false/no, any case. */
static bool parse_bool(const char *v, bool *out) {
    bool t = g_ascii_strcasecmp(v, "true") == 0 || g_ascii_strcasecmp(v, "yes") == 0;
    if (!t && g_ascii_strcasecmp(v, "false") != 0 && g_ascii_strcasecmp(v, "no") != 0)
        return false;
    *out = t;
    return true;
}

/* A true/false key; `meaning` explains both values in the error. */
static bool get_bool(loader *l, const char *section, const char *key, const char *meaning,
                     bool *out) {
    char *v = raw(l, section, key);
    if (!v)
        return true;
    bool ok = parse_bool(v, out);
    if (!ok)
        fail(l, PM_PLATFORM_ERROR_VALUE, section, key, "must be %s, got \"%s\"", meaning, v);
    g_free(v);
    return ok;
}

static bool get_int(loader *l, const char *section, const char *key, int min, int max, int *out,
                    bool *present) {
    char *v = raw(l, section, key);
    *present = v != NULL;
    if (!v)
        return true;
    char *end = NULL;
    errno = 0;
    gint64 n = g_ascii_strtoll(v, &end, 10);
    bool ok = end != v && *end == '\0' && errno == 0 && n >= min && n <= max;
    if (ok)
        *out = (int)n;
    else
        fail(l, PM_PLATFORM_ERROR_VALUE, section, key,
             "must be a whole number from %d to %d, got \"%s\"", min, max, v);
    g_free(v);
    return ok;
}

/* What is wrong with time t (text v) as a value from 0 to max (max
 * written as max_text), or NULL. */
static char *time_problem(double t, const char *v, double max, const char *max_text) {
    if (!(t >= 0))
        return g_strdup_printf("must not be negative, got \"%s\"", v);
    if (!(t <= max))
        return g_strdup_printf("must be at most %s, got \"%s\"", max_text, v);
    return NULL;
}

/* What is wrong with bandwidth b (text v), or NULL. */
static char *bandwidth_problem(double b, const char *v) {
    if (!(b > 0))
        return g_strdup_printf("must be positive, got \"%s\"", v);
    if (!(b >= MIN_BANDWIDTH && b <= MAX_BANDWIDTH))
        return g_strdup_printf("must be from 1Bps to 1000TBps, got \"%s\"", v);
    return NULL;
}

/* A time from 0 to max (written max_text in messages). */
static bool get_time_to(loader *l, const char *section, const char *key, double max,
                        const char *max_text, double *out, bool *present) {
    char *v = raw(l, section, key);
    *present = v != NULL;
    if (!v)
        return true;
    char *problem = NULL;
    double t = 0;
    bool ok = pm_parse_time(v, &t, &problem) && !(problem = time_problem(t, v, max, max_text));
    if (!ok)
        fail(l, PM_PLATFORM_ERROR_VALUE, section, key, "%s", problem);
    else
        *out = t;
    g_free(problem);
    g_free(v);
    return ok;
}

/* A time from 0 to MAX_TIME. */
static bool get_time(loader *l, const char *section, const char *key, double *out, bool *present) {
    return get_time_to(l, section, key, MAX_TIME, "1000s", out, present);
}

/* A time per byte, from 0 to MAX_TIME_PER_BYTE. */
static bool get_time_per_byte(loader *l, const char *section, const char *key, double *out,
                              bool *present) {
    return get_time_to(l, section, key, MAX_TIME_PER_BYTE, "1s (per byte)", out, present);
}

/* A bandwidth from MIN_BANDWIDTH to MAX_BANDWIDTH. */
static bool get_bandwidth(loader *l, const char *section, const char *key, double *out,
                          bool *present) {
    char *v = raw(l, section, key);
    *present = v != NULL;
    if (!v)
        return true;
    char *problem = NULL;
    double b = 0;
    bool ok = pm_parse_bandwidth(v, &b, &problem) && !(problem = bandwidth_problem(b, v));
    if (!ok)
        fail(l, PM_PLATFORM_ERROR_VALUE, section, key, "%s", problem);
    else
        *out = b;
    g_free(problem);
    g_free(v);
    return ok;
}

/* A size of at most max bytes (written max_text in messages). */
static bool get_size(loader *l, const char *section, const char *key, uint64_t max,
                     const char *max_text, uint64_t *out, bool *present) {
    char *v = raw(l, section, key);
    *present = v != NULL;
    if (!v)
        return true;
    char *problem = NULL;
    uint64_t n = 0;
    bool ok = pm_parse_size(v, &n, &problem);
    if (!ok)
        fail(l, PM_PLATFORM_ERROR_VALUE, section, key, "%s", problem);
    else if (n > max)
        ok = fail(l, PM_PLATFORM_ERROR_VALUE, section, key, "must be at most %s, got \"%s\"",
                  max_text, v);
    else
        *out = n;
    g_free(problem);
    g_free(v);
    return ok;
}

static bool missing(loader *l, const char *section, const char *key, const char *hint) {
    return fail(l, PM_PLATFORM_ERROR_MISSING, section, key, "missing%s%s", hint ? "; " : "",
                hint ? hint : "");
}

/* One segment.N value: "FROM-SIZE LATENCY BANDWIDTH". */
static bool parse_segment(loader *l, const char *key, pm_platform_segment *seg) {
    char *v = raw(l, "network", key);
    char **tok = g_strsplit_set(v, " \t", -1);
    const char *parts[3];
    int n = 0;
    for (int i = 0; tok[i]; i++)
        if (*tok[i]) {
            if (n < 3)
                parts[n] = tok[i];
            n++;
        }
    bool ok = false;
    char *problem = NULL;
    if (n != 3)
        fail(l, PM_PLATFORM_ERROR_VALUE, "network", key,
             "expected \"FROM-SIZE LATENCY BANDWIDTH\" such as \"1KiB 2us 9GBps\", got \"%s\"", v);
    else if (!pm_parse_size(parts[0], &seg->from, &problem) ||
             !pm_parse_time(parts[1], &seg->latency, &problem) ||
             !pm_parse_bandwidth(parts[2], &seg->bandwidth, &problem))
        fail(l, PM_PLATFORM_ERROR_VALUE, "network", key, "%s", problem);
    else if ((problem = time_problem(seg->latency, parts[1], MAX_TIME, "1000s")))
        fail(l, PM_PLATFORM_ERROR_VALUE, "network", key, "the latency %s", problem);
    else if ((problem = bandwidth_problem(seg->bandwidth, parts[2])))
        fail(l, PM_PLATFORM_ERROR_VALUE, "network", key, "the bandwidth %s", problem);
    else
        ok = true;
    g_free(problem);
    g_strfreev(tok);
    g_free(v);
    return ok;
}

typedef struct named_segment {
    pm_platform_segment seg;
    char *key;
} named_segment;

static int by_from(const void *a, const void *b) {
    const named_segment *x = a, *y = b;
    return x->seg.from < y->seg.from ? -1 : x->seg.from > y->seg.from;
}

static bool load_network(loader *l) {
    pm_platform *p = l->p;
    bool have;

    char *topo = raw(l, "network", "topology");
    p->topology = PM_PLATFORM_CROSSBAR;
    if (topo) {
        bool ok = true;
        if (strcmp(topo, "fattree") == 0)
            p->topology = PM_PLATFORM_FATTREE;
        else if (strcmp(topo, "crossbar") != 0)
            ok = fail(l, PM_PLATFORM_ERROR_VALUE, "network", "topology",
                      "must be crossbar or fattree, got \"%s\"", topo);
        g_free(topo);
        if (!ok)
            return false;
    }

    double latency = 0, bandwidth = 0;
    bool have_latency, have_bandwidth;
    if (!get_time(l, "network", "latency", &latency, &have_latency) ||
        !get_bandwidth(l, "network", "bandwidth", &bandwidth, &have_bandwidth))
        return false;

    /* Segments, in size order whatever their numbers. */
    GArray *segs = g_array_new(FALSE, TRUE, sizeof(named_segment));
    gsize nkeys = 0;
    char **keys = g_key_file_get_keys(l->kf, "network", &nkeys, NULL);
    bool ok = true;
    for (gsize i = 0; ok && keys && i < nkeys; i++) {
        if (!is_segment_key(keys[i]))
            continue;
        named_segment ns = {.key = keys[i]};
        ok = parse_segment(l, keys[i], &ns.seg);
        if (ok)
            g_array_append_val(segs, ns);
    }
    if (ok && segs->len > 0) {
        g_array_sort(segs, by_from);
        named_segment *s = (named_segment *)(void *)segs->data;
        if (s[0].seg.from != 0)
            ok = fail(l, PM_PLATFORM_ERROR_VALUE, "network", s[0].key,
                      "the smallest segment must start at 0B so that every message size has "
                      "one (it starts at %" G_GUINT64_FORMAT " bytes)",
                      s[0].seg.from);
        for (guint i = 1; ok && i < segs->len; i++)
            if (s[i].seg.from == s[i - 1].seg.from)
                ok = fail(l, PM_PLATFORM_ERROR_VALUE, "network", s[i].key,
                          "starts at %" G_GUINT64_FORMAT " bytes like %s", s[i].seg.from,
                          s[i - 1].key);
    }
    if (ok && segs->len == 0) {
        if (!have_latency)
            ok = missing(l, "network", "latency", "give latency and bandwidth, or segment.N keys");
        else if (!have_bandwidth)
            ok =
                missing(l, "network", "bandwidth", "give latency and bandwidth, or segment.N keys");
        else {
            named_segment ns = {.seg = {0, latency, bandwidth}, .key = NULL};
            g_array_append_val(segs, ns);
        }
    }
    if (ok) {
        p->nsegments = (int)segs->len;
        p->segments = g_new(pm_platform_segment, p->nsegments);
        for (int i = 0; i < p->nsegments; i++) {
            p->segments[i] = g_array_index(segs, named_segment, i).seg;
            /* With segments, latency and bandwidth in the file are only the
             * flat fit and are ignored; given on the command line they mean
             * "this latency (bandwidth) at every size" and so replace that
             * column of every segment. */
            if (have_latency && overridden(l, "network", "latency"))
                p->segments[i].latency = latency;
            if (have_bandwidth && overridden(l, "network", "bandwidth"))
                p->segments[i].bandwidth = bandwidth;
        }
        p->max_bandwidth = 0;
        for (int i = 0; i < p->nsegments; i++)
            p->max_bandwidth = fmax(p->max_bandwidth, p->segments[i].bandwidth);
    }
    g_strfreev(keys);
    g_array_free(segs, TRUE);
    if (!ok)
        return false;

    p->eager_limit = DEFAULT_EAGER_LIMIT;
    if (!get_size(l, "network", "eager_limit", MAX_EAGER_LIMIT, "1TiB", &p->eager_limit, &have))
        return false;
    /* A rendezvous message's extra cost by default: one more round trip
     * (request to send, clear to send) at the smallest messages' latency.
     * There is a segment: no segment and no latency and bandwidth failed. */
    g_assert(p->nsegments > 0);
    p->rendezvous_handshake = 2 * p->segments[0].latency;
    if (!get_time(l, "network", "rendezvous_handshake", &p->rendezvous_handshake, &have) ||
        !get_time(l, "network", "send_overhead", &p->send_overhead, &have) ||
        !get_time_per_byte(l, "network", "send_overhead_per_byte", &p->send_overhead_per_byte,
                           &have) ||
        !get_time(l, "network", "recv_overhead", &p->recv_overhead, &have) ||
        !get_time_per_byte(l, "network", "recv_overhead_per_byte", &p->recv_overhead_per_byte,
                           &have))
        return false;
    p->async_progress = false;
    return get_bool(l, "network", "async_progress",
                    "true (a rendezvous message moves while its receiver computes: a progress "
                    "thread or offloading hardware) or false (only while the receiver is in an "
                    "MPI call, as by default in MPICH and Open MPI)",
                    &p->async_progress);
}

static bool load_intranode(loader *l) {
    pm_platform *p = l->p;
    bool have_latency, have_bandwidth;
    if (!get_time(l, "intranode", "latency", &p->intranode_latency, &have_latency) ||
        !get_bandwidth(l, "intranode", "bandwidth", &p->intranode_bandwidth, &have_bandwidth))
        return false;
    /* Half a shared-memory model would silently mix with the network's. */
    if (have_latency && !have_bandwidth)
        return missing(l, "intranode", "bandwidth", "give both latency and bandwidth, or neither");
    if (have_bandwidth && !have_latency)
        return missing(l, "intranode", "latency", "give both latency and bandwidth, or neither");
    p->intranode = have_latency;
    return true;
}

static bool load_fattree(loader *l) {
    pm_platform *p = l->p;
    bool have_npl, have_up;
    if (!get_int(l, "fattree", "nodes_per_leaf", 1, MAX_NODES, &p->nodes_per_leaf, &have_npl) ||
        !get_bandwidth(l, "fattree", "uplink_bandwidth", &p->uplink_bandwidth, &have_up))
        return false;
    if (p->topology != PM_PLATFORM_FATTREE)
        return true; /* [fattree] may stay when --set switches to a crossbar */
    if (!have_npl)
        return missing(l, "fattree", "nodes_per_leaf", "topology = fattree needs it");
    if (!have_up)
        return missing(l, "fattree", "uplink_bandwidth", "topology = fattree needs it");
    p->leaves = (p->nodes + p->nodes_per_leaf - 1) / p->nodes_per_leaf;
    return true;
}

/* Reads a hostfile: one host name per line, '#' comment lines and blank
 * lines skipped.  Fills nodes, node_names and slots. */
static bool read_hostfile(loader *l, const char *path) {
    pm_platform *p = l->p;
    char *text = NULL, *why = NULL;
    size_t len;
    if (!util_read_regular(path, PM_PLATFORM_MAX_BYTES, &text, &len, &why)) {
        bool r = fail(l, PM_PLATFORM_ERROR_READ, "cluster", "hostfile", "cannot read \"%s\": %s",
                      path, why);
        g_free(why);
        return r;
    }
    GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *names = g_ptr_array_new();
    GArray *slots = g_array_new(FALSE, FALSE, sizeof(int));
    char **lines = g_strsplit(text, "\n", -1);
    bool ok = true;
    for (int i = 0; ok && lines[i]; i++) {
        char *line = g_strstrip(lines[i]);
        if (*line == '\0' || *line == '#')
            continue;
        if (strpbrk(line, " \t")) {
            g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                        "%s:%d: expected one host name per line, got \"%s\"", path, i + 1, line);
            ok = false;
            break;
        }
        gpointer node;
        if (!g_hash_table_lookup_extended(index, line, NULL, &node)) {
            node = GINT_TO_POINTER((int)names->len);
            g_ptr_array_add(names, g_strdup(line));
            g_hash_table_insert(index, g_ptr_array_index(names, names->len - 1), node);
        }
        int n = GPOINTER_TO_INT(node);
        g_array_append_val(slots, n);
    }
    if (ok && slots->len == 0) {
        g_set_error(l->error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_VALUE,
                    "%s: the hostfile names no host (one host name per line)", path);
        ok = false;
    }
    if (ok) {
        p->nodes = (int)names->len;
        g_ptr_array_add(names, NULL);
        p->node_names = (char **)g_ptr_array_free(names, FALSE);
        p->nslots = (int)slots->len;
        p->slots = (int *)(void *)g_array_free(slots, FALSE);
    } else {
        g_ptr_array_set_free_func(names, g_free);
        g_ptr_array_free(names, TRUE);
        g_array_free(slots, TRUE);
    }
    g_strfreev(lines);
    g_hash_table_destroy(index);
    g_free(text);
    return ok;
}

static bool load_cluster(loader *l) {
    pm_platform *p = l->p;
    bool have;

    char *hostfile = raw(l, "cluster", "hostfile");
    char *mapping = raw(l, "cluster", "mapping");
    bool ok = true;
    /* A hostfile alone implies mapping = hostfile. */
    p->mapping = hostfile ? PM_PLATFORM_MAP_HOSTFILE : PM_PLATFORM_MAP_BLOCK;
    if (mapping) {
        if (strcmp(mapping, "block") == 0)
            p->mapping = PM_PLATFORM_MAP_BLOCK;
        else if (strcmp(mapping, "round-robin") == 0)
            p->mapping = PM_PLATFORM_MAP_ROUND_ROBIN;
        else if (strcmp(mapping, "hostfile") == 0)
            p->mapping = PM_PLATFORM_MAP_HOSTFILE;
        else
            ok = fail(l, PM_PLATFORM_ERROR_VALUE, "cluster", "mapping",
                      "must be block, round-robin or hostfile, got \"%s\"", mapping);
    }
    if (ok && p->mapping == PM_PLATFORM_MAP_HOSTFILE) {
        if (!hostfile)
            ok = missing(l, "cluster", "hostfile", "mapping = hostfile needs hostfile = PATH");
        else {
            bool relative_to_file =
                !g_path_is_absolute(hostfile) && !overridden(l, "cluster", "hostfile");
            p->hostfile =
                relative_to_file ? g_build_filename(l->dir, hostfile, NULL) : g_strdup(hostfile);
            ok = read_hostfile(l, p->hostfile);
        }
    }
    g_free(hostfile);
    g_free(mapping);
    if (!ok)
        return false;

    int nodes = 0;
    if (!get_int(l, "cluster", "nodes", 1, MAX_NODES, &nodes, &have))
        return false;
    if (p->mapping == PM_PLATFORM_MAP_HOSTFILE) {
        if (have && nodes != p->nodes)
            return fail(l, PM_PLATFORM_ERROR_VALUE, "cluster", "nodes",
                        "%d, but hostfile %s names %d distinct host%s; remove nodes or make them "
                        "agree",
                        nodes, p->hostfile, p->nodes, p->nodes == 1 ? "" : "s");
    } else {
        if (!have)
            return missing(l, "cluster", "nodes", NULL);
        p->nodes = nodes;
        p->node_names = g_new0(char *, p->nodes + 1);
        for (int i = 0; i < p->nodes; i++)
            p->node_names[i] = g_strdup_printf("node%d", i);
    }

    if (!get_int(l, "cluster", "cores_per_node", 1, MAX_CORES, &p->cores_per_node, &have))
        return false;
    if (!have)
        return missing(l, "cluster", "cores_per_node", NULL);

    p->speed = 1.0;
    char *speed = raw(l, "cluster", "speed");
    if (speed) {
        char *end = NULL;
        double s = g_ascii_strtod(speed, &end);
        ok = end != speed && *end == '\0' && isfinite(s) && s > 0;
        if (ok && !(s >= MIN_SPEED && s <= MAX_SPEED))
            ok = fail(l, PM_PLATFORM_ERROR_VALUE, "cluster", "speed",
                      "must be from 0.000001 to 1000000 (2 = twice as fast as this machine), got "
                      "\"%s\"",
                      speed);
        else if (ok)
            p->speed = s;
        else
            fail(l, PM_PLATFORM_ERROR_VALUE, "cluster", "speed",
                 "must be a positive number (2 = twice as fast as this machine), got \"%s\"",
                 speed);
        g_free(speed);
        if (!ok)
            return false;
    }

    p->oversubscribe = 1.0;
    char *over = raw(l, "cluster", "oversubscribe");
    if (over) {
        char *end = NULL;
        double limit = g_ascii_strtod(over, &end);
        bool yes;
        if (parse_bool(over, &yes))
            p->oversubscribe = yes ? INFINITY : 1.0;
        else if (end != over && *end == '\0' && isfinite(limit) && limit >= 1)
            p->oversubscribe = limit;
        else
            ok = fail(l, PM_PLATFORM_ERROR_VALUE, "cluster", "oversubscribe",
                      "must be true, false or a limit of ranks per core (a number >= 1), got "
                      "\"%s\"",
                      over);
        g_free(over);
        if (!ok)
            return false;
    }
    p->busy_wait = true;
    if (!get_bool(l, "cluster", "busy_wait",
                  "true (ranks poll while they wait, as MPICH's and Open MPI's do) or false "
                  "(they sleep)",
                  &p->busy_wait))
        return false;
    p->timeslice = DEFAULT_TIMESLICE;
    if (!get_time(l, "cluster", "timeslice", &p->timeslice, &have))
        return false;

    /* Where the limit comes from, for the error pm_platform_map reports
     * long after loading: the key, else the [cluster] header, else the file. */
    char *k = slot("cluster", "oversubscribe");
    const char *w = g_hash_table_lookup(l->where, k);
    g_free(k);
    if (!w)
        w = g_hash_table_lookup(l->section_where, "cluster");
    p->oversubscribe_where = g_strdup(w ? w : l->name);
    return true;
}

static pm_platform *load_checked(const char *name, const char *text, const char *const *overrides,
                                 GError **error);

/* Messages echo values, keys and file names the user wrote: each is made
 * one printable line (a --set value with a newline gave two). */
static pm_platform *load(const char *name, const char *text, const char *const *overrides,
                         GError **error) {
    GError *e = NULL;
    pm_platform *p = load_checked(name, text, overrides, &e);
    if (e) {
        char *line = util_printable(e->message);
        g_free(e->message);
        e->message = line;
        g_propagate_error(error, e);
    }
    return p;
}

static pm_platform *load_checked(const char *name, const char *text, const char *const *overrides,
                                 GError **error) {
    loader l = {
        .name = name,
        .dir = g_path_get_dirname(name),
        .kf = g_key_file_new(),
        .where = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
        .overrides = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
        .section_where = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
        .p = g_new0(pm_platform, 1),
        .error = error,
    };
    l.p->source = g_strdup(name);
    bool ok = scan(&l, text);
    if (ok) {
        GError *e = NULL;
        ok = g_key_file_load_from_data(l.kf, text, (gsize)-1, G_KEY_FILE_NONE, &e);
        if (!ok) {
            g_set_error(error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX, "%s: %s", name,
                        e->message);
            g_error_free(e);
        }
    }
    for (int i = 0; ok && overrides && overrides[i]; i++)
        ok = apply_override(&l, overrides[i]);
    /* Cluster first: the fat tree's leaf count needs the node count. */
    ok = ok && load_cluster(&l) && load_network(&l) && load_intranode(&l) && load_fattree(&l);

    g_free(l.dir);
    g_key_file_free(l.kf);
    g_hash_table_destroy(l.where);
    g_hash_table_destroy(l.overrides);
    g_hash_table_destroy(l.section_where);
    if (!ok) {
        pm_platform_free(l.p);
        return NULL;
    }
    return l.p;
}

pm_platform *pm_platform_load_data(const char *name, const char *text, const char *const *overrides,
                                   GError **error) {
    g_return_val_if_fail(name != NULL && text != NULL, NULL);
    return load(name, text, overrides, error);
}

pm_platform *pm_platform_load(const char *path, const char *const *overrides, GError **error) {
    g_return_val_if_fail(path != NULL, NULL);
    char *text = NULL, *why = NULL;
    size_t len = 0;
    char *shown = util_printable(path);
    if (!util_read_regular(path, PM_PLATFORM_MAX_BYTES, &text, &len, &why)) {
        g_set_error(error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_READ,
                    "%s: cannot read the platform file: %s", shown, why);
        g_free(why);
        g_free(shown);
        return NULL;
    }
    pm_platform *p = NULL;
    if (memchr(text, '\0', len))
        g_set_error(error, PM_PLATFORM_ERROR, PM_PLATFORM_ERROR_SYNTAX,
                    "%s: not a platform file (it contains NUL bytes)", shown);
    else
        p = load(path, text, overrides, error);
    g_free(text);
    g_free(shown);
    return p;
}

void pm_platform_free(pm_platform *p) {
    if (!p)
        return;
    g_free(p->source);
    g_free(p->hostfile);
    g_strfreev(p->node_names);
    g_free(p->slots);
    g_free(p->segments);
    g_free(p->oversubscribe_where);
    g_free(p);
}
