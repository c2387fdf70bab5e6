/*
 * mpi_comm.c - the MPI API of communicators, groups and Cartesian
 * topologies (MPI 3.1 chapters 6 and 7), on top of comm.c.
 *
 * Argument checks live here so that every error is reported from the call
 * that made it, naming the argument and its value; comm.c holds the data
 * structures and the arithmetic.  Constructors are collectives: they post
 * to coll.c and block until sim_comm_exec_create has made the communicator.
 */
#include <string.h>

#include "simulator/attr.h"
#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/engine.h"
#include "simulator/errhandler.h"
#include "simulator/held.h"
#include "simulator/info.h"
#include "simulator/intercomm.h"
#include "simulator/request.h"
#include "simulator/sim_internal.h"

/* Returns from the MPI function when expr reports an error. */
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int sim_try_rc_ = (expr);                                                                  \
        if (sim_try_rc_ != MPI_SUCCESS)                                                            \
            SIM_RETURN(sim_try_rc_);                                                               \
    } while (0)

static int null_arg(MPI_Comm comm, const char *fn, const char *arg) {
    return sim_error(comm, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

/* Reports an error found by comm.c; why is consumed. */
static int report(MPI_Comm comm, const char *fn, int errclass, char *why) {
    char buf[512];
    g_strlcpy(buf, why, sizeof buf); /* sim_error may not return: nothing left to free then */
    g_free(why);
    return sim_error(comm, errclass, "%s: %s", fn, buf);
}

int sim_comm_check(MPI_Comm handle, sim_comm **out) {
    int self = sim_self();
    sim_comm *c = sim_comm_get(handle, self);
    if (out)
        *out = c;
    if (c)
        return MPI_SUCCESS;
    const char *fn = sim_proc_of(self)->call;
    if (!fn)
        fn = "MPI";
    if (handle == MPI_COMM_NULL)
        return sim_error(MPI_COMM_NULL, MPI_ERR_COMM, "%s: the communicator is MPI_COMM_NULL", fn);
    return sim_error(MPI_COMM_NULL, MPI_ERR_COMM, "%s: communicator 0x%08x %s", fn,
                     (unsigned)handle, sim_comm_why_invalid(handle, self));
}

static int group_check(MPI_Group handle, const char *fn, const char *arg, sim_group **out) {
    int self = sim_self();
    *out = sim_group_get_for(handle, self);
    if (*out)
        return MPI_SUCCESS;
    return sim_error(MPI_COMM_NULL, MPI_ERR_GROUP, "%s: %s (0x%08x) %s", fn, arg, (unsigned)handle,
                     sim_group_why_invalid(handle, self));
}

static int cart_check(MPI_Comm comm, const char *fn, sim_comm **out) {
    int rc = sim_comm_check(comm, out);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!*out)
        return MPI_ERR_COMM;
    if (!(*out)->cart)
        return sim_error(comm, MPI_ERR_TOPOLOGY, "%s: %s has no Cartesian topology", fn,
                         sim_comm_describe(*out));
    return MPI_SUCCESS;
}

static char *ints_text(int n, const int *v) {
    GString *s = g_string_new("(");
    for (int i = 0; v && i < n; i++)
        g_string_append_printf(s, i ? ", %d" : "%d", v[i]);
    g_string_append_c(s, ')');
    return g_string_free(s, FALSE);
}

/* Posts a constructor collective and waits for its new communicator.
 * *newcomm is MPI_COMM_NULL until the collective writes it, so that every
 * failure leaves the program a null handle. */
static int post_constructor(sim_comm *c, sim_coll_kind kind, sim_coll_args *a, MPI_Comm *newcomm) {
    *newcomm = MPI_COMM_NULL;
    a->newcomm = newcomm;
    sim_request *req = sim_coll_post(c, kind, a);
    if (!req)
        return MPI_ERR_OTHER; /* the mismatch went through sim_error already */
    /* On an intercommunicator's `both`, errors are the caller's side's, under
     * its error handler. */
    if (c->inter)
        req->comm = sim_comm_rank(c->inter, sim_self()) >= 0 ? c->inter : c->inter->remote;
    int rc = sim_request_wait(req, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL)
        sim_held_add_here(SIM_HELD_COMM, (uint32_t)*newcomm);
    return rc;
}

/* The end of MPI_Comm_dup and its variants, once the new communicator
 * exists: the calling rank's attributes are copied (their copy callbacks
 * decide) and its hints set.  A failing copy callback fails the call:
 * the rank's handle to the new communicator is freed again. */
static int dup_finish(const char *fn, MPI_Comm comm, const sim_info *hints, MPI_Comm *newcomm) {
    int self = sim_self();
    char *why = NULL;
    int rc = sim_attr_copy_all(sim_self(), SIM_ATTR_COMM, comm, *newcomm, &why);
    if (rc != MPI_SUCCESS) {
        sim_comm_release(sim_comm_get(*newcomm, self), self);
        *newcomm = MPI_COMM_NULL;
        return report(comm, fn, rc, why);
    }
    sim_hints_set(self, SIM_HINT_COMM, *newcomm, hints);
    return MPI_SUCCESS;
}

static int dup_common(const char *fn, MPI_Comm comm, sim_comm *c, const sim_info *hints,
                      MPI_Comm *newcomm) {
    sim_coll_args a = {0};
    /* An intercommunicator's duplicate is made by both groups together. */
    int rc = c->remote ? post_constructor(c->both, SIM_COLL_INTERCOMM_DUP, &a, newcomm)
                       : post_constructor(c, SIM_COLL_COMM_DUP, &a, newcomm);
    if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL)
        return rc;
    return dup_finish(fn, comm, hints, newcomm);
}

/* Calls that take intracommunicators only: an intercommunicator is an
 * MPI error, or (mpi_allows) one of the uses MPI allows that ordex does not
 * implement. */
static int intra_only(sim_comm *c, const char *fn, bool mpi_allows) {
    if (!c->remote)
        return MPI_SUCCESS;
    if (mpi_allows)
        sim_unsupported("%s on an intercommunicator (%s)", fn, sim_comm_describe(c));
    return sim_error(c->handle, MPI_ERR_COMM,
                     "%s: %s is an intercommunicator; %s takes an "
                     "intracommunicator",
                     fn, sim_comm_describe(c), fn);
}

/* ---------------------------------------------------------------------- */
/* Communicators                                                           */

int PMPI_Comm_size(MPI_Comm comm, int *size) {
    SIM_ENTER("MPI_Comm_size");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!size)
        SIM_RETURN(null_arg(comm, "MPI_Comm_size", "size"));
    *size = c->size;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_size);

