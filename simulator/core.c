/*
 * core.c - the simulated job: set-up, MPI call entry and exit, errors,
 * findings, and the simple clock of `ordex run`.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "scheduler/sched.h"
#include "scheduler/symbolize.h"
#include "simulator/access.h"
#include "simulator/attr.h"
#include "simulator/bufcheck.h"
#include "simulator/datatype.h"
#include "simulator/engine.h"
#include "simulator/errhandler.h"
#include "simulator/events.h"
#include "simulator/file.h"
#include "simulator/held.h"
#include "simulator/info.h"
#include "simulator/intercomm.h"
#include "simulator/op.h"
#include "simulator/report.h"
#include "simulator/rma.h"
#include "simulator/shmem.h"
#include "simulator/sim_internal.h"
#include "simulator/timed.h"

sim_state *sim_g;

static GPtrArray *g_findings;
static int g_paused; /* ranks paused at a progress point */
static uint64_t g_delivered;

const char *sim_finding_kind_name(sim_finding_kind kind) {
    switch (kind) {
    case SIM_F_DEADLOCK:
        return "deadlock";
    case SIM_F_CRASH:
    case SIM_F_STACK_OVERFLOW:
    case SIM_F_ABORT:
    case SIM_F_EXIT_STATUS:
    case SIM_F_HEAP:
        return "crash";
    case SIM_F_LIVELOCK:
        return "livelock";
    case SIM_F_MPI_ERROR:
    case SIM_F_NO_FINALIZE:
        return "mpi_error";
    case SIM_F_LOST_MESSAGE:
        return "lost_message";
    case SIM_F_PENDING_REQUEST:
        return "pending_request";
    case SIM_F_UNSUPPORTED:
        return "unsupported";
    case SIM_F_DATA_RACE:
        return "data_race";
    case SIM_F_LEAK:
        return "leak";
    case SIM_F_ACTIVE_FREED:
        return "freed_active_request";
    case SIM_F_TYPE_MISMATCH:
        return "type_mismatch";
    case SIM_F_SYMMETRIC_HEAP_FULL:
        return "symmetric_heap_full";
    }
    return "error";
}

bool sim_finding_kind_advisory(sim_finding_kind kind) {
    return kind == SIM_F_LEAK || kind == SIM_F_ACTIVE_FREED || kind == SIM_F_TYPE_MISMATCH ||
           kind == SIM_F_SYMMETRIC_HEAP_FULL;
}

bool sim_findings_have_error(GPtrArray *findings) {
    for (guint i = 0; i < findings->len; i++)
        if (!sim_finding_kind_advisory(((const sim_finding *)g_ptr_array_index(findings, i))->kind))
            return true;
    return false;
}

bool sim_findings_unsupported(GPtrArray *findings) {
    for (guint i = 0; i < findings->len; i++)
        if (((const sim_finding *)g_ptr_array_index(findings, i))->kind == SIM_F_UNSUPPORTED)
            return true;
    return false;
}

static const char *thread_level_name(int level) {
    return level == MPI_THREAD_SINGLE       ? "MPI_THREAD_SINGLE"
           : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
           : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
                                            : "MPI_THREAD_MULTIPLE";
}

/* A rank that asked MPI_Init_thread for more than ordex provides and then
 * stopped (aborted, exited with an error, ended without MPI_Finalize) most
 * likely stopped because of that, as programs are written to: that is
 * ordex's limit, reported as such instead of as the program's error. */
static bool stopped_for_thread_level(sim_finding_kind kind, const int *ranks, int nranks,
                                     char **message) {
    if (kind != SIM_F_ABORT && kind != SIM_F_EXIT_STATUS && kind != SIM_F_NO_FINALIZE &&
        kind != SIM_F_CRASH)
        return false;
    for (int i = 0; i < nranks; i++) {
        if (ranks[i] < 0 || ranks[i] >= sim_g->nranks)
            continue;
        sim_proc *p = sim_proc_of(ranks[i]);
        if (p->thread_required <= p->thread_level)
            continue;
        char *m = g_strdup_printf(
            "the program needs %s, which ordex does not support (rank %d asked MPI_Init_thread for "
            "it at %s and "
            "stopped when ordex provided %s; ordex runs the ranks of a program as contexts of "
            "one thread): %s",
            thread_level_name(p->thread_required), ranks[i], sim_location(p->init_site),
            thread_level_name(p->thread_level), *message);
        g_free(*message);
        *message = m;
        return true;
    }
    return false;
}

