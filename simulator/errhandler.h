/*
 * errhandler.h - user error handlers and the error classes, codes and
 * strings a program adds (MPI 3.1 sections 8.3-8.5).  Private to
 * simulator/: the MPI API is mpi_errhandler.c; sim_error (core.c) calls
 * the handlers.
 *
 * Both are local to a process, as in MPI: each rank has its own table of
 * handlers, with handles SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_ERRHANDLER, i)
 * numbered from 0 in creation order and never reused (a freed handler
 * may still be attached to communicators and windows, which keep using
 * it), and its own added classes and codes, numbered from
 * SIM_ERRCODE_FIRST up in the order added (classes and codes share the
 * numbers: a class is also a code of itself).
 *
 * The communicator and window a handler is attached to keep its handle
 * (sim_comm's errh); the handler's references here are the program's:
 * one from its creation and one from each MPI_*_get_errhandler that
 * returned it, each dropped by MPI_Errhandler_free.  The program may use
 * the handle while it holds a reference.
 */
#ifndef ORDEX_SIM_ERRHANDLER_H
#define ORDEX_SIM_ERRHANDLER_H

#include <mpi.h>
#include <stdbool.h>

#include "simulator/digest.h"

/* The objects a handler serves (MPI_Comm_create_errhandler ...). */
typedef enum sim_errh_kind { SIM_ERRH_COMM, SIM_ERRH_WIN, SIM_ERRH_FILE } sim_errh_kind;

/* Every handler function has this shape (MPI_Comm_errhandler_function,
 * MPI_Win_errhandler_function ...: a pointer to the handle, an int handle
 * in MPICH's ABI, and to the error code). */
typedef void (*sim_errh_fn)(int *handle, int *code, ...);

/* The first class or code MPI_Add_error_class/_code hands out: above
 * MPI_ERR_LASTCODE, as MPI requires, and where MPICH starts too. */
#define SIM_ERRCODE_FIRST 0x40000001

/* Functions taking `rank` act on the tables of that world rank (the
 * calling rank, for the MPI API). */
void sim_errh_init(int nranks);
void sim_errh_fini(void);

/* A new handler of the rank (one reference). */
MPI_Errhandler sim_errh_create(int rank, sim_errh_kind kind, sim_errh_fn fn);

/* True for MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN and MPI_ERRORS_ABORT. */
bool sim_errh_predefined(MPI_Errhandler h);

/* Checks a handle the rank passes for an object of `kind`: a
 * predefined handler, or one of its own of that kind that it still holds.
 * Returns MPI_SUCCESS, or MPI_ERR_ARG with *why (g_free) saying what the
 * handle is. */
int sim_errh_check(int rank, MPI_Errhandler h, sim_errh_kind kind, char **why);

/* The same for MPI_Errhandler_free, which takes a handler of any kind. */
int sim_errh_check_any(int rank, MPI_Errhandler h, char **why);

/* A new reference of the program's (MPI_*_get_errhandler returned h). */
void sim_errh_ref(int rank, MPI_Errhandler h);
/* Drops one (MPI_Errhandler_free; h checked). */
void sim_errh_unref(int rank, MPI_Errhandler h);

/* The function of a user handler of world_rank's, NULL for a predefined
 * handler. */
sim_errh_fn sim_errh_function(int world_rank, MPI_Errhandler h);

/* The rank's error handler of MPI_FILE_NULL (the one files get;
 * MPI_ERRORS_RETURN at first), and setting it (h checked). */
MPI_Errhandler sim_errh_file_default(int rank);
void sim_errh_set_file_default(int rank, MPI_Errhandler h);

/* ---- error classes, codes and strings ---- */

/* MPI_Add_error_class: a new class of the rank. */
int sim_errcode_add_class(int rank);
/* MPI_Add_error_code: a new code of class cls; MPI_ERR_ARG with *why when
 * cls is neither a predefined class nor one the rank added. */
int sim_errcode_add_code(int rank, int cls, int *code, char **why);
/* MPI_Add_error_string: MPI_ERR_ARG with *why for a predefined code, one
 * the rank did not add, or a string of MPI_MAX_ERROR_STRING characters or
 * more. */
int sim_errcode_set_string(int rank, int code, const char *string, char **why);
/* The class of a code the rank added (false for any other). */
bool sim_errcode_class_of(int rank, int code, int *cls);
/* The string of a code the rank added ("" when none was set), or
 * NULL for any other code. */
const char *sim_errcode_string(int rank, int code);
/* MPI_LASTUSEDCODE of the rank. */
int sim_errcode_last_used(int rank);

/* Feeds a rank's handlers and added codes (part of sim_digest_rank). */
void sim_errh_digest_rank(int rank, sim_digest_feed feed, void *user);

#endif
