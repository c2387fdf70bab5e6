/*
 * rma_apply.h - what one RMA operation does to memory (MPI 3.1 sections
 * 11.3.1-11.3.4), and whether its datatypes and operation allow it.
 *
 * Pure: datatypes and reduction operations only, no simulator state, so the
 * data movement of every operation kind is unit-tested on its own.  The
 * caller (rma.c) decides when an operation takes effect and guards the
 * memory accesses against faults.
 *
 * A put moves origin data into the target as a send from the origin and a
 * receive at the target would (11.3.1: the origin's type signature must be
 * a prefix of the target's, MPI_BYTE matching anything); a get the other
 * way.  Accumulates combine the origin's elements into the target's with a
 * predefined operation; both sides must be made of one predefined type
 * (11.3.4).  Get_accumulate, fetch_and_op and compare_and_swap also copy the
 * target's data as it was before into a result buffer.
 */
#ifndef ORDEX_SIM_RMA_APPLY_H
#define ORDEX_SIM_RMA_APPLY_H

#include <mpi.h>
#include <stdbool.h>

#include "simulator/datatype.h"

typedef enum sim_rma_kind {
    SIM_RMA_PUT,
    SIM_RMA_GET,
    SIM_RMA_ACC,     /* MPI_Accumulate, MPI_Raccumulate */
    SIM_RMA_GET_ACC, /* MPI_Get_accumulate, MPI_Rget_accumulate */
    SIM_RMA_FOP,     /* MPI_Fetch_and_op: one element of one predefined type */
    SIM_RMA_CAS,     /* MPI_Compare_and_swap: the same */
} sim_rma_kind;

/* One operation with every address resolved.  `origin` is read (put,
 * accumulates, the new value of compare_and_swap) or written (get);
 * `result` receives the target's previous data (get_accumulate,
 * fetch_and_op, compare_and_swap); `compare` is compare_and_swap's
 * comparand; `target` is the address of the target data (the window's base
 * plus the displacement).  Fetch_and_op and compare_and_swap use `ttype` on
 * every side with counts of 1. */
typedef struct sim_rma_xfer {
    sim_rma_kind kind;
    void *origin;
    int ocount;
    MPI_Datatype otype;
    void *result;
    int rcount;
    MPI_Datatype rtype;
    const void *compare;
    void *target;
    int tcount;
    MPI_Datatype ttype;
    MPI_Op op;
} sim_rma_xfer;

/* Checks what the operation's datatypes and op allow, before it is queued:
 * the sizes (origin data no larger than the target's room for a put and an
 * accumulate, the target's data no larger than the origin's or result's
 * room for a get: MPI_ERR_TRUNCATE), the type signatures (MPI_ERR_TYPE), a
 * predefined op that is defined for the data (MPI_ERR_OP: user-defined ops
 * and MPI_NO_OP outside the fetching accumulates are refused), one
 * predefined basic type on both sides of an accumulate (MPI_ERR_TYPE), a
 * single predefined type for fetch_and_op and an integer, logical or byte
 * type for compare_and_swap.  Datatypes must be valid handles (the caller's
 * check).  Returns MPI_SUCCESS, or the error class with *why (g_free) set
 * to a sentence without the call's name. */
int sim_rma_check(const sim_rma_xfer *x, char **why);

/* Performs a checked operation on memory.  May fault on bad addresses (the
 * caller guards it).  Returns MPI_SUCCESS or, should the op not apply after
 * all, MPI_ERR_OP with *why set. */
int sim_rma_apply(const sim_rma_xfer *x, char **why);

/* The bytes that count elements of dt at address 0 touch: [*lo, *hi).
 * False (nothing set) when they touch none (count 0 or an empty type). */
bool sim_rma_span(const sim_datatype *dt, int count, MPI_Aint *lo, MPI_Aint *hi);

/* The one predefined type an accumulate sees in dt: its uniform basic type
 * (MPI_INT for MPI_2INT and for a vector of MPI_INT), else dt itself when it
 * is predefined (MPI_DOUBLE_INT), else MPI_DATATYPE_NULL (a mix). */
MPI_Datatype sim_rma_element_type(MPI_Datatype type);

#endif
