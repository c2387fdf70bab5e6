/*
 * rma.h - one-sided communication (MPI 3.1 chapter 11): windows, access
 * and exposure epochs, operations waiting for the synchronisation that
 * completes them, and locks.  Private to simulator/: the MPI API is
 * mpi_rma.c (windows and operations) and mpi_rma_sync.c (synchronisation),
 * which check their arguments and call the functions below; these check
 * the window's state (epochs, ranges, types) and report usage errors at
 * the caller through sim_error with the window's error handler.
 *
 * When an operation takes effect.  An operation is queued when it is
 * issued (nothing is read or written then) and applied, in issue order for
 * its origin, at the synchronisation that completes it:
 *   - MPI_Win_fence: when every member has arrived (the fence is a
 *     collective on the window's own communicator), the operations of every
 *     origin, origins in rank order;
 *   - MPI_Win_complete: the origin's operations to each target of its
 *     access epoch, once every one of them has made the matching
 *     MPI_Win_post (MPI_Win_complete blocks until then);
 *   - MPI_Win_unlock, MPI_Win_unlock_all, and the MPI_Win_flush family: the
 *     origin's operations to that target (to every target);
 *   - MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate (valid only
 *     in a passive-target epoch, MPI 3.1 section 11.3.5): at once, with the
 *     origin's earlier operations to that target, and their request is
 *     complete when the call returns.
 * A race-free program cannot tell this from any other moment MPI allows.
 * Accumulates of different origins to one location therefore apply in the
 * order of their completing synchronisations (deterministic for a given
 * ordering of events).
 *
 * Locks.  MPI_Win_lock and MPI_Win_lock_all block until granted; a grant
 * is an event (SIM_EV_LOCK) enabled while the request is compatible with
 * the locks held (an exclusive lock with none, a shared one with no
 * exclusive lock on its target; MPI_Win_lock_all is one request for shared
 * locks on every member).  Exploration therefore tries every order of
 * contended grants; `ordex run` grants in request order.  MPI_MODE_NOCHECK
 * grants at once.
 *
 * Fence and PSCW.  MPI_Win_fence always synchronises like a barrier (MPI
 * allows it to).  MPI_Win_start and MPI_Win_post never block;
 * MPI_Win_complete waits for the matching posts, MPI_Win_wait for the
 * matching completes (the k-th post of a target that names an origin
 * matches the k-th start of that origin that names the target).
 *
 * Memory.  MPI_Win_allocate and MPI_Alloc_mem take memory from the calling
 * rank's heap arena; MPI_Win_allocate_shared puts every member's segment,
 * contiguous in rank order, into the arena of the communicator's rank 0,
 * where every member addresses it directly (all ranks share one address
 * space).  Stores of another member into that memory change rank 0's
 * state: a member entering MPI marks rank 0 as touched.
 */
#ifndef ORDEX_SIM_RMA_H
#define ORDEX_SIM_RMA_H

#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/events.h"
#include "simulator/rma_apply.h"
#include "simulator/sim.h"

typedef struct sim_win sim_win;
typedef struct sim_rma_op sim_rma_op;
typedef struct sim_request sim_request;

/* Lock a rank holds on a target (sim_win_member.lock). */
enum { SIM_LK_NONE = 0, SIM_LK_SHARED = 1, SIM_LK_EXCLUSIVE = 2 };
/* The fence epoch of a member (sim_win_member.fence). */
enum {
    SIM_FENCE_NONE,   /* no fence epoch: after creation, NOSUCCEED, or another kind of epoch */
    SIM_FENCE_OPEN,   /* after a fence: operations may be issued */
    SIM_FENCE_ACTIVE, /* operations were issued since that fence */
};

typedef struct sim_win_region {
    char *base;
    MPI_Aint size;
} sim_win_region;

/* One member of a window, as MPI makes it local to that process. */
typedef struct sim_win_member {
    int world; /* world rank */
    char *base;
    MPI_Aint size;
    int disp_unit;
    void *owned;     /* memory ordex allocated for it (MPI_Win_allocate), or NULL */
    GArray *regions; /* dynamic windows: sim_win_region attached, by address */
    /* Attribute values, which MPI_Win_get_attr returns pointers to. */
    void *attr_base;
    MPI_Aint attr_size;
    int attr_disp_unit, attr_flavor, attr_model;
    char name[MPI_MAX_OBJECT_NAME];
    /* Access epochs, this member as origin. */
    int fence;
    void *fence_site;
    bool started;     /* MPI_Win_start ... MPI_Win_complete */
    int *start_group; /* window ranks */
    int nstart;
    void *start_site;
    uint8_t *lock;    /* [window size] SIM_LK_* held on each target */
    void **lock_site; /* [window size] the MPI_Win_lock that got it */
    int nlocks;       /* targets locked with MPI_Win_lock */
    bool lock_all;
    void *lock_all_site;
    /* Exposure epoch (MPI_Win_post ... MPI_Win_wait), this member as target. */
    bool exposing;
    int *post_group;
    int npost;
    void *post_site;
} sim_win_member;

