/*
 * report.c - turning rank failures, deadlocks and leftovers into findings
 * that point at the program's source lines.
 */
#define _GNU_SOURCE
#include "simulator/report.h"

#include <execinfo.h>
#include <signal.h>
#include <string.h>

#include "scheduler/arena.h"
#include "scheduler/sched.h"
#include "scheduler/symbolize.h"
#include "simulator/engine.h"
#include "simulator/held.h"
#include "simulator/rma.h"
#include "simulator/shmem.h"

/* Appends a backtrace, one frame per line: the frames outside the program
 * that lead to the fault (a C library function like abort(), or ordex's MPI
 * code given a bad buffer), then the program's own frames down to main.
 * Returns the location of the innermost program frame (or NULL). */
static const char *append_frames(GString *out, void *const *frames, int n, int first_is_pc) {
    const char *where = NULL;
    int shown = 0, lead = 0;
    bool in_program = false;
    for (int i = 0; i < n; i++) {
        bool is_return = !(first_is_pc && i == 0);
        bool prog = sched_is_program_code((const char *)frames[i] - (is_return ? 1 : 0));
        if (!prog && in_program)
            break; /* below main: the scheduler's start code */
        if (!prog && ++lead > 8)
            continue;
        in_program |= prog;
        g_string_append_printf(out, "    #%d %s\n", shown, sched_symbolize(frames[i], is_return));
        if (prog && !where)
            where = sched_symbolize_line(frames[i], is_return);
        shown++;
    }
    return where;
}

char *sim_report_backtrace_here(void) {
    void *frames[SCHED_MAX_FRAMES];
    int n = backtrace(frames, SCHED_MAX_FRAMES);
    GString *s = g_string_new("  backtrace:\n");
    /* Skip ordex frames: start at the first program frame. */
    int k = 0;
    while (k < n && !sched_is_program_code((char *)frames[k] - 1))
        k++;
    append_frames(s, frames + k, n - k, 0);
    return g_string_free(s, FALSE);
}

static const char *signal_text(int sig) {
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV (invalid memory access)";
    case SIGBUS:
        return "SIGBUS (bus error)";
    case SIGFPE:
        return "SIGFPE (arithmetic error, e.g. integer division by zero)";
    case SIGILL:
        return "SIGILL (illegal instruction)";
    case SIGABRT:
        return "SIGABRT (abort() or a failed assert)";
    case SIGTRAP:
        return "SIGTRAP (trap)";
    default:
        return strsignal(sig);
    }
}

/* "4 MiB", "1536 KiB", "100 bytes": a size as whole units. */
static char *size_text(size_t bytes) {
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    size_t i = 0;
    while (i + 1 < G_N_ELEMENTS(units) && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        i++;
    }
    return g_strdup_printf("%zu %s", bytes, units[i]);
}

/* When the rank's heap had refused an allocation before it crashed, the
 * crash is most likely the use of the NULL that malloc returned: says so
 * and how to raise the limit ("" otherwise). */
static char *heap_note(int rank) {
    const void *start;
    size_t len;
    int count;
    sched_arenas_span(&start, &len, &count);
    const sched_arena *a = rank >= 0 && rank < count ? sched_arena_of(rank) : NULL;
    size_t refused = a ? sched_arena_refused(a) : 0;
    if (!refused)
        return g_strdup("");
    char *want = size_text(refused), *limit = size_text(sched_arena_size(a));
    char *note = g_strdup_printf("; before it, the rank's heap limit was reached: an allocation "
                                 "of %s failed (malloc returned NULL) in a heap of %s; if the "
                                 "program used that NULL, raise --heap-size",
                                 want, limit);
    g_free(want);
    g_free(limit);
    return note;
}

