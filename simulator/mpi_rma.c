/*
 * mpi_rma.c - the MPI API of one-sided communication (MPI 3.1 chapter 11):
 * windows (creation, memory, attributes, groups, names, error handlers)
 * and the communication calls.  The synchronisation calls are
 * mpi_rma_sync.c; what they all mean is rma.c's (see rma.h).
 */
#include <limits.h>
#include <string.h>

#include "scheduler/arena.h"
#include "scheduler/sched.h"
#include "simulator/attr.h"
#include "simulator/bufcheck.h"
#include "simulator/engine.h"
#include "simulator/errhandler.h"
#include "simulator/held.h"
#include "simulator/info.h"
#include "simulator/rma.h"
#include "simulator/rma_internal.h"

/* Returns from the MPI function when expr reports an error. */
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int sim_try_rc_ = (expr);                                                                  \
        if (sim_try_rc_ != MPI_SUCCESS)                                                            \
            SIM_RETURN(sim_try_rc_);                                                               \
    } while (0)

/* ---------------------------------------------------------------------- */
/* Window creation                                                         */

static int creation_checks(MPI_Comm comm, const char *call, MPI_Aint size, int disp_unit,
                           MPI_Info info, const sim_info **hints, const void *out) {
    const sim_comm *c = sim_comm_get(comm, sim_self());
    if (c && c->remote)
        return sim_error(comm, MPI_ERR_COMM,
                         "%s: %s is an intercommunicator; windows are made on "
                         "intracommunicators",
                         call, sim_comm_describe(c));
    if (size < 0)
        return sim_error(comm, MPI_ERR_SIZE, "%s: size %ld is negative", call, (long)size);
    if (disp_unit <= 0)
        return sim_error(comm, MPI_ERR_DISP, "%s: disp_unit %d is not positive", call, disp_unit);
    int rc = sim_info_arg(comm, call, info, hints);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!out)
        return sim_error(comm, MPI_ERR_ARG, "%s: win is NULL", call);
    return MPI_SUCCESS;
}

/* The caller's hint `key` (same_size or same_disp_unit) says "true", which
 * promises equal values on every member (MPI 3.1 section 11.2.1, MPI 4.0
 * section 12.2.1): a member whose value differs from window rank 0's
 * breaks the promise. */
static int promise_check(sim_win *w, const char *call, const char *key) {
    if (!sim_hints_true(sim_self(), SIM_HINT_WIN, w->handle, key))
        return MPI_SUCCESS;
    bool size = strcmp(key, "same_size") == 0;
    for (int r = 1; r < w->size; r++) {
        long a = size ? (long)w->m[0].size : w->m[0].disp_unit;
        long b = size ? (long)w->m[r].size : w->m[r].disp_unit;
        if (a != b)
            return sim_win_error(w, MPI_ERR_INFO_VALUE,
                                 "%s: this rank's info says %s=true, but window rank %d gave %s "
                                 "%ld and window rank %d gave %ld",
                                 call, key, r, size ? "size" : "disp_unit", b, 0, a);
    }
    return MPI_SUCCESS;
}

/* Posts the creation collective and waits for the window.  *win is
 * MPI_WIN_NULL until the collective writes it.  The caller's hints stay
 * with its membership of the new window (rma.c keeps them). */
