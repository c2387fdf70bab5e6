/*
 * comm.c - communicators (see comm.h): the communicator objects and their
 * handles, the node map, and the constructor collectives (dup, split,
 * split_type, create, cart_create) run when every member has called.
 * Groups are in group.c, Cartesian grid arithmetic in topo.c.
 *
 * Written from MPI 3.1 chapters 6 (groups, communicators) and 7 (process
 * topologies).  This module depends on no other part of the simulator so
 * that it can be unit-tested alone; argument errors found here are returned
 * as MPI error classes with a message, and mpi_comm.c reports them.
 */
#include "simulator/comm.h"

#include <stdlib.h>
#include <string.h>

#include "simulator/coll.h"
#include "simulator/comm_internal.h"
#include "simulator/handle.h"

static struct {
    int nranks;
    sim_comm *world;
    sim_comm **selves;       /* [nranks] */
    GPtrArray *comms;        /* direct communicators by handle index */
    int *node_map;           /* [nranks] or NULL */
    GHashTable *group_comms; /* "parent id/tag/members" -> sim_comm * (MPI_Comm_create_group) */
} st;

/* ---------------------------------------------------------------------- */
/* Member lists                                                            */

/* Identity maps (world and its prefixes) and single members need no table,
 * which keeps world and the thousands of MPI_COMM_SELFs cheap. */
GHashTable *sim_members_index(int size, const int *members) {
    if (size <= 1)
        return NULL;
    int i = 0;
    while (i < size && members[i] == i)
        i++;
    if (i == size)
        return NULL;
    GHashTable *t = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (i = 0; i < size; i++)
        g_hash_table_insert(t, GINT_TO_POINTER(members[i]), GINT_TO_POINTER(i + 1));
    return t;
}

int sim_members_rank(GHashTable *rank_of, int size, const int *members, int world_rank) {
    if (rank_of) {
        gpointer v = g_hash_table_lookup(rank_of, GINT_TO_POINTER(world_rank));
        return v ? GPOINTER_TO_INT(v) - 1 : -1;
    }
    if (size == 1)
        return members[0] == world_rank ? 0 : -1;
    return world_rank >= 0 && world_rank < size ? world_rank : -1;
}

/* Members are distinct, so equal sizes and a inside b means the same set. */
int sim_members_compare(int na, const int *ma, int nb, const int *mb, GHashTable *b_rank_of) {
    if (na != nb)
        return MPI_UNEQUAL;
    if (na == 0 || memcmp(ma, mb, sizeof(int) * (size_t)na) == 0)
        return MPI_IDENT;
    for (int i = 0; i < na; i++)
        if (sim_members_rank(b_rank_of, nb, mb, ma[i]) < 0)
            return MPI_UNEQUAL;
    return MPI_SIMILAR;
}

/* ---------------------------------------------------------------------- */
/* Communicator objects                                                    */

static sim_comm *comm_alloc(int id, MPI_Comm handle, int size, int *members) {
    sim_comm *c = g_new0(sim_comm, 1);
    c->handle = handle;
    c->id = id;
    c->size = size;
    c->members = members;
    c->rank_of = sim_members_index(size, members);
    c->errh = g_new(MPI_Errhandler, size);
    for (int i = 0; i < size; i++)
        c->errh[i] = MPI_ERRORS_ARE_FATAL;
    c->released = g_new0(bool, size);
    c->coll_posted = g_new0(uint64_t, size);
    c->colls = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    return c;
}

static void dist_free(sim_comm *c) {
    for (int r = 0; c->adj && r < c->size; r++) {
        g_free(c->adj[r].sources);
        g_free(c->adj[r].sourceweights);
        g_free(c->adj[r].destinations);
        g_free(c->adj[r].destweights);
    }
    g_free(c->adj);
    c->adj = NULL;
}

/* Copies n ints (NULL stays NULL; an empty list is an allocation). */
/* A copy of v[0..n) (never empty: one spare int, so that n = 0 still gives
 * a pointer); reads only the n ints the caller has. */
static int *ints_copy(const int *v, int n) {
    if (!v)
        return NULL;
    size_t k = (size_t)(n > 0 ? n : 0);
    int *c = g_new0(int, k + 1);
    memcpy(c, v, sizeof(int) * k);
    return c;
}

/* Gives c a graph topology (copies index and edges). */
static void set_graph(sim_comm *c, int nnodes, const int *index, const int *edges) {
    c->nnodes = nnodes;
    c->index = ints_copy(index, nnodes);
    c->edges = ints_copy(edges, nnodes ? index[nnodes - 1] : 0);
}

/* Gives c (without one) a distributed graph topology: adj[size] is taken. */
static void set_dist(sim_comm *c, sim_dist_adj *adj, bool weighted) {
    dist_free(c);
    c->adj = adj;
    c->weighted = weighted;
}

