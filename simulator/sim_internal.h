/*
 * sim_internal.h - state shared by the files of the simulator module.
 *
 * The simulator implements the MPI API that rank code calls.  Every rank is a
 * context of the scheduler; all ranks live in one address space, so the
 * simulator may read and write any rank's buffers at any time (a delivery
 * copies straight from the sender's memory into the receiver's).
 *
 * Conventions for files implementing MPI functions:
 *   - each function is defined once as PMPI_X, and MPI_X is an alias of it
 *     (SIM_ALIAS), so the caller's return address is the user's call site;
 *   - the body starts with SIM_ENTER("MPI_X") and every return goes through
 *     SIM_RETURN(rc), which restores the caller's heap and applies nothing else;
 *   - argument errors go through sim_error(), which applies the
 *     communicator's error handler (fatal by default: the run stops with
 *     the error as a finding and sim_error does not return).
 */
#ifndef ORDEX_SIM_INTERNAL_H
#define ORDEX_SIM_INTERNAL_H

#include <glib.h>
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scheduler/sched.h"
#include "simulator/events.h"
#include "simulator/handle.h" /* handle layout, SIM_HANDLE() */
#include "simulator/sim.h"

/* ---------------------------------------------------------------------- */
/* Entry and exit of every MPI function                                    */

enum { SIM_MAX_OUTPUTS = 2, SIM_CALL_REGS = 6 };

/* Defines MPI_name as an alias of PMPI_name (same code, same caller). */
#define SIM_ALIAS(name) __typeof__(P##name) name __attribute__((alias("P" #name)))

/* Marks the start of an MPI call made by the running rank: switches the
 * allocator to the simulator's heap and records the call site (outermost
 * call only; MPI functions may call each other). */
#define SIM_ENTER(fname)                                                                           \
    sim_call_enter((fname), __builtin_return_address(0), __builtin_frame_address(0))
#define SIM_RETURN(rc)                                                                             \
    do {                                                                                           \
        int sim_rc_ = (rc);                                                                        \
        sim_call_leave();                                                                          \
        return sim_rc_;                                                                            \
    } while (0)

/* caller: return address into the program; frame: the MPI function's frame
 * address, just below the program's frames (what state hashing covers). */
void sim_call_enter(const char *fname, void *caller, void *frame);
void sim_call_leave(void);

/* Until sim_call_alias(NULL, NULL) or the end of the outermost MPI call, the
 * calling rank's error findings and new requests that name `base` (a static
 * string, "MPI_Send") name `shown` ("MPI_Send_c") instead: the call the
 * program made, when a wrapper runs the base call's implementation. */
void sim_call_alias(const char *base, const char *shown);
/* name, or the shown name when name is the current alias's base. */
const char *sim_call_shown(const char *name);

/* Stores the program's callee-saved registers as they were at the call that
 * returns to caller (a return address in the current stack), zeros when that
 * frame cannot be found, and the frames from it up (see sim_call_frames).
 * The registers are part of the state while the call is pending. */
void sim_capture_call_frame(void *caller, uint64_t regs[SIM_CALL_REGS], sim_call_frames *frames);

/* Declares len bytes at p an output the call in progress writes whole
 * before it returns, whatever happens (see sim_rank_pending_outputs).  Only
 * for calls that may block; the declaration ends when the call returns. */
void sim_call_output(void *p, size_t len);
/* The same for a status: every field but MPI_ERROR, which single-completion
 * calls leave alone (MPI 3.1 3.2.5).  MPI_STATUS_IGNORE declares nothing. */
void sim_call_status_output(MPI_Status *status);

/* Describes the pending call's arguments for reports ("dest=1 tag=7 ..."),
 * kept until the call returns.  printf-like. */
