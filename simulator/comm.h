/*
 * comm.h - communicators, groups and Cartesian topologies.
 *
 * One sim_comm object stands for a communicator as a whole: every member
 * rank holds the same handle value, which keeps handles deterministic and
 * lets the simulator compare ranks' views directly.  What MPI makes local to
 * a process (error handler, whether this rank has freed its handle, its
 * count of collective calls) is kept per member.
 *
 * Communicator constructors are collective: MPI_Comm_dup/split/create/
 * split_type and MPI_Cart_create post a collective (coll.h) and the new
 * communicators are made by sim_comm_exec_create when every member has
 * arrived.
 *
 * Handles: MPI_COMM_WORLD and MPI_COMM_SELF are MPICH's constants
 * (MPI_COMM_SELF names a different one-member communicator for each rank);
 * every other communicator gets SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, i)
 * with i = 0, 1, 2 ... in creation order, never reused (messages and
 * requests of other modules may still point at a freed communicator, so
 * communicator objects live until sim_comm_fini).
 *
 * Groups are one table shared by all ranks, like communicators, with
 * handles SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_GROUP, i), the lowest free i
 * first; empty groups are MPI_GROUP_EMPTY.  A group remembers which ranks
 * hold handles to it, so a rank using a handle it does not hold (a stale
 * copy after MPI_Group_free) is caught.
 *
 * Nothing here calls the rest of the simulator: this file's functions are
 * pure data-structure code, unit-tested on their own.
 */
#ifndef ORDEX_SIM_COMM_H
#define ORDEX_SIM_COMM_H

#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct sim_coll sim_coll;

typedef struct sim_group {
    MPI_Group handle;
    int size;
    int *members;        /* group rank -> world rank */
    int refs;            /* handles held by ranks + communicators using it */
    GHashTable *rank_of; /* world rank -> group rank + 1 (NULL for identity maps or size <= 1) */
    GHashTable *holders; /* world rank -> handles that rank holds (NULL: untracked refs only) */
} sim_group;

/* One member's neighbours in a distributed graph topology (MPI 3.1 section
 * 7.5.4), in the order given; the weights are NULL when unweighted. */
typedef struct sim_dist_adj {
    int indegree, outdegree;
    int *sources, *sourceweights;
    int *destinations, *destweights;
} sim_dist_adj;

typedef struct sim_comm {
    MPI_Comm handle;
    int id; /* creation order, 0 = MPI_COMM_WORLD, 1 = MPI_COMM_SELF of rank 0 ... */
    int size;
    int *members;          /* comm rank -> world rank */
    GHashTable *rank_of;   /* world rank -> comm rank + 1 (NULL for identity maps or size 1) */
    MPI_Errhandler *errh;  /* [size] error handler as each member set it */
    bool *released;        /* [size] member has freed its handle */
    uint64_t *coll_posted; /* [size] collectives posted so far by each member */
    GHashTable *colls;     /* collective sequence number -> sim_coll * in progress; keyed by
                              g_int64_hash/g_int64_equal on a g_malloc'ed uint64_t that the table
                              g_frees on removal; values are not freed by the table */
    char *name;            /* the name MPI_Comm_set_name gave last, for reports, or NULL */
    char **names;          /* [size] each member's own name (names are local), or NULL */
    char *desc;            /* sim_comm_describe's text, without the name */
    char *named;           /* the same with the name set, or NULL */
    GPtrArray *stale;      /* former `named` texts: reports may still point at them */
    sim_group *group;      /* MPI_Comm_group's result, made on first use; holds one ref */
    /* Cartesian topology (MPI_Cart_create, MPI_Cart_sub); cart == false means none.
     * ndims may be 0 on a Cartesian communicator (MPI 3.1 section 7.5.1). */
    bool cart;
    int ndims;
    int *dims;
    int *periods; /* 0 or 1 */
    /* Graph topology (MPI_Graph_create): nnodes > 0 means one; index and
     * edges as MPI_Graph_create takes them. */
    int nnodes;
    int *index, *edges;
    /* Distributed graph topology (MPI_Dist_graph_create[_adjacent]): adj
     * non-NULL means one, [size] by comm rank. */
    sim_dist_adj *adj;
    bool weighted;
    /* A group's own communicator (sim_comm_for_group): the communicator the
     * group was taken from; NULL for every other. */
    struct sim_comm *origin;
    /* Intercommunicators (MPI 3.1 section 6.6) are two objects, one per
     * group, each holding its group as members (so size and ranks are the
     * local group's, as MPI_Comm_size and _rank report them) and pointing
     * to the other as `remote`; a point-to-point peer is a rank of remote.
     * `both` is ordex's own communicator of both groups (remote's members
     * after first's), never given to the program, on which the
     * collectives that span the groups meet; its `inter` is `first`. */
    struct sim_comm *remote; /* NULL for an intracommunicator */
    struct sim_comm *both;
    struct sim_comm *first; /* the side whose group comes first in `both` */
    struct sim_comm *inter; /* on a `both`: the first side */
} sim_comm;

