/*
 * mpi_p2p.c - point-to-point communication (MPI 3.1 chapter 3): sends and
 * receives in every mode, probes, matched probes, persistent requests and
 * the attached buffer of buffered sends.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/access.h"
#include "simulator/attr.h"
#include "simulator/bufcheck.h"
#include "simulator/engine.h"
#include "simulator/held.h"

/* Validates the arguments common to point-to-point calls, the buffer
 * argument `arg` at buf against its memory object included.  is_recv: peer
 * is a source and may be MPI_ANY_SOURCE, tag may be MPI_ANY_TAG. */
static int check_p2p(const char *name, const char *arg, const void *buf, int count,
                     MPI_Datatype type, int peer, int tag, MPI_Comm comm, bool is_recv,
                     sim_comm **out) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    rc = sim_comm_check(comm, out);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return sim_error(comm, MPI_ERR_COUNT, "%s: count %d is negative", name, count);
    char *why = NULL;
    const sim_datatype *dt = sim_dt_lookup(type, sim_self(), "datatype", &why);
    if (!dt) {
        int e = sim_error(comm, MPI_ERR_TYPE, "%s: %s", name, why);
        g_free(why);
        return e;
    }
    if (!sim_dt_committed(dt))
        return sim_error(comm, MPI_ERR_TYPE,
                         "%s: datatype %s is not committed (call MPI_Type_commit first)", name,
                         sim_dt_name(type));
    const char *what = is_recv ? "source" : "dest";
    /* On an intercommunicator, peers are ranks of the other group. */
    const sim_comm *peers = (*out)->remote ? (*out)->remote : *out;
    bool peer_ok = peer == MPI_PROC_NULL || (is_recv && peer == MPI_ANY_SOURCE) ||
                   (peer >= 0 && peer < peers->size);
    if (!peer_ok)
        return sim_error(comm, MPI_ERR_RANK, "%s: %s %d is not a rank of %s%s (size %d)", name,
                         what, peer, (*out)->remote ? "the remote group of " : "",
                         sim_comm_describe(*out), peers->size);
    bool tag_ok = (tag >= 0 && tag <= SIM_TAG_UB) || (is_recv && tag == MPI_ANY_TAG);
    if (!tag_ok)
        return sim_error(comm, MPI_ERR_TAG, "%s: tag %d is invalid (allowed: 0..%d%s)", name, tag,
                         SIM_TAG_UB, is_recv ? " or MPI_ANY_TAG" : "");
    if (peer == MPI_PROC_NULL) /* no data moves */
        return MPI_SUCCESS;
    return sim_bufcheck_comm(comm, name, arg, buf, count, type, is_recv);
}

static const char *peer_text(int peer, char *buf, size_t n) {
    if (peer == MPI_ANY_SOURCE)
        return "MPI_ANY_SOURCE";
    if (peer == MPI_PROC_NULL)
        return "MPI_PROC_NULL";
    snprintf(buf, n, "%d", peer);
    return buf;
}

static const char *tag_text(int tag, char *buf, size_t n) {
    if (tag == MPI_ANY_TAG)
        return "MPI_ANY_TAG";
    snprintf(buf, n, "%d", tag);
    return buf;
}

static void describe(bool is_recv, int count, MPI_Datatype type, int peer, int tag,
                     sim_comm *comm) {
    sim_call_args_p2p(is_recv, count, type, peer, tag, comm);
}

/* ---------------------------------------------------------------------- */
/* Blocking sends and receives                                             */

static int send_blocking(sim_send_kind kind, const char *name, const void *buf, int count,
                         MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    sim_comm *c;
    int rc = check_p2p(name, "buf", buf, count, type, dest, tag, comm, false, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    describe(false, count, type, dest, tag, c);
    sim_request *req = sim_post_send(kind, buf, count, type, dest, tag, c, name, &rc);
    if (!req)
        return rc;
    return sim_request_wait(req, MPI_STATUS_IGNORE);
}

int PMPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    SIM_ENTER("MPI_Send");
    SIM_RETURN(send_blocking(SIM_SEND_STANDARD, "MPI_Send", buf, count, type, dest, tag, comm));
}
SIM_ALIAS(MPI_Send);

int PMPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    SIM_ENTER("MPI_Ssend");
    SIM_RETURN(send_blocking(SIM_SEND_SYNC, "MPI_Ssend", buf, count, type, dest, tag, comm));
}
SIM_ALIAS(MPI_Ssend);

int PMPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    SIM_ENTER("MPI_Bsend");
    SIM_RETURN(send_blocking(SIM_SEND_BUFFERED, "MPI_Bsend", buf, count, type, dest, tag, comm));
}
SIM_ALIAS(MPI_Bsend);

int PMPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    SIM_ENTER("MPI_Rsend");
    SIM_RETURN(send_blocking(SIM_SEND_READY, "MPI_Rsend", buf, count, type, dest, tag, comm));
}
SIM_ALIAS(MPI_Rsend);

int PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Status *status) {
    SIM_ENTER("MPI_Recv");
    sim_comm *c;
    int rc = check_p2p("MPI_Recv", "buf", buf, count, type, source, tag, comm, true, &c);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    describe(true, count, type, source, tag, c);
    sim_request *req = sim_post_recv(buf, count, type, source, tag, c, "MPI_Recv");
    sim_call_status_output(status);
    sim_engine_recv_now(req);
    SIM_RETURN(sim_request_wait(req, status));
}
SIM_ALIAS(MPI_Recv);

