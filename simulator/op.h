/*
 * op.h - reduction operations: the predefined MPI_Op (MPI 3.1 section 5.9.2,
 * with the type classes each applies to) and user operations from
 * MPI_Op_create.
 */
#ifndef ORDEX_SIM_OP_H
#define ORDEX_SIM_OP_H

#include <mpi.h>
#include <stdbool.h>

/* True when op is a valid operation handle (predefined or live user op):
 * what argument checks ask.  A user op freed by MPI_Op_free while pending
 * operations hold it is not valid, but it still applies, commutes and is
 * named for them. */
bool sim_op_valid(MPI_Op op);
/* While `on`, sim_op_valid takes user ops freed with MPI_Op_free that
 * references still keep (the start of a persistent operation made before
 * the free).  Returns the previous setting. */
bool sim_op_accept_freed(bool on);

/* A pending operation (a nonblocking reduction) keeps user op `op` for when
 * it executes, across MPI_Op_free; every sim_op_ref needs one sim_op_unref,
 * after which a freed op's handle may be given out again.  No-ops on
 * predefined and invalid ops. */
void sim_op_ref(MPI_Op op);
void sim_op_unref(MPI_Op op);

/* True when op is commutative (all predefined ops; user ops as created). */
bool sim_op_commutative(MPI_Op op);

/* Computes inout[i] = in[i] op inout[i] for count elements of type.
 * Returns MPI_SUCCESS, or MPI_ERR_OP when a predefined op is not defined
 * for that type (e.g. MPI_BAND on MPI_DOUBLE); *why then names the pair
 * (g_free it).  User functions are called directly: the caller arranges
 * whose heap is active. */
int sim_op_apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type, char **why);

/* MPI_Op_create / MPI_Op_free bodies (argument checks are the caller's). */
MPI_Op sim_op_create(MPI_User_function *fn, bool commute);
/* Makes the user op call fn, MPI_Op_create_c's function (its count an
 * MPI_Count), instead of the one it was created with. */
void sim_op_set_large(MPI_Op op, MPI_User_function_c *fn);
bool sim_op_free(MPI_Op op); /* false for predefined, invalid or already freed ops */

const char *sim_op_name(MPI_Op op); /* "MPI_SUM", "user op 0x98000001" */

/* Additions by the op module for the collectives. */

/* True when op may be applied to elements of type: always for user ops
 * (and MPI_REPLACE / MPI_NO_OP); for the other predefined ops only when the
 * type belongs to a type class that MPI 3.1 section 5.9.2 allows for the op,
 * or is a derived type all of whose basic elements are one such type (pairs
 * for MPI_MAXLOC / MPI_MINLOC).  Otherwise false with *why set (g_free it)
 * when why is not NULL. */
bool sim_op_defined_for(MPI_Op op, MPI_Datatype type, char **why);

/* True for MPI_REPLACE and MPI_NO_OP, which MPI allows only in RMA
 * accumulate operations, not in collective reductions. */
bool sim_op_rma_only(MPI_Op op);

/* Like sim_op_apply, but in and inout hold count elements of type in packed
 * form (as sim_dt_pack writes them).  Lets the collectives reduce snapshots
 * of the ranks' contributions without buffers in the type's layout; user
 * functions still receive the type's layout (through temporaries). */
int sim_op_apply_packed(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype type,
                        char **why);

void sim_op_init(void);
void sim_op_fini(void);

#endif
