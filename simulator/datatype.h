/*
 * datatype.h - MPI datatypes: the predefined C types, derived constructors,
 * packing by typemap and type-signature matching.
 *
 * A datatype is a typemap: a sequence of (basic type, byte displacement)
 * with a lower bound and an extent.  Messages travel packed: the sender's
 * buffer is packed by its datatype into contiguous bytes, the message
 * refers to the datatype's type signature (the sequence of basic types,
 * kept run-length encoded) and a count, and the receiver unpacks those
 * bytes by its own datatype after checking that the signatures match (MPI
 * 3.1 section 3.3.1: each basic type of the message must equal the
 * receiver's; MPI_BYTE and MPI_PACKED match any basic type).
 *
 * Handles: predefined types are MPICH's constants; derived types get
 * handles from SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_DATATYPE, index).
 * Derived datatypes are shared by all ranks (one table) but remember the
 * creating rank so that MPI_Type_free by another rank is an error.
 * MPICH's own pair types (MPI_FLOAT_INT ... MPI_LONG_DOUBLE_INT) are direct
 * handles with indices 0-4, so derived types start at index
 * SIM_DT_FIRST_DERIVED_INDEX.
 *
 * Functions taking a `const sim_datatype *` require a non-NULL pointer from
 * sim_dt_get/sim_dt_lookup.  The module is not thread-safe: only one rank
 * runs at a time.
 */
#ifndef ORDEX_SIM_DATATYPE_H
#define ORDEX_SIM_DATATYPE_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sim_datatype sim_datatype;

#define SIM_DT_FIRST_DERIVED_INDEX 16

/* A type signature: the sequence of basic types of one element of a
 * datatype, run-length encoded, with repeats for copies of derived types.
 * Immutable and shared: a datatype keeps its own from construction on, and
 * a message or collective that needs it after the type may be freed takes
 * a reference; "count elements of dt" is (sim_dt_typesig(dt), count). */
typedef struct sim_typesig sim_typesig;

/* Bytes of one element of a basic type: MPICH encodes a builtin type's size
 * in bits 8-15 of its handle (datatype.c checks that against C). */
static inline size_t sim_dt_basic_size(MPI_Datatype basic) {
    return ((unsigned)basic >> 8) & 0xffu;
}

/* Looks a handle up; NULL when it is not a datatype.  A type freed by
 * MPI_Type_free is still found while operations that use it are pending
 * (they hold sim_dt_ref references; MPI lets them complete): this is the
 * lookup of execution, argument checks use sim_dt_lookup, which refuses
 * it.  Inline for the builtin types (every message looks its type up
 * several times); the rest goes to sim_dt_get_any. */
typedef struct sim_dt_builtin_slot {
    MPI_Datatype handle;
    const sim_datatype *dt;
} sim_dt_builtin_slot;
/* Builtin handles by their low byte, filled by sim_dt_init; not for use
 * outside sim_dt_get. */
extern sim_dt_builtin_slot sim_dt_builtins[256];
const sim_datatype *sim_dt_get_any(MPI_Datatype type);
static inline const sim_datatype *sim_dt_get(MPI_Datatype type) {
    const sim_dt_builtin_slot *s = &sim_dt_builtins[(unsigned)type & 0xffu];
    if (__builtin_expect(s->handle == type && s->dt != NULL, 1))
        return s->dt;
    return sim_dt_get_any(type);
}

/* True when the type may be used in communication (predefined, or committed). */
bool sim_dt_committed(const sim_datatype *dt);

size_t sim_dt_size(const sim_datatype *dt);     /* MPI_Type_size */
MPI_Aint sim_dt_extent(const sim_datatype *dt); /* MPI_Type_get_extent */
MPI_Aint sim_dt_lb(const sim_datatype *dt);
/* For reports: "MPI_INT", "derived type 0x8c000010", 'derived type
 * 0x8c000010 "row"' once named, "invalid datatype 0x00001234" for anything else.
 * Never NULL; a derived type's string lives until it is freed or renamed. */