void sim_report_fault(int rank, const sched_fault *fault) {
    GString *bt = g_string_new("  backtrace:\n");
    /* Frames from the signal handler: find the faulting instruction, then
     * the return addresses below it. */
    int start = -1;
    for (int i = 0; i < fault->nframes; i++)
        if (fault->frames[i] == fault->pc) {
            start = i;
            break;
        }
    const char *where;
    if (start >= 0) {
        where = append_frames(bt, fault->frames + start, fault->nframes - start, 1);
    } else {
        void *frames[SCHED_MAX_FRAMES + 1];
        frames[0] = fault->pc;
        int n = 1;
        for (int i = 0; i < fault->nframes && n <= SCHED_MAX_FRAMES; i++)
            if (sched_is_program_code((char *)fault->frames[i] - 1))
                frames[n++] = fault->frames[i];
        where = append_frames(bt, frames, n, 1);
    }
    sim_proc *p = sim_proc_of(rank);
    /* A fault with a note was in the program's own code (a handler of its
     * own may have called MPI since). */
    bool own_code = fault->note && fault->note[0];
    char *in_call = p->call && !own_code ? g_strdup_printf(" inside %s called at %s", p->call,
                                                           sim_location(p->call_site))
                                         : g_strdup("");
    char *msg;
    sim_finding_kind kind = SIM_F_CRASH;
    switch (fault->kind) {
    case SCHED_FAIL_STACK_OVERFLOW:
        kind = SIM_F_STACK_OVERFLOW;
        msg = g_strdup_printf("rank %d overflowed its stack (raise it with --stack-size)%s", rank,
                              in_call);
        break;
    case SCHED_FAIL_TIMEOUT:
        kind = SIM_F_LIVELOCK;
        msg = g_strdup_printf("rank %d ran past the step timeout of %g s without calling MPI (an "
                              "endless loop?); raise --step-timeout if it is just slow",
                              rank, sched_step_timeout());
        break;
    case SCHED_FAIL_HEAP:
        kind = SIM_F_HEAP;
        msg = g_strdup_printf("rank %d ran out of heap (raise --heap-size)", rank);
        break;
    default: {
        /* si_code says whether the kernel raised the signal for a fault (a
         * bad access: its address is known) or someone sent it: then the
         * "address" holds the sender's ids, and no access failed. */
        int sig = fault->signo;
        bool sent = fault->code <= 0;
        bool faults = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
        char *at = !sent && (sig == SIGSEGV || sig == SIGBUS)
                       ? g_strdup_printf(" at address %p", fault->addr)
                       : g_strdup("");
        char *note = heap_note(rank);
        if (sent && faults)
            msg = g_strdup_printf("rank %d crashed: SIG%s sent by the program (raise() or "
                                  "kill()), not by a fault%s%s",
                                  rank, sigabbrev_np(sig), in_call, note);
        else
            msg = g_strdup_printf("rank %d crashed: %s%s%s%s", rank, signal_text(sig), at, in_call,
                                  note);
        g_free(note);
        g_free(at);
        break;
    }
    }
    /* What the program's own signal handling had to do with it. */
    if (own_code) {
        char *with = g_strdup_printf("%s; %s", msg, fault->note);
        g_free(msg);
        msg = with;
    }
    int ranks[1] = {rank};
    sim_add_finding(kind, ranks, 1, where, msg, g_string_free(bt, FALSE));
    g_free(in_call);
}

/* ---------------------------------------------------------------------- */
/* Deadlock                                                                */

static const char *comm_name(const sim_comm *c) {
    return c ? sim_comm_describe(c) : "?";
}

/* Adds to `to` the world ranks that request r waits for. */
static void waits_of_request(const sim_request *r, int self, GArray *to) {
    if (r->complete)
        return;
    if (r->kind == SIM_REQ_COLL) {
        sim_coll *c = r->coll;
        if (!c) /* MPI_Intercomm_create waiting for a group that is not known yet */
            return;
        for (int i = 0; i < c->comm->size; i++)
            if (!c->reqs[i] && !c->left_early[i]) { /* not arrived yet */
                int w = sim_comm_world(c->comm, i);
                g_array_append_val(to, w);
            }
        return;
    }
    if (!r->comm)
        return;
    /* On an intercommunicator the peers are the other group. */
    const sim_comm *peers = r->comm->remote ? r->comm->remote : r->comm;
    if (r->peer == MPI_ANY_SOURCE) {
        for (int i = 0; i < peers->size; i++) {
            int w = sim_comm_world(peers, i);
            if (w != self)
                g_array_append_val(to, w);
        }
    } else if (r->peer >= 0) {
        int w = sim_comm_world(peers, r->peer);
        g_array_append_val(to, w);
    }
}

