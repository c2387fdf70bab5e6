/*
 * comm.c - communicators, groups and Cartesian topologies (see comm.h).
 *
 * Written from MPI 3.1 chapters 6 (groups, communicators) and 7 (process
 * topologies).  This file depends on no other part of the simulator so that
 * it can be unit-tested alone; argument errors found here are returned as
 * MPI error classes with a message, and mpi_comm.c reports them.
 */
#include "simulator/comm.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "simulator/coll.h"
#include "simulator/handle.h"

static struct {
    int nranks;
    sim_comm *world;
    sim_comm **selves;  /* [nranks] */
    GPtrArray *comms;   /* direct communicators by handle index */
    GPtrArray *groups;  /* direct groups by handle index; NULL slots are free */
    GTree *free_groups; /* free group indices + 1 (a GTree key must not be 0) */
    int *node_map;      /* [nranks] or NULL */
} st;

/* MPI_GROUP_EMPTY is one shared object that is never destroyed. */
static sim_group group_empty = {.handle = MPI_GROUP_EMPTY};

/* ---------------------------------------------------------------------- */
/* Member lists                                                            */

/* Identity maps (world and its prefixes) and single members need no table,
 * which keeps world and the thousands of MPI_COMM_SELFs cheap. */
static GHashTable *index_members(int size, const int *members) {
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

static int lookup_rank(GHashTable *rank_of, int size, const int *members, int world_rank) {
    if (rank_of) {
        gpointer v = g_hash_table_lookup(rank_of, GINT_TO_POINTER(world_rank));
        return v ? GPOINTER_TO_INT(v) - 1 : -1;
    }
    if (size == 1)
        return members[0] == world_rank ? 0 : -1;
    return world_rank >= 0 && world_rank < size ? world_rank : -1;
}

/* Members are distinct, so equal sizes and a inside b means the same set. */
static int compare_members(int na, const int *ma, int nb, const int *mb, GHashTable *b_rank_of) {
    if (na != nb)
        return MPI_UNEQUAL;
    if (na == 0 || memcmp(ma, mb, sizeof(int) * (size_t)na) == 0)
        return MPI_IDENT;
    for (int i = 0; i < na; i++)
        if (lookup_rank(b_rank_of, nb, mb, ma[i]) < 0)
            return MPI_UNEQUAL;
    return MPI_SIMILAR;
}

static char *format_ints(int n, const int *v) {
    GString *s = g_string_new("(");
    for (int i = 0; i < n; i++)
        g_string_append_printf(s, i ? ", %d" : "%d", v[i]);
    g_string_append_c(s, ')');
    return g_string_free(s, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Communicator objects                                                    */

static sim_comm *comm_alloc(int id, MPI_Comm handle, int size, int *members) {
    sim_comm *c = g_new0(sim_comm, 1);
    c->handle = handle;
    c->id = id;
    c->size = size;
    c->members = members;
    c->rank_of = index_members(size, members);
    c->errh = g_new(MPI_Errhandler, size);
    for (int i = 0; i < size; i++)
        c->errh[i] = MPI_ERRORS_ARE_FATAL;
    c->released = g_new0(bool, size);
    c->coll_posted = g_new0(uint64_t, size);
    c->colls = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    return c;
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
    g_free(c->desc);
    g_free(c->dims);
    g_free(c->periods);
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

static gint cmp_index(gconstpointer a, gconstpointer b, gpointer unused) {
    guint x = GPOINTER_TO_UINT(a), y = GPOINTER_TO_UINT(b);
    return x < y ? -1 : x > y;
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
    st.groups = g_ptr_array_new();
    st.free_groups = g_tree_new_full(cmp_index, NULL, NULL, NULL);
}

static void group_free(sim_group *g) {
    if (!g || g == &group_empty)
        return;
    g_free(g->members);
    if (g->rank_of)
        g_hash_table_destroy(g->rank_of);
    if (g->holders)
        g_hash_table_destroy(g->holders);
    g_free(g);
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
    if (st.groups) {
        for (guint i = 0; i < st.groups->len; i++)
            group_free(g_ptr_array_index(st.groups, i));
        g_ptr_array_free(st.groups, TRUE);
    }
    if (st.free_groups)
        g_tree_destroy(st.free_groups);
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
    return lookup_rank(comm->rank_of, comm->size, comm->members, world_rank);
}

const char *sim_comm_describe(const sim_comm *comm) {
    return comm->desc;
}

const char *sim_comm_name(const sim_comm *comm) {
    if (comm->name)
        return comm->name;
    const char *label = comm_label(comm);
    return label ? label : "";
}

void sim_comm_set_name(sim_comm *comm, const char *name) {
    g_free(comm->name);
    comm->name = g_strndup(name, MPI_MAX_OBJECT_NAME - 1);
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
    int res = compare_members(a->size, a->members, b->size, b->members, b->rank_of);
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
/* Groups                                                                  */

/* A group with no references yet.  The lowest free index is reused so that
 * the handles a program sees depend only on which groups are alive. */
static sim_group *group_make(int size, const int *members) {
    guint index;
    GTreeNode *first = g_tree_node_first(st.free_groups);
    if (first) {
        gpointer key = g_tree_node_key(first);
        index = GPOINTER_TO_UINT(key) - 1;
        g_tree_remove(st.free_groups, key);
    } else {
        index = st.groups->len;
        g_ptr_array_add(st.groups, NULL);
    }
    sim_group *g = g_new0(sim_group, 1);
    g->handle = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_GROUP, index);
    g->size = size;
    g->members = g_memdup2(members, sizeof(int) * (size_t)size);
    g->rank_of = index_members(size, members);
    g_ptr_array_index(st.groups, index) = g;
    return g;
}

static void group_hold(sim_group *g, int world_rank) {
    if (!g->holders)
        g->holders = g_hash_table_new(g_direct_hash, g_direct_equal);
    gpointer key = GINT_TO_POINTER(world_rank);
    int n = GPOINTER_TO_INT(g_hash_table_lookup(g->holders, key));
    g_hash_table_insert(g->holders, key, GINT_TO_POINTER(n + 1));
    g->refs++;
}

static int group_held(const sim_group *g, int world_rank) {
    return GPOINTER_TO_INT(g_hash_table_lookup(g->holders, GINT_TO_POINTER(world_rank)));
}

MPI_Group sim_group_new(int size, const int *world_members) {
    if (size <= 0)
        return MPI_GROUP_EMPTY;
    sim_group *g = group_make(size, world_members);
    g->refs = 1;
    return g->handle;
}

MPI_Group sim_group_new_for(int world_rank, int size, const int *world_members) {
    if (size <= 0)
        return MPI_GROUP_EMPTY;
    sim_group *g = group_make(size, world_members);
    group_hold(g, world_rank);
    return g->handle;
}

MPI_Group sim_comm_group(sim_comm *comm, int world_rank) {
    if (!comm->group) {
        comm->group = group_make(comm->size, comm->members);
        comm->group->refs = 1;
    }
    group_hold(comm->group, world_rank);
    return comm->group->handle;
}

sim_group *sim_group_get(MPI_Group handle) {
    if (handle == MPI_GROUP_EMPTY)
        return &group_empty;
    if (!st.groups || SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT ||
        SIM_HANDLE_OBJ(handle) != SIM_OBJ_GROUP)
        return NULL;
    guint index = SIM_HANDLE_INDEX(handle);
    return index < st.groups->len ? g_ptr_array_index(st.groups, index) : NULL;
}

sim_group *sim_group_get_for(MPI_Group handle, int world_rank) {
    sim_group *g = sim_group_get(handle);
    if (!g || g == &group_empty || !g->holders)
        return g;
    return group_held(g, world_rank) > 0 ? g : NULL;
}

const char *sim_group_why_invalid(MPI_Group handle, int world_rank) {
    if (handle == MPI_GROUP_NULL)
        return "is MPI_GROUP_NULL";
    if (SIM_HANDLE_OBJ(handle) != SIM_OBJ_GROUP ||
        (handle != MPI_GROUP_EMPTY && SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT))
        return "is not a group handle";
    if (!sim_group_get(handle))
        return "names no live group (freed, or never created)";
    if (!sim_group_get_for(handle, world_rank))
        return "is not held by this rank (it freed its handle, or the value came from another "
               "rank)";
    return NULL;
}

void sim_group_release(sim_group *g) {
    if (g == &group_empty || --g->refs > 0)
        return;
    guint index = SIM_HANDLE_INDEX(g->handle);
    g_ptr_array_index(st.groups, index) = NULL;
    g_tree_insert(st.free_groups, GUINT_TO_POINTER(index + 1), GUINT_TO_POINTER(index + 1));
    group_free(g);
}

bool sim_group_release_for(sim_group *g, int world_rank) {
    if (g == &group_empty)
        return true;
    if (!g->holders)
        return false;
    int n = group_held(g, world_rank);
    if (n <= 0)
        return false;
    if (n == 1)
        g_hash_table_remove(g->holders, GINT_TO_POINTER(world_rank));
    else
        g_hash_table_insert(g->holders, GINT_TO_POINTER(world_rank), GINT_TO_POINTER(n - 1));
    sim_group_release(g);
    return true;
}

int sim_group_rank(const sim_group *g, int world_rank) {
    return lookup_rank(g->rank_of, g->size, g->members, world_rank);
}

int sim_group_compare(const sim_group *a, const sim_group *b) {
    return compare_members(a->size, a->members, b->size, b->members, b->rank_of);
}

/* Validates ranks[0..n-1] as distinct ranks of g; marks them in seen[g->size]. */
static int check_rank_list(const sim_group *g, int n, const int ranks[], bool *seen, char **why) {
    if (n < 0) {
        *why = g_strdup_printf("n = %d is negative", n);
        return MPI_ERR_ARG;
    }
    if (n > g->size) {
        *why = g_strdup_printf("n = %d exceeds the group size %d (ranks must be distinct)", n,
                               g->size);
        return MPI_ERR_ARG;
    }
    if (n > 0 && !ranks) {
        *why = g_strdup("ranks is NULL");
        return MPI_ERR_ARG;
    }
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size) {
            *why = g_strdup_printf("ranks[%d] = %d is out of range for a group of size %d", i, r,
                                   g->size);
            return MPI_ERR_RANK;
        }
        if (seen[r]) {
            *why = g_strdup_printf("ranks[%d] = %d repeats an earlier entry", i, r);
            return MPI_ERR_RANK;
        }
        seen[r] = true;
    }
    return MPI_SUCCESS;
}

static void set_out(int *res, int n, int **out, int *outn) {
    if (n == 0) {
        g_free(res);
        res = NULL;
    }
    *out = res;
    *outn = n;
}

int sim_group_incl_members(const sim_group *g, int n, const int ranks[], int **out, int *outn,
                           char **why) {
    bool *seen = g_new0(bool, g->size);
    int rc = check_rank_list(g, n, ranks, seen, why);
    g_free(seen);
    if (rc != MPI_SUCCESS)
        return rc;
    int *res = g_new(int, n);
    for (int i = 0; i < n; i++)
        res[i] = g->members[ranks[i]];
    set_out(res, n, out, outn);
    return MPI_SUCCESS;
}

/* The members of g whose rank is not marked in skip, in order. */
static void members_except(const sim_group *g, const bool *skip, int **out, int *outn) {
    int *res = g_new(int, g->size);
    int k = 0;
    for (int r = 0; r < g->size; r++)
        if (!skip[r])
            res[k++] = g->members[r];
    set_out(res, k, out, outn);
}

int sim_group_excl_members(const sim_group *g, int n, const int ranks[], int **out, int *outn,
                           char **why) {
    bool *seen = g_new0(bool, g->size);
    int rc = check_rank_list(g, n, ranks, seen, why);
    if (rc == MPI_SUCCESS)
        members_except(g, seen, out, outn);
    g_free(seen);
    return rc;
}

int sim_group_range_members(const sim_group *g, int n, const int ranges[][3], bool include,
                            int **out, int *outn, char **why) {
    if (n < 0) {
        *why = g_strdup_printf("n = %d is negative", n);
        return MPI_ERR_ARG;
    }
    if (n > 0 && !ranges) {
        *why = g_strdup("ranges is NULL");
        return MPI_ERR_ARG;
    }
    bool *seen = g_new0(bool, g->size);
    /* Valid distinct ranks number at most g->size, and the walk stops at the
     * first invalid or repeated one, so this loop is O(n + size). */
    GArray *picked = g_array_new(FALSE, FALSE, sizeof(int));
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0 || (stride > 0 && first > last) || (stride < 0 && first < last)) {
            *why = g_strdup_printf("ranges[%d] = {%d, %d, %d} %s", i, first, last, stride,
                                   stride == 0  ? "has stride 0"
                                   : stride > 0 ? "has first > last with a positive stride"
                                                : "has first < last with a negative stride");
            rc = MPI_ERR_ARG;
            break;
        }
        for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (r < 0 || r >= g->size) {
                *why = g_strdup_printf("ranges[%d] = {%d, %d, %d} reaches rank %lld, out of range "
                                       "for a group of size %d",
                                       i, first, last, stride, r, g->size);
                rc = MPI_ERR_RANK;
                break;
            }
            if (seen[r]) {
                *why = g_strdup_printf("ranges[%d] = {%d, %d, %d} reaches rank %lld, which an "
                                       "earlier range already gave",
                                       i, first, last, stride, r);
                rc = MPI_ERR_RANK;
                break;
            }
            seen[r] = true;
            int member = g->members[r];
            g_array_append_val(picked, member);
        }
    }
    if (rc == MPI_SUCCESS) {
        if (include) {
            int k = (int)picked->len;
            set_out((int *)(void *)g_array_free(picked, FALSE), k, out, outn);
            picked = NULL;
        } else {
            members_except(g, seen, out, outn);
        }
    }
    if (picked)
        g_array_free(picked, TRUE);
    g_free(seen);
    return rc;
}

