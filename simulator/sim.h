/*
 * sim.h - the simulator as seen by the run loop and the front end.
 *
 * The simulator keeps all MPI state of one simulated job.  Ranks call the
 * MPI API (implemented in mpi_*.c) from their scheduler contexts; a call
 * that must wait blocks the rank in the scheduler.  When no rank can run,
 * the strategy asks for the enabled events (sim_events) and fires one
 * (sim_fire): a message delivery, a complete collective, ...
 */
#ifndef ORDEX_SIM_H
#define ORDEX_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "simulator/digest.h"

typedef enum sim_send_mode {
    SIM_SEND_EAGER_BELOW_LIMIT, /* standard sends buffered below eager_limit */
    SIM_SEND_EAGER,             /* every standard send buffered */
    SIM_SEND_RENDEZVOUS,        /* no standard send buffered */
} sim_send_mode;

/* What a C type that disagrees with a buffer's MPI datatype is
 * (--type-check). */
typedef enum sim_type_check {
    SIM_TYPE_CHECK_ERROR, /* an MPI error (the default) */
    SIM_TYPE_CHECK_WARN,  /* a warning finding (SIM_F_TYPE_MISMATCH); the run goes on */
    SIM_TYPE_CHECK_OFF,   /* not checked */
} sim_type_check;

typedef struct sim_config {
    int nranks;
    sim_send_mode send_mode;
    size_t eager_limit; /* bytes; default 65536 */
    uint64_t seed;      /* 0 = deterministic schedule */
    double latency_s;   /* simple network model of `ordex run` */
    double bandwidth_Bps;
    bool exploring;         /* explore: no wall-clock time in simulated time; every MPI
                               call takes SIM_EXPLORE_CALL_TIME instead */
    bool async_progress;    /* explore: messages may land in posted receives while the
                               receiver computes (pauses after MPI calls) */
    bool early_collectives; /* explore: members that may leave a collective early can */
    bool test_later;        /* explore: MPI_Test/MPI_Iprobe that could succeed may say "not yet" */
    bool rma_separate;      /* windows report MPI_WIN_SEPARATE and races follow its rules */
    bool no_buffer_checks;  /* buffers are not checked against their memory objects (bounds,
                               C types: simulator/bufcheck.h) */
    sim_type_check type_check;
} sim_config;

/* Simulated seconds every MPI call (MPI_Wtime included) takes on its rank's
 * clock when exploring or replaying: measured time would make the same
 * ordering give different values, and without any time a program that waits
 * on MPI_Wtime would wait forever. */
#define SIM_EXPLORE_CALL_TIME 1e-6

/* Kinds of enabled events. */
typedef enum sim_event_kind {
    SIM_EV_DELIVER,    /* a send matches a receive (or a probe sees it) */
    SIM_EV_PROBE,      /* a blocked MPI_Probe sees a message */
    SIM_EV_COLLECTIVE, /* every member of a collective has arrived */
    SIM_EV_RESUME,     /* exploring: a rank that paused at the end of an MPI call goes on
                          without (more) deliveries; see sim_call_leave */
    SIM_EV_LOCK,       /* a waiting MPI_Win_lock or MPI_Win_lock_all is granted (rank: the
                          origin; peer: the target, -1 for every target) */
    SIM_EV_ATOMIC,     /* an origin's accumulates apply at their target, in the call that
                          completes them (rank: the origin; peer: the target, -1 for every
                          target): the order of concurrent accumulates is visible */
    SIM_EV_CHOICE,     /* exploring with choice events: a rank waiting in a choice inside an
                          MPI call (sim_set_choice_events) takes one alternative (rank: the
                          chooser; order: the alternative) */
} sim_event_kind;

/* The tag with which a SIM_EV_LOCK event describes its lock type
 * (sim_event_describe). */
enum { SIM_LOCK_SHARED = 0, SIM_LOCK_EXCLUSIVE = 1 };

typedef struct sim_event {
    sim_event_kind kind;
    int rank;       /* the rank that the event unblocks or completes (receiver) */
    int peer;       /* sender of a delivery, -1 otherwise */
    uint64_t order; /* lower = posted earlier (deterministic tie break) */
    void *a, *b;    /* the simulator's objects; opaque */
} sim_event;

typedef enum sim_finding_kind {
    SIM_F_DEADLOCK,            /* no rank can move */
    SIM_F_CRASH,               /* signal in a rank */
    SIM_F_STACK_OVERFLOW,      /* a rank overflowed its stack */
    SIM_F_LIVELOCK,            /* a rank ran past the step timeout without an MPI call */
    SIM_F_ABORT,               /* MPI_Abort */
    SIM_F_MPI_ERROR,           /* MPI usage error under MPI_ERRORS_ARE_FATAL */
    SIM_F_LOST_MESSAGE,        /* sent, never received */
    SIM_F_PENDING_REQUEST,     /* never completed */
    SIM_F_NO_FINALIZE,         /* a rank ended without MPI_Finalize */
    SIM_F_EXIT_STATUS,         /* a rank ended with a non-zero status */
    SIM_F_HEAP,                /* a rank's heap arena is full */
    SIM_F_UNSUPPORTED,         /* the program stopped because ordex lacks what it needs
                                  (a thread level): ordex's limit, not the program's error */
    SIM_F_DATA_RACE,           /* two conflicting accesses to memory, not ordered (RMA) */
    SIM_F_LEAK,                /* an object a rank made (a handle, an attached buffer) was not
                                  freed before its MPI_Finalize; located at the call that made it */
    SIM_F_ACTIVE_FREED,        /* MPI_Request_free of an active request: legal, but the program
                                  can no longer learn when the operation completes */
    SIM_F_SYMMETRIC_HEAP_FULL, /* shmem_malloc & co. returned NULL: the symmetric heap is full
                                  (a warning: the standard says NULL) */
    SIM_F_TYPE_MISMATCH,       /* --type-check=warn: a buffer's C type disagrees with its MPI
                                  datatype (an MPI error otherwise) */
} sim_finding_kind;