static GArray *waits_of_rank(int rank) {
    GArray *to = g_array_new(FALSE, FALSE, sizeof(int));
    sim_proc *p = sim_proc_of(rank);
    for (int i = 0; i < p->nwaits; i++)
        waits_of_request(p->waits[i], rank, to);
    int source, tag;
    sim_comm *comm;
    if (sim_engine_probe_of(rank, &source, &tag, &comm)) {
        sim_request fake = {0};
        fake.kind = SIM_REQ_RECV;
        fake.comm = comm;
        fake.peer = source;
        waits_of_request(&fake, rank, to);
    }
    sim_rma_waits_of(rank, to);   /* MPI_Win_complete, _wait, _lock */
    sim_shmem_waits_of(rank, to); /* shmem_wait_until, shmem_set_lock */
    return to;
}

/* "MPI_Irecv at x.c:12, MPI_Isend at x.c:13": the pending requests of a wait. */
static char *describe_waits(const sim_proc *p) {
    GString *s = g_string_new(NULL);
    int shown = 0;
    for (int i = 0; i < p->nwaits; i++) {
        const sim_request *r = p->waits[i];
        if (!r || r->complete)
            continue;
        if (shown++ == 4) {
            g_string_append(s, ", ...");
            break;
        }
        g_string_append_printf(s, "%s%s at %s", s->len ? ", " : "", r->call,
                               sim_location(r->call_site));
    }
    return g_string_free(s, FALSE);
}

static char *describe_blocked(int rank) {
    sim_proc *p = sim_proc_of(rank);
    const char *args = sim_call_args_text(rank);
    char *waits = *args ? g_strdup(args) : describe_waits(p);
    char *line = g_strdup_printf("rank %d: %s(%s) at %s%s", rank, p->call ? p->call : "?", waits,
                                 sim_location(p->call_site), p->polling ? " (polling)" : "");
    g_free(waits);
    return line;
}

/* Finds a cycle in the wait-for graph among blocked ranks; returns it as an
 * array of ranks (first == start of the cycle), or NULL. */
static GArray *find_cycle(GArray **edges, int n) {
    int *color = g_new0(int, n); /* 0 new, 1 on stack, 2 done */
    int *parent = g_new(int, n);
    GArray *cycle = NULL;
    for (int s = 0; s < n && !cycle; s++) {
        if (!edges[s] || color[s])
            continue;
        /* Iterative DFS with explicit edge cursors. */
        GArray *stack = g_array_new(FALSE, FALSE, sizeof(int));
        GArray *cursor = g_array_new(FALSE, FALSE, sizeof(guint));
        g_array_append_val(stack, s);
        guint zero = 0;
        g_array_append_val(cursor, zero);
        color[s] = 1;
        parent[s] = -1;
        while (stack->len && !cycle) {
            int v = g_array_index(stack, int, stack->len - 1);
            guint *cur = &g_array_index(cursor, guint, cursor->len - 1);
            if (*cur >= edges[v]->len) {
                color[v] = 2;
                g_array_set_size(stack, stack->len - 1);
                g_array_set_size(cursor, cursor->len - 1);
                continue;
            }
            int w = g_array_index(edges[v], int, (*cur)++);
            if (!edges[w])
                continue; /* not blocked */
            if (color[w] == 1) {
                cycle = g_array_new(FALSE, FALSE, sizeof(int));
                for (int x = v; x != w; x = parent[x])
                    g_array_prepend_val(cycle, x);
                g_array_prepend_val(cycle, w);
            } else if (color[w] == 0) {
                color[w] = 1;
                parent[w] = v;
                g_array_append_val(stack, w);
                g_array_append_val(cursor, zero);
            }
        }
        g_array_free(stack, TRUE);
        g_array_free(cursor, TRUE);
    }
    g_free(color);
    g_free(parent);
    return cycle;
}

static bool unbuffered_standard_send(int rank) {
    sim_proc *p = sim_proc_of(rank);
    for (int i = 0; i < p->nwaits; i++) {
        const sim_request *r = p->waits[i];
        if (r->kind == SIM_REQ_SEND && !r->complete && r->send_kind == SIM_SEND_STANDARD)
            return true;
    }
    return false;
}

