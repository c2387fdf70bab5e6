/*
 * info.h - info objects (MPI 3.1 chapter 9) and the hints communicators
 * and windows keep.  Private to simulator/: the MPI API is mpi_info.c.
 *
 * Info objects are local to a process: each rank has its own table, with
 * handles SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_INFO, i), i the lowest index
 * free in that rank's table (so a handle's value depends only on the
 * rank's own history).  An info is an ordered list of (key, value)
 * strings: keys in the order first set, a new value for a key taking its
 * old place, as MPICH keeps them.  Keys and values are taken as given
 * (case, spaces and all).
 *
 * MPI_INFO_ENV is read-only here: it holds what of MPI 3.1 section 8.1.2's
 * keys ordex knows: "command" (the program ordex loaded, when the core
 * says) and "maxprocs" (the number of ranks).
 *
 * Hints.  A communicator or window keeps, for each member, a copy of the
 * info it was given (MPI_Comm_set_info, MPI_Comm_dup_with_info,
 * MPI_Win_create ...), kept here under the object's handle and the
 * member's rank.
 */
#ifndef ORDEX_SIM_INFO_H
#define ORDEX_SIM_INFO_H

#include <mpi.h>
#include <stdbool.h>

#include "simulator/digest.h"

typedef struct sim_info sim_info;

/* The objects that keep hints. */
typedef enum sim_hint_kind { SIM_HINT_COMM, SIM_HINT_WIN } sim_hint_kind;

void sim_info_init(int nranks);
void sim_info_fini(void);

/* Sets MPI_INFO_ENV's "command". */
void sim_info_set_command(const char *command);

/* Functions taking `rank` act on the table of that world rank (the
 * calling rank, for the MPI API). */

/* The rank's info object of a handle (MPI_INFO_ENV included), or
 * NULL with *why (g_free) naming what the handle is: "is MPI_INFO_NULL",
 * "was freed" ... */
sim_info *sim_info_lookup(int rank, MPI_Info h, char **why);

/* Checks the info argument of a call that takes hints (MPI_Win_create,
 * MPI_Comm_dup_with_info ...; part of the core, in mpi_info.c):
 * MPI_INFO_NULL (*out NULL) or an info of the calling rank; anything else is reported through
 * sim_error on comm (MPI_ERR_INFO, "fn: info ...") and its code returned. */
int sim_info_arg(MPI_Comm comm, const char *fn, MPI_Info h, const sim_info **out);

/* True for MPI_INFO_ENV (which cannot be changed or freed). */
bool sim_info_is_env(MPI_Info h);

/* A new, empty info of the rank, and its handle. */
MPI_Info sim_info_create(int rank);
/* A new info of the rank with the contents of `from` (which may be NULL:
 * an empty one). */
MPI_Info sim_info_dup(int rank, const sim_info *from);
/* MPI_Info_free: the handle (checked, not MPI_INFO_ENV) is free again. */
void sim_info_free(int rank, MPI_Info h);

/* A copy that belongs to no rank's table (NULL: an empty one), and its
 * end: what a pending call keeps of an info the program may free. */
sim_info *sim_info_clone(const sim_info *from);
void sim_info_release(sim_info *info);

int sim_info_nkeys(const sim_info *info);
/* The n-th key (0 <= n < nkeys). */
const char *sim_info_nthkey(const sim_info *info, int n);
/* The value of key, NULL when it is not set. */
const char *sim_info_get(const sim_info *info, const char *key);
void sim_info_set(sim_info *info, const char *key, const char *value);
/* False when the key was not set. */
bool sim_info_delete(sim_info *info, const char *key);

/* ---- hints of communicators and windows ---- */

/* Replaces world_rank's hints on the object with a copy of info (NULL:
 * none). */
void sim_hints_set(int world_rank, sim_hint_kind kind, int handle, const sim_info *info);
/* MPI_Comm_set_info, MPI_Win_set_info: the keys of info (NULL: none) take
 * their new values in world_rank's hints on the object; the others stay
 * (MPI 4.0 sections 7.4.4 and 12.2.7). */
void sim_hints_update(int world_rank, sim_hint_kind kind, int handle, const sim_info *info);
/* world_rank's hints on the object, NULL when none were given. */
const sim_info *sim_hints_get(int world_rank, sim_hint_kind kind, int handle);
/* Forgets world_rank's hints on an object it freed. */
void sim_hints_drop(int world_rank, sim_hint_kind kind, int handle);
/* The hint `key` of world_rank on the object as a boolean: true only when
 * set to "true" (MPI's spelling of booleans in info values). */
bool sim_hints_true(int world_rank, sim_hint_kind kind, int handle, const char *key);

/* Feeds a rank's info objects and hints (part of sim_digest_rank: they
 * change only while the rank runs). */
void sim_info_digest_rank(int rank, sim_digest_feed feed, void *user);

#endif