/* Waits for the send and the receive of a Sendrecv; returns the first error. */
static int wait_pair(sim_request *s, sim_request *r, MPI_Status *status) {
    sim_request *both[2] = {s, r};
    sim_call_status_output(status);
    sim_wait_set(both, 2);
    while (!s->complete || !r->complete)
        sched_block();
    sim_wait_clear();
    int rc = sim_req_finish(s, MPI_STATUS_IGNORE, NULL);
    int rc2 = sim_req_finish(r, status, NULL);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* MPI 3.1 section 3.10: the send and receive buffers of MPI_Sendrecv must
 * be disjoint (MPI_Sendrecv_replace is the call for one buffer).  Bytes in
 * the gaps of a strided type belong to neither. */
static int sendrecv_disjoint_as(const char *call, MPI_Comm comm, const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, const void *recvbuf, int recvcount,
                                MPI_Datatype recvtype) {
    sim_dt_region s = {sendbuf, sendcount, sim_dt_get(sendtype)};
    sim_dt_region r = {recvbuf, recvcount, sim_dt_get(recvtype)};
    uintptr_t at = 0;
    if (!sim_dt_regions_overlap(&s, 1, &r, 1, &at))
        return MPI_SUCCESS;
    bool nb = call[4] == 'I';
    return sim_error(comm, MPI_ERR_BUFFER,
                     "%s: the send and receive buffers overlap (recvbuf + %td is also "
                     "sendbuf + %td); they must be disjoint (MPI %s section 3.10): "
                     "%s sends and receives in one buffer",
                     call, (ptrdiff_t)(at - (uintptr_t)recvbuf),
                     (ptrdiff_t)(at - (uintptr_t)sendbuf), nb ? "4.0" : "3.1",
                     nb ? "MPI_Isendrecv_replace" : "MPI_Sendrecv_replace");
}

static int sendrecv_disjoint(MPI_Comm comm, const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, const void *recvbuf, int recvcount,
                             MPI_Datatype recvtype) {
    return sendrecv_disjoint_as("MPI_Sendrecv", comm, sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, recvtype);
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status) {
    SIM_ENTER("MPI_Sendrecv");
    sim_comm *c;
    int rc = check_p2p("MPI_Sendrecv", "sendbuf", sendbuf, sendcount, sendtype, dest, sendtag, comm,
                       false, &c);
    if (rc == MPI_SUCCESS)
        rc = check_p2p("MPI_Sendrecv", "recvbuf", recvbuf, recvcount, recvtype, source, recvtag,
                       comm, true, &c);
    if (rc == MPI_SUCCESS)
        rc = sendrecv_disjoint(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    char pb[16], tb[16], pb2[16], tb2[16];
    sim_call_args("dest=%s, sendtag=%s, source=%s, recvtag=%s, %s", peer_text(dest, pb, sizeof pb),
                  tag_text(sendtag, tb, sizeof tb), peer_text(source, pb2, sizeof pb2),
                  tag_text(recvtag, tb2, sizeof tb2), sim_comm_describe(c));
    sim_request *r =
        sim_post_recv(recvbuf, recvcount, recvtype, source, recvtag, c, "MPI_Sendrecv");
    sim_request *s = sim_post_send(SIM_SEND_STANDARD, sendbuf, sendcount, sendtype, dest, sendtag,
                                   c, "MPI_Sendrecv", &rc);
    if (!s)
        SIM_RETURN(rc);
    SIM_RETURN(wait_pair(s, r, status));
}
SIM_ALIAS(MPI_Sendrecv);

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
    SIM_ENTER("MPI_Sendrecv_replace");
    sim_comm *c;
    int rc =
        check_p2p("MPI_Sendrecv_replace", "buf", buf, count, type, dest, sendtag, comm, false, &c);
    if (rc == MPI_SUCCESS)
        rc = check_p2p("MPI_Sendrecv_replace", "buf", buf, count, type, source, recvtag, comm, true,
                       &c);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    char pb[16], tb[16], pb2[16], tb2[16];
    sim_call_args("dest=%s, sendtag=%s, source=%s, recvtag=%s, %s", peer_text(dest, pb, sizeof pb),
                  tag_text(sendtag, tb, sizeof tb), peer_text(source, pb2, sizeof pb2),
                  tag_text(recvtag, tb2, sizeof tb2), sim_comm_describe(c));
    /* The send packs its data now, so receiving into the same buffer is safe. */
    sim_request *s = sim_post_send(SIM_SEND_STANDARD, buf, count, type, dest, sendtag, c,
                                   "MPI_Sendrecv_replace", &rc);
    if (!s)
        SIM_RETURN(rc);
    sim_request *r = sim_post_recv(buf, count, type, source, recvtag, c, "MPI_Sendrecv_replace");
    SIM_RETURN(wait_pair(s, r, status));
}
SIM_ALIAS(MPI_Sendrecv_replace);

int sim_isendrecv(const char *call, bool replace, const void *sendbuf, int sendcount,
                  MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                  MPI_Request *request) {
    sim_comm *c;
    int rc = check_p2p(call, replace ? "buf" : "sendbuf", sendbuf, sendcount, sendtype, dest,
                       sendtag, comm, false, &c);
    if (rc == MPI_SUCCESS)
        rc = check_p2p(call, replace ? "buf" : "recvbuf", recvbuf, recvcount, recvtype, source,
                       recvtag, comm, true, &c);
    if (rc == MPI_SUCCESS && !replace)
        rc = sendrecv_disjoint_as(call, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                  recvtype);
    if (rc == MPI_SUCCESS && !request)
        rc = sim_error(comm, MPI_ERR_REQUEST, "%s: request is NULL", call);
    if (rc != MPI_SUCCESS)
        return rc;
    char pb[16], tb[16], pb2[16], tb2[16];
    sim_call_args("dest=%s, sendtag=%s, source=%s, recvtag=%s, %s", peer_text(dest, pb, sizeof pb),
                  tag_text(sendtag, tb, sizeof tb), peer_text(source, pb2, sizeof pb2),
                  tag_text(recvtag, tb2, sizeof tb2), sim_comm_describe(c));
    /* The send packs its data now: the replace variant may receive into it. */
    sim_request *s =
        sim_post_send(SIM_SEND_STANDARD, sendbuf, sendcount, sendtype, dest, sendtag, c, call, &rc);
    if (!s)
        return rc;
    sim_request *r = sim_post_recv(recvbuf, recvcount, recvtype, source, recvtag, c, call);
    r->pair = s;
    s->pair_of = r;
    if (r->complete && !s->complete) { /* MPI_PROC_NULL: the receive is over already */
        r->complete = false;
        r->recv_done = true;
    }
    if (!replace) /* the send buffer is the program's again only at completion */
        sim_access_request_started(s);
    *request = sim_request_publish(r);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Nonblocking                                                             */

static int send_nonblocking(sim_send_kind kind, const char *name, const void *buf, int count,
                            MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                            MPI_Request *request) {
    sim_comm *c;
    int rc = check_p2p(name, "buf", buf, count, type, dest, tag, comm, false, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    describe(false, count, type, dest, tag, c);
    sim_request *req = sim_post_send(kind, buf, count, type, dest, tag, c, name, &rc);
    if (!req)
        return rc;
    *request = sim_request_publish(req);
    return MPI_SUCCESS;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
    SIM_ENTER("MPI_Isend");
    SIM_RETURN(send_nonblocking(SIM_SEND_STANDARD, "MPI_Isend", buf, count, type, dest, tag, comm,
                                request));
}
SIM_ALIAS(MPI_Isend);

int PMPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
    SIM_ENTER("MPI_Issend");
    SIM_RETURN(
        send_nonblocking(SIM_SEND_SYNC, "MPI_Issend", buf, count, type, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Issend);

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
    SIM_ENTER("MPI_Ibsend");
    SIM_RETURN(send_nonblocking(SIM_SEND_BUFFERED, "MPI_Ibsend", buf, count, type, dest, tag, comm,
                                request));
}
SIM_ALIAS(MPI_Ibsend);

int PMPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
    SIM_ENTER("MPI_Irsend");
    SIM_RETURN(
        send_nonblocking(SIM_SEND_READY, "MPI_Irsend", buf, count, type, dest, tag, comm, request));
}
SIM_ALIAS(MPI_Irsend);

int PMPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
               MPI_Request *request) {
    SIM_ENTER("MPI_Irecv");
    sim_comm *c;
    int rc = check_p2p("MPI_Irecv", "buf", buf, count, type, source, tag, comm, true, &c);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    describe(true, count, type, source, tag, c);
    *request = sim_request_publish(sim_post_recv(buf, count, type, source, tag, c, "MPI_Irecv"));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Irecv);

/* ---------------------------------------------------------------------- */
/* Persistent requests                                                     */

static int make_persistent(sim_req_kind kind, sim_send_kind send_kind, const char *name,
                           const void *buf, int count, MPI_Datatype type, int peer, int tag,
                           MPI_Comm comm, MPI_Request *request) {
    sim_comm *c;
    int rc = check_p2p(name, "buf", buf, count, type, peer, tag, comm, kind == SIM_REQ_RECV, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_request *req = sim_req_new(kind, name);
    req->persistent = true;
    req->send_kind = send_kind;
    req->buf = (void *)buf;
    req->count = count;
    sim_req_set_type(req, type);
    req->peer = peer;
    req->tag = tag;
    req->comm = c;
    *request = sim_request_publish(req);
    return MPI_SUCCESS;
}

int PMPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
    SIM_ENTER("MPI_Send_init");
    SIM_RETURN(make_persistent(SIM_REQ_SEND, SIM_SEND_STANDARD, "MPI_Send_init", buf, count, type,
                               dest, tag, comm, request));
}
SIM_ALIAS(MPI_Send_init);

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request) {
    SIM_ENTER("MPI_Ssend_init");
    SIM_RETURN(make_persistent(SIM_REQ_SEND, SIM_SEND_SYNC, "MPI_Ssend_init", buf, count, type,
                               dest, tag, comm, request));
}
SIM_ALIAS(MPI_Ssend_init);

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request) {
    SIM_ENTER("MPI_Bsend_init");
    SIM_RETURN(make_persistent(SIM_REQ_SEND, SIM_SEND_BUFFERED, "MPI_Bsend_init", buf, count, type,
                               dest, tag, comm, request));
}
SIM_ALIAS(MPI_Bsend_init);

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request) {
    SIM_ENTER("MPI_Rsend_init");
    SIM_RETURN(make_persistent(SIM_REQ_SEND, SIM_SEND_READY, "MPI_Rsend_init", buf, count, type,
                               dest, tag, comm, request));
}
SIM_ALIAS(MPI_Rsend_init);

int PMPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Request *request) {
    SIM_ENTER("MPI_Recv_init");
    SIM_RETURN(make_persistent(SIM_REQ_RECV, SIM_SEND_STANDARD, "MPI_Recv_init", buf, count, type,
                               source, tag, comm, request));
}
SIM_ALIAS(MPI_Recv_init);

static int start_one(MPI_Request *request) {
    bool invalid;
    sim_request *req = sim_req_lookup(*request, &invalid);
    if (!req || !req->persistent)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                         "MPI_Start: the request is not a persistent request of this rank");
    if (req->active)
        return sim_error(req->comm ? req->comm->handle : MPI_COMM_WORLD, MPI_ERR_REQUEST,
                         "MPI_Start: the persistent request from %s is already active (complete "
                         "it with MPI_Wait/MPI_Test before starting it again)",
                         req->call);
    req->call_site = sim_proc_of(sim_self())->call_site;
    if (req->pstart) { /* a persistent collective (mpi_persist.c) */
        int rc = req->pstart(req);
        if (rc == MPI_SUCCESS)
            req->active = true;
        return rc;
    }
    int rc = sim_start(req);
    if (rc == MPI_SUCCESS)
        sim_access_request_started(req);
    return rc;
}

int PMPI_Start(MPI_Request *request) {
    SIM_ENTER("MPI_Start");
    int rc = sim_check_initialized();
    SIM_RETURN(rc != MPI_SUCCESS ? rc : start_one(request));
}
SIM_ALIAS(MPI_Start);