/* The collective a blocked rank waits in, if MPI would let this rank leave it
 * before the others arrive (a root that only sends, a member that only
 * contributes): the deadlock then needs the collective to synchronise. */
static const char *early_exit_collective(int rank) {
    sim_proc *p = sim_proc_of(rank);
    for (int i = 0; i < p->nwaits; i++) {
        const sim_request *r = p->waits[i];
        if (!r || r->complete || r->kind != SIM_REQ_COLL || !r->coll)
            continue;
        const sim_coll *c = r->coll;
        int me = sim_comm_rank(c->comm, rank);
        int root = c->args[me].root;
        switch (c->kind) {
        case SIM_COLL_BCAST:
        case SIM_COLL_SCATTER:
        case SIM_COLL_SCATTERV:
            if (me == root)
                return sim_coll_call(c);
            break;
        case SIM_COLL_REDUCE:
        case SIM_COLL_GATHER:
        case SIM_COLL_GATHERV:
            if (me != root)
                return sim_coll_call(c);
            break;
        default:
            break;
        }
    }
    return NULL;
}

void sim_report_deadlock(void) {
    int n = sim_g->nranks;
    GArray **edges = g_new0(GArray *, n);
    GArray *blocked = g_array_new(FALSE, FALSE, sizeof(int));
    for (int r = 0; r < n; r++)
        if (sched_rank_state(r) == SCHED_BLOCKED) {
            edges[r] = waits_of_rank(r);
            g_array_append_val(blocked, r);
        }
    GString *d = g_string_new(NULL);
    const int show_max = 32;
    for (guint i = 0; i < blocked->len && i < (guint)show_max; i++) {
        char *line = describe_blocked(g_array_index(blocked, int, i));
        g_string_append_printf(d, "  %s\n", line);
        g_free(line);
    }
    if (blocked->len > (guint)show_max)
        g_string_append_printf(d, "  ... and %u more blocked rank%s\n", blocked->len - show_max,
                               blocked->len - show_max == 1 ? "" : "s");

    GArray *cycle = find_cycle(edges, n);
    bool unbuffered = false;
    const char *sync_coll = NULL;
    const char *where = NULL;
    if (cycle) {
        g_string_append(d, "  wait-for cycle: ");
        for (guint i = 0; i < cycle->len; i++) {
            int r = g_array_index(cycle, int, i);
            unbuffered |= unbuffered_standard_send(r);
            if (!sync_coll)
                sync_coll = early_exit_collective(r);
            g_string_append_printf(d, "rank %d -> ", r);
        }
        g_string_append_printf(d, "rank %d\n", g_array_index(cycle, int, 0));
        where = sim_location(sim_proc_of(g_array_index(cycle, int, 0))->call_site);
    } else {
        /* No cycle: some blocked rank waits for ranks that have ended. */
        for (guint i = 0; i < blocked->len; i++) {
            int r = g_array_index(blocked, int, i);
            GArray *e = edges[r];
            bool all_ended = e->len > 0;
            for (guint k = 0; k < e->len; k++)
                all_ended &= !edges[g_array_index(e, int, k)];
            if (!all_ended)
                continue;
            GString *who = g_string_new(NULL);
            for (guint k = 0; k < e->len && k < 8; k++)
                g_string_append_printf(who, "%s%d", k ? ", " : "", g_array_index(e, int, k));
            if (e->len > 8)
                g_string_append(who, ", ...");
            g_string_append_printf(d,
                                   "  rank %d waits for rank%s %s, which ended without "
                                   "providing what it waits for\n",
                                   r, e->len > 1 ? "s" : "", who->str);
            g_string_free(who, TRUE);
            if (!where)
                where = sim_location(sim_proc_of(r)->call_site);
        }
        if (!where && blocked->len)
            where = sim_location(sim_proc_of(g_array_index(blocked, int, 0))->call_site);
    }
    char *sync_note = sync_coll ? g_strdup_printf("; needs %s to synchronise, which MPI allows "
                                                  "but does not require (the program is not "
                                                  "portable)",
                                                  sync_coll)
                                : g_strdup("");
    char *msg = g_strdup_printf(
        "deadlock: %u rank%s blocked and no message or collective can complete%s%s", blocked->len,
        blocked->len == 1 ? "" : "s",
        unbuffered ? "; deadlocks when MPI_Send is not buffered (standard-mode sends "
                     "waited for their receives)"
                   : "",
        sync_note);
    g_free(sync_note);
    sim_add_finding(SIM_F_DEADLOCK, (int *)(void *)blocked->data, (int)blocked->len, where, msg,
                    g_string_free(d, FALSE));
    if (cycle)
        g_array_free(cycle, TRUE);
    for (int r = 0; r < n; r++)
        if (edges[r])
            g_array_free(edges[r], TRUE);
    g_free(edges);
    g_array_free(blocked, TRUE);
}