static int post_create(const char *call, sim_comm *c, sim_coll_kind kind, sim_rma_coll_args *a,
                       const sim_info *hints, MPI_Win *win) {
    *win = MPI_WIN_NULL;
    a->out = win;
    a->hints = hints;
    sim_coll_args ca = {0};
    ca.rma = a;
    sim_request *req = sim_coll_post(c, kind, &ca);
    if (!req)
        return MPI_ERR_OTHER; /* a mismatch, reported already */
    int rc = sim_request_wait(req, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || *win == MPI_WIN_NULL)
        return rc;
    sim_held_add_here(SIM_HELD_WIN, (uint32_t)*win);
    sim_win *w;
    int me;
    if ((rc = sim_win_check(*win, call, &w, &me)) != MPI_SUCCESS)
        return rc;
    if (kind != SIM_COLL_WIN_CREATE_DYNAMIC &&
        (rc = promise_check(w, call, "same_size")) != MPI_SUCCESS)
        return rc;
    return promise_check(w, call, "same_disp_unit");
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win) {
    SIM_ENTER("MPI_Win_create");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    sim_call_args("base=%p, size=%ld, disp_unit=%d, %s", base, (long)size, disp_unit,
                  sim_comm_describe(c));
    const sim_info *hints;
    TRY(creation_checks(comm, "MPI_Win_create", size, disp_unit, info, &hints, win));
    if (!base && size > 0)
        SIM_RETURN(sim_error(comm, MPI_ERR_BASE,
                             "MPI_Win_create: base is NULL but size is %ld bytes", (long)size));
    /* Every byte of the window is the program's memory that others write. */
    if (size <= INT_MAX)
        TRY(sim_bufcheck_comm(comm, "MPI_Win_create", "base", base, (int)size, MPI_BYTE, true));
    sim_rma_coll_args a = {0};
    a.base = base;
    a.size = size;
    a.disp_unit = disp_unit;
    SIM_RETURN(post_create("MPI_Win_create", c, SIM_COLL_WIN_CREATE, &a, hints, win));
}
SIM_ALIAS(MPI_Win_create);

/* size bytes (at least one) of the calling rank's heap, zeroed; NULL when
 * the arena is full. */
static void *rank_alloc(MPI_Aint size) {
    size_t n = size > 0 ? (size_t)size : 1;
    void *p = sched_arena_memalign(sched_arena_of(sim_self()), 64, n);
    if (p)
        memset(p, 0, n);
    return p;
}

static int no_memory(MPI_Comm comm, const char *call, MPI_Aint size) {
    return sim_error(comm, MPI_ERR_NO_MEM,
                     "%s: %ld bytes do not fit into the rank's heap (raise --heap-size)", call,
                     (long)size);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win) {
    SIM_ENTER("MPI_Win_allocate");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    sim_call_args("size=%ld, disp_unit=%d, %s", (long)size, disp_unit, sim_comm_describe(c));
    const sim_info *hints;
    TRY(creation_checks(comm, "MPI_Win_allocate", size, disp_unit, info, &hints, win));
    if (!baseptr)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Win_allocate: baseptr is NULL"));
    void *mem = rank_alloc(size);
    if (!mem)
        SIM_RETURN(no_memory(comm, "MPI_Win_allocate", size));
    *(void **)baseptr = mem;
    sim_rma_coll_args a = {0};
    a.base = mem;
    a.size = size;
    a.disp_unit = disp_unit;
    a.owned = mem;
    SIM_RETURN(post_create("MPI_Win_allocate", c, SIM_COLL_WIN_ALLOCATE, &a, hints, win));
}
SIM_ALIAS(MPI_Win_allocate);

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win) {
    SIM_ENTER("MPI_Win_allocate_shared");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    sim_call_args("size=%ld, disp_unit=%d, %s", (long)size, disp_unit, sim_comm_describe(c));
    const sim_info *hints;
    TRY(creation_checks(comm, "MPI_Win_allocate_shared", size, disp_unit, info, &hints, win));
    if (!baseptr)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Win_allocate_shared: baseptr is NULL"));
    sim_rma_coll_args a = {0};
    a.size = size;
    a.disp_unit = disp_unit;
    a.baseptr = baseptr;
    SIM_RETURN(
        post_create("MPI_Win_allocate_shared", c, SIM_COLL_WIN_ALLOCATE_SHARED, &a, hints, win));
}
SIM_ALIAS(MPI_Win_allocate_shared);

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    SIM_ENTER("MPI_Win_create_dynamic");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    sim_call_args("%s", sim_comm_describe(c));
    const sim_info *hints;
    TRY(creation_checks(comm, "MPI_Win_create_dynamic", 0, 1, info, &hints, win));
    sim_rma_coll_args a = {0};
    a.disp_unit = 1;
    SIM_RETURN(
        post_create("MPI_Win_create_dynamic", c, SIM_COLL_WIN_CREATE_DYNAMIC, &a, hints, win));
}
SIM_ALIAS(MPI_Win_create_dynamic);

