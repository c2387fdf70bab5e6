/*
 * intercomm.h - MPI_Intercomm_create's meeting of two groups (MPI 3.1
 * section 6.6.2).  Private to simulator/: the MPI API is mpi_comm.c.
 *
 * Each group first meets on its own local communicator: a collective
 * (SIM_COLL_INTERCOMM_CREATE) whose execution checks that its members
 * agree on the local leader and makes the group a waiting side, described
 * by its leader's arguments (the peer communicator, the remote leader's
 * world rank, the tag).  The side that finds the other one waiting (same
 * peer communicator and tag, each leader the other's remote leader) makes
 * the intercommunicator (sim_comm_make_inter, the group of the leader with
 * the lower world rank first) and hands both groups their handles; members
 * of a group that waited are blocked on a request of their own
 * (sim_intercomm_await) until then.
 */
#ifndef ORDEX_SIM_INTERCOMM_H
#define ORDEX_SIM_INTERCOMM_H

#include <mpi.h>

#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/sim.h"

/* One member's arguments (sim_coll_args.inter); only the local leader's
 * count. */
typedef struct sim_intercomm_args {
    sim_comm *peer;    /* peer_comm */
    int remote_leader; /* rank in peer */
    int tag;
} sim_intercomm_args;

void sim_intercomm_init(void);
void sim_intercomm_fini(void);

/* Executes a group's SIM_COLL_INTERCOMM_CREATE collective (see above).
 * Returns MPI_SUCCESS or an error class with *err_rank (-1: every member)
 * and *why. */
int sim_intercomm_exec_create(sim_coll *c, int *err_rank, char **why);

/* After its group's collective: blocks the calling member (world_rank)
 * until the other group has come, unless *out is set already.  Returns the
 * request's error code. */
int sim_intercomm_await(int world_rank, MPI_Comm *out);

/* Feeds the groups waiting for their other group (see sim_digest_engine). */
void sim_intercomm_digest(sim_digest_feed feed, void *user);

#endif