int PMPI_Comm_rank(MPI_Comm comm, int *rank) {
    SIM_ENTER("MPI_Comm_rank");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!rank)
        SIM_RETURN(null_arg(comm, "MPI_Comm_rank", "rank"));
    *rank = sim_comm_rank(c, sim_self());
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_rank);

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    SIM_ENTER("MPI_Comm_dup");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_dup", "newcomm"));
    sim_call_args("comm=%s", sim_comm_describe(c));
    SIM_RETURN(dup_common("MPI_Comm_dup", comm, c, sim_hints_get(sim_self(), SIM_HINT_COMM, comm),
                          newcomm));
}
SIM_ALIAS(MPI_Comm_dup);

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    SIM_ENTER("MPI_Comm_dup_with_info");
    sim_comm *c;
    const sim_info *hints;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(sim_info_arg(comm, "MPI_Comm_dup_with_info", info, &hints));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_dup_with_info", "newcomm"));
    sim_call_args("comm=%s info=0x%08x", sim_comm_describe(c), (unsigned)info);
    SIM_RETURN(dup_common("MPI_Comm_dup_with_info", comm, c, hints, newcomm));
}
SIM_ALIAS(MPI_Comm_dup_with_info);

/* What a member's MPI_Comm_idup prepared for its new communicator. */
typedef struct idup_pending {
    sim_attr_list *attrs;
    sim_info *hints; /* a copy, or NULL */
} idup_pending;

void sim_comm_idup_done(int world_rank, sim_coll_args *args, bool ok) {
    idup_pending *p = args->idup;
    args->idup = NULL;
    MPI_Comm h = ok ? *args->newcomm : MPI_COMM_NULL;
    if (h != MPI_COMM_NULL) {
        sim_attr_attach(world_rank, SIM_ATTR_COMM, h, p->attrs);
        sim_hints_set(world_rank, SIM_HINT_COMM, h, p->hints);
    } else {
        sim_attr_discard(world_rank, p->attrs);
    }
    if (p->hints)
        sim_info_release(p->hints);
    g_free(p);
}

/* MPI_Comm_idup and MPI_Comm_idup_with_info: the attributes are copied at
 * the call (their callbacks run now, as MPICH runs them), the new
 * communicator gets them when the collective completes. */
static int idup_common(const char *fn, MPI_Comm comm, sim_comm *c, const sim_info *hints,
                       MPI_Comm *newcomm, MPI_Request *request) {
    int self = sim_self();
    idup_pending *p = g_new0(idup_pending, 1);
    char *why = NULL;
    int rc = sim_attr_copy_out(self, SIM_ATTR_COMM, comm, MPI_COMM_NULL, &p->attrs, &why);
    if (rc != MPI_SUCCESS) {
        g_free(p);
        return report(comm, fn, rc, why);
    }
    p->hints = hints ? sim_info_clone(hints) : NULL;
    *newcomm = MPI_COMM_NULL;
    sim_coll_args a = {0};
    a.newcomm = newcomm;
    a.idup = p;
    a.nonblocking = true; /* never matches a blocking MPI_Comm_dup */
    sim_request *req = c->remote ? sim_coll_post(c->both, SIM_COLL_INTERCOMM_DUP, &a)
                                 : sim_coll_post(c, SIM_COLL_COMM_DUP, &a);
    if (!req) {
        sim_attr_discard(self, p->attrs);
        if (p->hints)
            sim_info_release(p->hints);
        g_free(p);
        return MPI_ERR_OTHER; /* the mismatch went through sim_error already */
    }
    *request = sim_request_publish(req);
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) {
    SIM_ENTER("MPI_Comm_idup");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_idup", "newcomm"));
    if (!request)
        SIM_RETURN(null_arg(comm, "MPI_Comm_idup", "request"));
    sim_call_args("comm=%s", sim_comm_describe(c));
    SIM_RETURN(idup_common("MPI_Comm_idup", comm, c, sim_hints_get(sim_self(), SIM_HINT_COMM, comm),
                           newcomm, request));
}
SIM_ALIAS(MPI_Comm_idup);

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request) {
    SIM_ENTER("MPI_Comm_idup_with_info");
    sim_comm *c;
    const sim_info *hints;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(sim_info_arg(comm, "MPI_Comm_idup_with_info", info, &hints));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_idup_with_info", "newcomm"));
    if (!request)
        SIM_RETURN(null_arg(comm, "MPI_Comm_idup_with_info", "request"));
    sim_call_args("comm=%s info=0x%08x", sim_comm_describe(c), (unsigned)info);
    SIM_RETURN(idup_common("MPI_Comm_idup_with_info", comm, c, hints, newcomm, request));
}
SIM_ALIAS(MPI_Comm_idup_with_info);

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    SIM_ENTER("MPI_Comm_set_info");
    sim_comm *c;
    const sim_info *given;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(sim_info_arg(comm, "MPI_Comm_set_info", info, &given));
    sim_hints_update(sim_self(), SIM_HINT_COMM, comm, given);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_set_info);

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used) {
    SIM_ENTER("MPI_Comm_get_info");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!info_used)
        SIM_RETURN(null_arg(comm, "MPI_Comm_get_info", "info_used"));
    /* ordex acts on no communicator hint: it returns those the program
     * gave, as given. */
    *info_used = sim_info_dup(sim_self(), sim_hints_get(sim_self(), SIM_HINT_COMM, comm));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_get_info);

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    SIM_ENTER("MPI_Comm_split");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));

    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_split", "newcomm"));
    if (color < 0 && color != MPI_UNDEFINED)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG,
                             "MPI_Comm_split: color = %d is negative (must be >= 0 or "
                             "MPI_UNDEFINED)",
                             color));
    if (color == MPI_UNDEFINED)
        sim_call_args("comm=%s color=MPI_UNDEFINED key=%d", sim_comm_describe(c), key);
    else
        sim_call_args("comm=%s color=%d key=%d", sim_comm_describe(c), color, key);
    sim_coll_args a = {0};
    a.color = color;
    a.key = key;
    /* An intercommunicator's groups split together (coll_inter.c). */
    SIM_RETURN(post_constructor(c->remote ? c->both : c, SIM_COLL_COMM_SPLIT, &a, newcomm));
}
SIM_ALIAS(MPI_Comm_split);

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
    SIM_ENTER("MPI_Comm_split_type");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(intra_only(c, "MPI_Comm_split_type", false));
    const sim_info *hints;
    TRY(sim_info_arg(comm, "MPI_Comm_split_type", info, &hints));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_split_type", "newcomm"));
    if (split_type != MPI_UNDEFINED && split_type != MPI_COMM_TYPE_SHARED &&
        split_type != MPI_COMM_TYPE_HW_GUIDED && split_type != MPI_COMM_TYPE_HW_UNGUIDED)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG,
                             "MPI_Comm_split_type: split_type = %d is not MPI_COMM_TYPE_SHARED, "
                             "MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_HW_UNGUIDED or MPI_UNDEFINED",
                             split_type));
    sim_call_args("comm=%s split_type=%d key=%d", sim_comm_describe(c), split_type, key);
    sim_coll_args a = {0};
    a.color = split_type;
    a.key = key;
    SIM_RETURN(post_constructor(c, SIM_COLL_COMM_SPLIT_TYPE, &a, newcomm));
}
SIM_ALIAS(MPI_Comm_split_type);

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
    SIM_ENTER("MPI_Comm_create");
    sim_comm *c;
    sim_group *g;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(group_check(group, "MPI_Comm_create", "group", &g));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_create", "newcomm"));
    sim_call_args("comm=%s group=0x%08x (%d member%s)", sim_comm_describe(c), (unsigned)group,
                  g->size, g->size == 1 ? "" : "s");
    sim_coll_args a = {0};
    a.group = group;
    /* On an intercommunicator each group passes a subgroup of its own, and
     * both meet (coll_inter.c). */
    SIM_RETURN(post_constructor(c->remote ? c->both : c, SIM_COLL_COMM_CREATE, &a, newcomm));
}
SIM_ALIAS(MPI_Comm_create);

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) {
    SIM_ENTER("MPI_Comm_create_group");
    sim_comm *c;
    sim_group *g;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(intra_only(c, "MPI_Comm_create_group", false));
    TRY(group_check(group, "MPI_Comm_create_group", "group", &g));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Comm_create_group", "newcomm"));
    if (tag < 0 || tag > SIM_TAG_UB)
        SIM_RETURN(sim_error(comm, MPI_ERR_TAG,
                             "MPI_Comm_create_group: tag %d is outside 0..MPI_TAG_UB (%d)", tag,
                             SIM_TAG_UB));
    for (int i = 0; i < g->size; i++)
        if (sim_comm_rank(c, g->members[i]) < 0)
            SIM_RETURN(sim_error(comm, MPI_ERR_GROUP,
                                 "MPI_Comm_create_group: the group is not a subgroup of %s: its "
                                 "rank %d is world rank %d, not a member",
                                 sim_comm_describe(c), i, g->members[i]));
    sim_call_args("comm=%s group=0x%08x (%d member%s) tag=%d", sim_comm_describe(c),
                  (unsigned)group, g->size, g->size == 1 ? "" : "s", tag);
    int self = sim_self();
    /* Collective over the group's members only; the others get
     * MPI_COMM_NULL at once (as for MPI_GROUP_EMPTY). */
    if (sim_group_rank(g, self) < 0) {
        *newcomm = MPI_COMM_NULL;
        SIM_RETURN(MPI_SUCCESS);
    }
    sim_comm *gc = sim_comm_for_group(c, g, tag);
    sim_coll_args a = {0};
    SIM_RETURN(post_constructor(gc, SIM_COLL_COMM_DUP, &a, newcomm));
}
SIM_ALIAS(MPI_Comm_create_group);