int PMPI_Win_free(MPI_Win *win) {
    SIM_ENTER("MPI_Win_free");
    TRY(sim_check_initialized());
    if (!win)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Win_free: win is NULL"));
    sim_win *w;
    int me;
    TRY(sim_win_check(*win, "MPI_Win_free", &w, &me));
    sim_call_args("win=0x%08x", (unsigned)*win);
    /* The attributes go first (their callbacks may still use the window);
     * one that fails leaves the window as it was. */
    MPI_Win handle = *win;
    char *why = NULL;
    int rc = sim_attr_delete_all(sim_self(), SIM_ATTR_WIN, handle, &why);
    if (rc != MPI_SUCCESS) {
        char msg[512];
        g_strlcpy(msg, why, sizeof msg);
        g_free(why);
        SIM_RETURN(sim_win_error(w, rc, "MPI_Win_free: %s", msg));
    }
    sim_held_drop_here(SIM_HELD_WIN, (uint32_t)handle);
    rc = sim_rma_free(w, me, win);
    if (rc == MPI_SUCCESS)
        sim_hints_drop(sim_self(), SIM_HINT_WIN, handle);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Win_free);

/* ---------------------------------------------------------------------- */
/* Dynamic windows                                                         */

static gint region_cmp(gconstpointer a, gconstpointer b) {
    const sim_win_region *x = a, *y = b;
    return x->base < y->base ? -1 : x->base > y->base;
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size) {
    SIM_ENTER("MPI_Win_attach");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_attach", &w, &me));
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        SIM_RETURN(sim_win_error(w, MPI_ERR_RMA_FLAVOR,
                                 "MPI_Win_attach: window 0x%08x was made by %s; memory can be "
                                 "attached only to windows of MPI_Win_create_dynamic",
                                 (unsigned)win,
                                 w->flavor == MPI_WIN_FLAVOR_ALLOCATE ? "MPI_Win_allocate"
                                 : w->flavor == MPI_WIN_FLAVOR_SHARED ? "MPI_Win_allocate_shared"
                                                                      : "MPI_Win_create"));
    if (size < 0)
        SIM_RETURN(
            sim_win_error(w, MPI_ERR_SIZE, "MPI_Win_attach: size %ld is negative", (long)size));
    if (!base && size > 0)
        SIM_RETURN(sim_win_error(w, MPI_ERR_BASE,
                                 "MPI_Win_attach: base is NULL but size is %ld bytes", (long)size));
    if (size <= INT_MAX) {
        sim_buf_part part = {.count = (int)size, .type = MPI_BYTE};
        char *why = NULL;
        int rc = sim_bufcheck("MPI_Win_attach", "base", base, &part, 1, true, &why);
        if (rc != MPI_SUCCESS)
            rc = sim_win_error(w, rc, "%s", why);
        g_free(why);
        TRY(rc);
    }
    GArray *regs = w->m[me].regions;
    char *from = base, *to = from + size;
    for (guint i = 0; i < regs->len; i++) {
        const sim_win_region *r = &g_array_index(regs, sim_win_region, i);
        if (from < r->base + r->size && r->base < to)
            SIM_RETURN(sim_win_error(w, MPI_ERR_RMA_ATTACH,
                                     "MPI_Win_attach: [%p, %p) overlaps memory attached before, "
                                     "[%p, %p)",
                                     (void *)from, (void *)to, (void *)r->base,
                                     (void *)(r->base + r->size)));
    }
    sim_win_region r = {from, size};
    g_array_append_val(regs, r);
    g_array_sort(regs, region_cmp);
    rma_hook_region(w, me, from, size, true);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_attach);

int PMPI_Win_detach(MPI_Win win, const void *base) {
    SIM_ENTER("MPI_Win_detach");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_detach", &w, &me));
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        SIM_RETURN(sim_win_error(w, MPI_ERR_RMA_FLAVOR,
                                 "MPI_Win_detach: window 0x%08x is not a dynamic window",
                                 (unsigned)win));
    GArray *regs = w->m[me].regions;
    for (guint i = 0; i < regs->len; i++)
        if (g_array_index(regs, sim_win_region, i).base == base) {
            rma_hook_region(w, me, (void *)base, g_array_index(regs, sim_win_region, i).size,
                            false);
            g_array_remove_index(regs, i);
            SIM_RETURN(MPI_SUCCESS);
        }
    SIM_RETURN(sim_win_error(w, MPI_ERR_RMA_ATTACH,
                             "MPI_Win_detach: no memory attached at %p to window 0x%08x",
                             (void *)base, (unsigned)win));
}
SIM_ALIAS(MPI_Win_detach);

