/*
 * engine.h - the point-to-point engine: messages, requests and matching.
 *
 * A send posts a message into its destination's queue of unmatched
 * messages (in global send order); a receive posts a request into the
 * destination's queue of posted receives (in post order).  Matching does not
 * happen when either is posted: a match is an event that the run loop fires
 * when no rank can run, so that the strategy decides the order of deliveries.
 *
 * An event (message m, receive r) is enabled when r is the earliest posted
 * receive at m's destination that matches m, and m is the earliest unmatched
 * message from its source on its communicator that matches r: MPI's
 * non-overtaking rules (MPI 3.1 section 3.5).  A blocked MPI_Probe likewise
 * becomes enabled with the earliest matching message of each source.
 */
#ifndef ORDEX_SIM_ENGINE_H
#define ORDEX_SIM_ENGINE_H

#include <string.h>

#include "simulator/coll.h"
#include "simulator/datatype.h"
#include "simulator/events.h"
#include "simulator/request.h"
#include "simulator/sim_internal.h"

typedef enum sim_req_kind {
    SIM_REQ_SEND,
    SIM_REQ_RECV,
    SIM_REQ_COLL,
    SIM_REQ_RMA,  /* MPI_Rput & co. (rma.c): complete when issued */
    SIM_REQ_GREQ, /* MPI_Grequest_start (mpi_grequest.c): complete at MPI_Grequest_complete */
} sim_req_kind;

typedef enum sim_send_kind {
    SIM_SEND_STANDARD,
    SIM_SEND_SYNC,
    SIM_SEND_BUFFERED,
    SIM_SEND_READY,
} sim_send_kind;

/* Payloads up to this size live in the message itself. */
#define SIM_MSG_INLINE 64

struct sim_message {
    GList link;    /* in its destination's queue (data: the message); free list */
    uint64_t seq;  /* global send order */
    int src, dst;  /* world ranks */
    int src_crank; /* sender's rank in comm (what MPI_SOURCE reports) */
    int tag;
    sim_comm *comm;
    void *data; /* packed payload: inline_data, or g_malloc'd when larger */
    size_t bytes;
    const sim_typesig *sig; /* the sender's datatype's (a reference) ... */
    size_t sig_count;       /* ... times this many elements */
    sim_request *sreq;      /* sender's request while it waits for the match; else NULL */
    size_t bsend_bytes;     /* attached-buffer space held by a buffered send */
    void *call_site;
    const char *call;      /* "MPI_Send" ... */
    double arrival;        /* simulated time at which it reaches dst */
    bool probed_by_mprobe; /* taken by MPI_Mprobe: no longer matchable */
    /* Predict (timed.c): an eager message in transit is hidden from matching
     * and probes until it arrives; ready_at orders a wildcard's candidates. */
    bool hidden;
    double ready_at;
    double sent_at;
    uint64_t xfer;     /* its transfer in the network model, 0 if none */
    struct sim_vc *vc; /* race checks: the sender's clock at the send */
    /* Predict: a rendezvous message held (hidden) until its waiting receiver
     * has a core to pull the data, and whether that wait is over. */
    bool held, pulled;
    char inline_data[SIM_MSG_INLINE];
};

struct sim_request {
    GList live_link; /* in the list of live requests (request.c) */
    GList recv_link; /* in its owner's posted receives (engine.c); free list */
    int index;       /* handle index, -1 while unpublished */
    sim_req_kind kind;
    int owner; /* world rank */
    bool complete;
    bool persistent; /* MPI_*_init: survives completion, restarted by MPI_Start */
    bool active;     /* persistent: started and not yet completed by a wait */
    bool freed;      /* MPI_Request_free: release when complete */
    bool cancelled;
    bool posted;      /* receive sits in the posted queue */
    int error;        /* MPI error class of the completion */
    char *error_text; /* explanation of that error */
    MPI_Status status;
    const char *call; /* the MPI call that made it */
    void *call_site;  /* where that call was made, or the MPI_Start that started it */
    void *made_site;  /* where the request was made (MPI_Start leaves it) */
    /* point-to-point */
    sim_comm *comm;
    int peer; /* comm rank of source (recv) or destination (send), or wildcard */
    int tag;
    void *buf;
    int count;
    MPI_Datatype type;
    const sim_datatype *dt; /* referenced: MPI_Type_free may come before completion */
    sim_send_kind send_kind;
    sim_message *msg;   /* send: the message in flight; mrecv: the matched message */
    uint64_t seq;       /* post order of receives */
    bool early_offered; /* exploring: a pause for early delivery was made for it */
    /* collective */
    sim_coll *coll;
    /* A persistent collective (MPI_Bcast_init & co., mpi_persist.c): starts
     * it as its nonblocking twin; pstate (the call's arguments) is freed by
     * pfree when the request is released. */
    int (*pstart)(sim_request *req);
    void *pstate;
    void (*pfree)(void *pstate);
    /* MPI_Isendrecv: the receive is the request the program holds, its send
     * half is pair (unpublished, pair->pair_of is the receive); the receive
     * completes only once both halves have (recv_done: its own half has). */
    sim_request *pair, *pair_of;
    bool recv_done;
    /* Race checks (access.c): the clock its owner joins when it learns of
     * the completion, and the RMA operation whose local side ends then. */
    struct sim_vc *vc_acq;
    uint64_t access_key;
    /* Predict (timed.c): the collective run this member request belongs to,
     * or the one-sided operation (timed_rma.c) an MPI_Rput & co. waits for. */
    void *timed_run;
    int timed_member;
    /* MPI-IO: its status reports the bytes it moved (status.count) */
    bool io_status;
    /* Generalized request: the program's callbacks and their extra_state;
     * greq_freed once MPI_Request_free came before MPI_Grequest_complete. */
    MPI_Grequest_query_function *greq_query;
    MPI_Grequest_free_function *greq_free;
    MPI_Grequest_cancel_function *greq_cancel;
    void *greq_state;
    bool greq_freed;
};