static sim_dist_adj *dist_copy(const sim_comm *p) {
    sim_dist_adj *adj = g_new0(sim_dist_adj, p->size);
    for (int r = 0; r < p->size; r++) {
        const sim_dist_adj *a = &p->adj[r];
        adj[r].indegree = a->indegree;
        adj[r].outdegree = a->outdegree;
        adj[r].sources = ints_copy(a->sources, a->indegree);
        adj[r].sourceweights = ints_copy(a->sourceweights, a->indegree);
        adj[r].destinations = ints_copy(a->destinations, a->outdegree);
        adj[r].destweights = ints_copy(a->destweights, a->outdegree);
    }
    return adj;
}

static void comm_free(sim_comm *c) {
    if (!c)
        return;
    g_free(c->members);
    if (c->rank_of)
        g_hash_table_destroy(c->rank_of);
    g_free(c->errh);
    g_free(c->released);
    g_free(c->coll_posted);
    g_hash_table_destroy(c->colls);
    g_free(c->name);
    if (c->names)
        g_strfreev(c->names);
    g_free(c->desc);
    g_free(c->named);
    if (c->stale)
        g_ptr_array_free(c->stale, TRUE);
    g_free(c->dims);
    g_free(c->periods);
    g_free(c->index);
    g_free(c->edges);
    dist_free(c);
    g_free(c); /* c->group belongs to the group table */
}

static const char *comm_label(const sim_comm *c) {
    if (c->handle == MPI_COMM_WORLD)
        return "MPI_COMM_WORLD";
    if (c->handle == MPI_COMM_SELF)
        return "MPI_COMM_SELF";
    return NULL;
}

/* A communicator made by a constructor on parent; takes members. */
static sim_comm *comm_make(const sim_comm *parent, const char *how, int size, int *members) {
    guint index = st.comms->len;
    int id = st.nranks + 1 + (int)index;
    sim_comm *c = comm_alloc(id, SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, index), size, members);
    for (int i = 0; i < size; i++)
        c->errh[i] = parent->errh[sim_comm_rank(parent, members[i])];
    const char *plabel = comm_label(parent);
    if (plabel)
        c->desc = g_strdup_printf("comm %d (%s of %s)", id, how, plabel);
    else
        c->desc = g_strdup_printf("comm %d (%s of comm %d)", id, how, parent->id);
    g_ptr_array_add(st.comms, c);
    return c;
}

sim_comm *sim_comm_for_group(sim_comm *parent, const sim_group *g, int tag) {
    GString *key = g_string_new(NULL);
    g_string_append_printf(key, "%d/%d/", parent->id, tag);
    for (int i = 0; i < g->size; i++)
        g_string_append_printf(key, "%d,", g->members[i]);
    sim_comm *c = g_hash_table_lookup(st.group_comms, key->str);
    if (c) {
        g_string_free(key, TRUE);
        return c;
    }
    char *how = g_strdup_printf("group of tag %d", tag);
    c = comm_make(parent, how, g->size, g_memdup2(g->members, sizeof(int) * (size_t)g->size));
    g_free(how);
    c->origin = parent;
    g_hash_table_insert(st.group_comms, g_string_free(key, FALSE), c);
    return c;
}

/* The comm's label in descriptions: "MPI_COMM_WORLD" or "comm 3". */
static char *label_of(const sim_comm *c) {
    const char *l = comm_label(c);
    return l ? g_strdup(l) : g_strdup_printf("comm %d", c->id);
}

sim_comm *sim_comm_make_inter(const sim_comm *pa, int na, int *a, const sim_comm *pb, int nb,
                              int *b) {
    sim_comm *sa = comm_make(pa, "intercomm", na, a);
    sim_comm *sb = comm_make(pb, "intercomm", nb, b);
    char *la = label_of(pa), *lb = label_of(pb);
    g_free(sa->desc);
    g_free(sb->desc);
    sa->desc =
        g_strdup_printf("comm %d (intercomm: the group of %s, to comm %d)", sa->id, la, sb->id);
    sb->desc =
        g_strdup_printf("comm %d (intercomm: the group of %s, to comm %d)", sb->id, lb, sa->id);
    g_free(la);
    g_free(lb);
    int *all = g_new(int, na + nb);
    memcpy(all, a, sizeof(int) * (size_t)na);
    memcpy(all + na, b, sizeof(int) * (size_t)nb);
    guint index = st.comms->len;
    int id = st.nranks + 1 + (int)index;
    sim_comm *u = comm_alloc(id, SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, index), na + nb, all);
    u->desc = g_strdup_printf("comm %d (both groups of intercomm %d/%d)", id, sa->id, sb->id);
    g_ptr_array_add(st.comms, u);
    sa->remote = sb;
    sb->remote = sa;
    sa->both = sb->both = u;
    sa->first = sb->first = sa;
    u->inter = sa;
    return sa;
}