void sim_call_args(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* The same for point-to-point calls, formatted only if a report needs it
 * (these calls are the hot path). */
typedef struct sim_p2p_args {
    bool is_recv; /* peer is a source */
    int count;
    MPI_Datatype type;
    int peer;
    int tag;
    struct sim_comm *comm;
} sim_p2p_args;
/* The fields come one by one, not as a struct built by the caller: the
 * copy of a struct just written field by field stalls on store forwarding. */
void sim_call_args_p2p(bool is_recv, int count, MPI_Datatype type, int peer, int tag,
                       struct sim_comm *comm);

/* The argument description of rank's call in progress ("" when none). */
const char *sim_call_args_text(int world_rank);

/* World rank of the rank whose MPI call is executing (never -1 inside a call). */
static inline int sim_self(void) {
    return sched_current();
}

/* Reports an MPI usage error detected in the current call.  errclass is an
 * MPI_ERR_* class.  Applies the error handler of comm (MPI_COMM_NULL: the
 * handler of MPI_COMM_WORLD): under MPI_ERRORS_ARE_FATAL the error becomes
 * a finding, the run stops and this function does not return; under
 * MPI_ERRORS_RETURN it returns errclass for the caller to return. */
int sim_error(MPI_Comm comm, int errclass, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* Reports an MPI usage error of the current call as a finding, whatever the
 * error handlers say, and stops the run (a fatal handler that is not a
 * communicator's: MPI_FILE_NULL's). */
_Noreturn void sim_fatal_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Stops the run at the current call with a finding of kind
 * SIM_F_UNSUPPORTED: "rank N: <what>, which ordex does not implement"
 * (what printf-like, e.g. "MPI_Bcast on an intercommunicator"). */
_Noreturn void sim_unsupported(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Like sim_error, but the error belongs to the call made at call_site (a
 * nonblocking operation whose failure shows at its completion). */
int sim_error_at(MPI_Comm comm, int errclass, void *call_site, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

/* Like sim_error_at, for an error that lies between several ranks' calls
 * (a collective mismatch): the finding names `ranks` (world ranks), and the
 * message, which names them itself, gets no "rank N: " prefix, so that it
 * reads the same whichever of them detected it.  The error handler applied
 * is still the calling rank's. */
int sim_error_ranks(MPI_Comm comm, int errclass, void *call_site, const int *ranks, int nranks,
                    const char *fmt, ...) G_GNUC_PRINTF(6, 7);

/* "file.c:line" of a call site in the program ("?" when unknown).  The string
 * lives until the simulator is destroyed. */
const char *sim_location(void *call_site);

/* Fails the call with MPI_ERR_OTHER when MPI is not initialised or already
 * finalised (returns the error code, or 0 when the call may proceed). */
int sim_check_initialized(void);

/* ---------------------------------------------------------------------- */
/* Simulator-wide state                                                    */

typedef struct sim_comm sim_comm;
typedef struct sim_request sim_request;
typedef struct sim_message sim_message;

/* A value registered with ordex_observe. */
typedef struct sim_observed {
    char name[64];
    const void *ptr;
    size_t size;
    void *final; /* its bytes when the rank called MPI_Finalize, or NULL */
} sim_observed;

/* One rank's MPI-visible state. */
typedef struct sim_proc {
    int rank;              /* world rank */
    bool initialized;      /* MPI_Init done */
    bool finalized;        /* MPI_Finalize done */
    int thread_level;      /* granted by MPI_Init_thread */
    int thread_required;   /* asked of MPI_Init_thread (MPI_Init: MPI_THREAD_SINGLE) */
    void *init_site;       /* the MPI_Init or MPI_Init_thread call */
    pthread_t main_thread; /* the OS thread that called MPI_Init(_thread): the rank's main one */
    bool foreign_reported; /* an MPI call from another thread was reported (once per rank) */
    const char *call;      /* name of the MPI call in progress, NULL when none */
    void *call_site;       /* return address into the program, for file:line */
    char *call_args;       /* argument description of the call in progress */
    bool p2p_lazy;         /* call_args still to be formatted from p2p_args */
    sim_p2p_args p2p_args;
    int call_depth; /* nesting of MPI functions calling each other */
    /* While an MPI 4.0 wrapper (a large-count `_c` call, the MPI_Start of a
     * persistent collective) runs the call it is built on, reports say
     * alias_shown where the base call would say alias_base (sim_call_alias). */
    const char *alias_base, *alias_shown;
    /* MPI_Start of a persistent collective: the call that made the request
     * ("MPI_Bcast_init"), which collective reports name (NULL otherwise). */
    const char *coll_call;
    uint64_t touched; /* see sim_rank_touched */
    void *bsend_buf;  /* MPI_Buffer_attach */
    int bsend_size;
    size_t bsend_used;          /* bytes held by buffered sends not yet delivered */
    struct sim_request **waits; /* requests the rank is blocked on (reports) */
    int nwaits, waits_cap;
    bool polling;  /* blocked after an MPI_Test/Iprobe that found nothing */
    bool wait_any; /* blocked in MPI_Waitany/Waitsome: completion order is visible */
    /* Exploring: paused after an MPI call so that messages may land in its
     * posted receives before it goes on (asynchronous progress). */
    bool at_progress;
    uint64_t progress_seq; /* pauses so far (identifies the resume event) */
    const char *last_call; /* the MPI call it paused after */
    /* Exploring with choice events (sim_set_choice_events): blocked in a
     * choice inside an MPI call until a SIM_EV_CHOICE event picks one of
     * choice_n alternatives (0 when not in a choice). */
    int choice_n;
    int choice_pick; /* the alternative picked, -1 until then */
    const char *choice_what;
    int64_t *choice_ids;               /* sim_choose_among's names of the alternatives, or NULL */
    uint64_t choice_seq;               /* choices so far (identifies the choice event) */
    double clock;                      /* simulated time of this rank, seconds */
    uint64_t compute_mark;             /* counter ticks when it last left MPI (0: none) */
    double compute_cpu;                /* its CPU clock then, if the counter is unusable */
    void *entry_sp;                    /* the program's stack pointer at its current MPI call */
    sim_span outputs[SIM_MAX_OUTPUTS]; /* see sim_rank_pending_outputs */
    int noutputs;
    uint64_t call_regs[SIM_CALL_REGS]; /* exploring: callee-saved registers at the call */
    sim_call_frames call_frames;       /* exploring: the frames the call was made from */
    /* Request handles are per rank, so a handle's value depends only on the
     * rank's own history, not on how ranks interleave. */
    GPtrArray *requests;   /* sim_request * by handle index; NULL slots free */
    GArray *free_requests; /* free handle indices, descending: lowest reused first */
    GPtrArray *observed;   /* sim_observed *, from ordex_observe */
    /* The tools information interface (mpi_tool.c): point-to-point
     * messages delivered into this rank's receives (its performance
     * variable), and its MPI_T state. */
    uint64_t delivered_here;
    struct sim_tool *tool;
} sim_proc;

/* The simulator singleton (one simulated MPI job per process). */
typedef struct sim_state {
    sim_config cfg;
    int nranks;
    sim_proc *procs;   /* [nranks] */
    uint64_t send_seq; /* global order of posted sends */
    uint64_t recv_seq; /* global order of posted receives */
    GRand *rng;        /* --seed choices; NULL for the deterministic schedule */
    bool stopped;      /* a fatal finding ended the run */
} sim_state;

extern sim_state *sim_g;

/* Copies the observed values (the rank's locals die when main returns). */
void sim_observe_snapshot(sim_proc *p);

static inline sim_proc *sim_proc_of(int world_rank) {
    return &sim_g->procs[world_rank];
}

/* A choice made inside an MPI call (which complete request MPI_Waitany
 * reports, ...): returns an alternative in [0, n).  With choice events on
 * (sim_set_choice_events) the rank waits until a SIM_EV_CHOICE event picks
 * one, so what the caller computed before may have changed meanwhile
 * through other ranks (not through events: none fires first); else the
 * first is taken (or a random one with --seed).  `what` describes the
 * choice. */
int sim_choose(int n, const char *what);
/* As sim_choose, for alternatives whose index depends on more than the
 * state (the order of a queue that the state does not record): ids[k]
 * names alternative k by what it is (say, a sender's rank), so that
 * partial-order reduction can tell the same alternative on another path
 * (sim_event_canon).  ids is copied. */
int sim_choose_among(int n, const char *what, const int64_t *ids);

/* Charges the running rank's CPU time since it last left MPI to its clock. */
void sim_clock_charge_compute(int world_rank);

/* Engine internals used here (engine.c). */
int sim_engine_events(int dst, sim_event *out, int max);
bool sim_engine_has_work(int dst);
void sim_engine_fire(const sim_event *ev);
void sim_coll_fire(sim_coll *c);
bool sim_engine_recv_is_specific(const void *recv_request);
bool sim_engine_probe_is_safe(int dst, const void *message);
void sim_engine_describe(const sim_event *ev, sim_event_info *out);
void sim_engine_event_key(const sim_event *ev, uint64_t *msg, uint64_t *recv);
bool sim_rank_at_progress(int rank);
int sim_ranks_paused(void); /* how many ranks are paused at a progress point */
uint64_t sim_rank_progress_seq(int rank);
void sim_engine_describe_resume(int rank, sim_event_info *out);
void sim_resume_rank(int rank);
/* Choice events (see sim_set_choice_events): how many ranks wait in a
 * choice, and the enabled choice events (one per alternative). */
int sim_ranks_choosing(void);
void sim_choice_events(GArray *out);
void sim_fire_choice(const sim_event *ev);
void sim_describe_choice(const sim_event *ev, sim_event_info *out);
void sim_choice_key(const sim_event *ev, uint64_t *msg, uint64_t *recv);
int64_t sim_choice_canon_id(const sim_event *ev); /* its id (sim_choose_among) or index */

/* MPI_Comm_idup's collective has completed (ok) or failed: the new
 * communicator of world_rank (*args->newcomm) gets the attributes and hints
 * its call prepared in args->idup, which is consumed (mpi_comm.c). */
struct sim_coll_args;
void sim_comm_idup_done(int world_rank, struct sim_coll_args *args, bool ok);

/* Records that the simulator may have written into the rank's memory (see
 * sim_rank_touched; core.c). */
void sim_touch_rank(int rank);

#endif
