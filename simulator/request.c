/*
 * request.c - the request table, completion, and waiting.
 */
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/access.h"
#include "simulator/engine.h"
#include "simulator/events.h"
#include "simulator/sim_internal.h"

/* Every live request, published or not, for finalize checks.  The links
 * live in the requests, so adding and removing costs no allocation. */
static GQueue g_live = G_QUEUE_INIT;

/* Released requests, linked through recv_link.next: blocking calls in their
 * steady state reuse them instead of allocating one per call. */
static GList *g_free_reqs;

sim_request *sim_req_new(sim_req_kind kind, const char *call) {
    sim_request *req;
    if (g_free_reqs) {
        req = g_free_reqs->data;
        g_free_reqs = g_free_reqs->next;
        sim_zero(req, sizeof *req);
    } else {
        req = g_new0(sim_request, 1);
    }
    req->live_link.data = req;
    sim_queue_push_tail_link(&g_live, &req->live_link);
    req->index = -1;
    req->kind = kind;
    req->owner = sim_self();
    const sim_proc *me = sim_proc_of(req->owner);
    req->call = me->alias_base ? sim_call_shown(call) : call;
    req->call_site = me->call_site;
    req->made_site = req->call_site;
    return req;
}

void sim_req_set_type(sim_request *req, MPI_Datatype type) {
    req->type = type;
    req->dt = sim_dt_ref(sim_dt_get(type));
}

MPI_Request sim_request_publish(sim_request *req) {
    if (req->index < 0) {
        sim_proc *p = sim_proc_of(req->owner);
        guint idx;
        if (p->free_requests->len) {
            idx = g_array_index(p->free_requests, guint, p->free_requests->len - 1);
            g_array_set_size(p->free_requests, p->free_requests->len - 1);
            g_ptr_array_index(p->requests, idx) = req;
        } else {
            idx = p->requests->len;
            g_ptr_array_add(p->requests, req);
        }
        req->index = (int)idx;
        if (!req->persistent) /* a nonblocking call: its buffer is in use until the wait */
            sim_access_request_started(req);
    }
    return SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_REQUEST, req->index);
}

void sim_req_unpublish(sim_request *req) {
    if (req->index >= 0) {
        sim_proc *p = sim_proc_of(req->owner);
        guint idx = (guint)req->index;
        g_ptr_array_index(p->requests, idx) = NULL;
        /* Kept in descending order so that the lowest free index is reused
         * first: handle values then do not depend on the order in which
         * requests were freed, and states that differ only in that order
         * (MPI_Waitany reporting completions in another order) merge. */
        guint at = p->free_requests->len;
        while (at > 0 && g_array_index(p->free_requests, guint, at - 1) < idx)
            at--;
        g_array_insert_val(p->free_requests, at, idx);
        req->index = -1;
    }
}

void sim_req_release(sim_request *req) {
    if (req->pair) {
        req->pair->pair_of = NULL;
        sim_req_release(req->pair);
        req->pair = NULL;
    }
    if (req->pair_of) /* released with its receive, never alone */
        req->pair_of->pair = NULL;
    if (req->pfree)
        req->pfree(req->pstate);
    sim_access_request_released(req);
    sim_req_unpublish(req);
    sim_queue_unlink(&g_live, &req->live_link);
    if (req->dt)
        sim_dt_unref(req->dt);
    if (req->vc_acq)
        sim_vc_free(req->vc_acq);
    if (req->error_text)
        g_free(req->error_text);
    req->recv_link.data = req;
    req->recv_link.next = g_free_reqs;
    g_free_reqs = &req->recv_link;
}

sim_request *sim_req_lookup(MPI_Request handle, bool *invalid) {
    *invalid = false;
    if (handle == MPI_REQUEST_NULL)
        return NULL;
    unsigned idx = SIM_HANDLE_INDEX(handle);
    sim_proc *p = sim_proc_of(sim_self());
    if (SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(handle) != SIM_OBJ_REQUEST ||
        idx >= p->requests->len) {
        *invalid = true;
        return NULL;
    }
    sim_request *req = g_ptr_array_index(p->requests, idx);
    if (!req || req->owner != sim_self()) {
        *invalid = true;
        return NULL;
    }
    return req;
}