const char *sim_dt_name(MPI_Datatype type);

/* True for a single predefined type that MPI_SUM etc. may be applied to:
 * every predefined handle of mpi.h, the pair types (MPI_DOUBLE_INT, MPI_2INT,
 * ...) included; whether a given op accepts it is op.c's business.  False for
 * MPI_DATATYPE_NULL, MPI_LB/MPI_UB and every derived type (contiguous derived
 * types of one basic type and duplicates of predefined types included). */
bool sim_dt_is_predefined(MPI_Datatype type);

/* Packs count elements of dt starting at buf into out (sim_dt_size*count bytes). */
void sim_dt_pack(const sim_datatype *dt, const void *buf, int count, void *out);

/* Unpacks `bytes` packed bytes into count elements of dt at buf; bytes may be
 * less than a whole number of elements (a short message). */
void sim_dt_unpack(const sim_datatype *dt, const void *in, size_t bytes, void *buf, int count);

/* dt's signature (valid while dt is; sim_typesig_ref to keep it longer). */
const sim_typesig *sim_dt_typesig(const sim_datatype *dt);

/* sim_typesig_ref returns sig; every ref needs one sim_typesig_unref
 * (which accepts NULL). */
const sim_typesig *sim_typesig_ref(const sim_typesig *sig);
void sim_typesig_unref(const sim_typesig *sig);

/* Packed bytes of one pass over sig (sim_dt_size of its type). */
size_t sim_typesig_bytes(const sim_typesig *sig);

/* Checks that a message of msg_count passes over signature msg can be
 * received into count elements of dt: the message's basic types must be a
 * prefix of the receive type's signature.  Returns true on a match;
 * otherwise false and, when why is not NULL, a short description (g_free
 * it) such as "element 3 is MPI_DOUBLE in the message but MPI_INT in the
 * receive type" (elements are the message's basic elements, counted from
 * 0; the one named holds the first byte that differs).
 *
 * Only the part of the message that fits into the receive buffer is
 * compared: a message longer than sim_dt_size(dt)*count bytes is a
 * truncation (MPI_ERR_TRUNCATE, the caller's check), not a signature
 * mismatch, so it matches when its first sim_dt_size(dt)*count bytes do.
 * MPI_BYTE and MPI_PACKED on either side match any basic type byte for byte
 * (a 3-byte MPI_BYTE message matches a receive of one MPI_INT).  Costs the
 * signatures' structure, not their element counts: no expansion, and the
 * same structure on both sides is recognised at once. */
bool sim_typesig_matches(const sim_typesig *msg, size_t msg_count, const sim_datatype *dt,
                         int count, char **why);

/* True when acount passes over a and bcount passes over b are the same
 * sequence of basic types, with no MPI_BYTE/MPI_PACKED exception (what a
 * reduction needs of its members' data). */
bool sim_typesig_same(const sim_typesig *a, size_t acount, const sim_typesig *b, size_t bcount);

/* Calls fn for each run of count passes over sig, in order: maximal runs
 * (two consecutive calls never name the same basic type), as if the
 * signature were written out element by element; no call for an empty
 * one.  Stops when fn returns false; returns false then, true otherwise.
 * Takes time in the number of runs: for inspecting a type, not for each
 * message. */
typedef bool (*sim_sigrun_fn)(MPI_Datatype basic, size_t count, void *data);
bool sim_typesig_each_run(const sim_typesig *sig, size_t count, sim_sigrun_fn fn, void *data);

/* MPI_Get_count / MPI_Get_elements for a message of `bytes` packed bytes
 * received as dt: MPI_UNDEFINED when not a whole number (of dt elements,
 * resp. of basic elements) or when the result does not fit in an int.  A
 * type of size 0 gives 0 (MPI 3.1 section 3.2.5). */