sim_comm *sim_comm_make_private(const sim_comm *parent, const char *how) {
    sim_comm *c = comm_make(parent, how, parent->size,
                            g_memdup2(parent->members, sizeof(int) * (size_t)parent->size));
    for (int i = 0; i < c->size; i++)
        c->errh[i] = MPI_ERRORS_ARE_FATAL;
    return c;
}

void sim_comm_init(int nranks) {
    if (st.world)
        sim_comm_fini();
    st.nranks = nranks;
    int *m = g_new(int, nranks);
    for (int i = 0; i < nranks; i++)
        m[i] = i;
    st.world = comm_alloc(0, MPI_COMM_WORLD, nranks, m);
    st.world->desc = g_strdup("MPI_COMM_WORLD");
    st.selves = g_new(sim_comm *, nranks);
    for (int r = 0; r < nranks; r++) {
        m = g_new(int, 1);
        m[0] = r;
        st.selves[r] = comm_alloc(1 + r, MPI_COMM_SELF, 1, m);
        st.selves[r]->desc = g_strdup("MPI_COMM_SELF");
    }
    st.comms = g_ptr_array_new();
    st.group_comms = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    sim_group_table_init();
}

void sim_comm_fini(void) {
    comm_free(st.world);
    for (int r = 0; st.selves && r < st.nranks; r++)
        comm_free(st.selves[r]);
    g_free(st.selves);
    if (st.comms) {
        for (guint i = 0; i < st.comms->len; i++)
            comm_free(g_ptr_array_index(st.comms, i));
        g_ptr_array_free(st.comms, TRUE);
    }
    if (st.group_comms)
        g_hash_table_destroy(st.group_comms);
    sim_group_table_fini();
    g_free(st.node_map);
    memset(&st, 0, sizeof st);
}

/* The communicator object a handle names for world_rank, before the checks of
 * membership and release. */
static sim_comm *comm_lookup(MPI_Comm handle, int world_rank) {
    if (world_rank < 0 || world_rank >= st.nranks)
        return NULL;
    if (handle == MPI_COMM_WORLD)
        return st.world;
    if (handle == MPI_COMM_SELF)
        return st.selves[world_rank];
    if (SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(handle) != SIM_OBJ_COMM)
        return NULL;
    guint index = SIM_HANDLE_INDEX(handle);
    return index < st.comms->len ? g_ptr_array_index(st.comms, index) : NULL;
}

sim_comm *sim_comm_get(MPI_Comm handle, int world_rank) {
    sim_comm *c = comm_lookup(handle, world_rank);
    if (!c)
        return NULL;
    int r = sim_comm_rank(c, world_rank);
    return r >= 0 && !c->released[r] ? c : NULL;
}

const char *sim_comm_why_invalid(MPI_Comm handle, int world_rank) {
    if (handle == MPI_COMM_NULL)
        return "is MPI_COMM_NULL";
    if (world_rank < 0 || world_rank >= st.nranks)
        return "is used outside a rank";
    if (SIM_HANDLE_OBJ(handle) != SIM_OBJ_COMM ||
        (handle != MPI_COMM_WORLD && handle != MPI_COMM_SELF &&
         SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT))
        return "is not a communicator handle";
    sim_comm *c = comm_lookup(handle, world_rank);
    if (!c)
        return "was never created (an uninitialised or corrupted handle?)";
    int r = sim_comm_rank(c, world_rank);
    if (r < 0)
        return "names a communicator that this rank is not a member of";
    if (c->released[r])
        return "was freed by this rank";
    return NULL;
}

int sim_comm_rank(const sim_comm *comm, int world_rank) {
    return sim_members_rank(comm->rank_of, comm->size, comm->members, world_rank);
}

const char *sim_comm_describe(const sim_comm *comm) {
    return comm->named ? comm->named : comm->desc;
}

const char *sim_comm_name(const sim_comm *comm, int world_rank) {
    int r = sim_comm_rank(comm, world_rank);
    if (comm->names && r >= 0 && comm->names[r])
        return comm->names[r];
    const char *label = comm_label(comm);
    return label ? label : "";
}

void sim_comm_set_name(sim_comm *comm, int world_rank, const char *name) {
    int r = sim_comm_rank(comm, world_rank);
    if (r >= 0) {
        if (!comm->names)
            comm->names = g_new0(char *, comm->size + 1); /* NULL-terminated for g_strfreev */
        g_free(comm->names[r]);
        comm->names[r] = g_strndup(name, MPI_MAX_OBJECT_NAME - 1);
    }
    g_free(comm->name);
    comm->name = g_strndup(name, MPI_MAX_OBJECT_NAME - 1);
    if (comm->named) {
        if (!comm->stale)
            comm->stale = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(comm->stale, comm->named);
        comm->named = NULL;
    }
    if (!*comm->name)
        return;
    /* The name after the label: "comm 3" or "MPI_COMM_WORLD". */
    const char *d = comm->desc;
    const char *paren = strstr(d, " (");
    size_t label = paren ? (size_t)(paren - d) : strlen(d);
    comm->named = g_strdup_printf("%.*s \"%s\"%s", (int)label, d, comm->name, d + label);
}

