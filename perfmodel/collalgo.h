/*
 * collalgo.h - MPI collectives as the point-to-point schedules MPICH runs,
 * and an executor that plays one schedule against the caller's clock and
 * network.
 *
 * Performance prediction does not price a collective with a formula: it
 * replays the messages a real MPI would send, so that the network model sees
 * the same contention, the same latencies on the critical path and the same
 * waiting on late members.  This module only says who sends what to whom and
 * in which order; it knows nothing about time or links.
 *
 * SCHEDULES
 *
 * A schedule gives every member (0 .. p-1, ranks of the communicator) a list
 * of steps, each a send to or a receive from a peer, grouped into rounds
 * that the member runs one after the other.  The steps of one round are
 * posted together (like MPI_Sendrecv, or Isends/Irecvs followed by a
 * Waitall); a blocking send or receive that MPICH issues on its own is a
 * round of its own.  Rounds are numbered from 0 per member with no gap (a
 * round in which a member has nothing to do is left out, so two members'
 * round numbers need not line up).
 *
 * Pairing: for every ordered pair (a, b), the k-th send from a to b in a's
 * step order matches the k-th receive from a in b's step order, with the
 * same size.  No member sends to itself (local copies are not messages) and
 * no round holds two steps of the same direction with the same peer.
 *
 * Algorithms (as in MPICH; "rel" is (member - root + p) % p):
 *   barrier     dissemination: round k (2^k < p) sends 0 bytes to
 *               (i + 2^k) % p and receives from (i - 2^k + p) % p.  The
 *               empty messages are kept: they are the barrier.
 *   bcast       binomial tree: receive the buffer from rel - lowbit(rel),
 *               then send it to rel + m for m = the powers of two below
 *               lowbit(rel) (the root: below p), largest first, one round each.
 *   reduce      binomial tree towards the root: receive from rel + m for
 *               m = 1, 2, 4 ... below lowbit(rel) while rel + m < p, one
 *               round each, then send to rel - lowbit(rel).  The whole
 *               vector every time.  (Assumes a commutative operation: MPICH
 *               reduces through rank 0 for a non-commutative one.)
 *   allreduce   recursive doubling.  With pof2 the largest power of two
 *               <= p and rem = p - pof2, the first 2*rem members pair up: an
 *               even one sends its vector to the odd one above it and later
 *               receives the result from it; the odd ones and the members
 *               >= 2*rem do log2(pof2) exchanges (one Sendrecv round each)
 *               with the partner at distance 1, 2, 4 ... in that reduced
 *               numbering, then the odd ones send the result back.
 *   gather      binomial tree like reduce, each message carrying the
 *               sender's whole subtree: min(lowbit(rel), p - rel) blocks.
 *   scatter     the reverse of gather: receive the subtree from the parent,
 *               then send each child its subtree, largest child first.
 *   gatherv     linear: the root posts every receive in one round; each
 *               other member sends its block in one round.
 *   scatterv    linear, the reverse.
 *   allgather,  ring: round k = 0 .. p-2 sends block (i - k) to i + 1 and
 *   allgatherv  receives block (i - k - 1) from i - 1 (indices mod p).
 *   alltoall,   pairwise exchange: round k-1 for k = 1 .. p-1 sends to
 *   alltoallv   i ^ k and receives from i ^ k when p is a power of two,
 *               otherwise sends to (i + k) % p and receives from
 *               (i - k + p) % p.
 *   reduce_scatter  pairwise exchange with the shifts above (never XOR):
 *               round k-1 sends block[(i + k) % p] bytes to (i + k) % p
 *               and receives block[i] bytes from (i - k + p) % p.
 *   scan,       recursive doubling: for mask = 1, 2, 4 ... < p, a round that
 *   exscan      sends the partial result to i ^ mask and receives from it,
 *               when i ^ mask < p.  The whole vector every time.
 *
 * Empty messages are left out where MPICH leaves them out: a collective of
 * zero bytes (uniform kinds: bytes == 0; allgatherv, reduce_scatter: every
 * block 0) sends nothing at all, except the barrier.  gatherv, scatterv,
 * allgatherv and alltoallv skip each empty block or matrix entry (both the
 * send and its receive); reduce_scatter still exchanges empty blocks.  MPICH
 * switches algorithms by message size and communicator size (e.g. scatter +
 * allgather for long bcasts, Bruck for short alltoalls); this module always
 * uses the ones above, and does not split long messages into pipeline chunks.
 *
 * EXECUTOR
 *
 * A pm_ca_run is one instance of a collective in flight.  The caller owns
 * the clock and the network: the run asks it to start transfers through a
 * callback and is told when they arrive.  The rules:
 *
 *   - A member starts round 0 when it arrives (calls the collective).  A
 *     member with no steps is done at its arrival.
 *   - Entering a round, a member starts all that round's sends at once, at
 *     the time it enters (start callback, in step order).
 *   - A send of at most eager_limit bytes is locally complete at once
 *     (eager); a larger one when its transfer is done (rendezvous: the sender
 *     is held until the data is delivered).
 *   - A receive is complete when the transfer of the matching send (see
 *     Pairing) is done.  The transfer may be done before the receiver
 *     reaches that round, or before it arrives at all: the data waits at the
 *     receiver, and the receive is then complete as soon as the round is
 *     entered.
 *   - A member leaves a round when all its sends are locally complete and
 *     all its receives complete, at the latest of those times (never before
 *     it entered), and enters the next round at that time.  After its last
 *     round it is done at that time.
 *
 * Only the sender's clock starts a transfer: a rendezvous transfer does not
 * wait for the receiver to post its receive.  The caller decides how long a
 * transfer takes (a rendezvous handshake included); the eager limit here
 * only decides when the sender may go on.
 *
 * Calls (arrive, transfer_done) must come in non-decreasing time order.  A
 * call may start further transfers synchronously, all at the time of that
 * call; the start callback must not call back into the run.
 */
