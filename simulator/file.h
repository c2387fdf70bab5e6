/*
 * file.h - MPI-IO on the host file system (MPI 3.1 chapter 13): the file
 * table, the file collectives, the state digest and the outcome.  Private
 * to simulator/; the MPI API is mpi_file.c, views are file_view.c.
 *
 * A file is opened once for all members of the communicator (one host
 * descriptor: every rank lives in this process), when the last member
 * arrives at MPI_File_open.  Each member keeps its own view, individual
 * file pointer, error handler and hints; the shared file pointer, the
 * access mode and the atomicity are the file's.  Handles are
 * SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_FILE, index) cast to MPI_File
 * (MPICH's MPI_File is a pointer), indices never reused in a run.
 *
 * The collectives of a file run on a communicator of its own (as a
 * window's do), so they match only each other; MPI_File_open itself is a
 * collective of the program's communicator.  Every collective's results
 * are each member's (sim_file_coll_args.rc), which its call reports
 * through the file's error handler, never the communicator's.
 */
#ifndef ORDEX_SIM_FILE_H
#define ORDEX_SIM_FILE_H

#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "simulator/digest.h"
#include "simulator/file_view.h"

typedef struct sim_comm sim_comm;
typedef struct sim_coll sim_coll;
typedef struct sim_vc sim_vc;

enum { SIM_OBJ_FILE = 0xc };

/* A data representation (MPI 3.1 13.5): "native" (the bytes as in memory),
 * "external32" (simulator/external32.c) or one the program registered
 * with MPI_Register_datarep (its conversion functions, NULL for
 * MPI_CONVERSION_FN_NULL, and its extent function). */
typedef enum sim_rep_kind { SIM_REP_NATIVE, SIM_REP_EXTERNAL32, SIM_REP_USER } sim_rep_kind;
typedef struct sim_datarep {
    sim_rep_kind kind;
    char name[MPI_MAX_DATAREP_STRING + 1];
    MPI_Datarep_conversion_function *read_fn, *write_fn;
    MPI_Datarep_extent_function *extent_fn;
    void *extra;
} sim_datarep;

typedef struct sim_file_member {
    int world;
    bool closed;                     /* its MPI_File_close returned */
    MPI_Offset fp;                   /* individual file pointer, in etypes of its view */
    sim_fview view;                  /* what its data stream is */
    MPI_Datatype etype, ftype;       /* as the program passed them (reported by get_view) */
    const void *etype_dt, *ftype_dt; /* sim_dt_ref'd derived types, or NULL */
    char datarep[MPI_MAX_DATAREP_STRING + 1];
    const sim_datarep *rep; /* the view's representation */
    MPI_Errhandler errh;
    GPtrArray *hints; /* key, value, key, value ... (g_strdup) */
    /* A split collective begun (MPI_File_read_all_begin ...): its call,
     * and the bytes it moved, which the end reports. */
    const char *split;
    size_t split_bytes;
    void *split_buf;
    uint64_t split_key; /* its buffer's access record (sim_access_buffer_begin), or 0 */
} sim_file_member;

typedef struct sim_file {
    int index;
    MPI_File handle;
    sim_comm *comm; /* the file's own communicator */
    char *path;     /* as the program named it */
    int fd;         /* host descriptor */
    bool closed;    /* MPI_File_close done; the descriptor stays open until the run ends,
                       so that an in-process snapshot taken while the file was open finds it
                       open again when restored */
    int id;         /* the host file (device and inode): races between handles */
    int amode;
    bool atomic;
    MPI_Offset shared_fp;  /* in etypes */
    uint64_t shared_takes; /* independent accesses through shared_fp so far (not state: only
                              compared within one rank's wait, mpi_file.c) */
    int size;
    sim_file_member *m; /* [size], by rank of comm */
} sim_file;

/* One member's part of a file collective (sim_coll_args.file). */
typedef struct sim_file_coll_args {
    sim_file *f; /* NULL for MPI_File_open */
    /* MPI_File_open */
    const char *path;
    int amode;
    MPI_File *out;
    /* set_size, preallocate, seek_shared (value, whence); set_atomicity
     * (value); set_view (value = the etype's extent, datarep) */
    MPI_Offset value;
    int whence;
    MPI_Offset end; /* seek_shared with MPI_SEEK_END: the view's end of file, in etypes */
    const char *datarep;
    /* read_ordered, write_ordered */
    void *buf;
    int count;
    MPI_Datatype type;
    bool write;
    size_t bytes; /* what it moved */
    void *site;
    const char *call;
    /* its result */
    int rc;
    char *why; /* g_free */
} sim_file_coll_args;

