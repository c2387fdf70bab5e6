/*
 * intercomm.c - MPI_Intercomm_create's meeting of two groups (see
 * intercomm.h).
 */
#include "simulator/intercomm.h"

#include "simulator/engine.h"
#include "simulator/sim_internal.h"

/* A group that has met on its local communicator and waits for the other. */
typedef struct side {
    sim_comm *local;
    sim_comm *peer;
    int leader;        /* world rank of the local leader */
    int remote_leader; /* world rank of the other group's leader */
    int tag;
    MPI_Comm **outs;       /* [local->size] where each member's handle goes */
    sim_request **waiters; /* [local->size] members blocked in sim_intercomm_await */
} side;

static GPtrArray *g_sides; /* side *, in the order they began to wait */

static void side_free(gpointer p) {
    side *s = p;
    g_free(s->outs);
    g_free(s->waiters);
    g_free(s);
}

void sim_intercomm_init(void) {
    sim_intercomm_fini();
    g_sides = g_ptr_array_new_with_free_func(side_free);
}

void sim_intercomm_fini(void) {
    if (g_sides)
        g_ptr_array_free(g_sides, TRUE);
    g_sides = NULL;
}

/* Ends the wait of a side's members: success (their handles are written)
 * or an error for each. */
static void release(side *s, int rc, const char *why) {
    for (int r = 0; r < s->local->size; r++) {
        sim_request *w = s->waiters[r];
        if (!w)
            continue;
        if (rc != MPI_SUCCESS)
            sim_req_fail(w, rc, g_strdup(why));
        sim_req_complete(w);
        sim_touch_rank(sim_comm_world(s->local, r));
    }
}

static bool overlap(const sim_comm *a, const sim_comm *b, int *w) {
    for (int i = 0; i < a->size; i++)
        if (sim_comm_rank(b, a->members[i]) >= 0) {
            *w = a->members[i];
            return true;
        }
    return false;
}

int sim_intercomm_exec_create(sim_coll *c, int *err_rank, char **why) {
    sim_comm *local = c->comm;
    int root = c->args[0].root;
    for (int r = 0; r < local->size; r++) {
        *c->args[r].newcomm = MPI_COMM_NULL;
        /* Without one leader there is no group to meet the other: every
         * member fails. */
        if (c->args[r].root != root) {
            *err_rank = -1;
            *why = g_strdup_printf("MPI_Intercomm_create: local_leader = %d at rank %d of %s "
                                   "differs from %d at its rank 0 (the members of a group pass "
                                   "one local leader)",
                                   c->args[r].root, r, sim_comm_describe(local), root);
            return MPI_ERR_ARG;
        }
    }
    const sim_intercomm_args *la = c->args[root].inter;
    side *s = g_new0(side, 1);
    s->local = local;
    s->peer = la->peer;
    s->leader = sim_comm_world(local, root);
    s->remote_leader = sim_comm_world(la->peer, la->remote_leader);
    s->tag = la->tag;
    s->outs = g_new(MPI_Comm *, local->size);
    s->waiters = g_new0(sim_request *, local->size);
    for (int r = 0; r < local->size; r++)
        s->outs[r] = c->args[r].newcomm;

    for (guint i = 0; i < g_sides->len; i++) {
        side *t = g_ptr_array_index(g_sides, i);
        if (t->peer != s->peer || t->tag != s->tag || t->leader != s->remote_leader ||
            t->remote_leader != s->leader)
            continue;
        g_ptr_array_steal_index(g_sides, i);
        int w;
        int rc = MPI_SUCCESS;
        char *msg = NULL;
        if (overlap(s->local, t->local, &w)) {
            msg = g_strdup_printf("MPI_Intercomm_create: world rank %d is in both groups (%s and "
                                  "%s); the groups of an intercommunicator are disjoint",
                                  w, sim_comm_describe(s->local), sim_comm_describe(t->local));
            rc = MPI_ERR_COMM;
        } else {
            /* The group of the lower leader first: the same whichever
             * group came first. */
            side *a = s->leader < t->leader ? s : t, *b = a == s ? t : s;
            sim_comm *sa = sim_comm_make_inter(
                a->local, a->local->size,
                g_memdup2(a->local->members, sizeof(int) * (size_t)a->local->size), b->local,
                b->local->size, g_memdup2(b->local->members, sizeof(int) * (size_t)b->local->size));
            for (int r = 0; r < a->local->size; r++)
                *a->outs[r] = sa->handle;
            for (int r = 0; r < b->local->size; r++)
                *b->outs[r] = sa->remote->handle;
        }
        release(t, rc, msg);
        side_free(t);
        side_free(s);
        if (rc != MPI_SUCCESS) {
            *err_rank = -1;
            *why = msg;
        }
        return rc;
    }
    g_ptr_array_add(g_sides, s);
    return MPI_SUCCESS;
}

int sim_intercomm_await(int world_rank, MPI_Comm *out) {
    if (*out != MPI_COMM_NULL)
        return MPI_SUCCESS;
    for (guint i = 0; i < g_sides->len; i++) {
        side *s = g_ptr_array_index(g_sides, i);
        int r = sim_comm_rank(s->local, world_rank);
        if (r < 0 || s->outs[r] != out)
            continue;
        sim_request *req = sim_req_new(SIM_REQ_COLL, "MPI_Intercomm_create");
        s->waiters[r] = req;
        return sim_request_wait(req, MPI_STATUS_IGNORE);
    }
    /* Neither a handle nor a side: the other group met this one and failed
     * (groups that overlap) before this member could wait. */
    return sim_error(MPI_COMM_NULL, MPI_ERR_COMM,
                     "MPI_Intercomm_create: the meeting with the other group failed (see the "
                     "other group's error)");
}

static gint by_leader(gconstpointer pa, gconstpointer pb) {
    const side *a = *(side *const *)pa, *b = *(side *const *)pb;
    return (a->leader > b->leader) - (a->leader < b->leader);
}

void sim_intercomm_digest(sim_digest_feed feed, void *user) {
    if (!g_sides || !g_sides->len)
        return;
    /* In leader order: which group came first is no state. */
    GPtrArray *sorted = g_ptr_array_new();
    for (guint i = 0; i < g_sides->len; i++)
        g_ptr_array_add(sorted, g_ptr_array_index(g_sides, i));
    g_ptr_array_sort(sorted, by_leader);
    for (guint i = 0; i < sorted->len; i++) {
        const side *s = g_ptr_array_index(sorted, i);
        int64_t f[5] = {sim_comm_digest_id(s->local), sim_comm_digest_id(s->peer), s->leader,
                        s->remote_leader, s->tag};
        feed(user, f, sizeof f);
        for (int r = 0; r < s->local->size; r++) {
            int64_t waiting = s->waiters[r] != NULL;
            feed(user, &waiting, sizeof waiting);
        }
    }
    g_ptr_array_free(sorted, TRUE);
}