MPI_Errhandler sim_comm_errhandler(const sim_comm *comm, int world_rank) {
    int r = sim_comm_rank(comm, world_rank);
    return r >= 0 ? comm->errh[r] : MPI_ERRORS_ARE_FATAL;
}

void sim_comm_set_errhandler(sim_comm *comm, int world_rank, MPI_Errhandler errh) {
    int r = sim_comm_rank(comm, world_rank);
    if (r >= 0)
        comm->errh[r] = errh;
}

bool sim_comm_release(sim_comm *comm, int world_rank) {
    if (comm->handle == MPI_COMM_WORLD || comm->handle == MPI_COMM_SELF)
        return false;
    int r = sim_comm_rank(comm, world_rank);
    if (r < 0 || comm->released[r])
        return false;
    comm->released[r] = true;
    return true;
}

int sim_comm_compare(const sim_comm *a, const sim_comm *b) {
    if (a == b)
        return MPI_IDENT;
    int res = sim_members_compare(a->size, a->members, b->size, b->members, b->rank_of);
    return res == MPI_IDENT ? MPI_CONGRUENT : res;
}

void sim_comm_set_cart(sim_comm *comm, int ndims, const int *dims, const int *periods) {
    g_free(comm->dims);
    g_free(comm->periods);
    comm->cart = true;
    comm->ndims = ndims;
    comm->dims = ndims ? g_memdup2(dims, sizeof(int) * (size_t)ndims) : NULL;
    comm->periods = ndims ? g_new(int, ndims) : NULL;
    for (int i = 0; i < ndims; i++)
        comm->periods[i] = periods[i] != 0;
}

/* ---------------------------------------------------------------------- */
/* Node map                                                                */

int sim_node_of(int world_rank) {
    return st.node_map && world_rank >= 0 && world_rank < st.nranks ? st.node_map[world_rank] : 0;
}

void sim_comm_set_node_map(const int *node_of_rank) {
    g_free(st.node_map);
    st.node_map = node_of_rank && st.nranks > 0
                      ? g_memdup2(node_of_rank, sizeof(int) * (size_t)st.nranks)
                      : NULL;
}

/* ---------------------------------------------------------------------- */
/* Constructor collectives                                                 */

static int create_error(sim_coll *c, int rank, int errclass, int *err_rank, char **why, char *msg) {
    for (int r = 0; r < c->comm->size; r++)
        if (c->args[r].newcomm)
            *c->args[r].newcomm = MPI_COMM_NULL;
    *err_rank = rank;
    *why = msg;
    return errclass;
}

static void give_handle(sim_coll *c, int rank, MPI_Comm handle) {
    if (c->args[rank].newcomm)
        *c->args[rank].newcomm = handle;
}

static void give_null_to_all(sim_coll *c) {
    for (int r = 0; r < c->comm->size; r++)
        give_handle(c, r, MPI_COMM_NULL);
}

static int exec_dup(sim_coll *c) {
    sim_comm *p = c->comm;
    /* On a group's own communicator it is MPI_Comm_create_group: the new
     * communicator descends from the one the group was taken from. */
    sim_comm *n = p->origin ? comm_make(p->origin, "create_group", p->size,
                                        g_memdup2(p->members, sizeof(int) * (size_t)p->size))
                            : comm_make(p, "dup", p->size,
                                        g_memdup2(p->members, sizeof(int) * (size_t)p->size));
    if (p->cart)
        sim_comm_set_cart(n, p->ndims, p->dims, p->periods);
    if (p->nnodes > 0)
        set_graph(n, p->nnodes, p->index, p->edges);
    if (p->adj)
        set_dist(n, dist_copy(p), p->weighted);
    for (int r = 0; r < p->size; r++)
        give_handle(c, r, n->handle);
    return MPI_SUCCESS;
}

typedef struct split_entry {
    int color, key, rank;
} split_entry;

