/*
 * mpibench.c - the measurements behind `ordex calibrate`: a plain MPI
 * program for exactly two ranks, built with the machine's real mpicc and run
 * with its mpiexec.  Rank 0 prints one report on stdout that ordex parses
 * (perfmodel/calibrate_fit.h describes the format):
 *
 *   ordex-mpibench 1
 *   library <first line of MPI_Get_library_version>
 *   eager_limit BYTES FIRST_WAITING_BYTES|none
 *   pingpong BYTES REPS MIN_ONE_WAY_S TYPICAL_ONE_WAY_S
 *   stream BYTES WINDOW ROUNDS BEST_BYTES_PER_S
 *   send_overhead BYTES ROUNDS MIN_S MEDIAN_S
 *   recv_overhead BYTES ROUNDS MIN_S MEDIAN_S
 *   progress BYTES COMPUTE_S MEDIAN_SEND_S
 *   end
 *
 * Usage: mpiexec -n 2 mpibench [--quick] [--max-size BYTES]
 *
 * With --ring, on any number of ranks (calibrate starts twice as many as
 * the machine has cores), it measures instead how long an int token takes
 * to go from one rank to the next around a ring, which on an
 * oversubscribed machine is how long a polling rank waits for its time
 * slice:
 *
 *   ordex-mpibench 1
 *   library <first line of MPI_Get_library_version>
 *   ring RANKS ROUNDS MIN_HOP_S MEDIAN_HOP_S
 *   end
 *
 * Usage: mpiexec -n N mpibench --ring [--quick]
 *
 * What it measures, in this order: the eager limit (the largest MPI_Send
 * that returns before its receive is posted, by bisection); the one-way time
 * of every size (half a ping-pong round trip); the bandwidth of a window of
 * nonblocking sends; the CPU time inside MPI_Send of eager messages and
 * inside MPI_Recv of messages that have already arrived; whether a
 * rendezvous message moves while its receiver computes (progress).
 *
 * Every measurement is repeated in batches until it has taken a target time
 * (20 ms; the ping-pong in four passes over all sizes) and a minimum number
 * of batches, and the report gives the minimum and the median of the
 * per-batch averages; for the ping-pong the "median" is that of the batches
 * that were not interrupted (min_typical).  Averaging inside a batch keeps
 * the clock's resolution out of the small sizes.  ordex fits the
 * ping-pong's median (perfmodel/calibrate_fit.h says why) and the overheads'
 * minimum.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPORT_VERSION 1
#define MAX_BATCHES 1000
#define DATA_TAG 2
#define ACK_TAG 3

/* Settings shared by both ranks (both parse the same arguments). */
static double g_target;       /* seconds each measurement runs at least */
static double g_batch;        /* seconds one batch of a ping-pong aims at */
static int g_min_batches;     /* batches each measurement (ping-pong: each pass) runs at least */
static int g_passes;          /* passes of the ping-pong over all sizes */
static int g_min_rounds;      /* rounds of the streaming and overhead measurements */
static long g_max_size;       /* largest ping-pong size */
static int g_quick;           /* fewer sizes and shorter measurements */
static int g_rank;            /* this rank */
static char *g_send, *g_recv; /* message buffers of g_max_size bytes (stream: more) */