static void finding_free(gpointer p) {
    sim_finding *f = p;
    g_free(f->ranks);
    g_free(f->message);
    g_free(f->details);
    g_free(f->location);
    g_free(f);
}

sim_finding *sim_add_finding(sim_finding_kind kind, const int *ranks, int nranks,
                             const char *location, char *message, char *details) {
    if (stopped_for_thread_level(kind, ranks, nranks, &message))
        kind = SIM_F_UNSUPPORTED;
    sim_finding *f = g_new0(sim_finding, 1);
    f->kind = kind;
    f->ranks = g_memdup2(ranks, sizeof(int) * (size_t)nranks);
    f->nranks = nranks;
    f->location = g_strdup(location);
    f->message = message;
    f->details = details;
    g_ptr_array_add(g_findings, f);
    return f;
}

GPtrArray *sim_findings(void) {
    return g_findings;
}

/* ---------------------------------------------------------------------- */
/* Time                                                                    */

/* The rank's computation between MPI calls is the CPU time of the thread it
 * runs on (one thread for all ranks, or its own with --threads): time the
 * machine gives to other processes does not count, nor time it sleeps.
 *
 * That clock is a system call (close to a microsecond on virtual machines)
 * and every MPI call crosses two compute boundaries, so intervals are timed
 * with the time stamp counter (some nanoseconds) and the thread's CPU clock
 * is read only when more than SYNC_S passed on the counter since its last
 * reading: what the thread did not run in between (other processes, a rank
 * asleep) is then taken off the interval.  An interval can thus count at
 * most SYNC_S of time the thread spent off the CPU; a counter that does not
 * advance (or goes back) makes every boundary read the CPU clock as before. */
#define SYNC_S 200e-6

static double thread_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double monotonic_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline uint64_t ticks(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0; /* no counter: tick_calibrate finds it unusable */
#endif
}

/* Seconds per tick: measured over 200 us at the first boundary, then over
 * the whole run at every reading of the CPU clock (the longer the baseline,
 * the smaller the error of the two clock readings it rests on). */
static double g_tick_s;       /* 0: not measured yet; < 0: no usable counter */
static uint64_t g_sync_ticks; /* SYNC_S in ticks */
static uint64_t g_base_ticks;
static double g_base_mono;

static void tick_calibrate(void) {
    double m0 = monotonic_s(), m1;
    uint64_t c0 = ticks(), c1;
    do {
        m1 = monotonic_s();
        c1 = ticks();
    } while (m1 - m0 < 200e-6 && m1 >= m0);
    if (c1 <= c0 || !(m1 > m0)) {
        g_tick_s = -1;
        return;
    }
    g_tick_s = (m1 - m0) / (double)(c1 - c0);
    g_sync_ticks = (uint64_t)(SYNC_S / g_tick_s);
    g_base_ticks = c0;
    g_base_mono = m0;
}

static void tick_refine(uint64_t now) {
    double m = monotonic_s();
    if (now > g_base_ticks && m - g_base_mono > 0.01) {
        g_tick_s = (m - g_base_mono) / (double)(now - g_base_ticks);
        g_sync_ticks = (uint64_t)(SYNC_S / g_tick_s);
    }
}

/* The last reading of this thread's CPU clock and the counter with it. */
static __thread struct {
    uint64_t ticks;
    double cpu;
    bool valid;
} t_sync;

static void clock_sync(void) {
    t_sync.cpu = thread_cpu_s();
    t_sync.ticks = ticks();
    t_sync.valid = true;
    tick_refine(t_sync.ticks);
}

/* A rank leaves MPI: its computation starts now. */
static void compute_begin(sim_proc *p) {
    if (G_UNLIKELY(g_tick_s == 0))
        tick_calibrate();
    if (g_tick_s < 0) {
        p->compute_cpu = thread_cpu_s();
        return;
    }
    uint64_t now = ticks();
    if (!t_sync.valid || now - t_sync.ticks > g_sync_ticks) {
        clock_sync();
        now = t_sync.ticks;
    }
    p->compute_mark = now;
}

double sim_transfer_time(size_t bytes) {
    return sim_g->cfg.latency_s + (double)bytes / sim_g->cfg.bandwidth_Bps;
}

/* The rank's computation since compute_begin, charged to its clock (the
 * simple clock of run: not exploring, no timed engine). */