static int cmp_split(const void *pa, const void *pb) {
    const split_entry *a = pa, *b = pb;
    if (a->color != b->color)
        return a->color < b->color ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

static bool known_split_type(int type) {
    return type == MPI_COMM_TYPE_SHARED || type == MPI_COMM_TYPE_HW_GUIDED ||
           type == MPI_COMM_TYPE_HW_UNGUIDED;
}

static int exec_split(sim_coll *c, bool by_type, int *err_rank, char **why) {
    sim_comm *p = c->comm;
    int type = MPI_UNDEFINED, type_rank = -1;
    for (int r = 0; r < p->size; r++) {
        int color = c->args[r].color;
        if (color == MPI_UNDEFINED)
            continue;
        if (!by_type && color < 0)
            return create_error(
                c, r, MPI_ERR_ARG, err_rank, why,
                g_strdup_printf("color = %d is negative (must be >= 0 or MPI_UNDEFINED)", color));
        if (by_type && !known_split_type(color))
            return create_error(c, r, MPI_ERR_ARG, err_rank, why,
                                g_strdup_printf("split_type = %d is not MPI_COMM_TYPE_SHARED, "
                                                "_HW_GUIDED, _HW_UNGUIDED or MPI_UNDEFINED",
                                                color));
        if (by_type && type_rank >= 0 && color != type)
            return create_error(c, r, MPI_ERR_ARG, err_rank, why,
                                g_strdup_printf("split_type = %d differs from comm rank %d's %d "
                                                "(all must pass the same type or MPI_UNDEFINED)",
                                                color, type_rank, type));
        if (by_type && type_rank < 0) {
            type = color;
            type_rank = r;
        }
    }

    split_entry *e = g_new(split_entry, p->size);
    int n = 0;
    for (int r = 0; r < p->size; r++) {
        int color = c->args[r].color;
        if (color == MPI_UNDEFINED || (by_type && type != MPI_COMM_TYPE_SHARED))
            continue;
        if (by_type)
            color = sim_node_of(p->members[r]);
        e[n++] = (split_entry){color, c->args[r].key, r};
    }
    qsort(e, (size_t)n, sizeof *e, cmp_split);
    give_null_to_all(c);
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && e[j].color == e[i].color)
            j++;
        int *members = g_new(int, j - i);
        for (int t = i; t < j; t++)
            members[t - i] = p->members[e[t].rank];
        sim_comm *nc = comm_make(p, by_type ? "split_type" : "split", j - i, members);
        for (int t = i; t < j; t++)
            give_handle(c, e[t].rank, nc->handle);
        i = j;
    }
    g_free(e);
    return MPI_SUCCESS;
}

/* "world ranks 2, 0" (at most 8 of them), or "MPI_GROUP_EMPTY". */
static char *members_text(const sim_group *g) {
    if (g->size == 0)
        return g_strdup("MPI_GROUP_EMPTY");
    GString *t = g_string_new(g->size == 1 ? "world rank " : "world ranks ");
    for (int i = 0; i < g->size && i < 8; i++)
        g_string_append_printf(t, i ? ", %d" : "%d", g->members[i]);
    if (g->size > 8)
        g_string_append_printf(t, ", ... (%d in all)", g->size);
    return g_string_free(t, FALSE);
}

/* MPI_Comm_create (MPI 3.1 section 6.4.2): members may pass different
 * groups (since MPI 2.2), each a subgroup of comm, as long as every member
 * of a non-empty group passes that same group (same ranks, same order);
 * the groups passed are then disjoint.  One communicator is made per group,
 * for its members; a process outside the group it passes (MPI_GROUP_EMPTY,
 * say) gets MPI_COMM_NULL. */
static int exec_create_from_group(sim_coll *c, int *err_rank, char **why) {
    sim_comm *p = c->comm;
    sim_group **g = g_new0(sim_group *, p->size);
    int rc = MPI_SUCCESS;
    for (int r = 0; r < p->size && rc == MPI_SUCCESS; r++) {
        MPI_Group h = c->args[r].group;
        g[r] = sim_group_get(h);
        if (!g[r]) {
            rc = create_error(c, r, MPI_ERR_GROUP, err_rank, why,
                              g_strdup_printf("group 0x%x is not a valid group", (unsigned)h));
            break;
        }
        for (int i = 0; i < g[r]->size; i++)
            if (sim_comm_rank(p, g[r]->members[i]) < 0) {
                rc = create_error(c, r, MPI_ERR_GROUP, err_rank, why,
                                  g_strdup_printf("the group is not a subgroup of the "
                                                  "communicator: its rank %d is world rank "
                                                  "%d, not a member",
                                                  i, g[r]->members[i]));
                break;
            }
    }
    /* Every member of each group passes that group. */
    for (int r = 0; r < p->size && rc == MPI_SUCCESS; r++)
        for (int i = 0; i < g[r]->size; i++) {
            int m = sim_comm_rank(p, g[r]->members[i]);
            if (g[m] == g[r] || sim_group_compare(g[m], g[r]) == MPI_IDENT)
                continue;
            char *mine = members_text(g[r]), *theirs = members_text(g[m]);
            rc = create_error(c, r, MPI_ERR_GROUP, err_rank, why,
                              g_strdup_printf("its group (%s) includes comm rank %d, which passes "
                                              "another group (%s); every member of a group must "
                                              "pass the same group, so the groups are disjoint "
                                              "(MPI 3.1 section 6.4.2)",
                                              mine, m, theirs));
            g_free(mine);
            g_free(theirs);
            break;
        }
    if (rc != MPI_SUCCESS) {
        g_free(g);
        return rc;
    }
    give_null_to_all(c);
    /* One communicator per group, made in the order of the groups' lowest
     * comm ranks: a member's group is made when its turn comes. */
    bool *done = g_new0(bool, p->size);
    for (int r = 0; r < p->size; r++) {
        if (done[r] || sim_group_rank(g[r], p->members[r]) < 0)
            continue;
        sim_group *own = g[r];
        sim_comm *nc = comm_make(p, "create", own->size,
                                 g_memdup2(own->members, sizeof(int) * (size_t)own->size));
        for (int i = 0; i < nc->size; i++) {
            int m = sim_comm_rank(p, nc->members[i]);
            done[m] = true;
            give_handle(c, m, nc->handle);
        }
    }
    g_free(done);
    g_free(g);
    return MPI_SUCCESS;
}