/* ---------------------------------------------------------------------- */
/* Polling forever                                                         */

void sim_report_poll_livelock(const int *pollers, int n, bool repeated, double seconds,
                              uint64_t releases) {
    GString *d = g_string_new(NULL);
    for (int r = 0; r < sim_g->nranks; r++)
        if (sched_rank_state(r) == SCHED_BLOCKED) {
            char *line = describe_blocked(r);
            g_string_append_printf(d, "  %s\n", line);
            g_free(line);
        }
    char *why = repeated ? g_strdup("its loop came back to the same state, so it never ends")
                         : g_strdup_printf("it polled in vain %" G_GUINT64_FORMAT
                                           " times for %.1f s (the step timeout; raise "
                                           "--step-timeout if it is just slow)",
                                           releases, seconds);
    for (int i = 0; i < n; i++) {
        int r = pollers[i];
        sim_proc *p = sim_proc_of(r);
        char *msg = g_strdup_printf(
            "livelock: rank %d polls with %s forever: nothing it waits for can happen any more "
            "and %s",
            r, p->call ? p->call : "MPI_Test/MPI_Iprobe", why);
        int ranks[1] = {r};
        sim_add_finding(SIM_F_LIVELOCK, ranks, 1, sim_location(p->call_site), msg,
                        g_strdup(d->str));
    }
    g_free(why);
    g_string_free(d, TRUE);
}

/* ---------------------------------------------------------------------- */
/* Leftovers at the end of a complete run                                  */