#ifndef ORDEX_PM_COLLALGO_H
#define ORDEX_PM_COLLALGO_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Largest communicator a schedule is built for. */
#define PM_CA_MAX_MEMBERS (1 << 24)

typedef enum pm_ca_kind {
    PM_CA_BARRIER,
    PM_CA_BCAST,
    PM_CA_REDUCE,
    PM_CA_ALLREDUCE,
    PM_CA_GATHER,
    PM_CA_SCATTER,
    PM_CA_GATHERV,
    PM_CA_SCATTERV,
    PM_CA_ALLGATHER,
    PM_CA_ALLGATHERV,
    PM_CA_ALLTOALL,
    PM_CA_ALLTOALLV,
    PM_CA_REDUCE_SCATTER,
    PM_CA_SCAN,
    PM_CA_EXSCAN,
    PM_CA_NKINDS /* not a kind: the number of kinds */
} pm_ca_kind;

#define PM_CA_ERROR (pm_ca_error_quark())
GQuark pm_ca_error_quark(void);

typedef enum {
    PM_CA_ERROR_KIND,     /* not a pm_ca_kind, or no arguments at all */
    PM_CA_ERROR_MEMBERS,  /* p < 1 or p > PM_CA_MAX_MEMBERS */
    PM_CA_ERROR_ROOT,     /* a rooted kind whose root is not a member */
    PM_CA_ERROR_MISSING,  /* a v kind without its block array or matrix */
    PM_CA_ERROR_TOO_BIG,  /* a message size or the step count does not fit */
    PM_CA_ERROR_INTERNAL, /* the schedule breaks its own pairing (a bug) */
} pm_ca_error_code;

typedef struct pm_ca_args {
    pm_ca_kind kind;
    int p;    /* members, 1 .. PM_CA_MAX_MEMBERS */
    int root; /* bcast, reduce, gather(v), scatter(v): 0 .. p-1; ignored otherwise */
    /* Uniform kinds: the bytes of one member's block (bcast: the whole
     * buffer; reduce, allreduce, scan, exscan: the whole vector; gather,
     * scatter, allgather, alltoall: one member's block).  Ignored by the
     * barrier and the kinds below. */
    uint64_t bytes;
    /* gatherv, scatterv, allgatherv, reduce_scatter: block[i] = the bytes of
     * member i's block (p entries; for reduce_scatter, the part of the
     * vector that member i receives).  Only read while building. */
    const uint64_t *block;
    /* alltoallv: matrix[i * p + j] = the bytes member i sends to member j
     * (p * p entries; the diagonal is a local copy and ignored). */
    const uint64_t *matrix;
} pm_ca_args;

