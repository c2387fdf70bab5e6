/*
 * calibrate_fit.h - the pure part of `ordex calibrate`: reading the report of
 * the benchmark (tools/calibrate/mpibench.c), fitting a piecewise-linear
 * model of message times to it, and writing the platform file.  No I/O, no
 * processes: cli/calibrate.c runs the benchmark and writes the file.
 *
 * The model: a message of s bytes takes t(s) = latency_k + s / bandwidth_k
 * one way, with k the size range s falls in (a segment of the platform file,
 * docs/platform.md).  The data: the one-way time of each measured size, half
 * a ping-pong round trip.
 *
 * Fitting one segment is least squares weighted by 1/t^2, so that the error
 * minimised is the relative one: a 10 ns miss at 300 ns counts as much as a
 * 10 us miss at 300 us.  Then:
 *  - a negative latency is refitted as a line through the origin (latency 0);
 *  - a slope <= 0, or one that changes the time by less than
 *    ORDEX_FIT_MIN_SLOPE_SHARE of the segment's mean time over its size range
 *    (time not growing with size: one size only, equal times, noise on a
 *    flat stretch), gets a fallback bandwidth: the largest bandwidth of the
 *    other segments of the fit (so the segment never raises the node-link
 *    capacity ordex derives from the largest bandwidth), or, when no
 *    segment has a usable slope, ORDEX_FIT_FALLBACK_BANDWIDTH or more, so
 *    that the bytes of its largest message cost at most 0.1 % of its time.
 *    Its latency is then the weighted mean of t - s/bandwidth (at least 0).
 *    Such a segment is marked `fallback`.
 *
 * Breakpoints are chosen by dynamic programming over the sorted sizes: for
 * every number of segments K from 1 to the maximum, the split into K ranges
 * of consecutive sizes (each of at least ORDEX_FIT_MIN_POINTS points, no
 * boundary between two points of the same size) with the least total
 * squared relative error.  K is then the one minimising
 *     n ln(max(SSE_K / n, ORDEX_FIT_NOISE_FLOOR^2)) + C K ln n
 * with C = ORDEX_FIT_SEGMENT_COST, a Bayesian information criterion: a
 * segment costs its latency and bandwidth, and its breakpoint counts twice
 * because it is the best of many positions tried.  A segment is thus added
 * only when it lowers the error by a factor that grows with its cost,
 * whatever the noise level (with 3 % noise on two exact lines, a cost of 3
 * found a spurious third segment in 7 % of the cases, 4 in 0.5 %).  The floor stops the criterion
 * from chasing errors below what any measurement can resolve; on exact data it makes the fewest
 * exact segments win.
 *
 * Degenerate inputs: no points is an error; fewer than ORDEX_FIT_MIN_POINTS
 * points make one segment; a single distinct size (a lone point, or only
 * zero-byte messages) has no slope and gets the fallback bandwidth and
 * latency = the weighted mean of t - s/bandwidth; equal times at every size
 * give one flat fallback segment (the criterion never pays for more).
 * Times must be positive and finite.
 */
#ifndef ORDEX_PM_CALIBRATE_FIT_H
#define ORDEX_PM_CALIBRATE_FIT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define ORDEX_FIT_MAX_SEGMENTS 6
#define ORDEX_FIT_MIN_POINTS 3
/* Price of a segment in the criterion that picks their number, in units of
 * ln n (see above). */
#define ORDEX_FIT_SEGMENT_COST 4.0
/* A slope that adds less than this share of the mean time across the
 * segment's sizes is taken as none (1 %). */
#define ORDEX_FIT_MIN_SLOPE_SHARE 0.01
/* Relative error below which the choice of K stops caring (0.01 %). */
#define ORDEX_FIT_NOISE_FLOOR 1e-4
/* Bandwidth of a segment without a usable slope when no segment has one:
 * 1 TB/s, beyond any memory copy, so the bytes cost next to nothing. */
#define ORDEX_FIT_FALLBACK_BANDWIDTH 1e12
/* "No protocol split" for pm_fit_piecewise. */
#define ORDEX_FIT_NO_SPLIT UINT64_MAX

typedef struct pm_fit_point {
    uint64_t size; /* bytes */
    double time;   /* seconds, one way */
} pm_fit_point;

typedef struct pm_fit_segment {
    uint64_t from;        /* smallest size the segment prices (0 for the first) */
    uint64_t first, last; /* smallest and largest measured size it was fitted on */
    int npoints;
    double latency;   /* seconds, >= 0 */
    double bandwidth; /* bytes per second, > 0 */
    bool fallback;    /* the data had no usable slope: bandwidth is the fallback */
    double max_error; /* largest |model - t| / t over its points */
    double mean_error;
} pm_fit_segment;

typedef struct pm_fit {
    pm_fit_segment seg[ORDEX_FIT_MAX_SEGMENTS];
    int nseg;
    int npoints;
} pm_fit;