/* ---------------------------------------------------------------------- */
/* Shared memory and memory allocation                                     */

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr) {
    SIM_ENTER("MPI_Win_shared_query");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_shared_query", &w, &me));
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        SIM_RETURN(sim_win_error(w, MPI_ERR_RMA_FLAVOR,
                                 "MPI_Win_shared_query: window 0x%08x was not made by "
                                 "MPI_Win_allocate_shared",
                                 (unsigned)win));
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
        SIM_RETURN(sim_win_error(w, MPI_ERR_RANK,
                                 "MPI_Win_shared_query: rank %d is not a rank of the window's "
                                 "group of %d",
                                 rank, w->size));
    if (!size || !disp_unit || !baseptr)
        SIM_RETURN(sim_win_error(w, MPI_ERR_ARG, "MPI_Win_shared_query: %s is NULL",
                                 !size        ? "size"
                                 : !disp_unit ? "disp_unit"
                                              : "baseptr"));
    int r = rank;
    if (r == MPI_PROC_NULL) { /* the lowest rank with memory (MPI 3.1 11.2.3) */
        r = 0;
        while (r < w->size - 1 && w->m[r].size == 0)
            r++;
    }
    *size = w->m[r].size;
    *disp_unit = w->m[r].disp_unit;
    *(void **)baseptr = w->m[r].base;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_shared_query);

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr) {
    SIM_ENTER("MPI_Alloc_mem");
    TRY(sim_check_initialized());
    if (size < 0)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_SIZE, "MPI_Alloc_mem: size %ld is negative",
                             (long)size));
    const sim_info *hints; /* none that ordex acts on */
    TRY(sim_info_arg(MPI_COMM_NULL, "MPI_Alloc_mem", info, &hints));
    if (!baseptr)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Alloc_mem: baseptr is NULL"));
    void *p = rank_alloc(size);
    if (!p)
        SIM_RETURN(no_memory(MPI_COMM_NULL, "MPI_Alloc_mem", size));
    sim_rma_alloc_mem_note(p, sim_self());
    *(void **)baseptr = p;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Alloc_mem);

int PMPI_Free_mem(void *base) {
    SIM_ENTER("MPI_Free_mem");
    TRY(sim_check_initialized());
    if (!sim_rma_alloc_mem_take(base, sim_self()))
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG,
                             "MPI_Free_mem: %p is not memory that this rank got from "
                             "MPI_Alloc_mem (or it was freed already)",
                             base));
    sched_arena_free(base);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Free_mem);

/* ---------------------------------------------------------------------- */
/* Groups, names, info, error handlers (attributes: mpi_attr.c)           */

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group) {
    SIM_ENTER("MPI_Win_get_group");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_get_group", &w, &me));
    if (!group)
        SIM_RETURN(sim_win_error(w, MPI_ERR_ARG, "MPI_Win_get_group: group is NULL"));
    int *members = g_new(int, w->size);
    for (int i = 0; i < w->size; i++)
        members[i] = w->m[i].world;
    *group = sim_group_new_for(sim_self(), w->size, members);
    if (*group != MPI_GROUP_EMPTY)
        sim_held_add_here(SIM_HELD_GROUP, (uint32_t)*group);
    g_free(members);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_get_group);

int PMPI_Win_set_name(MPI_Win win, const char *win_name) {
    SIM_ENTER("MPI_Win_set_name");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_set_name", &w, &me));
    if (!win_name)
        SIM_RETURN(sim_win_error(w, MPI_ERR_ARG, "MPI_Win_set_name: win_name is NULL"));
    g_strlcpy(w->m[me].name, win_name, sizeof w->m[me].name);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_set_name);

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen) {
    SIM_ENTER("MPI_Win_get_name");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_get_name", &w, &me));
    if (!win_name || !resultlen)
        SIM_RETURN(sim_win_error(w, MPI_ERR_ARG, "MPI_Win_get_name: %s is NULL",
                                 !win_name ? "win_name" : "resultlen"));
    g_strlcpy(win_name, w->m[me].name, MPI_MAX_OBJECT_NAME);
    *resultlen = (int)strlen(win_name);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_get_name);