static gint by_seq(gconstpointer a, gconstpointer b) {
    const sim_message *x = *(sim_message *const *)a, *y = *(sim_message *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static gint req_order(gconstpointer a, gconstpointer b) {
    const sim_request *x = *(sim_request *const *)a, *y = *(sim_request *const *)b;
    if (x->owner != y->owner)
        return x->owner < y->owner ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void sim_report_leftovers(void) {
    GPtrArray *msgs = g_ptr_array_new();
    sim_unmatched_messages(msgs);
    g_ptr_array_sort(msgs, by_seq);
    for (guint i = 0; i < msgs->len; i++) {
        sim_message *m = g_ptr_array_index(msgs, i);
        int ranks[2] = {m->src, m->dst};
        sim_add_finding(SIM_F_LOST_MESSAGE, ranks, 2, sim_location(m->call_site),
                        g_strdup_printf("rank %d sent a message to rank %d (tag %d, %zu bytes, "
                                        "%s) with %s that was never received",
                                        m->src, m->dst, m->tag, m->bytes, comm_name(m->comm),
                                        m->call),
                        NULL);
    }
    g_ptr_array_free(msgs, TRUE);

    GPtrArray *reqs = sim_req_all();
    g_ptr_array_sort(reqs, req_order);
    for (guint i = 0; i < reqs->len; i++) {
        sim_request *r = g_ptr_array_index(reqs, i);
        if (r->persistent && !r->active)
            continue; /* an inactive persistent request is only a resource */
        if (r->pair_of)
            continue; /* the send half of an MPI_Isendrecv: its receive is reported */
        int ranks[1] = {r->owner};
        char *text;
        if (r->kind == SIM_REQ_COLL) /* MPI 3.1 section 8.7: complete them all first */
            text = g_strdup_printf("rank %d: the collective of %s was still pending at the end "
                                   "(%s); MPI_Finalize needs every collective completed by "
                                   "MPI_Wait/MPI_Test first (a collective request cannot be freed)",
                                   r->owner, r->call,
                                   r->complete ? "complete, but never waited for"
                                               : "not all members took part");
        else
            text = g_strdup_printf("rank %d: the request of %s was never %s", r->owner, r->call,
                                   r->complete ? "completed by MPI_Wait/MPI_Test (or freed)"
                                               : "matched or completed");
        sim_add_finding(SIM_F_PENDING_REQUEST, ranks, 1, sim_location(r->call_site), text, NULL);
    }
    g_ptr_array_free(reqs, TRUE);
    sim_rma_report_leftovers();
    sim_held_report();
}

char *sim_ranks_text(const int *ranks, int n) {
    GString *s = g_string_new(n == 1 ? "rank " : "ranks ");
    int runs = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        if (runs++ == 8) {
            g_string_append_printf(s, ", ... (%d ranks)", n);
            break;
        }
        const char *sep = i ? ", " : "";
        if (j == i)
            g_string_append_printf(s, "%s%d", sep, ranks[i]);
        else if (j == i + 1)
            g_string_append_printf(s, "%s%d, %d", sep, ranks[i], ranks[j]);
        else
            g_string_append_printf(s, "%s%d-%d", sep, ranks[i], ranks[j]);
        i = j + 1;
    }
    return g_string_free(s, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Active requests freed                                                   */

/* "free line|request line" -> the finding made for that pair; its ranks
 * grow as more ranks do the same. */
static GHashTable *g_active_freed;

void sim_report_init(void) {
    sim_report_fini();
    g_active_freed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

void sim_report_fini(void) {
    if (g_active_freed)
        g_hash_table_destroy(g_active_freed);
    g_active_freed = NULL;
}

static char *active_freed_message(const sim_request *req, const int *ranks, int n) {
    char *who = sim_ranks_text(ranks, n);
    bool recv = req->kind == SIM_REQ_RECV;
    char *msg = g_strdup_printf(
        "MPI_Request_free freed the active request of %s at %s: the operation goes on, but the "
        "program can no longer learn when it completes (%s) (on %s)",
        req->call, sim_location(req->call_site),
        recv ? "when the received data is in the buffer" : "when the buffer may be reused", who);
    g_free(who);
    return msg;
}

void sim_report_active_freed(const sim_request *req) {
    int self = sim_self();
    void *here = sim_proc_of(self)->call_site;
    /* By source line: every rank runs its own copy of the program. */
    char *key = g_strdup_printf("%s|%s", sim_location(here), sim_location(req->call_site));
    sim_finding *f = g_active_freed ? g_hash_table_lookup(g_active_freed, key) : NULL;
    if (!f) {
        int ranks[1] = {self};
        f = sim_add_finding(SIM_F_ACTIVE_FREED, ranks, 1, sim_location(here),
                            active_freed_message(req, ranks, 1), NULL);
        if (g_active_freed)
            g_hash_table_insert(g_active_freed, key, f);
        else
            g_free(key);
        return;
    }
    g_free(key);
    for (int i = 0; i < f->nranks; i++)
        if (f->ranks[i] == self)
            return;
    /* Ranks in ascending order, as the message lists them. */
    f->ranks = g_renew(int, f->ranks, f->nranks + 1);
    int at = f->nranks;
    while (at > 0 && f->ranks[at - 1] > self) {
        f->ranks[at] = f->ranks[at - 1];
        at--;
    }
    f->ranks[at] = self;
    f->nranks++;
    g_free(f->message);
    f->message = active_freed_message(req, f->ranks, f->nranks);
}

char *sim_describe_rank(int rank) {
    switch (sched_rank_state(rank)) {
    case SCHED_BLOCKED:
        return describe_blocked(rank);
    case SCHED_DONE:
        return g_strdup_printf("rank %d: ended (status %d)", rank, sched_rank_exit_code(rank));
    case SCHED_FAILED:
        return g_strdup_printf("rank %d: failed", rank);
    default:
        return g_strdup_printf("rank %d: running", rank);
    }
}
