/*
 * dist_agent.c - ordex-dist-agent: one rank's transport in a distributed
 * exploration (see dist_proto.h).  The only ordex program linked with the
 * real MPICH; ordex starts it as `ordex-dist-agent CTL_FD WORK_FD`, and it
 * inherits the MPI process's place from mpiexec.mpich (PMI).
 *
 * It answers other ranks' visits of the states this rank owns from the
 * visited table its explorer fills (mapped from a memory file), forwards
 * its explorer's visits, requests for work and gifts of work, and its
 * driver's statistics.  The agent of rank 0 also coordinates:
 *
 *  - Work.  A rank's explorer asks for work when it has none left.  The
 *    coordinator hands out prefixes from its pool; when the pool is empty
 *    it asks busy ranks to give some away (SGD_DONATE_REQ), at most one
 *    request outstanding per rank.  Rank 0 starts a pass with the empty
 *    prefix (the whole tree), every other rank with nothing.
 *  - Termination.  A pass is over when every rank waits for work (or has
 *    ended) and the pool is empty, or the pass was stopped.  Messages from
 *    one rank arrive in the order sent, so a rank's gift always arrives
 *    before its next request for work: no work is in flight then.
 *  - Failures.  Every agent sends a heartbeat each second; one silent for
 *    the timeout (ORDEX_DIST_TIMEOUT seconds, default 30) is lost: its
 *    share is not explored (the pass is incomplete), visits it owned are
 *    answered "new" (its states are explored again elsewhere, which costs
 *    time, never findings), and the others go on.  A rank whose explorer
 *    or driver ended early leaves its work unexplored the same way.
 *
 * The loop polls MPI and the two sockets; when nothing happens it sleeps
 * in growing steps up to 50 microseconds (MPICH's shared-memory transport
 * gives nothing to wait on), so an idle agent costs a few percent of a core.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <mpi.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stategraph/dist_proto.h"
#include "stategraph/visited.h"

static int g_rank, g_size;
static int g_ctl = -1, g_work = -1;
static bool g_ctl_open, g_work_open;
static sgd_mailbox *g_mail;
static int g_pass = -1; /* the pass whose visited table is mapped */
static bool g_have_table;
static double g_timeout_s = 30;
static bool g_any_lost;
/* The driver waits for an answer (pass totals, the gathered records, rank
 * 0's status), and so reads its socket: it gets a keepalive each second. */
static bool g_driver_waits;
static bool g_status_seen; /* rank 0's final status came: the end is normal */
/* During a pass the driver speaks at least every 0.2 s (SGD_PROGRESS); a
 * driver silent for the timeout then is stopped or hung, and its rank is
 * given up (it cannot end the pass), as a silent agent would be. */
static bool g_in_pass;
static double g_driver_heard;
static bool g_driver_given_up;
static bool g_trace_on; /* ORDEX_DIST_DEBUG: every message on stderr */

static const char *const type_names[SGD_TYPES] = {
    [SGD_READY] = "READY",
    [SGD_FAILED] = "FAILED",
    [SGD_MAILBOX] = "MAILBOX",
    [SGD_PASS_BEGIN] = "PASS_BEGIN",
    [SGD_ACK] = "ACK",
    [SGD_PROGRESS] = "PROGRESS",
    [SGD_PASS_DONE] = "PASS_DONE",
    [SGD_PASS_TOTALS] = "PASS_TOTALS",
    [SGD_RESULT] = "RESULT",
    [SGD_GATHER] = "GATHER",
    [SGD_QUIT] = "QUIT",
    [SGD_STATUS] = "STATUS",
    [SGD_VISIT] = "VISIT",
    [SGD_VISIT_R] = "VISIT_R",
    [SGD_WANT_WORK] = "WANT_WORK",
    [SGD_WORK] = "WORK",
    [SGD_NO_WORK] = "NO_WORK",
    [SGD_DONATE] = "DONATE",
    [SGD_STOP] = "STOP",
    [SGD_CHECK] = "CHECK",
    [SGD_DONATE_REQ] = "DONATE_REQ",
    [SGD_STOP_ALL] = "STOP_ALL",
    [SGD_LOST] = "LOST",
    [SGD_GONE] = "GONE",
    [SGD_HEARTBEAT] = "HEARTBEAT",
    [SGD_SHUTDOWN] = "SHUTDOWN",
    [SGD_BYE] = "BYE",
    [SGD_KEEPALIVE] = "KEEPALIVE",
};

