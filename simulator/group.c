/*
 * group.c - MPI groups (MPI 3.1 section 6.3): the group table and its
 * handles, which ranks hold which handle, and the group constructors'
 * member lists (incl, excl, ranges, union, intersection, difference) and
 * rank translation.  Pure data-structure code, like comm.c.
 */
#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <string.h>

#include "simulator/comm.h"
#include "simulator/comm_internal.h"
#include "simulator/handle.h"

static struct {
    GPtrArray *groups;  /* direct groups by handle index; NULL slots are free */
    GTree *free_groups; /* free group indices + 1 (a GTree key must not be 0) */
} gt;

/* MPI_GROUP_EMPTY is one shared object that is never destroyed. */
static sim_group group_empty = {.handle = MPI_GROUP_EMPTY};

static gint cmp_index(gconstpointer a, gconstpointer b, gpointer unused) {
    guint x = GPOINTER_TO_UINT(a), y = GPOINTER_TO_UINT(b);
    return x < y ? -1 : x > y;
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

void sim_group_table_init(void) {
    gt.groups = g_ptr_array_new();
    gt.free_groups = g_tree_new_full(cmp_index, NULL, NULL, NULL);
}

void sim_group_table_fini(void) {
    if (gt.groups) {
        for (guint i = 0; i < gt.groups->len; i++)
            group_free(g_ptr_array_index(gt.groups, i));
        g_ptr_array_free(gt.groups, TRUE);
    }
    if (gt.free_groups)
        g_tree_destroy(gt.free_groups);
    memset(&gt, 0, sizeof gt);
}

/* ---------------------------------------------------------------------- */
/* Groups                                                                  */

/* A group with no references yet.  The lowest free index is reused so that
 * the handles a program sees depend only on which groups are alive. */
static sim_group *group_make(int size, const int *members) {
    guint index;
    GTreeNode *first = g_tree_node_first(gt.free_groups);
    if (first) {
        gpointer key = g_tree_node_key(first);
        index = GPOINTER_TO_UINT(key) - 1;
        g_tree_remove(gt.free_groups, key);
    } else {
        index = gt.groups->len;
        g_ptr_array_add(gt.groups, NULL);
    }
    sim_group *g = g_new0(sim_group, 1);
    g->handle = SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_GROUP, index);
    g->size = size;
    g->members = g_memdup2(members, sizeof(int) * (size_t)size);
    g->rank_of = sim_members_index(size, members);
    g_ptr_array_index(gt.groups, index) = g;
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
    if (!gt.groups || SIM_HANDLE_KIND(handle) != SIM_HKIND_DIRECT ||
        SIM_HANDLE_OBJ(handle) != SIM_OBJ_GROUP)
        return NULL;
    guint index = SIM_HANDLE_INDEX(handle);
    return index < gt.groups->len ? g_ptr_array_index(gt.groups, index) : NULL;
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
    g_ptr_array_index(gt.groups, index) = NULL;
    g_tree_insert(gt.free_groups, GUINT_TO_POINTER(index + 1), GUINT_TO_POINTER(index + 1));
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
    return sim_members_rank(g->rank_of, g->size, g->members, world_rank);
}

int sim_group_compare(const sim_group *a, const sim_group *b) {
    return sim_members_compare(a->size, a->members, b->size, b->members, b->rank_of);
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