struct sim_win {
    int index; /* handle index, creation order; never reused */
    MPI_Win handle;
    int flavor;     /* MPI_WIN_FLAVOR_* */
    sim_comm *comm; /* ordex's own communicator of the members, in window rank order */
    int size;
    sim_win_member *m; /* [size] */
    bool live;         /* until MPI_Win_free completes */
    int *excl;         /* [size] holder of target's exclusive lock (window rank), -1 */
    int *shared;       /* [size] shared locks held on target (lock_all included) */
    /* PSCW matching, [a * size + b]: posts of target a that name origin b;
     * starts and completes of origin a that name target b. */
    uint64_t *posts, *starts, *completes;
    GQueue pending;     /* sim_rma_op issued and not yet applied, in issue order */
    char *shared_block; /* MPI_Win_allocate_shared: every segment, in the arena of member 0 */
};

/* An operation between its issue and its effect. */
struct sim_rma_op {
    sim_rma_xfer x;            /* addresses resolved; x.target is absolute */
    int origin, target;        /* window ranks */
    MPI_Aint disp;             /* target_disp as passed */
    const sim_datatype *dt[3]; /* references on the origin, result and target types */
    const char *call;          /* "MPI_Put" ... */
    void *call_site;
    uint64_t seq; /* issue order, for reports */
};

/* ---- the module ---- */
void sim_rma_init(int nranks);
void sim_rma_fini(void);

/* The window `win` names for the calling rank; reports MPI_WIN_NULL, a
 * freed or unknown handle, or one of a window the rank is not a member of
 * (MPI_ERR_WIN, through sim_error) and returns the error code. *me is the
 * rank's window rank. */
int sim_win_check(MPI_Win win, const char *call, sim_win **out, int *me);

/* Reports a usage error of the calling rank's call on window w, through
 * the window's error handler (fatal unless MPI_Win_set_errhandler made it
 * MPI_ERRORS_RETURN, then the class is returned).  printf-like. */