/* Sets up MPI_COMM_WORLD (all ranks) and the MPI_COMM_SELF of each rank,
 * and an empty group table.  Every member's error handler starts as
 * MPI_ERRORS_ARE_FATAL. */
void sim_comm_init(int nranks);
/* Frees every communicator and group and forgets the node map. */
void sim_comm_fini(void);

/* The communicator a handle names for the calling rank `world_rank`
 * (MPI_COMM_SELF resolves to that rank's own); NULL when the handle is not a
 * communicator, was freed by that rank, or that rank is not a member. */
sim_comm *sim_comm_get(MPI_Comm handle, int world_rank);

/* Why sim_comm_get(handle, world_rank) returns NULL, as a phrase for an
 * error message ("is MPI_COMM_NULL", "was freed by this rank", ...); NULL
 * when the handle is valid for that rank.  Static storage. */
const char *sim_comm_why_invalid(MPI_Comm handle, int world_rank);

/* Like sim_comm_get for the calling rank, reporting an invalid handle via
 * sim_error (MPI_ERR_COMM); returns the error code, 0 on success. */
int sim_comm_check(MPI_Comm handle, sim_comm **out);

/* Rank of world_rank in comm, -1 if not a member.  O(1). */
int sim_comm_rank(const sim_comm *comm, int world_rank);

/* World rank of comm rank r (0 <= r < size). */
static inline int sim_comm_world(const sim_comm *comm, int r) {
    return comm->members[r];
}

/* "MPI_COMM_WORLD", "MPI_COMM_SELF", or "comm 3 (split of MPI_COMM_WORLD)"
 * (3 = comm->id); with the name MPI_Comm_set_name gave it after the label,
 * as in "comm 3 \"rows\" (split of MPI_COMM_WORLD)", so that reports name
 * it as the program does.  Lives as long as comm. */
const char *sim_comm_describe(const sim_comm *comm);

/* MPI_Comm_get_name's answer for the member world_rank: the name it set,
 * else "MPI_COMM_WORLD" or "MPI_COMM_SELF" for those, else "". */
const char *sim_comm_name(const sim_comm *comm, int world_rank);

/* MPI_Comm_set_name by the member world_rank: keeps at most
 * MPI_MAX_OBJECT_NAME - 1 bytes of name, as that member's name (MPI 3.1
 * section 6.8: names are local to the process) and as the one reports use
 * (an empty name takes it away from the description). */
void sim_comm_set_name(sim_comm *comm, int world_rank, const char *name);

/* The error handler that the member world_rank has on comm. */
MPI_Errhandler sim_comm_errhandler(const sim_comm *comm, int world_rank);

/* Sets the error handler of the member world_rank (a member) on comm. */
void sim_comm_set_errhandler(sim_comm *comm, int world_rank, MPI_Errhandler errh);

/* MPI_Comm_free by the member world_rank: its handle becomes invalid for it.
 * Returns false (and changes nothing) for MPI_COMM_WORLD, an MPI_COMM_SELF,
 * a non-member or a member that already freed it. */
bool sim_comm_release(sim_comm *comm, int world_rank);

/* MPI_Comm_compare of two communicators: MPI_IDENT (same object),
 * MPI_CONGRUENT (same ranks in the same order), MPI_SIMILAR (same ranks,
 * another order) or MPI_UNEQUAL. */
int sim_comm_compare(const sim_comm *a, const sim_comm *b);

/* MPI_Comm_group: a handle to comm's group held by world_rank (one group
 * object per communicator, shared by all members' handles). */
MPI_Group sim_comm_group(sim_comm *comm, int world_rank);

