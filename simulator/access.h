/*
 * access.h - data races on one-sided communication: vector clocks, the
 * accesses that may still race, and the conflict check (docs/rma.md,
 * "The semantic model").  Private to simulator/.
 *
 * The module only observes: it never changes what the program sees.  It
 * stays off (every function below returns at once) until the program
 * creates its first window; from then on every rank has a vector clock,
 * advanced at each synchronisation it makes and joined along every edge
 * the simulator knows: a message from its send to the completion of its
 * receive (and back, for a send that waited for its receive), a collective
 * from the arrivals of the members whose data flows to a member to that
 * member's completion, and the edges of RMA synchronisation (fence, PSCW,
 * lock hand-over), which it takes from rma.c's observer.
 *
 * Accesses.  An RMA operation accesses its target bytes from its issue (in
 * PSCW, from the matching post) to its remote completion (fence, unlock,
 * flush, or the target's MPI_Win_wait: MPI_Win_complete completes at the
 * origin only), and its origin and result buffers from its issue to its
 * local completion (the same, complete, flush_local, or the wait of its
 * request).  Accumulates of one origin to one location with one basic type
 * are ordered (MPI's default accumulate_ordering) and never race.
 * Plain loads and stores of the program into window memory come through
 * the scheduler's access hook (scheduler/access_hook.h) when the program
 * was built with ordexcc's instrumentation.  Each new access is checked
 * against those recorded before it: two conflict when their bytes overlap,
 * one writes, and they are not both accumulates of one basic type with
 * compatible ops; they race when the earlier one's end does not happen
 * before the later one's start.  A race is a finding of kind
 * SIM_F_DATA_RACE naming both accesses; the run goes on.
 */
#ifndef ORDEX_SIM_ACCESS_H
#define ORDEX_SIM_ACCESS_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simulator/sim.h"

typedef struct sim_vc sim_vc; /* a vector clock: one counter per world rank */
typedef struct sim_coll sim_coll;
typedef struct sim_request sim_request;

/* separate: check against the separate memory model's rules (MPI 3.1
 * 11.7: stores and puts to one window need the owner's synchronisation
 * between them), as --rma-model separate asks. */
void sim_access_init(int nranks, bool separate);
void sim_access_fini(void);

/* Turns the checks on (the first window exists).  Idempotent. */
void sim_access_enable(void);
bool sim_access_enabled(void);

/* A release by rank: a copy of its clock for whoever synchronises with it
 * later, after which its own counter moves on.  NULL while off. */
sim_vc *sim_access_release(int rank);
/* into joined with x (into may be NULL: a copy of x; x may be NULL: into). */
sim_vc *sim_vc_join(sim_vc *into, const sim_vc *x);
void sim_vc_free(sim_vc *vc);
/* Whether what owner did up to its release x (a sim_access_release(owner))
 * happens before rank's next action.  True while the checks are off or x
 * is NULL: nothing is known against it. */
bool sim_vc_before(const sim_vc *x, int owner, int rank);

/* A collective fired: each member's request gets the join of the arrival
 * clocks (c->vcs) of the members whose data reaches it. */
void sim_access_coll_fired(sim_coll *c);

/* The owner of req learns that it completed (sim_req_finish): joins the
 * request's clock and ends the accesses tied to it. */
void sim_access_request_finished(sim_request *req);

/* A nonblocking send or receive started (published, or MPI_Start): its
 * buffer is in use until its wait or test returns it.  Only when the
 * program is instrumented (plain accesses are seen). */
void sim_access_request_started(sim_request *req);
/* The request's memory is about to be freed. */
void sim_access_request_released(sim_request *req);

/* The buffer of an operation that no request of sim_request_publish
 * tracks (a nonblocking MPI-IO access, a split collective) is in use from
 * now until sim_access_buffer_end(key), or until the wait of a request
 * whose access_key is key: a load (writes false: only a store) of it by
 * its rank before then is a data race naming `call` at `site` and `role`
 * ("buffer").  Returns the key, 0 when nothing is tracked (the program is
 * not instrumented, or no bytes). */
uint64_t sim_access_buffer_begin(int rank, const void *buf, int count, MPI_Datatype type,
                                 bool writes, const char *call, const char *role, void *site);
void sim_access_buffer_end(uint64_t key);

/* Feeds the accesses that may still race, and which ranks each one is
 * already ordered before (see sim_digest_engine). */
void sim_access_digest(sim_digest_feed feed, void *user);

/* ---------------------------------------------------------------------- */
/* OpenSHMEM (shmem.c): the same records, clocks and checks               */

/* Turns the checks on for an OpenSHMEM program (as the first window does);
 * reports then call the ranks PEs.  Idempotent. */
void sim_access_shmem_enable(void);