int PMPI_Startall(int count, MPI_Request requests[]) {
    SIM_ENTER("MPI_Startall");
    int rc = sim_check_initialized();
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = start_one(&requests[i]);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Startall);

/* ---------------------------------------------------------------------- */
/* Probes                                                                  */

static int check_probe(const char *name, int source, int tag, MPI_Comm comm, sim_comm **c) {
    return check_p2p(name, "buf", NULL, 0, MPI_BYTE, source, tag, comm, true, c);
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
    SIM_ENTER("MPI_Probe");
    sim_comm *c;
    int rc = check_probe("MPI_Probe", source, tag, comm, &c);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    char pb[16], tb[16];
    sim_call_args("source=%s, tag=%s, %s", peer_text(source, pb, sizeof pb),
                  tag_text(tag, tb, sizeof tb), sim_comm_describe(c));
    bool found;
    sim_call_status_output(status);
    sim_probe(source, tag, c, true, false, &found, status);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Probe);

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
    SIM_ENTER("MPI_Iprobe");
    sim_comm *c;
    int rc = check_probe("MPI_Iprobe", source, tag, comm, &c);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    char pb[16], tb[16];
    sim_call_args("source=%s, tag=%s, %s", peer_text(source, pb, sizeof pb),
                  tag_text(tag, tb, sizeof tb), sim_comm_describe(c));
    bool found;
    sim_probe(source, tag, c, false, false, &found, status);
    if (!found) /* let the other ranks progress before the program asks again */
        sim_probe_poll();
    *flag = found;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Iprobe);

/* Messages taken by MPI_Mprobe, by handle index. */
static GPtrArray *g_taken;

static MPI_Message publish_message(sim_message *m) {
    if (!g_taken)
        g_taken = g_ptr_array_new();
    for (guint i = 0; i < g_taken->len; i++)
        if (!g_ptr_array_index(g_taken, i)) {
            g_ptr_array_index(g_taken, i) = m;
            return SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_MESSAGE, i);
        }
    g_ptr_array_add(g_taken, m);
    return SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_MESSAGE, g_taken->len - 1);
}

static sim_message *take_message(MPI_Message h) {
    unsigned idx = SIM_HANDLE_INDEX(h);
    if (!g_taken || SIM_HANDLE_KIND(h) != SIM_HKIND_DIRECT ||
        SIM_HANDLE_OBJ(h) != SIM_OBJ_MESSAGE || idx >= g_taken->len)
        return NULL;
    sim_message *m = g_ptr_array_index(g_taken, idx);
    if (m && m->dst != sim_self())
        return NULL;
    g_ptr_array_index(g_taken, idx) = NULL;
    return m;
}

static int mprobe(const char *name, int source, int tag, MPI_Comm comm, bool block, int *flag,
                  MPI_Message *message, MPI_Status *status) {
    sim_comm *c;
    int rc = check_probe(name, source, tag, comm, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    char pb[16], tb[16];
    sim_call_args("source=%s, tag=%s, %s", peer_text(source, pb, sizeof pb),
                  tag_text(tag, tb, sizeof tb), sim_comm_describe(c));
    bool found;
    sim_message *m = sim_probe(source, tag, c, block, true, &found, status);
    if (flag)
        *flag = found;
    if (!found) {
        sim_probe_poll();
        return MPI_SUCCESS;
    }
    *message = m ? publish_message(m) : MPI_MESSAGE_NO_PROC;
    return MPI_SUCCESS;
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status) {
    SIM_ENTER("MPI_Mprobe");
    SIM_RETURN(mprobe("MPI_Mprobe", source, tag, comm, true, NULL, message, status));
}
SIM_ALIAS(MPI_Mprobe);

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status) {
    SIM_ENTER("MPI_Improbe");
    SIM_RETURN(mprobe("MPI_Improbe", source, tag, comm, false, flag, message, status));
}
SIM_ALIAS(MPI_Improbe);