/* Gives comm a Cartesian topology (replacing any): copies dims and periods
 * (ndims >= 0 entries each; periods are normalised to 0/1).  The caller
 * guarantees that the product of dims equals comm->size. */
void sim_comm_set_cart(sim_comm *comm, int ndims, const int *dims, const int *periods);

/* Executes a communicator-constructor collective (SIM_COLL_COMM_DUP,
 * _SPLIT, _SPLIT_TYPE, _CREATE, SIM_COLL_CART_CREATE) once all members have
 * arrived: makes the new communicators and writes each member's handle
 * (or MPI_COMM_NULL) through its args.newcomm.  Returns MPI_SUCCESS or an
 * error class with *err_rank (comm rank) and *why (g_free) set; on error
 * no communicator is made and every member gets MPI_COMM_NULL.
 *   DUP: same members, same topology; no name (on a group's communicator:
 *     see sim_comm_for_group).
 *   SPLIT: colour >= 0 or MPI_UNDEFINED (-> MPI_COMM_NULL); members ordered by
 *     key then old rank; the new communicators are made by increasing colour.
 *   SPLIT_TYPE: args.color is the split type; all members must pass the same
 *     type or MPI_UNDEFINED.  MPI_COMM_TYPE_SHARED groups ranks by
 *     sim_node_of; MPI_COMM_TYPE_HW_GUIDED/_UNGUIDED give MPI_COMM_NULL (no
 *     hardware hierarchy is modelled, which MPI 4.0 allows).
 *   CREATE: each member passes a subgroup of comm; members may pass
 *     different groups (MPI 2.2 on), but every member of a non-empty group
 *     must pass that group (same ranks, same order), so the groups are
 *     disjoint.  Each member of a group gets that group's communicator
 *     (made in the order of the groups' lowest comm ranks); a rank outside
 *     the group it passes gets MPI_COMM_NULL.
 *   CART_CREATE: every member passes the same ndims, dims and periods; the
 *     first prod(dims) ranks form the new communicator (reorder ignored).
 *   INTERCOMM_MERGE (on an intercommunicator's `both`): args.color is
 *     `high`, the same for every member of a group; the group with high
 *     false comes first (the first side when both are the same); each
 *     member keeps its error handler of the intercommunicator.
 *   INTERCOMM_DUP (on `both`): a new intercommunicator of the same groups.
 *   GRAPH_CREATE: args.topo (sim_topo_args); every member passes the same
 *     nnodes, index and edges; the first nnodes ranks form the new
 *     communicator (reorder ignored), the others get MPI_COMM_NULL.
 *   DIST_GRAPH_CREATE_ADJACENT: each member's own neighbours; every edge
 *     listed by its source must be listed by its destination, as often.
 *   DIST_GRAPH_CREATE: the edges any member gives, gathered: a process's
 *     sources and destinations in the order of the members giving them
 *     and the order they give them.  Weighted unless every member passed
 *     MPI_UNWEIGHTED.
 * New communicators inherit each member's error handler from comm. */
int sim_comm_exec_create(sim_coll *c, int *err_rank, char **why);

/* A communicator of parent's members in parent's order for ordex's own use
 * (a window's synchronisation, error handler and reports): its handle is
 * never given to the program.  Every member's error handler starts as
 * MPI_ERRORS_ARE_FATAL; `how` names it in sim_comm_describe ("comm 7 (how
 * of MPI_COMM_WORLD)"). */
sim_comm *sim_comm_make_private(const sim_comm *parent, const char *how);

/* MPI_Comm_create_group is collective over the members of a group only:
 * they meet on a communicator of their own, one per parent, tag and group
 * (members in group order), made by the first of them to call and never
 * given to the program.  Its MPI_Comm_dup (SIM_COLL_COMM_DUP) makes the new
 * communicator, described as "create_group of" parent, with the members'
 * error handlers on parent.  g's members must be parent's. */
sim_comm *sim_comm_for_group(sim_comm *parent, const sim_group *g, int tag);

/* Makes an intercommunicator of group a (na world ranks, members of pa,
 * taken) and group b (of pb, taken), the groups disjoint: returns a's side,
 * whose remote is b's.  Each member's error handler is the one it has on
 * its parent. */
sim_comm *sim_comm_make_inter(const sim_comm *pa, int na, int *a, const sim_comm *pb, int nb,
                              int *b);