int PMPI_Comm_free(MPI_Comm *comm) {
    SIM_ENTER("MPI_Comm_free");
    sim_comm *c;
    TRY(sim_check_initialized());
    if (!comm)
        SIM_RETURN(null_arg(MPI_COMM_NULL, "MPI_Comm_free", "comm"));
    TRY(sim_comm_check(*comm, &c));
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        SIM_RETURN(sim_error(*comm, MPI_ERR_COMM, "MPI_Comm_free: %s cannot be freed",
                             *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF"));
    /* The attributes go first (MPI 3.1 section 6.7.2): a delete callback
     * that fails leaves the communicator as it was. */
    char *why = NULL;
    int rc = sim_attr_delete_all(sim_self(), SIM_ATTR_COMM, *comm, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(*comm, "MPI_Comm_free", rc, why));
    sim_hints_drop(sim_self(), SIM_HINT_COMM, *comm);
    sim_comm_release(c, sim_self());
    sim_held_drop_here(SIM_HELD_COMM, (uint32_t)*comm);
    *comm = MPI_COMM_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_free);

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result) {
    SIM_ENTER("MPI_Comm_compare");
    sim_comm *a, *b;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm1, &a));
    TRY(sim_comm_check(comm2, &b));
    if (!result)
        SIM_RETURN(null_arg(comm1, "MPI_Comm_compare", "result"));
    if (!a->remote != !b->remote) {
        *result = MPI_UNEQUAL; /* an intercommunicator and an intracommunicator */
    } else if (a == b || !a->remote) {
        *result = sim_comm_compare(a, b);
    } else {
        /* Two intercommunicators: their local and their remote groups. */
        int local = sim_comm_compare(a, b), remote = sim_comm_compare(a->remote, b->remote);
        *result = local == MPI_UNEQUAL || remote == MPI_UNEQUAL   ? MPI_UNEQUAL
                  : local == MPI_SIMILAR || remote == MPI_SIMILAR ? MPI_SIMILAR
                                                                  : MPI_CONGRUENT;
    }
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_compare);

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group) {
    SIM_ENTER("MPI_Comm_group");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!group)
        SIM_RETURN(null_arg(comm, "MPI_Comm_group", "group"));
    *group = sim_comm_group(c, sim_self());
    if (*group != MPI_GROUP_EMPTY)
        sim_held_add_here(SIM_HELD_GROUP, (uint32_t)*group);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_group);

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag) {
    SIM_ENTER("MPI_Comm_test_inter");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!flag)
        SIM_RETURN(null_arg(comm, "MPI_Comm_test_inter", "flag"));
    *flag = c->remote != NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_test_inter);