/* Fits at most max_segments (1 to ORDEX_FIT_MAX_SEGMENTS) segments to n
 * points (any order).  With split != ORDEX_FIT_NO_SPLIT no segment holds both
 * a point of at most `split` bytes and one of more (the eager limit: the
 * protocol switch is a jump, not a slope), and the segment after the split
 * starts at split + 1; the split is ignored when either side has fewer than
 * ORDEX_FIT_MIN_POINTS points or max_segments is 1.  Other segments start at
 * their first measured size.  Returns false and sets *problem (g_free) when
 * there are no points or a time is not positive and finite. */
bool pm_fit_piecewise(const pm_fit_point *pts, int n, int max_segments, uint64_t split,
                         pm_fit *out, char **problem);

/* The model's time for `bytes` bytes. */
double pm_fit_time(const pm_fit *f, uint64_t bytes);

/* A CPU overhead o(s) = per_message + s * per_byte fitted to n points (the
 * same weighted least squares; times below 1 ns weigh as 1 ns).  Both
 * results are >= 0: a negative slope gives per_byte 0 and the weighted mean
 * as per_message, a negative intercept a line through the origin.  n == 0
 * gives 0 and 0. */
void pm_fit_overhead(const pm_fit_point *pts, int n, double *per_message, double *per_byte);

/* ---------------------------------------------------------------------- */
/* The benchmark's report                                                  */
/*
 * What tools/calibrate/mpibench.c prints (rank 0, stdout).  Lines before the
 * header line are ignored (launcher noise); after it every line must be one
 * of these, and "end" must come last:
 *
 *   ordex-mpibench 1
 *   library TEXT                                   MPI_Get_library_version
 *   eager_limit BYTES FIRST_WAITING|none           largest send that did not wait
 *   pingpong BYTES REPS MIN_S MEDIAN_S             one-way time, min/median of batches
 *                                                  (median of those within 2 x min)
 *   stream BYTES WINDOW ROUNDS BYTES_PER_S         best streaming bandwidth
 *   send_overhead BYTES ROUNDS MIN_S MEDIAN_S      time inside MPI_Send (eager)
 *   recv_overhead BYTES ROUNDS MIN_S MEDIAN_S      time inside MPI_Recv (arrived)
 *   progress BYTES COMPUTE_S SEND_S                median MPI_Send of a rendezvous
 *                                                  message to a receiver that computed
 *                                                  COMPUTE_S after posting MPI_Irecv
 *   ring RANKS ROUNDS MIN_S MEDIAN_S               hop of a token ring (--ring run)
 *   end
 *
 * The --ring run's report has only the header, library, ring and end lines.
 */

/* A token ring of `ranks` ranks: the time of a hop, min and median over
 * `rounds` rounds.  ranks == 0: not measured. */
typedef struct pm_bench_ring {
    int ranks;
    long rounds;
    double min, median;
} pm_bench_ring;

/* One size of the ping-pong or of an overhead.  Which of the two times is
 * fitted: for the ping-pong the median batch, for the overheads the fastest.
 * An overhead is a few hundred nanoseconds of CPU inside one call, which
 * interference (being descheduled, another process's cache traffic) only
 * lengthens.  A message's time varies for reasons of its own: on an idle
 * machine the median batch of 256 KiB to 4 MiB messages runs 20 to 60%
 * above the fastest (caches, page placement), and a program sending
 * thousands of them runs at about the median, not the best.  The
 * benchmark leaves batches over twice the fastest (interrupted ones) out of
 * the ping-pong's median, so that a busy machine does not inflate it. */
typedef struct pm_bench_sample {
    uint64_t size;
    long reps;     /* repetitions (ping-pong) or batches (overheads) */
    double min;    /* seconds: the fastest batch */
    double median; /* seconds: the median batch */
} pm_bench_sample;

typedef struct pm_bench_stream {
    uint64_t size;
    int window;
    double bandwidth; /* bytes per second */
} pm_bench_stream;

typedef struct pm_bench {
    char *library;         /* the MPI library's version line */
    uint64_t eager_limit;  /* largest size whose MPI_Send did not wait */
    bool eager_found;      /* some size up to the largest measured waited */
    GArray *pingpong;      /* pm_bench_sample */
    GArray *stream;        /* pm_bench_stream */
    GArray *send_overhead; /* pm_bench_sample */
    GArray *recv_overhead; /* pm_bench_sample */
    pm_bench_ring ring; /* from a ring line, if any */
    /* From a progress line, if any (bytes 0: none). */
    uint64_t progress_bytes;
    double progress_compute, progress_send;
} pm_bench;

/* Parses the report of a --ring run.  Returns false and sets *problem
 * (g_free) when the text is not a complete report with a ring line. */
bool pm_bench_parse_ring(const char *text, pm_bench_ring *ring, char **problem);

/* Parses a report into *b (cleared first; free with pm_bench_clear).
 * Returns false and sets *problem (g_free), a phrase naming the line, when
 * the text is not a complete report with at least one ping-pong size. */
bool pm_bench_parse(const char *text, pm_bench *b, char **problem);
void pm_bench_clear(pm_bench *b);

