/*
 * datatype_internal.h - what the files of the datatype module share: the
 * flattened layout of a datatype and the form of a type signature, and the
 * functions one of its files gives the others.  Private to simulator/:
 * datatype.h is the module's interface.
 *
 * Representation.  A type is stored flattened, never as a tree of its old
 * types, so that packing is a loop of memcpy calls and a new type owes
 * nothing to its old types (they may be freed at once).  Because
 * constructors mostly repeat one layout (vector, contiguous), the flat form
 * keeps one level of repetition instead of spelling every copy out:
 *
 *   data:       `unit` (blocks of bytes, in typemap order, merged whenever
 *               one ends where the next begins), repeated `nrep` times,
 *               copy r shifted by r * rep_stride;
 *   signature:  a shared, interned tree of runs of basic types and
 *               repeats (see typesig.c).
 *
 * The two are kept apart so that a dense unit can collapse into one block
 * (one memcpy) while its signature keeps several basic types.
 *
 * Bounds follow MPI 3.1 section 4.1.6: lower/upper-bound markers (set by
 * MPI_Type_create_resized, or MPI_LB/MPI_UB in MPI_Type_struct) are sticky
 * and win over the data's own bounds; struct types without an upper marker
 * are padded to the largest alignment of their basic types (epsilon).
 */
#ifndef ORDEX_SIM_DATATYPE_INTERNAL_H
#define ORDEX_SIM_DATATYPE_INTERNAL_H

#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "simulator/datatype.h"

/* One stretch of contiguous bytes of an element, relative to the buffer
 * address (not to lb). */
typedef struct dt_block {
    MPI_Aint off;
    size_t len;
} dt_block;

/* One item of a signature: a run of `count` elements of one basic type, or
 * `count` passes over another signature (a repeat). */
typedef struct sig_item {
    MPI_Datatype basic;      /* a run's basic type; MPI_DATATYPE_NULL in a repeat */
    const sim_typesig *body; /* a repeat's body (a counted reference); NULL in a run */
    size_t count;
} sig_item;

/* Immutable and interned (see typesig.c). */
struct sim_typesig {
    int refs;
    guint n;             /* items */
    guint depth;         /* repeats nested inside: 0 when every item is a run */
    guint hash;          /* of the items, for interning */
    size_t bytes, elems; /* packed bytes and basic elements of one pass */
    sig_item items[];
};

struct sim_datatype {
    MPI_Datatype handle;
    int creator; /* world rank; -1 for predefined types */
    int refs;    /* the table's own plus sim_dt_ref holds */
    bool predefined;
    bool committed;
    bool freed;     /* MPI_Type_free came; the handle names it only for the pending operations
                       that hold references, and is given out again after the last */
    bool lb_marked; /* lb comes from a sticky marker */
    bool ub_marked;
    size_t size;     /* data bytes in one element */
    size_t align;    /* largest alignment of its basic types */
    MPI_Aint lb, ub; /* extent = ub - lb */
    MPI_Aint true_lb, true_ub;
    GArray *unit; /* dt_block */
    size_t nrep;
    MPI_Aint rep_stride;    /* equals the extent when nrep == 1 (see tiles() in typebuild.c) */
    const sim_typesig *sig; /* of one element; a reference */
    char *label;            /* sim_dt_name of a derived type */
    char *name;             /* MPI_Type_set_name of a derived type; NULL = unnamed */
    uint64_t serial;        /* see sim_dt_serial */
    /* How the type was made, for MPI_Type_get_envelope/get_contents (MPI
     * 3.1 section 4.1.13): the combiner and the constructor's arguments.
     * The old types are kept as references (recipe_objs, NULL for
     * predefined types and markers) because get_contents must hand back
     * equivalent types even after the program freed the originals. */
    int combiner; /* MPI_COMBINER_NAMED for predefined types */
    int recipe_ni, recipe_na, recipe_nd;
    int *recipe_ints;
    MPI_Aint *recipe_aints;
    MPI_Datatype *recipe_types;
    const sim_datatype **recipe_objs;
};

/* Limits what a single type may flatten to (its blocks; its signature's
 * items, which only a type of as many pieces of different types reaches),
 * so a program building an absurd type gets an error instead of exhausting
 * the machine: 2^22 blocks are 64 MiB. */
#define DT_MAX_PIECES ((size_t)1 << 22)

/* ---- the type table (datatype.c) ---- */

/* A new type with an empty unit, nrep 1, one reference, no creator. */
sim_datatype *sim_dt_alloc(void);
/* Frees dt and drops its signature reference (not its table slot). */
void sim_dt_destroy(sim_datatype *dt);
/* Appends len bytes at off to a block list, joining the last block when
 * it ends where they begin; nothing for len 0. */
void sim_dt_blocks_append(GArray *blocks, MPI_Aint off, size_t len);
/* Gives dt the lowest free derived handle (and its label); returns it. */
MPI_Datatype sim_dt_table_insert(sim_datatype *dt);
/* Sets *why (when why is non-NULL) to the formatted message; returns
 * errclass. */
int sim_dt_fail(char **why, int errclass, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* ---- constructor records (typeenvelope.c) ---- */

/* Records on the new type `h` its combiner and the constructor's arguments
 * (copied), replacing an earlier record (typearray.c builds subarrays from
 * hindexed and resized types, then says what the program asked for).
 * Derived old types get a sim_dt_ref each. */
void sim_dt_set_recipe(MPI_Datatype h, int combiner, int ni, const int *ints, int na,
                       const MPI_Aint *aints, int nd, const MPI_Datatype *types);
/* Copies old's record to dt (more references to the same old types). */
void sim_dt_copy_recipe(sim_datatype *dt, const sim_datatype *old);
/* Drops the record's references (the last sim_dt_unref of dt) and frees
 * it; sim_dt_destroy frees the arrays only, since sim_dt_fini destroys
 * every type at once whatever references it. */
void sim_dt_recipe_release(sim_datatype *dt);
/* Forgets the cached MPI_Type_create_f90_* types (sim_dt_fini destroys
 * them with the table). */
void sim_dt_f90_reset(void);

/* ---- building signatures (typesig.c) ---- */

/* Creates and destroys the set of interned signatures (sim_dt_init and
 * sim_dt_fini call these); a signature still referenced after fini lives
 * on outside the set. */
void sim_typesig_table_init(void);
void sim_typesig_table_fini(void);

/* A signature under construction: items with their body references. */
typedef struct sim_sig_builder {
    GArray *items; /* sig_item */
    bool too_big;  /* more than DT_MAX_PIECES items were asked for */
} sim_sig_builder;

void sim_sb_init(sim_sig_builder *b);
/* Appends count elements of one basic type. */
void sim_sb_run(sim_sig_builder *b, MPI_Datatype basic, size_t count);
/* Appends k passes over signature s. */
void sim_sb_sig(sim_sig_builder *b, const sim_typesig *s, size_t k);
/* The built signature, a reference the caller owns (NULL when it grew too
 * large); frees the builder. */
const sim_typesig *sim_sb_finish(sim_sig_builder *b);

#endif