/* The intercommunicator argument of a call that needs one. */
static int inter_check(MPI_Comm comm, const char *fn, sim_comm **out) {
    int rc = sim_comm_check(comm, out);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!(*out)->remote)
        return sim_error(comm, MPI_ERR_COMM, "%s: %s is not an intercommunicator", fn,
                         sim_comm_describe(*out));
    return MPI_SUCCESS;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size) {
    SIM_ENTER("MPI_Comm_remote_size");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(inter_check(comm, "MPI_Comm_remote_size", &c));
    if (!size)
        SIM_RETURN(null_arg(comm, "MPI_Comm_remote_size", "size"));
    *size = c->remote->size;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_remote_size);

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group) {
    SIM_ENTER("MPI_Comm_remote_group");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(inter_check(comm, "MPI_Comm_remote_group", &c));
    if (!group)
        SIM_RETURN(null_arg(comm, "MPI_Comm_remote_group", "group"));
    *group = sim_comm_group(c->remote, sim_self());
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_remote_group);

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm) {
    SIM_ENTER("MPI_Intercomm_create");
    const char *fn = "MPI_Intercomm_create";
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(local_comm, &c));
    TRY(intra_only(c, fn, false));
    if (!newintercomm)
        SIM_RETURN(null_arg(local_comm, fn, "newintercomm"));
    if (local_leader < 0 || local_leader >= c->size)
        SIM_RETURN(sim_error(local_comm, MPI_ERR_RANK,
                             "%s: local_leader %d is not a rank of %s (size %d)", fn, local_leader,
                             sim_comm_describe(c), c->size));
    int self = sim_self();
    sim_intercomm_args *ia = g_new0(sim_intercomm_args, 1);
    /* peer_comm, remote_leader and tag count at the local leader only. */
    if (sim_comm_rank(c, self) == local_leader) {
        sim_comm *peer;
        int rc = sim_comm_check(peer_comm, &peer);
        if (rc == MPI_SUCCESS && peer->remote)
            rc = sim_error(local_comm, MPI_ERR_COMM,
                           "%s: peer_comm %s is an intercommunicator; the leaders meet on an "
                           "intracommunicator",
                           fn, sim_comm_describe(peer));
        if (rc == MPI_SUCCESS && (remote_leader < 0 || remote_leader >= peer->size))
            rc = sim_error(local_comm, MPI_ERR_RANK,
                           "%s: remote_leader %d is not a rank of peer_comm %s (size %d)", fn,
                           remote_leader, sim_comm_describe(peer), peer->size);
        if (rc == MPI_SUCCESS && sim_comm_world(peer, remote_leader) == self)
            rc = sim_error(local_comm, MPI_ERR_RANK,
                           "%s: remote_leader %d of peer_comm is this rank, the local leader; "
                           "the other group's leader is another process",
                           fn, remote_leader);
        if (rc == MPI_SUCCESS && (tag < 0 || tag > SIM_TAG_UB))
            rc = sim_error(local_comm, MPI_ERR_TAG, "%s: tag %d is outside 0..MPI_TAG_UB (%d)", fn,
                           tag, SIM_TAG_UB);
        if (rc != MPI_SUCCESS) {
            g_free(ia);
            SIM_RETURN(rc);
        }
        ia->peer = peer;
        ia->remote_leader = remote_leader;
        ia->tag = tag;
        sim_call_args("local_comm=%s local_leader=%d peer_comm=%s remote_leader=%d tag=%d",
                      sim_comm_describe(c), local_leader, sim_comm_describe(peer), remote_leader,
                      tag);
    } else {
        sim_call_args("local_comm=%s local_leader=%d", sim_comm_describe(c), local_leader);
    }
    sim_coll_args a = {0};
    a.root = local_leader;
    a.inter = ia;
    int rc = post_constructor(c, SIM_COLL_INTERCOMM_CREATE, &a, newintercomm);
    g_free(ia); /* read by the group's collective, which has run */
    if (rc == MPI_SUCCESS)
        rc = sim_intercomm_await(self, newintercomm);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Intercomm_create);

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm) {
    SIM_ENTER("MPI_Intercomm_merge");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(inter_check(intercomm, "MPI_Intercomm_merge", &c));
    if (!newintracomm)
        SIM_RETURN(null_arg(intercomm, "MPI_Intercomm_merge", "newintracomm"));
    sim_call_args("intercomm=%s high=%d", sim_comm_describe(c), high);
    sim_coll_args a = {0};
    a.color = high != 0;
    SIM_RETURN(post_constructor(c->both, SIM_COLL_INTERCOMM_MERGE, &a, newintracomm));
}
SIM_ALIAS(MPI_Intercomm_merge);

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name) {
    SIM_ENTER("MPI_Comm_set_name");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!comm_name)
        SIM_RETURN(null_arg(comm, "MPI_Comm_set_name", "comm_name"));
    sim_comm_set_name(c, sim_self(), comm_name);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_set_name);

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen) {
    SIM_ENTER("MPI_Comm_get_name");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!comm_name)
        SIM_RETURN(null_arg(comm, "MPI_Comm_get_name", "comm_name"));
    if (!resultlen)
        SIM_RETURN(null_arg(comm, "MPI_Comm_get_name", "resultlen"));
    /* Names are kept shorter than MPI_MAX_OBJECT_NAME, the buffer size MPI
     * requires of the caller. */
    size_t len = g_strlcpy(comm_name, sim_comm_name(c, sim_self()), MPI_MAX_OBJECT_NAME);
    *resultlen = (int)len;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Comm_get_name);

static int set_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler) {
    sim_comm *c;
    int rc = sim_comm_check(comm, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    char *why = NULL;
    rc = sim_errh_check(sim_self(), errhandler, SIM_ERRH_COMM, &why);
    if (rc != MPI_SUCCESS)
        return report(comm, fn, rc, why);
    sim_comm_set_errhandler(c, sim_self(), errhandler);
    return MPI_SUCCESS;
}

static int get_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler) {
    sim_comm *c;
    int rc = sim_comm_check(comm, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!errhandler)
        return null_arg(comm, fn, "errhandler");
    *errhandler = sim_comm_errhandler(c, sim_self());
    sim_errh_ref(sim_self(),
                 *errhandler); /* a new handle the program frees (MPI 3.1 section 8.3.1) */
    return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
    SIM_ENTER("MPI_Comm_set_errhandler");
    TRY(sim_check_initialized());
    SIM_RETURN(set_errhandler("MPI_Comm_set_errhandler", comm, errhandler));
}
SIM_ALIAS(MPI_Comm_set_errhandler);

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_Comm_get_errhandler");
    TRY(sim_check_initialized());
    SIM_RETURN(get_errhandler("MPI_Comm_get_errhandler", comm, errhandler));
}
SIM_ALIAS(MPI_Comm_get_errhandler);

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
    SIM_ENTER("MPI_Errhandler_set");
    TRY(sim_check_initialized());
    SIM_RETURN(set_errhandler("MPI_Errhandler_set", comm, errhandler));
}
SIM_ALIAS(MPI_Errhandler_set);

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_Errhandler_get");
    TRY(sim_check_initialized());
    SIM_RETURN(get_errhandler("MPI_Errhandler_get", comm, errhandler));
}
SIM_ALIAS(MPI_Errhandler_get);

/* ---------------------------------------------------------------------- */
/* Groups                                                                  */

/* Errors not tied to a communicator go to MPI_COMM_WORLD's handler (MPI 3.1
 * section 8.3), which sim_error applies for MPI_COMM_NULL. */

int PMPI_Group_size(MPI_Group group, int *size) {
    SIM_ENTER("MPI_Group_size");
    sim_group *g;
    TRY(sim_check_initialized());
    TRY(group_check(group, "MPI_Group_size", "group", &g));
    if (!size)
        SIM_RETURN(null_arg(MPI_COMM_NULL, "MPI_Group_size", "size"));
    *size = g->size;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Group_size);

int PMPI_Group_rank(MPI_Group group, int *rank) {
    SIM_ENTER("MPI_Group_rank");
    sim_group *g;
    TRY(sim_check_initialized());
    TRY(group_check(group, "MPI_Group_rank", "group", &g));
    if (!rank)
        SIM_RETURN(null_arg(MPI_COMM_NULL, "MPI_Group_rank", "rank"));
    int r = sim_group_rank(g, sim_self());
    *rank = r >= 0 ? r : MPI_UNDEFINED;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Group_rank);

