/*
 * mpi_rma_sync.c - the MPI API of RMA synchronisation (MPI 3.1 sections
 * 11.5 and 11.5.4): fence, post/start/complete/wait/test, lock/unlock,
 * lock_all/unlock_all, the flushes and MPI_Win_sync.  The calls check
 * their arguments here; rma.c checks the epochs and does the work.
 */
#include "scheduler/sched.h"
#include "simulator/engine.h"
#include "simulator/info.h"
#include "simulator/rma.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int sim_try_rc_ = (expr);                                                                  \
        if (sim_try_rc_ != MPI_SUCCESS)                                                            \
            SIM_RETURN(sim_try_rc_);                                                               \
    } while (0)

/* The calling rank's window behind `win`, after the usual checks. */
#define WINDOW(call, win, w, me)                                                                   \
    sim_win *w;                                                                                    \
    int me;                                                                                        \
    TRY(sim_check_initialized());                                                                  \
    TRY(sim_win_check((win), (call), &w, &me))

/* A target that created the window with the hint no_locks=true lets MPI
 * assume that nobody locks it (MPI 3.1 section 11.2.1). */
static int no_locks_check(sim_win *w, const char *call, int target) {
    if (!sim_hints_true(w->m[target].world, SIM_HINT_WIN, w->handle, "no_locks"))
        return MPI_SUCCESS;
    return sim_win_error(w, MPI_ERR_RMA_SYNC,
                         "%s: window rank %d (world rank %d) gave the info no_locks=true for "
                         "window 0x%08x, so the window may not be locked",
                         call, target, w->m[target].world, (unsigned)w->handle);
}

/* Refuses assertion bits outside `allowed` (MPI_ERR_ASSERT). */
static int assert_check(sim_win *w, const char *call, int assert, int allowed,
                        const char *allowed_text) {
    if (!(assert & ~allowed))
        return MPI_SUCCESS;
    return sim_win_error(w, MPI_ERR_ASSERT,
                         "%s: assert 0x%x has bits (0x%x) that are not assertions of %s, which "
                         "takes %s",
                         call, (unsigned)assert, (unsigned)(assert & ~allowed), call, allowed_text);
}

static int rank_check(sim_win *w, const char *call, int rank) {
    if (rank >= 0 && rank < w->size)
        return MPI_SUCCESS;
    return sim_win_error(w, MPI_ERR_RANK, "%s: rank %d is not a rank of the window's group of %d",
                         call, rank, w->size);
}

/* The window ranks of a group's members (g_free), all of which must be
 * members of the window. */
static int group_ranks(sim_win *w, const char *call, MPI_Group group, int **out, int *n) {
    int self = sim_self();
    sim_group *g = sim_group_get_for(group, self);
    if (!g)
        return sim_win_error(w, MPI_ERR_GROUP, "%s: group (0x%08x) %s", call, (unsigned)group,
                             sim_group_why_invalid(group, self));
    int *r = g_new(int, g->size ? g->size : 1);
    for (int i = 0; i < g->size; i++) {
        r[i] = sim_comm_rank(w->comm, g->members[i]);
        if (r[i] < 0) {
            g_free(r);
            return sim_win_error(w, MPI_ERR_GROUP,
                                 "%s: rank %d of the group (world rank %d) is not a member of "
                                 "window 0x%08x",
                                 call, i, g->members[i], (unsigned)w->handle);
        }
    }
    *out = r;
    *n = g->size;
    return MPI_SUCCESS;
}