int sim_win_error(const sim_win *w, int errclass, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* The window whose own communicator (sim_win.comm) c is, MPI_WIN_NULL when
 * c is no window's: errors reported on that communicator are the
 * window's, and a user handler gets the window's handle. */
MPI_Win sim_rma_win_of_comm(const sim_comm *c);

/* The window's error handler as member `me` set it, and setting it. */
MPI_Errhandler sim_win_errhandler(const sim_win *w, int me);
void sim_win_set_errhandler(sim_win *w, int me, MPI_Errhandler errh);

/* MPI_Alloc_mem's blocks: note that rank got p; take it back (false when p
 * is not a block of that rank's, or was freed already). */
void sim_rma_alloc_mem_note(void *p, int rank);
bool sim_rma_alloc_mem_take(void *p, int rank);

/* ---- window collectives (through coll.c) ---- */

/* One member's arguments of a window collective (sim_coll_args.rma). */
typedef struct sim_rma_coll_args {
    void *base; /* creation: the memory, its size and unit */
    MPI_Aint size;
    int disp_unit;
    void *owned;   /* MPI_Win_allocate: memory ordex allocated, freed with the window */
    void *baseptr; /* MPI_Win_allocate_shared: where the segment's address goes */
    MPI_Win *out;  /* creation: where the new handle goes */
    const struct sim_info *hints; /* creation: the member's info (NULL: none) */
    sim_win *win;                 /* fence, free */
    int assert;                   /* fence */
} sim_rma_coll_args;

/* Executes a window collective (SIM_COLL_WIN_*) once every member has
 * arrived: creates the window and writes each member's handle, applies a
 * fence's operations, frees a window.  Returns MPI_SUCCESS or an error
 * class with *err_rank (the member at fault, -1 for all) and *why. */
int sim_rma_exec_coll(sim_coll *c, int *err_rank, char **why);

/* ---- operations (mpi_rma.c) ---- */

typedef struct sim_rma_issue_args {
    const char *call;
    sim_rma_xfer x; /* x.target unset: it is resolved from target and disp */
    int target;     /* window rank or MPI_PROC_NULL */
    MPI_Aint disp;
    bool request; /* MPI_Rput & co. */
} sim_rma_issue_args;

/* Issues an operation of the calling rank (window rank me): checks the
 * access epoch, the target range and the datatypes, and queues it.  With
 * a->request, completes it at once and returns its request in *req (NULL
 * for MPI_PROC_NULL, which does nothing).  Returns an MPI error code. */
int sim_rma_issue(sim_win *w, int me, const sim_rma_issue_args *a, sim_request **req);

/* ---- synchronisation (mpi_rma_sync.c); each returns an MPI error code ---- */
int sim_rma_fence(sim_win *w, int me, int assert);
int sim_rma_post(sim_win *w, int me, const int *group, int n, int assert);
int sim_rma_start(sim_win *w, int me, const int *group, int n, int assert);
int sim_rma_complete(sim_win *w, int me);
int sim_rma_wait(sim_win *w, int me);
int sim_rma_test(sim_win *w, int me, int *flag);
/* target: a window rank, or -1 for MPI_Win_lock_all / unlock_all. */
int sim_rma_lock(sim_win *w, int me, int type, int target, int assert);
int sim_rma_unlock(sim_win *w, int me, int target);
/* target -1: every target; local: the _local variants. */
int sim_rma_flush(sim_win *w, int me, int target, bool local);
int sim_rma_sync(sim_win *w, int me);
/* MPI_Win_free's checks and collective; *win becomes MPI_WIN_NULL. */
int sim_rma_free(sim_win *w, int me, MPI_Win *win);

/* ---- lock grants as events (events.c) ---- */

/* Appends a SIM_EV_LOCK event for every waiting lock request that may be
 * granted now, in request order. */
void sim_rma_lock_events(GArray *out);
/* The first of them (the earliest request); false when there is none. */
bool sim_rma_first_lock_event(sim_event *out);
void sim_rma_fire_lock(const sim_event *ev);
void sim_rma_describe_lock(const sim_event *ev, sim_event_info *out);
/* The key of a lock grant (layout in events.h). */
void sim_rma_lock_key(const sim_event *ev, sim_event_key *k);

/* ---- accumulates applied in turn (SIM_EV_ATOMIC) ---- */

/* Appends a SIM_EV_ATOMIC event for every origin whose completing call
 * waits for its accumulates to apply, in arrival order. */
void sim_rma_atomic_events(GArray *out);
bool sim_rma_first_atomic_event(sim_event *out);
void sim_rma_fire_atomic(const sim_event *ev);
void sim_rma_describe_atomic(const sim_event *ev, sim_event_info *out);
/* Key: msg as a lock grant's (events.h), with bit 0 set when the batch
 * fetches or applies MPI_REPLACE: only then can another batch's order
 * relative to it show (two batches of commutative accumulates commute;
 * different ops on one location are a race, reported as such). */
void sim_rma_atomic_key(const sim_event *ev, sim_event_key *k);

/* ---- reports and state ---- */

/* Adds the world ranks that rank, blocked in MPI_Win_complete, _wait or
 * _lock(_all), waits for. */
void sim_rma_waits_of(int rank, GArray *to);
/* At the end of a complete run: operations that never took effect and
 * epochs left open, as findings. */
void sim_rma_report_leftovers(void);
/* Feeds the RMA state that decides what ranks can do next: epochs, locks
 * held and requested, PSCW matching, operations not yet applied, what
 * blocked ranks wait for (see sim_digest_engine). */
void sim_rma_digest(sim_digest_feed feed, void *user);
/* The rank enters MPI: it may have stored into shared-window memory in
 * another member's arena since it last did. */
void sim_rma_rank_entered(int rank);

/* ---- simulated time of `ordex predict` (timed_rma.c) ----
 * What one-sided communication costs in simulated time; every call is a
 * no-op (or answers yes) unless sim_timed_start turned time on, and none
 * changes what the program sees.  The model (docs/rma.md, "Prediction"):
 *   - an operation is sent when it is issued (in a PSCW epoch, once the
 *     target's post has arrived): a put is one message of its bytes from
 *     origin to target, a get a request (no payload) and a reply of its
 *     bytes, an accumulate a message plus the target's computation
 *     (SIM_TIMED_ACC_ELEMENT_WORK per basic element, on the target's node),
 *     get_accumulate, fetch_and_op and compare_and_swap a message, the
 *     computation and a reply with the old data; messages have no
 *     rendezvous handshake, do not wait for the target to enter MPI, and
 *     cost the platform's per-message overheads (the origin's in the call,
 *     the target's and the reply's receiver's at their next computation);
 *   - an operation is done when its last message has arrived (and the
 *     target's computation ended); the calls that complete operations
 *     (fence, MPI_Win_complete, unlock, the flushes, the wait of a request
 *     operation) return only once theirs are done;
 *   - MPI_Win_post sends each origin a message; MPI_Win_complete sends each
 *     target one once its operations are done; MPI_Win_wait returns when
 *     those of its origins have arrived;
 *   - MPI_Win_lock (without MPI_MODE_NOCHECK) sends a request to the target,
 *     which answers once the request has arrived and the unlock messages of
 *     conflicting holders have; MPI_Win_lock_all does so with every member;
 *     MPI_Win_unlock(_all) sends unlock messages once its operations are
 *     done and returns.
 * Fence, creation and free are collectives (timed_collargs.c). */

/* CPU seconds (of the machine ordex runs on) that the target spends per
 * basic element of an accumulate. */
#define SIM_TIMED_ACC_ELEMENT_WORK 1e-9

/* The calling rank issued op (sim_rma_issue, after queueing it); `request`:
 * a request-based operation, whose request follows with
 * sim_timed_rma_request.  May block the caller for its send overhead. */
void sim_timed_rma_issued(const sim_win *w, const sim_rma_op *op, bool request);
/* The request of the operation the calling rank issued last: it completes
 * when the operation is done (sim_timed_defer). */
void sim_timed_rma_request(sim_request *req);
/* Blocks the calling rank (window rank me) until its operations on w to
 * target (-1: to every target) are done. */
void sim_timed_rma_quiesce(const sim_win *w, int me, int target);
/* MPI_Win_post of member me to the n members of group. */
void sim_timed_rma_post(const sim_win *w, int me, const int *group, int n);
/* MPI_Win_complete of member me, once every target has posted: blocks until
 * the posts have arrived and its operations are done. */
void sim_timed_rma_complete_begin(const sim_win *w, int me);
/* MPI_Win_complete of member me is done with target: its message leaves. */
void sim_timed_rma_complete_sent(const sim_win *w, int me, int target);
/* Whether the complete messages that match member me's current post have
 * all arrived (MPI_Win_test); MPI_Win_wait blocks until they have. */
bool sim_timed_rma_exposure_arrived(const sim_win *w, int me);
void sim_timed_rma_wait(const sim_win *w, int me);
/* MPI_Win_lock (target) or MPI_Win_lock_all (target -1) of member me
 * without MPI_MODE_NOCHECK, before it waits for the grant: its requests
 * leave.  Returns what sim_timed_rma_lock_granted takes (NULL when time is
 * off). */
void *sim_timed_rma_lock_request(const sim_win *w, int me, int target, int type);
/* The same lock was granted (the engine's SIM_EV_LOCK): blocks until the
 * grants have arrived; frees h. */
void sim_timed_rma_lock_granted(void *h);
/* MPI_Win_unlock(_all) of member me, its operations done and before its lock
 * of type `type` (SIM_LK_*; shared for unlock_all) is released: the unlock
 * messages leave. */
void sim_timed_rma_unlock(const sim_win *w, int me, int target, int type);

/* ---- hook points for the race detection (docs/rma.md) ----
 * An observer sees every operation when it is issued and when it takes
 * effect, and every synchronisation that opens or closes an epoch or
 * completes operations, each with the rank that made it.  It never changes
 * what the program sees.  None is installed by default. */
typedef enum sim_rma_sync_kind {
    SIM_RMA_SYNC_FENCE,       /* a member leaves a fence (peer -1) */
    SIM_RMA_SYNC_POST,        /* peer -1 */
    SIM_RMA_SYNC_START,       /* peer -1 */
    SIM_RMA_SYNC_COMPLETE,    /* per target: peer */
    SIM_RMA_SYNC_WAIT,        /* the exposure epoch ends (MPI_Win_wait or a true MPI_Win_test) */
    SIM_RMA_SYNC_LOCK,        /* granted; peer the target, -1 for every target */
    SIM_RMA_SYNC_UNLOCK,      /* peer the target, -1 for every target */
    SIM_RMA_SYNC_FLUSH,       /* peer the target, -1 for every target */
    SIM_RMA_SYNC_FLUSH_LOCAL, /* MPI_Win_flush_local(_all): local completion only */
    SIM_RMA_SYNC_WIN_SYNC,    /* MPI_Win_sync (peer -1) */
} sim_rma_sync_kind;

typedef struct sim_rma_observer {
    void (*issued)(const sim_win *w, const sim_rma_op *op, void *user);
    void (*applied)(const sim_win *w, const sim_rma_op *op, void *user);
    void (*sync)(const sim_win *w, int rank, sim_rma_sync_kind kind, int peer, void *user);
    /* A window exists (every member set up) or is about to be freed. */
    void (*window)(const sim_win *w, bool created, void *user);
    /* MPI_Win_attach / MPI_Win_detach of member me. */
    void (*region)(const sim_win *w, int me, void *base, MPI_Aint size, bool attached, void *user);
    /* A request-based operation got its request (local completion at its wait). */
    void (*request)(const sim_win *w, const sim_rma_op *op, sim_request *req, void *user);
    void *user;
} sim_rma_observer;
/* Installs an observer (copied), NULL for none. */
void sim_rma_set_observer(const sim_rma_observer *obs);

#endif