int sim_dt_count_of(const sim_datatype *dt, size_t bytes);
int sim_dt_elements_of(const sim_datatype *dt, size_t bytes);

/* Process-wide setup and teardown of the type tables.  sim_dt_init is
 * idempotent and also runs on first use; sim_dt_fini frees every type whose
 * handle is still valid (sim_dt_ref references to those become invalid;
 * freed types kept by references go with their last sim_dt_unref), after
 * which the module may be set up again. */
void sim_dt_init(void);
void sim_dt_fini(void);

/* ---------------------------------------------------------------------- */
/* Additions: lookup with the caller's checks, more queries               */

/* Like sim_dt_get, for an argument named argname ("oldtype") of an MPI call
 * made by world rank `rank`: also refuses MPI_DATATYPE_NULL, MPI_LB/MPI_UB,
 * types freed with MPI_Type_free and derived types created by another rank (handles are local to
 * the rank that made them; rank -1 skips that check).  On failure returns NULL and sets *why
 * (g_free it) to a message naming the argument, e.g. "oldtype is MPI_DATATYPE_NULL". */
const sim_datatype *sim_dt_lookup(MPI_Datatype type, int rank, const char *argname, char **why);
/* While `on`, sim_dt_lookup takes types freed with MPI_Type_free that
 * references still keep: the start of a persistent operation made before the
 * free, which MPI lets go on using the type.  Returns the previous setting. */
bool sim_dt_accept_freed(bool on);

MPI_Datatype sim_dt_handle(const sim_datatype *dt);

/* The one basic type of dt's whole signature (MPI_INT for a vector of
 * MPI_INT, MPI_INT for MPI_2INT), or MPI_DATATYPE_NULL when it has several
 * (MPI_DOUBLE_INT, structs) or none (empty types): lets a reduction treat a
 * derived type of one basic type as sim_dt_elements_of(...) elements of it. */
MPI_Datatype sim_dt_uniform_basic(const sim_datatype *dt);
MPI_Aint sim_dt_true_lb(const sim_datatype *dt);     /* MPI_Type_get_true_extent */
MPI_Aint sim_dt_true_extent(const sim_datatype *dt); /* 0 for an empty type */

/* True when count elements of dt are exactly sim_dt_size(dt)*count
 * consecutive bytes starting at buf + *offset (a contiguous type of a basic
 * type, a predefined type, ...): the caller may then copy them directly. */
bool sim_dt_is_dense(const sim_datatype *dt, int count, MPI_Aint *offset);

/* One buffer argument of a call: count elements of dt at buf (buf may be
 * MPI_BOTTOM with absolute displacements). */
typedef struct sim_dt_region {
    const void *buf;
    int count;
    const sim_datatype *dt; /* NULL: the region is empty */
} sim_dt_region;

/* Whether some byte belongs both to a region of a[0..na) and to one of
 * b[0..nb) (MPI 3.1 section 2.3: an argument a call writes must not alias
 * another).  A region's bytes are those of its type map: the gaps of a
 * strided type belong to no region, so interleaved buffers do not overlap.
 * Regions of no bytes (count <= 0, empty types, dt NULL) overlap nothing.
 * Sides whose bounds (true extents) do not meet are decided at once; sides
 * of more than SIM_DT_OVERLAP_MAX_BLOCKS blocks within those bounds are
 * not compared and give false (no alarm that may be false).  On overlap,
 * *first is an address in both. */
enum { SIM_DT_OVERLAP_MAX_BLOCKS = 1 << 20 };
bool sim_dt_regions_overlap(const sim_dt_region *a, int na, const sim_dt_region *b, int nb,
                            uintptr_t *first);

/* MPI_Get_elements_x: like sim_dt_elements_of without the int limit. */
MPI_Count sim_dt_elements_of_x(const sim_datatype *dt, size_t bytes);