static inline void charge_compute(sim_proc *p) {
    if (g_tick_s < 0) {
        double t = thread_cpu_s();
        if (p->compute_cpu > 0 && t > p->compute_cpu)
            p->clock += t - p->compute_cpu;
        p->compute_cpu = 0;
        return;
    }
    if (!p->compute_mark)
        return;
    uint64_t now = ticks(), mark = p->compute_mark;
    p->compute_mark = 0;
    double charge = now > mark ? (double)(now - mark) * g_tick_s : 0;
    if (!t_sync.valid || now - t_sync.ticks > g_sync_ticks) {
        double cpu = thread_cpu_s();
        if (t_sync.valid && now > t_sync.ticks) {
            double wall = (double)(now - t_sync.ticks) * g_tick_s, ran = cpu - t_sync.cpu;
            if (wall > ran)
                charge -= wall - ran;
        }
        t_sync.cpu = cpu;
        t_sync.ticks = now;
        t_sync.valid = true;
        tick_refine(now);
    }
    if (charge > 0)
        p->clock += charge;
}

void sim_clock_charge_compute(int world_rank) {
    /* Exploring: the same path, the same times (sim_call_enter adds a fixed
     * time per call instead). */
    if (sim_g->cfg.exploring || sim_timed_active())
        return;
    charge_compute(sim_proc_of(world_rank));
}

double sim_predicted_time(void) {
    double t = 0;
    for (int i = 0; i < sim_g->nranks; i++)
        if (sim_g->procs[i].clock > t)
            t = sim_g->procs[i].clock;
    return t;
}

uint64_t sim_messages_delivered(void) {
    return g_delivered;
}
void sim_count_delivery(void) {
    g_delivered++;
}

/* ---------------------------------------------------------------------- */
/* Choices inside MPI calls                                                */

static bool g_choice_events;
static int g_choosing; /* ranks waiting in a choice */

void sim_set_choice_events(bool on) {
    g_choice_events = on;
}

int sim_choose(int n, const char *what) {
    return sim_choose_among(n, what, NULL);
}

int sim_choose_among(int n, const char *what, const int64_t *ids) {
    if (n <= 1)
        return 0;
    if (g_choice_events) {
        /* The rank waits here until the strategy fires one of its choice
         * events, so that a choice is a transition like a delivery. */
        sim_proc *p = sim_proc_of(sim_self());
        p->choice_n = n;
        p->choice_what = what;
        p->choice_pick = -1;
        p->choice_ids = ids ? g_memdup2(ids, sizeof(int64_t) * (size_t)n) : NULL;
        p->choice_seq++;
        g_choosing++;
        sim_events_changed();
        while (p->choice_pick < 0)
            sched_block();
        p->choice_n = 0;
        g_free(p->choice_ids);
        p->choice_ids = NULL;
        return p->choice_pick;
    }
    return sim_g->rng ? g_rand_int_range(sim_g->rng, 0, n) : 0;
}

/* ---------------------------------------------------------------------- */
/* Call entry and exit                                                     */

/* The calls that ask about MPI itself, which any thread may make:
 * MPI_Is_thread_main exists to be asked from other threads, and MPI 4.0 lets
 * the version and initialisation queries be called at any time. */
static bool any_thread_may_call(const char *fname) {
    static const char *const any[] = {
        "MPI_Is_thread_main", "MPI_Query_thread", "MPI_Initialized",
        "MPI_Finalized",      "MPI_Get_version",  "MPI_Get_library_version",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(any); i++)
        if (strcmp(fname, any[i]) == 0)
            return true;
    return false;
}

/* An MPI call from a thread the rank created.  Ordex grants at most
 * MPI_THREAD_FUNNELED, where only the main thread may call MPI (MPI 3.1
 * section 12.4.3): the program's error if it asked for no more, ordex's
 * limit if it asked for SERIALIZED or MULTIPLE (and went on regardless). */