/* ---------------------------------------------------------------------- */
/* The calibrated platform                                                 */
/*
 * How the file relates to the measurements.  ordex prices a message between
 * two ranks of one node (every message of this one-node platform) as
 *     send_overhead(s) + latency + s / bandwidth + recv_overhead(s)
 * with latency and bandwidth from the size's segment, and an intra-node
 * rendezvous message (above eager_limit) pays its latency three times: one
 * more round trip before the data (docs/platform.md).  The measured one-way
 * time t(s) contains all of it, so that a simulated ping-pong takes what the
 * real one took, the file gives
 *   - send_overhead, recv_overhead: the measured per-message overheads;
 *   - each segment: the fitted bandwidth and the fitted latency less both
 *     per-message overheads (at least 0), divided by three above the eager
 *     limit;
 *   - send_overhead_per_byte, recv_overhead_per_byte: 0.  The per-byte
 *     overheads measured on eager messages are the copies into and out of
 *     shared memory, which are the transfer itself (already in the
 *     segments' bandwidth), and ordex would charge them at every size,
 *     while large messages are not copied twice.  Their measured values go
 *     into a comment;
 *   - rendezvous_handshake: the jump at the eager limit, for the record
 *     (ordex uses it only between nodes).
 */

/* How many times an intra-node rendezvous message pays its latency in
 * ordex's network model (simulator/netmodel.c). */
#define ORDEX_CALIB_RENDEZVOUS_LATENCIES 3.0

typedef struct pm_calibration {
    /* Where and how (strings owned by the caller; any may be NULL). */
    const char *host;
    const char *date;
    const char *command;
    const char *library;
    int cores; /* online CPUs of the machine */

    pm_fit fit;  /* per size range, the one-way time as measured */
    pm_fit flat; /* one segment over all sizes, for the record */
    bool eager_found;
    uint64_t eager_limit;
    int rendezvous_segment; /* first segment above the eager limit, or -1 */
    double handshake;       /* the jump between the fitted lines at the eager limit (>= 0) */
    /* Measured overheads (the per-byte ones are not written, see above). */
    double send_overhead, send_overhead_per_byte;
    double recv_overhead, recv_overhead_per_byte;
    pm_bench_stream best_stream; /* size 0: none measured */
    int noisy; /* ping-pong sizes whose median batch was over 25 % slower than the fastest */
    /* The time slice of an oversubscribed core (pm_calibrate_timeslice). */
    pm_bench_ring ring;
    double timeslice;
    bool timeslice_measured;
    const char *ring_problem; /* why it was not measured (caller's string), or NULL */
    const GArray *pingpong;   /* the samples fitted (pm_bench_sample), for the file */
    /* A rendezvous message moved while its receiver computed: the send took
     * under half the receiver's computation (progress_bytes 0: not measured,
     * and the file keeps the default, false). */
    uint64_t progress_bytes;
    double progress_compute, progress_send;
    bool async_progress;
} pm_calibration;

/* Fits everything in a parsed report.  The strings of *c are left for the
 * caller to fill; c->pingpong points into b.  Returns false with *problem
 * set when the ping-pong times cannot be fitted. */
bool pm_calibrate_derive(const pm_bench *b, pm_calibration *c, char **problem);

/* The time slice from a token ring of ring->ranks ranks on `cores` cores,
 * with every rank polling (MPICH's waits): ordex prices each hop as the
 * token's one-way time plus the wait of a polling receiver for its slice,
 * (ranks / cores - 1) * timeslice / 2 (simulator/timed.c), so
 *     timeslice = 2 * (median hop - fitted one-way time of 4 bytes)
 *                 / (ranks / cores - 1)
 * and at least 0.  The median, not the minimum: the wait for a slice is
 * the quantity, not noise.  Without a ring of more ranks than cores
 * (ring->ranks == 0 or <= cores) the slice is not measured and c->timeslice
 * keeps ORDEX_CALIB_DEFAULT_TIMESLICE.  Call after pm_calibrate_derive. */
void pm_calibrate_timeslice(pm_calibration *c, const pm_bench_ring *ring, int cores);

/* The platform's default time slice (simulator/platform.c). */
#define ORDEX_CALIB_DEFAULT_TIMESLICE 4e-3

/* The latency the platform file gives segment k (see above), and whether
 * the overheads exceeded the fitted latency (the file then overprices that
 * segment's messages by the difference). */
double pm_calibration_file_latency(const pm_calibration *c, int k, bool *clamped);

/* The platform file (newly allocated): a commented header, [cluster] with
 * one node of c->cores cores, [network] with the segments, the flat fit as
 * latency/bandwidth, eager_limit, rendezvous_handshake and the overheads,
 * and the measured times as comments at the end. */
char *pm_calibration_platform_text(const pm_calibration *c);

/* The fit as a table for the terminal (newly allocated). */
char *pm_calibration_table(const pm_calibration *c);

/* Checks that `text` loads as a platform (pm_platform_load_data) with the
 * values above; false with *problem set otherwise. */
bool pm_calibration_check(const pm_calibration *c, const char *text, char **problem);

/* Human-readable quantities, as the platform file spells them ("335.2ns",
 * "5.83GBps", "8KiB"); newly allocated. */
char *pm_fmt_time(double seconds);
char *pm_fmt_bandwidth(double bytes_per_second);
char *pm_fmt_size(uint64_t bytes);

#endif