static int exec_cart_create(sim_coll *c, int *err_rank, char **why) {
    sim_comm *p = c->comm;
    const sim_coll_args *a0 = &c->args[0];
    char *msg = NULL;
    int rc = sim_cart_check(a0->ndims, a0->dims, p->size, &msg);
    if (rc != MPI_SUCCESS)
        return create_error(c, 0, rc, err_rank, why, msg);
    for (int r = 0; r < p->size; r++) {
        const sim_coll_args *a = &c->args[r];
        if (a->ndims > 0 && !a->periods)
            return create_error(c, r, MPI_ERR_ARG, err_rank, why, g_strdup("periods is NULL"));
        if (r == 0)
            continue;
        if (a->ndims != a0->ndims)
            return create_error(
                c, r, MPI_ERR_DIMS, err_rank, why,
                g_strdup_printf("ndims = %d differs from comm rank 0's %d", a->ndims, a0->ndims));
        if (a->ndims > 0 && !a->dims)
            return create_error(c, r, MPI_ERR_ARG, err_rank, why, g_strdup("dims is NULL"));
        for (int i = 0; i < a0->ndims; i++) {
            if (a->dims[i] != a0->dims[i])
                return create_error(c, r, MPI_ERR_DIMS, err_rank, why,
                                    g_strdup_printf("dims[%d] = %d differs from comm rank 0's %d",
                                                    i, a->dims[i], a0->dims[i]));
            if ((a->periods[i] != 0) != (a0->periods[i] != 0))
                return create_error(
                    c, r, MPI_ERR_ARG, err_rank, why,
                    g_strdup_printf("periods[%d] = %d differs from comm rank 0's %d", i,
                                    a->periods[i], a0->periods[i]));
        }
    }
    int prod = 1;
    for (int i = 0; i < a0->ndims; i++)
        prod *= a0->dims[i];
    give_null_to_all(c);
    sim_comm *nc =
        comm_make(p, "cart_create", prod, g_memdup2(p->members, sizeof(int) * (size_t)prod));
    sim_comm_set_cart(nc, a0->ndims, a0->dims, a0->periods);
    for (int r = 0; r < prod; r++)
        give_handle(c, r, nc->handle);
    return MPI_SUCCESS;
}

/* The side of an intercommunicator that world rank w belongs to. */
static sim_comm *side_of(sim_comm *first, int w) {
    return sim_comm_rank(first, w) >= 0 ? first : first->remote;
}

static int exec_intercomm_merge(sim_coll *c, int *err_rank, char **why) {
    sim_comm *u = c->comm, *a = u->inter, *b = a->remote;
    /* Union ranks 0..na-1 are a's group, the rest b's. */
    int high[2] = {-1, -1}, first_of[2] = {0, a->size};
    for (int r = 0; r < u->size; r++) {
        int side = r >= a->size, h = c->args[r].color != 0;
        if (high[side] < 0)
            high[side] = h;
        else if (high[side] != h)
            return create_error(c, r, MPI_ERR_ARG, err_rank, why,
                                g_strdup_printf("high = %d differs from %d, which rank %d of the "
                                                "same group passed (a group passes one value)",
                                                h, high[side], first_of[side]));
    }
    bool a_first = high[0] <= high[1];
    const sim_comm *order[2] = {a_first ? a : b, a_first ? b : a};
    int *m = g_new(int, (size_t)order[0]->size + (size_t)order[1]->size), n = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < order[k]->size; i++)
            m[n++] = order[k]->members[i];
    sim_comm *nc = comm_make(u, "merge", n, m);
    char *la = label_of(a);
    g_free(nc->desc);
    nc->desc = g_strdup_printf("comm %d (merge of intercomm %s)", nc->id, la);
    g_free(la);
    for (int i = 0; i < n; i++)
        nc->errh[i] = sim_comm_errhandler(side_of(a, nc->members[i]), nc->members[i]);
    for (int r = 0; r < u->size; r++)
        give_handle(c, r, nc->handle);
    return MPI_SUCCESS;
}