int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
    SIM_ENTER("MPI_Win_set_info");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_set_info", &w, &me));
    const sim_info *given;
    TRY(sim_info_arg(w->comm->handle, "MPI_Win_set_info", info, &given));
    sim_hints_update(sim_self(), SIM_HINT_WIN, win, given);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_set_info);

/* The window hints of MPI 3.1 section 11.2.1 (MPI 4.0's same_disp_unit
 * too) with the values that hold when the program gives none: ordex
 * keeps every one of these, so a window's info answers them all. */
static const char *const g_win_hints[][2] = {
    {"no_locks", "false"},
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
    {"same_size", "false"},
    {"same_disp_unit", "false"},
    {"alloc_shared_noncontig", "false"},
};

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used) {
    SIM_ENTER("MPI_Win_get_info");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_get_info", &w, &me));
    if (!info_used)
        SIM_RETURN(sim_win_error(w, MPI_ERR_ARG, "MPI_Win_get_info: info_used is NULL"));
    const sim_info *given = sim_hints_get(sim_self(), SIM_HINT_WIN, win);
    *info_used = sim_info_create(sim_self());
    char *why = NULL;
    sim_info *out = sim_info_lookup(sim_self(), *info_used, &why);
    for (size_t i = 0; i < G_N_ELEMENTS(g_win_hints); i++) {
        const char *v = given ? sim_info_get(given, g_win_hints[i][0]) : NULL;
        sim_info_set(out, g_win_hints[i][0], v ? v : g_win_hints[i][1]);
    }
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_get_info);

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
    SIM_ENTER("MPI_Win_set_errhandler");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_set_errhandler", &w, &me));
    char *why = NULL;
    int rc = sim_errh_check(sim_self(), errhandler, SIM_ERRH_WIN, &why);
    if (rc != MPI_SUCCESS) {
        char msg[512];
        g_strlcpy(msg, why, sizeof msg);
        g_free(why);
        SIM_RETURN(sim_win_error(w, rc, "MPI_Win_set_errhandler: %s", msg));
    }
    sim_win_set_errhandler(w, me, errhandler);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_set_errhandler);

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_Win_get_errhandler");
    TRY(sim_check_initialized());
    sim_win *w;
    int me;
    TRY(sim_win_check(win, "MPI_Win_get_errhandler", &w, &me));
    if (!errhandler)
        SIM_RETURN(sim_win_error(w, MPI_ERR_ARG, "MPI_Win_get_errhandler: errhandler is NULL"));
    *errhandler = sim_win_errhandler(w, me);
    sim_errh_ref(sim_self(), *errhandler); /* a new handle the program frees */
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Win_get_errhandler);

/* ---------------------------------------------------------------------- */
/* Communication                                                           */

static int count_check(sim_win *w, const char *call, const char *name, int count) {
    if (count < 0)
        return sim_win_error(w, MPI_ERR_COUNT, "%s: %s %d is negative", call, name, count);
    return MPI_SUCCESS;
}

static int type_check(sim_win *w, const char *call, const char *name, MPI_Datatype type) {
    char *why = NULL;
    const sim_datatype *dt = sim_dt_lookup(type, sim_self(), name, &why);
    if (!dt) {
        int rc = sim_win_error(w, MPI_ERR_TYPE, "%s: %s", call, why);
        g_free(why);
        return rc;
    }
    if (!sim_dt_committed(dt))
        return sim_win_error(w, MPI_ERR_TYPE, "%s: %s %s is not committed (MPI_Type_commit)", call,
                             name, sim_dt_name(type));
    return MPI_SUCCESS;
}

/* One buffer of an operation against its memory object. */
static int buffer_check(sim_win *w, const char *call, const char *arg, const void *buf, int count,
                        MPI_Datatype type, bool writes) {
    sim_buf_part part = {.count = count, .type = type};
    char *why = NULL;
    int rc = count > 0 ? sim_bufcheck(call, arg, buf, &part, 1, writes, &why) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        rc = sim_win_error(w, rc, "%s", why);
    g_free(why);
    return rc;
}