void sim_group_union_members(const sim_group *a, const sim_group *b, int **out, int *outn) {
    int *res = g_new(int, a->size + b->size);
    int k = 0;
    for (int i = 0; i < a->size; i++)
        res[k++] = a->members[i];
    for (int i = 0; i < b->size; i++)
        if (sim_group_rank(a, b->members[i]) < 0)
            res[k++] = b->members[i];
    set_out(res, k, out, outn);
}

static void filter_members(const sim_group *a, const sim_group *b, bool keep_in_b, int **out,
                           int *outn) {
    int *res = g_new(int, a->size);
    int k = 0;
    for (int i = 0; i < a->size; i++)
        if ((sim_group_rank(b, a->members[i]) >= 0) == keep_in_b)
            res[k++] = a->members[i];
    set_out(res, k, out, outn);
}

void sim_group_intersection_members(const sim_group *a, const sim_group *b, int **out, int *outn) {
    filter_members(a, b, true, out, outn);
}

void sim_group_difference_members(const sim_group *a, const sim_group *b, int **out, int *outn) {
    filter_members(a, b, false, out, outn);
}

int sim_group_translate(const sim_group *a, int n, const int ranks1[], const sim_group *b,
                        int ranks2[], char **why) {
    if (n < 0) {
        *why = g_strdup_printf("n = %d is negative", n);
        return MPI_ERR_ARG;
    }
    if (n > 0 && (!ranks1 || !ranks2)) {
        *why = g_strdup(!ranks1 ? "ranks1 is NULL" : "ranks2 is NULL");
        return MPI_ERR_ARG;
    }
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        if (r != MPI_PROC_NULL && (r < 0 || r >= a->size)) {
            *why = g_strdup_printf("ranks1[%d] = %d is out of range for group1 of size %d", i, r,
                                   a->size);
            return MPI_ERR_RANK;
        }
    }
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        if (r == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
        } else {
            int rb = sim_group_rank(b, a->members[r]);
            ranks2[i] = rb >= 0 ? rb : MPI_UNDEFINED;
        }
    }
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Cartesian topologies                                                    */

