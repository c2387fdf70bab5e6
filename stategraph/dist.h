/*
 * dist.h - one exploration over many ordex processes started by mpiexec.mpich
 * (`mpiexec.mpich -n K ordex explore --distributed ...`).
 *
 * Each process runs its own driver and one exploring process, and starts
 * an agent (ordex-dist-agent, linked with MPICH) that carries its messages
 * over MPI (dist_proto.h).  The visited set is partitioned by state hash:
 * each rank keeps the states it owns, and a visit of another rank's state
 * asks its agent.  Work is prefixes of choices, as between the workers of
 * --jobs: rank 0 starts with the whole tree, and the others ask for work
 * and get prefixes that busy ranks give away.  Findings, outcomes and
 * statistics are gathered at rank 0, which alone reports.
 *
 * Every process must load the same ordex and program at the same addresses
 * (states are compared by hashes of memory that holds pointers): ordex runs
 * its distributed processes without address-space randomisation, and each
 * pass checks that the ranks agree.
 */
#ifndef ORDEX_SG_DIST_H
#define ORDEX_SG_DIST_H

#include <stdbool.h>

/* Starts this process's agent and joins the MPI job; returns false with
 * *err (g_free) when it cannot (no agent binary, MPI failed to start). */
bool sg_dist_start(char **err);

/* This process's rank and the number of processes (0 and 1 before
 * sg_dist_start). */
int sg_dist_rank(void);
int sg_dist_size(void);

/* True once this process lost its agent (it could not go on with the
 * others: what it explored is lost to rank 0, which says so). */
bool sg_dist_failed(void);

/* Rank 0: its exit status goes to every rank, so that each process of the
 * job ends with the verdict's status (mpiexec.mpich reports one of them). */
void sg_dist_share_status(int status);
/* Another rank: waits for rank 0's status; 2 when it cannot come. */
int sg_dist_wait_status(void);

/* Why this process lost its agent (static text), or NULL. */
const char *sg_dist_failure(void);

/* Leaves the MPI job and ends the agent (waits a bounded time for it).
 * A rank other than 0 that has not sent its result sends an empty one, so
 * that rank 0 does not wait for it. */
void sg_dist_end(void);

/* The agent program's path: $ORDEX_DIST_AGENT, else `ordex-dist-agent`
 * beside the running ordex binary, else under $ORDEX_HOME (g_free; NULL when
 * none is executable). */
char *sg_dist_agent_path(void);

#endif