static _Noreturn void fail(const char *what) {
    fprintf(stderr, "mpibench: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2); /* MPI_Abort does not return; the compiler does not know */
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the first n > 0 values of sorted v. */
static double sorted_median(const double *v, int n) {
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Minimum and median of n > 0 values (sorts them). */
static void min_median(double *v, int n, double *min, double *median) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *min = v[0];
    *median = sorted_median(v, n);
}

/* Interference lengthens a batch by far more than a message's time varies
 * by itself: a batch that loses its core for a time slice (milliseconds)
 * takes several times its fellows, while batches of large messages on an
 * idle machine spread over 1.2 to 1.6 times the fastest.  A batch slower
 * than this many times the fastest counts as interrupted. */
#define INTERRUPTED_FACTOR 2.0

/* Minimum of n > 0 values and the median of those at most
 * INTERRUPTED_FACTOR times it (sorts them): what a message typically takes
 * when the rank keeps its core. */
static void min_typical(double *v, int n, double *min, double *typical) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int kept = 1;
    while (kept < n && v[kept] <= INTERRUPTED_FACTOR * v[0])
        kept++;
    *min = v[0];
    *typical = sorted_median(v, kept);
}

/* Rank 0 decides, before each batch, whether another one runs and how many
 * repetitions it has; rank 1 learns it from a broadcast, so the two
 * ranks never disagree about the number of messages.  0 = stop. */
static int next_batch(int reps, int batches, double elapsed, double target, int min_batches) {
    int go = reps;
    /* On a busy machine every batch can be slow: then the minimum number of
     * batches gives way to ten times the target time. */
    if (batches >= MAX_BATCHES || (elapsed >= target && batches >= min_batches) ||
        elapsed >= 10 * target)
        go = 0;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return go;
}

/* One batch of `reps` round trips of `bytes` bytes; rank 0's elapsed time.
 * Each rank sends back the buffer it has just received into, as programs
 * send data they have just computed or received: the bytes sit modified in
 * the sender's cache, which on this kind of machine makes messages of
 * 64 KiB to 1 MiB 30 to 50% slower than sending a buffer nobody writes. */
static double pingpong_batch(long bytes, int reps) {
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++) {
        if (g_rank == 0) {
            MPI_Send(g_recv, (int)bytes, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD);
            MPI_Recv(g_recv, (int)bytes, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(g_recv, (int)bytes, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(g_recv, (int)bytes, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

/* The batches of one ping-pong size, gathered over all passes. */
typedef struct series {
    long bytes;
    int reps; /* round trips per batch, set by the first pass */
    int n;
    double per[MAX_BATCHES]; /* one-way seconds of each batch */
} series;

/* One pass over one size: batches until this pass's share of the target
 * time.  The sizes are measured in several passes over the whole list, so
 * that a busy moment of the machine spoils a few batches of many sizes
 * rather than every batch of one. */
static void pingpong_pass(series *s) {
    if (s->reps == 0) {
        /* Warm up (first touch of the buffers) and estimate one round trip
         * to size the batches. */
        pingpong_batch(s->bytes, 2);
        double est = pingpong_batch(s->bytes, 1);
        MPI_Bcast(&est, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        int reps = est > 0 ? (int)(g_batch / est) : 1000;
        s->reps = reps < 1 ? 1 : reps > 100000 ? 100000 : reps;
    }
    double elapsed = 0;
    int batches = 0, r;
    while ((r = next_batch(s->reps, s->n >= MAX_BATCHES ? MAX_BATCHES : batches, elapsed,
                           g_target / g_passes, g_min_batches)) > 0) {
        double t = pingpong_batch(s->bytes, r);
        elapsed += t;
        batches++;
        s->per[s->n++] = t / (2.0 * r);
    }
}

static void pingpong_report(series *s) {
    if (g_rank == 0) {
        double min, median;
        min_typical(s->per, s->n, &min, &median);
        printf("pingpong %ld %ld %.9e %.9e\n", s->bytes, (long)s->n * s->reps, min, median);
    }
}

/* Streaming: rank 0 keeps `window` nonblocking sends in flight, rank 1 as
 * many receives (into distinct buffers); a zero-byte acknowledgement closes
 * each window.  Gives the bandwidth of back-to-back messages, for the record
 * next to the ping-pong fit. */
static void stream(long bytes, int window) {
    MPI_Request req[64];
    double per[MAX_BATCHES];
    int n = 0;
    double elapsed = 0;
    while (next_batch(1, n, elapsed, g_target, g_min_rounds) > 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int w = 0; w < window; w++) {
            if (g_rank == 0)
                MPI_Isend(g_send, (int)bytes, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD, &req[w]);
            else
                MPI_Irecv(g_recv + (size_t)w * (size_t)bytes, (int)bytes, MPI_BYTE, 0, DATA_TAG,
                          MPI_COMM_WORLD, &req[w]);
        }
        for (int w = 0; w < window; w++)
            MPI_Wait(&req[w], MPI_STATUS_IGNORE);
        if (g_rank == 0)
            MPI_Recv(NULL, 0, MPI_BYTE, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(NULL, 0, MPI_BYTE, 0, ACK_TAG, MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        elapsed += t;
        /* Stored as seconds per window: the minimum time is the best rate. */
        per[n++] = t;
    }
    if (g_rank == 0) {
        double min, median;
        min_median(per, n, &min, &median);
        printf("stream %ld %d %d %.9e\n", bytes, window, n, (double)bytes * window / min);
    }
}

static void sleep_seconds(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* CPU time inside MPI_Send of an eager message: rank 0 sends a burst of
 * `burst` messages, timing only the sends, and waits for an acknowledgement
 * before the next burst.  The burst is short enough that MPICH's eager
 * buffers never fill, so no send waits for the receiver. */
static void send_overhead(long bytes, int burst) {
    double per[MAX_BATCHES];
    int n = 0;
    double elapsed = 0;
    while (next_batch(1, n, elapsed, g_target, g_min_rounds) > 0) {
        double t0 = MPI_Wtime(), t = 0;
        if (g_rank == 0) {
            for (int w = 0; w < burst; w++)
                MPI_Send(g_send, (int)bytes, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD);
            t = MPI_Wtime() - t0;
            MPI_Recv(NULL, 0, MPI_BYTE, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int w = 0; w < burst; w++)
                MPI_Recv(g_recv, (int)bytes, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            MPI_Send(NULL, 0, MPI_BYTE, 0, ACK_TAG, MPI_COMM_WORLD);
        }
        elapsed += MPI_Wtime() - t0;
        per[n++] = t / burst;
    }
    if (g_rank == 0) {
        double min, median;
        min_median(per, n, &min, &median);
        printf("send_overhead %ld %d %.9e %.9e\n", bytes, n, min, median);
    }
}

/* CPU time inside MPI_Recv of a message that has already arrived: rank 0
 * sends a burst of eager messages (each completes as soon as its data sits
 * in the shared-memory queue); rank 1 first waits long enough for the whole
 * burst to land, then times its receives, then acknowledges.  A burst that
 * had not landed yet (rank 0 descheduled) only makes that batch slower,
 * which the minimum discards. */
static void recv_overhead(long bytes, int burst) {
    double per[MAX_BATCHES];
    int n = 0;
    double elapsed = 0;
    /* 100 us plus the burst's bytes at a pessimistic 1 GB/s copy rate. */
    double delay = 100e-6 + (double)bytes * burst / 1e9;
    while (next_batch(1, n, elapsed, g_target, g_min_rounds) > 0) {
        double t0 = MPI_Wtime(), t = 0;
        if (g_rank == 0) {
            for (int w = 0; w < burst; w++)
                MPI_Send(g_send, (int)bytes, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD);
            MPI_Recv(NULL, 0, MPI_BYTE, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            /* Spin rather than sleep: a sleeping rank gives its core away
             * and comes back cold, which is not what a computing rank that
             * then receives pays. */
            double until = MPI_Wtime() + delay;
            while (MPI_Wtime() < until) {
            }
            double r0 = MPI_Wtime();
            for (int w = 0; w < burst; w++)
                MPI_Recv(g_recv, (int)bytes, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            t = MPI_Wtime() - r0;
            MPI_Send(NULL, 0, MPI_BYTE, 0, ACK_TAG, MPI_COMM_WORLD);
        }
        elapsed += MPI_Wtime() - t0;
        per[n++] = t / burst;
    }
    /* Rank 1 measured: hand its numbers to rank 0, which prints. */
    double out[2] = {0, 0};
    if (g_rank == 1) {
        min_median(per, n, &out[0], &out[1]);
        MPI_Send(out, 2, MPI_DOUBLE, 0, ACK_TAG, MPI_COMM_WORLD);
    } else {
        MPI_Recv(out, 2, MPI_DOUBLE, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("recv_overhead %ld %d %.9e %.9e\n", bytes, n, out[0], out[1]);
    }
}

/* Whether rank 0's MPI_Send of `bytes` bytes waits for the receiver: rank 1
 * sleeps `delay` seconds before posting the receive.  An eager send returns
 * within microseconds; one that goes by rendezvous (or finds MPICH's buffers
 * full) returns only after the receive is posted.  Both of two tries must
 * wait: rank 0 being descheduled can make one eager send slow, but nothing
 * makes a waiting send fast. */
static int send_waits(long bytes, double delay) {
    int waits = 1;
    for (int attempt = 0; attempt < 2 && waits; attempt++) {
        double t = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (g_rank == 0) {
            double t0 = MPI_Wtime();
            MPI_Send(g_send, (int)bytes, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD);
            t = MPI_Wtime() - t0;
        } else {
            sleep_seconds(delay);
            MPI_Recv(g_recv, (int)bytes, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        waits = t > delay / 2;
    }
    return waits;
}

/* Whether a rendezvous message moves while its receiver computes: rank 1
 * posts MPI_Irecv, computes `compute` seconds (a busy loop reading
 * MPI_Wtime, which does not progress) and calls MPI_Wait, while rank 0
 * times its MPI_Send.  Without asynchronous progress the send returns only
 * after the computation, when rank 1 acts on the request to send in
 * MPI_Wait.  The median of `rounds` sends. */
static void progress(long bytes, double compute, int rounds) {
    double t[16];
    if (rounds > 16)
        rounds = 16;
    for (int i = 0; i < rounds; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (g_rank == 0) {
            double t0 = MPI_Wtime();
            MPI_Send(g_send, (int)bytes, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD);
            t[i] = MPI_Wtime() - t0;
        } else {
            MPI_Request req;
            MPI_Irecv(g_recv, (int)bytes, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD, &req);
            double t0 = MPI_Wtime();
            while (MPI_Wtime() - t0 < compute)
                ;
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
    }
    if (g_rank == 0) {
        double min, median;
        min_median(t, rounds, &min, &median);
        printf("progress %ld %.9e %.9e\n", bytes, compute, median);
    }
}

/* The eager limit as MPICH behaves: the largest message whose MPI_Send
 * returns before the receive is posted (bisection over byte counts, so it
 * is exact whatever the device: ch3's 64 KiB, ch4's shared-memory cells or
 * UCX's rendezvous threshold).  *first_waiting is the smallest size that
 * waited, or -1 when no size up to the maximum did. */
static long eager_limit(long *first_waiting) {
    double delay = g_quick ? 1e-3 : 2e-3;
    if (!send_waits(g_max_size, delay)) {
        *first_waiting = -1;
        return g_max_size;
    }
    if (send_waits(0, delay)) {
        *first_waiting = 0;
        return 0;
    }
    long lo = 0, hi = g_max_size; /* lo returns early, hi waits */
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (send_waits(mid, delay))
            hi = mid;
        else
            lo = mid;
    }
    *first_waiting = hi;
    return lo;
}

static void insert_sorted(long *v, int *n, int cap, long x) {
    for (int i = 0; i < *n; i++)
        if (v[i] == x)
            return;
    if (*n == cap)
        return;
    int i = (*n)++;
    for (; i > 0 && v[i - 1] > x; i--)
        v[i] = v[i - 1];
    v[i] = x;
}

/* Sizes of the ping-pong: 0, every power of two up to the maximum, the
 * eager limit and one byte more (so that the fit sees the protocol switch
 * exactly), and, except with --quick, the size half-way between powers of
 * two from 1 KiB on, where cache and protocol changes happen. */
static int pingpong_sizes(long *out, int cap, long eager, long first_waiting) {
    int n = 0;
    insert_sorted(out, &n, cap, 0);
    for (long s = 1; s <= g_max_size; s *= 2) {
        insert_sorted(out, &n, cap, s);
        if (!g_quick && s >= 1024 && s + s / 2 <= g_max_size)
            insert_sorted(out, &n, cap, s + s / 2);
    }
    if (first_waiting > 0) {
        insert_sorted(out, &n, cap, eager);
        insert_sorted(out, &n, cap, first_waiting);
    }
    return n;
}

/* Rank 0: the report's first two lines. */
static void print_header(void) {
    if (g_rank != 0)
        return;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\r\n")] = '\0';
    for (char *c = lib; *c; c++)
        if (*c == '\t')
            *c = ' ';
    printf("ordex-mpibench %d\nlibrary %s\n", REPORT_VERSION, lib);
}

/* Rounds of a token around all ranks until rank 0 has timed enough of them
 * (the token's value -1 tells the others to stop); the hop time of a round
 * is its time over the number of ranks. */
static void ring(int size) {
    int left = (g_rank + size - 1) % size, right = (g_rank + 1) % size;
    double target = g_quick ? 0.1 : 0.5;
    int min_rounds = g_quick ? 5 : 20;
    static double hop[MAX_BATCHES];
    int n = 0, warmup = 2;
    double start = MPI_Wtime();
    for (;;) {
        int token = 0;
        if (g_rank == 0) {
            double elapsed = MPI_Wtime() - start;
            if (n >= MAX_BATCHES || (n >= min_rounds && elapsed >= target))
                token = -1;
            double t0 = MPI_Wtime();
            MPI_Send(&token, 1, MPI_INT, right, DATA_TAG, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, left, DATA_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (token < 0)
                break;
            if (warmup > 0)
                warmup--;
            else
                hop[n++] = (MPI_Wtime() - t0) / size;
        } else {
            MPI_Recv(&token, 1, MPI_INT, left, DATA_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&token, 1, MPI_INT, right, DATA_TAG, MPI_COMM_WORLD);
            if (token < 0)
                break;
        }
    }
    if (g_rank == 0) {
        double min, median;
        min_median(hop, n, &min, &median);
        printf("ring %d %d %.9e %.9e\n", size, n, min, median);
    }
}

static long parse_size(const char *text) {
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 1 || v > (1L << 30))
        fail("--max-size: expected a byte count from 1 to 1073741824");
    return v;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    g_max_size = 16L << 20;
    int ring_mode = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            g_quick = 1;
        else if (strcmp(argv[i], "--ring") == 0)
            ring_mode = 1;
        else if (strcmp(argv[i], "--max-size") == 0 && i + 1 < argc)
            g_max_size = parse_size(argv[++i]);
        else
            fail("usage: mpibench [--quick] [--max-size BYTES] | mpibench --ring [--quick]");
    }
    if (ring_mode ? size < 2 : size != 2)
        fail(ring_mode ? "--ring needs at least 2 ranks"
                       : "run with exactly 2 ranks (mpiexec -n 2)");
    g_target = g_quick ? 3e-3 : 20e-3;
    g_batch = g_quick ? 0.2e-3 : 0.5e-3;
    g_min_batches = g_quick ? 2 : 3;
    g_passes = g_quick ? 3 : 4;
    g_min_rounds = g_quick ? 5 : 10;

    if (ring_mode) {
        print_header();
        ring(size);
        if (g_rank == 0) {
            printf("end\n");
            fflush(stdout);
        }
        MPI_Finalize();
        return 0;
    }

    /* Buffers: the largest ping-pong message, and room for a window of
     * streamed messages or a burst of eager ones in distinct receive
     * buffers. */
    size_t room = (size_t)g_max_size < (64u << 20) ? (64u << 20) : (size_t)g_max_size;
    if ((size_t)g_max_size * 2 > room)
        room = (size_t)g_max_size * 2;
    g_send = malloc(room);
    g_recv = malloc(room);
    if (!g_send || !g_recv)
        fail("out of memory for the message buffers");
    memset(g_send, 1, room);
    memset(g_recv, 0, room);

    print_header();

    /* Warm up (MPICH sets up the connection with the first messages). */
    for (long b = 1; b <= 1024 * 1024 && b <= g_max_size; b *= 32)
        pingpong_batch(b, 4);

    long first_waiting;
    long eager = eager_limit(&first_waiting);
    if (g_rank == 0) {
        if (first_waiting >= 0)
            printf("eager_limit %ld %ld\n", eager, first_waiting);
        else
            printf("eager_limit %ld none\n", eager);
    }

    long sizes[160];
    int n = pingpong_sizes(sizes, 160, eager, first_waiting);
    series *all = calloc((size_t)n, sizeof *all);
    if (!all)
        fail("out of memory for the measurements");
    for (int i = 0; i < n; i++)
        all[i].bytes = sizes[i];
    for (int pass = 0; pass < g_passes; pass++)
        for (int i = 0; i < n; i++)
            pingpong_pass(&all[i]);
    for (int i = 0; i < n; i++)
        pingpong_report(&all[i]);
    free(all);

    /* Streaming at a few large sizes: windows of up to 32 messages, at most
     * 64 MiB in flight. */
    long big[3] = {64 * 1024, 1L << 20, g_max_size};
    for (int i = 0; i < 3; i++) {
        if (big[i] > g_max_size || (i > 0 && big[i] == big[i - 1]))
            continue;
        long w = (64L << 20) / big[i];
        stream(big[i], w < 2 ? 2 : w > 32 ? 32 : (int)w);
    }

    /* Overheads of eager messages only (a send that waits for its receiver
     * measures the receiver, not the sender's CPU time): sizes up to the
     * eager limit, and the limit itself. */
    static const long full[] = {0, 64, 256, 1024, 4096, 16384, 65536};
    static const long quick[] = {0, 1024};
    long ov[9];
    int nov = 0;
    for (int i = 0; i < (g_quick ? 2 : 7); i++) {
        long s = g_quick ? quick[i] : full[i];
        if (s <= eager)
            insert_sorted(ov, &nov, 9, s);
    }
    insert_sorted(ov, &nov, 9, eager);
    for (int i = 0; i < nov; i++)
        send_overhead(ov[i], 8);
    for (int i = 0; i < nov; i++)
        recv_overhead(ov[i], 8);

    /* Progress, with a message well above the eager limit. */
    long rdv = first_waiting > 0 ? 4 * first_waiting : 0;
    if (rdv > 0 && rdv <= g_max_size)
        progress(rdv, g_quick ? 2e-3 : 5e-3, 5);

    if (g_rank == 0) {
        printf("end\n");
        fflush(stdout);
    }
    free(g_send);
    free(g_recv);
    MPI_Finalize();
    return 0;
}
