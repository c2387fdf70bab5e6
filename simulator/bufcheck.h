/*
 * bufcheck.h - every buffer a rank passes to MPI, checked at the call
 * against the memory object it points into (scheduler/memobj.h).  Private
 * to simulator/.
 *
 * Bounds: every byte the call reads or writes (count elements of the type
 * map, its holes skipped, one extent apart) must lie inside the object that
 * the buffer argument points into: the heap block, global or local variable
 * (MPI 3.1 section 4.1.12: displacements must not cross from one variable
 * to another).  With MPI_BOTTOM the displacements are absolute addresses
 * and every block of the type map is checked against the object it starts
 * in.  Memory that is no known object is not checked.
 *
 * C types: where the object has a C type, every basic element of the type
 * map must lie on a scalar of the same kind and size (int and MPI_INT,
 * unsigned and MPI_UNSIGNED, double and MPI_DOUBLE, ...).  MPI_BYTE and
 * MPI_PACKED match anything, and char arrays, unions and heap blocks are
 * not typed.  A mismatch is an error, a warning or nothing as
 * sim_config.type_check says.
 *
 * Receive buffers: a type map that overlaps itself (two of its entries
 * are one byte) is an error (MPI 3.1 section 3.2.2 forbids it).
 *
 * What was checked is cached per call site and buffer argument: the same
 * buffer, layout and object (still there: sched_obj_still) again costs a
 * hash lookup.
 */
#ifndef ORDEX_SIM_BUFCHECK_H
#define ORDEX_SIM_BUFCHECK_H

#include <mpi.h>
#include <stdbool.h>

#include "simulator/coll.h"

/* A part of a buffer argument: count elements of type from `off` bytes
 * after the argument's address; with repeat > 1, that many times, each
 * `stride` bytes after the one before (OpenSHMEM's strided transfers; 0
 * and 1: once). */
typedef struct sim_buf_part {
    MPI_Aint off;
    int count;
    MPI_Datatype type;
    size_t repeat;
    MPI_Aint stride;
} sim_buf_part;

/* Checks the buffer argument `arg` ("buf", "recvbuf", ...) of the calling
 * rank's MPI call `call` at buf, made of parts[0..n); `writes`: the call
 * writes it (a receive buffer), else it only reads it.  Types must have
 * been validated.  Returns MPI_SUCCESS, or an MPI error class with *why
 * set to the message (g_free) for the caller to report through the error
 * handler that applies.  A type mismatch under --type-check=warn is
 * reported here, as a warning finding, and is no error. */
int sim_bufcheck(const char *call, const char *arg, const void *buf, const sim_buf_part *parts,
                 int n, bool writes, char **why);

/* The same for one part at offset 0, reported with sim_error on comm. */
int sim_bufcheck_comm(MPI_Comm comm, const char *call, const char *arg, const void *buf, int count,
                      MPI_Datatype type, bool writes);

/* Checks the buffers of a collective that the calling rank, rank `me` of
 * a communicator of `size` members (`nin` and `nout` neighbours in a
 * topology, for the neighbourhood collectives), posts with args: the parts
 * the standard says it reads and writes there (MPI_IN_PLACE and the
 * arguments significant only at the root as the standard says).  Errors
 * go through sim_error on comm. */
int sim_bufcheck_coll(MPI_Comm comm, const char *call, sim_coll_kind kind, int me, int size,
                      int nin, int nout, const sim_coll_args *args);

/* Checks the target side of the calling rank's RMA operation `call`:
 * count elements of type at addr in the memory of world rank `owner` (the
 * window's, whose bounds the caller checked), against the C types of the
 * object there (a global, or a local of a frame that is live in owner's
 * pending call; heap blocks have none), as sim_bufcheck checks a buffer's.
 * Returns MPI_SUCCESS, or MPI_ERR_TYPE with *why set (g_free) under
 * --type-check=error; a mismatch under warn is reported here as a warning. */
int sim_bufcheck_target(const char *call, int owner, const void *addr, int count, MPI_Datatype type,
                        char **why);

/* Set-up and teardown of the caches (sim_create, sim_destroy). */
void sim_bufcheck_init(void);
void sim_bufcheck_fini(void);

#endif
