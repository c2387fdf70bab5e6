/*
 * shmem.h - OpenSHMEM 1.4 on the simulator (docs/shmem.md).  Private to
 * simulator/.
 *
 * Every PE is a rank of the simulated job (PE number = world rank), so
 * run, explore, replay, findings, traces and JSON treat PEs as ranks.  The
 * entry points the program calls are in shmem_api.c; they enter like MPI
 * calls (sim_call_enter) and call the functions below, which check the
 * arguments (a usage error is a finding at the call that stops the run),
 * do what the call does and tell the race checker (access.h).
 *
 * Symmetric memory.  Symmetric data objects are the globals and statics of
 * each PE's own copy of the program (and of its own libraries): the k-th
 * writable segment of one PE corresponds byte for byte to the k-th of
 * another.  Symmetric heap objects are allocated collectively: the k-th
 * allocation of every PE is object k, one block per PE in its own heap
 * arena, the same size everywhere.  A remote address is the same object at
 * the same offset on the target PE.
 *
 * When operations take effect.  Puts, gets and atomics read and write the
 * target's memory in the call that issues them, in program order: a
 * correct program cannot tell this from any delivery OpenSHMEM allows (a
 * put it may observe only after a quiet, a barrier, or a fenced flag it
 * waits for); a racy one sees one of the allowed results.  What OpenSHMEM
 * leaves unordered is modelled in the race checker only: a put's target
 * side stays pending until its PE's shmem_quiet (or a call that implies
 * one) or until the target sees a later fenced write of that PE in
 * shmem_wait_until or shmem_test.
 */
#ifndef ORDEX_SIM_SHMEM_H
#define ORDEX_SIM_SHMEM_H

#include <glib.h>
#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simulator/sim.h"

/* Set-up and teardown with the simulator (sim_create, sim_destroy); nothing
 * is allocated until a PE calls shmem_init. */
void sim_shmem_init(int nranks);
void sim_shmem_fini(void);

/* Feeds the OpenSHMEM state that decides what PEs can do next (waits,
 * locks, collectives in progress, heap objects); see sim_digest_engine. */
void sim_shmem_digest(sim_digest_feed feed, void *user);

/* Wakes every PE in shmem_wait_until whose condition holds now, as MPI can
 * make it (a put into a window, a message, a collective into the watched
 * variable); returns whether it woke any.  events.c calls it after every
 * event and before it lets pollers go on. */
bool sim_shmem_wake_satisfied(void);

/* Deadlock reports: appends to `to` the PEs that rank, blocked in
 * shmem_wait_until or shmem_set_lock, waits for. */
void sim_shmem_waits_of(int rank, GArray *to);

/* A rank ended with `code`: when it called shmem_init and not
 * shmem_finalize, records that finding and returns true. */
bool sim_shmem_rank_ended(int rank, int code);

/* ---------------------------------------------------------------------- */
/* The calls (shmem_api.c), made after sim_call_enter                      */

/* Element kinds of typed operations. */
typedef enum sim_shmem_kind {
    SIM_SHMEM_SIGNED,
    SIM_SHMEM_UNSIGNED,
    SIM_SHMEM_FLOAT,
} sim_shmem_kind;

/* Fails the call (a finding at its call site, the run stops) unless the
 * PE has called shmem_init and not shmem_finalize. */
void sim_shmem_check_active(void);

/* shmem_init (and its other names) on the calling PE, granting
 * thread_level: fails the call when the PE initialised already or
 * SHMEM_SYMMETRIC_SIZE is not a size; makes the PE's globals symmetric
 * (tracked) and waits for every PE (a barrier). */
void sim_shmem_do_init(int thread_level);
/* The level the calling PE was granted. */
int sim_shmem_thread_level(void);
/* shmem_finalize: quiet and barrier; OpenSHMEM calls fail afterwards. */
void sim_shmem_do_finalize(void);
/* shmem_global_exit: a finding (kind SIM_F_ABORT) and the end of the run. */
_Noreturn void sim_shmem_global_exit(int status);

/* The PE's n PEs and its number. */
int sim_shmem_npes(void);
int sim_shmem_mype(void);
bool sim_shmem_pe_valid(int pe);
/* Whether addr is symmetric on the calling PE. */
bool sim_shmem_addr_symmetric(const void *addr);
/* shmem_ptr: addr on pe (NULL unless pe is the caller: another PE's
 * memory is not directly accessible here). */
void *sim_shmem_ptr(const void *addr, int pe);

/* The symmetric heap, collective (every PE makes the same calls in the
 * same order with the same arguments, or the call fails naming both PEs):
 * sim_shmem_alloc gives size bytes (zeroed when zero; align 0: the default
 * alignment) in the PE's own heap, NULL when size is 0 or the symmetric heap
 * has no room, with a barrier on exit; sim_shmem_free frees a block the
 * heap calls returned (NULL: nothing), after a barrier; sim_shmem_realloc
 * moves it (NULL ptr: allocates, size 0: frees; NULL and the block
 * unchanged when there is no room), with barriers around. */
void *sim_shmem_alloc(size_t align, size_t size, bool zero);
void sim_shmem_free(void *ptr);
void *sim_shmem_realloc(void *ptr, size_t size);

