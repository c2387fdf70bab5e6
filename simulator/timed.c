/*
 * timed.c - the discrete-event simulation behind `ordex predict` (see
 * timed.h for the model).
 *
 * The run loop calls sim_timed_step whenever no rank can run.  Ranks run
 * only at the current time, so every job and transfer they start starts at
 * the global clock, which is what the models require (non-decreasing start
 * times).  A step either fires one engine event that is due now (an
 * arrived eager message, a rendezvous message whose receive is posted, a
 * collective every member has called) or moves the clock to the next model
 * event (a computation or a transfer that ends) and acts on it.
 *
 * The sections below are hooks of that one simulation, all reading and
 * writing its one state T; what a collective call amounts to for the
 * collective algorithms is worked out apart, in timed_collargs.c.
 */
#define _GNU_SOURCE
#include "simulator/timed.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "perfmodel/collalgo.h"
#include "scheduler/sched.h"
#include "simulator/coll_inter.h"
#include "simulator/engine.h"
#include "simulator/events.h"
#include "simulator/sim_internal.h"
#include "simulator/timed_internal.h"
#include "simulator/timed_shmem.h"

/* What a CPU job is for. */
typedef enum job_kind {
    JOB_GATE, /* the computation before an MPI call, or a send overhead */
    JOB_END,  /* the computation after the last MPI call */
} job_kind;

typedef struct trank {
    int node;
    /* The compute clock (and the wall clock) when it last left MPI. */
    double cpu_mark, wall_mark;
    /* Work to charge at the next gate: receive overheads (comm) and
     * ordex_compute seconds (compute). */
    double pending_compute, pending_comm;
    bool waiting_cpu; /* blocked until its job ends */
    bool polling;     /* busy waiting in an MPI call: takes a share of the cores */
    double wake_at;   /* blocked until then for a core (see wake_delay), or -1 */
    uint64_t job;
    double call_start;    /* when its current MPI call started (after the gate) */
    double call_overhead; /* CPU overhead inside the current call */
    bool gated;           /* the current call took simulated time */
    const char *call;     /* its name (static) */
    double xfer_start;    /* start of the data movement that completed its last wait */
    bool xfer_seen;       /* xfer_start belongs to the current call */
    double core_at;       /* when a pull last gave it its core during a wait, or -1 */
    int await_progress;   /* its rendezvous messages held until it enters MPI */
    double pull_wait;     /* pull delays of its messages in the current call */
    /* Work done on its node on its behalf (sim_timed_serve): while any runs,
     * a polling rank is not counted as a poller (the work is what its core
     * does), and whether the CPU model counts it now. */
    int serving;
    bool poll_counted;
    bool rma_waiting;  /* blocked in sim_timed_wait_until */
    double rma_moving; /* of the current call: waits for its own one-sided data */
    sim_timed_rank st;
} trank;

typedef enum xfer_kind {
    XFER_EAGER, /* a message sent eagerly: hidden until it arrives */
    XFER_RDV,   /* a matched rendezvous message: completions wait for it */
    XFER_COLL,  /* a step of a collective's algorithm */
    XFER_CALL,  /* a one-sided message (timed_rma.c): a callback when it arrives */
} xfer_kind;

typedef struct crun crun;

typedef struct xfer {
    xfer_kind kind;
    sim_message *m;      /* XFER_EAGER, until freed */
    GPtrArray *deferred; /* XFER_RDV: requests completing with it */
    crun *run;           /* XFER_COLL */
    int msrc, mdst;      /* XFER_COLL: the members at the ends */
    int src, dst;        /* world ranks */
    uint64_t bytes;
    double start;
    sim_timed_fn done; /* XFER_CALL */
    void *user;
} xfer;

/* A collective in flight: its schedule run and what its members wait for. */
struct crun {
    pm_ca_schedule *sched;
    pm_ca_run *run;
    sim_coll *c; /* NULL once the engine fired it */
    sim_coll_kind kind;
    int p;
    int *world;             /* [p] world rank of each member */
    sim_request **deferred; /* [p] completion postponed until the member is done */
    bool *done;             /* [p] */
    uint64_t **send_bytes;  /* [p][p] or NULL: exact sizes of v collectives */
    double last_arrival;
    int remaining;
};

static struct {
    bool active;
    bool record;
    const pm_platform *platform;
    pm_net *net;
    pm_cpu *cpu;
    double now;
    int nranks;
    trank *ranks;
    GHashTable *jobs;   /* job id -> (rank << 1 | kind) + 1 */
    GHashTable *serves; /* job id -> serve * (sim_timed_serve) */
    GHashTable *xfers;  /* transfer id -> xfer * */
    xfer *defer_into;   /* while firing a rendezvous delivery */
    GArray *cpu_done, *net_done;
    GArray *spans, *messages;
    double clock_cost; /* what one clock reading takes (subtracted) */
    /* The measurement: the computations' CPU and wall-clock time, and the
     * thread's involuntary context switches when the run started. */
    sim_timed_measure measure;
    long nivcsw_start, nvcsw_start;
    /* The shortest computation measured so far, and how many were: ordex's
     * own way out of one MPI call and into the next (returning, the call,
     * the heap switch) is measured with every computation; the shortest
     * ones are nothing else, so that floor is subtracted. */
    double floor;
    uint64_t measured;
    bool ignore_measured;
    GHashTable *local_calls;
    GPtrArray *runs;  /* live crun * */
    GSequence *wakes; /* trank * with wake_at >= 0, by (wake_at, rank) */
    GPtrArray *held;  /* sim_message * held for a pull (see pull_delay) or for
                       * their receiver's next MPI call (ready_at infinite) */
    /* Placed turns (sim_timed_start), or NULL: per core of every node (index
     * node * cores_per_node + core), the ranks placed there that have not
     * ended, in the order of their turns; and each rank's core. */
    GArray **turns;
    int *core_of;
    /* Why the simulation stopped short (simulated time would have left the
     * finite numbers), or NULL. */
    char *failure;
} T;

