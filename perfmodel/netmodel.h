/*
 * netmodel.h - event-driven flow model of the network: transfers share the
 * bandwidth of the links they cross max-min fairly.
 *
 * A transfer (a message's payload) first waits its latency: the latency of
 * its size's segment (or the intra-node latency), plus the rendezvous
 * handshake when it goes by rendezvous.  It then streams its bytes.  While
 * streaming it crosses a path of links; the rates of all streaming transfers
 * are the max-min fair allocation (progressive filling: every rate grows
 * together until a link is full or a transfer reaches its own cap; those
 * transfers keep that rate, the others keep growing), where each transfer's
 * cap is its segment's bandwidth.  Rates are recomputed whenever a transfer
 * starts streaming or finishes, so the model is exact between those events:
 * there is no time step.  A transfer alone takes exactly
 * latency + bytes / bandwidth.
 *
 * Links built from a platform (pm_net_new):
 *   crossbar: per node a tx link and an rx link (a full-duplex port on the
 *             switch), capacity = the platform's largest segment bandwidth;
 *             a message from a to b crosses tx(a), rx(b);
 *   fattree:  the same node links, plus per leaf switch an up link and a down
 *             link of capacity uplink_bandwidth; a message between leaves
 *             crosses tx(a), up(leaf a), down(leaf b), rx(b); the spine is
 *             not a bottleneck;
 *   per node a shared-memory link (capacity: the intranode bandwidth) that
 *   carries the messages between ranks of that node and nothing else.
 * Latency does not depend on the path (no per-hop latency).
 *
 * Driving it: start transfers with pm_net_start (or pm_net_start_path) at
 * non-decreasing times; pm_net_next_event says when the model's next event
 * happens and pm_net_next which transfer completes first if nothing else
 * starts; pm_net_advance moves the clock and returns the transfers
 * completed by then.  Completions that fall before a later start's time are
 * kept and returned by the next pm_net_advance, with their own times.
 * Times are seconds, sizes bytes, rates bytes per second.
 *
 * Cost: an event (a transfer starting to stream or finishing) re-rates only
 * the transfers connected to it through shared links, transitively, in
 * O((L + F) log L) for the L links and F transfers of that component.
 * pm_net_start is O(log n) plus the events it passes, as is
 * pm_net_advance; pm_net_next_event only reads a heap; pm_net_next copies the whole
 * state and runs ahead to the first completion, so a caller that steps
 * event by event should use pm_net_next_event.
 *
 * Not thread-safe; a pm_net keeps a pointer to its platform, which must
 * outlive it.
 */
#ifndef ORDEX_PM_NETMODEL_H
#define ORDEX_PM_NETMODEL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfmodel/platform.h"

/* Longest path pm_net_start_path accepts. */
#define PM_NET_MAX_PATH 8

typedef struct pm_net pm_net;

/* A transfer that finished, as pm_net_advance reports it. */
typedef struct pm_net_completion {
    uint64_t id;
    double time;
} pm_net_completion;

typedef enum {
    PM_NET_TX,   /* index: node */
    PM_NET_RX,   /* index: node */
    PM_NET_SHM,  /* index: node */
    PM_NET_UP,   /* index: leaf switch (fat tree only) */
    PM_NET_DOWN, /* index: leaf switch (fat tree only) */
} pm_net_link_kind;

/* Accounting of one link since the model was created. */
typedef struct pm_net_link_stats {
    const char *name; /* "node3.tx", "leaf1.up", "node0.shm", "link2" */
    double capacity;
    double bytes; /* carried so far */
    double busy;  /* seconds during which at least one transfer streamed over it */
} pm_net_link_stats;

/* The links of the platform's topology (see above). */
pm_net *pm_net_new(const pm_platform *platform);

/* Bare links, for models that are not a platform (and for tests): nlinks
 * links with the given capacities (each positive and finite), named
 * "link0", "link1", ... .  Only pm_net_start_path applies to such a model. */
pm_net *pm_net_new_links(int nlinks, const double *capacity);

void pm_net_free(pm_net *net);

/* Starts a message of `bytes` bytes from src_node to dst_node (equal for an
 * intra-node message) at `time` (>= pm_net_now).  Returns its id (> 0), or
 * 0 when a contract is broken. */
uint64_t pm_net_start(pm_net *net, double time, int src_node, int dst_node, uint64_t bytes,
                       bool rendezvous);

/* Starts a transfer over an explicit path of distinct links (npath from 0 to
 * PM_NET_MAX_PATH; with no link, max_rate must be finite).  It streams
 * after `latency` seconds at a rate of at most max_rate (INFINITY: no cap).
 * Returns its id (> 0), or 0 when a contract is broken. */
uint64_t pm_net_start_path(pm_net *net, double time, const int *path, int npath, double latency,
                            double max_rate, uint64_t bytes);

/* The transfer that completes first if nothing more starts, and when
 * (the earliest id on a tie).  False when no transfer is in progress. */
bool pm_net_next(pm_net *net, uint64_t *id, double *time);

/* When the model's next internal event happens if nothing more starts: a transfer ends its latency
 * and starts streaming, or finishes.  Advancing to that time processes it (completions, if any, are
 * returned by pm_net_advance).  False when nothing is in progress.  O(log n).
 * When completions that fell before a later start are waiting to be returned, it is pm_net_now. */
bool pm_net_next_event(pm_net *net, double *time);

/* Moves the clock to `time` (finite, >= pm_net_now) and appends every transfer
 * completed at or before it to `done` (a GArray of pm_net_completion), in
 * completion order.  Returns how many it appended. */
int pm_net_advance(pm_net *net, double time, GArray *done);

double pm_net_now(const pm_net *net);

/* Transfers started and not yet returned by pm_net_advance. */
int pm_net_pending(const pm_net *net);

/* The rate at which a transfer streams now (as of the last event processed:
 * a start or pm_net_advance): 0 while it waits its latency, a negative value
 * when the id is not in progress. */
double pm_net_rate(const pm_net *net, uint64_t id);

int pm_net_nlinks(const pm_net *net);

/* The index of a platform model's link, or -1 when there is no such link. */
int pm_net_link(const pm_net *net, pm_net_link_kind kind, int index);

/* Accounting of link `link` (0 <= link < nlinks) up to pm_net_now. */
void pm_net_link_stats_get(const pm_net *net, int link, pm_net_link_stats *out);

/* The most loaded link: the largest bytes / capacity (the time it would
 * have been saturated), lowest index on a tie; -1 when nothing was sent. */
int pm_net_busiest_link(const pm_net *net);

#endif