static char *group_text(const sim_win *w, const int *r, int n) {
    GString *s = g_string_new("{");
    for (int i = 0; i < n && i < 16; i++)
        g_string_append_printf(s, i ? ", %d" : "%d", w->m[r[i]].world);
    if (n > 16)
        g_string_append(s, ", ...");
    g_string_append_c(s, '}');
    return g_string_free(s, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Fence                                                                   */

int PMPI_Win_fence(int assert, MPI_Win win) {
    SIM_ENTER("MPI_Win_fence");
    WINDOW("MPI_Win_fence", win, w, me);
    sim_call_args("assert=0x%x, win=0x%08x", (unsigned)assert, (unsigned)win);
    TRY(assert_check(w, "MPI_Win_fence", assert,
                     MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED,
                     "MPI_MODE_NOSTORE, MPI_MODE_NOPUT, MPI_MODE_NOPRECEDE and "
                     "MPI_MODE_NOSUCCEED"));
    SIM_RETURN(sim_rma_fence(w, me, assert));
}
SIM_ALIAS(MPI_Win_fence);

/* ---------------------------------------------------------------------- */
/* Post, start, complete, wait, test                                       */

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
    SIM_ENTER("MPI_Win_post");
    WINDOW("MPI_Win_post", win, w, me);
    TRY(assert_check(w, "MPI_Win_post", assert,
                     MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT,
                     "MPI_MODE_NOCHECK, MPI_MODE_NOSTORE and MPI_MODE_NOPUT"));
    int *r, n;
    TRY(group_ranks(w, "MPI_Win_post", group, &r, &n));
    char *g = group_text(w, r, n);
    sim_call_args("group=%s, assert=0x%x, win=0x%08x", g, (unsigned)assert, (unsigned)win);
    g_free(g);
    int rc = sim_rma_post(w, me, r, n, assert);
    g_free(r);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Win_post);

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
    SIM_ENTER("MPI_Win_start");
    WINDOW("MPI_Win_start", win, w, me);
    TRY(assert_check(w, "MPI_Win_start", assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK only"));
    int *r, n;
    TRY(group_ranks(w, "MPI_Win_start", group, &r, &n));
    char *g = group_text(w, r, n);
    sim_call_args("group=%s, assert=0x%x, win=0x%08x", g, (unsigned)assert, (unsigned)win);
    g_free(g);
    int rc = sim_rma_start(w, me, r, n, assert);
    g_free(r);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Win_start);

int PMPI_Win_complete(MPI_Win win) {
    SIM_ENTER("MPI_Win_complete");
    WINDOW("MPI_Win_complete", win, w, me);
    sim_call_args("win=0x%08x", (unsigned)win);
    SIM_RETURN(sim_rma_complete(w, me));
}
SIM_ALIAS(MPI_Win_complete);

int PMPI_Win_wait(MPI_Win win) {
    SIM_ENTER("MPI_Win_wait");
    WINDOW("MPI_Win_wait", win, w, me);
    sim_call_args("win=0x%08x", (unsigned)win);
    SIM_RETURN(sim_rma_wait(w, me));
}
SIM_ALIAS(MPI_Win_wait);

int PMPI_Win_test(MPI_Win win, int *flag) {
    SIM_ENTER("MPI_Win_test");
    WINDOW("MPI_Win_test", win, w, me);
    if (!flag)
        SIM_RETURN(sim_win_error(w, MPI_ERR_ARG, "MPI_Win_test: flag is NULL"));
    sim_call_args("win=0x%08x", (unsigned)win);
    SIM_RETURN(sim_rma_test(w, me, flag));
}
SIM_ALIAS(MPI_Win_test);

/* ---------------------------------------------------------------------- */
/* Passive target                                                          */

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
    SIM_ENTER("MPI_Win_lock");
    WINDOW("MPI_Win_lock", win, w, me);
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        SIM_RETURN(sim_win_error(w, MPI_ERR_LOCKTYPE,
                                 "MPI_Win_lock: lock_type %d is neither MPI_LOCK_SHARED (%d) nor "
                                 "MPI_LOCK_EXCLUSIVE (%d)",
                                 lock_type, MPI_LOCK_SHARED, MPI_LOCK_EXCLUSIVE));
    TRY(assert_check(w, "MPI_Win_lock", assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK only"));
    if (rank == MPI_PROC_NULL)
        SIM_RETURN(MPI_SUCCESS);
    TRY(rank_check(w, "MPI_Win_lock", rank));
    TRY(no_locks_check(w, "MPI_Win_lock", rank));
    sim_call_args("%s, rank=%d, assert=0x%x, win=0x%08x",
                  lock_type == MPI_LOCK_EXCLUSIVE ? "MPI_LOCK_EXCLUSIVE" : "MPI_LOCK_SHARED",
                  w->m[rank].world, (unsigned)assert, (unsigned)win);
    SIM_RETURN(sim_rma_lock(
        w, me, lock_type == MPI_LOCK_EXCLUSIVE ? SIM_LK_EXCLUSIVE : SIM_LK_SHARED, rank, assert));
}
SIM_ALIAS(MPI_Win_lock);

int PMPI_Win_unlock(int rank, MPI_Win win) {
    SIM_ENTER("MPI_Win_unlock");
    WINDOW("MPI_Win_unlock", win, w, me);
    if (rank == MPI_PROC_NULL)
        SIM_RETURN(MPI_SUCCESS);
    TRY(rank_check(w, "MPI_Win_unlock", rank));
    sim_call_args("rank=%d, win=0x%08x", w->m[rank].world, (unsigned)win);
    SIM_RETURN(sim_rma_unlock(w, me, rank));
}
SIM_ALIAS(MPI_Win_unlock);

int PMPI_Win_lock_all(int assert, MPI_Win win) {
    SIM_ENTER("MPI_Win_lock_all");
    WINDOW("MPI_Win_lock_all", win, w, me);
    TRY(assert_check(w, "MPI_Win_lock_all", assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK only"));
    for (int r = 0; r < w->size; r++)
        TRY(no_locks_check(w, "MPI_Win_lock_all", r));
    sim_call_args("assert=0x%x, win=0x%08x", (unsigned)assert, (unsigned)win);
    SIM_RETURN(sim_rma_lock(w, me, SIM_LK_SHARED, -1, assert));
}
SIM_ALIAS(MPI_Win_lock_all);

int PMPI_Win_unlock_all(MPI_Win win) {
    SIM_ENTER("MPI_Win_unlock_all");
    WINDOW("MPI_Win_unlock_all", win, w, me);
    sim_call_args("win=0x%08x", (unsigned)win);
    SIM_RETURN(sim_rma_unlock(w, me, -1));
}
SIM_ALIAS(MPI_Win_unlock_all);

static int flush_one(const char *call, int rank, MPI_Win win, bool local) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    sim_win *w;
    int me;
    if ((rc = sim_win_check(win, call, &w, &me)) != MPI_SUCCESS)
        return rc;
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if ((rc = rank_check(w, call, rank)) != MPI_SUCCESS)
        return rc;
    return sim_rma_flush(w, me, rank, local);
}

int PMPI_Win_flush(int rank, MPI_Win win) {
    SIM_ENTER("MPI_Win_flush");
    SIM_RETURN(flush_one("MPI_Win_flush", rank, win, false));
}
SIM_ALIAS(MPI_Win_flush);

int PMPI_Win_flush_local(int rank, MPI_Win win) {
    SIM_ENTER("MPI_Win_flush_local");
    SIM_RETURN(flush_one("MPI_Win_flush_local", rank, win, true));
}
SIM_ALIAS(MPI_Win_flush_local);

int PMPI_Win_flush_all(MPI_Win win) {
    SIM_ENTER("MPI_Win_flush_all");
    WINDOW("MPI_Win_flush_all", win, w, me);
    SIM_RETURN(sim_rma_flush(w, me, -1, false));
}
SIM_ALIAS(MPI_Win_flush_all);

int PMPI_Win_flush_local_all(MPI_Win win) {
    SIM_ENTER("MPI_Win_flush_local_all");
    WINDOW("MPI_Win_flush_local_all", win, w, me);
    SIM_RETURN(sim_rma_flush(w, me, -1, true));
}
SIM_ALIAS(MPI_Win_flush_local_all);

int PMPI_Win_sync(MPI_Win win) {
    SIM_ENTER("MPI_Win_sync");
    WINDOW("MPI_Win_sync", win, w, me);
    SIM_RETURN(sim_rma_sync(w, me));
}
SIM_ALIAS(MPI_Win_sync);