bool sim_timed_on; /* T.active, for sim_timed_active */

/* Stops the simulation: a time became infinite or not a number, which
 * the model's arithmetic cannot go on with (the platform's ranges keep its
 * own values far from that; an ordex_compute argument need not be). */
static void time_failure(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static void time_failure(const char *fmt, ...) {
    if (!T.failure) {
        va_list ap;
        va_start(ap, fmt);
        char *what = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        T.failure = g_strdup_printf("simulated time overflowed at %g s: %s (an ordex_compute "
                                    "argument or a platform value far beyond any machine's)",
                                    T.now, what);
        g_free(what);
    }
    sched_request_stop();
}

static void span_add(int rank, double start, double end, const char *name) {
    if (!T.record || end <= start)
        return;
    sim_timed_span s = {rank, start, end, name};
    g_array_append_val(T.spans, s);
}

static void message_add(int src, int dst, double sent, double arrived, uint64_t bytes) {
    if (!T.record)
        return;
    sim_timed_message m = {src, dst, sent, arrived, bytes};
    g_array_append_val(T.messages, m);
}

/* The clock that measures computation: this thread's CPU time.  Between
 * leaving one MPI call and entering the next only that rank runs on this
 * thread, so the thread's CPU time in between is the rank's computation,
 * and time the machine gives to other processes meanwhile is not: wall-clock
 * time counted it, and one rank's computation on a busy machine could come
 * out milliseconds longer.  The price: the clock is a system call (some
 * hundreds of nanoseconds, twice per MPI call) where the monotonic clock is
 * read in tens; that part of it is ordex's own path, subtracted below with
 * the floor.  Time a rank sleeps or waits for I/O is not computation. */
double sim_timed_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wall-clock time, to tell how much the machine interrupted the ranks. */
static double wall_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Involuntary context switches of this thread so far. */
static long involuntary_switches(void) {
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

/* Voluntary ones: the thread blocked (a rank that sleeps or reads a file). */
static long voluntary_switches(void) {
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw : 0;
}

/* The smallest gap between two clock readings: what measuring costs. */
static double measure_clock_cost(void) {
    double best = INFINITY;
    for (int i = 0; i < 64; i++) {
        double a = sim_timed_clock(), b = sim_timed_clock();
        if (b - a < best)
            best = b - a;
    }
    return isfinite(best) ? best : 0;
}

#define FLOOR_SAMPLES 64
#define FLOOR_MAX 2e-6

/* Seconds the running rank computed since it last left MPI. */
static double take_compute(trank *t) {
    double now = sim_timed_clock(), wall = wall_clock();
    double w = now - t->cpu_mark - T.clock_cost;
    bool started = t->cpu_mark >= 0 && !T.ignore_measured;
    if (started) {
        T.measure.compute_cpu_s += now - t->cpu_mark;
        T.measure.compute_wall_s += wall - t->wall_mark;
    }
    t->cpu_mark = now;
    t->wall_mark = wall;
    /* Before its first MPI call a rank's CPU time cannot be told apart from
     * the ranks that ran before it on this thread: it counts as nothing. */
    if (!started)
        return 0;
    if (w < T.floor)
        T.floor = w;
    /* A few samples first, so that the floor is ordex's path and not a
     * real computation; never more than a path of ordex can take. */
    if (++T.measured >= FLOOR_SAMPLES)
        w -= fmin(fmax(T.floor, 0), FLOOR_MAX);
    return w > 0 ? w : 0;
}

/* ---------------------------------------------------------------------- */
/* CPU jobs                                                                */

static void job_register(uint64_t id, int rank, job_kind kind) {
    g_hash_table_insert(T.jobs, GSIZE_TO_POINTER((gsize)id),
                        GSIZE_TO_POINTER((gsize)(((gsize)rank << 1 | kind) + 1)));
}

/* Keeps the CPU model's pollers of t's node in step with t: it counts while
 * it polls, unless work is done on its behalf (sim_timed_serve), which is
 * then what its core does. */
static void count_poller(trank *t) {
    bool on = t->polling && t->serving == 0;
    if (on == t->poll_counted)
        return;
    t->poll_counted = on;
    int n = pm_cpu_pollers(T.cpu, t->node) + (on ? 1 : -1);
    pm_cpu_set_pollers(T.cpu, T.now, t->node, n);
}

/* With busy_wait, a rank inside an MPI call polls (MPICH's and Open MPI's
 * default): it keeps a core busy without progress, so on an oversubscribed
 * node it slows the ranks that compute (cpumodel.h). */
static void set_polling(trank *t, bool on) {
    if (!T.platform->busy_wait || t->polling == on)
        return;
    t->polling = on;
    count_poller(t);
}

/* Runs `work` CPU seconds for the running rank self, starting now; returns
 * when they are done in simulated time (the rank blocks meanwhile). */
static void run_cpu(int self, double work) {
    trank *t = &T.ranks[self];
    if (work <= 0)
        return;
    if (!isfinite(T.now + work / T.platform->speed)) {
        time_failure("rank %d computes for %g s", self, work);
        return;
    }
    bool polling = t->polling;
    set_polling(t, false); /* computing instead */
    uint64_t id = pm_cpu_start(T.cpu, T.now, t->node, work);
    if (id) { /* else a broken contract: go on without simulated time */
        job_register(id, self, JOB_GATE);
        t->job = id;
        t->waiting_cpu = true;
        while (t->waiting_cpu)
            sched_block();
    }
    set_polling(t, polling);
}

static gint by_wake(gconstpointer a, gconstpointer b, gpointer user) {
    (void)user;
    const trank *x = a, *y = b;
    if (x->wake_at != y->wake_at)
        return x->wake_at < y->wake_at ? -1 : 1;
    return (x > y) - (x < y);
}

/* When the placed rank `rank` has its core at or after time t: the turns
 * of every core are time slices from time 0, the m-th going to the
 * (m mod k)-th of the k ranks there. */
static double next_turn(int rank, double t) {
    const GArray *on_core = T.turns[T.core_of[rank]];
    int k = (int)on_core->len;
    double slice = T.platform->timeslice;
    /* No slices (a time slice of 0), or slices too small to count at this
     * time: every rank has its core at once. */
    if (k <= 1 || !(slice > 0) || !(t / slice < 0x1p52))
        return t;
    double m = floor(t / slice);
    int now = (int)fmod(m, k), mine = 0;
    while (mine < k && g_array_index(on_core, int, mine) != rank)
        mine++;
    double at = mine == now ? t : (m + (mine - now + k) % k) * slice;
    return at >= t ? at : t;
}

/* Places the ranks of every node on its cores and in their turns at random
 * (seed `placement`), dealing a shuffled list out core by core. */
static void place_ranks(unsigned placement) {
    int c = T.platform->cores_per_node, ncores = T.platform->nodes * c;
    T.turns = g_new(GArray *, ncores);
    for (int i = 0; i < ncores; i++)
        T.turns[i] = g_array_new(FALSE, FALSE, sizeof(int));
    T.core_of = g_new(int, T.nranks);
    int *order = g_new(int, T.nranks);
    for (int r = 0; r < T.nranks; r++)
        order[r] = r;
    GRand *rand = g_rand_new_with_seed(placement);
    for (int r = T.nranks - 1; r > 0; r--) {
        int j = g_rand_int_range(rand, 0, r + 1), x = order[r];
        order[r] = order[j];
        order[j] = x;
    }
    g_rand_free(rand);
    int *dealt = g_new0(int, T.platform->nodes); /* ranks placed on each node so far */
    for (int i = 0; i < T.nranks; i++) {
        int r = order[i], node = T.ranks[r].node;
        T.core_of[r] = node * c + dealt[node]++ % c;
        g_array_append_val(T.turns[T.core_of[r]], r);
    }
    g_free(dealt);
    g_free(order);
}

/* Rank has ended: the others on its core take its turns. */
static void leave_turns(int rank) {
    if (!T.turns)
        return;
    GArray *on_core = T.turns[T.core_of[rank]];
    for (guint i = 0; i < on_core->len; i++)
        if (g_array_index(on_core, int, i) == rank) {
            g_array_remove_index(on_core, i);
            break;
        }
}

/* How long a polling rank whose wait just ended takes to notice.  Placed
 * (T.turns): until its next turn.  Otherwise, when its node has n ranks that
 * want a core (computing or polling) on c < n cores, the OS gives each a
 * time slice in turn, so a rank is off its core for (n/c - 1) slices of
 * every round, and the end of its wait falls on average half-way through
 * that: (n/c - 1) * timeslice / 2 (the median over placements of the turns'
 * delay, see docs/platform.md).  0 on a node with a core for every rank. */
static double wake_delay(const trank *t) {
    if (T.turns)
        return next_turn((int)(t - T.ranks), T.now) - T.now;
    int n = pm_cpu_runnable(T.cpu, t->node) + pm_cpu_pollers(T.cpu, t->node);
    int c = T.platform->cores_per_node;
    if (n <= c)
        return 0;
    return ((double)n / c - 1) * T.platform->timeslice / 2;
}

/* How long the matched rendezvous message m waits for its receiver to
 * pull the data.  The receiver moves a rendezvous message (it answers the
 * sender's request to send, or copies straight from the sender's memory),
 * so when the receive was already waiting, polling on an oversubscribed
 * node, the data moves only once the receiver has its core again: the same
 * expected delay as noticing the end of a wait.  A receive posted after
 * the request to send arrived is posted by a running rank: no delay. */
static double pull_delay(const sim_message *m) {
    const trank *r = &T.ranks[m->dst];
    if (!r->polling || !r->gated || r->call_start >= m->ready_at)
        return 0;
    return wake_delay(r);
}

/* Blocks the running rank self until `delay` seconds from now. */
static void sleep_for(int self, double delay) {
    trank *t = &T.ranks[self];
    if (!isfinite(T.now + delay)) {
        time_failure("rank %d waits %g s for a core", self, delay);
        return;
    }
    t->wake_at = T.now + delay;
    g_sequence_insert_sorted(T.wakes, t, by_wake, NULL);
    while (t->wake_at >= 0)
        sched_block();
}

/* Calls that only read or build local objects: their time joins the next
 * computation instead of being a point in simulated time of their own.  */
static const char *const local_calls[] = {
    "MPI_Comm_rank",
    "MPI_Comm_size",
    "MPI_Get_count",
    "MPI_Get_elements",
    "MPI_Get_elements_x",
    "MPI_Type_size",
    "MPI_Type_size_x",
    "MPI_Type_contiguous",
    "MPI_Type_vector",
    "MPI_Type_hvector",
    "MPI_Type_indexed",
    "MPI_Type_hindexed",
    "MPI_Type_create_struct",
    "MPI_Type_create_subarray",
    "MPI_Type_create_resized",
    "MPI_Type_commit",
    "MPI_Type_free",
    "MPI_Type_get_extent",
    "MPI_Type_dup",
    "MPI_Op_create",
    "MPI_Op_free",
    "MPI_Comm_group",
    "MPI_Group_size",
    "MPI_Group_rank",
    "MPI_Group_incl",
    "MPI_Group_excl",
    "MPI_Group_free",
    "MPI_Group_translate_ranks",
    "MPI_Get_processor_name",
    "MPI_Initialized",
    "MPI_Finalized",
    "MPI_Error_string",
    "MPI_Error_class",
    "MPI_Query_thread",
    "MPI_Is_thread_main",
    "MPI_Get_address",
    "MPI_Pack",
    "MPI_Unpack",
    "MPI_Pack_size",
    "MPI_Cart_coords",
    "MPI_Cart_rank",
    "MPI_Cart_shift",
    "MPI_Cart_get",
    "MPI_Cartdim_get",
    "MPI_Dims_create",
    "MPI_Topo_test",
    "MPI_Comm_compare",
    "MPI_Comm_set_errhandler",
    "MPI_Comm_get_errhandler",
    "MPI_Comm_set_name",
    "MPI_Comm_get_name",
    "ordex_observe",
};

static bool is_local_call(const char *fname) {
    gpointer v = g_hash_table_lookup(T.local_calls, fname);
    if (v)
        return GPOINTER_TO_INT(v) == 2;
    bool local = false;
    for (size_t i = 0; i < G_N_ELEMENTS(local_calls) && !local; i++)
        local = strcmp(fname, local_calls[i]) == 0;
    /* Keyed by the name's address: every call of one function passes the
     * same string literal. */
    g_hash_table_insert(T.local_calls, (gpointer)fname, GINT_TO_POINTER(local ? 2 : 1));
    return local;
}

/* Whether the library's progress engine runs in this (non-local) call:
 * reading the clock takes a point in simulated time but moves no message. */
static bool makes_progress(const char *fname) {
    return strcmp(fname, "MPI_Wtime") != 0 && strcmp(fname, "MPI_Wtick") != 0;
}

/* Without asynchronous progress a rendezvous message moves only while its
 * receiver is inside an MPI call (the receiver acts on the request to send
 * in the library's progress engine): messages whose receive was matched
 * while the receiver computed wait for its next call, which is now. */
static void release_progress(int self) {
    for (guint i = 0; i < T.held->len;) {
        sim_message *m = g_ptr_array_index(T.held, i);
        if (m->dst != self || isfinite(m->ready_at)) {
            i++;
            continue;
        }
        g_ptr_array_remove_index_fast(T.held, i);
        m->held = false;
        m->hidden = false;
        m->ready_at = T.now;
        m->pulled = true; /* by a rank on its core, and this call progressed it */
        T.ranks[self].await_progress--;
    }
    sim_events_touch(self);
}

void sim_timed_call_enter(int self, const char *fname) {
    if (!T.active)
        return;
    trank *t = &T.ranks[self];
    double w = take_compute(t);
    if (is_local_call(fname)) {
        t->pending_compute += w;
        t->gated = false;
        return;
    }
    double c = w + t->pending_compute, o = t->pending_comm;
    t->pending_compute = t->pending_comm = 0;
    double start = T.now;
    run_cpu(self, c + o);
    double d = T.now - start;
    if (d > 0) {
        double comm = c + o > 0 ? d * o / (c + o) : 0;
        t->st.compute += d - comm;
        t->st.comm += comm;
        span_add(self, start, T.now, "compute");
    }
    set_polling(t, true);
    t->gated = true;
    t->call = fname;
    t->call_start = T.now;
    if (t->await_progress > 0 && makes_progress(fname))
        release_progress(self);
    t->call_overhead = 0;
    t->pull_wait = 0;
    t->rma_moving = 0;
    t->xfer_seen = false;
    t->st.calls++;
    sim_proc_of(self)->clock = T.now;
}

void sim_timed_call_leave(int self) {
    trank *t = &T.ranks[self];
    if (t->gated) {
        double in_call = T.now - t->call_start;
        double waiting = fmax(0, in_call - t->call_overhead);
        double moving = 0;
        if (t->xfer_seen)
            moving = fmax(0, T.now - fmax(t->call_start, t->xfer_start));
        /* Waits for its own one-sided data come before any such end. */
        moving = fmin(waiting, moving + t->rma_moving);
        t->st.comm += t->call_overhead + moving;
        t->st.blocked += waiting - moving;
        /* A message's pull delay is a wait for the core if the call was
         * still waiting then. */
        t->st.core_wait += fmin(t->pull_wait, waiting - moving);
        t->pull_wait = 0;
        /* A polling rank that had to wait returns only once it has a core
         * again; that wait for the core counts as blocked.  A rank that got
         * its core back to pull a message during this call still has it
         * within the slice. */
        bool on_core =
            !T.turns && t->core_at >= t->call_start && T.now - t->core_at < T.platform->timeslice;
        double delay = t->polling && waiting > 0 && !on_core ? wake_delay(t) : 0;
        if (delay > 0) {
            sleep_for(self, delay);
            t->st.blocked += delay;
            t->st.core_wait += delay;
        }
        span_add(self, t->call_start, T.now, t->call);
        t->gated = false;
    }
    set_polling(t, false);
    /* Measured from here: what the rank computes until its next call. */
    t->wall_mark = wall_clock();
    t->cpu_mark = sim_timed_clock();
}

void sim_timed_send_overhead(uint64_t bytes) {
    if (!T.active)
        return;
    int self = sched_current();
    if (self < 0)
        return;
    trank *t = &T.ranks[self];
    double start = T.now;
    run_cpu(self, pm_platform_send_overhead(T.platform, bytes));
    t->call_overhead += T.now - start;
}

void sim_timed_add_work(double seconds) {
    int self = sched_current();
    if (!T.active || self < 0 || !(seconds > 0))
        return;
    T.ranks[self].pending_compute += seconds;
}

void sim_timed_rank_ended(int rank) {
    if (!T.active)
        return;
    leave_turns(rank);
    trank *t = &T.ranks[rank];
    set_polling(t, false);
    /* Scheduler context, but the same thread: the CPU clock still counts the
     * rank's last computation. */
    double w = take_compute(t) + t->pending_compute + t->pending_comm;
    t->pending_compute = t->pending_comm = 0;
    uint64_t id = w > 0 ? pm_cpu_start(T.cpu, T.now, t->node, w) : 0;
    if (id) {
        job_register(id, rank, JOB_END);
        t->call_start = T.now; /* where the final computation starts */
    } else {
        t->st.end = T.now;
    }
}

/* ---------------------------------------------------------------------- */
/* Point-to-point messages                                                 */

/* Rank's current wait ends with data that started moving at `start`: the
 * wait up to then was for another rank, the rest for the data. */
static void note_transfer(int rank, double start) {
    T.ranks[rank].xfer_start = start;
    T.ranks[rank].xfer_seen = true;
}

static xfer *xfer_new(uint64_t id, xfer_kind kind, int src, int dst, uint64_t bytes) {
    xfer *x = g_new0(xfer, 1);
    x->kind = kind;
    x->src = src;
    x->dst = dst;
    x->bytes = bytes;
    x->start = T.now;
    g_hash_table_insert(T.xfers, GSIZE_TO_POINTER((gsize)id), x);
    return x;
}

static void xfer_free(gpointer p) {
    xfer *x = p;
    if (x->deferred)
        g_ptr_array_free(x->deferred, TRUE);
    g_free(x);
}

void sim_timed_message_posted(sim_message *m) {
    if (!T.active)
        return;
    m->sent_at = T.now;
    trank *s = &T.ranks[m->src];
    s->st.messages_sent++;
    s->st.bytes_sent += m->bytes;
    if (m->sreq) {
        /* Rendezvous: the request to send is there at once; the data moves
         * once a receive matches (see fire_due). */
        m->ready_at = T.now;
        return;
    }
    uint64_t id =
        pm_net_start(T.net, T.now, T.ranks[m->src].node, T.ranks[m->dst].node, m->bytes, false);
    if (!id)
        return; /* cannot happen with a valid platform; the message is then instant */
    xfer *x = xfer_new(id, XFER_EAGER, m->src, m->dst, m->bytes);
    x->m = m;
    m->xfer = id;
    m->hidden = true;
}

void sim_timed_message_freed(sim_message *m) {
    if (!T.active)
        return;
    if (m->held) {
        g_ptr_array_remove_fast(T.held, m);
        m->held = false;
        if (!isfinite(m->ready_at))
            T.ranks[m->dst].await_progress--;
    }
    xfer *x = g_hash_table_lookup(T.xfers, GSIZE_TO_POINTER((gsize)m->xfer));
    if (x && x->m == m)
        x->m = NULL; /* cancelled in transit: the bytes still cross the network */
}

void sim_timed_delivered(const sim_message *m, const sim_request *r) {
    if (!T.active)
        return;
    trank *t = &T.ranks[r->owner];
    t->pending_comm += pm_platform_recv_overhead(T.platform, m->bytes);
    if (!m->sreq) { /* eager: it arrived when it became visible */
        note_transfer(r->owner, m->sent_at);
        message_add(m->src, m->dst, m->sent_at, m->ready_at, m->bytes);
    }
}

bool sim_timed_defer(sim_request *req) {
    if (!T.active)
        return false;
    if (T.defer_into) {
        g_ptr_array_add(T.defer_into->deferred, req);
        return true;
    }
    if (req->kind == SIM_REQ_RMA) /* its operation is still on its way (timed_rma.c) */
        return req->timed_run != NULL;
    crun *run = req->timed_run;
    if (req->kind != SIM_REQ_COLL || !run)
        return false;
    int me = req->timed_member;
    if (run->done[me]) {
        note_transfer(req->owner, run->last_arrival);
        req->timed_run = NULL;
        return false;
    }
    run->deferred[me] = req;
    return true;
}

/* The transfer of a matched rendezvous message finished: both sides complete. */
static void rendezvous_done(xfer *x) {
    message_add(x->src, x->dst, x->start, T.now, x->bytes);
    for (guint i = 0; i < x->deferred->len; i++) {
        sim_request *req = g_ptr_array_index(x->deferred, i);
        note_transfer(req->owner, x->start);
        sim_req_complete_now(req);
    }
    sim_events_changed();
}

/* ---------------------------------------------------------------------- */
/* Messages, work and waits of one-sided communication (timed_rma.c)       */

void sim_timed_send(int src, int dst, uint64_t bytes, sim_timed_fn done, void *user) {
    uint64_t id = 0;
    /* A rank's operations on its own window are copies in its memory: no
     * network, but still an arrival (at once) in the order of events. */
    if (src != dst)
        id = pm_net_start(T.net, T.now, T.ranks[src].node, T.ranks[dst].node, bytes, false);
    if (!id) /* to itself, or (a broken contract) instantly */
        id = pm_net_start_path(T.net, T.now, NULL, 0, 0, 1, 0);
    if (!id) { /* cannot happen with a valid model: arrived, then */
        done(user);
        return;
    }
    xfer *x = xfer_new(id, XFER_CALL, src, dst, bytes);
    x->done = done;
    x->user = user;
    if (src != dst) {
        T.ranks[src].st.messages_sent++;
        T.ranks[src].st.bytes_sent += bytes;
    }
}

typedef struct serve {
    int rank;
    sim_timed_fn done;
    void *user;
} serve;

static void serve_done(serve *sv) {
    trank *t = &T.ranks[sv->rank];
    t->serving--;
    count_poller(t);
    sv->done(sv->user);
    g_free(sv);
}

void sim_timed_serve(int rank, double work, sim_timed_fn done, void *user) {
    trank *t = &T.ranks[rank];
    uint64_t id = work > 0 && isfinite(work) ? pm_cpu_start(T.cpu, T.now, t->node, work) : 0;
    if (!id) {
        done(user);
        return;
    }
    serve *sv = g_new(serve, 1);
    sv->rank = rank;
    sv->done = done;
    sv->user = user;
    g_hash_table_insert(T.serves, GSIZE_TO_POINTER((gsize)id), sv);
    t->serving++;
    count_poller(t);
}

void sim_timed_wait_until(bool (*ready)(void *), void *user, bool moving) {
    int self = sched_current();
    trank *t = &T.ranks[self];
    double start = T.now;
    while (!ready(user)) {
        t->rma_waiting = true;
        sched_block();
    }
    t->rma_waiting = false;
    if (moving)
        t->rma_moving += T.now - start;
}

void sim_timed_wake(int rank) {
    if (T.ranks[rank].rma_waiting)
        sched_wake(rank);
}

void sim_timed_charge(int rank, double seconds) {
    if (seconds > 0)
        T.ranks[rank].pending_comm += seconds;
}

const pm_platform *sim_timed_platform(void) {
    return T.platform;
}

/* ---------------------------------------------------------------------- */
/* Collectives                                                             */

static uint64_t coll_start(void *user, int src, int dst, uint64_t bytes, double time) {
    crun *r = user;
    if (r->send_bytes && r->send_bytes[src])
        bytes = r->send_bytes[src][dst];
    int ws = r->world[src], wd = r->world[dst];
    uint64_t id = pm_net_start(T.net, time, T.ranks[ws].node, T.ranks[wd].node, bytes,
                               pm_platform_is_rendezvous(T.platform, bytes));
    if (!id)
        return 0;
    xfer *x = xfer_new(id, XFER_COLL, ws, wd, bytes);
    x->run = r;
    x->msrc = src;
    x->mdst = dst;
    T.ranks[ws].st.messages_sent++;
    T.ranks[ws].st.bytes_sent += bytes;
    return id;
}

static void crun_free(crun *r) {
    g_ptr_array_remove_fast(T.runs, r);
    pm_ca_run_free(r->run);
    pm_ca_free(r->sched);
    if (r->send_bytes)
        for (int i = 0; i < r->p; i++)
            g_free(r->send_bytes[i]);
    g_free(r->send_bytes);
    g_free(r->world);
    g_free(r->deferred);
    g_free(r->done);
    g_free(r);
}

/* Acts on member me of run r having finished its part, if it has. */
static void member_check(crun *r, int me) {
    double t;
    if (r->done[me] || !pm_ca_run_member_done(r->run, me, &t))
        return;
    r->done[me] = true;
    r->remaining--;
    if (r->deferred[me]) {
        sim_request *req = r->deferred[me];
        r->deferred[me] = NULL;
        req->timed_run = NULL;
        note_transfer(req->owner, r->last_arrival);
        sim_req_complete_now(req);
        sim_events_changed();
    } else if (r->c && sim_coll_may_leave_early(r->c, me)) {
        /* Its part is over before everyone has called: MPI lets a member
         * that only gives data go (the defer hook sees it done). */
        sim_coll_leave_early(r->c, me);
        sim_events_changed();
    } else if (r->c && sim_coll_deliver_early(r->c, me)) {
        /* A Bcast member whose data came down the tree needs nobody else. */
        sim_events_changed();
    }
}

static void crun_maybe_free(crun *r) {
    if (r->remaining == 0 && !r->c)
        crun_free(r);
}

void sim_timed_coll_arrive(sim_coll *c, int me, sim_request *req) {
    if (!T.active)
        return;
    crun *r = c->timed;
    if (!r) {
        pm_ca_args a;
        GArray *block = g_array_new(FALSE, TRUE, sizeof(uint64_t));
        GError *err = NULL;
        bool inter = sim_coll_inter_owns(c) && c->kind < SIM_COLL_COMM_DUP;
        pm_ca_schedule *s = inter ? sim_coll_inter_schedule(c, me, &err)
                            : sim_timed_coll_args(c, me, &a, block) ? pm_ca_build(&a, &err)
                                                                    : NULL;
        g_array_free(block, TRUE);
        if (!s) { /* arguments the engine will reject, or that do not tell the sizes (an
                     intercommunicator's bystander): no time for them yet */
            g_clear_error(&err);
            return;
        }
        r = g_new0(crun, 1);
        r->sched = s;
        r->c = c;
        r->kind = c->kind;
        r->p = c->comm->size;
        r->remaining = r->p;
        r->world = g_new(int, r->p);
        for (int i = 0; i < r->p; i++)
            r->world[i] = sim_comm_world(c->comm, i);
        r->deferred = g_new0(sim_request *, r->p);
        r->done = g_new0(bool, r->p);
        if (sim_timed_exact_sizes(c->kind) && !inter)
            r->send_bytes = g_new0(uint64_t *, r->p);
        r->run = pm_ca_run_new(s, T.platform->eager_limit, coll_start, r);
        c->timed = r;
        g_ptr_array_add(T.runs, r);
        /* Members that arrived before the schedule could be made (the root's
         * bystanders, which have no steps) arrive in it now. */
        for (int i = 0; i < r->p; i++)
            if (i != me && (c->reqs[i] || c->left_early[i])) {
                pm_ca_run_arrive(r->run, i, T.now);
                member_check(r, i);
            }
    }
    if (r->send_bytes)
        r->send_bytes[me] = sim_timed_v_sizes(c, me);
    if (req && !req->complete) {
        req->timed_run = r;
        req->timed_member = me;
    }
    r->last_arrival = T.now;
    pm_ca_run_arrive(r->run, me, T.now);
    member_check(r, me);
}

void sim_timed_coll_fired(sim_coll *c) {
    crun *r = c->timed;
    if (!T.active || !r)
        return;
    r->c = NULL;
    c->timed = NULL;
    /* Completions of members not done yet are deferred by sim_timed_defer;
     * the run is freed once they are all done (fire_due, transfer_done). */
}

/* ---------------------------------------------------------------------- */
/* The event loop                                                          */

/* An engine event that may fire now: a visible message (an eager one that
 * arrived, any rendezvous one), or a collective. */
static bool event_due(const sim_event *ev, double *ready, void *user) {
    (void)user;
    if (ev->kind == SIM_EV_COLLECTIVE || ev->kind == SIM_EV_LOCK || ev->kind == SIM_EV_ATOMIC) {
        *ready = T.now;
        return true;
    }
    if (ev->kind != SIM_EV_DELIVER && ev->kind != SIM_EV_PROBE)
        return false;
    const sim_message *m = ev->a;
    if (m->hidden)
        return false;
    *ready = m->ready_at;
    return true;
}

/* Hides m until `until` (INFINITY: until its receiver's next MPI call). */
static void hold(sim_message *m, double until) {
    m->held = true;
    m->hidden = true;
    m->ready_at = until;
    g_ptr_array_add(T.held, m);
}

static void fire_due(const sim_event *ev) {
    if (ev->kind == SIM_EV_COLLECTIVE) {
        crun *r = ((sim_coll *)ev->a)->timed;
        sim_fire(ev); /* completes the members done, defers the others */
        if (r)
            crun_maybe_free(r);
        return;
    }
    const sim_message *m = ev->kind == SIM_EV_DELIVER ? ev->a : NULL;
    if (!m || !m->sreq) {
        sim_fire(ev);
        return;
    }
    /* A rendezvous message meets its receive: the data moves once the
     * receiver is in an MPI call (unless the platform has asynchronous
     * progress) and has a core, and both requests complete when it has
     * arrived. */
    if (!m->pulled) {
        sim_message *held = (sim_message *)m;
        if (!T.platform->async_progress && !T.ranks[m->dst].gated) {
            T.ranks[m->dst].await_progress++;
            hold(held, INFINITY); /* until the receiver's next call */
            return;
        }
        held->pulled = true;
        double delay = pull_delay(m);
        if (delay > 0) {
            T.ranks[m->dst].pull_wait += delay;
            hold(held, T.now + delay);
            return;
        }
    }
    uint64_t id =
        pm_net_start(T.net, T.now, T.ranks[m->src].node, T.ranks[m->dst].node, m->bytes, true);
    if (!id) {
        sim_fire(ev);
        return;
    }
    xfer *x = xfer_new(id, XFER_RDV, m->src, m->dst, m->bytes);
    x->deferred = g_ptr_array_new();
    T.defer_into = x;
    sim_fire(ev);
    T.defer_into = NULL;
}

static void transfer_done(uint64_t id) {
    xfer *x = g_hash_table_lookup(T.xfers, GSIZE_TO_POINTER((gsize)id));
    if (!x)
        return;
    switch (x->kind) {
    case XFER_EAGER:
        if (x->m) {
            x->m->hidden = false;
            x->m->ready_at = T.now;
            x->m->xfer = 0;
            sim_events_touch(x->m->dst);
        }
        break;
    case XFER_RDV:
        rendezvous_done(x);
        break;
    case XFER_CALL:
        if (x->src != x->dst)
            message_add(x->src, x->dst, x->start, T.now, x->bytes);
        x->done(x->user);
        break;
    case XFER_COLL: {
        crun *r = x->run;
        message_add(x->src, x->dst, x->start, T.now, x->bytes);
        pm_ca_run_transfer_done(r->run, id, T.now);
        /* Only the two ends of a step can have finished with it. */
        member_check(r, x->msrc);
        member_check(r, x->mdst);
        crun_maybe_free(r);
        break;
    }
    }
    g_hash_table_remove(T.xfers, GSIZE_TO_POINTER((gsize)id));
}

static void job_done(uint64_t id) {
    serve *sv = g_hash_table_lookup(T.serves, GSIZE_TO_POINTER((gsize)id));
    if (sv) {
        g_hash_table_steal(T.serves, GSIZE_TO_POINTER((gsize)id));
        serve_done(sv);
        return;
    }
    gpointer v = g_hash_table_lookup(T.jobs, GSIZE_TO_POINTER((gsize)id));
    if (!v)
        return;
    g_hash_table_remove(T.jobs, GSIZE_TO_POINTER((gsize)id));
    gsize code = GPOINTER_TO_SIZE(v) - 1;
    int rank = (int)(code >> 1);
    trank *t = &T.ranks[rank];
    if ((code & 1) == JOB_END) {
        double d = T.now - t->call_start;
        t->st.compute += d;
        span_add(rank, t->call_start, T.now, "compute");
        t->st.end = T.now;
        return;
    }
    t->waiting_cpu = false;
    sched_wake(rank);
}

bool sim_timed_step(void) {
    if (sim_events_wake_pollers())
        return true;
    sim_event ev;
    if (sim_events_first_ready(&ev, event_due, NULL)) {
        fire_due(&ev);
        return true;
    }
    double tc = INFINITY, tn = INFINITY, tw = INFINITY, th = INFINITY;
    uint64_t id;
    bool hc = pm_cpu_next(T.cpu, &id, &tc);
    bool hn = pm_net_next_event(T.net, &tn); /* no look-ahead: event by event */
    GSequenceIter *first = g_sequence_get_begin_iter(T.wakes);
    bool hw = !g_sequence_iter_is_end(first);
    if (hw)
        tw = ((trank *)g_sequence_get(first))->wake_at;
    for (guint i = 0; i < T.held->len; i++)
        th = fmin(th, ((sim_message *)g_ptr_array_index(T.held, i))->ready_at);
    if (!hc && !hn && !hw && !isfinite(th))
        return false; /* messages held for a call that no rank will make */
    double t = fmin(fmin(tc, tn), fmin(tw, th));
    if (!isfinite(t)) { /* an event at an infinite time: the models would loop on it */
        time_failure("the next event would be at %g s", t);
        return true; /* the run loop stops (sched_request_stop) */
    }
    if (t < T.now)
        t = T.now;
    T.now = t;
    g_array_set_size(T.net_done, 0);
    g_array_set_size(T.cpu_done, 0);
    pm_net_advance(T.net, t, T.net_done);
    pm_cpu_advance(T.cpu, t, T.cpu_done);
    for (guint i = 0; i < T.net_done->len; i++)
        transfer_done(g_array_index(T.net_done, pm_net_completion, i).id);
    for (guint i = 0; i < T.cpu_done->len; i++)
        job_done(g_array_index(T.cpu_done, pm_cpu_completion, i).id);
    while (!g_sequence_iter_is_end(first = g_sequence_get_begin_iter(T.wakes))) {
        trank *r = g_sequence_get(first);
        if (r->wake_at > t)
            break;
        g_sequence_remove(first);
        r->wake_at = -1;
        sched_wake((int)(r - T.ranks));
    }
    /* Receivers that got their core back: their messages may move now. */
    for (guint i = 0; i < T.held->len;) {
        sim_message *m = g_ptr_array_index(T.held, i);
        if (m->ready_at > t) {
            i++;
            continue;
        }
        g_ptr_array_remove_index_fast(T.held, i);
        m->held = false;
        m->hidden = false;
        T.ranks[m->dst].core_at = t;
        sim_events_touch(m->dst);
    }
    return true;
}

/* ---------------------------------------------------------------------- */
/* Set-up and results                                                      */

bool sim_timed_placement_matters(const pm_platform *p, int nranks) {
    if (!p->busy_wait)
        return false;
    int *node_of = g_new(int, nranks), *count = g_new0(int, p->nodes);
    bool crowded = false;
    if (pm_platform_map(p, nranks, node_of, NULL))
        for (int r = 0; r < nranks && !crowded; r++)
            crowded = ++count[node_of[r]] > p->cores_per_node;
    g_free(node_of);
    g_free(count);
    return crowded;
}

bool sim_timed_start(const pm_platform *platform, bool record, unsigned placement, GError **error) {
    int n = sim_g->nranks;
    int *node_of = g_new(int, n);
    if (!pm_platform_map(platform, n, node_of, error)) {
        g_free(node_of);
        return false;
    }
    memset(&T, 0, sizeof T);
    sim_timed_on = false;
    T.platform = platform;
    T.record = record;
    T.nranks = n;
    T.net = pm_net_new(platform);
    T.cpu = pm_cpu_new(platform->nodes, platform->cores_per_node, platform->speed);
    T.ranks = g_new0(trank, n);
    for (int r = 0; r < n; r++) {
        T.ranks[r].node = node_of[r];
        T.ranks[r].st.node = node_of[r];
        T.ranks[r].st.end = -1;
        T.ranks[r].cpu_mark = -1;
        T.ranks[r].wake_at = -1;
        T.ranks[r].core_at = -1;
    }
    T.wakes = g_sequence_new(NULL);
    T.held = g_ptr_array_new();
    if (placement > 0 && platform->busy_wait)
        place_ranks(placement);
    sim_comm_set_node_map(node_of);
    g_free(node_of);
    T.jobs = g_hash_table_new(g_direct_hash, g_direct_equal);
    T.serves = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    T.xfers = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, xfer_free);
    T.cpu_done = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    T.net_done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    T.spans = g_array_new(FALSE, FALSE, sizeof(sim_timed_span));
    T.messages = g_array_new(FALSE, FALSE, sizeof(sim_timed_message));
    T.local_calls = g_hash_table_new(g_direct_hash, g_direct_equal);
    T.runs = g_ptr_array_new();
    T.clock_cost = measure_clock_cost();
    T.floor = INFINITY;
    T.nivcsw_start = involuntary_switches();
    T.nvcsw_start = voluntary_switches();
    T.active = true;
    sim_timed_on = true;
    sim_timed_rma_reset();
    sim_timed_shmem_reset();
    return true;
}

void sim_timed_stop(void) {
    if (!T.net)
        return;
    sim_timed_rma_reset();
    sim_timed_shmem_reset();
    while (T.runs->len)
        crun_free(g_ptr_array_index(T.runs, 0));
    g_ptr_array_free(T.runs, TRUE);
    g_hash_table_destroy(T.jobs);
    g_hash_table_destroy(T.serves);
    g_hash_table_destroy(T.xfers);
    g_hash_table_destroy(T.local_calls);
    g_array_free(T.cpu_done, TRUE);
    g_array_free(T.net_done, TRUE);
    g_array_free(T.spans, TRUE);
    g_array_free(T.messages, TRUE);
    pm_net_free(T.net);
    pm_cpu_free(T.cpu);
    g_sequence_free(T.wakes);
    g_ptr_array_free(T.held, TRUE);
    if (T.turns)
        for (int i = 0; i < T.platform->nodes * T.platform->cores_per_node; i++)
            g_array_free(T.turns[i], TRUE);
    g_free(T.turns);
    g_free(T.core_of);
    g_free(T.ranks);
    g_free(T.failure);
    memset(&T, 0, sizeof T);
    sim_timed_on = false;
}

const char *sim_timed_failure(void) {
    return T.failure;
}

void sim_timed_measurement(sim_timed_measure *m) {
    *m = T.measure;
    m->involuntary_switches = involuntary_switches() - T.nivcsw_start;
    m->voluntary_switches = voluntary_switches() - T.nvcsw_start;
}

void sim_timed_ignore_measured(bool ignore) {
    T.ignore_measured = ignore;
}

double sim_timed_now(void) {
    return T.now;
}

double sim_timed_makespan(void) {
    double m = 0;
    for (int r = 0; r < T.nranks; r++)
        m = fmax(m, T.ranks[r].st.end);
    return m;
}

const sim_timed_rank *sim_timed_rank_stats(int rank) {
    return &T.ranks[rank].st;
}

GArray *sim_timed_spans(void) {
    return T.record ? T.spans : NULL;
}

GArray *sim_timed_messages(void) {
    return T.record ? T.messages : NULL;
}

const pm_net *sim_timed_net(void) {
    return T.net;
}

const pm_cpu *sim_timed_cpu(void) {
    return T.cpu;
}