static void foreign_thread_call(int self, sim_proc *p, const char *fname) {
    int ranks[1] = {self};
    sim_finding_kind kind;
    char *msg;
    if (p->thread_required > MPI_THREAD_FUNNELED) {
        kind = SIM_F_UNSUPPORTED;
        msg = g_strdup_printf("rank %d: %s from a thread other than the rank's main one (the "
                              "program asked MPI_Init_thread at %s for %s; ordex provides "
                              "MPI_THREAD_FUNNELED and runs MPI calls on a rank's main thread "
                              "only), which ordex does not implement",
                              self, fname, sim_location(p->init_site),
                              thread_level_name(p->thread_required));
    } else {
        kind = SIM_F_MPI_ERROR;
        msg = g_strdup_printf(
            "rank %d: %s called from a thread other than the rank's main thread "
            "(the one that called %s at %s), under %s: only the main thread may "
            "call MPI (MPI 3.1 section 12.4.3)",
            self, fname, p->thread_required == MPI_THREAD_FUNNELED ? "MPI_Init_thread" : "MPI_Init",
            sim_location(p->init_site), thread_level_name(p->thread_level));
    }
    sim_add_finding(kind, ranks, 1, sim_location(p->call_site), msg, sim_report_backtrace_here());
    /* Neither the rank's abort nor a stop of the run: both act on the rank's
     * own context, which this thread is not (and with --threads the rank's
     * OS thread, waiting in pthread_join, would outlive the run).  The call
     * goes on, as it would under a real MPI, and the run ends as it ends. */
    p->foreign_reported = true;
}

void sim_call_enter(const char *fname, void *caller, void *frame) {
    /* A process forked by a rank has no MPI of its own. */
    if (G_UNLIKELY(sched_forked_child))
        sched_forked_child_mpi(fname, sim_location(caller));
    sched_enter_sim();
    int self = sched_current();
    if (self < 0)
        return;
    sim_proc *p = sim_proc_of(self);
    if (p->call_depth++ == 0) {
        if (!sim_g->cfg.exploring && !sim_timed_active())
            charge_compute(p);
        if (sim_g->cfg.exploring)
            p->clock += SIM_EXPLORE_CALL_TIME;
        p->call = fname;
        p->call_site = caller;
        p->entry_sp = (char *)frame + sizeof(void *); /* from the return address up */
        if (p->call_args) {
            g_free(p->call_args);
            p->call_args = NULL;
        }
        p->p2p_lazy = false;
        p->noutputs = 0;
        p->alias_base = p->alias_shown = NULL;
        if (sim_g->cfg.exploring)
            sim_capture_call_frame(caller, p->call_regs, &p->call_frames);
        sim_rma_rank_entered(self);
        if (sim_timed_active())
            sim_timed_call_enter(self, fname);
        if (p->initialized && !p->finalized && !p->foreign_reported &&
            !pthread_equal(pthread_self(), p->main_thread) && !any_thread_may_call(fname))
            foreign_thread_call(self, p, fname);
    }
}

/* MPI lets a message land in a posted receive at any time until the receive
 * completes, also while the receiver computes.  Exploration models that by
 * pausing a rank at the end of an MPI call when a delivery into one of its
 * posted receives is possible: then either the delivery comes first (and
 * the program may see the buffer change), or the rank resumes first. */
static void progress_point(int self, sim_proc *p) {
    if (!sim_g->cfg.async_progress || p->finalized || !sim_engine_has_work(self))
        return;
    /* One pause per receive is enough to give the program the two views of
     * its buffer (filled before it goes on, or only at completion): pause
     * only for receives that have not been offered early delivery yet. */
    sim_event ev[8];
    int n = sim_engine_events(self, ev, 8), fresh = 0;
    for (int i = 0; i < n; i++)
        if (ev[i].kind == SIM_EV_DELIVER && sim_engine_offer_early(ev[i].b))
            fresh++;
    if (!fresh)
        return;
    p->at_progress = true;
    g_paused++;
    p->progress_seq++;
    sim_events_changed();
    while (p->at_progress)
        sched_block();
}

void sim_call_output(void *p, size_t len) {
    int self = sched_current();
    if (self < 0 || !p || !len)
        return;
    sim_proc *proc = sim_proc_of(self);
    if (proc->noutputs < SIM_MAX_OUTPUTS)
        proc->outputs[proc->noutputs++] = (sim_span){p, len};
}

void sim_call_status_output(MPI_Status *status) {
    if (status != MPI_STATUS_IGNORE)
        sim_call_output(status, offsetof(MPI_Status, MPI_ERROR));
}

const sim_call_frames *sim_rank_call_frames(int rank) {
    static const sim_call_frames none = {{0}, {0}, 0};
    const sim_proc *p = sim_proc_of(rank);
    return p->call && sim_g->cfg.exploring ? &p->call_frames : &none;
}

int sim_rank_pending_outputs(int rank, sim_span *out, int max) {
    const sim_proc *p = sim_proc_of(rank);
    if (!p->call)
        return 0;
    int n = p->noutputs < max ? p->noutputs : max;
    memcpy(out, p->outputs, sizeof(sim_span) * (size_t)n);
    return n;
}