/* A put (get false) or get (get true) of n elements of elem bytes; dst and
 * src strides in elements (1: contiguous); basic: the elements' MPI type
 * for the typed routines (the buffer checks hold both buffers to it),
 * MPI_BYTE for the sized ones (no C type); flags: SIM_XFER_NBI for the
 * _nbi forms, SIM_XFER_VALUE when the local side is the call's own value
 * (shmem_p, shmem_g), not a buffer of the program.  Both buffers are
 * checked against their memory objects (bufcheck.h), the symmetric one on
 * the calling PE's copy. */
enum { SIM_XFER_NBI = 1, SIM_XFER_VALUE = 2 };
void sim_shmem_xfer(bool get, void *dest, const void *src, size_t elem, size_t n, ptrdiff_t dst,
                    ptrdiff_t sst, MPI_Datatype basic, int pe, unsigned flags);

/* Atomic memory operations. */
typedef enum sim_shmem_amo {
    SIM_AMO_FETCH,
    SIM_AMO_SET,
    SIM_AMO_CSWAP,
    SIM_AMO_SWAP,
    SIM_AMO_FINC,
    SIM_AMO_INC,
    SIM_AMO_FADD,
    SIM_AMO_ADD,
    SIM_AMO_FAND,
    SIM_AMO_AND,
    SIM_AMO_FOR,
    SIM_AMO_OR,
    SIM_AMO_FXOR,
    SIM_AMO_XOR,
} sim_shmem_amo;
/* op on the element of `size` bytes at dest on pe (value, cond: the
 * operands, as bytes of the element type); the fetched value goes to
 * *result when the op fetches.  basic: the element's MPI type (which
 * atomics are atomic with each other). */
void sim_shmem_atomic(sim_shmem_amo op, void *dest, const void *value, const void *cond,
                      void *result, size_t size, MPI_Datatype basic, int pe);

/* shmem_fence: the PE's later writes to a PE are delivered after its
 * earlier ones.  shmem_quiet: every operation of the PE completes.
 * shmem_barrier_all: quiet, then a barrier of every PE; shmem_sync_all:
 * the barrier alone. */
/* shmem_fence and shmem_quiet, on the context that sim_shmem_ctx_use named
 * for this call (the default one otherwise). */
void sim_shmem_fence(void);
void sim_shmem_quiet(void);

/* Contexts (OpenSHMEM 1.4 9.4).  A shmem_ctx_* call names its context
 * first (is_default: SHMEM_CTX_DEFAULT), which the operation that follows
 * in the same call (sim_shmem_xfer, sim_shmem_atomic, sim_shmem_fence,
 * sim_shmem_quiet) then uses; a context that its PE did not create, or
 * destroyed, is an error.  Its quiet and fence apply to its own operations
 * only; shmem_quiet, barriers and the other calls that complete operations
 * complete those of the default context. */
void sim_shmem_ctx_use(const void *ctx, bool is_default);
/* Stores the new context's handle (a shmem_ctx_t) in *ctx; returns 0. */
int sim_shmem_ctx_create(long options, void **ctx);
/* Completes the context's operations, then forgets it. */
void sim_shmem_ctx_destroy(const void *ctx, bool is_default);
void sim_shmem_barrier_all(void);
void sim_shmem_sync_all(void);
/* shmem_barrier / shmem_sync on an active set (start, 2^logstride apart,
 * size PEs). */
void sim_shmem_barrier_set(int start, int logstride, int size, long *psync, bool sync);

/* shmem_wait_until (test false: blocks until the comparison holds) and
 * shmem_test (returns whether it holds now). */
bool sim_shmem_wait(volatile void *ivar, size_t size, sim_shmem_kind kind, int cmp,
                    const void *value, bool test);

/* Distributed locks, named by the symmetric location of lock: set_lock
 * blocks until the lock is the PE's (granted in request order); clear_lock
 * quiets and hands it to the next PE waiting; test_lock takes it when free
 * (returns 0) or returns 1 after letting the other PEs run.  Taking a lock
 * the PE holds, or clearing one it does not, fails the call. */
void sim_shmem_set_lock(volatile long *lock);
void sim_shmem_clear_lock(volatile long *lock);
int sim_shmem_test_lock(volatile long *lock);

/* Collectives over an active set: broadcast (nelems of elem bytes from
 * the root's source), fcollect, alltoall, and the _to_all reductions
 * (type and op as MPI's).  Source, dest, pWrk and pSync are checked
 * against their memory objects (bufcheck.h) with the sizes Open MPI's
 * shmem.h gives pSync (SHMEM_*_SYNC_SIZE longs) and OpenSHMEM gives pWrk. */
void sim_shmem_broadcast(void *dest, const void *source, size_t nelems, size_t elem, int root,
                         int start, int logstride, int size, long *psync);
void sim_shmem_fcollect(void *dest, const void *source, size_t nelems, size_t elem, int start,
                        int logstride, int size, long *psync);
void sim_shmem_alltoall(void *dest, const void *source, size_t nelems, size_t elem, int start,
                        int logstride, int size, long *psync);
/* shmem_collect: each PE's nelems may differ; dest receives the blocks in
 * the active set's order. */
void sim_shmem_collect(void *dest, const void *source, size_t nelems, size_t elem, int start,
                       int logstride, int size, long *psync);
/* shmem_alltoalls: strided blocks (dst, sst in elements, at least 1). */
void sim_shmem_alltoalls(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                         size_t nelems, size_t elem, int start, int logstride, int size,
                         long *psync);
void sim_shmem_reduce(void *dest, const void *source, int nreduce, MPI_Datatype type, MPI_Op op,
                      int start, int logstride, int size, void *pwrk, long *psync);

#endif