void sim_req_complete(sim_request *req) {
    if (sim_timed_defer(req))
        return;
    sim_req_complete_now(req);
}

void sim_req_complete_now(sim_request *req) {
    if (req->pair_of) { /* the send half of an MPI_Isendrecv */
        sim_request *recv = req->pair_of;
        req->complete = true;
        if (recv->recv_done)
            sim_req_complete_now(recv);
        return;
    }
    if (req->pair && !req->pair->complete) {
        req->recv_done = true; /* complete when the send half is */
        return;
    }
    req->complete = true;
    if (req->freed && !req->persistent) { /* MPI_Request_free: nobody will wait */
        sim_req_release(req);
        return;
    }
    sched_wake(req->owner);
}

void sim_req_fail(sim_request *req, int errclass, char *text) {
    if (req->error == MPI_SUCCESS) {
        req->error = errclass;
        g_free(req->error_text);
        req->error_text = text;
    } else {
        g_free(text);
    }
}

int sim_req_finish(sim_request *req, MPI_Status *status, MPI_Request *handle_slot) {
    bool greq = req->kind == SIM_REQ_GREQ;
    if (greq)
        sim_greq_query(req); /* the program says what the status is */
    if (status != MPI_STATUS_IGNORE) {
        int keep_error = status->MPI_ERROR;
        *status = req->status;
        status->MPI_ERROR = keep_error;
        if (greq) {
            /* As the query callback set it, cancelled flag included. */
        } else if (req->kind != SIM_REQ_RECV && !req->io_status) {
            /* Send and collective requests have an empty status (MPI 3.1 3.7.3). */
            status->MPI_SOURCE = MPI_ANY_SOURCE;
            status->MPI_TAG = MPI_ANY_TAG;
            sim_status_set_bytes(status, 0);
        }
        if (!greq)
            status->count_hi_and_cancelled =
                (status->count_hi_and_cancelled & ~1) | (req->cancelled ? 1 : 0);
    }
    sim_access_request_finished(req);
    if (req->pair) {
        sim_access_request_finished(req->pair);
        if (req->error == MPI_SUCCESS && req->pair->error != MPI_SUCCESS) {
            req->error = req->pair->error;
            req->error_text = req->pair->error_text;
            req->pair->error_text = NULL;
        }
    }
    int err = req->error;
    char *text = req->error_text;
    req->error_text = NULL;
    const char *call = req->call;
    void *site = req->call_site;
    if (greq) {
        /* The program's callbacks failed in this call, not in the
         * MPI_Grequest_start that made the request. */
        sim_proc *self = sim_proc_of(sim_self());
        call = self->call ? self->call : call;
        site = self->call_site;
    }
    sim_comm *comm = req->comm;
    if (req->persistent) {
        req->active = false;
        req->complete = false;
        req->error = MPI_SUCCESS;
        req->coll = NULL; /* a persistent collective's run is over */
        if (req->pair) {  /* and its nonblocking twin's request with it */
            req->pair->pair_of = NULL;
            sim_req_release(req->pair);
            req->pair = NULL;
        }
    } else {
        /* The free callback comes after the query (MPI 3.1 section 12.2);
         * its error is the call's when the query had none. */
        int ferr = greq ? sim_greq_free(req) : MPI_SUCCESS;
        if (ferr != MPI_SUCCESS && err == MPI_SUCCESS) {
            err = ferr;
            text = g_strdup_printf("the free_fn of the generalized request returned error code %d",
                                   ferr);
        }
        sim_req_release(req);
        if (handle_slot)
            *handle_slot = MPI_REQUEST_NULL;
    }
    if (err != MPI_SUCCESS) {
        const char *t = text ? text : "failed";
        if (g_str_has_prefix(t, call)) /* the text names the call already */
            err = sim_error_at(comm ? comm->handle : MPI_COMM_WORLD, err, site, "%s", t);
        else
            err = sim_error_at(comm ? comm->handle : MPI_COMM_WORLD, err, site, "%s: %s", call, t);
    }
    if (text)
        g_free(text);
    return err;
}

