/*
 * attr.h - attribute caching (MPI 3.1 section 6.7): keyvals, and the
 * attributes each process caches on its communicators, datatypes and
 * windows.  Private to simulator/: the MPI API is mpi_attr.c.
 *
 * Everything here is local to a process, as MPI makes it: each rank has its
 * own keyvals and its own attributes, even on a communicator or window it
 * shares with others, so what one rank sees never depends on how the ranks
 * interleave.  Keyval handles are SIM_HANDLE(SIM_HKIND_DIRECT,
 * SIM_OBJ_KEYVAL, i), i the lowest index free in the rank's own table (a
 * freed keyval's index is reused once no attribute uses it any more).
 * Attributes of one object are kept in the order they were first set; a
 * new value for a key already set takes its old place (what MPICH does,
 * and what decides the order of copies and deletions below).
 *
 * Callbacks are the program's code: the copy and delete functions run as
 * the rank's own code (its heap, MPI calls allowed), called by the
 * functions below from inside the MPI call that causes them.
 *
 * The predefined attributes (MPI_TAG_UB ... on communicators, MPI_WIN_BASE
 * ... on windows) are not kept here: sim_attr_predefined_comm answers the
 * communicator ones, the window ones are the window's (mpi_rma.c).
 */
#ifndef ORDEX_SIM_ATTR_H
#define ORDEX_SIM_ATTR_H

#include <mpi.h>
#include <stdbool.h>

#include "simulator/digest.h"

/* The kind of object a keyval serves; MPI_Keyval_create's keyvals are
 * communicator keyvals. */
typedef enum sim_attr_kind { SIM_ATTR_COMM, SIM_ATTR_TYPE, SIM_ATTR_WIN } sim_attr_kind;

/* The callbacks of a keyval as ordex calls them: every MPI handle is an int
 * in MPICH's ABI, so one signature serves communicators, types and windows.
 * NULL is the null function (MPI_COMM_NULL_COPY_FN, ..._NULL_DELETE_FN). */
typedef int (*sim_attr_copy_fn)(int handle, int keyval, void *extra, void *in, void *out,
                                int *flag);
typedef int (*sim_attr_delete_fn)(int handle, int keyval, void *value, void *extra);

/* The largest tag (the MPI_TAG_UB attribute). */
#define SIM_TAG_UB 1073741823

/* Functions taking `rank` act on the keyvals and attributes of that world
 * rank (the calling rank, for the MPI API). */
void sim_attr_init(int nranks);
void sim_attr_fini(void);

/* A new keyval of the rank for objects of `kind`. */
int sim_keyval_create(int rank, sim_attr_kind kind, sim_attr_copy_fn copy, sim_attr_delete_fn del,
                      void *extra);

/* Checks that keyval is a keyval of the rank for objects of
 * `kind` (user keyvals only: a predefined one is refused too).  A keyval
 * the program freed still serves the attributes that use it: with
 * in_use_ok it passes (reading and deleting them), without it is refused
 * (setting, freeing again).  Returns MPI_SUCCESS, or MPI_ERR_KEYVAL with
 * *why (g_free) saying what it is, as "keyval 0xa4000002 was freed ...". */
int sim_keyval_check(int rank, sim_attr_kind kind, int keyval, bool in_use_ok, char **why);

/* MPI_*_free_keyval: the handle becomes invalid at once; the keyval lives
 * on while attributes use it (their delete callbacks still run).  keyval
 * must have passed sim_keyval_check. */
void sim_keyval_free(int rank, int keyval);

/* True for the keyvals MPI predefines (MPI_TAG_UB ..., MPI_WIN_BASE ...). */
bool sim_keyval_predefined(int keyval);

/* The attribute of the rank under keyval (checked) on the object
 * `handle` of `kind`: *flag 0 when none is set. */
void sim_attr_get(int rank, sim_attr_kind kind, int handle, int keyval, void **value, int *flag);

/* MPI_*_set_attr: a value already set is deleted first (its delete
 * callback); when that callback fails, nothing changes.  Returns
 * MPI_SUCCESS or the callback's error code, with *why (g_free). */
int sim_attr_set(int rank, sim_attr_kind kind, int handle, int keyval, void *value, char **why);

/* MPI_*_delete_attr: calls the delete callback and removes the attribute
 * (nothing when none is set).  The callback's error leaves it in place and
 * is returned as by sim_attr_set. */
int sim_attr_delete(int rank, sim_attr_kind kind, int handle, int keyval, char **why);

/* Copies the rank's attributes of object `from` to the new object
 * `to` (MPI_Comm_dup, MPI_Type_dup): each key's copy callback decides,
 * in the order the keys were set; the null copy function copies nothing.
 * On a callback's error, the attributes copied so far are deleted again
 * (their delete callbacks run) and its code is returned with *why. */
int sim_attr_copy_all(int rank, sim_attr_kind kind, int from, int to, char **why);

/* The same in two steps, for MPI_Comm_idup, whose new communicator exists
 * only when the collective completes: the copies are made at the call
 * (callbacks as above; `to` is the handle their rollback's delete
 * callbacks get) into a list of their own, which the new object gets
 * later (it must have no attributes yet), or which is dropped without
 * callbacks when there is none.  The list's keyvals count its copies as
 * uses meanwhile. */
typedef struct sim_attr_list sim_attr_list;
int sim_attr_copy_out(int rank, sim_attr_kind kind, int from, int to, sim_attr_list **out,
                      char **why);
void sim_attr_attach(int rank, sim_attr_kind kind, int handle, sim_attr_list *list);
void sim_attr_discard(int rank, sim_attr_list *list);

/* Deletes every attribute of the rank on the object (it is being
 * freed), the last set first, as MPICH does.  Stops at the first delete
 * callback that fails (that attribute and the ones set before it stay)
 * and returns its code with *why. */
int sim_attr_delete_all(int rank, sim_attr_kind kind, int handle, char **why);

/* The attributes of a rank on objects that can no longer be reached (a
 * window freed by a collective): forgets them without callbacks. */
void sim_attr_forget(int rank, sim_attr_kind kind, int handle);

/* MPI_Comm_get_attr for the predefined keyvals, identical on every
 * communicator (MPICH answers them on any): *value points to the value in
 * ordex's memory.  Returns false when keyval is none of them (the window
 * keyvals included). */
bool sim_attr_predefined_comm(int rank, int keyval, void **value, int *flag);

/* Feeds a rank's keyvals and attributes (part of sim_digest_rank: they
 * change only while the rank runs). */
void sim_attr_digest_rank(int rank, sim_digest_feed feed, void *user);

#endif