static int exec_intercomm_dup(sim_coll *c) {
    sim_comm *u = c->comm, *a = u->inter, *b = a->remote;
    sim_comm *na = sim_comm_make_inter(a, a->size, g_memdup2(a->members, sizeof(int) * a->size), b,
                                       b->size, g_memdup2(b->members, sizeof(int) * b->size));
    for (int r = 0; r < u->size; r++)
        give_handle(c, r, r < a->size ? na->handle : na->remote->handle);
    return MPI_SUCCESS;
}

static bool same_ints(const int *a, const int *b, int n) {
    return n <= 0 || (a && b && memcmp(a, b, sizeof(int) * (size_t)n) == 0);
}

static int exec_graph_create(sim_coll *c, int *err_rank, char **why) {
    sim_comm *p = c->comm;
    const sim_topo_args *a0 = c->args[0].topo;
    for (int r = 1; r < p->size; r++) {
        const sim_topo_args *a = c->args[r].topo;
        const char *what =
            a->nnodes != a0->nnodes                                                       ? "nnodes"
            : !same_ints(a->index, a0->index, a0->nnodes)                                 ? "index"
            : !same_ints(a->edges, a0->edges, a0->nnodes ? a0->index[a0->nnodes - 1] : 0) ? "edges"
                                                                                          : NULL;
        if (what)
            return create_error(
                c, r, MPI_ERR_TOPOLOGY, err_rank, why,
                g_strdup_printf("%s differs from comm rank 0's (every member passes the same "
                                "graph)",
                                what));
    }
    give_null_to_all(c);
    if (a0->nnodes == 0)
        return MPI_SUCCESS;
    sim_comm *nc = comm_make(p, "graph_create", a0->nnodes,
                             g_memdup2(p->members, sizeof(int) * (size_t)a0->nnodes));
    set_graph(nc, a0->nnodes, a0->index, a0->edges);
    for (int r = 0; r < a0->nnodes; r++)
        give_handle(c, r, nc->handle);
    return MPI_SUCCESS;
}

/* Times src lists dst among its destinations minus times dst lists src
 * among its sources. */
static int edge_balance(const sim_dist_adj *adj, int src, int dst) {
    int n = 0;
    for (int i = 0; i < adj[src].outdegree; i++)
        n += adj[src].destinations[i] == dst;
    for (int i = 0; i < adj[dst].indegree; i++)
        n -= adj[dst].sources[i] == src;
    return n;
}

static int exec_dist_adjacent(sim_coll *c, int *err_rank, char **why) {
    sim_comm *p = c->comm;
    bool weighted = false;
    sim_dist_adj *adj = g_new0(sim_dist_adj, p->size);
    for (int r = 0; r < p->size; r++) {
        const sim_topo_args *a = c->args[r].topo;
        adj[r].indegree = a->indegree;
        adj[r].outdegree = a->outdegree;
        adj[r].sources = ints_copy(a->sources, a->indegree);
        adj[r].destinations = ints_copy(a->destinations, a->outdegree);
        if (!a->unweighted) {
            adj[r].sourceweights = ints_copy(a->sourceweights, a->indegree);
            adj[r].destweights = ints_copy(a->destweights, a->outdegree);
            weighted = true;
        }
    }
    /* Both ends of every edge must list it (MPI 3.1 section 7.5.4). */
    for (int r = 0; r < p->size; r++)
        for (int pass = 0; pass < 2; pass++) {
            const int *list = pass ? adj[r].sources : adj[r].destinations;
            int n = pass ? adj[r].indegree : adj[r].outdegree;
            for (int i = 0; i < n; i++) {
                int src = pass ? list[i] : r, dst = pass ? r : list[i];
                int bal = edge_balance(adj, src, dst);
                if (bal != 0) {
                    sim_comm tmp = {.size = p->size, .adj = adj};
                    dist_free(&tmp);
                    return create_error(
                        c, bal > 0 ? dst : src, MPI_ERR_TOPOLOGY, err_rank, why,
                        g_strdup_printf("comm rank %d lists %d as a destination %d time(s) more "
                                        "than comm rank %d lists %d as a source (both ends of an "
                                        "edge list it)",
                                        src, dst, bal, dst, src));
                }
            }
        }
    give_null_to_all(c);
    sim_comm *nc = comm_make(p, "dist_graph_create_adjacent", p->size,
                             g_memdup2(p->members, sizeof(int) * (size_t)p->size));
    set_dist(nc, adj, weighted);
    for (int r = 0; r < p->size; r++)
        give_handle(c, r, nc->handle);
    return MPI_SUCCESS;
}