/* memset(p, 0, n) as a call to the C library: GCC expands a memset of a
 * constant size of some hundred bytes into `rep stos`, whose start-up costs
 * more than the library's vector stores (the requests and messages reused
 * from free lists are cleared so, once or twice per message). */
static inline void sim_zero(void *p, size_t n) {
    static void *(*volatile const set)(void *, int, size_t) = memset;
    set(p, 0, n);
}

/* g_queue_push_tail_link and g_queue_unlink for the queues of the message
 * path (the live requests, each destination's messages and posted
 * receives): the same lists, without a call into GLib per step.  link is a
 * single element (next NULL on push); unlinking leaves it with next and
 * prev NULL, as GLib does. */
static inline void sim_queue_push_tail_link(GQueue *q, GList *link) {
    link->next = NULL;
    link->prev = q->tail;
    if (q->tail)
        q->tail->next = link;
    else
        q->head = link;
    q->tail = link;
    q->length++;
}

static inline void sim_queue_unlink(GQueue *q, GList *link) {
    if (link->prev)
        link->prev->next = link->next;
    else
        q->head = link->next;
    if (link->next)
        link->next->prev = link->prev;
    else
        q->tail = link->prev;
    link->next = link->prev = NULL;
    q->length--;
}

/* ---- requests (request.c) ---- */
sim_request *sim_req_new(sim_req_kind kind, const char *call);
/* Sets the request's datatype and keeps it alive until the request is released. */
void sim_req_set_type(sim_request *req, MPI_Datatype type);
void sim_req_release(sim_request *req);   /* drop handle and memory */
void sim_req_unpublish(sim_request *req); /* drop the handle only */
/* Looks up a handle of the calling rank; NULL for MPI_REQUEST_NULL or invalid
 * (*invalid set in the latter case). */
sim_request *sim_req_lookup(MPI_Request handle, bool *invalid);
/* Marks complete and wakes the owner (under predict, possibly later: see
 * sim_timed_defer). */
void sim_req_complete(sim_request *req);
/* The same, now, whatever the time model says. */
void sim_req_complete_now(sim_request *req);
void sim_req_fail(sim_request *req, int errclass, char *text); /* takes text */
/* Completes the caller's side of a finished request: status, error report
 * (through sim_error, with the request's call site), release or deactivate.
 * Returns the MPI error code. */
int sim_req_finish(sim_request *req, MPI_Status *status, MPI_Request *handle_slot);
/* Generalized requests (mpi_grequest.c).  Both run program code on the
 * owner's behalf (the caller is that rank, inside an MPI call).
 * sim_greq_query: the query callback fills req->status (MPI 3.1 section
 * 12.2: at each completion the program asks about, before the free
 * callback); a nonzero return fails the request with it.
 * sim_greq_free: the free callback, once the request is done with; returns
 * its error code. */
void sim_greq_query(sim_request *req);
int sim_greq_free(sim_request *req);
/* MPI_Cancel of a generalized request: its cancel callback, told whether
 * MPI_Grequest_complete came already; returns the error code (reported). */
int sim_greq_cancel(sim_request *req);

/* Every live request (for finalize checks). */
GPtrArray *sim_req_all(void);
/* Drops every request (teardown). */
void sim_req_reset(void);

/* ---- point-to-point (engine.c) ---- */
void sim_engine_init(int nranks);
void sim_engine_fini(void);
/* Posts a send.  Standard sends are buffered or not per the configured send
 * mode; returns the request (complete at once when buffered). */
sim_request *sim_post_send(sim_send_kind kind, const void *buf, int count, MPI_Datatype type,
                           int dest, int tag, sim_comm *comm, const char *call, int *err);
sim_request *sim_post_recv(void *buf, int count, MPI_Datatype type, int source, int tag,
                           sim_comm *comm, const char *call);
/* Under `ordex run` with its default schedule: completes the receive r that
 * its owner, the calling rank, is about to wait on alone, when MPI fixes the
 * message it gets (a named source; the first matching message of that source
 * is queued and no receive posted earlier matches it) and no clock can tell
 * now from the scheduler's turn (the message is buffered, or its sender
 * waits on its send alone).  Returns whether it did; otherwise nothing
 * changed and the scheduler delivers as before.  (A buffered send whose
 * receive is posted, named and waited on alone is delivered at once in the
 * same way by sim_post_send.) */