/* The origin, compare and result buffers, as far as the operation uses them. */
static int buffers_check(sim_win *w, const sim_rma_issue_args *a) {
    const sim_rma_xfer *x = &a->x;
    if (a->target == MPI_PROC_NULL)
        return MPI_SUCCESS;
    bool reads_origin =
        x->kind == SIM_RMA_PUT || x->kind == SIM_RMA_ACC || x->kind == SIM_RMA_CAS ||
        ((x->kind == SIM_RMA_GET_ACC || x->kind == SIM_RMA_FOP) && x->op != MPI_NO_OP);
    int rc = MPI_SUCCESS;
    if (reads_origin || x->kind == SIM_RMA_GET)
        rc = buffer_check(w, a->call, "origin_addr", x->origin,
                          x->kind == SIM_RMA_FOP || x->kind == SIM_RMA_CAS ? 1 : x->ocount,
                          x->kind == SIM_RMA_FOP || x->kind == SIM_RMA_CAS ? x->ttype : x->otype,
                          x->kind == SIM_RMA_GET);
    if (rc == MPI_SUCCESS && x->kind == SIM_RMA_CAS)
        rc = buffer_check(w, a->call, "compare_addr", x->compare, 1, x->ttype, false);
    if (rc == MPI_SUCCESS && x->result)
        rc = buffer_check(w, a->call, "result_addr", x->result, x->rcount, x->rtype, true);
    return rc;
}

/* Checks the arguments of an operation on `win` and issues it; the request
 * of request-based calls goes to *request. */
static int issue(MPI_Win win, sim_rma_issue_args *a, MPI_Request *request) {
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    sim_win *w;
    int me;
    if ((rc = sim_win_check(win, a->call, &w, &me)) != MPI_SUCCESS)
        return rc;
    const sim_rma_xfer *x = &a->x;
    bool origin = x->kind == SIM_RMA_PUT || x->kind == SIM_RMA_GET || x->kind == SIM_RMA_ACC ||
                  (x->kind == SIM_RMA_GET_ACC && x->op != MPI_NO_OP);
    bool single = x->kind == SIM_RMA_FOP || x->kind == SIM_RMA_CAS;
    if (origin && ((rc = count_check(w, a->call, "origin_count", x->ocount)) != MPI_SUCCESS ||
                   (rc = type_check(w, a->call, "origin_datatype", x->otype)) != MPI_SUCCESS))
        return rc;
    if (x->kind == SIM_RMA_GET_ACC &&
        ((rc = count_check(w, a->call, "result_count", x->rcount)) != MPI_SUCCESS ||
         (rc = type_check(w, a->call, "result_datatype", x->rtype)) != MPI_SUCCESS))
        return rc;
    if (!single && (rc = count_check(w, a->call, "target_count", x->tcount)) != MPI_SUCCESS)
        return rc;
    if ((rc = type_check(w, a->call, single ? "datatype" : "target_datatype", x->ttype)) !=
        MPI_SUCCESS)
        return rc;
    if ((rc = buffers_check(w, a)) != MPI_SUCCESS)
        return rc;
    sim_request *req = NULL;
    rc = sim_rma_issue(w, me, a, request ? &req : NULL);
    if (rc != MPI_SUCCESS || !request)
        return rc;
    if (!req) { /* MPI_PROC_NULL: nothing to do, at once */
        req = sim_req_new(SIM_REQ_RMA, a->call);
        sim_req_complete(req);
    }
    *request = sim_request_publish(req);
    return MPI_SUCCESS;
}

static sim_rma_issue_args op_args(const char *call, sim_rma_kind kind, const void *origin,
                                  int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
                                  int tcount, MPI_Datatype ttype) {
    sim_rma_issue_args a = {0};
    a.call = call;
    a.x.kind = kind;
    a.x.origin = (void *)origin;
    a.x.ocount = ocount;
    a.x.otype = otype;
    a.x.tcount = tcount;
    a.x.ttype = ttype;
    a.x.op = MPI_OP_NULL;
    a.target = target;
    a.disp = disp;
    return a;
}