static void adj_append(GArray *list, GArray *weights, int v, int w) {
    g_array_append_val(list, v);
    g_array_append_val(weights, w);
}

static int exec_dist_create(sim_coll *c, int *err_rank, char **why) {
    sim_comm *p = c->comm;
    int n = p->size;
    GArray **ins = g_new(GArray *, n), **inw = g_new(GArray *, n);
    GArray **outs = g_new(GArray *, n), **outw = g_new(GArray *, n);
    for (int r = 0; r < n; r++) {
        ins[r] = g_array_new(FALSE, FALSE, sizeof(int));
        inw[r] = g_array_new(FALSE, FALSE, sizeof(int));
        outs[r] = g_array_new(FALSE, FALSE, sizeof(int));
        outw[r] = g_array_new(FALSE, FALSE, sizeof(int));
    }
    bool weighted = false;
    int unweighted_at = -1;
    for (int r = 0; r < n; r++) {
        const sim_topo_args *a = c->args[r].topo;
        if (a->unweighted && unweighted_at < 0)
            unweighted_at = r;
        weighted = weighted || !a->unweighted;
        for (int i = 0, e = 0; i < a->n; i++)
            for (int k = 0; k < a->degrees[i]; k++, e++) {
                int src = a->srcs[i], dst = a->dests[e], w = a->unweighted ? 1 : a->weights[e];
                adj_append(outs[src], outw[src], dst, w);
                adj_append(ins[dst], inw[dst], src, w);
            }
    }
    int rc = MPI_SUCCESS;
    if (weighted && unweighted_at >= 0) {
        rc = create_error(c, unweighted_at, MPI_ERR_TOPOLOGY, err_rank, why,
                          g_strdup("weights is MPI_UNWEIGHTED here but not at every member "
                                   "(all give weights, or none)"));
    } else {
        give_null_to_all(c);
        sim_dist_adj *adj = g_new0(sim_dist_adj, n);
        for (int r = 0; r < n; r++) {
            adj[r].indegree = (int)ins[r]->len;
            adj[r].outdegree = (int)outs[r]->len;
            adj[r].sources = ints_copy((const int *)ins[r]->data, adj[r].indegree);
            adj[r].destinations = ints_copy((const int *)outs[r]->data, adj[r].outdegree);
            if (weighted) {
                adj[r].sourceweights = ints_copy((const int *)inw[r]->data, adj[r].indegree);
                adj[r].destweights = ints_copy((const int *)outw[r]->data, adj[r].outdegree);
            }
        }
        sim_comm *nc =
            comm_make(p, "dist_graph_create", n, g_memdup2(p->members, sizeof(int) * (size_t)n));
        set_dist(nc, adj, weighted);
        for (int r = 0; r < n; r++)
            give_handle(c, r, nc->handle);
    }
    for (int r = 0; r < n; r++) {
        g_array_free(ins[r], TRUE);
        g_array_free(inw[r], TRUE);
        g_array_free(outs[r], TRUE);
        g_array_free(outw[r], TRUE);
    }
    g_free(ins);
    g_free(inw);
    g_free(outs);
    g_free(outw);
    return rc;
}

int sim_comm_exec_create(sim_coll *c, int *err_rank, char **why) {
    switch (c->kind) {
    case SIM_COLL_COMM_DUP:
        return exec_dup(c);
    case SIM_COLL_COMM_SPLIT:
        return exec_split(c, false, err_rank, why);
    case SIM_COLL_COMM_SPLIT_TYPE:
        return exec_split(c, true, err_rank, why);
    case SIM_COLL_COMM_CREATE:
        return exec_create_from_group(c, err_rank, why);
    case SIM_COLL_CART_CREATE:
        return exec_cart_create(c, err_rank, why);
    case SIM_COLL_INTERCOMM_MERGE:
        return exec_intercomm_merge(c, err_rank, why);
    case SIM_COLL_INTERCOMM_DUP:
        return exec_intercomm_dup(c);
    case SIM_COLL_GRAPH_CREATE:
        return exec_graph_create(c, err_rank, why);
    case SIM_COLL_DIST_GRAPH_CREATE_ADJACENT:
        return exec_dist_adjacent(c, err_rank, why);
    case SIM_COLL_DIST_GRAPH_CREATE:
        return exec_dist_create(c, err_rank, why);
    default:
        return create_error(
            c, 0, MPI_ERR_INTERN, err_rank, why,
            g_strdup_printf("collective kind %d is not a communicator constructor", (int)c->kind));
    }
}
