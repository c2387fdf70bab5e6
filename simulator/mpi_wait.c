/*
 * mpi_wait.c - completion (MPI 3.1 section 3.7.3-3.7.5): the Wait and Test
 * families, request freeing and cancellation.
 *
 * Which of several complete requests Waitany/Testany report is a choice:
 * the lowest index by default, a random one with --seed.  Under exploration
 * a Test that could succeed may also say "not yet" (sim_test_later).
 */
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/engine.h"
#include "simulator/report.h"

static void empty_status(MPI_Status *st) {
    if (st == MPI_STATUS_IGNORE || st == MPI_STATUSES_IGNORE)
        return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    st->count_lo = 0;
    st->count_hi_and_cancelled = 0;
}

/* A request twice in one array: completing the first entry frees the
 * request, and the second then names a request that is gone (or, reused,
 * another one); erroneous, as MPI lets a handle be completed only once. */
static int no_duplicates(const char *name, int n, const MPI_Request *handles) {
    if (n < 2)
        return MPI_SUCCESS;
    GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (handles[i] == MPI_REQUEST_NULL)
            continue;
        gpointer key = GUINT_TO_POINTER((guint)handles[i]), at = NULL;
        if (g_hash_table_lookup_extended(seen, key, NULL, &at)) {
            bool invalid;
            sim_request *r = sim_req_lookup(handles[i], &invalid);
            int first = GPOINTER_TO_INT(at);
            rc = sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                           "%s: array_of_requests[%d] and [%d] are the same request (of %s at "
                           "%s); a request may appear only once in the array",
                           name, first, i, r ? r->call : "?", r ? sim_location(r->made_site) : "?");
        } else {
            g_hash_table_insert(seen, key, GINT_TO_POINTER(i));
        }
    }
    g_hash_table_destroy(seen);
    return rc;
}

/* Resolves an array of handles; NULL entries are null or inactive
 * persistent requests (which complete at once with an empty status). */
static int resolve(const char *name, int n, MPI_Request *handles, sim_request **out) {
    if (n < 0)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, "%s: count %d is negative", name, n);
    for (int i = 0; i < n; i++) {
        bool invalid;
        out[i] = sim_req_lookup(handles[i], &invalid);
        if (invalid)
            return sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                             "%s: request %d (0x%x) is not a request of this rank (freed, "
                             "completed already, or never created)",
                             name, i, (unsigned)handles[i]);
        if (out[i] && out[i]->persistent && !out[i]->active)
            out[i] = NULL;
    }
    return no_duplicates(name, n, handles);
}

static MPI_Status *status_at(MPI_Status *arr, int i) {
    return arr == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &arr[i];
}

/* Reports describe what a rank waits for from its wait set (sim_wait_set). */
static void describe_wait(sim_request **reqs, int n) {}

/* Which complete request Waitany/Testany report is the implementation's
 * choice (MPI 3.1 3.7.5): a choice point. */
static int pick_complete(const char *call, sim_request **reqs, int n) {
    int found = 0, pick = -1;
    for (int i = 0; i < n; i++)
        if (reqs[i] && reqs[i]->complete) {
            found++;
            if (pick < 0)
                pick = i;
        }
    if (found > 1) {
        /* The alternatives are the requests complete now: the choice may be
         * made after others have completed (sim_set_choice_events). */
        int *done = g_new(int, found), m = 0;
        for (int i = 0; i < n; i++)
            if (reqs[i] && reqs[i]->complete)
                done[m++] = i;
        pick = done[sim_choose(found, call)];
        g_free(done);
    }
    return pick;
}

static bool any_done(sim_request **reqs, int n);

static void block_on(sim_request **reqs, int n, bool (*done)(sim_request **, int)) {
    if (done(reqs, n))
        return;
    sim_wait_set(reqs, n);
    describe_wait(reqs, n);
    sim_proc_of(sim_self())->wait_any = done == any_done;
    while (!done(reqs, n))
        sched_block();
    sim_wait_clear();
}

static bool all_done(sim_request **reqs, int n) {
    for (int i = 0; i < n; i++)
        if (reqs[i] && !reqs[i]->complete)
            return false;
    return true;
}