/* Node of a world rank for MPI_COMM_TYPE_SHARED (0 unless a node map is set). */
int sim_node_of(int world_rank);

/* Sets the node of every world rank (node_of_rank has one entry per world
 * rank and is copied); NULL puts every rank back on node 0.  Call after
 * sim_comm_init. */
void sim_comm_set_node_map(const int *node_of_rank);

/* ---------------------------------------------------------------------- */
/* Graph and distributed graph topologies, neighbourhoods (graph.c)         */

/* The arguments of MPI_Graph_create and MPI_Dist_graph_create(_adjacent)
 * of one member (sim_coll_args.topo). */
typedef struct sim_topo_args {
    /* MPI_Graph_create */
    int nnodes;
    const int *index, *edges;
    /* MPI_Dist_graph_create_adjacent (weights NULL: MPI_UNWEIGHTED) */
    int indegree, outdegree;
    const int *sources, *sourceweights, *destinations, *destweights;
    /* MPI_Dist_graph_create (weights NULL: MPI_UNWEIGHTED) */
    int n;
    const int *srcs, *degrees, *dests, *weights;
    bool unweighted; /* the member passed MPI_UNWEIGHTED */
} sim_topo_args;

/* MPI_Graph_create's local checks of index and edges for nnodes nodes:
 * index non-decreasing from >= 0, edges within 0..nnodes-1.  MPI_SUCCESS,
 * or MPI_ERR_ARG / MPI_ERR_TOPOLOGY with *why. */
int sim_graph_check(int nnodes, const int index[], const int edges[], int size, char **why);

/* The neighbours of comm rank r of a communicator with a topology, in the
 * order the neighbourhood collectives use (MPI 3.1 section 7.6): a
 * Cartesian grid's for each dimension the one in the negative then in the
 * positive direction (MPI_PROC_NULL past a border), a graph's as listed
 * for r (in = out), a distributed graph's sources and destinations.
 * *in and *out (g_free) are comm ranks.  False for a communicator without
 * a topology. */
bool sim_comm_neighbors(const sim_comm *c, int r, int **in, int *nin, int **out, int *nout);

/* Where the data that comm rank src sends to its out-neighbour number j
 * arrives: *dst (-1 for MPI_PROC_NULL) and the slot among dst's
 * in-neighbours.  In a grid, what goes in the negative direction arrives
 * in the receiver's positive-direction slot and the other way round (MPI
 * 4.0 section 8.6); in graphs the k-th edge from src to dst is dst's k-th
 * in-neighbour src.  False when dst has no such in-neighbour (a graph whose
 * neighbour lists are not symmetric), with *why. */
bool sim_comm_neighbor_slot(const sim_comm *c, int src, int j, int *dst, int *slot, char **why);

/* ---------------------------------------------------------------------- */
/* Groups                                                                   */

/* Any live group (MPI_GROUP_EMPTY included), whoever holds it; NULL when the
 * handle is not a live group. */
sim_group *sim_group_get(MPI_Group handle);

/* Like sim_group_get, but NULL unless world_rank holds a handle to the group
 * (groups made by sim_group_new have no recorded holders and pass). */
sim_group *sim_group_get_for(MPI_Group handle, int world_rank);

/* Why sim_group_get_for(handle, world_rank) returns NULL, as a phrase
 * ("is MPI_GROUP_NULL", "was freed", ...); NULL when valid.  Static storage. */
const char *sim_group_why_invalid(MPI_Group handle, int world_rank);

/* A new group of `size` members (world_members is copied; world ranks must be
 * distinct).  size 0 gives MPI_GROUP_EMPTY. */
MPI_Group sim_group_new(int size, const int *world_members); /* refs = 1, no recorded holder */
MPI_Group sim_group_new_for(int world_rank, int size, const int *world_members); /* held by it */

/* Drops one reference; the group is destroyed (its index reusable) at 0.
 * No-op for MPI_GROUP_EMPTY. */
void sim_group_release(sim_group *g);

/* MPI_Group_free by world_rank: drops one of its handles.  False when it
 * holds none (no-op); true (no-op) for MPI_GROUP_EMPTY. */
bool sim_group_release_for(sim_group *g, int world_rank);