GPtrArray *sim_req_all(void) {
    GPtrArray *all = g_ptr_array_new();
    for (GList *l = g_live.head; l; l = l->next)
        g_ptr_array_add(all, l->data);
    return all;
}

void sim_req_reset(void) {
    while (g_live.head) {
        sim_request *r = g_live.head->data;
        sim_queue_unlink(&g_live, &r->live_link);
        g_free(r->error_text);
        g_free(r->pstate); /* the objects it holds go with the rest */
        g_free(r);
    }
    while (g_free_reqs) {
        sim_request *r = g_free_reqs->data;
        g_free_reqs = g_free_reqs->next;
        g_free(r);
    }
}

/* ---------------------------------------------------------------------- */
/* Waiting                                                                 */

void sim_wait_set(sim_request **reqs, int n) {
    sim_proc *p = sim_proc_of(sim_self());
    /* The buffer stays for the next wait (freed with the process). */
    if (n > p->waits_cap) {
        g_free(p->waits);
        p->waits_cap = n > 4 ? n : 4;
        p->waits = g_new(sim_request *, (size_t)p->waits_cap);
    }
    memcpy(p->waits, reqs, sizeof(sim_request *) * (size_t)n);
    p->nwaits = n;
}

void sim_wait_clear(void) {
    sim_proc *p = sim_proc_of(sim_self());
    p->nwaits = 0;
    p->polling = false;
    p->wait_any = false;
}

void sim_poll_block(void) {
    int self = sim_self();
    sim_proc_of(self)->polling = true;
    sim_events_add_poller(self);
    sched_block();
    sim_proc_of(self)->polling = false;
}

int sim_request_wait(sim_request *req, MPI_Status *status) {
    if (!req->complete) {
        sim_wait_set(&req, 1);
        while (!req->complete)
            sched_block();
        sim_wait_clear();
    }
    return sim_req_finish(req, status, NULL);
}

/* ---------------------------------------------------------------------- */
/* State digest                                                            */

void sim_req_digest(const sim_request *r, sim_digest_feed feed, void *user) {
    int64_t f[18] = {r->kind,
                     r->owner,
                     r->complete,
                     r->persistent,
                     r->active,
                     r->freed,
                     r->cancelled,
                     r->error,
                     r->peer,
                     r->tag,
                     r->comm ? sim_comm_digest_id(r->comm) : -1,
                     (int64_t)(intptr_t)r->buf,
                     r->count,
                     r->type,
                     r->send_kind,
                     r->coll ? (int64_t)r->coll->seq : -1,
                     r->status.MPI_SOURCE,
                     r->status.MPI_TAG};
    feed(user, f, sizeof f);
    int64_t offered = r->early_offered;
    feed(user, &offered, sizeof offered);
    size_t bytes = sim_status_bytes(&r->status);
    feed(user, &bytes, sizeof bytes);
}

void sim_req_digest_rank(int rank, sim_digest_feed feed, void *user) {
    sim_proc *p = sim_proc_of(rank);
    int64_t n = p->requests->len;
    feed(user, &n, sizeof n);
    for (guint i = 0; i < p->requests->len; i++) {
        const sim_request *r = g_ptr_array_index(p->requests, i);
        int64_t present = r != NULL;
        feed(user, &present, sizeof present);
        if (r)
            sim_req_digest(r, feed, user);
    }
    n = p->nwaits;
    feed(user, &n, sizeof n);
    for (int i = 0; i < p->nwaits; i++) {
        int64_t present = p->waits[i] != NULL; /* null handles in a Waitany set */
        feed(user, &present, sizeof present);
        if (p->waits[i])
            sim_req_digest(p->waits[i], feed, user);
    }
}
