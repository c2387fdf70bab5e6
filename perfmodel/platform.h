/*
 * platform.h - the cluster a performance prediction simulates, read from a
 * platform file (INI, GLib's GKeyFile) with command-line overrides.
 *
 * The format is documented in docs/platform.md and by the commented examples
 * examples/platforms/cluster.ini and examples/platforms/fattree.ini.  In
 * short:
 *
 *   [cluster]   nodes, cores_per_node, mapping (block|round-robin|hostfile),
 *               hostfile, speed, oversubscribe (false|true|max ranks per core),
 *               busy_wait, timeslice
 *   [network]   topology (crossbar|fattree), latency, bandwidth, eager_limit,
 *               rendezvous_handshake, send_overhead, send_overhead_per_byte,
 *               recv_overhead, recv_overhead_per_byte, async_progress,
 *               segment.N = FROM-SIZE LATENCY BANDWIDTH (piecewise-linear model)
 *   [intranode] latency, bandwidth
 *   [fattree]   nodes_per_leaf, uplink_bandwidth
 *
 * Every problem is reported as one line "WHERE: [section] key: problem" where
 * WHERE is "FILE:LINE" for a key of the file, "FILE" for a missing key and
 * "--set section.key=value" for an override.  Unknown sections and keys are
 * errors (a misspelt key must not silently fall back to a default).
 *
 * Units: sizes, times and bandwidths are read by perfmodel/units.h, the
 * same grammar as the command line's size options.  Every value is then
 * checked against the range a machine could have (docs/platform.md,
 * "Ranges"), so that every simulated time stays finite.
 *
 * All times are in seconds, bandwidths in bytes per second, sizes in bytes.
 * The module has no state besides the pm_platform values it returns.
 */
#ifndef ORDEX_PM_PLATFORM_H
#define ORDEX_PM_PLATFORM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define PM_PLATFORM_ERROR (pm_platform_error_quark())
GQuark pm_platform_error_quark(void);

typedef enum {
    PM_PLATFORM_ERROR_READ,           /* the platform file or hostfile cannot be read */
    PM_PLATFORM_ERROR_SYNTAX,         /* not an INI line, or a malformed --set */
    PM_PLATFORM_ERROR_UNKNOWN,        /* unknown section or key */
    PM_PLATFORM_ERROR_VALUE,          /* a value that does not parse or is out of range */
    PM_PLATFORM_ERROR_MISSING,        /* a required key is absent */
    PM_PLATFORM_ERROR_OVERSUBSCRIBED, /* more ranks than the cores allow */
} pm_platform_error_code;

typedef enum {
    PM_PLATFORM_MAP_BLOCK,       /* fill node 0's cores, then node 1's, ... */
    PM_PLATFORM_MAP_ROUND_ROBIN, /* rank r on node r % nodes */
    PM_PLATFORM_MAP_HOSTFILE,    /* rank r on the host of hostfile line r (wrapping) */
} pm_platform_mapping;

typedef enum {
    PM_PLATFORM_CROSSBAR, /* one switch; each node has one full-duplex link */
    PM_PLATFORM_FATTREE,  /* leaf switches of nodes_per_leaf nodes under one spine */
} pm_platform_topology;

/* One piece of the piecewise-linear network model: a message of `from` bytes
 * or more (up to the next segment's `from`) costs latency + bytes / bandwidth
 * when alone on the network. */
typedef struct pm_platform_segment {
    uint64_t from;
    double latency;
    double bandwidth;
} pm_platform_segment;

/* A loaded platform.  Read-only for users of the module; free with
 * pm_platform_free. */