/* Rank of world_rank in g, -1 if not a member.  O(1). */
int sim_group_rank(const sim_group *g, int world_rank);

/* MPI_Group_compare: MPI_IDENT (same members, same order), MPI_SIMILAR
 * (same members, another order) or MPI_UNEQUAL. */
int sim_group_compare(const sim_group *a, const sim_group *b);

/* Group algebra (MPI 3.1 section 6.3.2) on world-rank member lists.  Each
 * sets *out (g_free; NULL when *outn == 0) and *outn.  Functions returning
 * int return MPI_SUCCESS, or an error class with *why (g_free) naming the
 * argument and value ("ranks[2] = 5 is out of range for a group of size 4"),
 * and then set nothing else. */
int sim_group_incl_members(const sim_group *g, int n, const int ranks[], int **out, int *outn,
                           char **why);
int sim_group_excl_members(const sim_group *g, int n, const int ranks[], int **out, int *outn,
                           char **why);
/* MPI_Group_range_incl (include) or _range_excl: every computed rank must be
 * valid and distinct; a stride is never 0. */
int sim_group_range_members(const sim_group *g, int n, const int ranges[][3], bool include,
                            int **out, int *outn, char **why);
/* a's members, then b's that are not in a. */
void sim_group_union_members(const sim_group *a, const sim_group *b, int **out, int *outn);
/* a's members that are in b, in a's order. */
void sim_group_intersection_members(const sim_group *a, const sim_group *b, int **out, int *outn);
/* a's members that are not in b, in a's order. */
void sim_group_difference_members(const sim_group *a, const sim_group *b, int **out, int *outn);

/* MPI_Group_translate_ranks: ranks2[i] = rank in b of a's rank ranks1[i];
 * MPI_PROC_NULL stays MPI_PROC_NULL, non-members of b give MPI_UNDEFINED.
 * MPI_ERR_RANK for a rank outside a. */
int sim_group_translate(const sim_group *a, int n, const int ranks1[], const sim_group *b,
                        int ranks2[], char **why);

/* ---------------------------------------------------------------------- */
/* Cartesian topologies (MPI 3.1 section 7.5), row-major: the last
 * dimension varies fastest.                                               */

/* Checks MPI_Cart_create's grid for a communicator of `size` ranks:
 * ndims >= 0 (MPI_ERR_DIMS), every dims[i] > 0 (MPI_ERR_DIMS), product <=
 * size (MPI_ERR_TOPOLOGY).  Returns MPI_SUCCESS or the class with *why. */
int sim_cart_check(int ndims, const int dims[], int size, char **why);

/* Coordinates of rank (0 <= rank < prod(dims)) into coords[ndims]. */
void sim_cart_coords(int ndims, const int dims[], int rank, int coords[]);

/* MPI_Cart_rank: periodic dimensions wrap around; an out-of-range coordinate
 * in a non-periodic one is MPI_ERR_ARG (with *why). */
int sim_cart_rank(int ndims, const int dims[], const int periods[], const int coords[], int *rank,
                  char **why);

/* MPI_Cart_shift from `rank` along `direction` (0 <= direction < ndims, the
 * caller's check) by disp: *source = rank at -disp, *dest = rank at +disp,
 * MPI_PROC_NULL past a non-periodic border. */
void sim_cart_shift(int ndims, const int dims[], const int periods[], int rank, int direction,
                    int disp, int *source, int *dest);

/* MPI_Cart_sub's split of a grid: *color numbers the subgrid holding rank
 * (row-major over the dropped dimensions), *key is rank's row-major index
 * within it (over the kept dimensions, remain_dims[i] != 0). */
void sim_cart_sub_color_key(int ndims, const int dims[], const int remain_dims[], int rank,
                            int *color, int *key);

/* MPI_Dims_create (MPI 3.1 section 7.5.2): fills the zero entries of
 * dims[ndims] so that the product is nnodes and the filled values are as
 * close to each other as possible (smallest max - min, then smallest
 * maximum) in non-increasing order; non-zero entries are kept.  Errors:
 * ndims < 0, nnodes < 1 or a negative entry (MPI_ERR_DIMS / MPI_ERR_ARG),
 * nnodes not a multiple of the fixed entries' product (MPI_ERR_DIMS); dims
 * is then unchanged. */
int sim_dims_create(int nnodes, int ndims, int dims[], char **why);

#endif