/* Hands the members made by a group constructor to the caller as a group. */
static int new_group(const char *fn, int rc, char *why, int *members, int n, MPI_Group *newgroup) {
    if (rc != MPI_SUCCESS)
        return report(MPI_COMM_NULL, fn, rc, why);
    *newgroup = sim_group_new_for(sim_self(), n, members);
    if (*newgroup != MPI_GROUP_EMPTY)
        sim_held_add_here(SIM_HELD_GROUP, (uint32_t)*newgroup);
    g_free(members);
    return MPI_SUCCESS;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
    SIM_ENTER("MPI_Group_incl");
    sim_group *g;
    TRY(sim_check_initialized());
    TRY(group_check(group, "MPI_Group_incl", "group", &g));
    if (!newgroup)
        SIM_RETURN(null_arg(MPI_COMM_NULL, "MPI_Group_incl", "newgroup"));
    int *m = NULL, k = 0;
    char *why = NULL;
    int rc = sim_group_incl_members(g, n, ranks, &m, &k, &why);
    SIM_RETURN(new_group("MPI_Group_incl", rc, why, m, k, newgroup));
}
SIM_ALIAS(MPI_Group_incl);

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
    SIM_ENTER("MPI_Group_excl");
    sim_group *g;
    TRY(sim_check_initialized());
    TRY(group_check(group, "MPI_Group_excl", "group", &g));
    if (!newgroup)
        SIM_RETURN(null_arg(MPI_COMM_NULL, "MPI_Group_excl", "newgroup"));
    int *m = NULL, k = 0;
    char *why = NULL;
    int rc = sim_group_excl_members(g, n, ranks, &m, &k, &why);
    SIM_RETURN(new_group("MPI_Group_excl", rc, why, m, k, newgroup));
}
SIM_ALIAS(MPI_Group_excl);

static int group_range(const char *fn, MPI_Group group, int n, int ranges[][3], bool include,
                       MPI_Group *newgroup) {
    sim_group *g;
    int rc = group_check(group, fn, "group", &g);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newgroup)
        return null_arg(MPI_COMM_NULL, fn, "newgroup");
    int *m = NULL, k = 0;
    char *why = NULL;
    rc = sim_group_range_members(g, n, (const int(*)[3])ranges, include, &m, &k, &why);
    return new_group(fn, rc, why, m, k, newgroup);
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
    SIM_ENTER("MPI_Group_range_incl");
    TRY(sim_check_initialized());
    SIM_RETURN(group_range("MPI_Group_range_incl", group, n, ranges, true, newgroup));
}
SIM_ALIAS(MPI_Group_range_incl);

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
    SIM_ENTER("MPI_Group_range_excl");
    TRY(sim_check_initialized());
    SIM_RETURN(group_range("MPI_Group_range_excl", group, n, ranges, false, newgroup));
}
SIM_ALIAS(MPI_Group_range_excl);

typedef void (*group_setop)(const sim_group *, const sim_group *, int **, int *);

static int group_binary(const char *fn, MPI_Group group1, MPI_Group group2, group_setop op,
                        MPI_Group *newgroup) {
    sim_group *a, *b;
    int rc = group_check(group1, fn, "group1", &a);
    if (rc == MPI_SUCCESS)
        rc = group_check(group2, fn, "group2", &b);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newgroup)
        return null_arg(MPI_COMM_NULL, fn, "newgroup");
    int *m = NULL, k = 0;
    op(a, b, &m, &k);
    return new_group(fn, MPI_SUCCESS, NULL, m, k, newgroup);
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
    SIM_ENTER("MPI_Group_union");
    TRY(sim_check_initialized());
    SIM_RETURN(group_binary("MPI_Group_union", group1, group2, sim_group_union_members, newgroup));
}
SIM_ALIAS(MPI_Group_union);

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
    SIM_ENTER("MPI_Group_intersection");
    TRY(sim_check_initialized());
    SIM_RETURN(group_binary("MPI_Group_intersection", group1, group2,
                            sim_group_intersection_members, newgroup));
}
SIM_ALIAS(MPI_Group_intersection);

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
    SIM_ENTER("MPI_Group_difference");
    TRY(sim_check_initialized());
    SIM_RETURN(group_binary("MPI_Group_difference", group1, group2, sim_group_difference_members,
                            newgroup));
}
SIM_ALIAS(MPI_Group_difference);

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[]) {
    SIM_ENTER("MPI_Group_translate_ranks");
    sim_group *a, *b;
    TRY(sim_check_initialized());
    TRY(group_check(group1, "MPI_Group_translate_ranks", "group1", &a));
    TRY(group_check(group2, "MPI_Group_translate_ranks", "group2", &b));
    char *why = NULL;
    int rc = sim_group_translate(a, n, ranks1, b, ranks2, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(MPI_COMM_NULL, "MPI_Group_translate_ranks", rc, why));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Group_translate_ranks);

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result) {
    SIM_ENTER("MPI_Group_compare");
    sim_group *a, *b;
    TRY(sim_check_initialized());
    TRY(group_check(group1, "MPI_Group_compare", "group1", &a));
    TRY(group_check(group2, "MPI_Group_compare", "group2", &b));
    if (!result)
        SIM_RETURN(null_arg(MPI_COMM_NULL, "MPI_Group_compare", "result"));
    *result = sim_group_compare(a, b);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Group_compare);

int PMPI_Group_free(MPI_Group *group) {
    SIM_ENTER("MPI_Group_free");
    sim_group *g;
    TRY(sim_check_initialized());
    if (!group)
        SIM_RETURN(null_arg(MPI_COMM_NULL, "MPI_Group_free", "group"));
    /* Group constructors return MPI_GROUP_EMPTY for empty results, so
     * programs free it like any group they made (MPICH accepts this too). */
    if (*group != MPI_GROUP_EMPTY) {
        TRY(group_check(*group, "MPI_Group_free", "group", &g));
        sim_group_release_for(g, sim_self());
        sim_held_drop_here(SIM_HELD_GROUP, (uint32_t)*group);
    }
    *group = MPI_GROUP_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Group_free);

