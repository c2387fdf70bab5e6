/*
 * timeline.h - a predicted run as pictures and traces: what each rank was
 * doing when (computing, or inside which MPI call), the messages between
 * ranks, and the sensitivity of the predicted time to platform parameters.
 *
 * The module only renders: whoever predicts the run fills an out_timeline
 * and asks for one or more of
 *
 *   - a Chrome trace (the Trace Event Format JSON that chrome://tracing and
 *     Perfetto load): one thread per rank, one complete event per span, one
 *     flow arrow per message;
 *   - an SVG Gantt chart: one row per rank, one colour per kind of span;
 *   - an SVG plot of a parameter sweep: predicted time against each swept
 *     parameter.
 *
 * All times are in seconds of simulated time, counted from the start of the
 * run (0).  Every writer reports a file it cannot write as a G_FILE_ERROR
 * whose message ("cannot write PATH: REASON") names the path and the
 * system's reason, and then leaves no partial regular file behind.
 */
#ifndef ORDEX_OUT_TIMELINE_H
#define ORDEX_OUT_TIMELINE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* What a rank is doing during a span.  The order is the legend's order. */
typedef enum out_tl_kind {
    ORDEX_TL_COMPUTE,    /* between MPI calls */
    ORDEX_TL_SEND,       /* in a point-to-point send */
    ORDEX_TL_RECV,       /* in a receive or probe */
    ORDEX_TL_SENDRECV,   /* in MPI_Sendrecv(_replace): sending and receiving at once */
    ORDEX_TL_WAIT,       /* completing requests (MPI_Wait*, MPI_Test*) */
    ORDEX_TL_COLLECTIVE, /* in a collective, communicator creation included */
    ORDEX_TL_OTHER,      /* any other MPI call */
    ORDEX_TL_KIND_COUNT
} out_tl_kind;

typedef struct out_tl_span {
    int rank;
    double start, end; /* 0 <= start <= end */
    out_tl_kind kind;
    const char *name; /* "compute", "MPI_Send", ...; owned by the timeline */
} out_tl_span;

typedef struct out_tl_message {
    int src, dst;
    double sent, arrived; /* the send started / the data was at the receiver */
    uint64_t bytes;
} out_tl_message;

/* Read the fields freely; change them only through the functions below
 * (makespan excepted: a caller may raise it, e.g. to the end of
 * MPI_Finalize, and the pictures then extend to it). */
typedef struct out_timeline {
    int nranks;
    GArray *spans;       /* of out_tl_span, in the order added */
    GArray *messages;    /* of out_tl_message, in the order added */
    char **rank_labels;  /* nranks entries; NULL where unset, shown as "rank N" */
    double makespan;     /* the latest span end or arrival added */
    GStringChunk *names; /* storage of the span names and labels */
} out_timeline;

/* An empty timeline of nranks (>= 0) ranks. */
out_timeline *out_tl_new(int nranks);
void out_tl_free(out_timeline *t);

/* Labels a rank ("rank 3 (node1)"); the text is copied.  NULL restores the
 * default.  False if the rank does not exist. */
bool out_tl_set_rank_label(out_timeline *t, int rank, const char *label);

/* Adds a span; name (copied) may be NULL for the kind's name.  False, and
 * nothing added, for a rank that does not exist, a time that is negative or
 * not finite, end < start, or a kind out of range. */
bool out_tl_add_span(out_timeline *t, int rank, double start, double end, out_tl_kind kind,
                     const char *name);

/* Adds a message.  False, and nothing added, for a rank that does not exist,
 * a time that is negative or not finite, or arrived < sent. */
bool out_tl_add_message(out_timeline *t, int src, int dst, double sent, double arrived,
                        uint64_t bytes);

/* "compute", "send", "recv", "sendrecv", "wait", "collective", "other"; "?"
 * out of range.
 * The Chrome trace uses these as event categories. */
const char *out_tl_kind_name(out_tl_kind kind);

/* The kind of time spent in an MPI function, by name ("MPI_Isend"; the
 * PMPI_ spelling and MPI-4's large-count "_c" suffix are accepted):
 *   SEND        Send, Isend, Ssend, Issend, Bsend, Ibsend, Rsend, Irsend
 *   RECV        Recv, Irecv, Probe, Iprobe, Mprobe, Improbe, Mrecv, Imrecv
 *   SENDRECV    Sendrecv, Sendrecv_replace (their time is mostly the wait for
 *               the message they receive, neither a send's nor a receive's)
 *   WAIT        Wait*, Test*
 *   COLLECTIVE  Barrier, Bcast, Gather(v), Scatter(v), Allgather(v),
 *               Alltoall(v,w), Reduce, Allreduce, Reduce_scatter(_block),
 *               Scan, Exscan, Neighbor_allgather(v), Neighbor_alltoall(v,w)
 *               and the nonblocking I-variant of each; Comm_split(_type),
 *               Comm_dup(_with_info), Comm_idup, Comm_create(_group),
 *               Cart_create, Cart_sub, Graph_create, Dist_graph_create
 *               (_adjacent), Intercomm_create, Intercomm_merge
 *   OTHER       everything else, NULL and names without the MPI_ prefix */