void sim_file_init(int nranks);
void sim_file_fini(void);

/* The file of handle fh and the calling rank's index in it.  MPI_SUCCESS,
 * or MPI_ERR_FILE with *why (g_free) for MPI_FILE_NULL, a handle that is no
 * file, a file the rank is not a member of or has closed. */
int sim_file_lookup(MPI_File fh, sim_file **f, int *me, char **why);

/* The calling rank's error handler for f (NULL: MPI_FILE_NULL's). */
MPI_Errhandler sim_file_errhandler(const sim_file *f, int me);

/* Reports an error of the call in progress on f (NULL: MPI_FILE_NULL) as
 * MPI 3.1 13.7 says: through the member's file error handler
 * (MPI_ERRORS_RETURN unless set otherwise): returns errclass, calls a
 * user handler with the file handle, or stops the run with the finding
 * under MPI_ERRORS_ARE_FATAL. */
int sim_file_error(sim_file *f, int me, int errclass, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/* Executes a file collective once every member has arrived (kinds from
 * SIM_COLL_FILE_OPEN on).  Results go to each member's args. */
int sim_file_exec_coll(sim_coll *c, int *err_rank, char **why);

/* Moves count elements of type at buf to (write) or from the file through
 * member me's view, from stream byte k on; returns the bytes moved (a read
 * stops at the end of the file), records the access for the race checks
 * (call at site) and charges it under predict.  MPI_SUCCESS or an error
 * class with *why. */
int sim_file_transfer(sim_file *f, int me, MPI_Offset k, void *buf, int count, MPI_Datatype type,
                      bool write, const char *call, void *site, size_t *bytes, char **why);

/* The calling member synchronised f (MPI_File_sync, close): its accesses
 * so far end, and what others ended before is visible to its next ones. */
void sim_file_synced(sim_file *f, int me, const char *call, void *site);

/* MPI_Register_datarep for world rank `world` (a local call: each rank has
 * its own names).  MPI_SUCCESS, or MPI_ERR_DUP_DATAREP (a name already
 * defined, "native", "internal" and "external32" included) or
 * MPI_ERR_ARG with *why (g_free). */
int sim_file_register_datarep(int world, const char *name, MPI_Datarep_conversion_function *rd,
                              MPI_Datarep_conversion_function *wr, MPI_Datarep_extent_function *ext,
                              void *extra, char **why);

/* The representation `name` as world rank `world` knows it: "native",
 * "external32" or one it registered; NULL for any other ("internal"
 * included, which ordex does not implement). */
const sim_datarep *sim_file_datarep(int world, const char *name);

/* Bytes that count elements of dt take in the file under rep: the sum of
 * the file extents of its basic elements (the extent function of a
 * registered representation runs as the calling rank's code).
 * MPI_SUCCESS or an error class with *why. */
int sim_file_rep_size(const sim_datarep *rep, const sim_datatype *dt, size_t count, size_t *bytes,
                      char **why);

/* Converts count elements of type at buf into `bytes` (sim_file_rep_size)
 * bytes of rep at out, through the write conversion function of a
 * registered representation in chunks of whole elements (count and
 * position in data items, the entries of type's type map tiled over buf,
 * as MPI 3.1 13.5.3 says), natively when it is MPI_CONVERSION_FN_NULL.
 * MPI_SUCCESS or an error class (MPI_ERR_CONVERSION, MPI_ERR_BUFFER) with
 * *why. */
int sim_file_rep_to_file(const sim_datarep *rep, void *buf, int count, MPI_Datatype type, void *out,
                         size_t bytes, const char *call, char **why);

/* The reverse: `count` whole elements of type from their file
 * representation at in into buf. */
int sim_file_rep_from_file(const sim_datarep *rep, const void *in, int count, MPI_Datatype type,
                           void *buf, const char *call, char **why);

/* Feeds the state of every open file (pointers, views, the file's
 * contents) for state hashing. */
void sim_file_digest(sim_digest_feed feed, void *user);

/* Feeds what the program wrote through MPI-IO (each file's contents, as
 * of its last close or now) for the outcome of an ordering. */
void sim_file_outcome(sim_digest_feed feed, void *user);

#endif
