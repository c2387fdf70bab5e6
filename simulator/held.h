/*
 * held.h - what each rank holds that MPI asks it to give back: handles of
 * the objects its calls made (communicators, groups, datatypes, user ops,
 * windows, info objects, error handlers, ...) and an attached buffer, each
 * with the call that made it.  At the end of a complete run, what a rank
 * that called MPI_Finalize still holds is reported as a leak
 * (SIM_F_LEAK, one finding per creating call site and kind of object).
 *
 * To make a new kind of object join: give it a sim_held_kind (with its
 * names in held.c's table), call sim_held_add when an MPI call hands a
 * handle of it to the program and sim_held_drop when the program frees it.
 * Persistent requests are not added: the leak report finds the inactive
 * ones in the request table.
 *
 * The registry is part of a rank's state (sim_held_digest): two orderings
 * whose ranks hold handles made at different calls do not merge.
 */
#ifndef ORDEX_SIM_HELD_H
#define ORDEX_SIM_HELD_H

#include <stdbool.h>
#include <stdint.h>

#include "simulator/sim.h"

typedef enum sim_held_kind {
    SIM_HELD_COMM,
    SIM_HELD_GROUP,
    SIM_HELD_DATATYPE,
    SIM_HELD_OP,
    SIM_HELD_REQUEST, /* persistent requests (reported from the request table) */
    SIM_HELD_WIN,
    SIM_HELD_INFO,
    SIM_HELD_ERRHANDLER,
    SIM_HELD_BUFFER, /* the buffer of MPI_Buffer_attach (handle 0) */
    SIM_HELD_KIND_COUNT
} sim_held_kind;

/* An empty registry for nranks ranks (sim_create); sim_held_fini drops it. */
void sim_held_init(int nranks);
void sim_held_fini(void);

/* World rank `rank` now holds `handle` of `kind`, which MPI call `call` (a
 * static string) made at call site `site`.  A rank may hold one handle
 * several times (MPI_Comm_group twice): each must be dropped. */
void sim_held_add(int rank, sim_held_kind kind, uint32_t handle, const char *call, void *site);

/* The same for the running rank's MPI call in progress. */
void sim_held_add_here(sim_held_kind kind, uint32_t handle);

/* The program freed `handle` of `kind` held by `rank` (the copy added last
 * goes).  False when the rank holds no such handle. */
bool sim_held_drop(int rank, sim_held_kind kind, uint32_t handle);
bool sim_held_drop_here(sim_held_kind kind, uint32_t handle);

/* Feeds what rank holds, canonically (sorted by kind and handle). */
void sim_held_digest(int rank, sim_digest_feed feed, void *user);

/* Adds a SIM_F_LEAK finding for every kind of object and creating call site
 * that ranks which called MPI_Finalize still hold (inactive persistent
 * requests included), naming the ranks; in rank order, deterministic. */
void sim_held_report(void);

#endif
