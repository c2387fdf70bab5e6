/*
 * mpi_grequest.c - generalized requests (MPI 3.1 section 12.2):
 * MPI_Grequest_start and MPI_Grequest_complete, and the callbacks the
 * completion calls make (query, free, cancel).
 *
 * A generalized request is an ordinary request of its rank (SIM_REQ_GREQ)
 * that nothing in the simulator completes: only the program's
 * MPI_Grequest_complete does.  A rank waiting for one that is never
 * completed is blocked like any other, so exploration reports the deadlock
 * naming the wait and the MPI_Grequest_start that made the request.
 *
 * When the callbacks run:
 *   query_fn  at every completion the program observes (MPI_Wait, MPI_Test
 *             and their any/some/all forms, MPI_Request_get_status), with
 *             the status to fill (a scratch one under MPI_STATUS_IGNORE);
 *   free_fn   once, after the query of the wait or test that frees the
 *             request, or at MPI_Request_free of a completed request (of a
 *             pending one: at its MPI_Grequest_complete);
 *   cancel_fn at MPI_Cancel, with complete = whether MPI_Grequest_complete
 *             was called already.
 */
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/engine.h"
#include "simulator/sim_internal.h"

void sim_greq_query(sim_request *req) {
    if (!req->greq_query)
        return;
    MPI_Status st;
    memset(&st, 0, sizeof st);
    st.MPI_SOURCE = MPI_ANY_SOURCE; /* what a status says before the query fills it */
    st.MPI_TAG = MPI_ANY_TAG;
    /* Program code: its heap, its MPI calls (MPI_Status_set_elements ...). */
    sched_leave_sim();
    int rc = req->greq_query(req->greq_state, &st);
    sched_enter_sim();
    req->status = st;
    if (rc != MPI_SUCCESS)
        sim_req_fail(req, rc,
                     g_strdup_printf("the query_fn of the generalized request returned error "
                                     "code %d",
                                     rc));
}

int sim_greq_free(sim_request *req) {
    if (!req->greq_free)
        return MPI_SUCCESS;
    MPI_Grequest_free_function *fn = req->greq_free;
    req->greq_free = NULL; /* once */
    sched_leave_sim();
    int rc = fn(req->greq_state);
    sched_enter_sim();
    return rc;
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request) {
    SIM_ENTER("MPI_Grequest_start");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    const char *null = !query_fn    ? "query_fn"
                       : !free_fn   ? "free_fn"
                       : !cancel_fn ? "cancel_fn"
                       : !request   ? "request"
                                    : NULL;
    if (null)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Grequest_start: %s is NULL", null));
    sim_request *req = sim_req_new(SIM_REQ_GREQ, "MPI_Grequest_start");
    req->greq_query = query_fn;
    req->greq_free = free_fn;
    req->greq_cancel = cancel_fn;
    req->greq_state = extra_state;
    *request = sim_request_publish(req);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Grequest_start);

int PMPI_Grequest_complete(MPI_Request request) {
    SIM_ENTER("MPI_Grequest_complete");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    bool invalid;
    sim_request *req = sim_req_lookup(request, &invalid);
    if (!req || req->kind != SIM_REQ_GREQ)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                             "MPI_Grequest_complete: request 0x%x is %s", (unsigned)request,
                             request == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL"
                             : req ? "not a generalized request (made by MPI_Grequest_start)"
                                   : "not a request of this rank"));
    if (req->complete)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                             "MPI_Grequest_complete: the generalized request 0x%x made at %s is "
                             "complete already; it is completed once",
                             (unsigned)request, sim_location(req->made_site)));
    if (req->greq_freed) {
        /* MPI_Request_free came first: nobody waits, the request goes. */
        req->complete = true;
        rc = sim_greq_free(req);
        sim_req_release(req);
        if (rc != MPI_SUCCESS)
            SIM_RETURN(sim_error(MPI_COMM_WORLD, rc,
                                 "MPI_Grequest_complete: the free_fn of the generalized "
                                 "request returned error code %d",
                                 rc));
        SIM_RETURN(MPI_SUCCESS);
    }
    sim_req_complete_now(req);
    sim_events_changed();
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Grequest_complete);

int sim_greq_cancel(sim_request *req) {
    MPI_Grequest_cancel_function *fn = req->greq_cancel;
    if (!fn)
        return MPI_SUCCESS;
    sched_leave_sim();
    int rc = fn(req->greq_state, req->complete);
    sched_enter_sim();
    if (rc != MPI_SUCCESS)
        return sim_error(MPI_COMM_WORLD, rc,
                         "MPI_Cancel: the cancel_fn of the generalized request returned error "
                         "code %d",
                         rc);
    return MPI_SUCCESS;
}