/* Calls fn for every stretch of contiguous bytes that count elements of dt
 * at address 0 touch, in typemap order (offsets relative to the buffer;
 * stretches may repeat or overlap when the type map does). */
typedef void (*sim_block_fn)(MPI_Aint off, size_t len, void *data);
void sim_dt_each_block(const sim_datatype *dt, int count, sim_block_fn fn, void *data);
/* Calls fn for every run of n basic elements of one type that lie one
 * after the other from byte `off` (relative to the buffer) in count
 * elements of dt, in typemap order; MPI_BYTE pieces come as bytes.  Stops
 * when fn returns false, and returns false then.  Takes time in the number
 * of blocks and runs of the type map. */
typedef bool (*sim_element_fn)(MPI_Datatype basic, MPI_Aint off, size_t n, void *data);
bool sim_dt_each_element(const sim_datatype *dt, int count, sim_element_fn fn, void *data);

/* Whether two bytes of count elements of dt at one buffer are the same
 * byte (a type map that overlaps itself: MPI forbids it in a receive
 * buffer, MPI 3.1 section 3.2.2); *at is then the offset of the first such
 * byte from the buffer.  Types of more than SIM_DT_OVERLAP_MAX_BLOCKS
 * blocks are not looked at (false). */
bool sim_dt_overlaps_itself(const sim_datatype *dt, int count, MPI_Aint *at);

/* A number that no other datatype of this process had or will have:
 * caches keyed by it never confuse a freed type with one that later gets
 * its handle. */
uint64_t sim_dt_serial(const sim_datatype *dt);

/* The inverse, for MPI_Status_set_elements: the packed bytes of the first
 * `elements` basic elements of passes over dt (0 for elements <= 0 or a
 * type without elements), so that sim_dt_elements_of_x gives elements
 * back. */
size_t sim_dt_bytes_of_elements(const sim_datatype *dt, MPI_Count elements);

/* Keeps dt alive across MPI_Type_free (a pending operation that still has to
 * pack or unpack with it: MPI lets communication using a freed type
 * complete), and its handle naming it for sim_dt_get.  sim_dt_ref returns
 * dt; every ref needs one sim_dt_unref.  No-ops on predefined types. */
const sim_datatype *sim_dt_ref(const sim_datatype *dt);
void sim_dt_unref(const sim_datatype *dt);

/* ---------------------------------------------------------------------- */
/* Constructors and life cycle (the bodies of MPI_Type_*)                  */
/*
 * Every function below checks all its arguments: on success it returns
 * MPI_SUCCESS; otherwise it returns an MPI error class (MPI_ERR_COUNT for a
 * negative count, MPI_ERR_ARG for other bad numbers and NULL pointers,
 * MPI_ERR_TYPE for a bad datatype or a type too large for ordex) and sets
 * *why (g_free it) to a message naming the argument and its value, such as
 * "count -1 is negative" or "array_of_types[2] is MPI_DATATYPE_NULL", for the
 * caller to prefix with the MPI function's name.  `rank` is the calling world
 * rank; new types belong to it.  New types are uncommitted (except as noted)
 * and get the lowest free derived handle.  Displacements and strides in
 * elements are multiplied by the old type's extent; the h* variants take
 * bytes.  Old types need not be committed; a new type does not depend on its
 * old types afterwards (they may be freed).
 */
int sim_dt_create_contiguous(int rank, int count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                             char **why);
int sim_dt_create_vector(int rank, int count, int blocklength, int stride, MPI_Datatype oldtype,
                         MPI_Datatype *newtype, char **why);
int sim_dt_create_hvector(int rank, int count, int blocklength, MPI_Aint stride,
                          MPI_Datatype oldtype, MPI_Datatype *newtype, char **why);
int sim_dt_create_indexed(int rank, int count, const int array_of_blocklengths[],
                          const int array_of_displacements[], MPI_Datatype oldtype,
                          MPI_Datatype *newtype, char **why);