/* ---------------------------------------------------------------------- */
/* Cartesian topologies                                                    */

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart) {
    SIM_ENTER("MPI_Cart_create");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm_old, &c));
    TRY(intra_only(c, "MPI_Cart_create", false));
    if (!comm_cart)
        SIM_RETURN(null_arg(comm_old, "MPI_Cart_create", "comm_cart"));
    char *why = NULL;
    int rc = sim_cart_check(ndims, dims, c->size, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(comm_old, "MPI_Cart_create", rc, why));
    if (ndims > 0 && !periods)
        SIM_RETURN(null_arg(comm_old, "MPI_Cart_create", "periods"));
    char *d = ints_text(ndims, dims), *p = ints_text(ndims, periods);
    sim_call_args("comm=%s ndims=%d dims=%s periods=%s reorder=%d", sim_comm_describe(c), ndims, d,
                  p, reorder);
    g_free(d);
    g_free(p);
    sim_coll_args a = {0};
    a.ndims = ndims;
    a.dims = dims;
    a.periods = periods;
    a.reorder = reorder;
    SIM_RETURN(post_constructor(c, SIM_COLL_CART_CREATE, &a, comm_cart));
}
SIM_ALIAS(MPI_Cart_create);

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) {
    SIM_ENTER("MPI_Cart_sub");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(cart_check(comm, "MPI_Cart_sub", &c));
    if (!newcomm)
        SIM_RETURN(null_arg(comm, "MPI_Cart_sub", "newcomm"));
    if (c->ndims > 0 && !remain_dims)
        SIM_RETURN(null_arg(comm, "MPI_Cart_sub", "remain_dims"));
    int self = sim_self();
    int nd = 0;
    int *dims = g_new(int, c->ndims + 1), *periods = g_new(int, c->ndims + 1);
    for (int i = 0; i < c->ndims; i++)
        if (remain_dims[i]) {
            dims[nd] = c->dims[i];
            periods[nd++] = c->periods[i];
        }
    char *r = ints_text(c->ndims, remain_dims);
    sim_call_args("comm=%s remain_dims=%s", sim_comm_describe(c), r);
    g_free(r);

    /* A split whose colours number the subgrids; the topology is attached
     * afterwards by each member, before any of them can use it. */
    sim_coll_args a = {0};
    sim_cart_sub_color_key(c->ndims, c->dims, remain_dims, sim_comm_rank(c, self), &a.color,
                           &a.key);
    int rc = post_constructor(c, SIM_COLL_COMM_SPLIT, &a, newcomm);
    sim_comm *nc = rc == MPI_SUCCESS ? sim_comm_get(*newcomm, self) : NULL;
    if (nc && !nc->cart) {
        sim_comm_set_cart(nc, nd, dims, periods);
    } else if (nc && (nc->ndims != nd || memcmp(nc->dims, dims, sizeof(int) * (size_t)nd) != 0)) {
        char *mine = ints_text(nd, dims), *theirs = ints_text(nc->ndims, nc->dims);
        char *why = g_strdup_printf("remain_dims differ between members: this rank's keep the "
                                    "dimensions %s, another member's kept %s",
                                    mine, theirs);
        g_free(mine);
        g_free(theirs);
        rc = report(comm, "MPI_Cart_sub", MPI_ERR_ARG, why);
    }
    g_free(dims);
    g_free(periods);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Cart_sub);

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
    SIM_ENTER("MPI_Cart_coords");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(cart_check(comm, "MPI_Cart_coords", &c));
    if (rank < 0 || rank >= c->size)
        SIM_RETURN(sim_error(comm, MPI_ERR_RANK,
                             "MPI_Cart_coords: rank = %d is out of range for %s of size %d", rank,
                             sim_comm_describe(c), c->size));
    if (maxdims < c->ndims)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG,
                             "MPI_Cart_coords: maxdims = %d is less than the topology's %d "
                             "dimensions",
                             maxdims, c->ndims));
    if (c->ndims > 0 && !coords)
        SIM_RETURN(null_arg(comm, "MPI_Cart_coords", "coords"));
    sim_cart_coords(c->ndims, c->dims, rank, coords);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Cart_coords);

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank) {
    SIM_ENTER("MPI_Cart_rank");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(cart_check(comm, "MPI_Cart_rank", &c));
    if (c->ndims > 0 && !coords)
        SIM_RETURN(null_arg(comm, "MPI_Cart_rank", "coords"));
    if (!rank)
        SIM_RETURN(null_arg(comm, "MPI_Cart_rank", "rank"));
    char *why = NULL;
    int rc = sim_cart_rank(c->ndims, c->dims, c->periods, coords, rank, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(comm, "MPI_Cart_rank", rc, why));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Cart_rank);

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest) {
    SIM_ENTER("MPI_Cart_shift");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(cart_check(comm, "MPI_Cart_shift", &c));
    if (direction < 0 || direction >= c->ndims)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG,
                             "MPI_Cart_shift: direction = %d is not a dimension of %s (0..%d)",
                             direction, sim_comm_describe(c), c->ndims - 1));
    if (!rank_source)
        SIM_RETURN(null_arg(comm, "MPI_Cart_shift", "rank_source"));
    if (!rank_dest)
        SIM_RETURN(null_arg(comm, "MPI_Cart_shift", "rank_dest"));
    sim_cart_shift(c->ndims, c->dims, c->periods, sim_comm_rank(c, sim_self()), direction, disp,
                   rank_source, rank_dest);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Cart_shift);

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
    SIM_ENTER("MPI_Cart_get");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(cart_check(comm, "MPI_Cart_get", &c));
    if (maxdims < c->ndims)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG,
                             "MPI_Cart_get: maxdims = %d is less than the topology's %d dimensions",
                             maxdims, c->ndims));
    if (c->ndims > 0 && (!dims || !periods || !coords))
        SIM_RETURN(null_arg(comm, "MPI_Cart_get",
                            !dims      ? "dims"
                            : !periods ? "periods"
                                       : "coords"));
    for (int i = 0; i < c->ndims; i++) {
        dims[i] = c->dims[i];
        periods[i] = c->periods[i];
    }
    sim_cart_coords(c->ndims, c->dims, sim_comm_rank(c, sim_self()), coords);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Cart_get);

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims) {
    SIM_ENTER("MPI_Cartdim_get");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(cart_check(comm, "MPI_Cartdim_get", &c));
    if (!ndims)
        SIM_RETURN(null_arg(comm, "MPI_Cartdim_get", "ndims"));
    *ndims = c->ndims;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Cartdim_get);

int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
    SIM_ENTER("MPI_Dims_create");
    TRY(sim_check_initialized());
    char *why = NULL;
    int rc = sim_dims_create(nnodes, ndims, dims, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(MPI_COMM_NULL, "MPI_Dims_create", rc, why));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Dims_create);

int PMPI_Topo_test(MPI_Comm comm, int *status) {
    SIM_ENTER("MPI_Topo_test");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    if (!status)
        SIM_RETURN(null_arg(comm, "MPI_Topo_test", "status"));
    *status = c->cart         ? MPI_CART
              : c->nnodes > 0 ? MPI_GRAPH
              : c->adj        ? MPI_DIST_GRAPH
                              : MPI_UNDEFINED;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Topo_test);

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank) {
    SIM_ENTER("MPI_Cart_map");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(intra_only(c, "MPI_Cart_map", false));
    char *why = NULL;
    int rc = sim_cart_check(ndims, dims, c->size, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(comm, "MPI_Cart_map", rc, why));
    if (!newrank)
        SIM_RETURN(null_arg(comm, "MPI_Cart_map", "newrank"));
    /* No reordering: the first prod(dims) ranks keep theirs. */
    long prod = 1;
    for (int i = 0; i < ndims; i++)
        prod *= dims[i];
    int r = sim_comm_rank(c, sim_self());
    *newrank = r < prod ? r : MPI_UNDEFINED;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Cart_map);