void sim_call_leave(void) {
    int self = sched_current();
    if (self >= 0) {
        sim_proc *p = sim_proc_of(self);
        if (p->call_depth == 1) {
            p->noutputs = 0; /* written now: live again during the pause below */
            p->last_call = p->call;
            if (sim_g->cfg.async_progress)
                progress_point(self, p);
        }
        if (--p->call_depth == 0) {
            p->call = NULL;
            p->alias_base = p->alias_shown = NULL;
            if (sim_timed_active())
                sim_timed_call_leave(self);
            else if (!sim_g->cfg.exploring)
                compute_begin(p);
        }
    }
    sched_leave_sim();
}

bool sim_rank_at_progress(int rank) {
    return sim_proc_of(rank)->at_progress;
}

uint64_t sim_rank_progress_seq(int rank) {
    return sim_proc_of(rank)->progress_seq;
}

void sim_engine_describe_resume(int rank, sim_event_info *out) {
    sim_proc *p = sim_proc_of(rank);
    out->site_a = p->call_site;
    out->what = p->last_call;
}

void sim_resume_rank(int rank) {
    sim_proc *p = sim_proc_of(rank);
    if (p->at_progress)
        g_paused--;
    p->at_progress = false;
    sched_wake(rank);
}

int sim_ranks_paused(void) {
    return g_paused;
}

int sim_ranks_choosing(void) {
    return g_choosing;
}

void sim_choice_events(GArray *out) {
    if (!g_choosing)
        return;
    for (int r = 0; r < sim_g->nranks; r++) {
        const sim_proc *p = sim_proc_of(r);
        if (p->choice_n > 0 && p->choice_pick < 0)
            for (int k = 0; k < p->choice_n; k++) {
                sim_event ev = {SIM_EV_CHOICE, r, -1, (uint64_t)k, NULL, NULL};
                g_array_append_val(out, ev);
            }
    }
}

void sim_fire_choice(const sim_event *ev) {
    sim_proc *p = sim_proc_of(ev->rank);
    if (p->choice_n <= 0 || p->choice_pick >= 0 || ev->order >= (uint64_t)p->choice_n)
        return;
    p->choice_pick = (int)ev->order;
    g_choosing--;
    sched_wake(ev->rank);
}

void sim_describe_choice(const sim_event *ev, sim_event_info *out) {
    const sim_proc *p = sim_proc_of(ev->rank);
    out->tag = -1;
    out->comm = -1;
    out->src = -1;
    out->site_a = p->call_site;
    out->what = p->choice_what;
}

int sim_rank_choice_alternatives(int rank) {
    const sim_proc *p = sim_proc_of(rank);
    return p->choice_pick < 0 ? p->choice_n : 0;
}

int64_t sim_choice_canon_id(const sim_event *ev) {
    const sim_proc *p = sim_proc_of(ev->rank);
    return p->choice_ids && ev->order < (uint64_t)p->choice_n ? p->choice_ids[ev->order]
                                                              : (int64_t)ev->order;
}

void sim_choice_key(const sim_event *ev, uint64_t *msg, uint64_t *recv) {
    *msg = ev->order;
    *recv = sim_proc_of(ev->rank)->choice_seq;
}

void sim_call_args(const char *fmt, ...) {
    int self = sched_current();
    if (self < 0)
        return;
    sim_proc *p = sim_proc_of(self);
    if (p->call_depth > 1)
        return; /* the outermost call describes itself */
    va_list ap;
    va_start(ap, fmt);
    g_free(p->call_args);
    p->call_args = g_strdup_vprintf(fmt, ap);
    p->p2p_lazy = false;
    va_end(ap);
}

void sim_call_args_p2p(bool is_recv, int count, MPI_Datatype type, int peer, int tag,
                       struct sim_comm *comm) {
    int self = sched_current();
    if (self < 0)
        return;
    sim_proc *p = sim_proc_of(self);
    if (p->call_depth > 1)
        return;
    sim_p2p_args *a = &p->p2p_args;
    a->is_recv = is_recv;
    a->count = count;
    a->type = type;
    a->peer = peer;
    a->tag = tag;
    a->comm = comm;
    p->p2p_lazy = true;
}

static const char *peer_text(int peer, char *buf, size_t n) {
    if (peer == MPI_ANY_SOURCE)
        return "MPI_ANY_SOURCE";
    if (peer == MPI_PROC_NULL)
        return "MPI_PROC_NULL";
    snprintf(buf, n, "%d", peer);
    return buf;
}