int sim_dt_create_hindexed(int rank, int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                           MPI_Datatype *newtype, char **why);
int sim_dt_create_indexed_block(int rank, int count, int blocklength,
                                const int array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype, char **why);
int sim_dt_create_hindexed_block(int rank, int count, int blocklength,
                                 const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype, char **why);
/* MPI_Type_create_struct; array_of_types may contain the MPI-1 markers
 * MPI_LB and MPI_UB (MPI_Type_struct).  Without an upper-bound marker the
 * extent is rounded up to the largest alignment of the basic types it holds,
 * as C pads structs (MPI 3.1 section 4.1.6, epsilon). */
int sim_dt_create_struct(int rank, int count, const int array_of_blocklengths[],
                         const MPI_Aint array_of_displacements[],
                         const MPI_Datatype array_of_types[], MPI_Datatype *newtype, char **why);
/* MPI_Type_create_resized: sets lower- and upper-bound markers (sticky in
 * later constructors, MPI 3.1 section 4.1.7). */
int sim_dt_create_resized(int rank, MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                          MPI_Datatype *newtype, char **why);
/* MPI_Type_create_subarray: every start + subsize within its size (a
 * subsize may be 0); lower bound 0 and extent prod(sizes) *
 * extent(oldtype).  Built from hindexed and resized types (typearray.c),
 * whose intermediate handles are freed again. */
int sim_dt_create_subarray(int rank, int ndims, const int sizes[], const int subsizes[],
                           const int starts[], int order, MPI_Datatype oldtype,
                           MPI_Datatype *newtype, char **why);
/* MPI_Type_create_darray: the share of process darray_rank (of `size`, in
 * a row-major grid of psizes) of an array of gsizes distributed BLOCK,
 * CYCLIC or NONE per dimension; the extent spans the whole array as for a
 * subarray.  A BLOCK whose darg does not cover the dimension, a NONE
 * dimension over several processes, or a grid of other than `size`
 * processes is MPI_ERR_ARG. */
int sim_dt_create_darray(int rank, int size, int darray_rank, int ndims, const int gsizes[],
                         const int distribs[], const int dargs[], const int psizes[], int order,
                         MPI_Datatype oldtype, MPI_Datatype *newtype, char **why);
/* MPI_Type_dup: the copy is committed when oldtype is (or is predefined). */
int sim_dt_dup(int rank, MPI_Datatype oldtype, MPI_Datatype *newtype, char **why);

/* MPI_Type_commit: committing a committed or predefined type is a no-op. */
int sim_dt_commit(int rank, MPI_Datatype type, char **why);

/* MPI_Type_free: refuses predefined types and other ranks' types.  The handle
 * is invalid for the program at once (sim_dt_lookup refuses it); the object,
 * and its handle for sim_dt_get, live on while sim_dt_ref references remain,
 * and the handle is handed out again only after the last. */
int sim_dt_free(int rank, MPI_Datatype type, char **why);

/* MPI_Type_set_name / MPI_Type_get_name as seen by `rank` (names of
 * predefined types are per rank; they start as "MPI_INT" etc.; unnamed
 * derived types have the empty name).  set truncates to
 * MPI_MAX_OBJECT_NAME-1 characters.  get returns NULL for a handle that
 * sim_dt_lookup refuses; the string lives until the next set_name on it or
 * the type's end. */
int sim_dt_set_name(int rank, MPI_Datatype type, const char *name, char **why);
const char *sim_dt_get_name(int rank, MPI_Datatype type);

/* ---------------------------------------------------------------------- */
/* How a type was made (MPI 3.1 section 4.1.13; typeenvelope.c)            */

/* MPI_Type_get_envelope: the numbers of integers, addresses and datatypes
 * MPI_Type_get_contents gives, and the combiner (MPI_COMBINER_NAMED for
 * predefined types, F90_* for the types of MPI_Type_create_f90_*). */