typedef struct pm_ca_step {
    int round; /* rounds of a member run in order, from 0, without gaps */
    bool send; /* true: send to peer; false: receive from peer */
    int peer;  /* member index, never the member itself */
    uint64_t bytes;
} pm_ca_step;

typedef struct pm_ca_schedule pm_ca_schedule;

/* "barrier", "bcast", ... ("?" for a value that is not a kind). */
const char *pm_ca_kind_name(pm_ca_kind kind);

/* The schedule of a collective.  NULL with *error set (PM_CA_ERROR, a
 * one-line message naming the collective and the bad argument) when the
 * arguments are unusable.  The schedule does not keep a->block or
 * a->matrix. */
pm_ca_schedule *pm_ca_build(const pm_ca_args *a, GError **error);
void pm_ca_free(pm_ca_schedule *s);

/* One part of a composed schedule (pm_ca_compose): schedule s, whose
 * member i is member map[i] of the whole. */
typedef struct pm_ca_part {
    const pm_ca_schedule *s;
    const int *map;
} pm_ca_part;

/* A schedule of p members made of parts, as a collective made of smaller
 * ones runs them (an intercommunicator collective: a step within each
 * group, then one between the groups' leaders): each member runs its steps
 * of parts[0], then those of parts[1] ..., each part's rounds after the
 * rounds it already has; peers are mapped.  Parts on disjoint members thus
 * run side by side.  `kind` is what pm_ca_kind_of reports.  NULL with
 * *error (PM_CA_ERROR_MEMBERS) when p is out of range or a map sends a
 * member outside 0 .. p-1 or two members of one part to the same one.
 * The schedule keeps neither the parts nor the maps. */
pm_ca_schedule *pm_ca_compose(pm_ca_kind kind, int p, const pm_ca_part *parts, int nparts,
                              GError **error);

pm_ca_kind pm_ca_kind_of(const pm_ca_schedule *s);
int pm_ca_members(const pm_ca_schedule *s);

/* The steps of member (0 <= member < p), in the order it runs them: rounds
 * ascending, and within a round the order MPICH posts them in. */
int pm_ca_nsteps(const pm_ca_schedule *s, int member);
const pm_ca_step *pm_ca_steps(const pm_ca_schedule *s, int member);

/* Rounds of member: its last step's round + 1, or 0 without steps. */
int pm_ca_nrounds(const pm_ca_schedule *s, int member);

/* ---------------------------------------------------------------------- */
/* Executor (semantics: see the top of this file)                          */

/* Starts a transfer of `bytes` bytes from member src to member dst at
 * `time`; returns a nonzero id, distinct from every id of this run still in
 * flight, that the caller passes to pm_ca_run_transfer_done once the
 * transfer has arrived. */
typedef uint64_t (*pm_ca_start_fn)(void *user, int src, int dst, uint64_t bytes, double time);

typedef struct pm_ca_run pm_ca_run;

/* A run of schedule s, which must outlive it.  Sends of at most eager_limit
 * bytes are eager.  Nothing starts until a member arrives. */
pm_ca_run *pm_ca_run_new(const pm_ca_schedule *s, uint64_t eager_limit, pm_ca_start_fn start,
                         void *user);
void pm_ca_run_free(pm_ca_run *r);

/* Member calls the collective at `time`.  False (and nothing happens) when
 * member is not in 0 .. p-1, has already arrived, or time is earlier than a
 * previous call's. */
bool pm_ca_run_arrive(pm_ca_run *r, int member, double time);

/* The transfer `id` arrived at `time`.  False (and nothing happens) when id
 * is not a transfer of this run in flight, so a caller may offer every
 * completion of its network to each run; also false when time is earlier
 * than a previous call's. */
bool pm_ca_run_transfer_done(pm_ca_run *r, uint64_t id, double time);

/* Whether member has finished the collective, and if so when (*time may be
 * NULL). */
bool pm_ca_run_member_done(const pm_ca_run *r, int member, double *time);

/* Every member done. */
bool pm_ca_run_finished(const pm_ca_run *r);

/* Transfers started and not yet reported done. */
int pm_ca_run_in_flight(const pm_ca_run *r);

#endif
