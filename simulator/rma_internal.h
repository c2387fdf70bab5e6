/*
 * rma_internal.h - what the files of one-sided communication share: the
 * state of every window, lock request and waiting rank (rma.c: windows,
 * operations, free, reports, the digest; rma_sync.c: fence, post/start/
 * complete/wait, locks and their grants).
 */
#ifndef ORDEX_SIM_RMA_INTERNAL_H
#define ORDEX_SIM_RMA_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "simulator/rma.h"

/* What a blocked rank waits for in an RMA call (reports, digest). */
typedef enum rma_wait_kind {
    RMA_WAIT_NONE,
    RMA_WAIT_COMPLETE, /* MPI_Win_complete: the targets' posts */
    RMA_WAIT_WAIT,     /* MPI_Win_wait: the origins' completes */
    RMA_WAIT_LOCK,     /* MPI_Win_lock(_all): the rma_grant */
    RMA_WAIT_ATOMIC,   /* its accumulates apply (SIM_EV_ATOMIC, always enabled) */
} rma_wait_kind;

/* An origin's operations to a target (or every target) that include
 * accumulates, waiting in the origin's completing call for their turn at
 * the targets: the order of concurrent accumulates is a choice
 * (SIM_EV_ATOMIC). */
typedef struct rma_atomic_batch {
    sim_win *win;
    int origin, target;     /* window ranks; target -1: every target */
    const sim_rma_op *upto; /* the last operation to apply, or NULL: all */
    uint64_t seq;
    const char *call; /* the completing call */
    void *call_site;
    bool done; /* applied: rc, failed and why say how */
    int rc;
    sim_rma_op *failed;
    char *why;
} rma_atomic_batch;

typedef struct rma_lockreq {
    sim_win *win;
    int origin; /* window rank */
    int target; /* window rank, -1: every member (MPI_Win_lock_all) */
    int type;   /* SIM_LK_SHARED or SIM_LK_EXCLUSIVE */
    uint64_t seq;
    void *call_site;
    bool granted;
} rma_lockreq;

typedef struct rma_wait {
    rma_wait_kind kind;
    sim_win *win;
    rma_lockreq *req;
} rma_wait;

typedef struct rma_state {
    int nranks;
    GPtrArray *wins; /* sim_win * by handle index */
    GQueue lockq;    /* rma_lockreq * waiting, in request order */
    GQueue atomq;    /* rma_atomic_batch * waiting, in arrival order */
    rma_wait *wait;  /* [nranks] */
    uint64_t seq;    /* operations and lock requests, in issue order */
    int nshared;     /* live windows of flavor shared */
    sim_rma_observer obs;
    bool has_obs;
    GHashTable *alloc_mem; /* MPI_Alloc_mem block -> its rank + 1 */
} rma_state;

extern rma_state sim_rma_state;
/* The state, under the short name both files use. */
#define R sim_rma_state

/* Shared by the two files; each is described where it is defined. */
bool rma_completed_for(const sim_win *w, int t, int o);
bool rma_posted_for(const sim_win *w, int o, int t);
void rma_grant(rma_lockreq *q);
char *rma_ranks_text(const int *world, int n);
int rma_world_of(const sim_win *w, int r);
/* Whether origin's pending operations on w include an accumulate. */
bool rma_has_accumulates(const sim_win *w, int origin);
int rma_complete_ops(sim_win *w, int origin, int target, const sim_rma_op *upto, const char *call);
int rma_pending_count(const sim_win *w, int origin, const sim_rma_op **first);
void rma_hook_window(const sim_win *w, bool created);
void rma_hook_region(const sim_win *w, int me, void *base, MPI_Aint size, bool attached);
void rma_hook_request(const sim_win *w, const sim_rma_op *op, sim_request *req);
void rma_hook_sync(const sim_win *w, int rank, sim_rma_sync_kind kind, int peer);
int rma_apply_pending(sim_win *w, int origin, int target, const sim_rma_op *upto,
                      sim_rma_op **failed, char **why);
void rma_op_free(sim_rma_op *op);
void rma_win_release(sim_win *w);
int rma_exec_create(sim_coll *c, int *err_rank, char **why);
char *rma_win_ranks_text(const sim_win *w, const int *r, int n);
void rma_hook_issued(const sim_win *w, const sim_rma_op *op);

#endif