static void trace(const char *how, int peer, int type, size_t len) {
    if (!g_trace_on || type == SGD_HEARTBEAT || type == SGD_PROGRESS)
        return;
    fprintf(stderr, "[agent %d] %s %d %s (%zu bytes)\n", g_rank, how, peer,
            type > 0 && type < SGD_TYPES && type_names[type] ? type_names[type] : "?", len);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------------- */
/* Sends over MPI: nonblocking, kept until complete                        */

typedef struct pending_send {
    MPI_Request req;
    void *buf;
} pending_send;

static GArray *g_sends; /* pending_send */
static bool *g_lost;    /* per rank: stopped answering */

static void mpi_send(int to, int type, const void *data, size_t len) {
    if (g_lost[to])
        return;
    trace("mpi ->", to, type, len);
    /* The request lives in g_sends until reap_sends sees it complete. */
    g_array_set_size(g_sends, g_sends->len + 1);
    pending_send *p = &g_array_index(g_sends, pending_send, g_sends->len - 1);
    p->buf = g_memdup2(data, len ? len : 1);
    MPI_Isend(p->buf, (int)len, MPI_BYTE, to, type, MPI_COMM_WORLD, &p->req);
} // NOLINT(clang-analyzer-optin.mpi.MPI-Checker): reap_sends completes it

static void reap_sends(void) {
    for (guint i = 0; i < g_sends->len;) {
        pending_send *p = &g_array_index(g_sends, pending_send, i);
        int done = 0;
        MPI_Test(&p->req, &done, MPI_STATUS_IGNORE);
        if (!done) {
            i++;
            continue;
        }
        g_free(p->buf);
        g_array_remove_index_fast(g_sends, i);
    }
}

/* Payload helpers. */
static void put_i32(GByteArray *b, int32_t v) {
    g_byte_array_append(b, (guint8 *)&v, 4);
}

static void put_str(GByteArray *b, const char *s) {
    uint32_t n = (uint32_t)strlen(s);
    g_byte_array_append(b, (guint8 *)&n, 4);
    g_byte_array_append(b, (const guint8 *)s, n);
}

static int32_t get_i32(const GByteArray *b, size_t at) {
    int32_t v = 0;
    if (at + 4 <= b->len)
        memcpy(&v, b->data + at, 4);
    return v;
}

/* Copies a length-prefixed string at `at` into out (cut to cap). */
static size_t get_str(const GByteArray *b, size_t at, char *out, size_t cap) {
    uint32_t n = 0;
    if (at + 4 <= b->len)
        memcpy(&n, b->data + at, 4);
    at += 4;
    if (at + n > b->len)
        n = (uint32_t)(b->len - at);
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(out, b->data + at, k);
    out[k] = '\0';
    return at + n;
}

static void to_work(uint32_t type, const void *data, size_t len) {
    if (g_work_open && !sgd_send(g_work, type, data, len))
        g_work_open = false;
}

static void to_ctl(uint32_t type, const void *data, size_t len) {
    if (g_ctl_open && !sgd_send(g_ctl, type, data, len))
        g_ctl_open = false;
}

/* ---------------------------------------------------------------------- */
/* The coordinator (rank 0)                                                */

enum { BUSY, HUNGRY, GONE };

typedef struct coordinator {
    int pass;
    int *state;  /* per rank */
    bool *asked; /* a gift was asked of it and has not come */
    GQueue pool; /* GByteArray *: one prefix each (i32 choices) */
    bool ended;  /* every rank was told the pass is over */
    bool stop, stop_all;
    char why[256];
    char lost_why[256]; /* why some share was not explored */
    /* Identity of each rank's explorer this pass (SGD_CHECK). */
    bool *checked;
    uint64_t (*ident)[2];
    bool mismatch; /* sticky: the ranks' records cannot be read at rank 0 */
    /* SGD_PASS_DONE */
    int done;
    bool *done_from;
    sgd_pass_stats sum;
    char stop_why[256], switch_why[256];
    /* SGD_PROGRESS: the latest from each rank */
    sgd_progress_counts *progress;
    /* SGD_RESULT: each rank's record */
    GByteArray **results;
    bool gather_wanted; /* the driver of rank 0 waits for them */
    double *heard;      /* last message from each rank */
} coordinator;

static coordinator C;

static void coord_try(void);
static void peer_lost(int r);

static void coord_stop(bool all, const char *why) {
    if (C.stop && (!all || C.stop_all))
        return;
    if (!C.stop)
        g_strlcpy(C.why, why, sizeof C.why);
    C.stop = true;
    C.stop_all = C.stop_all || all;
    GByteArray *b = g_byte_array_new();
    put_i32(b, C.pass);
    put_i32(b, C.stop_all);
    put_str(b, C.why);
    for (int r = 0; r < g_size; r++)
        mpi_send(r, SGD_STOP_ALL, b->data, b->len);
    g_byte_array_free(b, TRUE);
    /* What the pool holds will not be explored. */
    while (!g_queue_is_empty(&C.pool))
        g_byte_array_free(g_queue_pop_head(&C.pool), TRUE);
    coord_try();
}

static void coord_give(int r, GByteArray *prefix) {
    C.state[r] = BUSY;
    C.asked[r] = false;
    mpi_send(r, SGD_WORK, prefix->data, prefix->len);
    g_byte_array_free(prefix, TRUE);
}

/* Hands out the pool to hungry ranks, asks busy ones for gifts, and ends
 * the pass when no work is left anywhere. */
static void coord_try(void) {
    if (C.ended)
        return;
    int hungry = 0, busy = 0;
    for (int r = 0; r < g_size; r++) {
        if (C.state[r] == HUNGRY && !g_queue_is_empty(&C.pool))
            coord_give(r, g_queue_pop_head(&C.pool));
        hungry += C.state[r] == HUNGRY;
        busy += C.state[r] == BUSY;
    }
    if (busy == 0) {
        /* Every rank waits or has ended: the pass is over. */
        C.ended = true;
        if (!g_queue_is_empty(&C.pool) && !C.lost_why[0])
            g_strlcpy(C.lost_why, "work was left that no rank could take", sizeof C.lost_why);
        for (int r = 0; r < g_size; r++)
            if (C.state[r] == HUNGRY)
                mpi_send(r, SGD_NO_WORK, &C.pass, 4);
        return;
    }
    if (C.stop)
        return;
    int want = hungry - (int)g_queue_get_length(&C.pool);
    for (int r = 0; r < g_size && want > 0; r++)
        if (C.state[r] == BUSY && !C.asked[r]) {
            C.asked[r] = true;
            mpi_send(r, SGD_DONATE_REQ, &C.pass, 4);
            want--;
        }
}

static void coord_reset_pass(void) {
    C.ended = false;
    C.stop = C.stop_all;
    if (!C.stop_all)
        C.why[0] = '\0';
    C.lost_why[0] = '\0';
    C.done = 0;
    memset(&C.sum, 0, sizeof C.sum);
    C.stop_why[0] = C.switch_why[0] = '\0';
    for (int r = 0; r < g_size; r++) {
        C.state[r] = g_lost[r] ? GONE : BUSY;
        C.asked[r] = false;
        C.checked[r] = false;
        C.done_from[r] = g_lost[r];
        C.done += g_lost[r];
    }
}

static void coord_init(void) {
    C.state = g_new0(int, g_size);
    C.asked = g_new0(bool, g_size);
    C.checked = g_new0(bool, g_size);
    C.ident = g_malloc0(sizeof *C.ident * (size_t)g_size);
    C.done_from = g_new0(bool, g_size);
    C.progress = g_new0(sgd_progress_counts, g_size);
    C.results = g_new0(GByteArray *, g_size);
    C.heard = g_new0(double, g_size);
    for (int r = 0; r < g_size; r++)
        C.heard[r] = now_s();
    g_queue_init(&C.pool);
    C.pass = 0;
    coord_reset_pass();
}

static void coord_check(int r, const GByteArray *m) {
    if (m->len < 4 + 16 || get_i32(m, 0) != C.pass)
        return;
    memcpy(C.ident[r], m->data + 4, 16);
    C.checked[r] = true;
    for (int o = 0; o < g_size; o++)
        if (o != r && C.checked[o] && memcmp(C.ident[o], C.ident[r], 16) != 0) {
            char why[256];
            snprintf(why, sizeof why,
                     "ranks %d and %d of the distributed exploration loaded ordex or the program "
                     "at different addresses, or laid out ordex's memory differently (every "
                     "host needs the same ordex, program and libraries)",
                     o < r ? o : r, o < r ? r : o);
            C.mismatch = true;
            coord_stop(true, why);
            return;
        }
}

/* Sends the totals of the pass to every driver and starts the next one. */
static void coord_pass_totals(void) {
    GByteArray *b = g_byte_array_new();
    C.sum.pass = C.pass;
    C.sum.incomplete = C.lost_why[0] != '\0';
    C.sum.mismatch = C.mismatch;
    g_byte_array_append(b, (guint8 *)&C.sum, sizeof C.sum);
    /* why it stopped, then why snapshots switched, then why work was lost */
    put_str(b, C.stop ? C.why : C.stop_why);
    put_str(b, C.switch_why);
    put_str(b, C.lost_why);
    put_i32(b, C.stop_all);
    for (int r = 0; r < g_size; r++) {
        mpi_send(r, SGD_PASS_TOTALS, b->data, b->len);
        C.progress[r].done = 0; /* the next pass's share starts afresh */
    }
    g_byte_array_free(b, TRUE);
    C.pass++;
    coord_reset_pass();
}

static void coord_pass_done(int r, const GByteArray *m) {
    if (m->len < sizeof(sgd_pass_stats) || C.done_from[r])
        return;
    sgd_pass_stats s;
    memcpy(&s, m->data, sizeof s);
    if (s.pass != C.pass)
        return;
    char stop_why[256], switch_why[256];
    size_t at = get_str(m, sizeof s, stop_why, sizeof stop_why);
    get_str(m, at, switch_why, sizeof switch_why);
    if (C.state[r] == BUSY && !C.lost_why[0])
        snprintf(C.lost_why, sizeof C.lost_why,
                 "the exploration process of rank %d ended before its share was explored", r);
    C.state[r] = GONE;
    C.done_from[r] = true;
    C.done++;
    C.sum.states += s.states;
    C.sum.transitions += s.transitions;
    C.sum.paths += s.paths;
    C.sum.merged += s.merged;
    C.sum.snapshots += s.snapshots;
    C.sum.crashed += s.crashed;
    C.sum.bound_cuts += s.bound_cuts;
    if (s.peak_rss > C.sum.peak_rss)
        C.sum.peak_rss = s.peak_rss;
    if (stop_why[0] && !C.stop_why[0])
        g_strlcpy(C.stop_why, stop_why, sizeof C.stop_why);
    if (s.stop_all && !C.stop_all) { /* the rank cannot go on: nor can the search */
        if (!C.stop)
            g_strlcpy(C.why, stop_why[0] ? stop_why : "a rank could not go on", sizeof C.why);
        C.stop = C.stop_all = true;
    }
    if (switch_why[0] && !C.switch_why[0])
        g_strlcpy(C.switch_why, switch_why, sizeof C.switch_why);
    coord_try();
    if (C.done == g_size)
        coord_pass_totals();
}

/* Rank r's records are all in (or it is lost): rank 0's driver gets them. */
static void coord_send_results(void) {
    if (!C.gather_wanted)
        return;
    for (int r = 1; r < g_size; r++)
        if (!C.results[r] && !g_lost[r])
            return;
    for (int r = 1; r < g_size; r++) {
        if (!C.results[r])
            continue;
        GByteArray *b = g_byte_array_new();
        put_i32(b, r);
        g_byte_array_append(b, C.results[r]->data, C.results[r]->len);
        to_ctl(SGD_RESULT, b->data, b->len);
        g_byte_array_free(b, TRUE);
    }
    to_ctl(SGD_ACK, NULL, 0);
    C.gather_wanted = false;
    g_driver_waits = false;
}

static void coord_lost(int r, const char *why) {
    if (g_lost[r])
        return;
    peer_lost(r);
    if (!C.lost_why[0])
        g_strlcpy(C.lost_why, why, sizeof C.lost_why);
    for (int o = 1; o < g_size; o++)
        if (!g_lost[o])
            mpi_send(o, SGD_LOST, &r, 4);
    if (!C.done_from[r]) {
        C.done_from[r] = true;
        C.done++;
    }
    C.state[r] = GONE;
    coord_try();
    if (C.done == g_size)
        coord_pass_totals();
    coord_send_results();
}

/* A message to the coordinator, from rank r's agent (or this agent). */
static void coord_handle(int r, int type, const GByteArray *m) {
    C.heard[r] = now_s();
    switch (type) {
    case SGD_WANT_WORK:
        if (get_i32(m, 0) == C.pass && C.state[r] != GONE) {
            C.state[r] = HUNGRY;
            C.asked[r] = false;
            coord_try();
        }
        break;
    case SGD_DONATE: {
        if (get_i32(m, 0) != C.pass)
            break;
        C.asked[r] = false;
        size_t at = 4;
        while (at + 4 <= m->len) {
            uint32_t n;
            memcpy(&n, m->data + at, 4);
            at += 4;
            if (at + (size_t)n * 4 > m->len)
                break;
            GByteArray *p = g_byte_array_sized_new(n * 4);
            g_byte_array_append(p, m->data + at, n * 4);
            at += (size_t)n * 4;
            if (C.stop)
                g_byte_array_free(p, TRUE);
            else
                g_queue_push_tail(&C.pool, p);
        }
        coord_try();
        break;
    }
    case SGD_STOP: {
        char why[256];
        get_str(m, 4, why, sizeof why);
        coord_stop(get_i32(m, 0) != 0, why);
        break;
    }
    case SGD_CHECK:
        coord_check(r, m);
        break;
    case SGD_PROGRESS:
        if (m->len == sizeof(sgd_progress_counts))
            memcpy(&C.progress[r], m->data, sizeof(sgd_progress_counts));
        break;
    case SGD_PASS_DONE:
        coord_pass_done(r, m);
        break;
    case SGD_RESULT:
        if (!C.results[r])
            C.results[r] = g_byte_array_new();
        g_byte_array_append(C.results[r], m->data, m->len);
        coord_send_results();
        break;
    case SGD_GONE: {
        char why[256];
        snprintf(why, sizeof why, "the ordex process of rank %d ended", r);
        coord_lost(r, why);
        break;
    }
    default:
        break;
    }
}

/* ---------------------------------------------------------------------- */
/* This rank's agent                                                       */

/* A visit for a pass this rank has not begun yet, kept until it has. */
typedef struct deferred {
    int from;
    GByteArray *m;
} deferred;

static GQueue g_deferred;
static int g_visit_owner = -1; /* the rank a forwarded visit of the explorer went to */
static bool g_want_pending;    /* the explorer waits for work */
/* A stop or a request for a gift may come for a pass this rank has not
 * begun: it is kept and applied when the pass begins. */
static int g_stop_pass = -1, g_stop_all_flag, g_donate_pass = -1;
static char g_stop_why[256];

static void apply_kept(void) {
    if (!g_mail)
        return;
    if (g_stop_pass == g_mail->pass) {
        g_strlcpy(g_mail->why, g_stop_why, sizeof g_mail->why);
        __atomic_store_n(&g_mail->stop_all, g_stop_all_flag, __ATOMIC_RELEASE);
        __atomic_store_n(&g_mail->stop, 1, __ATOMIC_RELEASE);
    }
    if (g_donate_pass == g_mail->pass) {
        __atomic_store_n(&g_mail->donate_wanted, 1, __ATOMIC_RELEASE);
        g_donate_pass = -1; /* once: the explorer clears the flag when it gives */
    }
}

/* Rank r stopped answering: a visit waiting for it will not be answered. */
static void peer_lost(int r) {
    if (r < 0 || r >= g_size)
        return;
    g_lost[r] = true;
    g_any_lost = true;
    if (g_visit_owner == r) { /* explore the state: it costs time, never findings */
        g_visit_owner = -1;
        sgd_visit_answer a = {-1, 0};
        to_work(SGD_VISIT_R, &a, sizeof a);
    }
}

static void answer_visit(int from, const GByteArray *m) {
    sgd_visit v;
    memcpy(&v, m->data, sizeof v);
    const ckpt_hash *keys = (const ckpt_hash *)(const void *)(m->data + sizeof v);
    bool full = false;
    int32_t which = -1;
    int found = -1;
    if (g_have_table && v.pass == g_pass)
        sg_visited_visit(keys, v.nprobes, keys + v.nprobes, v.ninserts, &full, &found);
    which = found;
    if (g_trace_on)
        fprintf(stderr, "[agent %d] answer pass %d (table of pass %d%s): %d\n", g_rank, v.pass,
                g_pass, g_have_table ? "" : ", none", which);
    sgd_visit_answer a = {which, full};
    mpi_send(from, SGD_VISIT_R, &a, sizeof a);
}

static void handle_visit_from(int from, GByteArray *m) {
    if (m->len < sizeof(sgd_visit))
        return;
    int pass = get_i32(m, 0);
    if (pass > g_pass) { /* (a table that could not be mapped answers "new") */
        deferred *d = g_new(deferred, 1);
        d->from = from;
        d->m = g_byte_array_new();
        g_byte_array_append(d->m, m->data, m->len);
        g_queue_push_tail(&g_deferred, d);
        return;
    }
    answer_visit(from, m);
}

static void run_deferred(void) {
    for (guint n = g_queue_get_length(&g_deferred); n > 0; n--) {
        deferred *d = g_queue_pop_head(&g_deferred);
        if (get_i32(d->m, 0) > g_pass) {
            g_queue_push_tail(&g_deferred, d);
            continue;
        }
        answer_visit(d->from, d->m);
        g_byte_array_free(d->m, TRUE);
        g_free(d);
    }
}

/* To the coordinator: a call when this is rank 0. */
static void to_coord(int type, const void *data, size_t len) {
    if (g_rank == 0) {
        GByteArray b = {(guint8 *)data, (guint)len};
        coord_handle(0, type, &b);
    } else {
        mpi_send(0, type, data, len);
    }
}

static void from_explorer(uint32_t type, GByteArray *m) {
    switch (type) {
    case SGD_VISIT: {
        if (m->len < sizeof(sgd_visit))
            break;
        sgd_visit v;
        memcpy(&v, m->data, sizeof v);
        if (v.owner < 0 || v.owner >= g_size || g_lost[v.owner]) {
            sgd_visit_answer a = {-1, 0}; /* nobody to ask: explore it */
            to_work(SGD_VISIT_R, &a, sizeof a);
            break;
        }
        g_visit_owner = v.owner;
        if (v.owner == g_rank)
            handle_visit_from(g_rank, m);
        else
            mpi_send(v.owner, SGD_VISIT, m->data, m->len);
        break;
    }
    case SGD_WANT_WORK:
        g_want_pending = true;
        to_coord(SGD_WANT_WORK, m->data, m->len);
        break;
    case SGD_DONATE:
    case SGD_STOP:
    case SGD_CHECK:
        to_coord((int)type, m->data, m->len);
        break;
    default:
        break;
    }
}

static bool g_quit;
/* The end: rank 0 sends SHUTDOWN to every rank, each answers BYE, and both
 * are the last message between the two, so that no message is left
 * unreceived when MPI_Finalize runs (MPICH warns of those). */
static bool g_shutting;    /* rank 0: SHUTDOWN sent */
static bool g_driver_quit; /* the driver said SGD_QUIT: its socket's end is no failure */
static double g_shutdown_at;
static bool *g_bye;

static void start_shutdown(void) {
    if (g_shutting)
        return;
    g_shutting = true;
    g_shutdown_at = now_s();
    for (int r = 1; r < g_size; r++)
        mpi_send(r, SGD_SHUTDOWN, NULL, 0);
}

static bool shutdown_done(void) {
    for (int r = 1; r < g_size; r++)
        if (!g_bye[r] && !g_lost[r])
            return false;
    return true;
}

static void from_driver(uint32_t type, GByteArray *m, int fd) {
    switch (type) {
    case SGD_MAILBOX: {
        void *p = fd >= 0
                      ? mmap(NULL, sizeof(sgd_mailbox), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                      : MAP_FAILED;
        if (fd >= 0)
            close(fd);
        g_mail = p == MAP_FAILED ? NULL : p;
        to_ctl(g_mail ? SGD_ACK : SGD_FAILED, NULL, 0);
        break;
    }
    case SGD_PASS_BEGIN: {
        int pass = get_i32(m, 0);
        bool ok = fd >= 0 && sg_visited_attach(fd);
        if (fd >= 0)
            close(fd);
        g_have_table = ok;
        g_pass = pass;
        if (g_mail) {
            g_mail->pass = pass;
            g_mail->stop = g_mail->stop_all = g_mail->donate_wanted = 0;
            g_mail->why[0] = '\0';
            apply_kept();
        }
        run_deferred();
        g_in_pass = true;
        to_ctl(ok ? SGD_ACK : SGD_FAILED, NULL, 0);
        break;
    }
    case SGD_PROGRESS:
        to_coord(SGD_PROGRESS, m->data, m->len);
        if (g_rank == 0) {
            sgd_progress_counts sum = {{0, 0, 0}, 0};
            for (int r = 0; r < g_size; r++) {
                for (int k = 0; k < 3; k++)
                    sum.counts[k] += C.progress[r].counts[k];
                sum.done += C.progress[r].done;
            }
            to_ctl(SGD_PROGRESS, &sum, sizeof sum);
        } else {
            to_ctl(SGD_PROGRESS, m->data, m->len);
        }
        break;
    case SGD_PASS_DONE:
        g_in_pass = false;
        g_driver_waits = true;
        to_coord(SGD_PASS_DONE, m->data, m->len);
        break; /* answered when the coordinator has every rank's */
    case SGD_RESULT:
        g_driver_waits = g_rank != 0; /* for rank 0's status next */
        to_coord(SGD_RESULT, m->data, m->len);
        break;
    case SGD_GATHER:
        g_driver_waits = true;
        C.gather_wanted = true;
        coord_send_results();
        break;
    case SGD_QUIT:
        g_driver_quit = true;
        if (g_rank == 0)
            start_shutdown();
        else if (!g_status_seen) { /* it ended early: the others go on without it */
            mpi_send(0, SGD_GONE, NULL, 0);
            g_any_lost = true; /* MPI_Finalize would wait for what never comes */
            g_quit = true;
        }
        /* another rank ends when rank 0 says so (SGD_SHUTDOWN) */
        break;
    case SGD_STATUS:
        for (int r = 1; r < g_size; r++)
            mpi_send(r, SGD_STATUS, m->data, m->len);
        break;
    default:
        break;
    }
}

static void from_mpi(int from, int type, GByteArray *m) {
    if (g_rank == 0)
        C.heard[from] = now_s();
    switch (type) {
    case SGD_VISIT:
        handle_visit_from(from, m);
        break;
    case SGD_VISIT_R:
        if (from == g_visit_owner) {
            g_visit_owner = -1;
            to_work(SGD_VISIT_R, m->data, m->len);
        }
        break;
    case SGD_WORK:
    case SGD_NO_WORK:
        if (g_want_pending) {
            g_want_pending = false;
            to_work((uint32_t)type, m->data, m->len);
        }
        break;
    case SGD_DONATE_REQ:
        g_donate_pass = get_i32(m, 0);
        apply_kept();
        break;
    case SGD_STOP_ALL:
        g_stop_pass = get_i32(m, 0);
        g_stop_all_flag = get_i32(m, 4);
        get_str(m, 8, g_stop_why, sizeof g_stop_why);
        apply_kept();
        break;
    case SGD_PASS_TOTALS:
    case SGD_STATUS:
        g_driver_waits = false;
        g_status_seen = g_status_seen || type == SGD_STATUS;
        to_ctl((uint32_t)type, m->data, m->len);
        break;
    case SGD_LOST:
        peer_lost(get_i32(m, 0));
        break;
    case SGD_SHUTDOWN:
        mpi_send(0, SGD_BYE, NULL, 0);
        g_quit = true;
        break;
    case SGD_BYE:
        g_bye[from] = true;
        break;
    case SGD_HEARTBEAT:
        break;
    default:
        if (g_rank == 0)
            coord_handle(from, type, m);
        break;
    }
}

/* The coordinator stopped answering: this rank cannot go on. */
static void coordinator_lost(void) {
    g_lost[0] = true;
    g_any_lost = true;
    static const char why[] = "rank 0 of the distributed exploration stopped answering";
    if (g_mail) {
        g_strlcpy(g_mail->why, why, sizeof g_mail->why);
        __atomic_store_n(&g_mail->stop_all, 1, __ATOMIC_RELEASE);
        __atomic_store_n(&g_mail->stop, 1, __ATOMIC_RELEASE);
    }
    if (g_want_pending) {
        g_want_pending = false;
        to_work(SGD_NO_WORK, NULL, 0);
    }
    if (g_visit_owner >= 0) {
        g_visit_owner = -1;
        sgd_visit_answer a = {-1, 0};
        to_work(SGD_VISIT_R, &a, sizeof a);
    }
    to_ctl(SGD_FAILED, why, strlen(why));
    g_quit = true;
}

/* Reads a frame from a socket that poll says is readable. */
static void read_socket(int *fd, bool *open, bool driver) {
    static GByteArray *m;
    if (!m)
        m = g_byte_array_new();
    uint32_t type;
    int got = -1;
    if (!sgd_recv(*fd, &type, m, driver ? &got : NULL)) {
        *open = false;
        if (driver && !g_driver_quit) { /* the driver ended: nothing of this rank will come */
            to_coord(SGD_GONE, NULL, 0);
            g_any_lost = true; /* MPI_Finalize could wait for what never comes */
            if (g_rank != 0)
                g_quit = true;
        }
        return;
    }
    trace(driver ? "driver ->" : "explorer ->", g_rank, (int)type, m->len);
    if (driver)
        g_driver_heard = now_s();
    if (driver)
        from_driver(type, m, got);
    else
        from_explorer(type, m);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "ordex-dist-agent: started by ordex explore --distributed only\n");
        return 2;
    }
    g_ctl = atoi(argv[1]);
    g_work = atoi(argv[2]);
    struct stat a, b;
    if (fstat(g_ctl, &a) != 0 || fstat(g_work, &b) != 0 || !S_ISSOCK(a.st_mode) ||
        !S_ISSOCK(b.st_mode)) {
        fprintf(stderr,
                "ordex-dist-agent: %s and %s are not the sockets ordex explore "
                "--distributed gives it; it is not run by hand\n",
                argv[1], argv[2]);
        return 2;
    }
    g_ctl_open = g_work_open = true;
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the ordex process */
    prctl(PR_SET_TIMERSLACK, 1000UL);
    /* The driver decides what an interrupt does (mpiexec.mpich sends it
     * and SIGTERM to every process it started, the agents too). */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    g_trace_on = getenv("ORDEX_DIST_DEBUG") != NULL;
    const char *t = getenv("ORDEX_DIST_TIMEOUT");
    if (t && atof(t) > 0)
        g_timeout_s = atof(t);
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        const char *why = "MPI_Init failed";
        sgd_send(g_ctl, SGD_FAILED, why, strlen(why));
        return 2;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    g_sends = g_array_new(FALSE, FALSE, sizeof(pending_send));
    g_lost = g_new0(bool, g_size);
    g_bye = g_new0(bool, g_size);
    g_queue_init(&g_deferred);
    if (g_rank == 0)
        coord_init();
    int32_t hello[2] = {g_rank, g_size};
    sgd_send(g_ctl, SGD_READY, hello, sizeof hello);

    GByteArray *m = g_byte_array_new();
    long sleep_ns = 0;
    double last_beat = now_s(), heard0 = now_s(), last_busy = now_s();
    g_driver_heard = now_s();
    while (!g_quit) {
        bool busy = false;
        for (;;) {
            int flag = 0;
            MPI_Status st;
            if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) !=
                    MPI_SUCCESS ||
                !flag)
                break;
            int n = 0;
            MPI_Get_count(&st, MPI_BYTE, &n);
            g_byte_array_set_size(m, (guint)n);
            MPI_Recv(n ? m->data : NULL, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (st.MPI_SOURCE == 0)
                heard0 = now_s();
            trace("mpi <-", st.MPI_SOURCE, st.MPI_TAG, (size_t)n);
            from_mpi(st.MPI_SOURCE, st.MPI_TAG, m);
            busy = true;
        }
        reap_sends();
        struct pollfd p[2] = {{g_ctl_open ? g_ctl : -1, POLLIN, 0},
                              {g_work_open ? g_work : -1, POLLIN, 0}};
        struct timespec ts = {0, sleep_ns};
        int k = ppoll(p, 2, &ts, NULL);
        if (k > 0) {
            if (p[0].revents)
                read_socket(&g_ctl, &g_ctl_open, true);
            if (p[1].revents)
                read_socket(&g_work, &g_work_open, false);
            busy = true;
        }
        /* Up to 50 us while messages come (a visit waits on each answer);
         * up to 1 ms once nothing came for 10 ms (between passes, or while
         * every rank computes), where polling would only burn a core. */
        double t = now_s();
        if (busy)
            last_busy = t;
        long cap = t - last_busy > 0.01 ? 1000000 : 50000;
        sleep_ns = busy ? 0 : sleep_ns < 2000 ? 2000 : sleep_ns * 2 > cap ? cap : sleep_ns * 2;
        if (g_in_pass && !g_driver_given_up && t - g_driver_heard > g_timeout_s) {
            /* The driver is stopped or hung: its rank cannot end the pass. */
            g_driver_given_up = true;
            trace("driver silent", g_rank, SGD_GONE, 0);
            if (g_rank == 0)
                start_shutdown(); /* nobody will gather or report */
            else
                mpi_send(0, SGD_GONE, NULL, 0); /* the others go on without it */
        }
        if (t - last_beat >= 1.0 && !g_quit) {
            last_beat = t;
            /* Whoever waits for an answer hears that this agent is alive. */
            if (g_driver_waits)
                to_ctl(SGD_KEEPALIVE, NULL, 0);
            if (g_want_pending || g_visit_owner >= 0)
                to_work(SGD_KEEPALIVE, NULL, 0);
            if (g_rank == 0) {
                for (int r = 1; r < g_size; r++) {
                    if (!g_shutting) /* SHUTDOWN is the last message to each */
                        mpi_send(r, SGD_HEARTBEAT, NULL, 0);
                    if (!g_lost[r] && !C.results[r] && t - C.heard[r] > g_timeout_s) {
                        char why[256];
                        snprintf(why, sizeof why,
                                 "rank %d of the distributed exploration stopped answering (no "
                                 "message for %.0f s)",
                                 r, g_timeout_s);
                        coord_lost(r, why);
                    }
                }
            } else {
                mpi_send(0, SGD_HEARTBEAT, NULL, 0);
                if (!g_lost[0] && t - heard0 > g_timeout_s)
                    coordinator_lost();
            }
        }
        if (g_rank == 0 && !g_ctl_open)
            start_shutdown(); /* rank 0's driver ended: the others end too */
        if (g_rank == 0 && g_shutting && (shutdown_done() || t - g_shutdown_at > g_timeout_s)) {
            g_any_lost = g_any_lost || !shutdown_done();
            g_quit = true;
        }
    }
    double until = now_s() + 5;
    while (g_sends->len > 0 && now_s() < until)
        reap_sends();
    if (g_any_lost || g_sends->len > 0)
        _exit(0); /* MPI_Finalize may wait for a rank that is gone */
    MPI_Finalize();
    return 0;
}