out_tl_kind out_tl_kind_of_call(const char *mpi_call);

/* Writes the Chrome trace: {"traceEvents":[...],"displayTimeUnit":"ns"}.
 * Events, one a line: metadata naming the process and each rank's thread
 * (the rank label, or "rank N"); per span a complete event
 *   {"name":NAME,"cat":KIND,"ph":"X","ts":US,"dur":US,"pid":0,"tid":RANK}
 * with microseconds printed to 6 decimals (the picosecond), trailing zeros
 * dropped (a span from 1.5 us to 4 us has "ts":1.5,"dur":2.5); per message
 * a flow start ("ph":"s") on the sender at `sent` and a flow end
 * ("ph":"f","bp":"e") on the receiver at `arrived`, both named and
 * categorised "message" with the same "id" (the message's index + 1) and
 * args {"bytes":B,"src":S,"dst":D}. */
bool out_tl_write_chrome(const out_timeline *t, const char *path, GError **error);

/* Writes the SVG Gantt chart; title may be NULL.  Layout: 1200 px wide; a
 * header with the title, a summary line and a legend of the kinds present;
 * a time axis from 0 to a nice value >= makespan with one grid line per
 * tick; one row per rank, 20 px high up to 32 ranks, 10 up to 128, 6 up to
 * 256 and 3 beyond (labels then on every few rows only).  Elements are
 * grouped: <g id="legend">, <g id="axis">, <g id="labels">, <g id="spans">,
 * <g id="messages">.
 *
 * To keep large runs small, a span at least 0.5 px wide is one <rect>; runs
 * of narrower spans on one rank merge into one <rect>, with the colour of
 * the kind that covers most of the run: a run of one kind merges for any
 * length, a run of mixed kinds until it is 1 px wide; a gap of 0.5 px or
 * more ends a run.  A rectangle is at least 0.5 px wide.  With at most 20000
 * spans, each rectangle is a <rect class="kK"> (K: the kind's number) with a
 * <title> tooltip; with more, tooltips are left out and each rank's
 * rectangles of one kind form one <path class="kK"> of closed subpaths
 * "Mx yhWvHh-Wz", about 25 bytes a rectangle.  Messages are drawn as lines
 * from the sender at `sent` to the receiver at `arrived` when there are at
 * most 2000 of them. */
bool out_tl_write_svg(const out_timeline *t, const char *path, const char *title, GError **error);

/* One swept parameter: the predicted time y[i] with the parameter at x[i]
 * (in the base unit: B/s, s, B, ...).  x_labels (may be NULL, as may any
 * entry) are the values as the user wrote them ("10GBps"); missing ones are
 * printed from x with an SI prefix. */
typedef struct out_sweep_series {
    const char *param; /* "network.bandwidth" */
    const char *unit;  /* "B/s", "s"; NULL or "" for none */
    int n;
    const double *x;
    const double *y;
    const char *const *x_labels;
} out_sweep_series;

/* Writes the sweep plot; title may be NULL.  Series with the same unit share
 * a panel (one polyline with point markers each, and a legend), series with
 * different units get a panel each, two panels a row.  All panels share the
 * y axis (predicted time).  The x axis is logarithmic when all x in the panel
 * are positive and the largest is at least 100 times the smallest.  A panel
 * of one series puts its ticks at the points, labelled as the user wrote
 * them (a label that would overlap the previous one is left out); a shared
 * panel has numeric ticks.  Points that are not finite are left out. */
bool out_tl_write_sweep_svg(const out_sweep_series *series, int nseries, const char *path,
                            const char *title, GError **error);

/* A "nice" axis: ticks at lo, lo + step, ..., hi where step is 1, 2 or 5
 * times a power of ten, lo <= min, hi >= max, and there are at most
 * max_ticks ticks (3 if less is asked), as many as possible.  An empty range
 * (min == max) is widened around the value; NaN or infinite bounds give
 * 0..1. */
typedef struct out_tl_axis {
    double lo, hi, step;
    int nticks;
    int decimals; /* digits after the point that labels need at this step */
} out_tl_axis;
out_tl_axis out_tl_nice_axis(double min, double max, int max_ticks);

/* The unit to show a time range of `seconds` in: "s" from 1 s, "ms" from
 * 1 ms, "µs" (UTF-8) from 1 µs, else "ns"; *unit_seconds gets its length. */
const char *out_tl_time_unit(double seconds, double *unit_seconds);

/* value with an SI prefix (p n µ m k M G T P) and the unit, 4 significant
 * digits: (2.5e-6, "s") -> "2.5 µs", (1e10, "B/s") -> "10 GB/s",
 * (0, "s") -> "0 s"; without a unit (NULL or "") just the number, %.4g.
 * Free with g_free. */
char *out_tl_format_quantity(double value, const char *unit);

#endif