/* ---------------------------------------------------------------------- */
/* Graph topologies (MPI 3.1 section 7.5.3)                                */

static int graph_check(MPI_Comm comm, const char *fn, sim_comm **out) {
    int rc = sim_comm_check(comm, out);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((*out)->nnodes <= 0)
        return sim_error(comm, MPI_ERR_TOPOLOGY, "%s: %s has no graph topology (MPI_Graph_create)",
                         fn, sim_comm_describe(*out));
    return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph) {
    SIM_ENTER("MPI_Graph_create");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm_old, &c));
    TRY(intra_only(c, "MPI_Graph_create", false));
    if (!comm_graph)
        SIM_RETURN(null_arg(comm_old, "MPI_Graph_create", "comm_graph"));
    char *why = NULL;
    int rc = sim_graph_check(nnodes, index, edges, c->size, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(comm_old, "MPI_Graph_create", rc, why));
    char *ix = ints_text(nnodes, index);
    sim_call_args("comm=%s nnodes=%d index=%s reorder=%d", sim_comm_describe(c), nnodes, ix,
                  reorder);
    g_free(ix);
    sim_topo_args t = {0};
    t.nnodes = nnodes;
    t.index = index;
    t.edges = edges;
    sim_coll_args a = {0};
    a.topo = &t;
    SIM_RETURN(post_constructor(c, SIM_COLL_GRAPH_CREATE, &a, comm_graph));
}
SIM_ALIAS(MPI_Graph_create);

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank) {
    SIM_ENTER("MPI_Graph_map");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm, &c));
    TRY(intra_only(c, "MPI_Graph_map", false));
    char *why = NULL;
    int rc = sim_graph_check(nnodes, index, edges, c->size, &why);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(report(comm, "MPI_Graph_map", rc, why));
    if (!newrank)
        SIM_RETURN(null_arg(comm, "MPI_Graph_map", "newrank"));
    int r = sim_comm_rank(c, sim_self());
    *newrank = r < nnodes ? r : MPI_UNDEFINED;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Graph_map);

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges) {
    SIM_ENTER("MPI_Graphdims_get");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(graph_check(comm, "MPI_Graphdims_get", &c));
    if (!nnodes || !nedges)
        SIM_RETURN(null_arg(comm, "MPI_Graphdims_get", !nnodes ? "nnodes" : "nedges"));
    *nnodes = c->nnodes;
    *nedges = c->index[c->nnodes - 1];
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Graphdims_get);

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
    SIM_ENTER("MPI_Graph_get");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(graph_check(comm, "MPI_Graph_get", &c));
    if (maxindex < 0 || maxedges < 0)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Graph_get: %s %d is negative",
                             maxindex < 0 ? "maxindex" : "maxedges",
                             maxindex < 0 ? maxindex : maxedges));
    int ni = MIN(maxindex, c->nnodes), ne = MIN(maxedges, c->index[c->nnodes - 1]);
    if ((ni > 0 && !index) || (ne > 0 && !edges))
        SIM_RETURN(null_arg(comm, "MPI_Graph_get", ni > 0 && !index ? "index" : "edges"));
    memcpy(index, c->index, sizeof(int) * (size_t)ni);
    memcpy(edges, c->edges, sizeof(int) * (size_t)ne);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Graph_get);

static int graph_rank_check(MPI_Comm comm, const char *fn, const sim_comm *c, int rank) {
    if (rank < 0 || rank >= c->nnodes)
        return sim_error(comm, MPI_ERR_RANK, "%s: rank %d is not a node of %s's graph (0..%d)", fn,
                         rank, sim_comm_describe(c), c->nnodes - 1);
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors) {
    SIM_ENTER("MPI_Graph_neighbors_count");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(graph_check(comm, "MPI_Graph_neighbors_count", &c));
    TRY(graph_rank_check(comm, "MPI_Graph_neighbors_count", c, rank));
    if (!nneighbors)
        SIM_RETURN(null_arg(comm, "MPI_Graph_neighbors_count", "nneighbors"));
    *nneighbors = c->index[rank] - (rank ? c->index[rank - 1] : 0);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Graph_neighbors_count);

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
    SIM_ENTER("MPI_Graph_neighbors");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(graph_check(comm, "MPI_Graph_neighbors", &c));
    TRY(graph_rank_check(comm, "MPI_Graph_neighbors", c, rank));
    if (maxneighbors < 0)
        SIM_RETURN(sim_error(comm, MPI_ERR_ARG, "MPI_Graph_neighbors: maxneighbors %d is negative",
                             maxneighbors));
    int from = rank ? c->index[rank - 1] : 0;
    int n = MIN(maxneighbors, c->index[rank] - from);
    if (n > 0 && !neighbors)
        SIM_RETURN(null_arg(comm, "MPI_Graph_neighbors", "neighbors"));
    memcpy(neighbors, c->edges + from, sizeof(int) * (size_t)(n > 0 ? n : 0));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Graph_neighbors);

/* ---------------------------------------------------------------------- */
/* Distributed graph topologies (MPI 3.1 section 7.5.4)                    */

/* n ranks of c (MPI_ERR_RANK) at `list`, present when n > 0. */
static int ranks_check(MPI_Comm comm, const char *fn, const char *arg, const sim_comm *c, int n,
                       const int *list) {
    if (n > 0 && !list)
        return null_arg(comm, fn, arg);
    for (int i = 0; i < n; i++)
        if (list[i] < 0 || list[i] >= c->size)
            return sim_error(comm, MPI_ERR_RANK, "%s: %s[%d] = %d is not a rank of %s (size %d)",
                             fn, arg, i, list[i], sim_comm_describe(c), c->size);
    return MPI_SUCCESS;
}

/* n weights at `w`: MPI_UNWEIGHTED (*unweighted), MPI_WEIGHTS_EMPTY for
 * n = 0, or n non-negative integers. */
static int weights_check(MPI_Comm comm, const char *fn, const char *arg, int n, const int *w,
                         bool *unweighted) {
    *unweighted = w == MPI_UNWEIGHTED;
    if (*unweighted || (w == MPI_WEIGHTS_EMPTY && n == 0))
        return MPI_SUCCESS;
    if (w == MPI_WEIGHTS_EMPTY)
        return sim_error(comm, MPI_ERR_ARG,
                         "%s: %s is MPI_WEIGHTS_EMPTY, which stands for no weights, but %d are "
                         "needed",
                         fn, arg, n);
    if (n > 0 && !w)
        return null_arg(comm, fn, arg);
    for (int i = 0; i < n; i++)
        if (w[i] < 0)
            return sim_error(comm, MPI_ERR_ARG, "%s: %s[%d] = %d is negative", fn, arg, i, w[i]);
    return MPI_SUCCESS;
}

