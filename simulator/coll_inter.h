/*
 * coll_inter.h - collectives on intercommunicators (MPI 3.1 section 5.2.2
 * and the intercommunicator paragraphs of each collective).  Private to
 * simulator/: the MPI API is mpi_coll.c, which hands every collective on an
 * intercommunicator to sim_coll_inter_call.
 *
 * Both groups meet on the intercommunicator's `both` communicator (comm.h):
 * a member posts at its rank there (the first side's group, then the
 * other's), so that all collectives on the intercommunicator, its
 * constructors included, are ordered together and matched by the same
 * sequence numbers as any collective.  Each member's arguments are kept as
 * passed: a root is MPI_ROOT, MPI_PROC_NULL or a rank of the remote group,
 * and the count and type arrays are sized by the remote group.  What only
 * the members together can check (one MPI_ROOT, the other group naming it,
 * matching counts and type signatures, one op) is checked when the
 * collective fires, and a disagreement fails the call: never a hang.
 *
 * Semantics: data goes from one group to the other, never within a group.
 *   Bcast, Scatter(v): the root (MPI_ROOT) sends to every member of the
 *     other group; Gather(v), Reduce: the other group's members send to the
 *     root; the root's group's other members (MPI_PROC_NULL) take no part.
 *   Allgather(v), Alltoall(v,w): every member sends to every member of the
 *     other group; blocks are indexed by rank in the remote group.
 *   Allreduce: each group receives the reduction of the other's data.
 *   Reduce_scatter(_block): the reduction of one group's vectors (n elements,
 *     the sum of its own recvcounts, the same n in both groups) is scattered
 *     over the other group by that group's recvcounts.
 *   Scan, Exscan: erroneous (MPI_ERR_COMM); MPI_IN_PLACE: erroneous.
 */
#ifndef ORDEX_SIM_COLL_INTER_H
#define ORDEX_SIM_COLL_INTER_H

#include <glib.h>
#include <mpi.h>
#include <stdbool.h>

#include "perfmodel/collalgo.h"
#include "simulator/coll.h"
#include "simulator/comm.h"

/* The calling rank's collective `kind` (data movement only: before
 * SIM_COLL_COMM_DUP) on the intercommunicator comm (handle as passed): checks
 * what this rank can check, posts on comm->both and waits for completion,
 * or hands out *request (non-NULL for the nonblocking variants, set to
 * MPI_REQUEST_NULL first).  a holds the arguments as mpi_coll.c's contract
 * describes them (coll.h), with the root as passed.  Returns the MPI error
 * code. */
int sim_coll_inter_call(const char *fn, MPI_Comm handle, sim_comm *comm, sim_coll_kind kind,
                        const sim_coll_args *a, MPI_Request *request);

/* True when c is a collective on an intercommunicator's `both` (a data
 * movement collective or a constructor other than dup and merge, which
 * comm.c executes itself). */
bool sim_coll_inter_owns(const sim_coll *c);

/* Executes c (sim_coll_inter_owns) once every member of both groups has
 * arrived: the data movement, or MPI_Comm_split / MPI_Comm_create of an
 * intercommunicator (the new intercommunicators pair the members of one
 * colour, or the two groups passed; a side left empty gives MPI_COMM_NULL
 * to all its counterparts).  Returns MPI_SUCCESS or an error class with
 * *err_rank (rank in `both`, -1 for every member) and *why (g_free). */
int sim_coll_inter_exec(sim_coll *c, int *err_rank, char **why);

/* How many entries member me's (rank in `both`) per-peer arrays have: the
 * size of the other group. */
int sim_coll_inter_peers(const sim_coll *c, int me);

/* Predict: the schedule MPICH's intercommunicator algorithms amount to for
 * collective c, from what member me passed: steps within each group (a
 * local reduce, gather, barrier or bcast) joined by a message between the
 * leaders or between the root and the other group's leader; Alltoall(v,w)
 * and the v variants of gather and scatter as direct messages between the
 * groups.  NULL when me's arguments do not say the sizes (a member of the
 * root's group other than the root), or with *error when they are
 * unusable. */
pm_ca_schedule *sim_coll_inter_schedule(const sim_coll *c, int me, GError **error);

#endif