static bool any_done(sim_request **reqs, int n) {
    bool any_active = false;
    for (int i = 0; i < n; i++)
        if (reqs[i]) {
            any_active = true;
            if (reqs[i]->complete)
                return true;
        }
    return !any_active;
}

static bool has_active(sim_request **reqs, int n) {
    for (int i = 0; i < n; i++)
        if (reqs[i])
            return true;
    return false;
}

static bool some_complete(sim_request **reqs, int n) {
    for (int i = 0; i < n; i++)
        if (reqs[i] && reqs[i]->complete)
            return true;
    return false;
}

/* A Test whose requests could be reported complete may say "not yet" (MPI
 * does not promise immediate progress).  The rank then polls as when nothing
 * had completed, unless it already polled in this call: either way others
 * may progress before the program asks again. */
static bool not_yet(const char *what, sim_request **reqs, int n, bool polled) {
    /* A generalized request is complete once the program said so: no
     * progress of MPI's own is left to wait for. */
    bool progress = false;
    for (int i = 0; i < n && !progress; i++)
        progress = reqs[i] && reqs[i]->complete && reqs[i]->kind != SIM_REQ_GREQ;
    if (!progress || !sim_test_later(what))
        return false;
    if (!polled) {
        describe_wait(reqs, n);
        sim_wait_set(reqs, n);
        sim_poll_later();
        sim_wait_clear();
    }
    return true;
}

/* ---------------------------------------------------------------------- */

int PMPI_Wait(MPI_Request *request, MPI_Status *status) {
    SIM_ENTER("MPI_Wait");
    sim_request *req;
    int rc = resolve("MPI_Wait", 1, request, &req);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!req) {
        empty_status(status);
        SIM_RETURN(MPI_SUCCESS);
    }
    sim_call_status_output(status);
    block_on(&req, 1, all_done);
    SIM_RETURN(sim_req_finish(req, status, request));
}
SIM_ALIAS(MPI_Wait);

/* Finishes every complete request of the set; returns MPI_ERR_IN_STATUS when
 * some failed (with statuses' MPI_ERROR set), else MPI_SUCCESS. */
static int finish_all(int n, MPI_Request *handles, sim_request **reqs, MPI_Status *statuses,
                      bool only_complete, int *indices, int *outcount) {
    int rc = MPI_SUCCESS, k = 0;
    for (int i = 0; i < n; i++) {
        if (!reqs[i]) {
            if (!only_complete)
                empty_status(status_at(statuses, i));
            continue;
        }
        if (!reqs[i]->complete)
            continue;
        MPI_Status *st = status_at(statuses, indices ? k : i);
        int e = sim_req_finish(reqs[i], st, &handles[i]);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = e;
        if (e != MPI_SUCCESS)
            rc = MPI_ERR_IN_STATUS;
        if (indices)
            indices[k] = i;
        k++;
    }
    if (outcount)
        *outcount = k;
    return rc;
}

int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
    SIM_ENTER("MPI_Waitall");
    sim_request **reqs = g_new0(sim_request *, count > 0 ? count : 1);
    int rc = resolve("MPI_Waitall", count, requests, reqs);
    if (rc == MPI_SUCCESS) {
        block_on(reqs, count, all_done);
        rc = finish_all(count, requests, reqs, statuses, false, NULL, NULL);
    }
    g_free(reqs);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Waitall);

int PMPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
    SIM_ENTER("MPI_Waitany");
    sim_request **reqs = g_new0(sim_request *, count > 0 ? count : 1);
    int rc = resolve("MPI_Waitany", count, requests, reqs);
    if (rc == MPI_SUCCESS) {
        sim_call_output(index, sizeof *index);
        sim_call_status_output(status);
        block_on(reqs, count, any_done);
        int i = pick_complete("MPI_Waitany", reqs, count);
        if (i < 0) {
            *index = MPI_UNDEFINED;
            empty_status(status);
        } else {
            *index = i;
            rc = sim_req_finish(reqs[i], status, &requests[i]);
        }
    }
    g_free(reqs);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Waitany);

int PMPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status statuses[]) {
    SIM_ENTER("MPI_Waitsome");
    sim_request **reqs = g_new0(sim_request *, incount > 0 ? incount : 1);
    int rc = resolve("MPI_Waitsome", incount, requests, reqs);
    if (rc == MPI_SUCCESS) {
        block_on(reqs, incount, any_done);
        bool any = false;
        for (int i = 0; i < incount; i++)
            any |= reqs[i] != NULL;
        if (!any)
            *outcount = MPI_UNDEFINED;
        else
            rc = finish_all(incount, requests, reqs, statuses, true, indices, outcount);
    }
    g_free(reqs);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Waitsome);

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
    SIM_ENTER("MPI_Test");
    sim_request *req;
    int rc = resolve("MPI_Test", 1, request, &req);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!req) {
        *flag = 1;
        empty_status(status);
        SIM_RETURN(MPI_SUCCESS);
    }
    bool polled = !req->complete;
    if (polled) {
        describe_wait(&req, 1);
        sim_wait_set(&req, 1);
        sim_poll_block(); /* others progress before the program asks again */
        sim_wait_clear();
    }
    bool done = req->complete && !not_yet("MPI_Test:now-or-later", &req, 1, polled);
    *flag = done;
    SIM_RETURN(done ? sim_req_finish(req, status, request) : MPI_SUCCESS);
}
SIM_ALIAS(MPI_Test);

int PMPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {
    SIM_ENTER("MPI_Testall");
    sim_request **reqs = g_new0(sim_request *, count > 0 ? count : 1);
    int rc = resolve("MPI_Testall", count, requests, reqs);
    if (rc == MPI_SUCCESS) {
        bool polled = !all_done(reqs, count);
        if (polled) {
            describe_wait(reqs, count);
            sim_wait_set(reqs, count);
            sim_poll_block();
            sim_wait_clear();
        }
        *flag =
            all_done(reqs, count) &&
            !(has_active(reqs, count) && not_yet("MPI_Testall:now-or-later", reqs, count, polled));
        if (*flag)
            rc = finish_all(count, requests, reqs, statuses, false, NULL, NULL);
    }
    g_free(reqs);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Testall);

int PMPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
    SIM_ENTER("MPI_Testany");
    sim_request **reqs = g_new0(sim_request *, count > 0 ? count : 1);
    int rc = resolve("MPI_Testany", count, requests, reqs);
    if (rc == MPI_SUCCESS) {
        bool polled = !any_done(reqs, count);
        if (polled) {
            describe_wait(reqs, count);
            sim_wait_set(reqs, count);
            sim_poll_block();
            sim_wait_clear();
        }
        bool later =
            some_complete(reqs, count) && not_yet("MPI_Testany:now-or-later", reqs, count, polled);
        int i = later ? -1 : pick_complete("MPI_Testany", reqs, count);
        bool any = false;
        for (int k = 0; k < count; k++)
            any |= reqs[k] != NULL;
        if (i >= 0) {
            *flag = 1;
            *index = i;
            rc = sim_req_finish(reqs[i], status, &requests[i]);
        } else {
            *flag = !any; /* no active request: flag true, index undefined */
            *index = MPI_UNDEFINED;
            if (!any)
                empty_status(status);
        }
    }
    g_free(reqs);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Testany);

int PMPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status statuses[]) {
    SIM_ENTER("MPI_Testsome");
    sim_request **reqs = g_new0(sim_request *, incount > 0 ? incount : 1);
    int rc = resolve("MPI_Testsome", incount, requests, reqs);
    if (rc == MPI_SUCCESS) {
        bool any = false;
        for (int i = 0; i < incount; i++)
            any |= reqs[i] != NULL;
        if (!any) {
            *outcount = MPI_UNDEFINED;
        } else {
            bool polled = !any_done(reqs, incount);
            if (polled) {
                describe_wait(reqs, incount);
                sim_wait_set(reqs, incount);
                sim_poll_block();
                sim_wait_clear();
            }
            if (some_complete(reqs, incount) &&
                not_yet("MPI_Testsome:now-or-later", reqs, incount, polled))
                *outcount = 0;
            else
                rc = finish_all(incount, requests, reqs, statuses, true, indices, outcount);
        }
    }
    g_free(reqs);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Testsome);

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
    SIM_ENTER("MPI_Request_get_status");
    sim_request *req;
    int rc = resolve("MPI_Request_get_status", 1, &request, &req);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!req) {
        *flag = 1;
        empty_status(status);
        SIM_RETURN(MPI_SUCCESS);
    }
    if (!req->complete)
        sim_poll_block();
    *flag = req->complete;
    if (req->complete && req->kind == SIM_REQ_GREQ) {
        /* The program's query says the status; the request stays. */
        sim_greq_query(req);
        if (status != MPI_STATUS_IGNORE)
            *status = req->status;
        SIM_RETURN(req->error);
    }
    if (req->complete && status != MPI_STATUS_IGNORE) {
        *status = req->status;
        if (req->kind != SIM_REQ_RECV)
            empty_status(status);
    }
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Request_get_status);

int PMPI_Request_free(MPI_Request *request) {
    SIM_ENTER("MPI_Request_free");
    sim_request *req;
    int rc = resolve("MPI_Request_free", 1, request, &req);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!req) {
        bool invalid;
        req = sim_req_lookup(*request, &invalid); /* an inactive persistent request */
        if (!req)
            SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                                 "MPI_Request_free: MPI_REQUEST_NULL cannot be freed"));
        sim_req_release(req);
        *request = MPI_REQUEST_NULL;
        SIM_RETURN(MPI_SUCCESS);
    }
    if (req->kind == SIM_REQ_COLL)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                             "MPI_Request_free: a nonblocking collective request (%s) cannot be "
                             "freed; complete it with MPI_Wait/MPI_Test",
                             req->call));
    if (req->kind == SIM_REQ_GREQ) {
        /* The free callback runs now if the request is complete, else at its
         * MPI_Grequest_complete, which still finds it by its handle. */
        *request = MPI_REQUEST_NULL;
        if (!req->complete) {
            req->greq_freed = true;
            SIM_RETURN(MPI_SUCCESS);
        }
        int e = sim_greq_free(req);
        sim_req_release(req);
        SIM_RETURN(e == MPI_SUCCESS ? MPI_SUCCESS
                                    : sim_error(MPI_COMM_WORLD, e,
                                                "MPI_Request_free: the free_fn of the generalized "
                                                "request returned error code %d",
                                                e));
    }
    /* Legal, but nothing tells the program any more when the operation
     * is over (MPI 3.1 section 3.7.3 advises against it for receives). */
    sim_report_active_freed(req);
    req->persistent = false;
    if (req->complete) {
        sim_req_release(req);
    } else {
        req->freed = true;
        sim_req_unpublish(req); /* the handle is gone; the operation goes on */
    }
    *request = MPI_REQUEST_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Request_free);

int PMPI_Cancel(MPI_Request *request) {
    SIM_ENTER("MPI_Cancel");
    sim_request *req;
    int rc = resolve("MPI_Cancel", 1, request, &req);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (req && req->kind == SIM_REQ_GREQ)
        SIM_RETURN(sim_greq_cancel(req));
    if (req && req->kind != SIM_REQ_COLL)
        sim_cancel(req);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Cancel);

int PMPI_Test_cancelled(const MPI_Status *status, int *flag) {
    SIM_ENTER("MPI_Test_cancelled");
    *flag = status->count_hi_and_cancelled & 1;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Test_cancelled);

int PMPI_Status_set_cancelled(MPI_Status *status, int flag) {
    SIM_ENTER("MPI_Status_set_cancelled");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!status || status == MPI_STATUS_IGNORE)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_set_cancelled: status is %s",
                             status ? "MPI_STATUS_IGNORE" : "NULL"));
    /* Bit 0 of count_hi_and_cancelled, as MPI_Test_cancelled reads it. */
    status->count_hi_and_cancelled =
        (int)(((unsigned)status->count_hi_and_cancelled & ~1u) | (flag ? 1u : 0u));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Status_set_cancelled);