static int mrecv(const char *name, void *buf, int count, MPI_Datatype type, MPI_Message *message,
                 sim_request **out) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, "%s: count %d is negative", name, count);
    const sim_datatype *dt = sim_dt_lookup(type, sim_self(), "datatype", NULL);
    if (!dt || !sim_dt_committed(dt))
        return sim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, "%s: invalid or uncommitted datatype", name);
    if (*message != MPI_MESSAGE_NO_PROC &&
        (rc = sim_bufcheck_comm(MPI_COMM_WORLD, name, "buf", buf, count, type, true)) !=
            MPI_SUCCESS)
        return rc;
    if (*message == MPI_MESSAGE_NO_PROC) {
        sim_request *req = sim_post_recv(buf, count, type, MPI_PROC_NULL, MPI_ANY_TAG, NULL, name);
        *message = MPI_MESSAGE_NULL;
        *out = req;
        return MPI_SUCCESS;
    }
    sim_message *m = take_message(*message);
    if (!m)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                         "%s: the message handle is not a message matched by MPI_Mprobe/"
                         "MPI_Improbe of this rank (or was already received)",
                         name);
    sim_request *req = sim_req_new(SIM_REQ_RECV, name);
    req->buf = buf;
    req->count = count;
    sim_req_set_type(req, type);
    req->comm = m->comm;
    req->peer = m->src_crank;
    req->tag = m->tag;
    sim_mrecv_deliver(req, m);
    *message = MPI_MESSAGE_NULL;
    *out = req;
    return MPI_SUCCESS;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status) {
    SIM_ENTER("MPI_Mrecv");
    sim_request *req = NULL;
    int rc = mrecv("MPI_Mrecv", buf, count, type, message, &req);
    SIM_RETURN(rc != MPI_SUCCESS ? rc : sim_request_wait(req, status));
}
SIM_ALIAS(MPI_Mrecv);

int PMPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
                MPI_Request *request) {
    SIM_ENTER("MPI_Imrecv");
    sim_request *req = NULL;
    int rc = mrecv("MPI_Imrecv", buf, count, type, message, &req);
    if (rc == MPI_SUCCESS)
        *request = sim_request_publish(req);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Imrecv);

/* ---------------------------------------------------------------------- */
/* Buffered-send buffer                                                    */

int PMPI_Buffer_attach(void *buffer, int size) {
    SIM_ENTER("MPI_Buffer_attach");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_proc *p = sim_proc_of(sim_self());
    if (p->bsend_buf)
        SIM_RETURN(sim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER,
                             "MPI_Buffer_attach: a buffer is already attached (detach it first)"));
    if (size < 0)
        SIM_RETURN(
            sim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_attach: size %d is negative", size));
    /* MPI writes the buffered messages into it: all `size` bytes. */
    if ((rc = sim_bufcheck_comm(MPI_COMM_WORLD, "MPI_Buffer_attach", "buffer", buffer, size,
                                MPI_BYTE, true)) != MPI_SUCCESS)
        SIM_RETURN(rc);
    p->bsend_buf = buffer;
    p->bsend_size = size;
    sim_held_add_here(SIM_HELD_BUFFER, 0);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Buffer_attach);

int PMPI_Buffer_detach(void *buffer_addr, int *size) {
    SIM_ENTER("MPI_Buffer_detach");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    sim_proc *p = sim_proc_of(sim_self());
    sim_call_args("%zu bytes of buffered messages not yet received", p->bsend_used);
    /* MPI 3.1 3.6.1: detach blocks until the buffered messages are delivered. */
    while (p->bsend_used > 0)
        sim_poll_block();
    *(void **)buffer_addr = p->bsend_buf;
    *size = p->bsend_buf ? p->bsend_size : 0;
    if (p->bsend_buf)
        sim_held_drop_here(SIM_HELD_BUFFER, 0);
    p->bsend_buf = NULL;
    p->bsend_size = 0;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Buffer_detach);