const char *sim_call_args_text(int world_rank) {
    sim_proc *p = sim_proc_of(world_rank);
    if (p->p2p_lazy) {
        const sim_p2p_args *a = &p->p2p_args;
        char pb[16], tb[16];
        if (a->tag == MPI_ANY_TAG)
            snprintf(tb, sizeof tb, "MPI_ANY_TAG");
        else
            snprintf(tb, sizeof tb, "%d", a->tag);
        g_free(p->call_args);
        p->call_args =
            g_strdup_printf("%s=%s, tag=%s, count=%d, %s, %s", a->is_recv ? "source" : "dest",
                            peer_text(a->peer, pb, sizeof pb), tb, a->count, sim_dt_name(a->type),
                            sim_comm_describe(a->comm));
        p->p2p_lazy = false;
    }
    return p->call_args ? p->call_args : "";
}

const char *sim_location(void *call_site) {
    if (!call_site)
        return "?";
    const char *l = sched_symbolize_line(call_site, true);
    return l ? l : sched_symbolize(call_site, true);
}

int sim_check_initialized(void) {
    sim_proc *p = sim_proc_of(sim_self());
    if (!p->initialized)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_OTHER,
                         "%s called before MPI_Init (or MPI_Init_thread)", p->call);
    if (p->finalized)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_OTHER, "%s called after MPI_Finalize", p->call);
    return MPI_SUCCESS;
}

/* Calls the program's error handler fn for an error with `code` on c (a
 * window's own communicator stands for the window). */
static void call_user_handler(sim_errh_fn fn, MPI_Comm comm, const sim_comm *c, int code) {
    MPI_Win win = c ? sim_rma_win_of_comm(c) : MPI_WIN_NULL;
    int handle = win != MPI_WIN_NULL ? win : comm;
    /* Program code: its heap, its MPI calls. */
    sched_leave_sim();
    fn(&handle, &code);
    sched_enter_sim();
}

void sim_call_alias(const char *base, const char *shown) {
    int self = sched_current();
    if (self < 0)
        return;
    sim_proc *p = sim_proc_of(self);
    p->alias_base = base;
    p->alias_shown = shown;
}

const char *sim_call_shown(const char *name) {
    int self = sched_current();
    if (self < 0 || !name)
        return name;
    sim_proc *p = sim_proc_of(self);
    if (p->alias_base && strcmp(name, p->alias_base) == 0)
        return p->alias_shown;
    return name;
}

/* A message that starts with the alias's base name ("MPI_Send: count ...")
 * gets the name of the call the program made instead (takes text). */
static char *alias_text(char *text) {
    sim_proc *p = sim_proc_of(sim_self());
    const char *base = p->alias_base;
    size_t n = base ? strlen(base) : 0;
    if (!n || strncmp(text, base, n) != 0 || (text[n] != ':' && text[n] != ' '))
        return text;
    char *out = g_strconcat(p->alias_shown, text + n, NULL);
    g_free(text);
    return out;
}

/* ranks == NULL: the error is the calling rank's alone. */
static _Noreturn void fatal_common(void *site, const int *ranks, int nranks, const char *fmt,
                                   va_list ap) {
    int self = sim_self();
    char *text = alias_text(g_strdup_vprintf(fmt, ap));
    int own[1] = {self};
    const char *loc = sim_location(site);
    char *msg = ranks ? g_strdup(text) : g_strdup_printf("rank %d: %s", self, text);
    char *details = sim_report_backtrace_here();
    sim_add_finding(SIM_F_MPI_ERROR, ranks ? ranks : own, ranks ? nranks : 1, loc, msg, details);
    g_free(text);
    sched_abort_current();
}

static int error_common(MPI_Comm comm, int errclass, void *site, const int *ranks, int nranks,
                        const char *fmt, va_list ap) {
    int self = sim_self();
    if (comm == MPI_COMM_NULL)
        comm = MPI_COMM_WORLD;
    MPI_Errhandler eh = MPI_ERRORS_ARE_FATAL;
    sim_comm *c = sim_comm_get(comm, self);
    if (c)
        eh = sim_comm_errhandler(c, self);
    if (eh == MPI_ERRORS_RETURN)
        return errclass;
    sim_errh_fn fn = sim_errh_function(self, eh);
    if (fn) {
        call_user_handler(fn, comm, c, errclass);
        return errclass;
    }
    fatal_common(site, ranks, nranks, fmt, ap);
}