typedef struct pm_platform {
    char *source; /* file name as given (or the name passed to load_data) */

    /* [cluster] */
    int nodes; /* with a hostfile: the number of distinct hosts */
    int cores_per_node;
    pm_platform_mapping mapping;
    char *hostfile;    /* the path read (resolved), or NULL */
    char **node_names; /* nodes entries: the host names, or "node0", "node1", ... */
    int *slots;        /* hostfile mapping: node of each hostfile line */
    int nslots;
    double speed;         /* compute speed relative to this machine (2 = twice as fast) */
    double oversubscribe; /* max ranks per core: 1 = none allowed, INFINITY = unlimited */
    bool busy_wait;       /* ranks poll a core while they wait in MPI */
    double timeslice;     /* how long an oversubscribed core runs one rank before the next */

    /* [network] */
    pm_platform_topology topology;
    pm_platform_segment *segments; /* nsegments >= 1, sorted by from, segments[0].from == 0 */
    int nsegments;
    double max_bandwidth; /* the largest segment bandwidth: a node link's capacity */
    uint64_t eager_limit; /* messages of more bytes go by rendezvous */
    double rendezvous_handshake;
    double send_overhead, send_overhead_per_byte; /* CPU time of the sender */
    double recv_overhead, recv_overhead_per_byte; /* CPU time of the receiver */
    /* A rendezvous message moves while its receiver computes; when false,
     * only once the receiver is inside an MPI call (no progress thread). */
    bool async_progress;

    /* [intranode]: when intranode is false, messages between ranks of one
     * node use the network's segments (on the node's shared-memory link). */
    bool intranode;
    double intranode_latency, intranode_bandwidth;

    /* [fattree], meaningful when topology == PM_PLATFORM_FATTREE */
    int nodes_per_leaf;
    int leaves;              /* ceil(nodes / nodes_per_leaf) */
    double uplink_bandwidth; /* per leaf switch, each direction */

    /* Internal: where the oversubscription limit was set, for messages. */
    char *oversubscribe_where;
} pm_platform;

/* Loads a platform file and applies the overrides (NULL or a NULL-terminated
 * array of "section.key=value" strings, later ones win).  Returns NULL and
 * sets *error (PM_PLATFORM_ERROR) on any problem; the message is one line
 * naming the file, line, section and key.  A relative hostfile path in the
 * file is taken relative to the file's directory, one given by --set
 * relative to the current directory. */
/* The largest platform file or host file read. */
#define PM_PLATFORM_MAX_BYTES ((size_t)16 << 20)

pm_platform *pm_platform_load(const char *path, const char *const *overrides, GError **error);

/* The same from text already in memory; `name` stands for the file name in
 * messages and for resolving a relative hostfile. */
pm_platform *pm_platform_load_data(const char *name, const char *text, const char *const *overrides,
                                   GError **error);

void pm_platform_free(pm_platform *p);

/* The name (pm_platform.source) of the built-in platform. */
#define PM_PLATFORM_BUILTIN_NAME "built-in"

/* The text of the built-in platform, what `ordex predict` simulates without
 * --platform (g_free): this machine as one node with a core per online CPU,
 * oversubscription allowed, ranks polling while they wait, 4 ms time
 * slices, and messages through shared memory at 0.5 us + size / 10 GB/s with
 * an 8 KiB eager limit.  docs/platform.md shows it. */
char *pm_platform_builtin_text(void);

/* Loads the built-in platform with the overrides, as pm_platform_load loads
 * a file (messages name it PM_PLATFORM_BUILTIN_NAME). */
pm_platform *pm_platform_load_builtin(const char *const *overrides, GError **error);

/* Places nranks ranks on nodes: node_of_rank[r] (nranks entries, written by
 * the call) is in [0, p->nodes).  Fails with PM_PLATFORM_ERROR_OVERSUBSCRIBED
 * (naming [cluster] oversubscribe) when a node would get more than
 * cores_per_node * oversubscribe ranks.  nranks >= 1. */
bool pm_platform_map(const pm_platform *p, int nranks, int *node_of_rank, GError **error);

/* The segment that prices a message of `bytes` bytes (never NULL). */
const pm_platform_segment *pm_platform_segment_for(const pm_platform *p, uint64_t bytes);

/* Latency and per-message bandwidth cap of a message between two ranks of
 * the same node. */
void pm_platform_intranode_for(const pm_platform *p, uint64_t bytes, double *latency,
                               double *bandwidth);

/* Capacity of a node's shared-memory link: the intranode bandwidth, or the
 * network's largest bandwidth when [intranode] is not given. */
double pm_platform_shm_capacity(const pm_platform *p);

/* True when a standard-mode message of `bytes` bytes goes by rendezvous. */
bool pm_platform_is_rendezvous(const pm_platform *p, uint64_t bytes);

/* CPU time the sender (receiver) spends on a message of `bytes` bytes. */
double pm_platform_send_overhead(const pm_platform *p, uint64_t bytes);
double pm_platform_recv_overhead(const pm_platform *p, uint64_t bytes);

#endif
