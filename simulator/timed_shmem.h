/*
 * timed_shmem.h - what OpenSHMEM's one-sided operations cost in simulated
 * time under `ordex predict`.
 *
 * The model is RMA's (rma.h, "simulated time"): a put, a put_nbi and a
 * non-fetching atomic are a message of their bytes to the target, which
 * the PE does not wait for (shmem_quiet and every call that completes
 * operations do); a get is a request and a reply of its bytes, which the
 * PE waits for (a get_nbi: its quiet); a fetching atomic is a message of
 * its operands and a reply, which the PE waits for; an atomic costs the
 * target SIM_TIMED_ACC_ELEMENT_WORK of computation.  A PE that saw a
 * put's or an atomic's value in shmem_wait_until or shmem_test goes on
 * once that write has arrived.  Every function does nothing unless
 * predict runs (sim_timed_active).
 */
#ifndef ORDEX_SIM_TIMED_SHMEM_H
#define ORDEX_SIM_TIMED_SHMEM_H

#include <stdbool.h>
#include <stdint.h>

/* PE origin (the calling rank) issues an operation to target: `out`
 * bytes there, `work` CPU seconds at the target, then `back` bytes back
 * when `reply`.  Charges the PE's send overhead now.  Returns its id, 0
 * when predict is off. */
uint64_t sim_timed_shmem_issue(int origin, int target, uint64_t out, uint64_t back, bool reply,
                               double work);

/* The calling PE waits until its operation id is done (its reply has
 * arrived, or for a one-way operation, its message). */
void sim_timed_shmem_wait(uint64_t id);

/* The calling PE waits until every operation it issued is done. */
void sim_timed_shmem_quiet(int pe);

/* Forgets every operation (predict starts or stops). */
void sim_timed_shmem_reset(void);

#endif