void sim_fatal_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fatal_common(sim_proc_of(sim_self())->call_site, NULL, 0, fmt, ap);
}

int sim_error(MPI_Comm comm, int errclass, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = error_common(comm, errclass, sim_proc_of(sim_self())->call_site, NULL, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int sim_error_at(MPI_Comm comm, int errclass, void *call_site, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc =
        error_common(comm, errclass, call_site ? call_site : sim_proc_of(sim_self())->call_site,
                     NULL, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int sim_error_ranks(MPI_Comm comm, int errclass, void *call_site, const int *ranks, int nranks,
                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc =
        error_common(comm, errclass, call_site ? call_site : sim_proc_of(sim_self())->call_site,
                     ranks, nranks, fmt, ap);
    va_end(ap);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Rank ends                                                               */

static void on_rank_exit(int rank, int code) {
    sim_proc *p = sim_proc_of(rank);
    int ranks[1] = {rank};
    sim_timed_rank_ended(rank);
    if (sim_shmem_rank_ended(rank, code))
        return;
    if ((!p->initialized || p->finalized) && code == 0)
        return;
    /* Where the rank ended is unknown; its last MPI call is the best pointer. */
    const char *last = p->call_site ? sim_location(p->call_site) : NULL;
    if (p->initialized && !p->finalized)
        sim_add_finding(SIM_F_NO_FINALIZE, ranks, 1, last,
                        g_strdup_printf("rank %d ended (status %d) without calling MPI_Finalize; "
                                        "its last MPI call is shown",
                                        rank, code),
                        NULL);
    else if (code != 0)
        sim_add_finding(SIM_F_EXIT_STATUS, ranks, 1, last,
                        g_strdup_printf("rank %d exited with status %d (its last MPI call is "
                                        "shown)",
                                        rank, code),
                        NULL);
}

static bool on_rank_fail(int rank, const sched_fault *fault) {
    sim_report_fault(rank, fault);
    return true; /* a crashed rank ends the job, as under mpiexec */
}

/* ---------------------------------------------------------------------- */
/* Set-up                                                                  */

void sim_create(const sim_config *cfg) {
    sim_g = g_new0(sim_state, 1);
    sim_g->cfg = *cfg;
    if (sim_g->cfg.latency_s <= 0)
        sim_g->cfg.latency_s = 1e-6;
    if (sim_g->cfg.bandwidth_Bps <= 0)
        sim_g->cfg.bandwidth_Bps = 10e9;
    sim_g->nranks = cfg->nranks;
    sim_g->procs = g_new0(sim_proc, cfg->nranks);
    for (int i = 0; i < cfg->nranks; i++) {
        sim_g->procs[i].rank = i;
        sim_touch_rank(i);
    }
    for (int i = 0; i < cfg->nranks; i++) {
        sim_g->procs[i].requests = g_ptr_array_new();
        sim_g->procs[i].free_requests = g_array_new(FALSE, FALSE, sizeof(guint));
    }
    sim_g->rng = cfg->seed ? g_rand_new_with_seed((guint32)(cfg->seed * 2654435761u)) : NULL;
    g_findings = g_ptr_array_new_with_free_func(finding_free);
    g_delivered = 0;
    g_paused = 0;
    g_choosing = 0;
    sim_dt_init();
    sim_op_init();
    sim_comm_init(cfg->nranks);
    sim_engine_init(cfg->nranks);
    sim_events_init(cfg->nranks);
    sim_coll_init();
    sim_rma_init(cfg->nranks);
    sim_access_init(cfg->nranks, cfg->rma_separate);
    sim_shmem_init(cfg->nranks);
    sim_held_init(cfg->nranks);
    sim_report_init();
    sim_bufcheck_init();
    sim_intercomm_init();
    sim_attr_init(cfg->nranks);
    sim_errh_init(cfg->nranks);
    sim_file_init(cfg->nranks);
    sim_info_init(cfg->nranks);
    if (sched_program_path())
        sim_info_set_command(sched_program_path());
    sched_set_exit_hook(on_rank_exit);
    sched_set_fail_hook(on_rank_fail);
}

void sim_destroy(void) {
    if (!sim_g)
        return;
    sim_shmem_fini();
    sim_file_fini();
    sim_access_fini();
    sim_bufcheck_fini();
    sim_report_fini();
    sim_held_fini();
    sim_info_fini();
    sim_errh_fini();
    sim_attr_fini();
    sim_intercomm_fini();
    sim_rma_fini();
    sim_coll_fini();
    sim_events_fini();
    sim_engine_fini();
    sim_req_reset();
    sim_comm_fini();
    sim_op_fini();
    sim_dt_fini();
    for (int i = 0; i < sim_g->nranks; i++) {
        g_free(sim_g->procs[i].call_args);
        g_free(sim_g->procs[i].waits);
        g_ptr_array_free(sim_g->procs[i].requests, TRUE);
        if (sim_g->procs[i].observed)
            g_ptr_array_free(sim_g->procs[i].observed, TRUE);
        g_array_free(sim_g->procs[i].free_requests, TRUE);
    }
    g_free(sim_g->procs);
    if (sim_g->rng)
        g_rand_free(sim_g->rng);
    g_ptr_array_free(g_findings, TRUE);
    g_findings = NULL;
    g_free(sim_g);
    sim_g = NULL;
}

int sim_comm_digest_id(const sim_comm *c) {
    return c ? c->id : -1;
}

/* Never reset, not even by sim_create (see sim_rank_touched). */
static uint64_t g_touch_clock;

void sim_touch_rank(int rank) {
    sim_proc_of(rank)->touched = ++g_touch_clock;
}

uint64_t sim_rank_touched(int rank) {
    return sim_proc_of(rank)->touched;
}

const void *sim_rank_stack_from(int rank) {
    sim_proc *p = sim_proc_of(rank);
    return p->call ? p->entry_sp : NULL;
}

void sim_digest_rank(int r, sim_digest_feed feed, void *user) {
    sim_proc *p = sim_proc_of(r);
    int64_t f[9] = {r,
                    sched_rank_state(r),
                    sched_rank_exit_code(r),
                    p->initialized,
                    p->finalized,
                    (int64_t)(intptr_t)p->call,
                    (int64_t)(intptr_t)p->call_site,
                    p->polling,
                    p->at_progress};
    feed(user, f, sizeof f);
    if (p->choice_n > 0) { /* waiting in a choice: which one (the stack is not hashed) */
        int64_t c[2] = {p->choice_n, p->choice_pick};
        feed(user, c, sizeof c);
        if (p->choice_what)
            feed(user, p->choice_what, strlen(p->choice_what));
    }
    uint64_t out = sched_rank_output_hash(r);
    feed(user, &out, sizeof out);
    if (p->call && sim_g->cfg.exploring)
        feed(user, p->call_regs, sizeof p->call_regs);
    sim_req_digest_rank(r, feed, user);
    sim_held_digest(r, feed, user);
    /* What is local to the rank's process: it changes while the rank runs,
     * or when a collective (which touches every rank) hands it what it
     * prepared (MPI_Comm_idup's attributes, a window's hints). */
    sim_attr_digest_rank(r, feed, user);
    sim_errh_digest_rank(r, feed, user);
    sim_info_digest_rank(r, feed, user);
}

void sim_digest_engine(sim_digest_feed feed, void *user) {
    sim_engine_digest(feed, user);
    sim_rma_digest(feed, user);
    sim_access_digest(feed, user);
    sim_intercomm_digest(feed, user);
    sim_shmem_digest(feed, user);
    sim_file_digest(feed, user);
}

void sim_rank_observed(int rank, sim_observed_fn fn, void *user) {
    sim_proc *p = sim_proc_of(rank);
    for (guint i = 0; p->observed && i < p->observed->len; i++) {
        const sim_observed *o = g_ptr_array_index(p->observed, i);
        fn(user, o->name, o->final ? o->final : o->ptr, o->size);
    }
}

typedef struct outcome_feed {
    sim_digest_feed feed;
    void *user;
} outcome_feed;

static void feed_observed(void *user, const char *name, const void *bytes, size_t size) {
    outcome_feed *of = user;
    of->feed(of->user, name, strlen(name));
    of->feed(of->user, bytes, size);
}

void sim_outcome(sim_digest_feed feed, void *user) {
    outcome_feed of = {feed, user};
    for (int r = 0; r < sim_g->nranks; r++) {
        int64_t f[3] = {r, sched_rank_state(r), sched_rank_exit_code(r)};
        feed(user, f, sizeof f);
        uint64_t out = sched_rank_output_hash(r);
        feed(user, &out, sizeof out);
        sim_rank_observed(r, feed_observed, &of);
    }
    sim_file_outcome(feed, user); /* what the program wrote through MPI-IO */
}

void sim_conclude(bool stuck) {
    if (stuck)
        sim_report_deadlock();
    else
        sim_report_leftovers();
}