typedef struct sim_finding {
    sim_finding_kind kind;
    int *ranks; /* world ranks involved */
    int nranks;
    char *message;  /* one line */
    char *details;  /* further lines (blocked calls, backtrace), or NULL */
    char *location; /* "file.c:line" of the program, or NULL */
    bool warning;   /* reported as a warning, which makes no verdict an error: decided by
                       the verdict (stategraph/verdict.h) from the kind and the options;
                       false as the simulator makes it */
} sim_finding;

/* JSON name of a finding kind ("deadlock", "crash", "mpi_error", "leak",
 * ...). */
const char *sim_finding_kind_name(sim_finding_kind kind);

/* Whether findings of this kind are advisory: what MPI allows but a program
 * rarely means (a handle never freed, an active request freed).  They never
 * stop a run nor make an ordering erroneous (explore still compares its
 * outcome); the verdict reports them as warnings unless an option makes
 * them errors (--leaks=error) or drops them (--leaks=off). */
bool sim_finding_kind_advisory(sim_finding_kind kind);

/* Whether findings (sim_finding *) hold one that is not advisory: an
 * ordering with such a finding is erroneous. */
bool sim_findings_have_error(GPtrArray *findings);

/* Whether the findings hold one of kind SIM_F_UNSUPPORTED: then the verdict
 * is "unsupported" and the exit status 2, whatever else was found. */
bool sim_findings_unsupported(GPtrArray *findings);

/* Sets up the simulated job: every module's state, hooks into the scheduler
 * (which must already be initialised with the same rank count). */
void sim_create(const sim_config *cfg);
void sim_destroy(void);

/* After sched_run: turns its result into findings (deadlock report when
 * stuck; unreceived messages, pending requests and missing MPI_Finalize when
 * complete).  stuck: the run ended with blocked ranks. */
void sim_conclude(bool stuck);

/* Findings so far, in the order found (sim_finding *). */
GPtrArray *sim_findings(void);

/* Predicted run time: the latest rank clock, seconds. */
double sim_predicted_time(void);

/* Feed a canonical description of the simulator's state (what ranks wait
 * for, messages in flight, posted receives, requests, collectives in
 * progress) to feed.  Equal states give equal byte streams whatever the
 * order in which independent events led to them: nothing depends on global
 * counters or allocation addresses.  The state comes in two parts:
 * sim_digest_rank is one rank's share (its status and output, the
 * registers at its pending call, its requests), which changes only while
 * the rank runs or when an event touches it (see sim_rank_touched), so a
 * caller may keep it; sim_digest_engine is the rest (messages in flight,
 * posted receives, probes). */
void sim_digest_rank(int rank, sim_digest_feed feed, void *user);
void sim_digest_engine(sim_digest_feed feed, void *user);

/* Feeds the outcome of a finished run: every rank's output hash, exit
 * status and the current bytes of the values it registered with
 * ordex_observe.  Orderings with different outcomes are message races. */
void sim_outcome(sim_digest_feed feed, void *user);

/* The values rank `rank` registered with ordex_observe, with the bytes
 * sim_outcome takes for them: fn is called for each, in the order they were
 * registered. */
typedef void (*sim_observed_fn)(void *user, const char *name, const void *bytes, size_t size);
void sim_rank_observed(int rank, sim_observed_fn fn, void *user);

/* The program's stack pointer at the MPI call rank is blocked in (the start
 * of its live frames), or NULL. */
const void *sim_rank_stack_from(int rank);

/* Changes whenever the simulator fires an event that may write into the
 * rank's memory (a delivery into its receive buffer, a collective's
 * results, ...); differs from every value any rank had before in this
 * process.  With sched_rank_last_run it tells that a rank's memory cannot
 * have changed. */
uint64_t sim_rank_touched(int rank);

/* Output arguments of the call rank is blocked in that the call overwrites
 * before it returns (the index and status of MPI_Waitany, ...).  Their
 * bytes are dead while it waits, so state hashing leaves them out: orderings
 * that differ only in what an earlier MPI_Waitany reported then merge.
 * Fills out[0..max) and returns how many there are. */
typedef struct sim_span {
    void *start;
    size_t len;
} sim_span;
int sim_rank_pending_outputs(int rank, sim_span *out, int max);

/* Exploring: the frames of the MPI call rank is blocked in, innermost
 * first: ip[k] is the return address into frame k (for k = 0, the return
 * address of the MPI call), cfa[k] its canonical frame address.  Frames
 * beyond the program's own may follow; n is 0 when unknown. */
enum { SIM_CALL_FRAMES = 4 };
typedef struct sim_call_frames {
    uintptr_t ip[SIM_CALL_FRAMES];
    uintptr_t cfa[SIM_CALL_FRAMES];
    int n;
} sim_call_frames;
const sim_call_frames *sim_rank_call_frames(int rank);

/* One line on what rank is doing: its pending MPI call with arguments and
 * file:line, or that it ended (g_free). */
char *sim_describe_rank(int rank);

/* Messages delivered so far. */
uint64_t sim_messages_delivered(void);
/* Of those, the ones `ordex run` delivered at once, without the scheduler's
 * turn (see sim_engine_recv_now); each would otherwise have been an event. */
uint64_t sim_deliveries_at_once(void);

#endif