/* Symmetric memory of PE owner: tracked (plain loads and stores of it are
 * recorded) from add until remove (same base and size). */
void sim_access_shmem_region(const void *base, size_t size, int owner, bool add);

/* Names symmetric memory in reports: the text for byte addr of owner's
 * symmetric memory ("symmetric variable 'x' of PE 1 (byte 4)", g_free). */
typedef char *(*sim_access_namer)(uintptr_t addr, int owner);
void sim_access_set_namer(sim_access_namer namer);

/* A new key for the records of one operation (its sides never race with
 * each other). */
uint64_t sim_access_shmem_key(void);

/* One side of an OpenSHMEM operation: `count` blocks of `len` bytes, the
 * first at addr, each `stride` bytes after the one before (count 1 for
 * contiguous data).  Its end is pending (until sim_access_shmem_quiet or
 * sim_access_shmem_observed) or now (the operation completed before its
 * call returned: at rank's present clock).  Checked against every record
 * before it, then recorded. */
typedef struct sim_shmem_access {
    int rank;           /* the PE that issued it */
    int target;         /* the PE whose memory the target side is (-1: the origin's buffer) */
    const void *addr;   /* first byte */
    size_t len;         /* bytes per block */
    size_t count;       /* blocks */
    ptrdiff_t stride;   /* bytes from one block to the next */
    bool writes;        /* stores into the bytes */
    bool atomic;        /* an atomic operation: atomic with others of the same basic type */
    MPI_Datatype basic; /* atomics: the element type */
    bool fetches;       /* the target side of a get or a fetching atomic */
    bool pending;       /* ends at the issuer's quiet, not now */
    const char *what;   /* "shmem_int_put" (static) */
    const char *role;   /* "target", "source buffer", ... (static) */
    void *site;         /* the call site */
    uint64_t key;       /* sim_access_shmem_key() */
    uint32_t ctx;       /* its context: 0 the default one (shmem_ctx_create's are others) */
} sim_shmem_access;
void sim_access_shmem_add(const sim_shmem_access *a);

/* shmem_ctx_fence by rank on context ctx (0: shmem_fence): its pending
 * target sides on that context are delivered before anything it issues
 * later on it to the same PE (fetches excepted). */
void sim_access_shmem_fence(int rank, uint32_t ctx);
/* How many fences rank made so far on context ctx. */
uint32_t sim_access_shmem_fences(int rank, uint32_t ctx);

/* shmem_ctx_quiet by rank on context ctx (0: shmem_quiet, or what implies
 * one): every pending side of its operations on that context ends now, at
 * call at site. */
void sim_access_shmem_quiet(int rank, uint32_t ctx, const char *call, void *site);

/* PE observer saw (shmem_wait_until, shmem_test) a value written by the
 * operation `key` of PE origin on context ctx, issued after origin's fence
 * number `fences` there: that operation and origin's target sides to
 * observer on that context issued before that fence are delivered; they
 * end now, at observer's clock. */
void sim_access_shmem_observed(int observer, int origin, uint32_t ctx, uint32_t fences,
                               uint64_t key, const char *call, void *site);

/* ---------------------------------------------------------------------- */
/* MPI-IO (file.c): accesses of files, on the same clocks                 */

/* One data access of a file: `n` runs of file bytes, runs[2i] to
 * runs[2i+1] (end excluded), made by rank through call at site.  It is
 * pending until the rank synchronises the file (sim_access_file_sync).
 * atomic: made in atomic mode (MPI_File_set_atomicity), which makes
 * conflicting accesses of other atomic ones sequentially consistent. */
typedef struct sim_file_access {
    int rank;
    int file;         /* the host file's identity, from 1 */
    const char *path; /* for reports; lives as long as the simulator */
    const int64_t *runs;
    size_t n;
    bool writes;
    bool atomic;
    const char *what; /* "MPI_File_write_at" (static) */
    void *site;
} sim_file_access;

/* Checks the access against the records of the same file made by other
 * ranks and records it.  MPI 3.1 13.6.1: in nonatomic mode two
 * conflicting accesses are ordered only by MPI_File_sync of the first
 * one's rank, a synchronisation from it to the second one's rank, and an
 * MPI_File_sync there before the second access; so the second access is
 * checked at its rank's clock as of that rank's latest sync (or open). */
void sim_access_file_add(const sim_file_access *a);

/* rank synchronised the file (MPI_File_sync, MPI_File_close): its pending
 * accesses of it end now, at call at site; and the clock of its later
 * accesses is its present one.  MPI_File_open does the latter (call NULL). */
void sim_access_file_sync(int rank, int file, const char *call, void *site);

/* rank synchronises with a clock another rank released (its own becomes
 * the join of both). */
void sim_access_acquire(int rank, const sim_vc *x);

#endif