void sim_dt_envelope(const sim_datatype *dt, int *ni, int *na, int *nd, int *combiner);

/* MPI_Type_get_contents for `rank`: copies the constructor's arguments.
 * Old types that were predefined (or markers) come back as their handles;
 * derived ones as new types of `rank` equivalent to them (their own
 * envelope and contents, committed when they were), even when the
 * program freed them since; fresh[i] (when fresh is not NULL) says which,
 * since those the program must free.  MPI_ERR_TYPE for a named type,
 * MPI_ERR_ARG for arrays shorter than the envelope's counts. */
int sim_dt_contents(int rank, const sim_datatype *dt, int max_integers, int ints[],
                    int max_addresses, MPI_Aint aints[], int max_datatypes, MPI_Datatype types[],
                    bool fresh[], char **why);

/* MPI_Type_create_f90_integer/real/complex (combiner MPI_COMBINER_F90_*;
 * p is ignored for integers): the smallest kind of an x86-64 Fortran
 * compiler with at least precision p and decimal exponent range r
 * (MPI_UNDEFINED: any), as SELECTED_INT_KIND/SELECTED_REAL_KIND choose:
 * integers of range 2, 4, 9, 18 (INTEGER1..8), reals and complexes of
 * precision 6, 15, 33 and range 37, 307, 4931 (REAL4/8/16).  The type is
 * predefined (never freed, no leak) and the same handle comes back for
 * the same arguments.  MPI_ERR_ARG when no kind fits. */
int sim_dt_f90(int combiner, int p, int r, MPI_Datatype *type, char **why);

/* MPI_Type_match_size: a predefined C type of the class with `size`
 * bytes (the first of float/double/long double, signed char/short/int/
 * long/long long, and the C complex types); MPI_ERR_ARG when none. */
int sim_dt_match_size(int typeclass, int size, MPI_Datatype *type, char **why);

/* ---------------------------------------------------------------------- */
/* The "external32" representation (MPI 3.1 section 13.5.2; external32.c)  */

/* Bytes of count elements of dt in external32; MPI_ERR_TYPE with *why
 * when dt holds a basic type the representation does not define. */
int sim_dt_external32_size(const sim_datatype *dt, size_t count, size_t *bytes, char **why);

/* Packs count elements of dt at buf into out in external32
 * (sim_dt_external32_size bytes).  MPI_ERR_CONVERSION with *why when a
 * value does not fit its external size (out is then partly written). */
int sim_dt_pack_external32(const sim_datatype *dt, const void *buf, int count, void *out,
                           char **why);

/* Unpacks count elements of dt from external32 bytes at in into buf
 * (integers are sign- or zero-extended to their native size). */
void sim_dt_unpack_external32(const sim_datatype *dt, const void *in, void *buf, int count);

/* ---------------------------------------------------------------------- */
/* MPI_Status byte count                                                   */
/*
 * MPICH's MPI_Status keeps the received byte count in count_lo (low 32
 * bits) and count_hi_and_cancelled (bits 31-1: high bits; bit 0: the
 * cancelled flag).  These keep the cancelled flag as it is.
 */
static inline void sim_status_set_bytes(MPI_Status *status, size_t bytes) {
    uint32_t hi = (uint32_t)((uint64_t)bytes >> 32);
    status->count_lo = (int)(uint32_t)((uint64_t)bytes & 0xffffffffu);
    status->count_hi_and_cancelled =
        (int)(((uint32_t)status->count_hi_and_cancelled & 1u) | (uint32_t)(hi << 1));
}

static inline size_t sim_status_bytes(const MPI_Status *status) {
    uint64_t lo = (uint32_t)status->count_lo;
    uint64_t hi = (uint32_t)status->count_hi_and_cancelled >> 1;
    return (size_t)(lo | (hi << 32));
}

#endif