static int degree_check(MPI_Comm comm, const char *fn, const char *arg, int n) {
    if (n < 0)
        return sim_error(comm, MPI_ERR_ARG, "%s: %s %d is negative", fn, arg, n);
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph) {
    SIM_ENTER("MPI_Dist_graph_create_adjacent");
    const char *fn = "MPI_Dist_graph_create_adjacent";
    sim_comm *c;
    const sim_info *hints;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm_old, &c));
    TRY(intra_only(c, fn, false));
    TRY(degree_check(comm_old, fn, "indegree", indegree));
    TRY(degree_check(comm_old, fn, "outdegree", outdegree));
    TRY(ranks_check(comm_old, fn, "sources", c, indegree, sources));
    TRY(ranks_check(comm_old, fn, "destinations", c, outdegree, destinations));
    bool su, du;
    TRY(weights_check(comm_old, fn, "sourceweights", indegree, sourceweights, &su));
    TRY(weights_check(comm_old, fn, "destweights", outdegree, destweights, &du));
    if (su != du)
        SIM_RETURN(sim_error(
            comm_old, MPI_ERR_ARG, "%s: %s is MPI_UNWEIGHTED but %s is not (both are, or neither)",
            fn, su ? "sourceweights" : "destweights", su ? "destweights" : "sourceweights"));
    TRY(sim_info_arg(comm_old, fn, info, &hints));
    if (!comm_dist_graph)
        SIM_RETURN(null_arg(comm_old, fn, "comm_dist_graph"));
    char *in = ints_text(indegree, sources), *out = ints_text(outdegree, destinations);
    sim_call_args("comm=%s sources=%s destinations=%s", sim_comm_describe(c), in, out);
    g_free(in);
    g_free(out);
    sim_topo_args t = {0};
    t.indegree = indegree;
    t.sources = sources;
    t.sourceweights = su ? NULL : sourceweights;
    t.outdegree = outdegree;
    t.destinations = destinations;
    t.destweights = du ? NULL : destweights;
    t.unweighted = su;
    sim_coll_args a = {0};
    a.topo = &t;
    int rc = post_constructor(c, SIM_COLL_DIST_GRAPH_CREATE_ADJACENT, &a, comm_dist_graph);
    if (rc == MPI_SUCCESS && *comm_dist_graph != MPI_COMM_NULL)
        sim_hints_set(sim_self(), SIM_HINT_COMM, *comm_dist_graph, hints);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Dist_graph_create_adjacent);

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph) {
    SIM_ENTER("MPI_Dist_graph_create");
    const char *fn = "MPI_Dist_graph_create";
    sim_comm *c;
    const sim_info *hints;
    TRY(sim_check_initialized());
    TRY(sim_comm_check(comm_old, &c));
    TRY(intra_only(c, fn, false));
    TRY(degree_check(comm_old, fn, "n", n));
    TRY(ranks_check(comm_old, fn, "sources", c, n, sources));
    if (n > 0 && !degrees)
        SIM_RETURN(null_arg(comm_old, fn, "degrees"));
    int nedges = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            SIM_RETURN(sim_error(comm_old, MPI_ERR_ARG, "%s: degrees[%d] = %d is negative", fn, i,
                                 degrees[i]));
        nedges += degrees[i];
    }
    TRY(ranks_check(comm_old, fn, "destinations", c, nedges, destinations));
    bool unweighted;
    TRY(weights_check(comm_old, fn, "weights", nedges, weights, &unweighted));
    TRY(sim_info_arg(comm_old, fn, info, &hints));
    if (!comm_dist_graph)
        SIM_RETURN(null_arg(comm_old, fn, "comm_dist_graph"));
    sim_call_args("comm=%s n=%d edges=%d", sim_comm_describe(c), n, nedges);
    sim_topo_args t = {0};
    t.n = n;
    t.srcs = sources;
    t.degrees = degrees;
    t.dests = destinations;
    t.weights = unweighted ? NULL : weights;
    t.unweighted = unweighted;
    sim_coll_args a = {0};
    a.topo = &t;
    int rc = post_constructor(c, SIM_COLL_DIST_GRAPH_CREATE, &a, comm_dist_graph);
    if (rc == MPI_SUCCESS && *comm_dist_graph != MPI_COMM_NULL)
        sim_hints_set(sim_self(), SIM_HINT_COMM, *comm_dist_graph, hints);
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Dist_graph_create);

static int dist_check(MPI_Comm comm, const char *fn, sim_comm **out) {
    int rc = sim_comm_check(comm, out);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!(*out)->adj)
        return sim_error(comm, MPI_ERR_TOPOLOGY,
                         "%s: %s has no distributed graph topology (MPI_Dist_graph_create)", fn,
                         sim_comm_describe(*out));
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted) {
    SIM_ENTER("MPI_Dist_graph_neighbors_count");
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(dist_check(comm, "MPI_Dist_graph_neighbors_count", &c));
    if (!indegree || !outdegree || !weighted)
        SIM_RETURN(null_arg(comm, "MPI_Dist_graph_neighbors_count",
                            !indegree    ? "indegree"
                            : !outdegree ? "outdegree"
                                         : "weighted"));
    const sim_dist_adj *a = &c->adj[sim_comm_rank(c, sim_self())];
    *indegree = a->indegree;
    *outdegree = a->outdegree;
    *weighted = c->weighted;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Dist_graph_neighbors_count);

/* Copies the first min(max, n) entries (n entries exist). */
static void copy_some(int *to, const int *from, int max, int n) {
    if (to && from && to != MPI_UNWEIGHTED && max > 0)
        memcpy(to, from, sizeof(int) * (size_t)MIN(max, n));
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                              int maxoutdegree, int destinations[], int destweights[]) {
    SIM_ENTER("MPI_Dist_graph_neighbors");
    const char *fn = "MPI_Dist_graph_neighbors";
    sim_comm *c;
    TRY(sim_check_initialized());
    TRY(dist_check(comm, fn, &c));
    TRY(degree_check(comm, fn, "maxindegree", maxindegree));
    TRY(degree_check(comm, fn, "maxoutdegree", maxoutdegree));
    const sim_dist_adj *a = &c->adj[sim_comm_rank(c, sim_self())];
    if ((MIN(maxindegree, a->indegree) > 0 && !sources) ||
        (MIN(maxoutdegree, a->outdegree) > 0 && !destinations))
        SIM_RETURN(null_arg(comm, fn, !sources ? "sources" : "destinations"));
    /* Fewer slots than neighbours: the first ones (MPI 3.1 section 7.5.5). */
    copy_some(sources, a->sources, maxindegree, a->indegree);
    copy_some(destinations, a->destinations, maxoutdegree, a->outdegree);
    if (c->weighted) {
        copy_some(sourceweights, a->sourceweights, maxindegree, a->indegree);
        copy_some(destweights, a->destweights, maxoutdegree, a->outdegree);
    }
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Dist_graph_neighbors);