static int null_request(const char *call) {
    return sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "%s: request is NULL", call);
}

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win) {
    SIM_ENTER("MPI_Put");
    sim_rma_issue_args a =
        op_args("MPI_Put", SIM_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank,
                target_disp, target_count, target_datatype);
    SIM_RETURN(issue(win, &a, NULL));
}
SIM_ALIAS(MPI_Put);

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
    SIM_ENTER("MPI_Get");
    sim_rma_issue_args a =
        op_args("MPI_Get", SIM_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank,
                target_disp, target_count, target_datatype);
    SIM_RETURN(issue(win, &a, NULL));
}
SIM_ALIAS(MPI_Get);

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
    SIM_ENTER("MPI_Accumulate");
    sim_rma_issue_args a =
        op_args("MPI_Accumulate", SIM_RMA_ACC, origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype);
    a.x.op = op;
    SIM_RETURN(issue(win, &a, NULL));
}
SIM_ALIAS(MPI_Accumulate);

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
    SIM_ENTER("MPI_Get_accumulate");
    sim_rma_issue_args a =
        op_args("MPI_Get_accumulate", SIM_RMA_GET_ACC, origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype);
    a.x.result = result_addr;
    a.x.rcount = result_count;
    a.x.rtype = result_datatype;
    a.x.op = op;
    SIM_RETURN(issue(win, &a, NULL));
}
SIM_ALIAS(MPI_Get_accumulate);

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
    SIM_ENTER("MPI_Fetch_and_op");
    sim_rma_issue_args a = op_args("MPI_Fetch_and_op", SIM_RMA_FOP, origin_addr, 1, datatype,
                                   target_rank, target_disp, 1, datatype);
    a.x.result = result_addr;
    a.x.rcount = 1;
    a.x.rtype = datatype;
    a.x.op = op;
    SIM_RETURN(issue(win, &a, NULL));
}
SIM_ALIAS(MPI_Fetch_and_op);

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win) {
    SIM_ENTER("MPI_Compare_and_swap");
    sim_rma_issue_args a = op_args("MPI_Compare_and_swap", SIM_RMA_CAS, origin_addr, 1, datatype,
                                   target_rank, target_disp, 1, datatype);
    a.x.result = result_addr;
    a.x.rcount = 1;
    a.x.rtype = datatype;
    a.x.compare = compare_addr;
    SIM_RETURN(issue(win, &a, NULL));
}
SIM_ALIAS(MPI_Compare_and_swap);

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request *request) {
    SIM_ENTER("MPI_Rput");
    if (!request)
        SIM_RETURN(null_request("MPI_Rput"));
    sim_rma_issue_args a =
        op_args("MPI_Rput", SIM_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank,
                target_disp, target_count, target_datatype);
    a.request = true;
    SIM_RETURN(issue(win, &a, request));
}
SIM_ALIAS(MPI_Rput);

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request) {
    SIM_ENTER("MPI_Rget");
    if (!request)
        SIM_RETURN(null_request("MPI_Rget"));
    sim_rma_issue_args a =
        op_args("MPI_Rget", SIM_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank,
                target_disp, target_count, target_datatype);
    a.request = true;
    SIM_RETURN(issue(win, &a, request));
}
SIM_ALIAS(MPI_Rget);

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
    SIM_ENTER("MPI_Raccumulate");
    if (!request)
        SIM_RETURN(null_request("MPI_Raccumulate"));
    sim_rma_issue_args a =
        op_args("MPI_Raccumulate", SIM_RMA_ACC, origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype);
    a.x.op = op;
    a.request = true;
    SIM_RETURN(issue(win, &a, request));
}
SIM_ALIAS(MPI_Raccumulate);

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                         MPI_Request *request) {
    SIM_ENTER("MPI_Rget_accumulate");
    if (!request)
        SIM_RETURN(null_request("MPI_Rget_accumulate"));
    sim_rma_issue_args a =
        op_args("MPI_Rget_accumulate", SIM_RMA_GET_ACC, origin_addr, origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype);
    a.x.result = result_addr;
    a.x.rcount = result_count;
    a.x.rtype = result_datatype;
    a.x.op = op;
    a.request = true;
    SIM_RETURN(issue(win, &a, request));
}
SIM_ALIAS(MPI_Rget_accumulate);