bool sim_engine_recv_now(sim_request *r);
/* Starts an inactive persistent request. */
int sim_start(sim_request *req);
/* MPI_Isendrecv (replace: MPI_Isendrecv_replace, recvbuf == sendbuf) under
 * the name `call`: checks both halves as MPI_Isend and MPI_Irecv would,
 * posts them and publishes into *request the receive, which completes once
 * both halves have (mpi_p2p.c). */
int sim_isendrecv(const char *call, bool replace, const void *sendbuf, int sendcount,
                  MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                  MPI_Request *request);
/* Blocks until a message matching (source, tag, comm) can be seen; fills
 * status.  With `take`, removes it from matching (MPI_Mprobe) and returns it. */
sim_message *sim_probe(int source, int tag, sim_comm *comm, bool block, bool take, bool *found,
                       MPI_Status *status);
/* Receives a message taken by MPI_Mprobe into req (completes it). */
void sim_mrecv_deliver(sim_request *req, sim_message *msg);
/* MPI_Cancel of a pending receive or unmatched send. */
void sim_cancel(sim_request *req);
/* Messages still unmatched (for finalize checks); world rank dst or -1 for all. */
void sim_unmatched_messages(GPtrArray *out);

/* ---- waiting (request.c) ---- */
/* The rank's current wait set, for deadlock reports. */
void sim_wait_set(sim_request **reqs, int n);
void sim_wait_clear(void);
/* Blocks until another event happened (MPI_Test/Iprobe that found nothing). */
void sim_poll_block(void);

/* ---- "not yet" answers of MPI_Test and nonblocking probes (engine.c) ---- */
/* MPI does not promise that a completed request or a sent message is seen at
 * once.  Exploring with cfg.test_later, a Test or nonblocking probe that
 * could succeed asks sim_choose(2, what) (0 succeed now, 1 not yet); true
 * for "not yet".  Never twice in a row for one rank: after a "not yet", the
 * rank's next call that can succeed does, so polling loops end. */
bool sim_test_later(const char *what);
/* Blocks like sim_poll_block after a "not yet": nothing needs to change for
 * the rank to ask again (sim_engine_wake_later). */
void sim_poll_later(void);
/* The poll of MPI_Iprobe/MPI_Improbe after sim_probe found nothing: a later
 * poll when sim_probe answered "not yet", else sim_poll_block. */
void sim_probe_poll(void);

/* ---- collectives (coll.c) ---- */
void sim_coll_init(void);
void sim_coll_fini(void);

/* Digests of the engine's and the requests' state (see sim_digest_rank). */
void sim_engine_digest(sim_digest_feed feed, void *user);
void sim_req_digest(const sim_request *r, sim_digest_feed feed, void *user);
void sim_req_digest_rank(int rank, sim_digest_feed feed, void *user);
int sim_comm_digest_id(const sim_comm *c);

/* Marks a posted receive as offered early delivery; false if it already was. */
bool sim_engine_offer_early(void *recv_request);

/* Describes the probe a blocked rank waits in; false if none. */
bool sim_engine_probe_of(int rank, int *source, int *tag, sim_comm **comm);

/* ---- collectives: leaving early (coll.c) ---- */
/* True when member `me` of c may return before the others arrive (a Bcast or
 * Scatter root, a Reduce or Gather contributor) and has not yet. */
bool sim_coll_may_leave_early(const sim_coll *c, int me);
/* Copies its contribution and completes its request. */
void sim_coll_leave_early(sim_coll *c, int me);
/* Gives member me of an MPI_Bcast the root's data now, when the root has
 * arrived, and completes its request; the collective's later data movement
 * for it goes to a scratch copy.  False (nothing done) for other kinds, an
 * absent root, or sizes and types that do not match (the collective reports
 * those when it fires). */
bool sim_coll_deliver_early(sim_coll *c, int me);

/* ---- simulated time of `ordex predict` (timed.c; see timed.h) ---- */
/* All are no-ops (or false) unless sim_timed_start turned time on. */
void sim_timed_call_enter(int self, const char *fname); /* may block until the call's time */
void sim_timed_call_leave(int self);
void sim_timed_send_overhead(uint64_t bytes); /* rank context; may block */
void sim_timed_message_posted(sim_message *m);
void sim_timed_message_freed(sim_message *m);
void sim_timed_delivered(const sim_message *m, const sim_request *r);
bool sim_timed_defer(sim_request *req); /* true: completion postponed */
void sim_timed_coll_arrive(sim_coll *c, int me, sim_request *req);
void sim_timed_coll_fired(sim_coll *c);
void sim_timed_rank_ended(int rank);
void sim_timed_add_work(double seconds); /* running rank; ordex_compute */

/* ---- time and counters (core.c) ---- */
double sim_transfer_time(size_t bytes);
void sim_count_delivery(void);

#endif