int sim_cart_check(int ndims, const int dims[], int size, char **why) {
    if (ndims < 0) {
        *why = g_strdup_printf("ndims = %d is negative", ndims);
        return MPI_ERR_DIMS;
    }
    if (ndims > 0 && !dims) {
        *why = g_strdup("dims is NULL");
        return MPI_ERR_ARG;
    }
    long long prod = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0) {
            *why = g_strdup_printf("dims[%d] = %d is not positive", i, dims[i]);
            return MPI_ERR_DIMS;
        }
        /* Saturate: only "more than size" matters, and size fits an int. */
        prod = prod > size ? prod : prod * dims[i];
    }
    if (prod > size) {
        char *list = format_ints(ndims, dims);
        *why = g_strdup_printf("dims %s make a grid larger than the communicator's %d ranks", list,
                               size);
        g_free(list);
        return MPI_ERR_TOPOLOGY;
    }
    return MPI_SUCCESS;
}

void sim_cart_coords(int ndims, const int dims[], int rank, int coords[]) {
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

int sim_cart_rank(int ndims, const int dims[], const int periods[], const int coords[], int *rank,
                  char **why) {
    int r = 0;
    for (int i = 0; i < ndims; i++) {
        int c = coords[i], d = dims[i];
        if (c < 0 || c >= d) {
            if (!periods[i]) {
                *why = g_strdup_printf("coords[%d] = %d is outside 0..%d in a non-periodic "
                                       "dimension",
                                       i, c, d - 1);
                return MPI_ERR_ARG;
            }
            c = (c % d + d) % d;
        }
        r = r * d + c;
    }
    *rank = r;
    return MPI_SUCCESS;
}

void sim_cart_shift(int ndims, const int dims[], const int periods[], int rank, int direction,
                    int disp, int *source, int *dest) {
    /* Moving along one dimension changes the rank by multiples of the
     * product of the faster-varying dimensions after it. */
    int stride = 1;
    for (int i = ndims - 1; i > direction; i--)
        stride *= dims[i];
    int d = dims[direction];
    int c = rank / stride % d;
    long long targets[2] = {(long long)c - disp, (long long)c + disp};
    int *outs[2] = {source, dest};
    for (int k = 0; k < 2; k++) {
        long long t = targets[k];
        if (t < 0 || t >= d) {
            if (!periods[direction]) {
                *outs[k] = MPI_PROC_NULL;
                continue;
            }
            t = (t % d + d) % d;
        }
        *outs[k] = rank + (int)(t - c) * stride;
    }
}

void sim_cart_sub_color_key(int ndims, const int dims[], const int remain_dims[], int rank,
                            int *color, int *key) {
    int col = 0, k = 0, cmul = 1, kmul = 1;
    for (int i = ndims - 1; i >= 0; i--) {
        int c = rank % dims[i];
        rank /= dims[i];
        if (remain_dims[i]) {
            k += c * kmul;
            kmul *= dims[i];
        } else {
            col += c * cmul;
            cmul *= dims[i];
        }
    }
    *color = col;
    *key = k;
}

/* r^e <= x, without overflow. */
static bool pow_le(long long r, int e, long long x) {
    long long acc = 1;
    for (int i = 0; i < e; i++) {
        if (r > 1 && acc > x / r)
            return false;
        acc *= r;
    }
    return acc <= x;
}

/* Largest r with r^e <= x (x >= 1, e >= 1). */
static long long iroot_floor(long long x, int e) {
    long long lo = 1, hi = x;
    while (lo < hi) {
        long long mid = lo + (hi - lo + 1) / 2;
        if (pow_le(mid, e, x))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Smallest r with r^e >= x. */
static long long iroot_ceil(long long x, int e) {
    long long r = iroot_floor(x, e);
    return pow_le(r, e, x - 1) ? r + 1 : r;
}

typedef struct dims_search {
    int k;           /* dimensions to fill */
    GArray *divs;    /* divisors of the product, ascending (long long) */
    long long *cur;  /* [k], non-increasing */
    long long *best; /* [k] */
    long long best_spread;
} dims_search;

/* Depth-first over non-increasing factorisations, smallest candidate first so
 * the balanced ones come early and bound the rest. */
static void dims_search_from(dims_search *s, int i, long long rem, long long maxd) {
    int left = s->k - i;
    if (left == 1) {
        if (rem > maxd)
            return;
        s->cur[i] = rem;
        long long spread = s->cur[0] - rem;
        if (spread < s->best_spread) {
            s->best_spread = spread;
            memcpy(s->best, s->cur, sizeof(long long) * (size_t)s->k);
        }
        return;
    }
    long long lo = iroot_ceil(rem, left);
    for (guint j = 0; j < s->divs->len; j++) {
        long long d = g_array_index(s->divs, long long, j);
        if (d < lo || rem % d)
            continue;
        if (d > maxd || d > rem)
            break;
        /* The smallest of the remaining values is at most min(d, root). */
        long long rest_root = iroot_floor(rem / d, left - 1);
        long long top = i == 0 ? d : s->cur[0];
        long long bound = top - (rest_root < d ? rest_root : d);
        if (bound >= s->best_spread) {
            if (i == 0) /* the bound only grows with d at the top level */
                break;
            continue;
        }
        s->cur[i] = d;
        dims_search_from(s, i + 1, rem / d, d);
    }
}

int sim_dims_create(int nnodes, int ndims, int dims[], char **why) {
    if (ndims < 0) {
        *why = g_strdup_printf("ndims = %d is negative", ndims);
        return MPI_ERR_DIMS;
    }
    if (nnodes < 1) {
        *why = g_strdup_printf("nnodes = %d is not positive", nnodes);
        return MPI_ERR_ARG;
    }
    if (ndims > 0 && !dims) {
        *why = g_strdup("dims is NULL");
        return MPI_ERR_ARG;
    }
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0) {
            *why = g_strdup_printf("dims[%d] = %d is negative", i, dims[i]);
            return MPI_ERR_DIMS;
        }
        if (dims[i] == 0)
            nfree++;
        else
            fixed = fixed > nnodes ? fixed : fixed * dims[i]; /* saturate above nnodes */
    }
    if (nnodes % fixed != 0 || (nfree == 0 && fixed != nnodes)) {
        char *list = format_ints(ndims, dims);
        if (nfree == 0)
            *why = g_strdup_printf("dims %s has no zero entry and its product is not nnodes = %d",
                                   list, nnodes);
        else
            *why = g_strdup_printf("nnodes = %d is not a multiple of the product of the non-zero "
                                   "entries of dims %s",
                                   nnodes, list);
        g_free(list);
        return MPI_ERR_DIMS;
    }
    if (nfree == 0)
        return MPI_SUCCESS;

    long long m = nnodes / fixed;
    dims_search s = {.k = nfree, .best_spread = LLONG_MAX};
    s.divs = g_array_new(FALSE, FALSE, sizeof(long long));
    GArray *high = g_array_new(FALSE, FALSE, sizeof(long long));
    for (long long d = 1; d * d <= m; d++) {
        if (m % d)
            continue;
        g_array_append_val(s.divs, d);
        long long q = m / d;
        if (q != d)
            g_array_prepend_val(high, q);
    }
    g_array_append_vals(s.divs, high->data, high->len);
    g_array_free(high, TRUE);
    s.cur = g_new0(long long, nfree);
    s.best = g_new0(long long, nfree);
    dims_search_from(&s, 0, m, m);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = (int)s.best[j++];
    g_free(s.cur);
    g_free(s.best);
    g_array_free(s.divs, TRUE);
    return MPI_SUCCESS;
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
    sim_comm *n =
        comm_make(p, "dup", p->size, g_memdup2(p->members, sizeof(int) * (size_t)p->size));
    if (p->cart)
        sim_comm_set_cart(n, p->ndims, p->dims, p->periods);
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

/* Why two groups that should be equal are not, for an error message. */
static char *group_difference_text(const sim_group *g, const sim_group *g0) {
    if (g->size != g0->size)
        return g_strdup_printf("it has %d members, comm rank 0's group has %d", g->size, g0->size);
    int i = 0;
    while (g->members[i] == g0->members[i])
        i++;
    return g_strdup_printf(
        "its group rank %d is world rank %d, in comm rank 0's group world rank %d", i,
        g->members[i], g0->members[i]);
}

static int exec_create_from_group(sim_coll *c, int *err_rank, char **why) {
    sim_comm *p = c->comm;
    sim_group *g0 = NULL;
    for (int r = 0; r < p->size; r++) {
        MPI_Group h = c->args[r].group;
        sim_group *g = sim_group_get(h);
        if (!g)
            return create_error(c, r, MPI_ERR_GROUP, err_rank, why,
                                g_strdup_printf("group 0x%x is not a valid group", (unsigned)h));
        if (r == 0) {
            g0 = g;
            for (int i = 0; i < g->size; i++)
                if (sim_comm_rank(p, g->members[i]) < 0)
                    return create_error(c, 0, MPI_ERR_GROUP, err_rank, why,
                                        g_strdup_printf("the group is not a subgroup of the "
                                                        "communicator: its rank %d is world rank "
                                                        "%d, not a member",
                                                        i, g->members[i]));
        } else if (g != g0 && sim_group_compare(g, g0) != MPI_IDENT) {
            char *diff = group_difference_text(g, g0);
            char *msg = g_strdup_printf("all members must pass the same group, but %s", diff);
            g_free(diff);
            return create_error(c, r, MPI_ERR_GROUP, err_rank, why, msg);
        }
    }
    give_null_to_all(c);
    if (!g0 || g0->size == 0)
        return MPI_SUCCESS;
    sim_comm *nc =
        comm_make(p, "create", g0->size, g_memdup2(g0->members, sizeof(int) * (size_t)g0->size));
    for (int i = 0; i < nc->size; i++)
        give_handle(c, sim_comm_rank(p, nc->members[i]), nc->handle);
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
    default:
        return create_error(
            c, 0, MPI_ERR_INTERN, err_rank, why,
            g_strdup_printf("collective kind %d is not a communicator constructor", (int)c->kind));
    }
}
